"""Headless simulated games: ``dbdeck sim``.

Each game ``i`` of a run uses seed ``seed + i`` for both the game and the
bot, so the same arguments always print the same results. A game that
reaches the action cap has not ended: that is a bug, and is reported as one.
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass
from typing import Any

from dbdeck.bots import BOTS
from dbdeck.cards.catalog import Catalog
from dbdeck.engine.game import Game, Setup

__all__ = ["ACTION_CAP", "GameResult", "play", "simulate", "summary"]

ACTION_CAP = 20_000
"""Actions after which a game is stopped and reported as a bug."""


@dataclass(slots=True)
class GameResult:
    """How one simulated game ended."""

    seed: int
    winner: str
    reason: str
    turns: int
    actions: int

    def to_json(self) -> dict[str, Any]:
        """The result as JSON data."""
        return {
            "seed": self.seed,
            "winner": self.winner or None,
            "reason": self.reason,
            "turns": self.turns,
            "actions": self.actions,
        }


def play(catalog: Catalog, setup: Setup, bot: str = "greedy") -> GameResult:
    """Play one game to its end with a bot on every seat."""
    choose = BOTS[bot]
    game = Game.new(catalog, setup)
    rng = random.Random(setup.seed)
    while not game.over and game.state.actions < ACTION_CAP:
        game.apply(choose(game, rng))
    if not game.over:
        return GameResult(
            setup.seed,
            "",
            f"capped at {ACTION_CAP} actions (a bug)",
            game.state.turn,
            game.state.actions,
        )
    return GameResult(
        setup.seed, game.state.winner, game.state.reason, game.state.turn, game.state.actions
    )


def simulate(catalog: Catalog, base: Setup, games: int, bot: str = "greedy") -> list[GameResult]:
    """Play ``games`` games with seeds ``base.seed``, ``base.seed + 1`` …"""
    results = []
    for i in range(games):
        setup = Setup(
            characters=list(base.characters),
            villain=base.villain,
            difficulty=base.difficulty,
            extreme=base.extreme,
            location=base.location,
            seed=base.seed + i,
            starting_ally=base.starting_ally,
            variant=base.variant,
        )
        results.append(play(catalog, setup, bot))
    return results


def summary(results: list[GameResult]) -> dict[str, Any]:
    """Win counts, win rate and turn figures of a run."""
    players = sum(r.winner == "players" for r in results)
    villain = sum(r.winner == "villain" for r in results)
    turns = [r.turns for r in results] or [0]
    reasons: dict[str, int] = {}
    for r in results:
        reasons[r.reason] = reasons.get(r.reason, 0) + 1
    return {
        "games": len(results),
        "players_wins": players,
        "villain_wins": villain,
        "capped": len(results) - players - villain,
        "players_win_rate": round(players / len(results), 3) if results else 0.0,
        "mean_turns": round(statistics.fmean(turns), 1),
        "median_actions": statistics.median([r.actions for r in results] or [0]),
        "reasons": dict(sorted(reasons.items())),
    }
