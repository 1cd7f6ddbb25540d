"""Checking a deck of many repeated lines gives the verdict it always gave.

``tests/ccg/repeated-verdicts.json`` holds the verdicts of the decks of
``tests/ccg_repeated.py`` (each line repeated 8 times) under every profile,
as the checker gave them before it kept what it derives from the Main
Personality and the titles close to an unknown one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ccg_repeated import repeated_decks

from dbdeck.games.ccg.checker import Verdict, check_deck
from dbdeck.games.ccg.deckfile import parse_deck
from dbdeck.games.ccg.library import Library, load_library
from dbdeck.games.ccg.profiles import PROFILES

RECORDED = Path(__file__).parent / "ccg" / "repeated-verdicts.json"


@pytest.fixture(scope="module")
def library() -> Library:
    """The shipped CCG library."""
    return load_library()


def _as_json(verdict: Verdict) -> dict[str, Any]:
    return {
        "cards": verdict.cards,
        "problems": [f.to_json() for f in verdict.problems],
        "warnings": [f.to_json() for f in verdict.warnings],
    }


def test_repeated_lines_give_the_recorded_verdicts(library: Library) -> None:
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    seen = {}
    for name, text in repeated_decks(8).items():
        for profile_name, profile in PROFILES.items():
            verdict = check_deck(parse_deck(text), library, profile)
            seen[f"{name} {profile_name}"] = _as_json(verdict)
    assert seen == recorded


def test_each_repeated_unknown_line_says_what_one_line_says(library: Library) -> None:
    profile = PROFILES["errata-2001"]
    one = check_deck(parse_deck("[Life Deck]\n1 Gokus Physical Atack\n"), library, profile)
    (alone,) = one.warnings
    assert "did you mean" in alone.message
    many = check_deck(
        parse_deck("[Life Deck]\n" + "1 Gokus Physical Atack\n" * 480), library, profile
    )
    assert [w.message for w in many.warnings] == [alone.message] * 480
    assert [w.line for w in many.warnings] == list(range(2, 482))


def test_only_the_first_unknown_titles_are_given_close_ones(library: Library) -> None:
    from dbdeck.games.ccg.checker import MAX_SUGGESTED

    lines = "".join(f"1 Gokus Physical Atack {n}\n" for n in range(MAX_SUGGESTED + 3))
    verdict = check_deck(parse_deck("[Life Deck]\n" + lines), library, PROFILES["errata-2001"])
    hinted = ["did you mean" in w.message for w in verdict.warnings]
    assert hinted == [True] * MAX_SUGGESTED + [False] * 3
