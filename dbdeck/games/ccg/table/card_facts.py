"""What the table reads of each card, recorded in the setup (rules notes, T10).

A card's type, personality and level, alignment, Dragon Ball, PUR, power
ladder and whether it is a Fusion personality come from the shipped
identities and the user's packs. A setup made for a new table records them,
for every card of both decks the library knows, so a save, its replay and a
shared table read the facts the game began with, whatever packs are present
later. Card text is never recorded: it is the rights holders', and the
inspector reads it from the packs at the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from dbdeck.games.ccg.deckfile import parse_deck
from dbdeck.games.ccg.facts import Facts, facts_of
from dbdeck.games.ccg.library import Library
from dbdeck.games.ccg.profiles import Profile
from dbdeck.games.ccg.titles import fold

__all__ = [
    "MAX_LADDER",
    "MAX_RECORDED_CARDS",
    "CardFacts",
    "TooManyCards",
    "by_title",
    "card_facts_of",
    "record_card_facts",
]

MAX_RECORDED_CARDS = 500
"""The most cards a setup records the facts of: a legal deck names fewer
than 90 different cards, so two decks stay far below it."""

MAX_LADDER = 31
"""The longest ladder recorded: a pack's 30 stages and the stage 0 the
table adds to a ladder given without it (rules notes, T2)."""


class TooManyCards(ValueError):
    """Decks naming more known cards than a setup records."""


@dataclass(frozen=True, slots=True)
class CardFacts:
    """What the table reads of one card, as the library gave it when the
    table was set up."""

    written: str
    """The title as a deck file writes it (cards are found by it, folded)."""
    title: str
    """The card's title."""
    card_id: str = ""
    """The library's id (what the inspector looks up at the table)."""
    type: str | None = None
    personality: str | None = None
    level: int | None = None
    alignment: str | None = None
    dragon_ball: tuple[str, int] | None = None
    pur: int | None = None
    ladder: tuple[int, ...] = ()
    """Power ratings from stage 0 (empty: no pack gave the ladder)."""
    fusion: bool | None = None
    """Whether a pack says the card is a Fusion personality (``None``: no
    pack says; rules notes, T9)."""


def card_facts_of(facts: Facts, written: str) -> CardFacts:
    """The facts the table reads of a card the library knows (or not)."""
    record = facts.record
    return CardFacts(
        written=written,
        title=facts.title,
        card_id=record.id if record is not None else "",
        type=facts.type,
        personality=facts.personality,
        level=facts.level,
        alignment=facts.alignment,
        dragon_ball=facts.dragon_ball,
        pur=record.pur if record is not None else None,
        ladder=_ladder(record.power_stages if record is not None else ()),
        fusion=facts.fusion if facts.from_pack else None,
    )


def _ladder(stages: tuple[int, ...]) -> tuple[int, ...]:
    """A pack's ladder from stage 0 (a ladder without its 0 gets one:
    rules notes, T2)."""
    if not stages:
        return ()
    return stages if stages[0] == 0 else (0, *stages)


def record_card_facts(
    decks: Iterable[str], library: Library, profile: Profile
) -> tuple[CardFacts, ...]:
    """The facts of every card the decks name that the library knows, once
    per title as written; ``TooManyCards`` past ``MAX_RECORDED_CARDS``. A
    title the library does not know is not recorded: the table reads it as
    an unknown card (rules notes, R25), whatever a pack says of it later."""
    found: dict[str, CardFacts] = {}
    for text in decks:
        for line in parse_deck(text).cards:
            key = fold(line.title)
            if key in found:
                continue
            matches = library.find(line.title)
            if not matches:
                continue
            found[key] = card_facts_of(facts_of(matches[0], profile, library), line.title)
    if len(found) > MAX_RECORDED_CARDS:
        raise TooManyCards(
            f"the decks name {len(found)} different known cards; a table records the "
            f"facts of at most {MAX_RECORDED_CARDS}"
        )
    return tuple(found.values())


def by_title(recorded: Iterable[CardFacts]) -> Mapping[str, CardFacts]:
    """The recorded facts by folded title as written."""
    return {fold(card.written): card for card in recorded}
