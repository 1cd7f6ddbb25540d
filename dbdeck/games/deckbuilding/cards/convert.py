"""Validated card objects to plain card objects.

The catalog validates card files either with the kept validator
(``validator.py``), which makes records, or with the pydantic models
(``models.py``, ``operations.py``). Both have the class and field names of the
plain objects of ``dbdeck.games.deckbuilding.cards.plain`` and keep exactly their fields in
``__dict__``; this module turns either into the plain objects the engine
reads. It imports no pydantic.
"""

from __future__ import annotations

from typing import Any

from dbdeck.games.deckbuilding.cards import plain

__all__ = ["plain_card", "to_plain"]


def to_plain(value: Any) -> Any:
    """``value`` with every validated object inside it replaced by its plain
    object; plain objects (a default made plain already) are kept."""
    if isinstance(value, list):
        return [to_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: to_plain(item) for key, item in value.items()}
    cls = plain.CLASSES.get(type(value).__name__)
    if cls is None or type(value) is cls:
        return value
    # A validated object's __dict__ holds exactly its fields (extra fields
    # are forbidden), under the names the plain class takes.
    fields = value.__dict__
    return cls(**{name: to_plain(fields[name]) for name in cls.FIELDS})


def plain_card(card: Any) -> plain.Card:
    """The plain object of one validated card (a record or a model)."""
    converted: plain.Card = to_plain(card)
    return converted
