"""The rules engine against a peer: pyminion's Big Money game, in one run.

pyminion (0.4.0) is the fastest Python deckbuilder engine we know. This
script times its two-player Big Money game and dbdeck's greedy game
(Freezer, Goku and Krillin, Medium, the greedy bot on both seats) in the
same run, alternating batches so both see the same machine, and prints
medians, spreads and the ratio. Aims: a dbdeck game at most 5 times a
pyminion game, at most 25 µs per dbdeck action (the bot and the legal-action
listing included).

pyminion is installed on first use into a throwaway virtual environment in
the user cache folder (``--venv`` to put it elsewhere); it is never a
dependency of dbdeck.

    python benchmarks/peer.py [--games N] [--rounds R]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import subprocess
import sys
import time
import venv
from pathlib import Path

from engine import figure_line  # benchmarks/engine.py, beside this script
from platformdirs import user_cache_dir

from dbdeck.games.deckbuilding.bots import greedy
from dbdeck.games.deckbuilding.cards.catalog import load_catalog
from dbdeck.games.deckbuilding.engine.game import Game, Setup

PEER = "pyminion==0.4.0"

_PEER_GAMES = """
import json, logging, random, sys, time
from pyminion.bots.examples import BigMoney
from pyminion.expansions.base import base_set
from pyminion.game import Game
logging.disable(logging.CRITICAL)
times = []
for seed in range(int(sys.argv[1]), int(sys.argv[2])):
    random.seed(seed)
    game = Game(players=[BigMoney(player_id="A"), BigMoney(player_id="B")],
                expansions=[base_set], log_stdout=False)
    start = time.CLOCK()
    game.play()
    times.append(time.CLOCK() - start)
print(json.dumps(times))
"""


def peer_python(folder: Path) -> Path:
    """The peer's interpreter, installing it first when needed."""
    python = folder / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    if not python.exists():
        print(f"installing {PEER} into {folder} …", file=sys.stderr)
        venv.create(folder, with_pip=True)
        subprocess.run([python, "-m", "pip", "install", "-q", PEER], check=True)
    return python


def peer_games(python: Path, first: int, count: int, clock: str = "perf_counter") -> list[float]:
    """Seconds per pyminion game, for seeds ``first`` … ``first + count - 1``,
    on ``clock`` (a function of ``time``: ``process_time`` counts only the
    processor time the games took, on a machine shared with other work)."""
    out = subprocess.run(
        [python, "-c", _PEER_GAMES.replace("CLOCK", clock), str(first), str(first + count)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    times: list[float] = json.loads(out)
    return times


def dbdeck_games(first: int, count: int) -> tuple[list[float], list[float]]:
    """Seconds per dbdeck greedy game, and per action of each game."""
    catalog = load_catalog(include_env_packs=False)
    gc.freeze()  # as the command line does: the card set is never garbage
    games, actions = [], []
    for seed in range(first, first + count):
        setup = Setup(villain="freezer", characters=["goku", "krillin"], seed=seed)
        start = time.perf_counter()
        game = Game.new(catalog, setup)
        rng = random.Random(seed)
        played = 0
        while not game.over:
            game.apply(greedy(game, rng))
            played += 1
        spent = time.perf_counter() - start
        games.append(spent)
        actions.append(spent / played)
    return games, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per batch")
    parser.add_argument("--rounds", type=int, default=3, help="batches of each, alternated")
    parser.add_argument("--venv", type=Path, default=Path(user_cache_dir("dbdeck")) / "peer")
    args = parser.parse_args()
    python = peer_python(args.venv)
    peer: list[float] = []
    ours: list[float] = []
    per_action: list[float] = []
    for r in range(args.rounds):
        first = r * args.games
        peer += peer_games(python, first, args.games)
        games, actions = dbdeck_games(first, args.games)
        ours += games
        per_action += actions
    print(f"{len(ours)} games each, in {args.rounds} alternated batches")
    print(figure_line(f"{PEER}, Big Money x2", peer, "ms", 1e3))
    print(figure_line("dbdeck, greedy game", ours, "ms", 1e3))
    print(figure_line("dbdeck, per action (bot included)", per_action, "µs", 1e6))
    ratio = statistics.median(ours) / statistics.median(peer)
    print(f"ratio dbdeck / pyminion per game: {ratio:.1f}x (aim: 5x or less)")


if __name__ == "__main__":
    main()
