"""A card's printed facts in a few words, as the table's tiles show them.

A hand tile reads ``[1 Kamehameha E4 T2]``, a Time Track slot ``Sokidan
2E``: the short words come from here, worked out once per card and carried
by the seat's view, so that a front end draws them without the catalog.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from dbdeck.games.deckbuilding.cards.plain import Card, ConcentratedEnergy, Energy, Technique

__all__ = ["CardWords", "attack_facts", "card_words", "tile_facts"]


class CardWords(NamedTuple):
    """What a tile says of a card beside its name."""

    kind: str
    """The card's kind (``technique``, ``ally``, ``villain-card`` …)."""
    facts: str
    """Its printed facts, short: ``P1``, ``E2 T1``, ``+1``, ``Ally``."""
    attack: str
    """Its printed Damage and kind, as a Time Track shows an attack
    prepared: ``3E``, ``2P PIERCING``; empty for a card that deals none."""
    physical: bool
    """Whether it is a Physical Technique (one that may join a Combo)."""


_KIND_WORDS = {"ally": "Ally", "equipment": "Equip", "training": "Train", "capsule": "Capsule"}
"""The facts of a card that has no number worth showing: its kind, short."""


def tile_facts(card: Card) -> str:
    """A card's printed facts, short: ``P1``, ``E2 T1``, ``+1``, ``Ally``."""
    if isinstance(card, Technique):
        facts = f"{'E' if card.technique_type == 'energy' else 'P'}{card.damage}"
        if card.damage_kind != "basic":
            facts += f" {str(card.damage_kind).upper()}"
        if card.time:
            facts += f" T{card.time}"
        if card.healing:
            facts += " heal"
        return facts
    if isinstance(card, Energy | ConcentratedEnergy):
        return f"+{card.value}" + (" boost" if card.booster else "")
    return _KIND_WORDS.get(str(card.kind), "")


def attack_facts(card: Card) -> str:
    """A card's printed Damage and kind, as prepared on a Time Track:
    ``3E``, ``2P PIERCING``; a split Villain card speaks of its first half
    that attacks; empty for a card that deals no damage."""
    # Villain cards of several shapes carry an attack: read what they have.
    attack: Any = card
    damage = getattr(attack, "damage", None)
    if damage is None:
        halves = getattr(card, "halves", None) or []
        attacks = [h.attack for h in halves if h.attack is not None]
        if not attacks:
            return ""
        attack = attacks[0]
        damage = attack.damage
    form = getattr(attack, "attack_type", None) or getattr(attack, "technique_type", "") or ""
    letter = {"energy": "E", "physical": "P"}.get(str(form), "")
    kind = {"piercing": " PIERCING", "unavoidable": " UNAVOIDABLE"}.get(
        str(getattr(attack, "damage_kind", "basic")), ""
    )
    return f"{damage}{letter}{kind}"


_WORDS: dict[int, tuple[Card, CardWords]] = {}
"""The words of each card seen, by the card object's identity (a card is
frozen, so its words never change; the card is kept beside them so that an
identity reused by another object is not mistaken for it)."""

_KEPT = 20_000
"""Cards whose words are kept at most (a process loads few card sets)."""


def card_words(card: Card) -> CardWords:
    """What a tile says of ``card`` beside its name (worked out once)."""
    seen = _WORDS.get(id(card))
    if seen is not None and seen[0] is card:
        return seen[1]
    words = CardWords(
        kind=str(card.kind),
        facts=tile_facts(card),
        attack=attack_facts(card),
        physical=isinstance(card, Technique) and card.technique_type == "physical",
    )
    if len(_WORDS) >= _KEPT:
        _WORDS.clear()
    _WORDS[id(card)] = (card, words)
    return words
