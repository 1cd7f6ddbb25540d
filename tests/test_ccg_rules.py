"""One test deck per deck rule: a legal deck, and the smallest change that
breaks that one rule, under every profile that has the rule; where the
profiles differ, what the same change does under the others.

The legal decks are ``tests/ccg/*.txt`` and the samples in ``cards/ccg/decks``;
cards the source documents do not give facts for (a Sensei's capacity, a
High-Tech card) come from the test pack ``tests/ccg/pack``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from dbdeck.games.ccg.checker import Verdict, check_deck
from dbdeck.games.ccg.deckfile import parse_deck
from dbdeck.games.ccg.library import Library, load_library
from dbdeck.games.ccg.profiles import PROFILES
from dbdeck.games.ccg.rules import RULES

HERE = Path(__file__).parent / "ccg"
SAMPLES = Path(__file__).parent.parent / "cards" / "ccg" / "decks"
ALL = ("errata-2001", "saiyan-2000", "digest")
E01, S00, DIG = ALL

Edit = Callable[[list[str]], list[str]]


def swap(old: str, *new: str) -> Edit:
    """Replace the one line ``old`` with ``new`` (none: remove it)."""

    def edit(lines: list[str]) -> list[str]:
        assert lines.count(old) == 1, f"{old!r} is not one line of the deck"
        at = lines.index(old)
        return lines[:at] + list(new) + lines[at + 1 :]

    return edit


def under(header: str, *new: str) -> Edit:
    """Add ``new`` right after the section header ``header``."""

    def edit(lines: list[str]) -> list[str]:
        at = lines.index(header)
        return lines[: at + 1] + list(new) + lines[at + 1 :]

    return edit


def declare(style: str | None) -> Edit:
    """Make the deck's [Tokui-Waza] declare ``style`` (or nothing)."""

    def edit(lines: list[str]) -> list[str]:
        at = lines.index("[Tokui-Waza]")
        rest = lines[at + 1 :]
        while rest and rest[0].strip() and not rest[0].startswith("["):
            rest = rest[1:]
        return [*lines[: at + 1], *([style] if style else []), *rest]

    return edit


@dataclass(frozen=True)
class Case:
    """``base`` changed by ``edits`` breaks ``rule`` alone under ``broken``."""

    rule: str
    base: str
    edits: tuple[Edit, ...]
    broken: tuple[str, ...]
    legal: tuple[str, ...] = ()
    """Profiles under which the changed deck is still legal."""
    instead: dict[str, str] = field(default_factory=dict)
    """Profiles under which the change breaks one other rule instead."""
    tournament: bool = False
    said: str = ""
    """A phrase the problem's message holds."""
    name: str = ""

    def __str__(self) -> str:
        return self.name or f"{self.rule}-{self.base}"


KT = "2 King Kai Training (Saiyan #79)"
KT1 = "1 King Kai Training (Saiyan #79)"
CUT = "2 Cutting the Tail (Saiyan #200)"
CUT1 = "1 Cutting the Tail (Saiyan #200)"
YAMCHA = "1 Yamcha Level 1"
SAIB1 = "1 Saibaimen Level 1"
LIFE = "[Life Deck]"
MP = "[Main Personality]"

