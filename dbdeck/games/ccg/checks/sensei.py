"""The Sensei and the Sensei Deck (the digest's).

One Sensei card; a Sensei Deck needs one and stays within its printed
capacity, and starts with Fusion personalities or cards marked for a Sensei
Deck. Capacity and marks are printed facts: a pack gives them, and without
one the checker says what it could not check.

Decisions: rules note R18 (docs/ccg/rules-notes.md).
"""

from __future__ import annotations

from dbdeck.games.ccg.deck_view import DeckView, Report
from dbdeck.games.ccg.titles import article, counted, quoted

__all__ = ["check"]


def check(deck: DeckView, report: Report) -> None:
    """``SENSEI-*``; under the profiles without Sensei Decks, a warning."""
    senseis = deck.section("Sensei")
    contents = deck.section("Sensei Deck")
    if not senseis and not contents:
        return
    if not report.applies("SENSEI-ONE"):
        report.warning(
            "PROFILE-SCOPE",
            deck.header("Sensei") or deck.header("Sensei Deck"),
            "these rules have no Sensei Decks: the [Sensei] card is counted toward the size, "
            "the [Sensei Deck] is not part of the deck",
        )
        return
    copies = [e for e in senseis for _ in range(e.count)]
    for entry in senseis:
        if entry.facts.type is not None and entry.facts.type != "sensei":
            report.problem(
                "DECK-SECTION",
                entry.at,
                f"{quoted(entry.facts.title)} is {article(entry.facts.type)} card; "
                "[Sensei] holds the "
                "Sensei",
            )
    if len(copies) > 1:
        report.problem("SENSEI-ONE", copies[1].at, f"{len(copies)} Sensei cards; one at most")
    if not contents:
        return
    held = sum(e.count for e in contents)
    header = deck.header("Sensei Deck")
    if not senseis:
        report.problem(
            "SENSEI-NEEDED",
            header,
            f"a Sensei Deck of {counted(held, 'card')} and no Sensei: list one under [Sensei]",
        )
    else:
        sensei = senseis[0].facts
        if sensei.sensei_capacity is None:
            report.warning(
                "SENSEI-CAPACITY",
                header,
                f"the capacity of {quoted(sensei.title)} is printed on the card: a pack that "
                "gives it "
                "lets the checker count the Sensei Deck's cards",
            )
        elif held > sensei.sensei_capacity:
            report.problem(
                "SENSEI-CAPACITY",
                header,
                f"{counted(held, 'card')} in the Sensei Deck; {quoted(sensei.title)} holds "
                f"{sensei.sensei_capacity} at most",
            )
    for entry in contents:
        facts = entry.facts
        if facts.fusion or facts.for_sensei_deck:
            continue
        if facts.from_pack:
            report.problem(
                "SENSEI-CONTENTS",
                entry.at,
                f"{quoted(facts.title)} is neither a Fusion personality nor marked for a "
                "Sensei Deck",
            )
        else:
            report.warning(
                "SENSEI-CONTENTS",
                entry.at,
                f"whether {quoted(facts.title)} is marked for a Sensei Deck is printed on the "
                "card: "
                "not checked without a pack",
            )
