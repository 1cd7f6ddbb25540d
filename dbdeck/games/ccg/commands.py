"""What the ``dbdeck ccg`` commands do. Each returns an exit code and never
lets a traceback reach the user.

``check`` exits 0 when every deck is legal, 1 when one has a problem (or a
pack is bad), 2 when a deck file cannot be read.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from dbdeck.games.ccg.library import CardRecord, Library, load_library
from dbdeck.games.ccg.titles import counted, quoted
from dbdeck.packs.reading import CardSetError, one_line

__all__ = [
    "card_row",
    "cmd_cards",
    "cmd_check",
    "cmd_edit",
    "cmd_rules",
    "cmd_schema",
    "cmd_show",
    "describe_card",
    "describe_character",
    "library_or_report",
]


def library_or_report(packs: Sequence[Path], out: TextIO | None = None) -> Library | None:
    """The library with ``packs``, or ``None`` after printing its problems."""
    out = out or sys.stderr
    try:
        return load_library(packs)
    except CardSetError as err:
        for problem in err.problems:
            print(problem, file=out)
        print(f"{counted(len(err.problems), 'problem')} in the CCG card packs", file=sys.stderr)
        return None


def cmd_check(
    decks: Sequence[Path], rules: str, packs: Sequence[Path], as_json: bool, tournament: bool
) -> int:
    """Check every deck file; print problem lines (or JSON) and a summary."""
    from dbdeck.games.ccg.checker import check_deck
    from dbdeck.games.ccg.deckfile import DeckUnreadable, read_deck
    from dbdeck.games.ccg.profiles import profile

    library = library_or_report(packs)
    if library is None:
        return 1
    chosen = profile(rules)
    code = 0
    verdicts: list[dict[str, Any]] = []
    for path in decks:
        name = one_line(str(path))
        try:
            deck = read_deck(path)
        except DeckUnreadable as exc:
            code = 2
            if as_json:
                verdicts.append({"deck": name, "legal": False, "error": str(exc)})
            print(f"{name}: {exc}", file=sys.stderr)
            continue
        verdict = check_deck(deck, library, chosen, tournament=tournament)
        if not verdict.legal:
            code = max(code, 1)
        if as_json:
            verdicts.append(
                {
                    "deck": name,
                    "legal": verdict.legal,
                    "rules": chosen.name,
                    "cards": verdict.cards,
                    "problems": [f.to_json() for f in verdict.problems],
                    "warnings": [f.to_json() for f in verdict.warnings],
                }
            )
            continue
        for finding in verdict.problems:
            print(finding.as_line(name))
        for finding in verdict.warnings:
            print(finding.as_line(name, warning=True))
        said = (
            "legal" if verdict.legal else f"not legal, {counted(len(verdict.problems), 'problem')}"
        )
        print(
            f"{name}: {said} under {chosen.name} ({counted(verdict.cards, 'card')}, "
            f"{counted(len(verdict.warnings), 'warning')})",
            file=sys.stderr,
        )
    if as_json:
        print(json.dumps(verdicts, indent=1, ensure_ascii=False))
    return code


def card_row(card: CardRecord, library: Library) -> dict[str, Any]:
    """One card as a row of ``dbdeck ccg cards --json``."""
    from dbdeck.games.ccg.facts import character_alignment
    from dbdeck.games.ccg.profiles import PROFILES

    alignment = card.alignment
    if alignment is None and card.personality is not None:
        alignment = character_alignment(card.personality, PROFILES["errata-2001"], library)
    return {
        "id": card.id,
        "title": card.title,
        "saga": card.saga,
        "number": card.number,
        "type": card.type,
        "personality": card.personality,
        "level": card.level,
        "alignment": alignment,
        "style": card.style,
        "dragon_ball": (
            {"set": card.dragon_ball[0], "number": card.dragon_ball[1]}
            if card.dragon_ball
            else None
        ),
        "shipped": card.shipped,
        "pack": card.pack_file,
    }


def cmd_cards(packs: Sequence[Path], as_json: bool) -> int:
    """List every card identity (and pack card)."""
    library = library_or_report(packs)
    if library is None:
        return 1
    rows = [card_row(c, library) for c in library.cards.values()]
    if as_json:
        print(json.dumps(rows, indent=1, ensure_ascii=False))
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{counted(len(rows), 'CCG card')} (no card text is shipped)", expand=False)
    for column in ("title", "printing", "type", "personality", "alignment", "style"):
        table.add_column(column, overflow="fold")
    for card, row in zip(library.cards.values(), rows, strict=True):
        who = f"{row['personality']} {row['level']}" if row["personality"] else ""
        ball = card.dragon_ball
        kind = f"Dragon Ball {ball[0]} {ball[1]}" if ball else (row["type"] or "")
        table.add_row(
            card.title, card.printing, kind, who, row["alignment"] or "", row["style"] or ""
        )
    Console().print(table)
    return 0


def describe_card(card: CardRecord, library: Library) -> list[str]:
    """What is known of a card, its rulings and its lists, as lines of text."""
    from dbdeck.games.ccg.facts import facts_of
    from dbdeck.games.ccg.profiles import PROFILES

    row = card_row(card, library)
    lines = [f"{card.title}" + (f"  ({card.printing})" if card.printing else "")]
    source = "" if card.pack_file is None else f" (from {one_line(card.pack_file)})"
    lines.append(f"  id: {card.id}{source}")
    if card.also_written:
        lines.append(f"  also written: {'; '.join(card.also_written)}")
    if card.other_numbers:
        lines.append(f"  other numbers given: {', '.join(card.other_numbers)}")
    lines.append(f"  type: {card.type or 'not known'}")
    if card.personality:
        level = "-".join(str(n) for n in card.all_levels)
        lines.append(f"  personality: {card.personality}, level {level}")
        lines.append(f"  alignment: {row['alignment'] or 'not known'}")
    lines.append(f"  style: {card.style or 'none (style-less)'}")
    if card.dragon_ball:
        lines.append(f"  Dragon Ball: {card.dragon_ball[0]} {card.dragon_ball[1]}")
    for label, value in (
        ("PUR", card.pur),
        ("power stages", ", ".join(str(s) for s in card.power_stages) or None),
        ("Endurance", card.endurance),
        ("Sensei capacity", card.sensei_capacity),
        ("only", ", ".join(card.only) or None),
        ("text", card.text or None),
    ):
        if value is not None:
            lines.append(f"  {label}: {value}")
    flags = [
        name
        for name, on in (
            ("High-Tech", card.high_tech),
            ("Fusion", card.fusion),
            ("for the Sensei Deck", card.for_sensei_deck),
            ("limit 1 per deck (printed)", card.limit_one_per_deck),
            ("Battle Simulator", card.battle_simulator),
        )
        if on
    ]
    if flags:
        lines.append(f"  printed: {', '.join(flags)}")
    if card.seen_in:
        lines.append(f"  named in: {'; '.join(card.seen_in)}")
    lines += [f"  note: {note}" for note in card.notes]
    rulings = library.rulings_on(card.id)
    lines.append("Rulings of 7 June 2001:" if rulings else "Rulings of 7 June 2001: none")
    for ruling in rulings:
        kinds = ", ".join(str(f["fact"]) for f in ruling.facts)
        lines.append(f"  {ruling.source}: {ruling.summary} [{kinds}]")
    member = [lst for lst in library.lists.values() if _in_list(card, lst.of, lst.entries)]
    lines.append("Lists:" if member else "Lists: none")
    lines += [f"  {lst.title} ({lst.source})" for lst in member]
    lines.append("In a deck, by profile:")
    for profile in PROFILES.values():
        facts = facts_of(card, profile, library)
        said = [f"type {facts.type or 'not known'}"]
        if facts.only:
            said.append(f"{', '.join(facts.only)} only")
        if profile.banned and card.id in library.reference(profile.banned).entries:
            said.append("banned")
        elif profile.restricted and card.id in library.reference(profile.restricted).entries:
            said.append("restricted to 1")
        elif facts.limit_one:
            unless = f" unless the MP is {facts.limit_unless}" if facts.limit_unless else ""
            said.append(f"limit 1 per deck{unless}")
        elif facts.dragon_ball and profile.applies_rulings:
            said.append("one per deck (a numbered Dragon Ball)")
        elif not card.personality:
            said.append("3 copies" + _named_note(card, library))
        lines.append(f"  {profile.name}: {'; '.join(said)}")
    return lines


def _named_note(card: CardRecord, library: Library) -> str:
    from dbdeck.games.ccg.titles import names_character

    named = [c.name for c in library.characters.values() if names_character(card.title, c.name)]
    return f" (4 in a {named[0]} deck)" if named else ""


def _in_list(card: CardRecord, of: str, entries: tuple[str, ...]) -> bool:
    from dbdeck.games.ccg.titles import fold

    if of == "cards":
        return card.id in entries
    return card.personality is not None and fold(card.personality) in {fold(e) for e in entries}


def describe_character(name: str, library: Library) -> list[str] | None:
    """What is known of a personality, or ``None`` when none has the name."""
    from dbdeck.games.ccg.titles import fold

    character = library.character(name)
    if character is None:
        return None
    lines = [f"{character.name} (a personality)"]
    lines.append(f"  alignment: {character.alignment or 'not known'} ({character.source})")
    lines.append(f"  named in: {'; '.join(character.named_in)}")
    cards = [
        c.title
        for c in library.cards.values()
        if c.personality and fold(c.personality) == fold(name)
    ]
    lines.append(f"  cards: {'; '.join(cards) if cards else 'none known'}")
    member = [
        lst
        for lst in library.lists.values()
        if lst.of == "characters" and fold(name) in {fold(e) for e in lst.entries}
    ]
    lines.append("Lists:" if member else "Lists: none")
    lines += [f"  {lst.title} ({lst.source})" for lst in member]
    return lines


def cmd_show(packs: Sequence[Path], title: str) -> int:
    """Print what is known of one card (every card of the title) or personality."""
    library = library_or_report(packs)
    if library is None:
        return 1
    cards = list(library.find(title)) or ([library.cards[title]] if title in library.cards else [])
    if cards:
        for card in cards:
            print("\n".join(describe_card(card, library)))
        return 0
    about = describe_character(title, library)
    if about is not None:
        print("\n".join(about))
        return 0
    close = library.suggestions(title)
    hint = f"; did you mean {' or '.join(quoted(t) for t in close)}?" if close else ""
    print(f"no card {quoted(title)}{hint}", file=sys.stderr)
    return 1


def cmd_rules(only: str | None) -> int:
    """List every deck rule with its source under each profile."""
    from dbdeck.games.ccg.rules import RULES

    for rule in RULES.values():
        sources = {p: s for p, s in rule.sources.items() if only is None or p == only}
        if not sources:
            continue
        print(f"{rule.id}: {rule.title}")
        for name, source in sources.items():
            print(f"  {name}: {source}")
    return 0


def cmd_schema(output: Path | None, *, attack_table: bool = False) -> int:
    """Write the JSON Schema of CCG card packs (or of a Physical Attack
    Table file) to a file or standard output."""
    from dbdeck.games.ccg.schema import attack_table_schema, pack_schema
    from dbdeck.packs.schema import write_schema

    return write_schema(attack_table_schema() if attack_table else pack_schema(), output)


def cmd_edit(deck: Path | None, rules: str, packs: Sequence[Path]) -> int:
    """Open the deck screen on its own (on ``deck``, if given)."""
    library = library_or_report(packs)
    if library is None:
        return 1
    from dbdeck.games.ccg.screen import DeckApp

    DeckApp(library, deck, rules).run()
    return 0