CASES: list[Case] = [
    Case("DECK-FORMAT", "goku", (under(LIFE, "three Senzu Bean"),), ALL, said="QUANTITY TITLE"),
    Case(
        "DECK-FORMAT",
        "goku",
        (lambda lines: [*lines, "[Side Deck]", "3 Senzu Bean"],),
        ALL,
        said="unknown section",
        name="section",
    ),
    Case(
        "DECK-SECTION",
        "goku",
        (swap("3 Senzu Bean (Saiyan #43)", "2 Senzu Bean (Saiyan #43)"), under(MP, "1 Senzu Bean")),
        ALL,
    ),
    Case(
        "SIZE-MIN", "goku", (swap("3 Senzu Bean (Saiyan #43)", "2 Senzu Bean (Saiyan #43)"),), ALL
    ),
    Case(
        "SIZE-MAX",
        "goku-75",
        (under(LIFE, "1 Goku Anger Attack (Saiyan #46)"),),
        (E01, DIG),
        legal=(S00,),
        said="at most 75",
    ),
    Case(
        "SIZE-MAX",
        "goku-75",
        (under(LIFE, "1 Goku Anger Attack (Saiyan #46)"),),
        (S00,),
        tournament=True,
        said="tournament deck holds at most 75",
        name="SIZE-MAX-tournament",
    ),
    Case(
        "SIZE-MAX",
        "piccolo-namekian-90",
        (under(LIFE, "1 Senzu Bean (Saiyan #43)"),),
        (DIG,),
        legal=(S00,),
        said="Namekian Tokui-Waza a deck holds at most 90",
        name="SIZE-MAX-namekian",
    ),
    Case(
        "SIZE-MAX",
        "piccolo-namekian-90",
        (declare(None),),
        (DIG,),
        legal=(S00,),
        said="90 only with a declared Namekian",
        name="SIZE-MAX-not-namekian",
    ),
    Case(
        "MP-LEVELS",
        "raditz",
        (swap("1 Raditz Level 4", "1 Raditz Level 5"),),
        ALL,
        said="not consecutive",
    ),
    Case(
        "MP-LEVELS",
        "raditz",
        (swap("1 Raditz Level 1 (Saiyan #183)"), under(LIFE, "1 Hidden Power Level (Saiyan #17)")),
        ALL,
        said="lacks level 1",
        name="MP-LEVELS-missing",
    ),
    Case("MP-ONE-CHARACTER", "raditz", (under(MP, "1 Nappa Level 4"), swap(CUT, CUT1)), ALL),
    Case(
        "MP-ONE-CHARACTER",
        "ginyu",
        (
            under(MP, "1 Jeice Level 1 (Frieza #37)"),
            swap("3 Red Lunge Punch (Saiyan #6)", "2 Red Lunge Punch (Saiyan #6)"),
        ),
        (DIG,),
        instead={E01: "MP-ONE-CHARACTER", S00: "MP-ONE-CHARACTER"},
        said="cannot form the Ginyu Force",
        name="MP-ONE-CHARACTER-ginyu",
    ),
    Case(
        "MP-PER-LEVEL",
        "raditz",
        (swap("1 Raditz Level 4", "2 Raditz Level 4"), swap(CUT, CUT1)),
        ALL,
    ),
    Case(
        "MP-PER-LEVEL",
        "goku",
        (under(MP, "1 Goku Level 2 High-Tech"), swap(KT, KT1)),
        ALL,
        said="",
        name="MP-PER-LEVEL-high-tech",
    ),
    Case(
        "MP-HIGH-TECH-LEVELS",
        "goku",
        (swap("1 Goku Level 1", "1 Goku Levels 1-2 High-Tech"),),
        (DIG,),
        instead={E01: "MP-PER-LEVEL", S00: "MP-PER-LEVEL"},
    ),
    Case(
        "ALLY-LEVEL",
        "goku",
        (swap("1 Gohan Level 1 (Saiyan #164)", "1 Gohan Level 2 (Saiyan #165)"),),
        ALL,
    ),
    Case("ALLY-ALIGNMENT", "goku", (swap(YAMCHA, "1 Nappa Level 1 (Saiyan #185)"),), ALL),
    Case(
        "ALLY-ALIGNMENT",
        "goku",
        (swap(YAMCHA, "1 Vegeta Level 1 (Saiyan #184)"),),
        (E01, S00),
        legal=(DIG,),
        name="ALLY-ALIGNMENT-rogue",
    ),
    Case("ALLY-MAJIN", "goku", (swap(YAMCHA, "1 Majin Vegeta Level 1"),), (DIG,), legal=(E01, S00)),
    Case("ALLY-MP-CHARACTER", "goku", (swap(YAMCHA, "1 Goku Level 1"),), ALL),
    Case(
        "ALLY-PER-LEVEL",
        "raditz",
        (swap("1 Vegeta Level 1 (Saiyan #184)", "2 Vegeta Level 1 (Saiyan #184)"), swap(CUT, CUT1)),
        ALL,
    ),
    Case(
        "ALLY-PER-LEVEL",
        "raditz",
        (swap(SAIB1, "3 Saibaimen Level 1"), swap(CUT)),
        (S00,),
        legal=(E01, DIG),
        name="ALLY-PER-LEVEL-saibaimen",
    ),
    Case(
        "ALLY-HIGH-TECH",
        "goku",
        (swap("1 Krillin Level 1 (Saiyan #182)", "1 Krillin Level 1 High-Tech"),),
        (E01, DIG),
        legal=(S00,),
    ),
    Case(
        "COPIES",
        "goku",
        (swap("3 Senzu Bean (Saiyan #43)", "4 Senzu Bean (Saiyan #43)"), swap(KT, KT1)),
        ALL,
    ),
    Case(
        "COPIES",
        "raditz",
        (
            swap("3 Senzu Bean (Saiyan #43)", "2 Senzu Bean (Saiyan #43)"),
            under(LIFE, "4 Goku's Touch (Saiyan #48)"),
            swap(CUT),
        ),
        ALL,
        said="a named card of Goku: 4 only in a Goku deck",
        name="COPIES-named-for-another",
    ),
    Case(
        "COPIES",
        "cell",
        (
            swap("3 Cell Jr. Attack", "4 Cell Jr. Attack"),
            swap("3 Senzu Bean (Saiyan #43)", "2 Senzu Bean (Saiyan #43)"),
        ),
        (DIG,),
        legal=(E01, S00),
        name="COPIES-cell-jr-not-named-for-cell",
    ),
    Case(
        "COPIES",
        "goku",
        (
            swap("3 Goku's Surprise Attack (Saiyan #24)"),
            swap("1 Orange Tripping Drill (Saiyan #130)"),
            under(LIFE, "4 Surprise Kamehameha"),
        ),
        (S00,),
        legal=(E01, DIG),
        name="COPIES-named-in-text",
    ),
    Case(
        "COPIES-NAMED",
        "goku",
        (
            swap("4 Goku's Physical Attack (Saiyan #25)", "5 Goku's Physical Attack (Saiyan #25)"),
            swap(KT, KT1),
        ),
        ALL,
    ),
    Case(
        "LIMIT-ONE",
        "goku",
        (
            swap("1 Orange Tripping Drill (Saiyan #130)", "2 Orange Lifting Drill (Saiyan #126)"),
            swap("1 Orange Spontaneous Drill (Saiyan #137)"),
        ),
        (E01, DIG),
        legal=(S00,),
        said="Errata 7 June 2001, Saiyan #126",
    ),
    Case(
        "LIMIT-ONE",
        "goku",
        (swap("2 Hero Advantage (Saiyan #195)", "2 One Shot Wonder"),),
        ALL,
        said="by its text",
        name="LIMIT-ONE-printed",
    ),
    Case(
        "LIMIT-ONE",
        "raditz",
        (swap(CUT, "2 Garlic Jr.'s Kyokaika Technique"),),
        (E01, DIG),
        legal=(S00,),
        said="unless Garlic Jr. is the Main Personality",
        name="LIMIT-ONE-unless",
    ),
    Case(
        "RESTRICTED",
        "raditz",
        (
            swap("1 Nappa's Energy Aura (Saiyan #120)", "2 Nappa's Energy Aura (Saiyan #120)"),
            swap(CUT, CUT1),
        ),
        (E01, DIG),
        legal=(S00,),
    ),
    Case(
        "RESTRICTED",
        "nappa",
        (
            swap("1 Nappa's Energy Aura (Saiyan #120)", "4 Nappa's Energy Aura (Saiyan #120)"),
            swap("3 Ribs Broken (Saiyan #217)"),
        ),
        (E01, DIG),
        legal=(S00,),
        said="even in its own character's deck",
        name="RESTRICTED-named",
    ),
    Case(
        "BANNED",
        "goku",
        (swap("1 Goku's Lucky Break (Saiyan #202)", "1 Dream Machine Battle (Saiyan #242)"),),
        (E01, DIG),
        legal=(S00,),
    ),
    Case(
        "DRAGON-BALL-COPIES",
        "goku",
        (swap("1 Earth Dragon Ball 1", "2 Earth Dragon Ball 1"), swap(KT, KT1)),
        (E01, DIG),
        legal=(S00,),
    ),
    Case(
        "DRAGON-BALL-COPIES",
        "goku",
        (swap(KT, KT1, "1 Dragonball 3"),),
        (E01, DIG),
        legal=(S00,),
        name="DRAGON-BALL-COPIES-spelled-otherwise",
    ),
    Case("TW-STYLE", "goku", (declare("Purple"),), ALL, said="no martial arts style"),
    Case(
        "TW-STYLE",
        "goku-plain",
        (declare("Freestyle"),),
        (E01, S00),
        legal=(DIG,),
        name="TW-STYLE-freestyle",
    ),
    Case(
        "TW-OFF-STYLE",
        "goku",
        (swap("1 Orange Tripping Drill (Saiyan #130)", "1 Red Knee Pick Drill (Saiyan #128)"),),
        ALL,
    ),
    Case(
        "TW-OFF-STYLE",
        "goku-plain",
        (declare("Freestyle"), swap(KT, KT1, "1 Red Knee Pick Drill (Saiyan #128)")),
        (DIG,),
        instead={E01: "TW-STYLE", S00: "TW-STYLE"},
        said="Freestyle Tokui-Waza deck holds no styled card",
        name="TW-OFF-STYLE-freestyle",
    ),
    Case(
        "TW-OFF-STYLE",
        "goku-sensei",
        (
            under("[Sensei Deck]", "1 Red Knee Pick Drill (Saiyan #128)"),
            swap("2 Turtle Training", "1 Turtle Training"),
        ),
        (DIG,),
        legal=(E01, S00),
        said="in the Sensei Deck",
        name="TW-OFF-STYLE-sensei-deck",
    ),
    Case("TW-STYLED-CARD", "goku-plain", (declare("Red"),), (E01, DIG), legal=(S00,)),
    Case(
        "TW-LIST",
        "goku-plain",
        (declare("Namekian"), swap(KT, KT1, "1 Namekian Energy Drill (Trunks #61)")),
        (DIG,),
        legal=(E01, S00),
    ),
    Case(
        "MASTERY-ONE",
        "goku",
        (lambda lines: [*lines, "[Mastery]", "2 Orange Style Mastery"], swap(KT)),
        (E01, DIG),
        legal=(S00,),
    ),
    Case(
        "MASTERY-NEEDS-TW",
        "goku-plain",
        (lambda lines: [*lines, "[Mastery]", "1 Orange Style Mastery"],),
        (E01, DIG),
        legal=(S00,),
    ),
    Case(
        "MASTERY-STYLE",
        "goku",
        (lambda lines: [*lines, "[Mastery]", "1 Red Style Mastery (Trunks #144)"],),
        (E01, DIG),
        legal=(S00,),
    ),
    Case(
        "HERITAGE",
        "krillin",
        (swap("3 Hero Advantage (Saiyan #195)", "3 Saiyan Energy Defense (Saiyan #92)"),),
        (E01, DIG),
        legal=(S00,),
        said="Saiyan Heritage only",
    ),
    Case(
        "HERITAGE",
        "pikkon",
        (swap("3 Test Card 15", "3 Namekian Heritage Focus"),),
        (DIG,),
        legal=(E01, S00),
        said="Pikkon may declare Namekian Tokui-Waza but is not of Namekian Heritage",
        name="HERITAGE-pikkon",
    ),
    Case(
        "SENSEI-ONE",
        "goku-sensei",
        (swap("1 Master Roshi Sensei", "2 Master Roshi Sensei"), swap(KT, KT1)),
        (DIG,),
        legal=(E01, S00),
    ),
    Case(
        "SENSEI-NEEDED",
        "goku-sensei",
        (swap("1 Master Roshi Sensei"), under(LIFE, "1 Test Card 1")),
        (DIG,),
        legal=(E01, S00),
    ),
    Case(
        "SENSEI-CAPACITY",
        "goku-sensei",
        (swap("2 Turtle Training", "3 Turtle Training"),),
        (DIG,),
        legal=(E01, S00),
    ),
    Case(
        "SENSEI-CONTENTS",
        "goku-sensei",
        (swap("2 Turtle Training", "1 Turtle Training", "1 Plain Pack Card"),),
        (DIG,),
        legal=(E01, S00),
    ),
    Case(
        "SAIBAIMEN-COPIES",
        "raditz",
        (swap(SAIB1, "4 Saibaimen Level 1"), swap(CUT), swap("1 Vegeta's Smirk")),
        (E01, DIG),
        instead={S00: "ALLY-PER-LEVEL"},
    ),
    Case(
        "SAIBAIMEN-MP",
        "saibaimen",
        (
            under(LIFE, SAIB1),
            swap("3 Red Knee Pick Drill (Saiyan #128)", "2 Red Knee Pick Drill (Saiyan #128)"),
        ),
        (E01, DIG),
        instead={S00: "ALLY-MP-CHARACTER"},
    ),
    Case("CELL-JR", "raditz", (swap(SAIB1, "1 Cell Jr. 1 Level 1"),), (DIG,), legal=(E01, S00)),
    Case(
        "ALLY-PER-LEVEL",
        "cell",
        (
            swap("1 Cell Jr. 1 Level 1", "3 Cell Jr. 1 Level 1"),
            swap("3 Senzu Bean (Saiyan #43)", "1 Senzu Bean (Saiyan #43)"),
        ),
        (E01, S00),
        legal=(DIG,),
        name="ALLY-PER-LEVEL-cell-jr",
    ),
    Case(
        "GINYU-FORCE",
        "ginyu",
        (
            under(LIFE, "1 Jeice Level 1 (Frieza #37)"),
            swap("3 Red Lunge Punch (Saiyan #6)", "2 Red Lunge Punch (Saiyan #6)"),
        ),
        (DIG,),
        legal=(E01, S00),
    ),
    Case(
        "BATTLE-SIMULATOR",
        "goku",
        (swap("1 Goku's Lucky Break (Saiyan #202)", "1 Battle Simulator Training"),),
        (E01, DIG),
        legal=(S00,),
    ),
    Case(
        "KID-TRUNKS-STARTER",
        "raditz",
        (swap(SAIB1, "1 Kid Trunks Level 1"),),
        (DIG,),
        instead={E01: "ALLY-ALIGNMENT", S00: "ALLY-ALIGNMENT"},
    ),
]

