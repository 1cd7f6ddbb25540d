"""Prepare an Energy Technique on the Time Track ("Time Track", "Preparing an
Energy Technique in an Occupied Time Position": the printed Time, or the
next free position after it); a Namekian may pay 2 Energy to cut the Time
by 1."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from dbdeck.games.deckbuilding.cards.plain import Technique
from dbdeck.games.deckbuilding.engine import rules
from dbdeck.games.deckbuilding.engine.actions import Action, Prepare
from dbdeck.games.deckbuilding.engine.actions.base import (
    first_reason,
    hand_cards,
    in_hand,
    sentence,
)
from dbdeck.games.deckbuilding.engine.events import Name
from dbdeck.games.deckbuilding.engine.holders import CharacterRef
from dbdeck.games.deckbuilding.engine.rules import can_use_exclusive
from dbdeck.games.deckbuilding.engine.state import CharacterState, Prepared

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

TYPE = "prepare"
ACTS = True


HAND_KINDS: tuple[str, ...] = ("technique",)
"""The kinds of hand card ``from_hand`` may offer an action for."""


def from_hand(g: Playing, ch: CharacterState, uid: int, card: Any, out: list[Action]) -> None:
    """An Energy Technique at its Time or one later, and with the Namekian's
    cut."""
    if card.kind == "technique" and card.technique_type == "energy":
        time = int(card.time or 1)
        # check allows only the first free slot of the two.
        slot = first_free(ch, time)
        if slot is not None:
            out.append(Prepare(card=uid, slot=slot))
        # Only a Namekian pays to cut the Time: check refuses anyone else.
        if time >= 2 and rules.race_of(g, CharacterRef(ch.id)) == "namekian":
            slot = first_free(ch, time - 1)
            if slot is not None:
                out.append(Prepare(card=uid, slot=slot, amount=1))


def first_free(ch: CharacterState, time: int) -> int | None:
    """The Time slot a Technique of Time ``time`` goes in: that one, or the
    next when it is taken ("never two later"); ``None`` when both are."""
    for slot in (time, time + 1):
        if slot <= 4 and ch.time_track[slot - 1] is None:
            return slot
    return None


def check(g: Playing, ch: CharacterState, a: Prepare) -> str | None:
    """An Energy Technique of the hand, in the first free slot it may take."""
    if not in_hand(ch, a.card):
        return "that card is not in your hand"
    card = g.card(a.card)
    if card.kind != "technique" or card.technique_type != "energy":
        return f"{card.name} is not an Energy Technique"
    why = can_use_exclusive(rules.race_of(g, CharacterRef(ch.id)), ch.id, card)
    if why:
        return why
    time = int(card.time or 1)
    if a.amount:
        if rules.race_of(g, CharacterRef(ch.id)) != "namekian":
            return "only Namekians may pay to cut a Technique's Time"
        if time < 2:
            return "the Time cannot go below 1"
        if ch.energy < 2:
            return "cutting the Time costs 2 Energy"
        time -= 1
    # The printed slot, or one later when it is taken — never two later.
    free = first_free(ch, time)
    if free is None:
        return (
            f"Time slots {time} and {time + 1} are taken (a Technique may move at most "
            "one slot later)"
        )
    if a.slot != free:
        return f"{card.name} goes in Time slot {free}"
    return None


def perform(g: Playing, ch: CharacterState, a: Prepare) -> None:
    """Put the Technique on its Time slot (paying for the cut)."""
    if a.amount:
        ch.energy -= 2
    ch.hand.remove(a.card)
    ch.time_track[a.slot - 1] = Prepared(a.card)
    g.log("prepare", "{} prepares {} at Time {}.", CharacterRef(ch.id), Name(a.card), a.slot)


def label(game: Playing, action: Prepare) -> str:
    """The action in plain words."""
    card = game.name(action.card)
    cut = " (pay 2 Energy: Time -1)" if action.amount else ""
    return f"Prepare {card} at Time {action.slot}{cut}"


def _energy_technique(card: Any) -> bool:
    return bool(card.kind == "technique" and card.technique_type == "energy")


def tries(game: Playing, techniques: list[int]) -> Iterable[Action]:
    """The preparations ``why`` asks the engine about, per Technique."""
    for uid in techniques:
        time = int(game.card_as(uid, Technique).time or 1)
        yield Prepare(card=uid, slot=time)
        yield Prepare(card=uid, slot=time + 1)


def why_none(game: Playing, ch: CharacterState) -> str:
    """Why no Technique can be prepared."""
    techniques = hand_cards(game, ch, _energy_technique)
    if not techniques:
        return (
            f"There is no Energy Technique in {game.name(CharacterRef(ch.id))}'s hand: Energy "
            "Techniques are prepared from the hand onto the Time Track."
        )
    reason = first_reason(game, tries(game, techniques))
    return sentence(reason or "No Technique can be prepared now")
