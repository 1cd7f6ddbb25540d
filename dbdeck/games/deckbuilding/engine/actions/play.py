"""Put an Ally, Equipment or Training into play, or use a Capsule ("Allies",
"Equipment", "Training"): within the race's limits, destroying one card of
the same kind to make room; a new Armor discards the equipped one (rules
note N23); Training requirements all apply (N4)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dbdeck.games.deckbuilding.engine.actions import Action, Play
from dbdeck.games.deckbuilding.engine.actions.base import (
    can_equip,
    first_reason,
    hand_cards,
    in_hand,
    replaced_armor,
    sentence,
)
from dbdeck.games.deckbuilding.engine.context import EffectContext
from dbdeck.games.deckbuilding.engine.holders import CharacterRef
from dbdeck.games.deckbuilding.engine.state import CharacterState, Unit
from dbdeck.games.deckbuilding.engine.zones import remove_card, units_list

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

TYPE = "play"
ACTS = True
UNIT_KINDS = ("ally", "equipment", "training")


HAND_KINDS: tuple[str, ...] = (*UNIT_KINDS, "capsule")
"""The kinds of hand card ``from_hand`` may offer an action for."""


def from_hand(g: Playing, ch: CharacterState, uid: int, card: Any, out: list[Action]) -> None:
    """An Ally, Equipment or Training as it is or destroying one card of its
    kind in play; a Capsule."""
    if card.kind in UNIT_KINDS:
        out.append(Play(card=uid))
        for unit in units_list(ch, card.kind):
            out.append(Play(card=uid, cards=(unit.uid,)))
    elif card.kind == "capsule":
        out.append(Play(card=uid))


def check(g: Playing, ch: CharacterState, a: Play) -> str | None:
    """The card is in hand and the Character may put it into play."""
    if not in_hand(ch, a.card):
        return "that card is not in your hand"
    card = g.card(a.card)
    if card.kind == "capsule":
        # A Capsule is used up, not put into play: it makes no room.
        return "a Capsule destroys nothing to make room" if a.cards else None
    return can_equip(g, ch, card, set(a.cards))


def perform(g: Playing, ch: CharacterState, a: Play) -> None:
    """Use the Capsule, or make room and put the card into play."""
    card = g.card(a.card)
    if card.kind == "capsule":
        ch.hand.remove(a.card)
        g.state.box.append(a.card)
        g.log("play", "{} uses {}.", CharacterRef(ch.id), card.name)
        g.push_ops(card.id, "effects", EffectContext(CharacterRef(ch.id), a.card))
        return
    for uid in a.cards:
        remove_card(g, uid, to_box=True, owner=ch)
    for uid in replaced_armor(g, ch, card):
        remove_card(g, uid, to_box=False, owner=ch)
    ch.hand.remove(a.card)
    units_list(ch, card.kind).append(Unit(a.card))
    g.log("play", "{} puts {} into play.", CharacterRef(ch.id), card.name, card=card.id)


def label(game: Playing, action: Play) -> str:
    """The action in plain words."""
    card = game.name(action.card)
    if action.cards:
        return f"Play {card}, destroying {game.name(action.cards[0])}"
    return f"Use {card}" if game.card(action.card).kind == "capsule" else f"Play {card}"


def why_none(game: Playing, ch: CharacterState) -> str:
    """Why no card of the hand can be put into play."""
    cards = hand_cards(game, ch, lambda c: c.kind in (*UNIT_KINDS, "capsule"))
    if not cards:
        return (
            f"There is no Ally, Equipment or Training card in {game.name(CharacterRef(ch.id))}'s "
            "hand to put into play."
        )
    reason = first_reason(game, (Play(card=u) for u in cards))
    return sentence(reason or "No card can be put into play now")
