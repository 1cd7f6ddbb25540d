"""The key bar at the foot of the table: the shared one
(``dbdeck.tui.keybar``), as every game's table has it."""

from __future__ import annotations

from dbdeck.tui.keybar import KeyBar

__all__ = ["KeyBar"]
