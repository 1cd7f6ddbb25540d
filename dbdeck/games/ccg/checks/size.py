"""Deck size: at least 50 cards, every Main Personality level and the
Mastery counted; at most 75 (in tournaments only under the Saiyan Saga
rulebook; 90 with a declared Namekian Tokui-Waza under the digest).

Decisions: rules note R1, rules note R18 (docs/ccg/rules-notes.md).
"""

from __future__ import annotations

from dbdeck.games.ccg.deck_view import DeckView, Report
from dbdeck.games.ccg.titles import counted

__all__ = ["check"]


def check(deck: DeckView, report: Report) -> None:
    """``SIZE-MIN`` and ``SIZE-MAX``."""
    profile, size = deck.profile, deck.size
    if size < profile.min_size:
        report.problem(
            "SIZE-MIN",
            0,
            f"{counted(size, 'card')}; a deck holds at least {profile.min_size} "
            "(every Main Personality level and the Mastery count)",
        )
    most = profile.max_size_for(deck.declared, deck.tournament)
    if most is not None and size > most:
        report.problem("SIZE-MAX", 0, f"{counted(size, 'card')}; {_which(deck, most)}")
    elif most is None and profile.max_size is not None and size > profile.max_size:
        report.warning(
            "SIZE-MAX",
            0,
            f"{counted(size, 'card')}: no limit outside tournaments, but a tournament allows "
            f"at most {profile.max_size} (check with --tournament)",
        )


def _which(deck: DeckView, most: int) -> str:
    """Which maximum applies, and why."""
    profile = deck.profile
    if profile.namekian_max_size is not None and most == profile.namekian_max_size:
        return f"with a declared Namekian Tokui-Waza a deck holds at most {most}"
    if profile.namekian_max_size is not None:
        return (
            f"a deck holds at most {most} ({profile.namekian_max_size} only with a declared "
            "Namekian Tokui-Waza)"
        )
    if profile.max_size_tournament_only:
        return f"a tournament deck holds at most {most}"
    return f"a deck holds at most {most}"
