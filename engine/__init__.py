"""The pure rules engine: tile sets, board, placement, scoring, game records.

Nothing in this package touches hardware, files chosen by a user, threads or the wall clock.
"""
