"""What the table unit (``device/``), the hub (``hub/``), the referee's desk (``desk/``) and the simulator share, so
none of them is a library for another:

- ``shared.texts``: every text a player, referee or organiser reads, Czech with English as an option;
- ``shared.gcg_texts``: how a GCG record's problems are worded for a referee;
- ``shared.journal`` (and ``shared.errors``): the durable append-only journal and its atomic file writes;
- ``shared.board_link``: the reader of the instrumented board's serial protocol (a table's board, the desk's
  master board);
- ``shared.timesource``: the one time source (monotonic, or a fake a test advances);
- ``shared.stop_signal``: waiting on the main thread for SIGTERM or Ctrl-C.

It imports the engine and the firmware's protocol modules, never ``device``, ``hub``, ``desk``, ``hw_sim`` or
``tournament`` (``tests/test_layering.py``).
"""
