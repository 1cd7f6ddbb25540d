"""Replay a saved game at the table, turn by turn, forward and back.

A replay is its owner's own record, so its views show every hand; like any
table, it draws only ``TableView`` values.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.widgets import RichLog

from dbdeck.cards.catalog import Catalog
from dbdeck.engine.actions import Action
from dbdeck.engine.view import LogLine, Offer, TableView, log_lines, seat_view
from dbdeck.saves import replay_events
from dbdeck.tui.backend import Handoff, Outcome, Seating
from dbdeck.tui.table import TableScreen

__all__ = ["ReplayBackend", "ReplayScreen"]


class ReplayBackend:
    """The table after each turn of a saved game; nothing can be played."""

    shared = False

    def __init__(self, catalog: Catalog, data: dict[str, Any]) -> None:
        self.catalog = catalog
        self.seating = Seating(players=dict(data.get("players", {})), pace=0)
        self.save_id = str(data["id"])
        self.frames: list[tuple[TableView, tuple[LogLine, ...]]] = []
        lines: list[LogLine] = []
        last_turn = -1
        previous: TableView | None = None
        for _action, game, events in replay_events(catalog, data):
            if game.state.turn != last_turn and previous is not None:
                self.frames.append((previous, tuple(lines)))
                lines = []
            lines += log_lines(events, game, None, every_hand=True)
            last_turn = game.state.turn
            previous = seat_view(game, None, every_hand=True)
        if previous is not None:
            self.frames.append((previous, tuple(lines)))
        self.index = 0
        self._pending: list[LogLine] = list(self.frames[0][1]) if self.frames else []

    def go(self, index: int) -> None:
        """Show frame ``index`` (clamped to the record)."""
        self.index = max(0, min(len(self.frames) - 1, index))
        self._pending = list(self.frames[self.index][1])

    def view(self) -> TableView:
        """The table after the current turn."""
        return self.frames[self.index][0]

    def legal_actions(self) -> list[Offer]:
        """A replay offers nothing."""
        return []

    def send(self, action: Action) -> Outcome:
        """A replay is read-only."""
        return Outcome(False, "This is a replay: nothing can be played.")

    def undo(self) -> Outcome:
        """A replay is read-only."""
        return Outcome(False, "This is a replay: use ← and → to move through it.")

    def events(self) -> list[LogLine]:
        """The current turn's log lines, once."""
        lines, self._pending = self._pending, []
        return lines

    def resume(self) -> Outcome:
        """Nothing to resume."""
        return Outcome(True)

    def handoff(self) -> Handoff | None:
        """No hand-off in a replay."""
        return None

    def take_keyboard(self) -> None:
        """No hand-off in a replay."""


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

    def __init__(self, catalog: Catalog, data: dict[str, Any]) -> None:
        self.replay = ReplayBackend(catalog, data)
        super().__init__(self.replay)

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
