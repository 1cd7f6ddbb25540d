"""Replay a saved game at the table, turn by turn, forward and back.

A replay is its owner's own record, so its views show every hand; like any
table, it draws only ``TableView`` values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.binding import Binding

from dbdeck.games.deckbuilding.engine.panels import TableView
from dbdeck.games.deckbuilding.tui.play import TableScreen
from dbdeck.games.deckbuilding.tui.widgets import TableLog

if TYPE_CHECKING:
    from dbdeck.tui.local import ReplayBackend

__all__ = ["ReplayScreen"]


class ReplayScreen(TableScreen, inherit_bindings=False):
    """The table as it was after each turn of a saved game (read-only): only
    the replay's own keys, none of the table's play keys."""

    BINDINGS = [
        Binding("right,n", "step(1)", "Next turn", priority=True),
        Binding("left,b", "step(-1)", "Previous turn", priority=True),
        Binding("home", "goto(0)", "First", priority=True),
        Binding("end", "goto(-1)", "Last", priority=True),
        Binding("question_mark", "help", "Help"),
        Binding("i", "inspect", "Inspect"),
        Binding("tab", "app.focus_next", "Next panel", show=False),
        Binding("escape", "leave", "Back"),
        Binding("q", "app.quit", "Quit"),
    ]

    KEYS = (
        ("→/n", "Next turn"),
        ("←/b", "Previous turn"),
        ("Home", "First"),
        ("End", "Last"),
        ("i", "Inspect"),
        ("Esc", "Back"),
        ("q", "Quit"),
    )

    announces_turns = False

    def __init__(self, replay: ReplayBackend) -> None:
        self.replay = replay
        super().__init__(replay)

    def status_text(self, view: TableView) -> Text:
        """Where in the record the table stands."""
        result = f" — {view.reason}" if view.winner else ""
        return Text(
            f"Replay of {self.replay.save_id}: {self._turn()} of {self.replay.last_turn}"
            f"{result} (→ next, ← previous, Home/End first/last)",
            style="bold",
        )

    def _turn(self) -> str:
        """The turn (or turns) the frame shown covers, as the game counts them."""
        replay = self.replay
        last = replay.turns[replay.index] if replay.turns else 0
        first = replay.turns[replay.index - 1] + 1 if replay.index > 0 else last
        return f"turn {last}" if first >= last else f"turns {first}–{last}"

    def action_leave(self) -> None:
        """Back to the screen below (the finished table), or quit."""
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit()

    def action_step(self, delta: int) -> None:
        """Move one turn forward or back."""
        self._show(self.replay.index + delta)

    def action_goto(self, where: int) -> None:
        """Jump to the first or last turn."""
        self._show(where % len(self.replay.frames))

    def _show(self, index: int) -> None:
        self.replay.go(index)
        self.query_one(TableLog).clear_all()
        self.refresh_table()
