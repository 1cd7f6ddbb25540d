"""Hostile CCG scenario files fail in words that name where, never with a
traceback: real scenarios with values swapped for others of any shape."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest

from dbdeck.games.ccg.scenario import scenario_runner
from dbdeck.scenarios import ScenarioFailure, read_scenario

SCENARIOS = sorted((Path(__file__).parent / "scenarios" / "ccg").glob("*.toml"))
ODD: list[Any] = [
    None,
    -1,
    0,
    10**12,
    "",
    "x",
    "Senzu Bean",
    [],
    [1, "a"],
    {},
    {"kind": "pass"},
    True,
    2.5,
    "\x1b[31m",
    ["goku"] * 3,
    {"p3": {}},
]


def _paths(node: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [at] if at else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*at, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _paths(value, (*at, i))
    return found


def _set(node: Any, path: tuple[Any, ...], value: Any) -> None:
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value


@pytest.mark.parametrize("path", SCENARIOS[::3], ids=[p.stem for p in SCENARIOS[::3]])
def test_swapped_values_fail_in_words_naming_where(path: Path) -> None:
    runner = scenario_runner()
    data = read_scenario(path)
    data.pop("game", None)
    rng = random.Random(path.stem)
    paths = _paths(data)
    for _ in range(25):
        bad = copy.deepcopy(data)
        _set(bad, rng.choice(paths), rng.choice(ODD))
        try:
            runner.run(bad, str(path))
        except ScenarioFailure as exc:
            # One line naming the field or step (a log expectation quotes the log below it).
            first = str(exc).splitlines()[0]
            assert ": " in first and "Traceback" not in str(exc), str(exc)
