"""Tokui-Waza and the Mastery.

Only a styled card (its title's first word a martial arts style) counts for
or against a declaration. With a declared style every styled card of the
Life Deck and the Sensei Deck has that style (a Freestyle deck: none), and
at least one styled card of it is there besides the Mastery. The digest lets
only its listed Main Personalities declare Saiyan or Namekian. At most one
Mastery, which needs a declaration of its own style.

Decisions: rules note R3, rules note R7, rules note R8, rules note R19
(docs/ccg/rules-notes.md).
"""

from __future__ import annotations

from dbdeck.games.ccg.checks.personalities import members
from dbdeck.games.ccg.deck_view import DeckView, Entry, Report
from dbdeck.games.ccg.titles import article, fold, mastery_style, quoted

__all__ = ["check"]


def check(deck: DeckView, report: Report) -> None:
    """``TW-*`` and ``MASTERY-*``."""
    declared = deck.declared
    line = deck.file.tokui_waza_line or 0
    if declared is not None:
        _listed(deck, declared, line, report)
        _off_style(deck, declared, report)
        if declared != "Freestyle" and report.applies("TW-STYLED-CARD"):
            styled = [e for e in deck.section("Life Deck") if e.facts.style == declared]
            if not styled:
                report.problem(
                    "TW-STYLED-CARD",
                    line,
                    f"a declared {declared} Tokui-Waza needs at least one {declared} styled card "
                    "besides the Mastery",
                )
    _masteries(deck, declared, report)


def _listed(deck: DeckView, declared: str, line: int, report: Report) -> None:
    list_id = deck.profile.tokui_waza_lists.get(declared)
    name = deck.mp_name
    if list_id is None or name is None or not report.applies("TW-LIST"):
        return
    allowed = members(deck, list_id)
    if fold(name) not in allowed:
        listed = ", ".join(deck.library.reference(list_id).entries)
        report.problem(
            "TW-LIST",
            line,
            f"{name} may not declare {declared} Tokui-Waza; only {listed} may",
        )


def _off_style(deck: DeckView, declared: str, report: Report) -> None:
    sensei_deck = deck.section("Sensei Deck") if deck.has_sensei_deck else []
    for entry in [*deck.section("Life Deck"), *sensei_deck]:
        style = entry.facts.style
        if style is None or style == declared:
            continue
        where = "Sensei Deck" if entry.line.section == "Sensei Deck" else "deck"
        if declared == "Freestyle":
            said = "a Freestyle Tokui-Waza deck holds no styled card"
        else:
            said = f"a declared {declared} Tokui-Waza allows {declared} styled cards only"
        report.problem(
            "TW-OFF-STYLE",
            entry.at,
            f"{quoted(entry.facts.title)} is {article(style)} card in the {where}; {said}",
        )


def _masteries(deck: DeckView, declared: str | None, report: Report) -> None:
    for entry in deck.section("Life Deck"):
        if entry.facts.type == "mastery":
            report.problem(
                "DECK-SECTION",
                entry.at,
                f"{quoted(entry.facts.title)} is a Mastery (it starts in play): list it under "
                "[Mastery]",
            )
    cards = deck.section("Mastery")
    if not cards:
        return
    if not report.applies("MASTERY-ONE"):
        report.warning(
            "PROFILE-SCOPE",
            deck.header("Mastery"),
            "these rules have no Mastery cards: [Mastery] is counted toward the size, not checked",
        )
        return
    for entry in cards:
        if entry.facts.type is not None and entry.facts.type != "mastery":
            report.problem(
                "DECK-SECTION",
                entry.at,
                f"{quoted(entry.facts.title)} is {article(entry.facts.type)} card; [Mastery] holds "
                "the Mastery",
            )
    copies: list[Entry] = [e for e in cards for _ in range(e.count)]
    if len(copies) > 1:
        report.problem(
            "MASTERY-ONE",
            copies[1].at,
            f"{len(copies)} Mastery cards; a deck uses one Mastery at most",
        )
    first = cards[0]
    if declared is None:
        if deck.file.tokui_waza is None:  # a wrong declaration is TW-STYLE's
            report.problem(
                "MASTERY-NEEDS-TW",
                first.at,
                f"{quoted(first.facts.title)} needs a declared Tokui-Waza of its style",
            )
        return
    style = mastery_style(first.facts.title)
    if style is not None and style != declared:
        report.problem(
            "MASTERY-STYLE",
            first.at,
            f"{quoted(first.facts.title)} is {article(style)} Mastery; the declared Tokui-Waza is "
            f"{declared}",
        )
