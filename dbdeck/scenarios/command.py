"""``dbdeck scenario run FILES…``: every file named, of any registered game."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from dbdeck.packs.reading import files_below, one_line
from dbdeck.scenarios.outcome import GameUnavailable, Outcome, ScenarioFailure
from dbdeck.scenarios.reading import read_scenario
from dbdeck.scenarios.runners import ScenarioRunners

__all__ = ["run_file", "run_scenarios"]


def run_file(path: Path, runners: ScenarioRunners) -> Outcome:
    """Read one scenario file and run it with its game's runner; raises
    ``ScenarioFailure`` on the first failure (``GameUnavailable`` when the
    game cannot run scenarios at all).

    Whatever the file holds, a problem *in the file* raises nothing but
    ``ScenarioFailure``; any other exception is a bug of the game.
    """
    return runners.run(read_scenario(path), str(path))


def run_scenarios(files: Iterable[Path], runners: ScenarioRunners) -> int:
    """Run every scenario named (a folder: every ``*.toml`` below it), one
    line each; a bad file is reported and the others still run. Exit 1 when
    any failed, was unreadable, or there was none, or when a game could not
    run its scenarios (its problems go to standard error)."""
    paths: list[Path] = []
    passed = failed = 0
    for f in files:
        if not f.is_dir():
            paths.append(f)
            continue
        found, unreadable = files_below(f, ".toml")
        paths += found
        for folder, message in unreadable:
            failed += 1
            print(f"FAIL {one_line(str(folder))}: {message}")
    for path in paths:
        name = one_line(str(path))
        try:
            outcome = run_file(path, runners)
        except ScenarioFailure as exc:
            failed += 1
            print(f"FAIL {name}: {exc}")
        except GameUnavailable as exc:
            for line in exc.args:
                print(line, file=sys.stderr)
            return 1
        except Exception as exc:
            # The file passed every check, so this is a bug of the game: report it in
            # one line and go on, so one bad scenario cannot hide the others' results.
            failed += 1
            print(
                f"FAIL {name}: internal error (a bug): {type(exc).__name__}: {one_line(str(exc))}"
            )
        else:
            passed += 1
            print(f"ok   {name}: {outcome.name} ({outcome.steps} steps)")
            for warning in outcome.warnings:
                print(f"warn {name}: {warning}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not paths else 0
