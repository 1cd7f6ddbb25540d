"""The status line above the table: the round, whose turn it is, and the
Dragon Balls, on one line at every size (what a player must never have to
look for)."""

from __future__ import annotations

from textual.reactive import reactive
from textual.widgets import Static

from dbdeck.engine.table_view import BallView
from dbdeck.tui.widgets.balls import ball_summary
from dbdeck.tui.widgets.glyphs import fit, sep, styled

__all__ = ["StatusBar"]


class StatusBar(Static):
    """``Round 2 · Goku's turn (Ann) · ●●○○○○○ Goku 1, Freezer 1, 5 unclaimed``."""

    round: reactive[int] = reactive(0)
    left: reactive[int] = reactive(-1)
    """Turn-order cards still face down (``-1``: not said)."""
    turn: reactive[str] = reactive("")
    """Whose turn, in words (``Goku's turn (Ann)``)."""
    balls: reactive[tuple[BallView, ...]] = reactive(())

    def watch_round(self) -> None:
        """Redraw."""
        self.redraw()

    def watch_left(self) -> None:
        """Redraw."""
        self.redraw()

    def watch_turn(self) -> None:
        """Redraw."""
        self.redraw()

    def watch_balls(self) -> None:
        """Redraw."""
        self.redraw()

    def show(self, round_: int, left: int, turn: str, balls: tuple[BallView, ...]) -> None:
        """New figures, drawn once (not once each)."""
        if (round_, left, turn, balls) == (self.round, self.left, self.turn, self.balls):
            return
        self.set_reactive(StatusBar.round, round_)
        self.set_reactive(StatusBar.left, left)
        self.set_reactive(StatusBar.turn, turn)
        self.set_reactive(StatusBar.balls, balls)
        self.redraw()

    def on_resize(self) -> None:
        """Fit the new width."""
        self.redraw()

    def redraw(self) -> None:
        """Draw the line to the widget's width."""
        width = self.content_region.width or 80
        line = styled(f"Round {self.round}", "bold")
        if self.left >= 0 and width >= 100:
            line.append(f" ({self.left} turn card{'' if self.left == 1 else 's'} left)")
        if self.turn:
            line.append(f" {sep()} ")
            line.append(self.turn, style="bold reverse")
        if self.balls:
            line.append(f" {sep()} Dragon Balls ")
            line.append_text(ball_summary(self.balls))
        self.update(fit(line, width), layout=False)  # one line, always