# Rules that only ever warn.
WARNING_RULES = {"UNKNOWN-CARD", "PRINTING", "ONLY", "PROFILE-SCOPE"}


@pytest.fixture(scope="module")
def library() -> Library:
    """The shipped library with the test pack."""
    return load_library([HERE / "pack"], include_env_packs=False)


def base_lines(base: str) -> list[str]:
    path = SAMPLES / f"{base}.txt" if base in ("goku", "raditz") else HERE / f"{base}.txt"
    return path.read_text(encoding="utf-8").splitlines()


def verdict(library: Library, lines: list[str], profile: str, tournament: bool = False) -> Verdict:
    chosen = PROFILES[profile]  # type: ignore[index]
    return check_deck(parse_deck("\n".join(lines)), library, chosen, tournament=tournament)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_one_change_breaks_one_rule(library: Library, case: Case) -> None:
    lines = base_lines(case.base)
    changed = lines
    for edit in case.edits:
        changed = edit(changed)
    for profile in ALL:
        before = verdict(library, lines, profile, case.tournament)
        if profile in case.broken or profile in case.legal or profile in case.instead:
            assert before.legal, (profile, [f.as_line(case.base) for f in before.problems])
        after = verdict(library, changed, profile, case.tournament)
        rules = [f.rule for f in after.problems]
        if profile in case.broken:
            assert set(rules) == {case.rule}, (profile, [f.as_line("deck") for f in after.problems])
            assert all(case.said in f.message for f in after.problems), after.problems
        elif profile in case.legal:
            assert after.legal, (profile, [f.as_line("deck") for f in after.problems])
        elif profile in case.instead:
            assert set(rules) == {case.instead[profile]}, (profile, rules)


