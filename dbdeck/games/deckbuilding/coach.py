"""The coach at the table: the move the greedy bot would make now, and why.

The bot plays from the engine's legal actions only, so a suggestion is
always a move the table offers. Its plan each turn (see ``dbdeck.games.deckbuilding.bots``):
defend the Dragon Balls, put cards into play, prepare Energy Techniques,
attack with every Physical Technique at once, then spend what Energy is
left on the dearest card it can buy. The one-line reason says which part of
that plan the move is (the rules reference says it in full: ``COACH_RULES``
in ``tui/reference.py``).

Given a planner, the coach suggests the planner's move where it weighs one
(what to buy, whom to attack, when to end the turn), and its reason
compares the playouts: how the move fared, and the next best instead.
"""

from __future__ import annotations

import random

from dbdeck.games.deckbuilding.bots import greedy
from dbdeck.games.deckbuilding.cards.describe import describe_effects
from dbdeck.games.deckbuilding.engine import combat, labels, preview, waste
from dbdeck.games.deckbuilding.engine.actions import Action
from dbdeck.games.deckbuilding.engine.game import Game
from dbdeck.games.deckbuilding.engine.holders import VILLAIN, CharacterRef
from dbdeck.games.deckbuilding.planner import Plan, Planner, Weighed
from dbdeck.tabletop.game import Advice as Suggestion

__all__ = ["suggest"]


def suggest(game: Game, planner: Planner | None = None) -> Suggestion:
    """The bot's move now, in words, with a one-line reason (with a
    ``planner``: its move, where it weighs one)."""
    actor = game.actor()
    if actor is None:
        return Suggestion(None, "", "Nobody has to decide anything now.")
    if planner is not None:
        # The planner thinks on worlds dealt for the acting seat alone
        # (rules note N51): its advice tells nothing that seat cannot know.
        plan = planner.plan(game, random.Random(game.state.actions))
        if plan.weighed and not waste.waste_of(game, plan.action):
            return Suggestion(
                plan.action,
                labels.action_label(game, plan.action),
                _why_planned(game, plan, planner),
            )
    # Never a move that wastes something while another is left (rules N19, N49).
    action = greedy(game, random.Random(0), refuse=lambda a: bool(waste.waste_of(game, a)))
    pending = game.state.pending
    if action.type == "choose" and pending is not None and action.option is not None:
        label = pending.options[action.option].label
        return Suggestion(action, label, _why_answer(game, action.option))
    return Suggestion(action, labels.action_label(game, action), _why(game, action))


def _fared(weighed: Weighed) -> str:
    """How a move's playouts went, in words."""
    n = weighed.playouts
    if weighed.wins or weighed.losses:
        said = f"wins {weighed.wins} of {n} playouts"
        return said + (f", loses {weighed.losses}" if weighed.losses else "")
    return f"scores {weighed.mean:.0%} over {n} playouts"


def _why_planned(game: Game, plan: Plan, planner: Planner) -> str:
    """The planner's reason: how its move fared against the next best."""
    chosen = plan.chosen
    assert chosen is not None
    others = [w for w in plan.weighed if w is not chosen and w.playouts]
    ahead = "1 round" if planner.rounds == 1 else f"{planner.rounds} rounds"
    said = f"Played out {ahead} ahead, this {_fared(chosen)}"
    if not others:
        return said + "."
    other = max(others, key=lambda w: w.mean)
    instead = labels.action_label(game, other.action)
    close = " — too close to leave the bot's plan" if other.mean >= chosen.mean else ""
    return f"{said}; {instead} instead {_fared(other)}{close}."


def _why_answer(game: Game, option: int) -> str:
    pending = game.state.pending
    assert pending is not None
    if pending.kind == "target" and pending.decider == "players":
        _, previews = preview.decision_stakes(game)
        said = previews[option] if option < len(previews) else ""
        return "Whoever survives the attack best takes it" + (f": {said}." if said else ".")
    if pending.kind == "target":
        return "Hit a Minion that holds Dragon Balls first, then a Guardian, then the Villain."
    if pending.kind in ("discard", "destroy"):
        return "Part with the card that cost the least."
    return "The bot's usual answer here; the Grim Rule decides where the players disagree."


def _standing(game: Game) -> str:
    """Where the fight stands, in a few words: the Villain's health (or each
    enemy's) and the Minions in the way."""
    enemies = combat.enemies_of(game, "players")
    if not enemies:
        return f"{game.name(VILLAIN)} has not arrived yet"
    said = [game.target_label(key) for key in enemies[:3]]
    return "against " + ", ".join(said)


def _why(game: Game, action: Action) -> str:
    s = game.state
    villain = game.name(VILLAIN)
    held = combat.side_balls(game, "villain")
    t = action.type
    if t == "play":
        return "Cards in play help every turn: put them into play before anything else."
    if t == "prepare":
        turns = "1 turn" if action.slot == 1 else f"{action.slot} turns"
        name = game.name(action.card) if action.card is not None else "the Technique"
        return (
            f"Prepared at Time {action.slot}, {name} fires in {turns} ({_standing(game)}); "
            "the earlier it is prepared, the sooner it strikes."
        )
    if t == "boost":
        return "A booster adds its effect when the prepared Technique fires."
    if t == "exhaust" and action.card is not None:
        card = game.card(action.card)
        effects = getattr(card, "exhaust_effects", None)
        does = f" ({describe_effects(effects)})" if effects else ""
        return f"{card.name}{does} is readied next turn: use it now."
    if t == "attack":
        hit = preview.attack_preview(game, action)
        combo = len(action.cards) > 1
        return (
            "One Combo with every Physical Technique: Armor counts once. " if combo else ""
        ) + f"It deals {hit.words(game)}."
    if t == "ability":
        return "The special ability is ready to use."
    if t == "avoid":
        return "Paying the red text now avoids the prepared attack."
    if t == "villain-action":
        return f"{villain}'s own rules reward it now."
    if t == "buy-dragon-ball":
        return f"{villain} holds {held} Dragon Balls: keep the unclaimed ones from him."
    if t == "steal":
        odds = preview.steal_odds(game, action.amount or 1)
        return f"{villain} holds {held} Dragon Balls: win some back ({odds.words()})."
    if t == "play-energy":
        return "Energy pays for the cards you buy."
    if t == "buy":
        ch = s.character(s.active)
        return (
            f"The dearest card {game.name(CharacterRef(ch.id))} can afford with the "
            f"{ch.energy} Energy left."
        )
    if t == "end-turn":
        return "Nothing left is worth doing this turn."
    return "The bot's choice."
