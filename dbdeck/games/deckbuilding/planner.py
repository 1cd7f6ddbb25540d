"""The planner bot: determinized Monte Carlo over the greedy bot's best moves.

At a Character's decision the planner takes the greedy bot's few best
candidate moves (``ranked_candidates``) and weighs each by playouts. Every
playout starts from a world dealt again for the acting Character's seat
(``Game.determinize``, rules note N51): deck orders, other hands and the
dice are dealt anew, so the planner never reads what its seat cannot know.
It is fair by construction — the real game is touched only through
``determinize`` (each world depends only on the seat's view and the
planner's own generator).

Which candidate to try next is chosen by UCB1 (flat Monte Carlo over
information sets, after Cowling, Powley and Whitehouse 2012, "Information
Set Monte Carlo Tree Search"). A playout goes on with the greedy bot, which
now and then plays another of its three best moves, until the game ends or
a few rounds have passed; then the position is weighed (:func:`outlook`):
the Villain's Health left, the Characters' Health, the Dragon Balls, and
each Villain's own threat where it is cheap to read (Raditz's Victim
tokens, Broly's Power, Freezer's Phase).

A pending decision (a question the rules ask) is answered as the greedy bot
answers it, and housekeeping (putting cards into play, exhausting, preparing)
is done in the greedy bot's order: the planner weighs the choices that
change the game — what to buy, whom to attack, when to end the turn.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from dbdeck.games.deckbuilding import bots
from dbdeck.games.deckbuilding.engine import combat, rules
from dbdeck.games.deckbuilding.engine.actions import Action
from dbdeck.games.deckbuilding.engine.game import Game
from dbdeck.games.deckbuilding.engine.holders import VILLAIN, CharacterRef, EnemyRef, Holder
from dbdeck.games.deckbuilding.engine.labels import action_label
from dbdeck.games.deckbuilding.engine.view import seat_plays

__all__ = ["Plan", "Planner", "Weighed", "outlook", "planner"]

CANDIDATES = 4
"""The greedy bot's best moves the planner weighs (its top K)."""
ROUNDS = 2
"""Rounds a playout runs before its position is weighed."""
ITERATIONS = 48
"""Playouts per decision at most."""
PLAYOUT_STEPS = 400
"""Actions a playout plays at most (a safety net: rounds end it first)."""
EXPLORATION = 0.5
"""UCB1's exploration constant (outcomes are on a 0-1 scale)."""
WANDER = 0.2
"""How often a playout plays another of the greedy bot's three best moves."""
VICTIM_WEIGHT = 0.25
"""How much Raditz's chance to kill the Kidnapped Victim at his next roll
weighs in a position's outlook (a certain kill: a quarter of the scale)."""
MARGIN = 0.05
"""How much better than the greedy bot's move another must fare in the
playouts (on the 0-1 scale) to be chosen instead: a few playouts are noisy,
and the greedy bot's plan is sound in the long run, past the playouts'
horizon."""
HOUSEKEEPING = frozenset({"play", "exhaust", "play-energy", "prepare", "boost"})
"""Moves the planner makes as the greedy bot does, without weighing, when
the greedy bot puts one of them first: putting cards into play, exhausting
and preparing cost nothing and come before what they make possible, in
whatever order."""


@dataclass(slots=True)
class Weighed:
    """One candidate move and what its playouts gave."""

    action: Action
    greedy_score: float
    playouts: int = 0
    total: float = 0.0
    wins: int = 0
    losses: int = 0

    @property
    def mean(self) -> float:
        """The mean outcome of its playouts (0: lost, 1: won)."""
        return self.total / self.playouts if self.playouts else 0.0


@dataclass(slots=True)
class Plan:
    """The planner's choice at one decision, with what it weighed."""

    action: Action
    weighed: list[Weighed] = field(default_factory=list)
    """The candidates, in the greedy bot's order (empty when there was
    nothing to weigh: a question, or a single move)."""
    seconds: float = 0.0

    @property
    def chosen(self) -> Weighed | None:
        """The weighed candidate chosen, if any was weighed."""
        return next((w for w in self.weighed if w.action == self.action), None)


# --- weighing a position -----------------------------------------------------------------


def _fraction_left(game: Game, keys: Sequence[Holder]) -> float:
    if not keys:
        return 1.0
    left = sum(max(0, rules.remaining(game, k)) for k in keys)
    full = sum(max(1, rules.max_health(game, k)) for k in keys)
    return left / full


def _villain_left(game: Game) -> float:
    """The Villain's Health left, as a fraction (of all its enemies, a
    defeated enemy having none left)."""
    enemies = list(game.villain_card().enemies)
    if not enemies:
        return _fraction_left(game, [VILLAIN])
    defeated = game.state.villain.defeated_enemies
    standing: list[Holder] = [EnemyRef(e) for e in enemies if e not in defeated]
    return _fraction_left(game, standing) * len(standing) / len(enemies) if standing else 0.0


def _victim_kill_chance(tokens: int) -> float:
    """The chance that 2D6 rolls below ``tokens`` (Raditz's Victim roll)."""
    below = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b < tokens)
    return below / 36