def test_every_rule_has_a_breaking_deck_under_every_profile_that_has_it() -> None:
    covered = {(c.rule, p) for c in CASES for p in c.broken}
    missing = [
        (rule.id, profile)
        for rule in RULES.values()
        if rule.id not in WARNING_RULES
        for profile in rule.sources
        if (rule.id, profile) not in covered
    ]
    assert missing == []


def test_the_test_decks_are_legal_under_every_profile(library: Library) -> None:
    expected_illegal = {("piccolo-namekian-90", E01)}
    for path in sorted(HERE.glob("*.txt")):
        for profile in ALL:
            result = verdict(library, path.read_text().splitlines(), profile)
            assert result.legal == ((path.stem, profile) not in expected_illegal), (
                path.name,
                profile,
            )


@pytest.mark.parametrize("deck", ["goku", "raditz"])
@pytest.mark.parametrize("profile", ALL)
def test_the_sample_decks_are_legal_and_quiet(deck: str, profile: str) -> None:
    shipped = load_library(include_env_packs=False)
    result = verdict(shipped, base_lines(deck), profile)
    assert result.legal and result.cards == 50
    assert result.warnings == ()


# --- warnings ---------------------------------------------------------------------


def warned(library: Library, lines: list[str], profile: str = E01) -> list[str]:
    result = verdict(library, lines, profile)
    assert result.legal, result.problems
    return [f"{f.rule}: {f.message}" for f in result.warnings]


def test_outside_tournaments_only_a_deck_past_the_tournament_limit_is_warned(
    library: Library,
) -> None:
    """Seed 002, Deck Size: "The deck can be as large as desired in non-tournament
    play. During tournaments, no deck can be larger than 75 cards": 75 cards is
    quiet, 76 is a warning and not a problem."""
    at_the_limit = base_lines("goku-75")
    assert warned(library, at_the_limit, S00) == []
    past_it = under(LIFE, "1 Goku Anger Attack (Saiyan #46)")(at_the_limit)
    assert said(library, past_it, S00, warnings=True) == [
        "0: SIZE-MAX: 76 cards: no limit outside tournaments, but a tournament allows at most 75 "
        "(check with --tournament)"
    ]
    assert said(library, past_it, S00) == []


def test_a_declared_namekian_deck_of_90_is_quiet(library: Library) -> None:
    """Seed 001, Tokui-Waza: "Namekian Tokui-Waza permits a 90-card deck": no
    warning of the 75-card limit it is allowed past."""
    assert warned(library, base_lines("piccolo-namekian-90"), DIG) == []


def test_an_unknown_title_warns_with_suggestions_and_still_counts(library: Library) -> None:
    lines = swap(KT, "2 King Kai Trainin")(base_lines("goku"))
    [said] = warned(library, lines)
    assert said.startswith(
        "UNKNOWN-CARD: unknown card 'King Kai Trainin'; did you mean 'King Kai Training'"
    )
    assert verdict(library, lines, E01).cards == 50
    over = swap("3 Senzu Bean (Saiyan #43)", "2 Senzu Bean (Saiyan #43)", "4 Senzu Bean")(
        base_lines("goku")
    )
    assert {f.rule for f in verdict(library, over, E01).problems} == {"COPIES"}


def test_an_unknown_personality_still_counts_as_a_personality(library: Library) -> None:
    lines = swap("1 Gohan Level 1 (Saiyan #164)", "1 Gohan Level 3")(base_lines("goku"))
    result = verdict(library, lines, E01)
    assert [f.rule for f in result.problems] == ["ALLY-LEVEL"]
    assert [f.rule for f in result.warnings] == ["UNKNOWN-CARD"]


def test_a_wrong_printing_warns(library: Library) -> None:
    lines = swap("3 Senzu Bean (Saiyan #43)", "3 Senzu Bean (Frieza #43)")(base_lines("goku"))
    [said] = warned(library, lines)
    assert said.startswith("PRINTING: no printing Frieza #43 of 'Senzu Bean'")


def test_the_other_number_of_a_card_is_its_printing(library: Library) -> None:
    lines = swap("1 Vegeta Level 1 (Saiyan #184)", "1 Vegeta Level 1 (Saiyan #173)")(
        base_lines("raditz")
    )
    assert warned(library, lines) == []


def test_a_card_the_main_personality_can_never_use_warns(library: Library) -> None:
    lines = swap(CUT, "2 Hero Advantage (Saiyan #195)")(base_lines("raditz"))
    [said] = warned(library, lines)
    assert (
        said
        == "ONLY: 'Hero Advantage' is Heroes only: the Main Personality Raditz can never use it"
    )
    assert warned(library, lines, S00) == []  # the Heroes-only ruling is of 2001


def test_a_heroes_only_card_cites_the_clarification_that_makes_it_so(library: Library) -> None:
    """Seed 003, Card Clarifications, Saiyan Saga #195: "Treat this card as if
    it read, 'Heroes only…'". The "(name here) only" passage (Named Cards 3)
    is about a personality's name, not about heroes."""
    lines = swap(CUT, "2 Hero Advantage (Saiyan #195)")(base_lines("raditz"))
    for profile in (E01, DIG):
        [finding] = verdict(library, lines, profile).warnings
        assert (finding.rule, finding.source) == ("ONLY", "Errata 7 June 2001, Saiyan #195")


def test_a_name_only_card_cites_the_name_rule_and_its_clarification(library: Library) -> None:
    """Saiyan #80 is ruled "Villains and Goku only": in a hero deck without
    Goku the warning cites what "(name) only" means and the clarification."""
    lines = swap("3 Hero Advantage (Saiyan #195)", "2 Saiyan Training (Saiyan #80)", CUT1)(
        base_lines("krillin")
    )
    assert verdict(library, lines, E01).legal
    [finding] = verdict(library, lines, E01).warnings
    assert finding.rule == "ONLY" and "Villains, Goku only" in finding.message
    assert finding.source == "Errata 7 June 2001, Named Cards 3; Errata 7 June 2001, Saiyan #80"
    # A pack's own "Krillin only" is the name rule alone.
    lines = swap("2 Hero Advantage (Saiyan #195)", "2 Krillin Only Trick")(base_lines("goku"))
    [finding] = verdict(library, lines, E01).warnings
    assert finding.source == "Errata 7 June 2001, Named Cards 3"


