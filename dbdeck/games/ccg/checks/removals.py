"""Cards the rules remove from tournament decks: Battle Simulator-only cards.

(The digest's other removal, a starter's Kid Trunks Ally, is checked with the
Allies in ``personalities``.)

Decisions: rules note R21 (docs/ccg/rules-notes.md).
"""

from __future__ import annotations

from dbdeck.games.ccg.deck_view import DeckView, Report
from dbdeck.games.ccg.titles import quoted

__all__ = ["check"]


def check(deck: DeckView, report: Report) -> None:
    """``BATTLE-SIMULATOR``: marked by a pack, or listed."""
    if not report.applies("BATTLE-SIMULATOR") or deck.profile.battle_simulator is None:
        return
    listed = set(deck.library.reference(deck.profile.battle_simulator).entries)
    for entry in deck.entries:
        record = entry.facts.record
        if entry.count <= 0 or not (
            entry.facts.battle_simulator or (record and record.id in listed)
        ):
            continue
        report.problem(
            "BATTLE-SIMULATOR",
            entry.at,
            f"{quoted(entry.facts.title)} is a Battle Simulator card: not usable in sanctioned "
            "tournaments",
        )
