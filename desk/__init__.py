"""The referee's desk: the tools a tournament referee runs on a laptop beside the room, not on a table unit.

- ``partiar duplicate`` (:mod:`desk.duplicate`): a duplicate Scrabble round (racks, clock, answer slips, results),
  with the room's page (:mod:`desk.show`) and the instrumented master board (:mod:`desk.master_board`);
- ``partiar qualify`` (:mod:`desk.qualify`): qualification tasks, their answer key and a player's answer scored;
- ``partiar best`` (:mod:`desk.best`): the best plays of a rack on a position.

Each registers its command through the ``partiar.commands`` entry points (``pyproject.toml``), as the hub and the
simulator do. The rules they apply are the engine's (``engine.duplicate``, ``engine.qualify``, ``engine.movegen``);
the pages are served by ``eventstream``. What a table and a desk share (texts, the journal, the board link, the
wording of GCG errors) is in ``shared/``: the desk never imports ``device/``, and the table unit never imports the
desk (``tests/test_layering.py``).
"""
