"""The Main Personality and its Allies, and the special personalities
(Saibaimen, Cell Jr., the Ginyu Force, a starter's Kid Trunks Ally).

The Main Personality is the personality cards of ``[Main Personality]``;
the Allies are the personality cards of ``[Life Deck]``.

Decisions: rules note R10, rules note R11, rules note R16, rules note R21,
rules note R23, rules note R24, rules note R26 (docs/ccg/rules-notes.md).
"""

from __future__ import annotations

from collections import defaultdict

from dbdeck.games.ccg.deck_view import DeckView, Entry, Report
from dbdeck.games.ccg.titles import article, fold, quoted

__all__ = ["check", "is_majin", "members"]

_SAIBAIMEN = "saibaimen"


def is_majin(name: str | None) -> bool:
    """A Majin personality: its name begins with "Majin"."""
    return name is not None and fold(name).startswith("majin ")


def members(deck: DeckView, list_id: str | None) -> set[str]:
    """The folded names of a reference list of characters."""
    if list_id is None:
        return set()
    return {fold(name) for name in deck.library.reference(list_id).entries}


def check(deck: DeckView, report: Report) -> None:
    """Every rule of the Main Personality and the Allies."""
    _main_personality(deck, report)
    _allies(deck, report)


def _main_personality(deck: DeckView, report: Report) -> None:
    for entry in deck.section("Main Personality"):
        if not entry.facts.is_personality and entry.facts.type is not None:
            report.problem(
                "DECK-SECTION",
                entry.at,
                f"{quoted(entry.facts.title)} is {article(entry.facts.type)} card; "
                "[Main Personality] holds "
                "the Main Personality's personality cards",
            )
    cards = deck.main_personality
    name = deck.mp_name
    for entry in cards:
        other = entry.facts.personality
        if not deck.is_mp(other):
            member = _ginyu_member(deck, name, other) and report.applies("GINYU-FORCE")
            report.problem(
                "MP-ONE-CHARACTER",
                entry.at,
                f"{quoted(entry.facts.title)} is {other}, but the Main Personality is {name}"
                + _why_apart(deck, name, other),
                # That a member's cards cannot form the Ginyu Force is the
                # digest's own rule, of the Ginyu Force's paragraph.
                cited=report.source("GINYU-FORCE") if member else None,
            )
    _levels(deck, report)


def _why_apart(deck: DeckView, name: str | None, other: str | None) -> str:
    """Why two characters do not combine, when the profile says it."""
    if name is None or other is None:
        return ""
    profile = deck.profile
    if profile.separate_characters is not None:
        pairs = deck.library.reference(profile.separate_characters).pairs
        if any({fold(name), fold(other)} == {fold(a), fold(b)} for a, b in pairs):
            return f" ({name} and {other} are separate characters)"
    if _ginyu_member(deck, name, other):
        return " (a member's cards cannot form the Ginyu Force's Main Personality)"
    return ""


def _ginyu_member(deck: DeckView, name: str | None, other: str | None) -> bool:
    """Whether ``other`` is a member of the Ginyu Force, ``name``, under the
    profile's list of members."""
    return (
        name is not None
        and other is not None
        and fold(name) == "ginyu force"
        and fold(other) in members(deck, deck.profile.ginyu_force_members)
    )


