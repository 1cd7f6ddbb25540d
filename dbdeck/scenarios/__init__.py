"""Scenario files, for every game: a table set up by hand, actions applied,
expectations checked (format in ``docs/scenarios.md``).

This package is the part every game shares, and it names no game:

- ``reading``: a scenario file is untrusted TOML, read within bounds;
- ``runners``: its ``game`` key, and the runner each game lists under its
  id (``dbdeck.games.SCENARIO_RUNNERS``, imported only when needed);
- ``expectations``: dotted paths into the facts a runner lists, and log texts;
- ``outcome``: what a run gives, and the failure naming file, step and
  expectation;
- ``command``: ``dbdeck scenario run FILES…``.

Each game's own part (models of the file, laying out its table, running its
steps) lives in the game's package.
"""

from dbdeck.scenarios.command import run_file, run_scenarios
from dbdeck.scenarios.expectations import check_facts, check_log, lookup
from dbdeck.scenarios.outcome import GameUnavailable, Outcome, ScenarioFailure
from dbdeck.scenarios.reading import MAX_DEPTH, MAX_SCENARIO_BYTES, MAX_STEPS, read_scenario
from dbdeck.scenarios.runners import (
    GAME_KEY,
    RunnerFactory,
    ScenarioRunner,
    ScenarioRunners,
    register,
    registered_runners,
)

__all__ = [
    "GAME_KEY",
    "MAX_DEPTH",
    "MAX_SCENARIO_BYTES",
    "MAX_STEPS",
    "GameUnavailable",
    "Outcome",
    "RunnerFactory",
    "ScenarioFailure",
    "ScenarioRunner",
    "ScenarioRunners",
    "check_facts",
    "check_log",
    "lookup",
    "read_scenario",
    "register",
    "registered_runners",
    "run_file",
    "run_scenarios",
]
