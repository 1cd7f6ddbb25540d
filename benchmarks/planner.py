"""The planner against the greedy bot, on the same seeds.

For each table (a Villain, a difficulty, a party) both bots play the same
seeded games; printed side by side: each bot's wins, and the planner's time
per decision it weighed (p50 and p95) and per game.

    python benchmarks/planner.py [--quick] [--seeds N] [--iterations N] [--think S]

``--quick``: 3 seeds a table and 16 playouts a decision (a small sample: a
check that it runs and where it stands, not a measurement of win rates).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from dataclasses import dataclass, replace

from dbdeck.games.deckbuilding.cards.catalog import Catalog, load_catalog
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.planner import Planner
from dbdeck.games.deckbuilding.sim import play

TABLES = [
    ("Raditz medium, Goku + Krillin", Setup(villain="raditz", characters=["goku", "krillin"])),
    (
        "Freezer hard, Goku + Krillin",
        Setup(villain="freezer", characters=["goku", "krillin"], difficulty="hard"),
    ),
    ("Broly medium, Pikkon + Dabura", Setup(villain="broly", characters=["pikkon", "dabura"])),
    (
        "Vegeta and Nappa medium, Piccolo + Tien",
        Setup(villain="vegeta-nappa", characters=["piccolo", "tien"]),
    ),
]


@dataclass(slots=True)
class PlannerGame:
    """How one planner game went."""

    won: bool
    seconds: float
    weighed: list[float]
    """Seconds per decision the planner weighed."""


def planner_game(catalog: Catalog, setup: Setup, bot: Planner) -> PlannerGame:
    """One game with the planner on every seat (seeded as ``dbdeck sim``)."""
    game = Game.new(catalog, setup)
    rng = random.Random(setup.seed)
    weighed: list[float] = []
    start = time.perf_counter()
    while not game.over and game.state.actions < 20_000:
        plan = bot.plan(game, rng)
        if plan.weighed:
            weighed.append(plan.seconds)
        game.apply(plan.action)
    return PlannerGame(game.state.winner == "players", time.perf_counter() - start, weighed)


def percentile(values: list[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 seeds, 16 playouts a decision")
    parser.add_argument("--seeds", type=int, default=None, help="seeds per table (default 200)")
    parser.add_argument("--iterations", type=int, default=None, help="playouts per decision")
    parser.add_argument("--think", type=float, default=None, help="seconds per decision at most")
    parser.add_argument("--table", type=int, default=None, help="only this table (0-3)")
    parser.add_argument("--first-seed", type=int, default=0, help="the first seed (default 0)")
    args = parser.parse_args()
    seeds = args.seeds or (3 if args.quick else 200)
    bot = Planner(think=args.think)
    if args.iterations or args.quick:
        bot.iterations = args.iterations or 16
    catalog = load_catalog(include_env_packs=False)
    gc.freeze()
    print(
        f"{seeds} seeds a table from seed {args.first_seed}; "
        f"planner: {bot.iterations} playouts a decision at most, "
        f"think {bot.think if bot.think is not None else 'unbounded'} s, "
        f"top {bot.candidates}, {bot.rounds} rounds a playout"
    )
    header = f"{'table':<42}{'greedy':>9}{'planner':>9}{'p50 ms':>9}{'p95 ms':>9}{'s/game':>8}"
    print(header)
    tables = TABLES if args.table is None else [TABLES[args.table]]
    for name, base in tables:
        greedy_wins = planner_wins = 0
        weighed: list[float] = []
        game_seconds: list[float] = []
        for seed in range(args.first_seed, args.first_seed + seeds):
            setup = replace(base, seed=seed)
            greedy_wins += play(catalog, setup, "greedy").winner == "players"
            result = planner_game(catalog, setup, bot)
            planner_wins += result.won
            weighed += result.weighed
            game_seconds.append(result.seconds)
        print(
            f"{name:<42}{f'{greedy_wins}/{seeds}':>9}{f'{planner_wins}/{seeds}':>9}"
            f"{percentile(weighed, 0.5) * 1000:>9.0f}{percentile(weighed, 0.95) * 1000:>9.0f}"
            f"{statistics.fmean(game_seconds):>8.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
