"""The golden fingerprint: the engine's whole behaviour over seeded bot games.

Each game of ``GAMES`` is played by a bot (greedy or random) from its seed.
Its fingerprint is a SHA-256 over every legal-action list, every chosen
action, every event and the final state, in order. ``golden/games.json``
holds the fingerprints recorded from a known-good engine; the test compares.
A rework of the engine must leave every fingerprint unchanged. Where a rules
change means to change behaviour, record them again, deliberately::

    python tests/golden_games.py --write
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dbdeck.games.deckbuilding.bots import BOTS
from dbdeck.games.deckbuilding.cards.catalog import Catalog, load_catalog
from dbdeck.games.deckbuilding.engine.game import Game, Setup

GOLDEN = Path(__file__).parent / "golden" / "games.json"
SEEDS = range(20)
ACTION_CAP = 250
"""Actions played per game at most: long random games are cut here (the
fingerprint covers what was played)."""


@dataclass(frozen=True)
class Table:
    """One setup of the golden games."""

    name: str
    setup: Setup


TABLES = [
    Table("freezer-medium", Setup(villain="freezer", characters=["goku", "krillin"])),
    Table(
        "freezer-solo-extreme",
        Setup(villain="freezer", characters=["goku"], difficulty="hard", extreme=True),
    ),
    Table(
        "raditz-hard-location",
        Setup(
            villain="raditz",
            characters=["piccolo", "krillin"],
            difficulty="hard",
            location="random",
        ),
    ),
    Table(
        "vegeta-nappa-extreme",
        Setup(villain="vegeta-nappa", characters=["piccolo", "tien"], extreme=True),
    ),
    Table(
        "androids-19-20-three",
        Setup(
            villain="androids-19-20",
            characters=["goku", "krillin", "yamcha"],
            difficulty="easy",
            location="random",
        ),
    ),
    Table(
        "androids-17-18-extreme",
        Setup(villain="androids-17-18", characters=["supreme-kai", "tapion"], extreme=True),
    ),
    Table(
        "androids-17-18-different-future",
        Setup(
            villain="androids-17-18",
            characters=["gohan-ss2", "master-roshi"],
            variant="androids-17-18-a-different-future",
        ),
    ),
    Table(
        "broly-solo-starting-ally",
        Setup(villain="broly", characters=["vegeta-ss1"], starting_ally="piccolo-ally"),
    ),
    Table(
        "broly-four-extreme",
        Setup(
            villain="broly",
            characters=["pikkon", "dabura", "goku", "krillin"],
            extreme=True,
            location="random",
        ),
    ),
]


def fingerprint(catalog: Catalog, setup: Setup, bot: str) -> tuple[str, int]:
    """The fingerprint of one game and the number of actions it played."""
    digest = hashlib.sha256()

    def feed(data: Any) -> None:
        digest.update(json.dumps(data, sort_keys=True, separators=(",", ":")).encode())
        digest.update(b"\n")

    game = Game.new(catalog, setup)
    choose = BOTS[bot]
    rng = random.Random(setup.seed)
    played = 0
    while not game.over and played < ACTION_CAP:
        if game.state.paused:
            events = game.resume()
        else:
            feed([a.to_json() for a in game.legal_actions()])
            action = choose(game, rng)
            feed(action.to_json())
            events = game.apply(action)
            played += 1
        feed([e.to_json() for e in events])
    feed(as_recorded(game.to_json()))
    return digest.hexdigest(), played


def as_recorded(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A game's JSON form in the form the fingerprints were recorded in
    (snapshot version 1): an enemy's own counters written among the
    Villain's tokens as ``<counter>:<enemy>``, the Ally Market's damage
    among the enemies' as ``market:<uid>``. The inverse of
    ``upgrade_snapshot`` (``tests/test_saves.py`` checks both ways), so the
    fingerprint still covers every value of the state."""
    state = json.loads(json.dumps(snapshot["state"]))
    villain = state["villain"]
    for enemy, own in villain.pop("enemy_tokens").items():
        for counter, n in own.items():
            villain["tokens"][f"{counter}:{enemy}"] = n
    for market in state["markets"].values():
        for uid, n in market.pop("damage").items():
            villain["enemy_damage"][f"market:{uid}"] = n
    return {**snapshot, "version": 1, "state": state}


def all_fingerprints(catalog: Catalog) -> dict[str, list[Any]]:
    """Every golden game's fingerprint, by ``table/bot/seed``."""
    found: dict[str, list[Any]] = {}
    for table in TABLES:
        for seed in SEEDS:
            bot = "greedy" if seed % 2 == 0 else "random"
            setup = Setup(**{**table.setup.to_json(), "seed": seed})
            found[f"{table.name}/{bot}/{seed}"] = list(fingerprint(catalog, setup, bot))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="record the fingerprints anew")
    args = parser.parse_args()
    found = all_fingerprints(load_catalog(include_env_packs=False))
    if args.write:
        GOLDEN.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
        print(f"recorded {len(found)} games in {GOLDEN}")
        return 0
    recorded = json.loads(GOLDEN.read_text())
    changed = sorted(k for k in found if recorded.get(k) != found[k])
    print("\n".join(changed) or "unchanged")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