def _levels(deck: DeckView, report: Report) -> None:
    cards = deck.mp_cards
    header = deck.header("Main Personality")
    if not cards:
        report.problem(
            "MP-LEVELS",
            header,
            "no Main Personality: list its levels 1, 2 and 3 under [Main Personality]",
        )
        return
    by_level: dict[int, list[Entry]] = defaultdict(list)
    for entry in cards:
        for level in entry.facts.levels:
            by_level[level] += [entry] * entry.count
    multi = [e for e in cards if e.facts.high_tech and len(e.facts.levels) > 1]
    reported: set[int] = set()
    if report.applies("MP-HIGH-TECH-LEVELS"):
        for card in multi:
            for level in card.facts.levels:
                others = [e for e in by_level[level] if e is not card]
                if others and others[-1].at not in reported:
                    reported.add(others[-1].at)
                    spans = "-".join(
                        str(n) for n in (min(card.facts.levels), max(card.facts.levels))
                    )
                    report.problem(
                        "MP-HIGH-TECH-LEVELS",
                        others[-1].at,
                        f"{quoted(card.facts.title)} is a High-Tech card of levels {spans}, "
                        "used for "
                        f"every one of them; {quoted(others[-1].facts.title)} takes level "
                        f"{level} too",
                    )
    for level, holders in sorted(by_level.items()):
        if len(holders) < 2 or holders[-1].at in reported:
            continue
        reported.add(holders[-1].at)
        kinds = {e.facts.high_tech for e in holders}
        if len(kinds) == 2 and report.applies("MP-HIGH-TECH-LEVELS"):
            said = f"standard or High-Tech for level {level}, not both"
        else:
            said = f"{len(holders)} cards of level {level}; one card per level"
        report.problem("MP-PER-LEVEL", holders[-1].at, f"{quoted(holders[-1].facts.title)}: {said}")
    levels = sorted(by_level)
    missing = [n for n in (1, 2, 3) if n not in by_level]
    if missing:
        report.problem(
            "MP-LEVELS",
            header,
            f"the Main Personality {deck.mp_name} lacks {_levels_said(missing)}: levels 1, 2 "
            "and 3 at least",
        )
    gaps = [n for n in range(levels[0], levels[-1] + 1) if n not in by_level]
    if gaps and not missing:
        report.problem(
            "MP-LEVELS",
            header,
            f"{_levels_said(levels)} are not consecutive: {_levels_said(gaps)} "
            f"{'is' if len(gaps) == 1 else 'are'} missing",
        )


def _levels_said(levels: list[int]) -> str:
    """``level 4``, ``levels 2 and 3``, ``levels 1, 2, 3 and 5``."""
    if len(levels) == 1:
        return f"level {levels[0]}"
    return f"levels {', '.join(str(n) for n in levels[:-1])} and {levels[-1]}"


def _allies(deck: DeckView, report: Report) -> None:
    name = deck.mp_name
    top = max(deck.mp_levels) if deck.mp_levels else None
    alignment = deck.mp_alignment
    profile = deck.profile
    saibaimen_mp = name is not None and fold(name) == _SAIBAIMEN
    ginyu = (
        members(deck, profile.ginyu_force_members) if fold(name or "") == "ginyu force" else set()
    )
    said_mp_alignment = False
    counted: dict[str, list[Entry]] = defaultdict(list)
    for ally in deck.allies:
        facts = ally.facts
        who = facts.personality or ""
        if _removed_kid_trunks(deck, ally, report):
            continue
        if deck.is_mp(who):
            if saibaimen_mp and report.applies("SAIBAIMEN-MP"):
                report.problem(
                    "SAIBAIMEN-MP",
                    ally.at,
                    f"{quoted(facts.title)}: no Saibaimen Allies when Saibaimen is the Main "
                    "Personality",
                )
            else:
                report.problem(
                    "ALLY-MP-CHARACTER",
                    ally.at,
                    f"{quoted(facts.title)} is the Main Personality's own character: list {who}'s "
                    "levels under [Main Personality], or leave the card out",
                )
            continue
        if fold(who) in ginyu and report.applies("GINYU-FORCE"):
            report.problem(
                "GINYU-FORCE",
                ally.at,
                f"{quoted(facts.title)}: {who} is a member of the Ginyu Force, never an Ally of a "
                "Ginyu Force Main Personality",
            )
        if (
            fold(who).startswith("cell jr.")
            and report.applies("CELL-JR")
            and not deck.is_mp("Cell")
        ):
            report.problem(
                "CELL-JR",
                ally.at,
                f"{quoted(facts.title)}: Cell Jr. Allies need a Cell Main Personality"
                + (f", not {name}" if name else ""),
            )
        if top is not None and facts.level is not None and facts.level > top - 2:
            report.problem(
                "ALLY-LEVEL",
                ally.at,
                f"{quoted(facts.title)} is level {facts.level}; the Allies of a level {top} Main "
                f"Personality are level {top - 2} at most"
                if top > 2
                else f"{quoted(facts.title)}: a Main Personality of level {top} can have no Ally",
            )
        if facts.high_tech and report.applies("ALLY-HIGH-TECH"):
            report.problem(
                "ALLY-HIGH-TECH",
                ally.at,
                f"{quoted(facts.title)} is a High-Tech Main Personality card: never an Ally in "
                "tournament play",
            )
        said_mp_alignment |= _alignment(deck, ally, alignment, said_mp_alignment, report)
        if report.applies("ALLY-MAJIN") and name is not None and is_majin(name) != is_majin(who):
            report.problem(
                "ALLY-MAJIN",
                ally.at,
                f"{quoted(facts.title)}: a Majin Main Personality takes Majin Allies only"
                if is_majin(name)
                else f"{quoted(facts.title)}: a Majin Ally goes with a Majin Main Personality only",
            )
        counted[facts.key].extend([ally] * ally.count)
    _copies(deck, counted, report)