def test_a_name_only_card_an_ally_can_use(library: Library) -> None:
    lines = swap("3 Hero Advantage (Saiyan #195)", "3 Krillin Only Trick")(base_lines("krillin"))
    assert warned(library, lines) == []
    lines = swap("2 Hero Advantage (Saiyan #195)", "2 Krillin Only Trick")(base_lines("goku"))
    [said] = warned(library, lines)
    assert said.endswith("Goku can never use it; only the Ally 'Krillin Level 1' can")


def test_a_heritage_card_only_an_ally_can_use_warns(library: Library) -> None:
    lines = swap("1 Yamcha Level 1", "1 Gohan Level 1 (Saiyan #164)")(base_lines("krillin"))
    lines = swap("3 Hero Advantage (Saiyan #195)", "3 Saiyan Energy Defense (Saiyan #92)")(lines)
    [said] = warned(library, lines)
    assert said.startswith("HERITAGE: 'Saiyan Energy Defense' is Saiyan Heritage only")
    assert "only the Ally 'Gohan Level 1' can use it" in said


def test_villains_goku_and_gohan_only_reads_as_saiyan_heritage(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    card = {
        "id": "old-saiyan-card",
        "title": "Old Saiyan Card",
        "only": ["Villains", "Goku", "Gohan"],
    }
    (pack / "old.ccg.json").write_text(json.dumps({"cards": [card]}))
    both = load_library([HERE / "pack", pack], include_env_packs=False)
    lines = swap("3 Hero Advantage (Saiyan #195)", "3 Old Saiyan Card")(base_lines("krillin"))
    assert {f.rule for f in verdict(both, lines, E01).problems} == {"HERITAGE"}
    result = verdict(both, lines, S00)
    assert result.legal and [f.rule for f in result.warnings] == ["ONLY"]


def test_a_rogue_main_personality_is_not_guessed(library: Library) -> None:
    lines = [
        "[Main Personality]",
        "1 Vegeta Level 1 (Saiyan #184)",
        "1 Vegeta Level 2",
        "1 Vegeta, Saiyan Prince Level 4",
        "[Life Deck]",
        "1 Krillin Level 1 (Saiyan #182)",
    ]
    result = verdict(library, lines, DIG)
    assert "ALLY-ALIGNMENT" not in {f.rule for f in result.problems}
    assert any("is a Rogue" in f.message for f in result.warnings)
    assert "ALLY-ALIGNMENT" in {f.rule for f in verdict(library, lines, E01).problems}


def test_a_sensei_without_capacity_or_marks_is_said_unchecked(library: Library) -> None:
    lines = [
        *base_lines("goku"),
        "[Sensei]",
        "1 Master Roshi Sensei",
        "[Sensei Deck]",
        "1 Senzu Bean",
    ]
    lines = swap("3 Senzu Bean (Saiyan #43)", "2 Senzu Bean (Saiyan #43)")(lines)
    said = warned(library, lines, DIG)
    assert said == [
        "SENSEI-CONTENTS: whether 'Senzu Bean' is marked for a Sensei Deck is printed on the "
        "card: not checked without a pack"
    ]


def test_saiyan_2000_knows_no_mastery(library: Library) -> None:
    lines = [*base_lines("goku"), "[Mastery]", "1 Red Style Mastery (Trunks #144)"]
    [said] = warned(library, lines, S00)
    assert said.startswith("PROFILE-SCOPE: these rules have no Mastery cards")


def test_every_finding_names_a_rule_and_its_source(library: Library) -> None:
    """A finding cites its rule's source, or the part of it behind this one
    finding, or with the card clarification behind it."""
    clarifications = {r.source for rulings in library.rulings.values() for r in rulings}
    for case in CASES:
        changed = base_lines(case.base)
        for edit in case.edits:
            changed = edit(changed)
        for profile in ALL:
            result = verdict(library, changed, profile)
            for finding in (*result.problems, *result.warnings):
                assert finding.rule in RULES
                sources = RULES[finding.rule].sources[profile]  # type: ignore[index]
                allowed = {*sources.split("; "), *clarifications, "the card's text (a pack)"}
                assert set(finding.source.split("; ")) <= allowed, finding
                line = finding.as_line("deck.txt")
                said = f"{finding.rule}: {finding.message} ({finding.source})"
                assert line == f"deck.txt:{finding.line}: {said}"


def _pack(tmp_path: Path, *cards: dict[str, object]) -> Library:
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "extra.ccg.json").write_text(json.dumps({"cards": list(cards)}))
    return load_library([HERE / "pack", pack], include_env_packs=False)


# --- what each finding says, and where ----------------------------------------------