def outlook(game: Game) -> float:
    """How a position looks for the players, from 0 (lost) to 1 (won)."""
    s = game.state
    if s.winner:
        return 1.0 if s.winner == "players" else 0.0
    villain_left = _villain_left(game)
    characters = [CharacterRef(ch.id) for ch in s.characters if not ch.defeated]
    health = _fraction_left(game, characters) if characters else 0.0
    standing = len(characters) / max(1, len(s.characters))
    balls = combat.side_balls(game, "villain")
    value = 0.55 - 0.35 * villain_left + 0.12 * health + 0.08 * standing - 0.03 * balls
    villain = s.villain_id
    tokens = s.villain.tokens
    if villain == "raditz":
        value -= VICTIM_WEIGHT * _victim_kill_chance(tokens.get("victim", 0))
    elif villain == "broly":
        value -= 0.02 * tokens.get("power", 0)
    elif villain == "freezer":
        value -= 0.03 * max(0, s.villain.phase - 1)
    return min(0.95, max(0.05, value))


# --- the search ------------------------------------------------------------------------------


def _names_others(world: Game, action: Action) -> bool:
    """Whether the move names cards of another Character's hand (a Duo
    card's contributions): cards dealt anew in every world, so the move is
    no choice the seat can weigh, nor one it can name in the real game."""
    s = world.state
    others = {uid for ch in s.characters if ch.id != s.active for uid in ch.hand}
    return any(uid in others for uid in action.cards)


def _choices(
    world: Game, ranked: list[tuple[Action, float]], limit: int
) -> list[tuple[Action, float]]:
    """The best ``limit`` moves worth weighing, best first: housekeeping
    left out (it comes in any order, and is done before the turn ends), and
    one move of each kind (two copies of a card are one choice)."""
    chosen: list[tuple[Action, float]] = []
    seen: set[str] = set()
    for action, score in ranked:
        if action.type in HOUSEKEEPING:
            continue
        said = action_label(world, action)
        if said in seen:
            continue
        seen.add(said)
        chosen.append((action, score))
        if len(chosen) == limit:
            break
    return chosen


def _playout_move(world: Game, rng: random.Random) -> Action:
    """The greedy bot's move, or now and then another of its three best."""
    if world.state.pending is None and rng.random() < WANDER:
        ranked = bots.ranked_candidates(world, 3)
        if ranked:
            return rng.choice(ranked)[0]
    return bots.greedy(world, rng)


def _play_out(world: Game, action: Action, rng: random.Random, rounds: int) -> float:
    start = world.state.round
    world.apply(action)
    steps = 0
    while not world.over and world.state.round < start + rounds and steps < PLAYOUT_STEPS:
        if world.state.paused:
            world.resume()
        else:
            world.apply(_playout_move(world, rng))
        steps += 1
    return outlook(world)


@dataclass(slots=True)
class Planner:
    """The planner's settings: a time budget (``think``, seconds, or
    ``None``), a cap on playouts, candidates weighed and rounds played out.
    Each candidate gets one playout even past the time budget.
    With ``think=None`` its choices depend only on the seat's view and the
    generator (reproducible)."""

    think: float | None = None
    iterations: int = ITERATIONS
    candidates: int = CANDIDATES
    rounds: int = ROUNDS
    margin: float = MARGIN

    def plan(self, game: Game, rng: random.Random) -> Plan:
        """Weigh the acting Character's best moves and choose one."""
        started = time.perf_counter()
        s = game.state
        pending = s.pending
        if pending is not None and any(ch.id == pending.decider for ch in s.characters):
            # A Character's question, answered on a world dealt for its seat.
            world = game.determinize(seat_plays(game, s.character(pending.decider).seat), rng)
            return Plan(bots.greedy(world, rng), seconds=time.perf_counter() - started)
        if pending is not None or not s.active or s.active == "villain":
            # The players' question together, or none: what it reads (who
            # survives an attack best) is face up.
            return Plan(bots.greedy(game, rng), seconds=time.perf_counter() - started)
        plays = seat_plays(game, s.character(s.active).seat)
        # Even the candidates come from a world dealt again: nothing is read
        # from the real game but through ``determinize``.
        first = game.determinize(plays, rng)
        ranked = [
            pair for pair in bots.ranked_candidates(first) if not _names_others(first, pair[0])
        ]
        if len(ranked) <= 1 or ranked[0][0].type in HOUSEKEEPING:
            action = ranked[0][0] if ranked else bots.greedy(first, rng)
            return Plan(action, seconds=time.perf_counter() - started)
        ranked = _choices(first, ranked, self.candidates)
        if len(ranked) == 1:
            return Plan(ranked[0][0], seconds=time.perf_counter() - started)
        arms = [Weighed(action, score) for action, score in ranked]
        deadline = None if self.think is None else started + self.think
        for done in range(self.iterations):
            if deadline is not None and done >= len(arms) and time.perf_counter() > deadline:
                break
            arm = arms[done] if done < len(arms) else self._pick(arms, done)
            world = game.determinize(plays, rng)
            value = _play_out(world, arm.action, rng, self.rounds)
            arm.playouts += 1
            arm.total += value
            arm.wins += world.state.winner == "players"
            arm.losses += world.state.winner == "villain"
        best = max(arms, key=lambda a: (a.mean, a.playouts, -arms.index(a)))
        if best.mean < arms[0].mean + self.margin:
            best = arms[0]  # the greedy bot's move, unless another does clearly better
        return Plan(best.action, arms, time.perf_counter() - started)

    @staticmethod
    def _pick(arms: list[Weighed], done: int) -> Weighed:
        """UCB1: the arm whose mean plus exploration bonus is highest."""
        log_n = math.log(done)
        return max(
            arms,
            key=lambda a: (
                a.mean + EXPLORATION * math.sqrt(log_n / a.playouts) if a.playouts else math.inf
            ),
        )

    def __call__(self, game: Game, rng: random.Random) -> Action:
        """The planner as a bot: its chosen move."""
        return self.plan(game, rng).action


planner = Planner()
"""The planner with its default settings (no time budget)."""
