"""Every deck rule the checker knows, with its source under each profile.

A rule exists in a profile exactly when it has a source there: the checker
asks ``applies(rule, profile)`` before checking, and every problem or warning
it reports carries ``source(rule, profile)``. ``docs/ccg/rules.md`` quotes the
passage behind each source (a test keeps the two in step).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from dbdeck.games.ccg.profiles import ProfileName

__all__ = ["RULES", "Rule", "applies", "source"]

_E = "Errata 7 June 2001"
_S = "Saiyan Saga rulebook"
_D = "Rules digest"
_FORMAT = "dbdeck deck files (docs/ccg/decks.md)"


@dataclass(frozen=True, slots=True)
class Rule:
    """One deck rule."""

    id: str
    """The id problem lines name, e.g. ``SIZE-MIN``."""
    title: str
    """What the rule says, in a line."""
    sources: Mapping[ProfileName, str]
    """Its source under each profile that has it."""


def _rule(id: str, title: str, **sources: str) -> Rule:
    named = {key.replace("_", "-"): value for key, value in sources.items()}
    if "all" in named:
        value = named.pop("all")
        named = {"errata-2001": value, "saiyan-2000": value, "digest": value} | named
    return Rule(id, title, MappingProxyType(named))  # type: ignore[arg-type]


RULES: Final[Mapping[str, Rule]] = MappingProxyType(
    {
        r.id: r
        for r in (
            _rule(
                "DECK-FORMAT",
                "Every line is a section header, a card line or a comment",
                all=_FORMAT,
            ),
            _rule("DECK-SECTION", "Each section holds the cards it is for", all=_FORMAT),
            _rule("UNKNOWN-CARD", "Every title names a known card", all=_FORMAT),
            _rule(
                "PRINTING", "A printing given as (SAGA #NUMBER) is one of the card's", all=_FORMAT
            ),
            _rule(
                "SIZE-MIN",
                "At least 50 cards, every Main Personality level and the Mastery counted",
                errata_2001=f"{_E}, Deck Size 1",
                saiyan_2000=f"{_S}, Building a Deck 1",
                digest=f"{_E}, Deck Size 1; {_D}, Mastery",
            ),
            _rule(
                "SIZE-MAX",
                "At most 75 cards (the digest: 90 with a declared Namekian Tokui-Waza)",
                errata_2001=f"{_E}, Deck Size 1",
                saiyan_2000=f"{_S}, Building a Deck 1",
                digest=f"{_E}, Deck Size 1; {_D}, Tokui-Waza",
            ),
            _rule(
                "MP-LEVELS",
                "A Main Personality with levels 1, 2 and 3 at least, consecutive",
                all=f"{_S}, Building a Deck 2",
            ),
            _rule(
                "MP-ONE-CHARACTER",
                "Every Main Personality card is of one character",
                errata_2001=f"{_S}, Building a Deck 2",
                saiyan_2000=f"{_S}, Building a Deck 2",
                digest=f"{_S}, Building a Deck 2; {_D}, special personalities",
            ),
            _rule(
                "MP-PER-LEVEL",
                "One Main Personality card per level (the digest: standard or High-Tech, not both)",
                errata_2001=f"{_S}, Duplicate Card Limits 1",
                saiyan_2000=f"{_S}, Duplicate Card Limits 1",
                digest=f"{_D}, deck building",
            ),
            _rule(
                "MP-HIGH-TECH-LEVELS",
                "A multi-level High-Tech card needs every level printed on it",
                digest=f"{_D}, deck building",
            ),
            _rule(
                "ALLY-LEVEL",
                "Allies at least two levels below the Main Personality's highest level",
                all=f"{_S}, Building a Deck 3",
            ),
            _rule(
                "ALLY-ALIGNMENT",
                "Heroes with heroes, villains with villains (the digest: Rogues take the MP's)",
                errata_2001=f"{_E}, Allies 3",
                saiyan_2000=f"{_S}, Building a Deck 3",
                digest=f"{_D}, Allies",
            ),
            _rule(
                "ALLY-MAJIN",
                "Majin Main Personalities and Majin Allies go together",
                digest=f"{_D}, Allies",
            ),
            _rule(
                "ALLY-MP-CHARACTER",
                "No Ally of the Main Personality's own character",
                errata_2001=f"{_S}, Building a Deck 3",
                saiyan_2000=f"{_S}, Building a Deck 3",
                digest=f"{_D}, Allies",
            ),
            _rule(
                "ALLY-PER-LEVEL",
                "One card of each level of a personality",
                all=f"{_S}, Duplicate Card Limits 1",
            ),
            _rule(
                "ALLY-HIGH-TECH",
                "No High-Tech Main Personality card as an Ally in tournament play",
                errata_2001=f"{_E}, Allies 2",
                digest=f"{_E}, Allies 2",
            ),
            _rule(
                "COPIES",
                "At most 3 copies of a card",
                all=f"{_S}, Duplicate Card Limits 2",
            ),
            _rule(
                "COPIES-NAMED",
                "At most 4 copies of a card named for the Main Personality",
                errata_2001=f"{_E}, Named Cards 1 and 4",
                saiyan_2000=f"{_S}, Duplicate Card Limits 3",
                digest=f"{_E}, Named Cards 1 and 4; {_D}, special personalities",
            ),
            _rule(
                "LIMIT-ONE",
                'One copy of a card that says (or is ruled) "limit 1 per deck"',
                errata_2001=f"{_E}, Other Rulings 3",
                saiyan_2000=f"{_S}, Duplicate Card Limits 2",
                digest=f"{_E}, Other Rulings 3",
            ),
            _rule(
                "RESTRICTED",
                "One copy of a card on the restricted list, named or not",
                errata_2001=f"{_E}, Banned & Restricted list; Other Rulings 3",
                digest=f"{_E}, Banned & Restricted list; Other Rulings 3",
            ),
            _rule(
                "BANNED",
                "No banned card",
                errata_2001=f"{_E}, Banned & Restricted list",
                digest=f"{_E}, Banned & Restricted list",
            ),
            _rule(
                "DRAGON-BALL-COPIES",
                "One copy of each numbered Dragon Ball",
                errata_2001=f"{_E}, Dragon Balls 4",
                digest=f"{_E}, Dragon Balls 4",
            ),
            _rule(
                "TW-STYLE",
                "A Tokui-Waza declares one of the profile's styles",
                errata_2001=f"{_E}, Tokui-Waza 1",
                saiyan_2000=f"{_S}, Example of Play",
                digest=f"{_D}, Tokui-Waza",
            ),
            _rule(
                "TW-OFF-STYLE",
                "With a declared style, every styled card has that style",
                errata_2001=f"{_E}, Tokui-Waza 2",
                saiyan_2000=f"{_S}, Example of Play",
                digest=f"{_D}, Tokui-Waza",
            ),
            _rule(
                "TW-STYLED-CARD",
                "A declared style needs a styled card of it besides the Mastery",
                errata_2001=f"{_E}, Tokui-Waza 3",
                digest=f"{_D}, Tokui-Waza",
            ),
            _rule(
                "TW-LIST",
                "Only the listed Main Personalities declare Saiyan or Namekian Tokui-Waza",
                digest=f"{_D}, Tokui-Waza",
            ),
            _rule(
                "MASTERY-ONE",
                "At most one Mastery",
                errata_2001=f"{_E}, Deck Size 1",
                digest=f"{_D}, Mastery",
            ),
            _rule(
                "MASTERY-NEEDS-TW",
                "A Mastery needs a declared (qualifying) Tokui-Waza",
                errata_2001=f"{_E}, Mastery Cards 3",
                digest=f"{_D}, Mastery",
            ),
            _rule(
                "MASTERY-STYLE",
                "The Mastery's style is the declared style",
                errata_2001=f"{_E}, Mastery Cards 4",
                digest=f"{_D}, Mastery",
            ),
            _rule(
                "HERITAGE",
                "Heritage-only cards need a personality of that Heritage",
                errata_2001=f"{_E}, Saiyan Heritage",
                digest=f"{_D}, Heritage",
            ),
            _rule(
                "ONLY",
                '"(name) only" cards that the deck\'s Main Personality can never use (a warning)',
                errata_2001=f"{_E}, Named Cards 3",
                saiyan_2000="the card's own text (a pack's \"only\")",
                digest=f"{_E}, Named Cards 3; {_D}, special personalities",
            ),
            _rule("SENSEI-ONE", "At most one Sensei card", digest=f"{_D}, Sensei Deck"),
            _rule("SENSEI-NEEDED", "A Sensei Deck needs a Sensei", digest=f"{_D}, Sensei Deck"),
            _rule(
                "SENSEI-CAPACITY",
                "A Sensei Deck within its Sensei's printed capacity",
                digest=f"{_D}, Sensei Deck",
            ),
            _rule(
                "SENSEI-CONTENTS",
                "A Sensei Deck of Fusion personalities or cards marked for it",
                digest=f"{_D}, Sensei Deck",
            ),
            _rule(
                "SAIBAIMEN-COPIES",
                "Up to 3 copies of each Saibaimen card",
                errata_2001=f"{_E}, Allies 1",
                digest=f"{_D}, special personalities",
            ),
            _rule(
                "SAIBAIMEN-MP",
                "No Saibaimen Allies when Saibaimen is the Main Personality",
                errata_2001=f"{_E}, Allies 1",
                digest=f"{_D}, special personalities",
            ),
            _rule(
                "CELL-JR",
                "Cell Jr. Allies need a Cell Main Personality",
                digest=f"{_D}, special personalities",
            ),
            _rule(
                "GINYU-FORCE",
                "No Ginyu Force member as an Ally of a Ginyu Force Main Personality",
                digest=f"{_D}, special personalities",
            ),
            _rule(
                "BATTLE-SIMULATOR",
                "No Battle Simulator-only card",
                errata_2001=f"{_E}, Battle Simulator Cards",
                digest=f"{_D}, deck building",
            ),
            _rule(
                "KID-TRUNKS-STARTER",
                "A villain deck or a Kid Trunks deck removes the starter's Kid Trunks Ally",
                digest=f"{_D}, deck building",
            ),
            _rule(
                "PROFILE-SCOPE",
                "A section the profile's rules know nothing of (a warning)",
                errata_2001=f"{_E} (no Sensei Decks)",
                saiyan_2000=f"{_S} (no Masteries, no Sensei Decks)",
            ),
        )
    }
)


def applies(rule: str, profile: ProfileName) -> bool:
    """Whether ``profile`` has the rule."""
    return profile in RULES[rule].sources


def source(rule: str, profile: ProfileName) -> str:
    """The rule's source under ``profile``."""
    return RULES[rule].sources[profile]
