"""The families of deck rules, one module each, run in this order.

Each module's ``check(deck, report)`` reads the resolved deck and reports
problems and warnings under the rules its profile has (``report.applies``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from dbdeck.games.ccg.checks import copies, heritage, personalities, removals, sensei, size, styles
from dbdeck.games.ccg.deck_view import DeckView, Report

__all__ = ["FAMILIES"]

FAMILIES: Final[tuple[Callable[[DeckView, Report], None], ...]] = (
    size.check,
    personalities.check,
    copies.check,
    styles.check,
    heritage.check,
    sensei.check,
    removals.check,
)
"""Every family of rules."""