def _alignment(
    deck: DeckView, ally: Entry, alignment: str | None, said: bool, report: Report
) -> bool:
    """``ALLY-ALIGNMENT`` for one Ally; whether it said something of the
    Main Personality's own alignment (said once per deck)."""
    facts = ally.facts
    if deck.mp_name is None:
        return False
    if alignment == "rogue":
        if not said:
            report.warning(
                "ALLY-ALIGNMENT",
                deck.header("Main Personality"),
                f"{deck.mp_name} is a Rogue: the digest does not say which Allies a Rogue "
                "Main Personality takes; their alignment is not checked",
            )
        return True
    if alignment is None:
        if not said:
            report.warning(
                "ALLY-ALIGNMENT",
                deck.header("Main Personality"),
                f"the alignment of {deck.mp_name} is not known (a pack can give it): the Allies' "
                "alignment is not checked",
            )
        return True
    if facts.alignment == "rogue":
        return False  # a Rogue Ally takes the Main Personality's alignment
    if facts.alignment is None:
        report.warning(
            "ALLY-ALIGNMENT",
            ally.at,
            f"the alignment of {facts.personality} is not known (a pack can give it): not checked",
        )
    elif facts.alignment != alignment:
        report.problem(
            "ALLY-ALIGNMENT",
            ally.at,
            f"{quoted(facts.title)} is {article(facts.alignment)}; "
            f"{article(alignment)} Main Personality takes "
            f"{alignment} Allies only",
        )
    return False


def _copies(deck: DeckView, counted: dict[str, list[Entry]], report: Report) -> None:
    """One card of each level of a personality; Saibaimen and Cell Jr. cards
    by the rules that allow more."""
    saibaimen_copies = deck.profile.saibaimen_copies
    for holders in counted.values():
        if len(holders) < 2:
            continue
        facts, last = holders[-1].facts, holders[-1]
        who = fold(facts.personality or "")
        if who == _SAIBAIMEN and saibaimen_copies is not None:
            if len(holders) > saibaimen_copies:
                report.problem(
                    "SAIBAIMEN-COPIES",
                    last.at,
                    f"{len(holders)} copies of {quoted(facts.title)}; up to {saibaimen_copies} of "
                    "each Saibaimen card",
                )
            continue
        if who.startswith("cell jr.") and report.applies("CELL-JR"):
            if len(holders) > 3:
                report.problem(
                    "COPIES",
                    last.at,
                    f"{len(holders)} copies of {quoted(facts.title)}; Cell Jr. cards may repeat, "
                    "3 copies at most",
                )
            continue
        report.problem(
            "ALLY-PER-LEVEL",
            last.at,
            f"{len(holders)} cards of {facts.personality} level {facts.level}; one card of each "
            "level of a personality",
        )


def _removed_kid_trunks(deck: DeckView, ally: Entry, report: Report) -> bool:
    """The digest removes the starter's Kid Trunks Ally from a villain deck
    and from a Kid Trunks deck."""
    if (
        not report.applies("KID-TRUNKS-STARTER")
        or fold(ally.facts.personality or "") != "kid trunks"
    ):
        return False
    if deck.mp_alignment == "villain":
        why = "a villain deck"
    elif deck.is_mp("Kid Trunks"):
        why = "a deck with Kid Trunks as its Main Personality"
    else:
        return False
    report.problem(
        "KID-TRUNKS-STARTER",
        ally.at,
        f"{quoted(ally.facts.title)}: {why} removes the starter's Kid Trunks Ally",
    )
    return True