SAID: dict[tuple[str, str], list[str]] = {
    ("COPIES-goku", E01): ["39: COPIES: 4 copies of 'Senzu Bean'; 3 at most"],
    ("COPIES-named-for-another", E01): [
        "17: COPIES: 4 copies of 'Goku's Touch'; 3 at most (a named card of Goku: 4 only in a "
        "Goku deck)"
    ],
    ("DECK-SECTION-goku", E01): [
        "10: DECK-SECTION: 'Senzu Bean' is a non-combat card; [Main Personality] holds the "
        "Main Personality's personality cards"
    ],
    ("SIZE-MIN-goku", E01): [
        "0: SIZE-MIN: 49 cards; a deck holds at least 50 (every Main Personality level and the "
        "Mastery count)"
    ],
    ("SIZE-MAX-goku-75", E01): ["0: SIZE-MAX: 76 cards; a deck holds at most 75"],
    ("MP-LEVELS-raditz", E01): [
        "10: MP-LEVELS: levels 1, 2, 3 and 5 are not consecutive: level 4 is missing"
    ],
    ("MP-LEVELS-missing", E01): [
        "10: MP-LEVELS: the Main Personality Raditz lacks level 1: levels 1, 2 and 3 at least"
    ],
    ("MP-PER-LEVEL-raditz", DIG): [
        "14: MP-PER-LEVEL: 'Raditz Level 4': 2 cards of level 4; one card per level"
    ],
    ("MP-PER-LEVEL-high-tech", E01): [
        "12: MP-PER-LEVEL: 'Goku Level 2': 2 cards of level 2; one card per level"
    ],
    ("MP-PER-LEVEL-high-tech", DIG): [
        "12: MP-PER-LEVEL: 'Goku Level 2': standard or High-Tech for level 2, not both"
    ],
    ("MP-HIGH-TECH-LEVELS-goku", DIG): [
        "11: MP-HIGH-TECH-LEVELS: 'Goku Levels 1-2 High-Tech' is a High-Tech card of levels "
        "1-2, used for every one of them; 'Goku Level 2' takes level 2 too"
    ],
    ("RESTRICTED-raditz", E01): [
        "40: RESTRICTED: 2 copies of 'Nappa's Energy Aura'; it is restricted to one copy per deck"
    ],
    ("RESTRICTED-named", DIG): [
        "16: RESTRICTED: 4 copies of 'Nappa's Energy Aura'; it is restricted to one copy per "
        "deck, even in its own character's deck"
    ],
    ("LIMIT-ONE-goku", E01): [
        "25: LIMIT-ONE: 2 copies of 'Orange Lifting Drill'; it is limit 1 per deck "
        "(by Errata 7 June 2001, Saiyan #126)"
    ],
    ("LIMIT-ONE-printed", S00): [
        "40: LIMIT-ONE: 2 copies of 'One Shot Wonder'; it is limit 1 per deck (by its text)"
    ],
    ("LIMIT-ONE-unless", E01): [
        "44: LIMIT-ONE: 2 copies of 'Garlic Jr.'s Kyokaika Technique'; it is limit 1 per deck "
        "(by Errata 7 June 2001, Named Cards 4) unless Garlic Jr. is the Main Personality"
    ],
    ("COPIES-NAMED-goku", E01): [
        "31: COPIES-NAMED: 5 copies of 'Goku's Physical Attack'; 4 at most of a card named for "
        "the Main Personality Goku"
    ],
    ("TW-OFF-STYLE-goku", E01): [
        "25: TW-OFF-STYLE: 'Red Knee Pick Drill' is a Red card in the deck; a declared Orange "
        "Tokui-Waza allows Orange styled cards only"
    ],
    ("TW-OFF-STYLE-sensei-deck", DIG): [
        "58: TW-OFF-STYLE: 'Red Knee Pick Drill' is a Red card in the Sensei Deck; a declared "
        "Orange Tokui-Waza allows Orange styled cards only"
    ],
    ("TW-LIST-goku-plain", DIG): [
        "5: TW-LIST: Goku may not declare Namekian Tokui-Waza; only Cell, Dende, Lord Slug, "
        "Nail, Piccolo, Pikkon may"
    ],
    ("HERITAGE-krillin", DIG): [
        "19: HERITAGE: 'Saiyan Energy Defense' is Saiyan Heritage only, and no personality of "
        "this deck is (Saiyan Heritage: Broly, Cell, Cell Jr. 1, Cell Jr. 2, Future Gohan, "
        "Gohan, Goku, Goten, Gotenks, Kid Trunks, Majin Vegeta, Mighty Mask, Nappa, Paragus, "
        "Raditz, Trunks, Vegeta)"
    ],
    ("HERITAGE-pikkon", DIG): [
        "28: HERITAGE: 'Namekian Heritage Focus' is Namekian Heritage only, and no personality "
        "of this deck is (Namekian Heritage: Cell, Cell Jr. 1, Cell Jr. 2, Dende, Lord Slug, "
        "Nail, Piccolo) (Pikkon may declare Namekian Tokui-Waza but is not of Namekian Heritage)"
    ],
    ("MP-ONE-CHARACTER-ginyu", DIG): [
        "7: MP-ONE-CHARACTER: 'Jeice Level 1' is Jeice, but the Main Personality is Ginyu Force "
        "(a member's cards cannot form the Ginyu Force's Main Personality)"
    ],
}
"""What a case's problems say, each with its line, under one profile."""


def said(library: Library, lines: list[str], profile: str, warnings: bool = False) -> list[str]:
    """Each problem (or warning) as ``LINE: RULE: message``, without its source."""
    result = verdict(library, lines, profile)
    return [
        f"{f.line}: {f.rule}: {f.message}"
        for f in (result.warnings if warnings else result.problems)
    ]


@pytest.mark.parametrize(("name", "profile"), list(SAID), ids=lambda x: str(x))
def test_a_problem_names_its_line_and_says_why(library: Library, name: str, profile: str) -> None:
    [case] = [c for c in CASES if str(c) == name]
    lines = base_lines(case.base)
    for edit in case.edits:
        lines = edit(lines)
    assert [s for s in said(library, lines, profile) if s.split(": ")[1] == case.rule] == SAID[
        (name, profile)
    ]


def test_only_a_member_of_the_ginyu_force_is_told_it_cannot_form_it(library: Library) -> None:
    """Seed 001, special personalities: the Ginyu Force's members cannot form its
    Main Personality; another character's card in a Raditz deck is only another
    character."""
    lines = swap(CUT, CUT1)(under(MP, "1 Jeice Level 1")(base_lines("raditz")))
    assert said(library, lines, DIG) == [
        "11: MP-ONE-CHARACTER: 'Jeice Level 1' is Jeice, but the Main Personality is Raditz"
    ]


def test_a_member_in_the_ginyu_force_stack_cites_the_digest(library: Library) -> None:
    """Seed 001, special personalities: "member cards cannot form its MP
    stack" is the digest's own rule: its paragraph is cited, not the
    rulebook's one-character passage."""
    lines = under(MP, "1 Jeice Level 1 (Frieza #37)")(base_lines("ginyu"))
    lines = swap("3 Red Lunge Punch (Saiyan #6)", "2 Red Lunge Punch (Saiyan #6)")(lines)
    [finding] = verdict(library, lines, DIG).problems
    assert "cannot form the Ginyu Force" in finding.message
    assert finding.source == "Rules digest, special personalities"
    [finding] = verdict(library, lines, E01).problems  # only another character there
    assert finding.source == "Saiyan Saga rulebook, Building a Deck 2"


def test_the_pikkon_note_is_for_a_pikkon_deck_only(library: Library) -> None:
    """Seed 001, Heritage: a Namekian Heritage card in a Goku deck is only of a
    Heritage nobody in the deck has."""
    lines = swap(KT, "2 Namekian Heritage Focus")(base_lines("goku"))
    assert [s for s in said(library, lines, DIG) if "HERITAGE" in s] == [
        "41: HERITAGE: 'Namekian Heritage Focus' is Namekian Heritage only, and no personality "
        "of this deck is (Namekian Heritage: Cell, Cell Jr. 1, Cell Jr. 2, Dende, Lord Slug, "
        "Nail, Piccolo)"
    ]
    assert said(library, lines, E01, warnings=True) == [
        "41: ONLY: 'Namekian Heritage Focus' is Namekian Heritage only; these rules list no "
        "Namekian Heritage: not checked"
    ]


