"""The deck legality checker: a parsed deck, a library and a profile in, a
verdict out.

Each family of rules is one module of ``dbdeck.games.ccg.checks`` with a
``check(deck, report)`` function over the types of ``dbdeck.games.ccg.deck_view``
(re-exported here); this module resolves the deck's lines to
card facts, runs them in order and collects what they report. A problem
makes the deck illegal; a warning (an unknown title, a card its Main
Personality can never use, a fact only a pack could give) does not.
"""

from __future__ import annotations

from dbdeck.games.ccg.checks import FAMILIES
from dbdeck.games.ccg.deck_view import DeckView, Entry, Finding, Report, Verdict
from dbdeck.games.ccg.deckfile import CardLine, DeckFile
from dbdeck.games.ccg.facts import Facts, facts_of, unknown_facts
from dbdeck.games.ccg.library import CardRecord, Library
from dbdeck.games.ccg.profiles import Profile
from dbdeck.games.ccg.titles import DECLARABLE, fold, quoted

__all__ = ["DeckView", "Entry", "Finding", "Report", "Verdict", "check_deck"]


def check_deck(
    file: DeckFile, library: Library, profile: Profile, *, tournament: bool = False
) -> Verdict:
    """Check a parsed deck against every rule of ``profile``."""
    report = Report(profile)
    for problem in file.problems:
        report.problem("DECK-FORMAT", problem.line, problem.message)
    deck = DeckView(file, library, profile, tournament)
    deck.entries = [Entry(line, _resolve(line, deck, report)) for line in file.cards]
    deck.declared = _declared(deck, report)
    for family in FAMILIES:
        family(deck, report)
    order = sorted(report.problems, key=lambda f: (f.line, f.rule))
    warnings = sorted(report.warnings, key=lambda f: (f.line, f.rule))
    return Verdict(profile.name, tuple(order), tuple(warnings), deck.size)


def _resolve(line: CardLine, deck: DeckView, report: Report) -> Facts:
    """The facts of a card line; an unknown title or printing is a warning."""
    library, profile = deck.library, deck.profile
    matches = library.find(line.title)
    if not matches:
        return _unknown(line, deck, report)
    chosen = matches[0]
    if line.saga is not None:
        printed = [m for m in matches if _has_printing(m, line.saga, line.number)]
        if printed:
            chosen = printed[0]
        else:
            known = ", ".join(m.printing for m in matches if m.printing) or "none known"
            report.warning(
                "PRINTING",
                line.line,
                f"no printing {_printing(line)} of {quoted(chosen.title)} is known "
                f"(known: {known}); read as {quoted(chosen.title)}",
            )
    return facts_of(chosen, profile, library)


def _printing(line: CardLine) -> str:
    """``Saiyan #75`` or ``Frieza Promo 1``, as the line gives it."""
    number = line.number or ""
    return f"{line.saga} {'' if number[:1].isalpha() else '#'}{number}"


def _has_printing(card: CardRecord, saga: str, number: str | None) -> bool:
    if card.saga is None or fold(card.saga) != fold(saga):
        return False
    return number is None or number == card.number or number in card.other_numbers


def _unknown(line: CardLine, deck: DeckView, report: Report) -> Facts:
    library = deck.library
    hint = ""
    if line.saga is not None:
        same = [c for c in library.cards.values() if _has_printing(c, line.saga, line.number)]
        if same:
            hint = f"; {_printing(line)} is {quoted(same[0].title)}"
    if not hint:
        close = _suggestions(deck, line.title)
        hint = f"; did you mean {' or '.join(quoted(t) for t in close)}?" if close else ""
    facts = unknown_facts(line.title, deck.profile, library)
    kind = "a personality card, its other facts unknown" if facts.is_personality else "type unknown"
    report.warning(
        "UNKNOWN-CARD", line.line, f"unknown card {quoted(line.title)}{hint} (counted; {kind})"
    )
    return facts


MAX_SUGGESTED = 64
"""Distinct unknown titles of one deck given close known titles; looking
costs about a millisecond each, so the rest of a deck of junk lines is
only warned of."""


def _suggestions(deck: DeckView, title: str) -> list[str]:
    """Known titles close to ``title``, looked for once per title written
    (a deck of one unknown line repeated asks only once), and for the first
    ``MAX_SUGGESTED`` unknown titles alone."""
    key = fold(title)
    if key not in deck._close:
        if len(deck._close) >= MAX_SUGGESTED:
            return []
        deck._close[key] = deck.library.suggestions(title)
    return deck._close[key]


def _declared(deck: DeckView, report: Report) -> str | None:
    written = deck.file.tokui_waza
    if written is None:
        return None
    spelled = next((s for s in DECLARABLE if s.casefold() == fold(written)), None)
    line = deck.file.tokui_waza_line or 0
    if spelled is not None and spelled in deck.profile.styles:
        return spelled
    choices = ", ".join(deck.profile.styles)
    if spelled is not None:
        report.problem(
            "TW-STYLE",
            line,
            f"{spelled} Tokui-Waza is not in these rules (it is the digest's); declare one of "
            f"{choices}, or none",
        )
    else:
        report.problem(
            "TW-STYLE",
            line,
            f"{quoted(written)} is no martial arts style; declare one of {choices}, or none",
        )
    return None
