"""Boost a prepared Energy Technique with an Energy card from the hand
("Boosting an Energy Technique": "A booster can be added to a Technique at
any time during your Actions phase, as long as the Technique is
prepared"), up to the Technique's number of boosters."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dbdeck.games.deckbuilding.cards.plain import ConcentratedEnergy, Energy, Technique
from dbdeck.games.deckbuilding.engine import words
from dbdeck.games.deckbuilding.engine.actions import Action, Boost
from dbdeck.games.deckbuilding.engine.actions.base import (
    first_reason,
    hand_cards,
    in_hand,
    sentence,
)
from dbdeck.games.deckbuilding.engine.events import Name
from dbdeck.games.deckbuilding.engine.holders import CharacterRef
from dbdeck.games.deckbuilding.engine.state import CharacterState, Prepared
from dbdeck.games.deckbuilding.engine.zones import ENERGY_KINDS

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

TYPE = "boost"
ACTS = True


HAND_KINDS: tuple[str, ...] = ENERGY_KINDS
"""The kinds of hand card ``from_hand`` may offer an action for."""


def from_hand(g: Playing, ch: CharacterState, uid: int, card: Any, out: list[Action]) -> None:
    """An Energy card of the hand with a booster icon beneath each prepared
    Technique (``check`` refuses a card without the icon)."""
    if card.kind in ENERGY_KINDS and card.booster is not None:
        for prepared in ch.time_track:
            if prepared is not None:
                out.append(Boost(card=uid, on=prepared.uid))


def check(g: Playing, ch: CharacterState, a: Boost) -> str | None:
    """An Energy card with a booster icon, on a prepared Technique with room."""
    if not in_hand(ch, a.card):
        return "that card is not in your hand"
    card = g.card(a.card)
    if not isinstance(card, Energy | ConcentratedEnergy) or card.booster is None:
        return f"{card.name} has no booster icon"
    prepared = next((p for p in ch.time_track if p is not None and p.uid == a.on), None)
    if prepared is None:
        return "boost a Technique prepared on your Time Track"
    most_boosters = g.card_as(prepared.uid, Technique).max_boosters
    if len(prepared.boosters) >= most_boosters:
        most = words.count(most_boosters, "booster")
        return f"{g.name(prepared.uid)} takes at most {most}"
    return None


def perform(g: Playing, ch: CharacterState, a: Boost) -> None:
    """Set the card beneath the Technique."""
    prepared = next(p for p in ch.time_track if p is not None and p.uid == a.on)
    ch.hand.remove(a.card)
    prepared.boosters.append(a.card)
    g.log(
        "boost",
        "{} boosts {} with {}.",
        CharacterRef(ch.id),
        Name(prepared.uid),
        Name(a.card),
    )


def label(game: Playing, action: Boost) -> str:
    """The action in plain words."""
    card = game.name(action.card)
    return f"Boost {game.name(action.on)} with {card}"


def _no_technique(game: Playing, ch: CharacterState) -> str:
    return (
        f"No Energy Technique is prepared on {game.name(CharacterRef(ch.id))}'s Time Track: "
        "boosters "
        "go beneath a prepared Technique."
    )


def why_none(game: Playing, ch: CharacterState) -> str:
    """Why no boost is possible."""
    prepared = [p for p in ch.time_track if p is not None]
    if not prepared:
        return _no_technique(game, ch)
    boosters = hand_cards(game, ch, lambda c: c.kind in ENERGY_KINDS and c.booster is not None)
    if not boosters:
        return (
            f"No Energy card in {game.name(CharacterRef(ch.id))}'s hand has a booster effect (a "
            "Basic "
            "Energy card produces no effect as a booster)."
        )
    reason = first_reason(game, (Boost(card=u, on=p.uid) for u in boosters for p in prepared))
    return sentence(reason or "No boost is possible now")


def why_not_card(game: Playing, ch: CharacterState, uid: int, prepared: list[Prepared]) -> str:
    """Why this Energy card of the hand cannot boost."""
    if not prepared:
        return _no_technique(game, ch)
    return first_reason(game, (Boost(card=uid, on=p.uid) for p in prepared)) or ""
