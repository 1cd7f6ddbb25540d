"""Headless simulated games: ``dbdeck sim``.

Each game ``i`` of a run uses seed ``seed + i`` for both the game and the
bot, so the same arguments always print the same results. A game that
reaches the action cap has not ended, and a game the engine fails on has
raised an error: both are bugs, and are reported as such.

A sweep (``dbdeck sim --sweep``) plays such a run for every Villain ×
difficulty, with and without Extreme Mode, spread over processes, and prints
the balance table of ``docs/balance.md``.
"""

from __future__ import annotations

import os
import random
import statistics
import traceback
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from dbdeck.games.deckbuilding.bots import BOTS, Bot
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.game import DIFFICULTIES, Game, Setup
from dbdeck.games.deckbuilding.planner import Planner

__all__ = [
    "ACTION_CAP",
    "BOT_NAMES",
    "Cell",
    "GameResult",
    "balance_table",
    "bot_named",
    "play",
    "simulate",
    "summary",
    "sweep",
]

ACTION_CAP = 20_000
"""Actions after which a game is stopped and reported as a bug."""

BOT_NAMES = (*BOTS, "planner")
"""The bots ``dbdeck sim --bot`` plays with."""


def bot_named(name: str, think: float | None = None) -> Bot:
    """The bot of that name (``think``: the planner's seconds per decision
    at most; ``None``, its cap on playouts alone)."""
    if name == "planner":
        return Planner(think=think)
    return BOTS[name]


@dataclass(slots=True)
class GameResult:
    """How one simulated game ended."""

    seed: int
    winner: str
    reason: str
    turns: int
    actions: int
    error: str = ""
    """The engine's failure, with its traceback, when the game raised one."""

    def to_json(self) -> dict[str, Any]:
        """The result as JSON data."""
        return {
            "seed": self.seed,
            "winner": self.winner or None,
            "reason": self.reason,
            "turns": self.turns,
            "actions": self.actions,
            **({"error": self.error} if self.error else {}),
        }


def play(catalog: Catalog, setup: Setup, bot: str | Bot = "greedy") -> GameResult:
    """Play one game to its end with a bot (or the bot of that name) on
    every seat."""
    choose = bot_named(bot) if isinstance(bot, str) else bot
    game = Game.new(catalog, setup)
    # No one reads the log of a simulated game, and the bots choose only
    # legal actions: the fast path (``Game.headless``, ``apply_legal``).
    game.headless = True
    rng = random.Random(setup.seed)
    try:
        while not game.over and game.state.actions < ACTION_CAP:
            game.apply_legal(choose(game, rng))
    except Exception as exc:  # a bug to report with its seed, not a reason to stop a run
        return GameResult(
            setup.seed,
            "",
            f"error: {type(exc).__name__}: {exc}",
            game.state.turn,
            game.state.actions,
            traceback.format_exc(),
        )
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


def simulate(
    catalog: Catalog, base: Setup, games: int, bot: str | Bot = "greedy"
) -> list[GameResult]:
    """Play ``games`` games with seeds ``base.seed``, ``base.seed + 1`` …"""
    return [play(catalog, replace(base, seed=base.seed + i), bot) for i in range(games)]


def summary(results: list[GameResult]) -> dict[str, Any]:
    """Win counts, win rate and turn figures of a run."""
    players = sum(r.winner == "players" for r in results)
    villain = sum(r.winner == "villain" for r in results)
    errors = sum(bool(r.error) for r in results)
    turns = [r.turns for r in results] or [0]
    reasons: dict[str, int] = {}
    for r in results:
        reasons[r.reason] = reasons.get(r.reason, 0) + 1
    return {
        "games": len(results),
        "players_wins": players,
        "villain_wins": villain,
        "errors": errors,
        "capped": len(results) - players - villain - errors,
        "players_win_rate": round(players / len(results), 3) if results else 0.0,
        "mean_turns": round(statistics.fmean(turns), 1),
        "median_actions": statistics.median([r.actions for r in results] or [0]),
        "reasons": dict(sorted(reasons.items())),
    }


@dataclass(slots=True)
class Cell:
    """One run of a sweep: a Villain, a difficulty, Extreme Mode or not."""

    villain: str
    difficulty: str
    extreme: bool
    results: list[GameResult]

    @property
    def report(self) -> dict[str, Any]:
        """The run's :func:`summary`."""
        return summary(self.results)


_catalog: Catalog | None = None


def _init_worker(catalog: Catalog) -> None:
    global _catalog
    _catalog = catalog


def _run_cell(job: tuple[Setup, int, str, float | None]) -> Cell:
    base, games, bot, think = job
    assert _catalog is not None
    results = simulate(_catalog, base, games, bot_named(bot, think))
    return Cell(base.villain, base.difficulty, base.extreme, results)


def sweep(
    catalog: Catalog,
    characters: list[str],
    villains: Iterable[str],
    games: int,
    *,
    seed: int = 0,
    bot: str = "greedy",
    think: float | None = None,
    jobs: int | None = None,
) -> list[Cell]:
    """Play ``games`` games for every Villain × difficulty × Extreme Mode
    (off, then on), in ``jobs`` processes (default: one per core). Every
    cell uses the same seeds, so a cell's figures do not depend on the others."""
    runs = [
        (
            Setup(
                characters=list(characters),
                villain=villain,
                difficulty=difficulty,
                extreme=extreme,
                seed=seed,
            ),
            games,
            bot,
            think,
        )
        for villain in villains
        for difficulty in DIFFICULTIES
        for extreme in (False, True)
    ]
    for base, *_ in runs:  # a bad setup is refused before any process starts
        Game.new(catalog, base)
    jobs = jobs or os.cpu_count() or 1
    if jobs == 1:
        _init_worker(catalog)
        return [_run_cell(run) for run in runs]
    with ProcessPoolExecutor(jobs, initializer=_init_worker, initargs=(catalog,)) as pool:
        return list(pool.map(_run_cell, runs))


def balance_table(catalog: Catalog, cells: list[Cell]) -> str:
    """The players' win rate per Villain and difficulty, as a Markdown table."""
    rate: dict[tuple[str, str, bool], str] = {}
    for cell in cells:
        r = cell.report
        rate[cell.villain, cell.difficulty, cell.extreme] = (
            f"{r['players_win_rate']:.0%} ({r['players_wins']}/{r['games']})"
        )
    lines = [
        "| Villain | Easy | Medium | Hard | Easy, Extreme | Medium, Extreme | Hard, Extreme |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    villains = list(dict.fromkeys(cell.villain for cell in cells))
    for villain in villains:
        row = [rate[villain, d, x] for x in (False, True) for d in DIFFICULTIES]
        lines.append(f"| {catalog.cards[villain].name} | " + " | ".join(row) + " |")
    return "\n".join(lines)
