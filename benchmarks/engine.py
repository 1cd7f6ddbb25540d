"""How fast the rules engine plays.

Prints median and spread of:

* ms per full game (Freezer, goku + krillin, medium, greedy bot), bot included;
* µs per applied action (a recorded game replayed, the bot's thinking excluded);
* µs to list the legal actions;
* µs for the greedy bot to choose (it asks for its best action best-first,
  without the listing);
* ms to clone a mid-game state, and to save it to JSON.

Aims: a game in 10 ms or less, 30 µs or less per action, a clone in 0.5 ms
or less.

    python benchmarks/engine.py [--games N]
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time

from dbdeck.games.deckbuilding.bots import greedy
from dbdeck.games.deckbuilding.cards.catalog import load_catalog
from dbdeck.games.deckbuilding.engine.actions import Action
from dbdeck.games.deckbuilding.engine.game import Game, Setup


def figure_line(label: str, samples: list[float], unit: str, scale: float) -> str:
    """One figure: its median and interquartile range, in ``unit`` (``scale``
    turns seconds into it)."""
    values = sorted(s * scale for s in samples)
    q1, q3 = values[len(values) // 4], values[(3 * len(values)) // 4]
    return (
        f"{label:<34} median {statistics.median(values):9.2f} {unit}"
        f"  (interquartile {q1:.2f}-{q3:.2f}, n={len(values)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    catalog = load_catalog(include_env_packs=False)
    gc.freeze()  # as the command line does: the card set is never garbage

    def setup(seed: int) -> Setup:
        return Setup(characters=["goku", "krillin"], villain="freezer", seed=seed)

    game_times, logs = [], []
    for seed in range(args.games):
        start = time.perf_counter()
        game = Game.new(catalog, setup(seed))
        rng = random.Random(seed)
        log: list[Action] = []
        while not game.over:
            action = greedy(game, rng)
            game.apply(action)
            log.append(action)
        game_times.append(time.perf_counter() - start)
        logs.append(log)

    per_action, listing, choosing, clones, saves = [], [], [], [], []
    for seed, log in enumerate(logs):
        game = Game.new(catalog, setup(seed))
        rng = random.Random(seed)
        for i, action in enumerate(log):
            if i == len(log) // 2:
                start = time.perf_counter()
                game.clone()
                clones.append(time.perf_counter() - start)
                start = time.perf_counter()
                game.to_json()
                saves.append(time.perf_counter() - start)
            start = time.perf_counter()
            game.legal_actions()
            listing.append(time.perf_counter() - start)
            start = time.perf_counter()
            greedy(game, rng)
            choosing.append(time.perf_counter() - start)
            start = time.perf_counter()
            game.apply(action)
            per_action.append(time.perf_counter() - start)

    print(f"{args.games} games, {sum(map(len, logs))} actions")
    print(figure_line("full game (greedy bot)", game_times, "ms", 1e3))
    print(figure_line("apply one action", per_action, "µs", 1e6))
    print(figure_line("list the legal actions", listing, "µs", 1e6))
    print(figure_line("the greedy bot's choice", choosing, "µs", 1e6))
    print(figure_line("clone a mid-game state", clones, "ms", 1e3))
    print(figure_line("save a mid-game state to JSON data", saves, "ms", 1e3))


if __name__ == "__main__":
    main()
