"""Replay a saved game at the table, turn by turn, forward and back."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.widgets import RichLog, Static

from dbdeck.cards.catalog import Catalog
from dbdeck.engine.events import Event
from dbdeck.engine.game import Game
from dbdeck.saves import replay_events
from dbdeck.tui.table import Seating, TableScreen
from dbdeck.tui.widgets import Board

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

    def __init__(self, catalog: Catalog, data: dict[str, Any]) -> None:
        self.frames: list[tuple[Game, list[Event]]] = []
        turn_events: list[Event] = []
        last_turn = -1
        previous: Game | None = None
        for _action, game, events in replay_events(catalog, data):
            if game.state.turn != last_turn and previous is not None:
                self.frames.append((previous, turn_events))
                turn_events = []
            turn_events += events
            last_turn = game.state.turn
            previous = game.clone()
        if previous is not None:
            self.frames.append((previous, turn_events))
        super().__init__(self.frames[0][0], Seating(players=dict(data.get("players", {})), pace=0))
        self.index = 0
        self.save_id = data["id"]

    def refresh_table(self) -> None:
        for widget in self.query(Board):
            widget._signature = None
            widget.show(self.game)
        self.legal = []
        self._fill_actions()
        prompt = self.query_one("#prompt", Static)
        state = self.game.state
        result = f" — {state.reason}" if state.winner else ""
        prompt.update(
            Text(
                f"Replay of {self.save_id}: turn {state.turn} "
                f"({self.index + 1} of {len(self.frames)}){result}\n"
                "←/→ previous/next turn, Home/End first/last",
                style="bold",
            )
        )

    def _fill_actions(self) -> None:
        self.query_one("#action-list").clear_options()  # type: ignore[attr-defined]

    def on_mount(self) -> None:
        super().on_mount()
        self._show_frame()

    def _show_frame(self) -> None:
        self.game, events = self.frames[self.index]
        log = self.query_one("#log", RichLog)
        log.clear()
        self.write_events(events)
        self.refresh_table()

    def action_step(self, delta: int) -> None:
        self.index = max(0, min(len(self.frames) - 1, self.index + delta))
        self._show_frame()

    def action_goto(self, where: int) -> None:
        self.index = where % len(self.frames)
        self._show_frame()
