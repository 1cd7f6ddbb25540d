"""Attack with Physical Techniques from the hand, one or several as a Combo
("Physical Techniques", "Forming a Combo"); a healing Technique is used
alone on a friend (rules note N30). The damage is dealt by
``attacks.character_attack``."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import TYPE_CHECKING, Any

from dbdeck.games.deckbuilding.cards.plain import Technique
from dbdeck.games.deckbuilding.engine import attacks, combat, rules
from dbdeck.games.deckbuilding.engine.actions import Action, Attack
from dbdeck.games.deckbuilding.engine.actions.base import (
    first_reason,
    hand_cards,
    holder_name,
    holder_of,
    in_hand,
    physical,
    sentence,
)
from dbdeck.games.deckbuilding.engine.holders import VILLAIN, CharacterRef
from dbdeck.games.deckbuilding.engine.rules import can_use_exclusive
from dbdeck.games.deckbuilding.engine.state import CharacterState

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

TYPE = "attack"
ACTS = True


def candidates(g: Playing, ch: CharacterState) -> Iterator[Action]:
    """Every set of Physical Techniques of the hand on every target: enemies,
    or friends for a healing Technique."""
    hand = [u for u in ch.hand if physical(g, u)]
    targets = combat.enemies_of(g, "players")
    friends = combat.friends_of(g, "players")
    for size in range(1, len(hand) + 1):
        for combo in combinations(hand, size):
            for target in friends if g.card_as(combo[0], Technique).healing else targets:
                yield Attack(cards=combo, target=target.key)


def check(g: Playing, ch: CharacterState, a: Attack) -> str | None:
    """Physical Techniques of the hand, on a target in play."""
    if not a.cards:
        return "choose the Physical Techniques to attack with"
    if len(set(a.cards)) != len(a.cards) or not all(in_hand(ch, u) for u in a.cards):
        return "the Techniques must be in your hand"
    if not all(physical(g, u) for u in a.cards):
        return "only Physical Techniques form an attack or a Combo"
    race = rules.race_of(g, CharacterRef(ch.id))
    for uid in a.cards:
        why = can_use_exclusive(race, ch.id, g.card(uid))
        if why:
            return why
    healing = [g.card_as(u, Technique).healing for u in a.cards]
    if any(healing) and len(a.cards) > 1:
        return "a healing Technique is used alone"
    side = "villain" if healing[0] else "players"
    targets = (
        combat.enemies_of(g, "players") if side == "players" else combat.friends_of(g, "players")
    )
    if holder_of(a.target) not in targets:
        if side == "players" and not targets:
            return f"{g.name(VILLAIN)} cannot be attacked yet"
        return "choose a target in play"
    return None


def perform(g: Playing, ch: CharacterState, a: Attack) -> None:
    """Play the Techniques and attack."""
    target = holder_of(a.target)
    assert target is not None
    cards = [g.card(u) for u in a.cards]
    for uid in a.cards:
        ch.hand.remove(uid)
        ch.played.append(uid)
    combo = len(cards) > 1
    names = " + ".join(c.name for c in cards)
    g.log(
        "attack",
        "{} attacks {} with {}{}.",
        CharacterRef(ch.id),
        target,
        names,
        " (Combo)" if combo else "",
        cards=[c.id for c in cards],
        target=a.target,
    )
    attacks.character_attack(g, ch, list(a.cards), target, "physical", combo=combo)


def label(game: Playing, action: Attack) -> str:
    """The action in plain words."""
    names = " + ".join(game.name(u) for u in action.cards)
    combo = " (Combo)" if len(action.cards) > 1 else ""
    return f"Attack {holder_name(game, action.target)} with {names}{combo}"


def _physical_card(card: Any) -> bool:
    return bool(card.kind == "technique" and card.technique_type == "physical")


def why_none(game: Playing, ch: CharacterState) -> str:
    """Why no attack is possible: the Villain has not arrived, no Physical
    Technique is in hand, or the first attack's reason."""
    name = game.name(CharacterRef(ch.id))
    if not game.hooks.arrived(game):
        villain = game.name(VILLAIN)
        return f"{villain} has not arrived: neither {villain} nor the Minions can be attacked yet."
    hand = hand_cards(game, ch, _physical_card)
    if not hand:
        return (
            f"There is no Physical Technique in {name}'s hand: attacks are made with "
            "Physical Techniques from the hand."
        )
    targets = combat.enemies_of(game, "players") or [VILLAIN]
    reason = first_reason(game, (Attack(cards=(u,), target=t.key) for u in hand for t in targets))
    return sentence(reason or "No attack is possible now")


def why_not_card(game: Playing, ch: CharacterState, uid: int) -> str:
    """Why this Physical Technique of the hand cannot attack."""
    targets = combat.enemies_of(game, "players") or [VILLAIN]
    reason = first_reason(game, (Attack(cards=(uid,), target=t.key) for t in targets))
    if reason and "cannot be attacked" in reason:
        return why_none(game, ch)
    return reason or ""
