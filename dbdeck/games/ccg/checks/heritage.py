"""Heritage-only and "(name) only" cards.

A Heritage-only card is a problem when no personality of the deck (its
Main Personality or an Ally) is of that Heritage, and a warning when only an
Ally is. Other "… only" cards (a name, Heroes, Villains) are warnings when
the Main Personality can never use them: such a card is dead weight, not
illegal. "Villains, Goku, and Gohan only" reads as "Saiyan Heritage only"
under the errata of 2001 and the digest.

Decisions: rules note R6, rules note R27 (docs/ccg/rules-notes.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from dbdeck.games.ccg.checks.personalities import members
from dbdeck.games.ccg.deck_view import DeckView, Entry, Report
from dbdeck.games.ccg.titles import fold, quoted

__all__ = ["check"]

_HERITAGES = ("Saiyan Heritage", "Namekian Heritage")
_OLD_SAIYAN = {"villains", "goku", "gohan"}
_ALIGNMENTS = {"heroes", "villains"}


@dataclass(frozen=True, slots=True)
class _Person:
    name: str
    alignment: str | None
    title: str
    """How the deck lists it (the Main Personality, or an Ally's title)."""
    is_mp: bool


def check(deck: DeckView, report: Report) -> None:
    """``HERITAGE`` and ``ONLY``."""
    people = _people(deck)
    if not people:
        return
    for entry in [
        *deck.section("Life Deck"),
        *deck.section("Sensei Deck"),
        *deck.section("Mastery"),
    ]:
        only = entry.facts.only
        if not only:
            continue
        if deck.profile.villains_goku_gohan_is_heritage and {fold(w) for w in only} == _OLD_SAIYAN:
            only = ("Saiyan Heritage",)
        if all(w in _HERITAGES for w in only):
            _heritage(deck, entry, only, people, report)
        elif report.applies("ONLY"):
            _only(deck, entry, only, people, report)


def _people(deck: DeckView) -> list[_Person]:
    people: list[_Person] = []
    if deck.mp_name is not None:
        people.append(_Person(deck.mp_name, deck.mp_alignment, deck.mp_name, True))
    for ally in deck.allies:
        if ally.facts.personality is not None and not deck.is_mp(ally.facts.personality):
            alignment = ally.facts.alignment
            if alignment == "rogue":  # a Rogue Ally takes its MP's alignment
                alignment = deck.mp_alignment
            people.append(_Person(ally.facts.personality, alignment, ally.facts.title, False))
    return people


def _can_use(deck: DeckView, person: _Person, who: str) -> bool | None:
    """Whether ``person`` may use a card "``who`` only" (``None``: the
    profile cannot tell)."""
    key = fold(who)
    if key == "heroes":
        return None if person.alignment in (None, "rogue") else person.alignment == "hero"
    if key == "villains":
        return None if person.alignment in (None, "rogue") else person.alignment == "villain"
    if who in _HERITAGES:
        list_id = deck.profile.heritage_lists.get(who)
        return None if list_id is None else fold(person.name) in members(deck, list_id)
    if key == fold(person.name):
        return True
    return any(
        fold(user) == fold(person.name) and key in {fold(o) for o in others}
        for user, others in deck.profile.also_uses.items()
    )


def _usable(deck: DeckView, person: _Person, only: tuple[str, ...]) -> bool | None:
    answers = [_can_use(deck, person, w) for w in only]
    if any(a is True for a in answers):
        return True
    return None if any(a is None for a in answers) else False


def _heritage(
    deck: DeckView, entry: Entry, only: tuple[str, ...], people: list[_Person], report: Report
) -> None:
    said = " or ".join(only)
    missing = [h for h in only if h not in deck.profile.heritage_lists]
    if missing:
        if report.applies("ONLY"):
            report.warning(
                "ONLY",
                entry.at,
                f"{quoted(entry.facts.title)} is {said} only; these rules list no {missing[0]}: "
                "not checked",
                cited=_only_source(entry, only, report),
            )
        return
    users = [p for p in people if _usable(deck, p, only)]
    if any(p.is_mp for p in users):
        return
    if users:
        report.warning(
            "HERITAGE",
            entry.at,
            f"{quoted(entry.facts.title)} is {said} only: the Main Personality {deck.mp_name} "
            "is not, "
            f"only the Ally {quoted(users[0].title)} can use it",
        )
        return
    listed = "; ".join(
        f"{h}: {', '.join(deck.library.reference(deck.profile.heritage_lists[h]).entries)}"
        for h in only
    )
    pikkon = (
        " (Pikkon may declare Namekian Tokui-Waza but is not of Namekian Heritage)"
        if deck.is_mp("Pikkon") and "Namekian Heritage" in only
        else ""
    )
    report.problem(
        "HERITAGE",
        entry.at,
        f"{quoted(entry.facts.title)} is {said} only, and no personality of this deck is ({listed})"
        + pikkon,
    )


def _only(
    deck: DeckView, entry: Entry, only: tuple[str, ...], people: list[_Person], report: Report
) -> None:
    mp = next((p for p in people if p.is_mp), None)
    if mp is None:
        return
    answer = _usable(deck, mp, only)
    if answer is not False:
        return
    allies = [p for p in people if not p.is_mp and _usable(deck, p, only)]
    said = ", ".join(only)
    also = f"; only the Ally {quoted(allies[0].title)} can" if allies else ""
    report.warning(
        "ONLY",
        entry.at,
        f"{quoted(entry.facts.title)} is {said} only: the Main Personality {mp.name} can never "
        "use it" + also,
        cited=_only_source(entry, only, report),
    )


def _only_source(entry: Entry, only: tuple[str, ...], report: Report) -> str:
    """What an ``ONLY`` warning cites: the "(name here) only" passage when
    the card names a personality, and the card clarification that makes the
    card "… only" when one does. "Heroes only" is no name: a card ruled so
    cites its clarification alone (Saiyan #195, Hero Advantage)."""
    facts = entry.facts
    printed = facts.record.only if facts.record is not None else ()
    ruled = facts.only_source if tuple(printed) != facts.only else None
    named = any(fold(w) not in _ALIGNMENTS and w not in _HERITAGES for w in only)
    if ruled is None:
        return report.source("ONLY") if named else (facts.only_source or report.source("ONLY"))
    if not named:
        return ruled
    return "; ".join(dict.fromkeys([*report.source("ONLY").split("; "), ruled]))
