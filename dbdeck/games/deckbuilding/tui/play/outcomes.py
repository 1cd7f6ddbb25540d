"""What an action did to the table, said under the prompt.

Below 150×45 the log sits behind a tab, so a die roll, a purchase or damage
would reach no visible place: the latest outcomes among the new log lines
are repeated on the line under the prompt.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from dbdeck.games.deckbuilding.engine.panels import LogLine
from dbdeck.games.deckbuilding.tui.widgets import LOG_STYLES, glyphs

__all__ = ["OUTCOMES", "OUTCOMES_SHOWN", "outcome_of"]

OUTCOMES = frozenset(
    {
        "damage", "heal", "buy", "roll", "balls", "defeat", "eliminate", "absorb", "clash",
        "arrive", "summon", "wish", "victim", "avoid", "immune", "half", "fizzle", "ozaru",
        "calm", "destroy", "game-over",
    }
)  # fmt: skip
"""The log lines that say what an action did to the table, repeated under
the prompt where the log may not be in sight."""

OUTCOMES_SHOWN = 3
"""The latest outcomes said under the prompt."""


def outcome_of(lines: Iterable[LogLine]) -> Text | None:
    """The latest outcomes among new log lines, as one marked line (a glyph
    marks it, not only a colour); ``None`` when none is an outcome."""
    said = [line for line in lines if line.kind in OUTCOMES][-OUTCOMES_SHOWN:]
    if not said:
        return None
    text = Text(glyphs.outcome() + " ", style="bold")
    for index, line in enumerate(said):
        if index:
            text.append(f" {glyphs.sep()} ", style="dim")
        text.append(line.text.rstrip("."), style=LOG_STYLES.get(line.kind, ""))
    return text
