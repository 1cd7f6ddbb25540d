"""Copies of non-personality cards: 3 of a card, 4 of a card named for the
Main Personality, one of a "limit 1 per deck" or restricted card whatever its
name, one of each numbered Dragon Ball, none of a banned card.

Copies are counted over the whole deck (every section, and the Sensei Deck
under the rules that have one), and cards of one title are one card.

Decisions: rules note R9, rules note R14, rules note R15, rules note R17
(docs/ccg/rules-notes.md).
"""

from __future__ import annotations

from collections import defaultdict

from dbdeck.games.ccg.deck_view import DeckView, Entry, Report
from dbdeck.games.ccg.facts import Facts
from dbdeck.games.ccg.titles import fold, names_character, quoted

__all__ = ["apart_from", "check", "named_for"]


def check(deck: DeckView, report: Report) -> None:
    """``BANNED``, ``RESTRICTED``, ``LIMIT-ONE``, ``DRAGON-BALL-COPIES``,
    ``COPIES-NAMED`` and ``COPIES``."""
    groups: dict[str, list[Entry]] = defaultdict(list)
    balls: dict[tuple[str, int], list[Entry]] = defaultdict(list)
    banned = _list(deck, deck.profile.banned)
    restricted = _list(deck, deck.profile.restricted)
    for entry in deck.in_deck():
        if entry.facts.is_personality:
            continue
        card_id = entry.facts.record.id if entry.facts.record else None
        if card_id in banned and report.applies("BANNED"):
            report.problem(
                "BANNED",
                entry.at,
                f"{quoted(entry.facts.title)} is banned from official tournaments",
            )
            continue
        if entry.facts.dragon_ball is not None and report.applies("DRAGON-BALL-COPIES"):
            balls[entry.facts.dragon_ball].append(entry)
            continue
        groups[entry.facts.key].append(entry)
    for holders in groups.values():
        _limit(deck, holders, restricted, report)
    for (ball_set, number), holders in balls.items():
        total = sum(e.count for e in holders)
        if total > 1:
            report.problem(
                "DRAGON-BALL-COPIES",
                holders[-1].at,
                f"{total} copies of {ball_set} Dragon Ball {number}; one of each numbered "
                "Dragon Ball",
            )


def _list(deck: DeckView, list_id: str | None) -> set[str]:
    return set(deck.library.reference(list_id).entries) if list_id is not None else set()


def _limit(deck: DeckView, holders: list[Entry], restricted: set[str], report: Report) -> None:
    total = sum(e.count for e in holders)
    facts, at = holders[-1].facts, holders[-1].at
    card_id = facts.record.id if facts.record else None
    title = facts.title
    if total <= 1:
        return
    if card_id in restricted and report.applies("RESTRICTED"):
        report.problem(
            "RESTRICTED",
            at,
            f"{total} copies of {quoted(title)}; it is restricted to one copy per deck"
            + (", even in its own character's deck" if named_for(deck, facts) else ""),
        )
        return
    if facts.limit_one is not None and not deck.is_mp(facts.limit_unless):
        spared = (
            f" unless {facts.limit_unless} is the Main Personality" if facts.limit_unless else ""
        )
        why = "by its text" if facts.limit_one == "its text" else f"by {facts.limit_one}"
        report.problem(
            "LIMIT-ONE",
            at,
            f"{total} copies of {quoted(title)}; it is limit 1 per deck ({why}){spared}"
            + (", whatever the named card allowance" if named_for(deck, facts) else ""),
        )
        return
    named = named_for(deck, facts)
    most = 4 if named else 3
    if total <= most:
        return
    if named:
        report.problem(
            "COPIES-NAMED",
            at,
            f"{total} copies of {quoted(title)}; 4 at most of a card named for the Main "
            f"Personality {deck.mp_name}",
        )
        return
    others = _named_others(deck, facts)
    report.problem(
        "COPIES",
        at,
        f"{total} copies of {quoted(title)}; 3 at most"
        + (f" (a named card of {others}: 4 only in a {others} deck)" if others else ""),
    )


def apart_from(deck: DeckView, name: str) -> list[str]:
    """Longer names whose occurrences do not name ``name`` under the
    profile: the separate characters ("Majin Vegeta" for Vegeta) and the
    digest's Cell Jr. for Cell."""
    profile = deck.profile
    apart: list[str] = []
    if profile.separate_characters is not None:
        for a, b in deck.library.reference(profile.separate_characters).pairs:
            for mine, other in ((a, b), (b, a)):
                if fold(mine) == fold(name) and names_character(other, name):
                    apart.append(other)
    for mine, other in profile.named_apart.items():
        if fold(mine) == fold(name):
            apart.append(other)
    return apart


def named_for(deck: DeckView, facts: Facts, name: str | None = None) -> bool:
    """Whether the card is named for ``name`` (the Main Personality by
    default): the name in its title, or, from the Frieza Saga on under the
    profiles that say so, in its text (a pack's)."""
    who = name if name is not None else deck.mp_name
    if who is None:
        return False
    apart = apart_from(deck, who)
    if names_character(facts.title, who, apart=apart):
        return True
    return (
        deck.profile.named_in_text
        and facts.saga is not None
        and fold(facts.saga) != "saiyan"
        and bool(facts.text)
        and names_character(facts.text, who, apart=apart)
    )


def _named_others(deck: DeckView, facts: Facts) -> str | None:
    """A character the card's title names, when it is not the MP."""
    for character in deck.library.characters.values():
        if not deck.is_mp(character.name) and names_character(facts.title, character.name):
            return character.name
    return None