def test_a_heritage_card_only_an_ally_can_use_is_warned_at_its_line(library: Library) -> None:
    lines = swap("1 Yamcha Level 1", "1 Gohan Level 1 (Saiyan #164)")(base_lines("krillin"))
    lines = swap("3 Hero Advantage (Saiyan #195)", "3 Saiyan Energy Defense (Saiyan #92)")(lines)
    assert said(library, lines, DIG, warnings=True) == [
        "19: HERITAGE: 'Saiyan Energy Defense' is Saiyan Heritage only: the Main Personality "
        "Krillin is not, only the Ally 'Gohan Level 1' can use it"
    ]


ROGUE_VEGETA = [
    "[Main Personality]",
    "1 Vegeta Level 1 (Saiyan #184)",
    "1 Vegeta Level 2",
    "1 Vegeta, Saiyan Prince Level 4",
    "[Life Deck]",
    "1 Krillin Level 1 (Saiyan #182)",
    "1 Tien Level 1 (Saiyan #82)",
    "1 Hero Advantage (Saiyan #195)",
    "1 Recoome Boom",
]


def test_a_rogue_is_warned_of_once_and_may_hold_heroes_and_villains_only_cards(
    library: Library,
) -> None:
    """Seed 001, Allies: the digest does not say which Allies a Rogue Main
    Personality takes, nor can it tell whether a Rogue may use a Heroes-only or a
    Villains-only card: one warning at the Main Personality, none per Ally or card."""
    assert said(library, ROGUE_VEGETA, DIG, warnings=True) == [
        "1: ALLY-ALIGNMENT: Vegeta is a Rogue: the digest does not say which Allies a Rogue "
        "Main Personality takes; their alignment is not checked"
    ]


def test_a_main_personality_of_unknown_alignment_is_warned_of_once(tmp_path: Path) -> None:
    bojack: list[dict[str, object]] = [
        {
            "id": f"bojack-level-{n}",
            "title": f"Bojack Level {n}",
            "type": "personality",
            "personality": "Bojack",
            "level": n,
        }
        for n in (1, 2, 3)
    ]
    lines = [
        "[Main Personality]",
        "1 Bojack Level 1",
        "1 Bojack Level 2",
        "1 Bojack Level 3",
        "[Life Deck]",
        "1 Krillin Level 1 (Saiyan #182)",
        "1 Tien Level 1 (Saiyan #82)",
    ]
    assert said(_pack(tmp_path, *bojack), lines, E01, warnings=True) == [
        "1: ALLY-ALIGNMENT: the alignment of Bojack is not known (a pack can give it): the "
        "Allies' alignment is not checked"
    ]


def test_a_kid_trunks_deck_removes_the_starters_kid_trunks_ally(library: Library) -> None:
    """Seed 001, deck building: "A villain starter, or a deck using Kid Trunks as
    MP, removes the starter's Kid Trunks Ally"; in a hero deck it is an Ally like
    any other, one card a level."""
    kid_trunks = [
        "[Main Personality]",
        "1 Kid Trunks Level 1",
        "[Life Deck]",
        "1 Kid Trunks Level 1",
    ]
    assert [s for s in said(library, kid_trunks, DIG) if "KID-TRUNKS" in s] == [
        "4: KID-TRUNKS-STARTER: 'Kid Trunks Level 1': a deck with Kid Trunks as its Main "
        "Personality removes the starter's Kid Trunks Ally"
    ]
    goku = under(LIFE, "1 Kid Trunks Level 1", "1 Kid Trunks Level 1")(base_lines("goku"))
    assert said(library, goku, DIG) == [
        "16: ALLY-PER-LEVEL: 2 cards of Kid Trunks level 1; one card of each level of a personality"
    ]


def _trunks_deck(extra: str) -> list[str]:
    """Trunks levels 1 to 3 (2 and 3 written, not known), style-less cards."""
    lines = base_lines("goku-plain")
    for level in (1, 2, 3):
        lines = swap(f"1 Goku Level {level}", f"1 Trunks Level {level}")(lines)
    lines = swap("1 Gohan Level 1 (Saiyan #164)")(lines)
    return swap("3 Fortify Your Spirit (Saiyan #31)", extra)(lines)


def test_separate_characters_and_named_cards(tmp_path: Path) -> None:
    both = _pack(tmp_path, {"id": "kid-trunks-kick", "title": "Kid Trunks Kick"})
    lines = _trunks_deck("4 Kid Trunks Kick")

    def about_the_kick(profile: str) -> list[str]:
        return [
            f"{f.rule}: {f.message}"
            for f in verdict(both, lines, profile).problems
            if "Kid Trunks Kick" in f.message
        ]

    # The errata: "regardless of where that name appears in the title".
    assert about_the_kick(E01) == []
    # The digest: Kid Trunks is a separate character, not Trunks.
    assert about_the_kick(DIG) == [
        "COPIES: 4 copies of 'Kid Trunks Kick'; 3 at most (a named card of Kid Trunks: "
        "4 only in a Kid Trunks deck)"
    ]


def test_separate_characters_do_not_combine_levels(library: Library) -> None:
    lines = swap("1 Gohan Level 1 (Saiyan #164)")(base_lines("goku-plain"))
    lines = swap("1 Goku Level 1", "1 Gohan Level 1 (Saiyan #164)")(lines)
    lines = swap("1 Goku Level 2", "1 Gohan Level 2 (Saiyan #165)")(lines)
    lines = swap("1 Goku Level 3", "1 Future Gohan Level 3")(lines)
    result = verdict(library, lines, DIG)
    said = [f.message for f in result.problems if f.rule == "MP-ONE-CHARACTER"]
    assert said == [
        "'Future Gohan Level 3' is Future Gohan, but the Main Personality is Gohan "
        "(Gohan and Future Gohan are separate characters)"
    ]


