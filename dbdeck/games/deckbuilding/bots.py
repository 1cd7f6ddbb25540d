"""Bots that play from the engine's legal actions: random and greedy.

Bots see the game object but never bypass the engine: every move they make
is one of ``legal_actions()``. The greedy bot follows a simple plan each
turn — defend the Dragon Balls, put cards into play, prepare Energy
Techniques, attack with every Physical Technique at once, then spend the
rest of its Energy on the dearest card it can buy.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from dbdeck.games.deckbuilding.cards.plain import Minion
from dbdeck.games.deckbuilding.engine import combat, rules
from dbdeck.games.deckbuilding.engine.actions import Action, Choose
from dbdeck.games.deckbuilding.engine.game import Game
from dbdeck.games.deckbuilding.engine.grim import grim_option
from dbdeck.games.deckbuilding.engine.holders import (
    AllyRef,
    CharacterRef,
    EnemyRef,
    Holder,
    MinionRef,
    VillainRef,
    parse,
)
from dbdeck.games.deckbuilding.engine.state import Option

__all__ = ["BOTS", "Bot", "greedy", "random_bot", "ranked_candidates", "scorer"]

Bot = Callable[[Game, random.Random], Action]
"""A bot: the game and its generator in, a legal action out."""


def random_bot(game: Game, rng: random.Random) -> Action:
    """Any legal action, leaning away from ending the turn at once."""
    actions = game.legal_actions()
    others = [a for a in actions if a.type != "end-turn"]
    return rng.choice(others) if others and rng.random() < 0.85 else rng.choice(actions)


def greedy(
    game: Game, rng: random.Random, *, refuse: Callable[[Action], bool] | None = None
) -> Action:
    """A sensible player: see the module docstring.

    It takes the legal action it scores highest, the first listed among
    equals; the engine finds it best-first, without listing every action.
    ``refuse``: actions it takes only when nothing else is left (the coach
    refuses the moves that waste something).
    """
    if game.state.pending is not None:
        return Choose(option=_decide(game))
    wants = scorer(game)
    score = wants
    if refuse is not None:
        refused = refuse

        def score(action: Action) -> float:
            value = wants(action)
            if value > _REFUSED and refused(action):
                return _REFUSED
            return value

    best = game.best_action(score, lambda value: _beats_rows(game, value))
    if best is None:
        raise ValueError("the greedy bot has no legal action to take")
    return best


_REFUSED = -1e9
"""The score of a move the caller refuses: below every other."""


def scorer(game: Game) -> Callable[[Action], float]:
    """How much the greedy bot wants each action at this position (on its
    scale: a buy scores 10 and more, an attack 70 and more, ending the turn
    0; below 0, only when nothing else is left). For the Characters' own
    actions; a pending decision is answered, not scored."""
    villain_balls = combat.side_balls(game, "villain")
    return lambda action: _score(game, action, villain_balls)


def ranked_candidates(game: Game, limit: int | None = None) -> list[tuple[Action, float]]:
    """Every legal action with the greedy bot's score, best first; among
    equal scores, in the order of ``legal_actions``. The first is the move
    ``greedy`` makes. A pending decision's answers come as ``choose``
    actions: the bot's answer first (scored 1), then the others in order
    (scored 0). ``limit``: only the best so many (a planner's top K).

    This walks the whole listing; ``greedy`` itself finds its best move
    best-first without listing (``Game.best_action``)."""
    ranked: list[tuple[Action, float]]
    if game.state.pending is not None:
        chosen = _decide(game)
        count = len(game.state.pending.options)
        ranked = [(Choose(option=chosen), 1.0)]
        ranked += [(Choose(option=i), 0.0) for i in range(count) if i != chosen]
    else:
        score = scorer(game)
        scored = [(action, score(action)) for action in game.legal_actions()]
        ranked = sorted(scored, key=lambda pair: -pair[1])  # a stable sort keeps ties listed
    return ranked if limit is None else ranked[:limit]


def _decide(game: Game) -> int:
    pending = game.state.pending
    assert pending is not None
    options = pending.options
    values = [o.value for o in options]
    # Where the players cannot agree, the Grim Rule decides (rules note N43).
    grim = grim_option(pending)
    if grim is not None:
        return grim
    if pending.kind == "block":
        return 1
    if pending.kind == "target":
        if pending.decider == "players" and game.state.active in ("villain", ""):
            return _absorb(game, values)
        return _best_enemy(game, values)
    if pending.kind == "wish":
        for i, v in enumerate(values):
            if v.get("wish") == "damage" and not isinstance(v["key"], MinionRef):
                return i
        return 0
    if pending.kind == "room":
        return values.index("leave") if "leave" in values else 0
    if pending.kind in ("discard", "destroy"):
        return min(range(len(values)), key=lambda i: _card_value(game, values[i]))
    if pending.kind == "power-clash":
        return 0
    if pending.kind == "step-in":
        return _step_in(game, options)
    return 0


def _step_in(game: Game, options: list[Option]) -> int:
    """Step in front of an Ally of the market with the Character who takes the
    attack best, when they keep a comfortable margin; else let the Ally go."""

    def margin(i: int) -> int:
        key, amount = options[i].value, options[i].damage or 0
        if not key:
            return 0
        return rules.remaining(game, key) - combat.reduce(game, key, amount, "basic") - 4

    best = max(range(len(options)), key=margin)
    return best if margin(best) > 0 else 0


def _absorb(game: Game, keys: list[Any]) -> int:
    """Who takes a Villain attack: whoever survives it best, sparing the
    Characters (and Allies holding Dragon Balls) from defeat."""

    def score(key: Holder) -> tuple[int, int]:
        left = rules.remaining(game, key)
        character = isinstance(key, CharacterRef)
        holds = combat.balls_of(game, key)
        return (
            1 if left > 4 or not (character or holds) else 0,
            left + (3 if not character else 0),
        )

    return max(range(len(keys)), key=lambda i: score(keys[i]))


def _best_enemy(game: Game, keys: list[Any]) -> int:
    """The enemy to hit: a Minion holding balls, a Guardian, else the Villain."""

    def score(key: Any) -> int:
        if not isinstance(key, MinionRef | EnemyRef | VillainRef):
            return 0
        value = 10 * combat.balls_of(game, key)
        if isinstance(key, MinionRef):
            value += 5 if "guardian" in game.card_as(key.uid, Minion).keywords else 1
        else:
            value += 3
        return value

    return max(range(len(keys)), key=lambda i: score(keys[i]))


def _card_value(game: Game, uid: Any) -> int:
    if not isinstance(uid, int):
        return 0
    cost = getattr(game.card(uid), "cost", 0)
    return cost if isinstance(cost, int) else 0


def _score(game: Game, a: Action, villain_balls: int) -> float:
    """How much the bot wants an action (``villain_balls``: the Dragon Balls
    the Villain's side controls now)."""
    s = game.state
    ch = s.character(s.active)
    t = a.type
    if t == "end-turn":
        return 0
    if t in ("give-ball", "market-discard", "duo-invest", "destroy"):
        return -1
    if t == "enter-room":
        return -1
    if t == "play":
        return 90 if not a.cards else -1
    if t == "prepare":
        return 85 - (a.slot or 0) - (5 if a.amount else 0)
    if t == "boost":
        return 80 if any(p is not None and p.uid == a.on for p in ch.time_track) else -1
    if t == "attack":
        assert a.target is not None
        return 70 + 3 * len(a.cards) + _best_target_bonus(game, parse(a.target or ""))
    if t == "exhaust":
        return 75
    if t == "ability":
        ability = game.character_card(ch.id).special_ability
        return 60 if ability is not None and ability.uses != "passive" else 50
    if t == "avoid":
        return 40
    if t == "villain-action":
        worth = game.hooks.villain_action_worth(game, ch)
        return 45 if worth is None else worth
    if t == "play-energy":
        return 30
    if t == "buy-dragon-ball":
        return 55 if villain_balls >= 3 else 25
    if t == "steal":
        return 50 + (a.amount or 0) if villain_balls >= 4 and ch.damage < 5 else -1
    if t == "buy":
        assert a.card is not None
        return _buy_score(game.card(a.card)) - (3 if a.cards else 0)
    return 0


_LEAST_BUY_SCORE = 10
"""What the bot gives buying a card that costs nothing, of no favoured
kind: no buy paid with one's own Energy scores less."""
_BUY_BONUS = {"technique": 4, "ally": 3, "training": 2, "equipment": 2}


def _buy_score(card: Any) -> float:
    """How much the bot wants to buy a card with its own Energy: the dearer,
    the better, Techniques first."""
    cost = card.cost if isinstance(card.cost, int) else 0
    return _LEAST_BUY_SCORE + cost + _BUY_BONUS.get(card.kind, 0)


def _beats_rows(game: Game, score: float) -> bool:
    """Whether the bot wants an action of ``score`` more than any market
    action (a buy or a discard) now: then the engine need not walk the rows."""
    # Asked at nearly every move, so ``_buy_score`` is written out here.
    above_least = score - _LEAST_BUY_SCORE
    if above_least <= 0:
        return False
    s = game.state
    card_of, bonus = game.card, _BUY_BONUS.get
    for market in s.markets.values():
        for uid in market.row:
            card = card_of(uid)
            if card.printed_cost + bonus(card.kind, 0) >= above_least:
                return False
    if s.sixth:
        card = card_of(s.sixth[-1])
        return card.printed_cost + bonus(card.kind, 0) < above_least
    return True


def _best_target_bonus(game: Game, key: Holder) -> float:
    if isinstance(key, MinionRef):
        value = 2.0 * combat.balls_of(game, key)
        if "guardian" in game.card_as(key.uid, Minion).keywords:
            value += 3
        return value
    if isinstance(key, CharacterRef | AllyRef):
        return 0  # healing techniques
    return 1.0


BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy}
"""The bots by name."""
