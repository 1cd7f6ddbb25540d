"""Play an Energy card from the hand for its value ("Energy": "Energy cards
let us buy new Market cards … Once used, Energy cards go to the discard
pile"; rules note N11)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dbdeck.games.deckbuilding.engine.actions import Action, PlayEnergy
from dbdeck.games.deckbuilding.engine.actions.base import in_hand
from dbdeck.games.deckbuilding.engine.context import EffectContext
from dbdeck.games.deckbuilding.engine.events import Name
from dbdeck.games.deckbuilding.engine.holders import CharacterRef
from dbdeck.games.deckbuilding.engine.state import CharacterState
from dbdeck.games.deckbuilding.engine.zones import ENERGY_KINDS

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

TYPE = "play-energy"
ACTS = True


HAND_KINDS: tuple[str, ...] = ENERGY_KINDS
"""The kinds of hand card ``from_hand`` may offer an action for."""


def from_hand(g: Playing, ch: CharacterState, uid: int, card: Any, out: list[Action]) -> None:
    """An Energy card of the hand may be played."""
    if card.kind in ENERGY_KINDS:
        out.append(PlayEnergy(card=uid))


def check(g: Playing, ch: CharacterState, a: PlayEnergy) -> str | None:
    """Only an Energy card of the hand is played for Energy."""
    return (
        None
        if a.card is not None and in_hand(ch, a.card) and g.card(a.card).kind in ENERGY_KINDS
        else "play an Energy card from your hand"
    )


def perform(g: Playing, ch: CharacterState, a: PlayEnergy) -> None:
    """Add the card's value to the turn's Energy (Training Energy apart)."""
    ch.hand.remove(a.card)
    ch.played.append(a.card)
    value = g.energy_value(a.card)
    ch.energy += value
    ch.training_energy += max(0, g.energy_value(a.card, "training") - value)
    g.log("energy", "{} plays {} (+{} Energy).", CharacterRef(ch.id), Name(a.card), value)
    card = g.card(a.card)
    if getattr(card, "effects", None):
        g.push_ops(card.id, "effects", EffectContext(CharacterRef(ch.id), a.card))


def label(game: Playing, action: PlayEnergy) -> str:
    """The action in plain words."""
    return f"Play {game.name(action.card)} (+{game.energy_value(action.card)} Energy)"


def why_none(game: Playing, ch: CharacterState) -> str:
    """Why no Energy card can be played."""
    return f"There is no Energy card in {game.name(CharacterRef(ch.id))}'s hand."
