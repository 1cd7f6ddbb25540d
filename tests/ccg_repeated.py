"""Decks of one line repeated many times, built from the sample Goku deck:
the decks the deck-file benchmark times and the test of their verdicts reads."""

from __future__ import annotations

from pathlib import Path

SAMPLE = Path(__file__).parent / "ccg" / "goku-75.txt"
"""The normal deck the repeated decks are built from."""


def repeated_decks(times: int) -> dict[str, str]:
    """Deck texts by name, each with about ``2 * times`` added lines: the
    Main Personality's cards of two characters, two unknown titles, and one
    known card line."""
    sample = SAMPLE.read_text(encoding="utf-8")
    personalities = "\n".join(["1 Goku Level 1", "1 Vegeta Level 1"] * times)
    unknown = "\n".join(["1 Zorblax Thing", "1 Gokus Physical Atack"] * times)
    known = "\n".join(["1 T-Rex Offense (Saiyan #227)"] * (2 * times))
    return {
        "personalities": sample.replace("[Life Deck]", personalities + "\n[Life Deck]"),
        "unknown": sample + unknown + "\n",
        "known": sample + known + "\n",
    }
