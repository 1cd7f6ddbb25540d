"""The engine's behaviour is pinned: seeded bot games and the sim's output
are identical to what was recorded (``tests/golden_games.py``)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from golden_games import GOLDEN, all_fingerprints

from dbdeck.games.deckbuilding.cards.catalog import Catalog

_SEEDS = ["--seed", "1", "--games", "20", "--json"]
SIMS = {
    "sim-freezer-seeds-1-20.json": ["--villain", "freezer", "--characters", "goku,krillin"],
    "sim-vegeta-nappa-random-seeds-1-20.json": [
        *("--villain", "vegeta-nappa", "--characters", "piccolo,tien", "--extreme"),
        *("--bot", "random"),
    ],
}


def test_golden_games_are_unchanged(catalog: Catalog) -> None:
    recorded = json.loads(GOLDEN.read_text())
    found = all_fingerprints(catalog)
    assert sorted(found) == sorted(recorded)
    changed = sorted(k for k in found if found[k] != recorded[k])
    assert changed == [], f"{len(changed)} golden games changed: {changed[:10]}"


@pytest.mark.parametrize("name", sorted(SIMS))
def test_sim_json_is_byte_identical(name: str) -> None:
    """``dbdeck sim … --json`` prints exactly what it printed when recorded
    (regenerate with the same command, redirected to the file)."""
    out = subprocess.run(
        [sys.executable, "-m", "dbdeck", "sim", *SIMS[name], *_SEEDS],
        capture_output=True,
        check=True,
    ).stdout
    assert out == (GOLDEN.parent / name).read_bytes()
