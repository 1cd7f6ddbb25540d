"""The CCG's closed vocabularies, apart from the models so that the plain
records and the checks name them without loading pydantic."""

from __future__ import annotations

from typing import Literal

__all__ = ["Alignment", "CardType"]

CardType = Literal[
    "personality",
    "mastery",
    "sensei",
    "physical-combat",
    "energy-combat",
    "combat",
    "non-combat",
    "drill",
    "dragon-ball",
    "battleground",
    "location",
]
"""A card's type. ``drill`` and ``dragon-ball`` are Non-Combat cards with
rules of their own; ``combat`` is the "Combat" heading, apart from Physical
Combat and Energy Combat ("Combat Cards 1")."""

Alignment = Literal["hero", "villain", "rogue"]
"""Hero (blue background) or villain (red). ``rogue`` is the digest's third
kind, which takes its Main Personality's alignment as an Ally."""
