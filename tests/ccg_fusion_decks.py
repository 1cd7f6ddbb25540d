"""A CCG deck with a Sensei Deck of Fusion personalities, and the test pack
that prints them (``tests/scenarios/ccg/pack-fusion``), for the fusion
tests of the engine, the wire and the screen."""

from __future__ import annotations

from pathlib import Path

__all__ = ["DECKS", "PACK", "fusion_deck"]

REPO = Path(__file__).resolve().parent.parent
DECKS = REPO / "cards" / "ccg" / "decks"
PACK = REPO / "tests" / "scenarios" / "ccg" / "pack-fusion"

SENSEI = """
[Sensei]
1 Test Sensei of Fusion
[Sensei Deck]
1 Test Gokuhan Level 1
1 Test Gokuhan Level 2
1 Test Krilltien Level 1
1 Test Loner Level 1
"""


def fusion_deck() -> str:
    """John's Goku deck (the rulebook's example of play) with a Sensei and a
    Sensei Deck: two levels of a Main Personality fusion, an Ally-only
    fusion, and a personality its pack says is no Fusion."""
    return (DECKS / "goku.txt").read_text() + SENSEI
