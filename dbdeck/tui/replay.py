"""Replay a saved game at the table, turn by turn, forward and back.

A replay is its owner's own record, so its views show every hand; like any
table, it draws only ``TableView`` values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.binding import Binding
from textual.widgets import RichLog

from dbdeck.engine.table_view import TableView
from dbdeck.tui.table import TableScreen

if TYPE_CHECKING:
    from dbdeck.tui.local import ReplayBackend

__all__ = ["ReplayScreen"]


class ReplayScreen(TableScreen):
    """The table as it was after each turn of a saved game (read-only)."""

    BINDINGS = [
        Binding("right,n", "step(1)", "Next turn"),
        Binding("left,p", "step(-1)", "Previous turn"),
        Binding("home", "goto(0)", "First"),
        Binding("end", "goto(-1)", "Last"),
        Binding("question_mark", "help", "Help"),
        Binding("i", "inspect", "Inspect"),
        Binding("q", "app.quit", "Quit"),
    ]

    announces_turns = False

    def __init__(self, replay: ReplayBackend) -> None:
        self.replay = replay
        super().__init__(replay)

    def status_text(self, view: TableView) -> Text:
        """Where in the record the table stands."""
        result = f" — {view.reason}" if view.winner else ""
        return Text(
            f"Replay of {self.replay.save_id}: turn {self.replay.index + 1} "
            f"of {len(self.replay.frames)}{result}\n"
            "←/→ previous/next turn, Home/End first/last",
            style="bold",
        )

    def action_step(self, delta: int) -> None:
        """Move one turn forward or back."""
        self._show(self.replay.index + delta)

    def action_goto(self, where: int) -> None:
        """Jump to the first or last turn."""
        self._show(where % len(self.replay.frames))

    def _show(self, index: int) -> None:
        self.replay.go(index)
        self.query_one("#log", RichLog).clear()
        self.refresh_table()
