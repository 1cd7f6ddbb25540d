"""Actions in plain words: what every front end lists, for every seat.

Labels are written by the engine, beside the rules, so the action list, the
dialogs, the palette and a joined table all say the same thing, and none of
them needs the game to put an action into words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dbdeck.engine import rules
from dbdeck.engine.actions import Action
from dbdeck.engine.table_view import GROUPS, MARKET_TITLES

if TYPE_CHECKING:
    from dbdeck.engine.game import Game

__all__ = ["GROUPS", "action_group", "action_label", "holder_name"]

_GROUP_OF = {kind: name for name, kinds in GROUPS for kind in kinds}


def action_group(action: Action) -> str:
    """The group an action is listed under."""
    return _GROUP_OF.get(action.type, "Other")


def holder_name(game: Game, key: str | None) -> str:
    """A holder key in words."""
    if not key:
        return "?"
    return game.name(key)


def action_label(game: Game, action: Action) -> str:
    """One action in plain words, e.g. "Buy Sokidan (3 Energy)"."""
    s = game.state
    t = action.type
    card = game.name(action.card) if action.card is not None else ""
    active = s.character(s.active) if s.active not in ("", "villain") else None
    if t == "end-turn":
        return "End the turn"
    if t == "play-energy":
        assert action.card is not None
        return f"Play {card} (+{game.energy_value(action.card)} Energy)"
    if t == "buy":
        assert action.card is not None and action.market is not None and active is not None
        cost = rules.buy_cost(game, active, action.card, action.market)
        what = game.card(action.card)
        price = (
            f"{what.cost} Dragon Balls"
            if getattr(what, "pay_with", "") == "dragon-balls"
            else f"{cost} Energy"
        )
        extra = ""
        if action.cards:
            # Name who gives, not what: the cards come from other hands.
            givers = [_hand_of(game, u) for u in action.cards]
            extra = " with an Energy card from " + ", ".join(givers)
        if action.amount:
            extra += ", equipped at once"
        return f"Buy {card} ({price}){extra}"
    if t == "buy-dragon-ball":
        assert active is not None
        cost = max(
            0, game.card(active.id).dragon_ball_cost + rules.cost_bonus(game, active, "dragon-ball")
        )
        return f"Buy an unclaimed Dragon Ball ({cost} Energy)"
    if t == "steal":
        dice = "1 die" if action.amount == 1 else f"{action.amount} dice"
        aim = f" from {game.name(action.target)}" if action.target else ""
        return f"Steal attempt with {dice} ({action.amount} Energy){aim}"
    if t == "play":
        if action.cards:
            return f"Play {card}, destroying {game.name(action.cards[0])}"
        assert action.card is not None
        return f"Use {card}" if game.card(action.card).kind == "capsule" else f"Play {card}"
    if t == "attack":
        names = " + ".join(game.name(u) for u in action.cards)
        combo = " (Combo)" if len(action.cards) > 1 else ""
        return f"Attack {holder_name(game, action.target)} with {names}{combo}"
    if t == "prepare":
        cut = " (pay 2 Energy: Time -1)" if action.amount else ""
        return f"Prepare {card} at Time {action.slot}{cut}"
    if t == "boost":
        assert action.on is not None
        return f"Boost {game.name(action.on)} with {card}"
    if t == "exhaust":
        return f"Exhaust {card}"
    if t == "destroy":
        return f"Destroy {card} for its effect"
    if t == "ability":
        assert active is not None
        ability = game.card(active.id).special_ability
        return f"Use {ability.name if ability else 'ability'}"
    if t == "avoid":
        assert action.card is not None
        body = game.card(action.card)
        return f"Avoid {card}" + (f": {body.avoid.text}" if getattr(body, "avoid", None) else "")
    if t == "market-discard":
        market = MARKET_TITLES.get(action.market or "", action.market or "")
        return f"Send {card} to the bottom of the {market} deck"
    if t == "give-ball":
        return (
            f"Give a Dragon Ball from {holder_name(game, action.source)} to "
            f"{holder_name(game, action.target)}"
        )
    if t == "duo-invest":
        assert action.on is not None
        return f"Set {card} beside {game.name(action.on)}"
    if t == "enter-room":
        return "Enter the Room of Spirit and Time (skip the Actions phase)"
    if t == "villain-action" and active is not None:
        return game.hooks.villain_action(game, active)[0] or t
    return t


def _hand_of(game: Game, uid: int) -> str:
    """The Character in whose hand a card is."""
    for ch in game.state.characters:
        if uid in ch.hand:
            return game.name("c:" + ch.id)
    return "another Character"
