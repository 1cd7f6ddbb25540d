"""Attempt a Steal ("Dragon Balls", 3: "they must spend as much Energy as the
number of Steal Dice they wish to roll … The maximum Energy that can be
spent this way is 7"; rules note N26). The dice are rolled by the ``steal``
task (``combat``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from dbdeck.games.deckbuilding.engine import combat, words
from dbdeck.games.deckbuilding.engine.actions import Action, Steal
from dbdeck.games.deckbuilding.engine.actions.base import holder_name, holder_of, sentence
from dbdeck.games.deckbuilding.engine.holders import VILLAIN, CharacterRef
from dbdeck.games.deckbuilding.engine.state import CharacterState

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

TYPE = "steal"
ACTS = True
MAX_STEAL_DICE = 7


def candidates(g: Playing, ch: CharacterState) -> Iterator[Action]:
    """Every number of dice the Character's Energy pays for, while the
    Villain's side holds a Dragon Ball (``check`` refuses any Steal else)."""
    if combat.side_balls(g, "villain") == 0:
        return
    # With several holders the player says whom the dice take from first.
    sources = combat.steal_sources(g)
    aims: list[str | None] = [None] if len(sources) <= 1 else [h.key for h in sources]
    for dice in range(1, min(MAX_STEAL_DICE, ch.energy) + 1):
        for aim in aims:
            yield Steal(amount=dice, target=aim)


def check(g: Playing, ch: CharacterState, a: Steal) -> str | None:
    """1 to 7 dice, paid for, against a side that holds a Dragon Ball."""
    dice = a.amount or 0
    if not 1 <= dice <= MAX_STEAL_DICE:
        return f"roll 1 to {MAX_STEAL_DICE} Steal dice"
    if ch.energy < dice:
        verb = "costs" if dice == 1 else "cost"
        return f"{words.count(dice, 'die')} {verb} {dice} Energy; you have {ch.energy}"
    if combat.side_balls(g, "villain") == 0:
        return "neither the Villain nor its Minions control a Dragon Ball"
    if a.target is not None and holder_of(a.target) not in combat.steal_sources(g):
        return "steal from the Villain or a Minion that controls a Dragon Ball"
    return None


def perform(g: Playing, ch: CharacterState, a: Steal) -> None:
    """Pay for the dice and leave the roll to the ``steal`` task."""
    ch.energy -= a.amount
    g.push(combat.Steal(ch.id, a.amount, holder_of(a.target)))


def label(game: Playing, action: Steal) -> str:
    """The action in plain words."""
    dice = "1 die" if action.amount == 1 else f"{action.amount} dice"
    aim = f" from {holder_name(game, action.target)}" if action.target else ""
    return f"Steal attempt with {dice} ({action.amount} Energy){aim}"


def why_none(game: Playing, ch: CharacterState) -> str:
    """Why no Steal can be attempted."""
    villain = game.name(VILLAIN)
    if combat.side_balls(game, "villain") == 0:
        return (
            f"Neither {villain} nor the Minions control a Dragon Ball: a Steal takes "
            "Dragon Balls from the Villain or a Minion."
        )
    if ch.energy < 1:
        return (
            f"{game.name(CharacterRef(ch.id))} has no Energy to spend: each Steal die costs 1 "
            "Energy "
            "(play Energy cards first)."
        )
    return sentence(game.check(Steal(amount=1)) or "No Steal is possible now")
