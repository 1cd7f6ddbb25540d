"""The kinds of card, apart from the card models so that the command line can
name them without loading pydantic."""

from __future__ import annotations

from typing import Literal

__all__ = ["CardKind"]

CardKind = Literal[
    "character",
    "ally",
    "technique",
    "energy",
    "equipment",
    "training",
    "concentrated-energy",
    "capsule",
    "villain",
    "villain-card",
    "location",
]
"""Every value of a card's ``kind`` field."""
