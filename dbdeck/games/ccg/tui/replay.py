"""A saved CCG game stepped through, turn by turn, forward and back.

The owner's own record: every hand is shown. Like the table, it draws only
the views it is given (a ``ReplayBackend``'s frames).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from dbdeck.games.ccg.tui.screen import CcgTableScreen

__all__ = ["CcgReplayScreen"]


class CcgReplayScreen(CcgTableScreen, inherit_bindings=False):
    """The table after each turn of a saved game (read-only): the replay's
    keys only, none of the table's play keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,n", "step(1)", "Next turn", priority=True),
        Binding("left,b", "step(-1)", "Previous turn", priority=True),
        Binding("home", "goto(0)", "First", priority=True),
        Binding("end", "goto(-1)", "Last", priority=True),
        Binding("i", "inspect", "Inspect"),
        Binding("tab", "app.focus_next", "Next panel", show=False),
        Binding("shift+tab", "app.focus_previous", "Previous panel", show=False),
        Binding("q", "app.quit", "Quit"),
    ]

    KEYS: ClassVar[tuple[tuple[str, str], ...]] = (
        ("Right", "Next turn"),
        ("Left", "Previous"),
        ("Home", "First"),
        ("End", "Last"),
        ("i", "Inspect"),
        ("Tab", "Panels"),
        ("q", "Quit"),
    )
    """The replay's key bar."""

    def keys_now(self) -> tuple[tuple[str, str], ...]:
        """The replay's keys, always."""
        return self.KEYS

    @property
    def replay(self) -> Any:
        """The backend: a ``ReplayBackend``."""
        return self.backend

    def on_mount(self) -> None:
        """Start at the first turn."""
        super().on_mount()
        self._show(0)

    def action_step(self, delta: int) -> None:
        """One turn forward or back."""
        self._show(self.replay.index + delta)

    def action_goto(self, where: int) -> None:
        """The first or the last turn."""
        self._show(where % len(self.replay.frames))

    def _show(self, index: int) -> None:
        self.replay.go(index)
        self.refresh_table()
        frames = len(self.replay.frames)
        turn = self.replay.turns[self.replay.index] if self.replay.turns else 0
        self.outcome = Text(
            f"Replay: turn {turn} ({self.replay.index + 1} of {frames}), every hand shown."
        )
        self._draw()
