"""The referee's desk: the tools a tournament referee runs on a laptop beside the room, not on a table unit.

- ``partiar duplicate`` (:mod:`desk.duplicate`): a duplicate Scrabble round (racks, clock, answer slips, results),
  with the room's page (:mod:`desk.show`) and the instrumented master board (:mod:`desk.master_board`);
- ``partiar qualify`` (:mod:`desk.qualify`): qualification tasks, their answer key and a player's answer scored;
- ``partiar best`` (:mod:`desk.best`): the best plays of a rack on a position.

Each registers its command through the ``partiar.commands`` entry points (``pyproject.toml``), as the hub and the
simulator do. The rules they apply are the engine's (``engine.duplicate``, ``engine.qualify``, ``engine.movegen``);
the pages are served by ``eventstream``. From ``device/`` the desk uses only what a table and a desk share
(:data:`DEVICE_MODULES`); the table unit never imports the desk (``tests/test_layering.py``).
"""

DEVICE_MODULES = ("device.texts", "device.journal", "device.errors", "device.board_link", "device.cli.gcg",
                  "device.cli.language")
"""What the desk may import from ``device/``: the words every command says in Czech and English (``device.texts``),
the durable append-only journal and its errors (``device.journal``, ``device.errors``), the board's serial link
that reads the master board as it reads a table's board (``device.board_link``), and how ``partiar gcg`` words a
GCG record's errors (``device.cli.gcg``), so ``partiar best`` says them the same way; and the ``partiar``
command's language (``device.cli.language``), in which the desk's commands give their help."""
