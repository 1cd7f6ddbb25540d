"""Validated card models to plain card objects.

The catalog validates card files with the pydantic models (``models.py``,
``effects.py``) and hands the engine the plain objects of
``dbdeck.cards.plain``, which have the same class and field names. Only a
load that must validate imports this module (and so pydantic).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from dbdeck.cards import models, plain

__all__ = ["plain_card", "to_plain"]


def to_plain(value: Any) -> Any:
    """``value`` with every model inside it replaced by its plain object."""
    if isinstance(value, BaseModel):
        cls = plain.CLASSES[type(value).__name__]
        # A model's __dict__ holds exactly its fields (extra fields are
        # forbidden), under the names the plain class takes.
        fields = value.__dict__
        return cls(**{name: to_plain(fields[name]) for name in cls.FIELDS})
    if isinstance(value, list):
        return [to_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: to_plain(item) for key, item in value.items()}
    return value


def plain_card(card: models.Card) -> plain.Card:
    """The plain object of one validated card."""
    converted: plain.Card = to_plain(card)
    return converted
