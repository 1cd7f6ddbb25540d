"""How fast a search can think: playouts on determinized copies, the logged
path against the headless fast path, and the greedy game against the peer,
all in one run.

A playout starts from a position of a seeded greedy game (Freezer, Goku and
Krillin, Medium; after 20, 60 and 100 actions), deals a world the players'
seat cannot tell from it (``Game.determinize``) and lets the greedy bot play
it on, to the end or ``--cap`` actions. Two ways, alternated in rounds:

* **logged**: the copy records events and ``apply`` checks each action;
* **headless**: ``determinize(..., headless=True)`` and ``apply_legal``, as
  the simulator and the bots' searches play.

Printed, for each: engine actions a second (the bot's choosing included),
and the engine alone (the same actions replayed, the bot left out); then
pyminion's Big Money game against dbdeck's greedy game, logged and headless
(``benchmarks/peer.py``), as ratios. Every figure is given as the best
round and the median round: the machine may be shared, and the best round
is the least disturbed. ``--clock cpu`` times processor time instead of
wall time (for both engines), which other work on the machine disturbs less.

Aims (issue 28): at least 50,000 engine actions a second in playouts; a
greedy game at most 5 times pyminion's.

    python benchmarks/playouts.py [--rounds R] [--roots N] [--cap C] [--clock cpu] [--no-peer]
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from pathlib import Path

from peer import PEER, peer_games, peer_python  # benchmarks/peer.py, beside this script
from platformdirs import user_cache_dir

from dbdeck.games.deckbuilding.bots import greedy
from dbdeck.games.deckbuilding.cards.catalog import Catalog, load_catalog
from dbdeck.games.deckbuilding.engine.actions import Action
from dbdeck.games.deckbuilding.engine.game import Game, Setup

clock = time.perf_counter
"""The clock every figure is timed on (``--clock``)."""
ROOT_AFTER = (20, 60, 100)
"""The actions of a greedy game after which a playout's root is taken."""
PLAYS = ("goku", "krillin")


def _setup(seed: int) -> Setup:
    return Setup(villain="freezer", characters=list(PLAYS), seed=seed)


def roots(catalog: Catalog, games: int) -> list[Game]:
    """Positions of seeded greedy games to play out from."""
    found = []
    for seed in range(games):
        game = Game.new(catalog, _setup(seed))
        rng = random.Random(seed)
        played = 0
        while not game.over:
            game.apply(greedy(game, rng))
            played += 1
            if played in ROOT_AFTER and game.state.pending is None:
                found.append(game.clone())
    return found


def playouts(
    positions: list[Game], *, headless: bool, cap: int, seed: int
) -> tuple[int, float, list[tuple[Game, list[Action]]]]:
    """Actions played, seconds spent, and each world with its actions (for
    the replay that times the engine alone)."""
    played, spent, worlds = 0, 0.0, []
    for i, root in enumerate(positions):
        rng = random.Random(seed * 1000 + i)
        start = clock()
        world = root.determinize(PLAYS, rng, headless=headless)
        twin = world.clone()
        apply = world.apply_legal if headless else world.apply
        taken: list[Action] = []
        while not world.over and len(taken) < cap:
            action = greedy(world, rng)
            apply(action)
            taken.append(action)
        spent += clock() - start
        played += len(taken)
        worlds.append((twin, taken))
    return played, spent, worlds


def replay(worlds: list[tuple[Game, list[Action]]], *, headless: bool) -> float:
    """Seconds the engine alone takes to apply the playouts' actions."""
    spent = 0.0
    for world, taken in worlds:
        game = world.clone(headless=headless)
        apply = game.apply_legal if headless else game.apply
        start = clock()
        for action in taken:
            apply(action)
        spent += clock() - start
    return spent


def greedy_games(catalog: Catalog, first: int, count: int, *, headless: bool) -> list[float]:
    """Seconds per greedy game (``benchmarks/peer.py``'s game), logged or headless."""
    times = []
    for seed in range(first, first + count):
        start = clock()
        game = Game.new(catalog, _setup(seed))
        game.headless = headless
        apply = game.apply_legal if headless else game.apply
        rng = random.Random(seed)
        while not game.over:
            apply(greedy(game, rng))
        times.append(clock() - start)
    return times


def best_and_median(label: str, rounds: list[float], unit: str) -> str:
    """A figure over the rounds: its best and its median."""
    best = max(rounds) if unit.endswith("/s") else min(rounds)
    digits = 0 if unit.endswith("/s") else 2
    median = statistics.median(rounds)
    return f"{label:<44} best {best:10,.{digits}f} {unit}   median {median:10,.{digits}f} {unit}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternated rounds")
    parser.add_argument("--roots", type=int, default=6, help="greedy games giving roots")
    parser.add_argument("--cap", type=int, default=300, help="actions per playout at most")
    parser.add_argument("--games", type=int, default=10, help="greedy games per round, vs peer")
    parser.add_argument("--no-peer", action="store_true", help="leave pyminion out")
    parser.add_argument("--venv", type=Path, default=Path(user_cache_dir("dbdeck")) / "peer")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = parser.parse_args()
    global clock
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    peer_clock = "process_time" if args.clock == "cpu" else "perf_counter"
    catalog = load_catalog(include_env_packs=False)
    gc.freeze()  # as the command line does: the card set is never garbage
    positions = roots(catalog, args.roots)
    python = None if args.no_peer else peer_python(args.venv)

    rates: dict[str, list[float]] = {}
    per_game: dict[str, list[float]] = {}
    played = 0
    for r in range(args.rounds):
        for headless in (False, True):
            name = "headless" if headless else "logged"
            count, spent, worlds = playouts(positions, headless=headless, cap=args.cap, seed=r)
            played = count
            rates.setdefault(f"playouts, {name}", []).append(count / spent)
            engine = replay(worlds, headless=headless)
            rates.setdefault(f"engine alone, {name}", []).append(count / engine)
            games = greedy_games(catalog, r * args.games, args.games, headless=headless)
            per_game.setdefault(f"greedy game, {name}", []).append(statistics.median(games))
        if python is not None:
            peer = peer_games(python, r * args.games, args.games, peer_clock)
            per_game.setdefault(PEER, []).append(statistics.median(peer))

    print(
        f"{args.rounds} alternated rounds, {args.clock} clock; {len(positions)} roots, "
        f"{played} playout actions a round (the machine may be shared: best and median round)"
    )
    print("engine actions a second (aim: 50,000 in playouts)")
    for label, values in rates.items():
        print("  " + best_and_median(label, values, "actions/s"))
    logged, fast = rates["playouts, logged"], rates["playouts, headless"]
    print(
        f"  headless / logged playouts: {max(fast) / max(logged):.2f}x best, "
        f"{statistics.median(fast) / statistics.median(logged):.2f}x median; "
        f"to the aim: {50_000 / max(fast):.1f}x short at best"
    )
    print("a greedy game, median ms of each round")
    for label, values in per_game.items():
        print("  " + best_and_median(label, [v * 1e3 for v in values], "ms"))
    if PEER in per_game:
        peer_ms = per_game[PEER]
        for name in ("logged", "headless"):
            ours = per_game[f"greedy game, {name}"]
            print(
                f"  ratio dbdeck {name} / pyminion: {min(ours) / min(peer_ms):.1f}x best, "
                f"{statistics.median(ours) / statistics.median(peer_ms):.1f}x median "
                "(aim: 5x or less)"
            )


if __name__ == "__main__":
    main()
