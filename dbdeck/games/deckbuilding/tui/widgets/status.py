"""The status line above the table: the round, whose turn it is, and the
Dragon Balls, on one line at every size (what a player must never have to
look for).

Where the line is too narrow it is shortened step by step, the least needed
words first, rather than cut: the turn cards left go, then "Dragon Balls"
becomes "Balls" and "unclaimed" "free", then the row of ball glyphs goes
(the holders' counts say as much). Only a line still too long is cut."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from dbdeck.games.deckbuilding.engine.panels import BallView
from dbdeck.games.deckbuilding.tui.widgets.glyphs import ball, fit, sep, styled

__all__ = ["SHORTENINGS", "Shortening", "StatusBar", "StatusShown", "status_line"]


@dataclass(frozen=True, slots=True)
class Shortening:
    """How much of the status line to say."""

    cards_left: bool
    """Say the turn cards still face down."""
    short_words: bool
    """``Balls`` and ``free`` for ``Dragon Balls`` and ``unclaimed``."""
    glyphs: bool
    """Draw the seven balls as glyphs before their holders."""


SHORTENINGS = (
    Shortening(cards_left=True, short_words=False, glyphs=True),
    Shortening(cards_left=False, short_words=False, glyphs=True),
    Shortening(cards_left=False, short_words=True, glyphs=True),
    Shortening(cards_left=False, short_words=True, glyphs=False),
)
"""From the whole line to the shortest: the first that fits is drawn."""


def status_line(round_: int, left: int, turn: str, balls: tuple[BallView, ...], width: int) -> Text:
    """The status line at ``width`` cells, shortened as the module says."""
    line = Text()
    for shortening in SHORTENINGS:
        line = _said(round_, left, turn, balls, shortening)
        if line.cell_len <= width:
            return line
    return fit(line, width)


def _said(round_: int, left: int, turn: str, balls: tuple[BallView, ...], how: Shortening) -> Text:
    line = styled(f"Round {round_}", "bold")
    if left >= 0 and how.cards_left:
        line.append(f" ({left} turn card{'' if left == 1 else 's'} left)")
    if turn:
        line.append(f" {sep()} ")
        line.append(turn, style="bold reverse")
    if balls:
        line.append(f" {sep()} ")
        line.append_text(_balls(balls, how))
    return line


def _balls(balls: tuple[BallView, ...], how: Shortening) -> Text:
    """``Dragon Balls ●●○○○○○ Goku 1 · Freezer 1 · 5 unclaimed``, or as short
    as ``Balls: Goku 1 · Freezer 1 · 5 free``."""
    held = Counter(b.name for b in balls if b.holder)
    free = sum(1 for b in balls if not b.holder)
    text = Text("Balls" if how.short_words else "Dragon Balls")
    if how.glyphs:
        empty = "." if ball() == "o" else "○"
        text.append(" ")
        text.append(ball() * (len(balls) - free), style="bold yellow")
        text.append(empty * free, style="dim")
        text.append(" ")
    else:
        text.append(": ")
    parts = [Text(f"{name} {n}") for name, n in held.items()]  # names are data: plain
    if free:
        parts.append(Text(f"{free} {'free' if how.short_words else 'unclaimed'}", style="dim"))
    text.append_text(Text(f" {sep()} ").join(parts))
    return text


@dataclass(frozen=True, slots=True)
class StatusShown:
    """What the status line says."""

    round: int = 0
    left: int = -1
    """Turn-order cards still face down (``-1``: not said)."""
    turn: str = ""
    """Whose turn, in words (``Goku's turn (Ann)``)."""
    balls: tuple[BallView, ...] = ()


class StatusBar(Static):
    """``Round 2 · Goku's turn (Ann) · Dragon Balls ●●○○○○○ Goku 1 · Freezer 1 ·
    5 unclaimed``, shortened to fit."""

    shown: reactive[StatusShown] = reactive(StatusShown)
    """The figures the line says."""

    def watch_shown(self) -> None:
        """Redraw."""
        self.redraw()

    def on_resize(self) -> None:
        """Fit the new width."""
        self.redraw()

    def redraw(self) -> None:
        """Draw the line to the widget's width."""
        width = self.content_region.width or 80
        s = self.shown
        line = status_line(s.round, s.left, s.turn, s.balls, width)
        self.update(line, layout=False)  # one line, always
