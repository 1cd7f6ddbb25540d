"""The Grim Rule: when the players cannot agree, the option that most harms them.

The rulebook leaves many choices to "the players". A table that cannot agree
(a tied vote at a shared table) and the bots both take the option the engine
marked as the Grim Rule's (rules note N43). This is the one place that reads
that mark.
"""

from __future__ import annotations

from collections.abc import Sequence

from dbdeck.games.deckbuilding.engine.state import Decision

__all__ = ["break_tie", "grim_option"]


def grim_option(decision: Decision, among: Sequence[int] | None = None) -> int | None:
    """The option the Grim Rule takes (of ``among``, or of all the options),
    or ``None`` when no option is marked."""
    candidates = range(len(decision.options)) if among is None else among
    for index in candidates:
        if 0 <= index < len(decision.options) and decision.options[index].grim:
            return index
    return None


def break_tie(decision: Decision, tied: Sequence[int]) -> int:
    """The answer of a table tied between ``tied`` options: the Grim Rule's
    option if it is one of them, else the first of them."""
    if not tied:
        raise ValueError("a tie needs at least one option")
    chosen = grim_option(decision, tied)
    return min(tied) if chosen is None else chosen
