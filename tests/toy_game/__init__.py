"""A tiny second game, for the tests only: two seats draw and play number
cards from one shuffled deck (``match``), on a plain Textual table
(``screen``). It proves that the shared layers (saves, the commands, the
app, the shared table) serve a game they never name.

A test lists it in ``dbdeck.games`` for itself (``GAMES`` and
``TABLE_SCREENS``, by ``OPENER`` and ``SCREEN``: see the ``toy`` fixture of
``tests/test_any_game.py``).
"""

from __future__ import annotations

GAME_ID = "toy"
"""The toy's id in saves, table entries and on the wire."""

OPENER = "toy_game.match:open_rules"
"""Where the registry finds the toy's rules."""

SCREEN = "toy_game.screen:ToyTable"
"""Where the registry finds the toy's table screen."""
