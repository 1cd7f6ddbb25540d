"""The card set as a card browser lists it: one row per card, its copies as a
count, its cost and its printed facts in a few words.

Cards that print the same (the five Kamehameha of five Characters' starting
decks, two of them alike) share a row: its copies add up and its details
name whose cards they are.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from dbdeck.games.deckbuilding.cards.catalog import Catalog

__all__ = ["DETAILS_WIDTH", "CardRow", "card_rows"]

DETAILS_WIDTH = 72
"""The most cells a row's details take (a longer text ends with "…"; the
inspector reads the whole card)."""


@dataclass(slots=True)
class CardRow:
    """One row of the card browser."""

    name: str
    kind: str
    copies: int
    cost: str
    """What it costs in the market: ``3``, ``2 Dragon Balls``, ``starting``
    (a starting card), or empty (a card never bought)."""
    details: str
    """The printed facts, then whose cards they are."""
    ids: list[str] = field(default_factory=list)
    """The card ids the row stands for; the first is inspected."""


def card_rows(catalog: Catalog, cards: Iterable[Any] | None = None) -> list[CardRow]:
    """The browser's rows for ``cards`` (every card of the set by default),
    in the set's order; cards printed alike share one row."""
    rows: dict[tuple[str, str, str, str], CardRow] = {}
    owners: dict[tuple[str, str, str, str], list[str]] = {}
    for card in catalog.cards.values() if cards is None else cards:
        facts = _facts(catalog, card)
        key = (str(card.name), str(card.kind), _cost(card), facts)
        row = rows.get(key)
        if row is None:
            row = rows[key] = CardRow(key[0], key[1], 0, key[2], facts)
            owners[key] = []
        row.copies += int(getattr(card, "copies", 1) or 1)
        row.ids.append(str(card.id))
        owners[key] += [o for o in _owners(catalog, card) if o not in owners[key]]
    for key, row in rows.items():
        whose = owners[key]
        said = "starting card of" if row.cost == "starting" else "only for"
        suffix = f"; {said} {', '.join(whose)}" if whose else ""
        # Whose card it is always shows: a long text gives way to it.
        row.details = _short(row.details, DETAILS_WIDTH - len(suffix)) + suffix
    return list(rows.values())


def _short(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: max(1, width - 1)].rstrip() + "…"


def _cost(card: Any) -> str:
    if getattr(card, "starting", False):
        return "starting"
    cost = getattr(card, "cost", None)
    if cost is None:
        return ""
    if getattr(card, "pay_with", "") == "dragon-balls":
        return f"{cost} Dragon Balls"
    return str(cost)


def _owners(catalog: Catalog, card: Any) -> list[str]:
    """Whose card it is: the Characters or races it is exclusive to."""
    exclusive = getattr(card, "exclusive", None)
    if exclusive is None:
        return []
    named = [str(catalog.cards[c].name) if c in catalog.cards else c for c in exclusive.characters]
    return [*named, *(race.capitalize() for race in exclusive.races)]


def _by_difficulty(value: Any) -> str:
    return f"{value.easy}/{value.medium}/{value.hard}"


def _facts(catalog: Catalog, card: Any) -> str:
    """The card's printed numbers in words, by kind."""
    kind = card.kind
    if kind == "character":
        return (
            f"{card.race.capitalize()}, level {card.level}, Health {card.max_health}, "
            f"Armor {card.armor}"
        )
    if kind == "villain":
        return f"level {card.level}, Health {_by_difficulty(card.max_health)} (easy/medium/hard)"
    if kind == "technique":
        said = f"{card.technique_type.capitalize()}, {card.damage} damage"
        if card.damage_kind != "basic":
            said += f" {card.damage_kind.upper()}"
        if card.time:
            said += f", Time {card.time}"
        if card.healing:
            said += ", heals"
        return said
    if kind in ("energy", "concentrated-energy"):
        return f"{card.value} Energy" + (", booster" if getattr(card, "booster", None) else "")
    if kind == "ally":
        said = f"{card.race.capitalize()}, power {card.power}, Health {card.health}"
        return said + (", Duo" if card.duo else "")
    if kind == "villain-card":
        return _villain_card_facts(catalog, card)
    return str(card.text)  # Equipment, Training, Capsules, Locations: their text


def _villain_card_facts(catalog: Catalog, card: Any) -> str:
    villain = catalog.cards.get(card.villain)
    said = f"{villain.name if villain is not None else card.villain}: {card.type}"
    if getattr(card, "attack_type", None):
        said += f", {card.attack_type.capitalize()} {card.damage} damage"
        if getattr(card, "time", None):
            said += f", Time {card.time}"
    elif card.type == "minion":
        said += f", Health {card.health}, Armor {card.armor}"
    return said