def test_mighty_mask_uses_goten_only_cards_under_the_digest(tmp_path: Path) -> None:
    both = _pack(tmp_path, {"id": "goten-trick", "title": "Goten Trick", "only": ["Goten"]})
    lines = base_lines("goku-plain")
    for level in (1, 2, 3):
        lines = swap(f"1 Goku Level {level}", f"1 Mighty Mask Level {level}")(lines)
    lines = swap("3 Fortify Your Spirit (Saiyan #31)", "3 Goten Trick")(lines)
    assert "ONLY" not in {f.rule for f in verdict(both, lines, DIG).warnings}
    assert "ONLY" in {f.rule for f in verdict(both, lines, E01).warnings}


def test_a_deck_without_a_main_personality_is_still_checked(library: Library) -> None:
    lines = ["[Life Deck]", "1 Krillin Level 1 (Saiyan #182)", "1 Hero Advantage (Saiyan #195)"]
    assert said(library, lines, E01) == [
        "0: MP-LEVELS: no Main Personality: list its levels 1, 2 and 3 under [Main Personality]",
        "0: SIZE-MIN: 2 cards; a deck holds at least 50 (every Main Personality level and the "
        "Mastery count)",
    ]
    assert said(library, lines, E01, warnings=True) == []


def test_counts_are_said_singular_or_plural(library: Library) -> None:
    """One card, one level: never "1 cards" nor "level 2, 3"."""
    lines = ["[Main Personality]", "1 Goku Level 1"]
    assert said(library, lines, E01) == [
        "0: SIZE-MIN: 1 card; a deck holds at least 50 (every Main Personality level and the "
        "Mastery count)",
        "1: MP-LEVELS: the Main Personality Goku lacks levels 2 and 3: levels 1, 2 and 3 at least",
    ]
    sensei_deck = [*base_lines("goku"), "[Sensei Deck]", "1 Senzu Bean (Saiyan #43)"]
    assert [s for s in said(library, sensei_deck, DIG) if "SENSEI" in s] == [
        f"{len(sensei_deck) - 1}: SENSEI-NEEDED: a Sensei Deck of 1 card and no Sensei: list one "
        "under [Sensei]"
    ]
    gaps = swap("1 Raditz Level 4", "1 Raditz Level 6")(base_lines("raditz"))
    assert [s for s in said(library, gaps, E01) if "MP-LEVELS" in s] == [
        "10: MP-LEVELS: levels 1, 2, 3 and 6 are not consecutive: levels 4 and 5 are missing"
    ]


def test_only_mighty_mask_uses_goten_only_cards(tmp_path: Path) -> None:
    """Seed 001: Mighty Mask "can ... use ... Goten-only and Kid Trunks-only
    cards"; a Goku deck cannot."""
    both = _pack(tmp_path, {"id": "goten-trick", "title": "Goten Trick", "only": ["Goten"]})
    lines = swap("3 Fortify Your Spirit (Saiyan #31)", "3 Goten Trick")(base_lines("goku-plain"))
    assert said(both, lines, DIG, warnings=True) == [
        "28: ONLY: 'Goten Trick' is Goten only: the Main Personality Goku can never use it"
    ]


def test_a_deck_without_a_main_personality_has_no_named_card(library: Library) -> None:
    """Seed 002, Duplicate Card Limits: 4 copies only of a card named for the Main
    Personality; without one, 3 of every card."""
    lines = ["[Life Deck]", "1 Krillin Level 1 (Saiyan #182)", "4 Senzu Bean (Saiyan #43)"]
    assert "3: COPIES: 4 copies of 'Senzu Bean'; 3 at most" in said(library, lines, E01)


def test_a_saiyan_saga_card_is_named_by_its_title_only(tmp_path: Path) -> None:
    """Seed 003, Named Cards 4: "Number 2 and 3 apply only to the Saiyan Saga. From
    the Frieza Saga, and up, if a character's name is listed in the card rules text
    anywhere": a Saiyan Saga card naming Goku in its text only is
    not named for him."""
    both = _pack(
        tmp_path,
        {
            "id": "surprise-wave",
            "title": "Surprise Wave",
            "saga": "Saiyan",
            "number": "901",
            "type": "energy-combat",
            "text": "Energy attack. If used by Goku, raise his anger 1 level.",
        },
    )
    lines = swap("3 Goku's Surprise Attack (Saiyan #24)")(base_lines("goku"))
    lines = swap("1 Orange Tripping Drill (Saiyan #130)")(lines)
    lines = under(LIFE, "4 Surprise Wave")(lines)
    assert said(both, lines, E01) == ["15: COPIES: 4 copies of 'Surprise Wave'; 3 at most"]


def test_a_mastery_and_a_sensei_are_listed_in_their_own_sections(library: Library) -> None:
    """Seed 001, Mastery: a Mastery "starts in play" (rules note R18 for the
    Sensei): under [Life Deck] it is misplaced, and [Mastery] or [Sensei] holds
    nothing else."""
    goku = swap(KT, KT1)(base_lines("goku"))
    assert said(library, under(LIFE, "1 Orange Style Mastery")(goku), E01) == [
        "15: DECK-SECTION: 'Orange Style Mastery' is a Mastery (it starts in play): list it "
        "under [Mastery]"
    ]
    misplaced = [*goku, "[Mastery]", "1 Senzu Bean (Saiyan #43)"]
    assert "53: DECK-SECTION: 'Senzu Bean' is a non-combat card; [Mastery] holds the Mastery" in (
        said(library, misplaced, E01)
    )
    misplaced = [*goku, "[Sensei]", "1 Senzu Bean (Saiyan #43)"]
    assert "53: DECK-SECTION: 'Senzu Bean' is a non-combat card; [Sensei] holds the Sensei" in (
        said(library, misplaced, DIG)
    )
    assert said(library, misplaced, E01, warnings=True) == [
        "52: PROFILE-SCOPE: these rules have no Sensei Decks: the [Sensei] card is counted "
        "toward the size, the [Sensei Deck] is not part of the deck"
    ]


def test_cell_jr_allies_repeat_up_to_three_copies(library: Library) -> None:
    """Seed 001: "Cell Jr. Allies require a Cell MP and allow duplicates"; the
    copy limit of 3 (seed 002, Duplicate Card Limits 2) still holds."""
    lines = swap("3 Senzu Bean (Saiyan #43)", "1 Senzu Bean (Saiyan #43)")(base_lines("cell"))
    three = swap("1 Cell Jr. 1 Level 1", "3 Cell Jr. 1 Level 1")(lines)
    assert said(library, three, DIG) == []
    four = swap("1 Cell Jr. 1 Level 1", "4 Cell Jr. 1 Level 1")(lines)
    assert said(library, four, DIG) == [
        "12: COPIES: 4 copies of 'Cell Jr. 1 Level 1'; Cell Jr. cards may repeat, 3 copies at most"
    ]
