"""The Dragon Ball tracker: all seven, and who holds each."""

from __future__ import annotations

from collections import Counter

from rich.console import RenderableType
from rich.text import Text
from textual.reactive import reactive

from dbdeck.games.deckbuilding.engine.panels import BallView
from dbdeck.games.deckbuilding.tui.widgets.board import Board, Items
from dbdeck.games.deckbuilding.tui.widgets.glyphs import ball, pack, star, styled

__all__ = ["DragonBallTracker", "ball_summary"]


def ball_summary(balls: tuple[BallView, ...]) -> Text:
    """The seven balls on one short line: ``●●○○○○○ Goku 1, Freezer 1, 5
    unclaimed`` (``o`` and ``.`` in ASCII)."""
    held = Counter(b.name for b in balls if b.holder)
    free = sum(1 for b in balls if not b.holder)
    empty = "." if ball() == "o" else "○"
    text = Text(ball() * (len(balls) - free), style="bold yellow")
    text.append(empty * free, style="dim")
    parts = [f"{name} {count}" for name, count in held.items()]
    if free:
        parts.append(f"{free} unclaimed")
    text.append(" " + ", ".join(parts))
    return text


class DragonBallTracker(Board, can_focus=False):
    """The seven Dragon Balls, one by one."""

    balls: reactive[tuple[BallView, ...]] = reactive(())
    """The seven Dragon Balls and who holds each."""

    def watch_balls(self) -> None:
        """Redraw from new Dragon Balls."""
        self.redraw()

    def picture(self, width: int, items: Items) -> RenderableType:
        """The tracker's picture."""
        parts = []
        for held in self.balls:
            part = styled(f"{held.star}{star()} ", "bold yellow" if held.holder else "dim")
            part.append(
                held.name if held.holder else "unclaimed", style="" if held.holder else "dim"
            )
            parts.append(part)
        return pack(parts, width)
