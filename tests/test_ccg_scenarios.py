"""Every CCG scenario file (tests/scenarios/ccg) holds, run by the shared
scenario runner through the game key, and a failing one says where."""

from __future__ import annotations

from pathlib import Path

import pytest

from dbdeck.scenarios import ScenarioFailure, registered_runners, run_file

SCENARIOS = sorted((Path(__file__).parent / "scenarios" / "ccg").glob("*.toml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_ccg_scenario(path: Path) -> None:
    outcome = run_file(path, registered_runners())
    assert outcome.steps >= 1


def test_there_are_ccg_scenarios() -> None:
    assert len(SCENARIOS) >= 20


def test_a_failing_step_names_the_step_and_what_was_found(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'game = "ccg"\nname = "wrong on purpose"\nrulebook = "none"\n'
        "[setup]\nseed = 1\n"
        '[[steps]]\naction = {kind = "draw-three", seat = 0}\n'
        'expect = {"p1.hand" = []}\n'
    )
    with pytest.raises(ScenarioFailure, match=r"step 1: expected p1.hand = \[\], got \["):
        run_file(bad, registered_runners())


def test_an_action_out_of_turn_is_a_failure_in_words(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'game = "ccg"\nrulebook = "none"\n[setup]\nseed = 1\n'
        '[[steps]]\naction = {kind = "draw-three", seat = 1}\n'
    )
    with pytest.raises(ScenarioFailure, match="step 1: refused: it is John's move"):
        run_file(bad, registered_runners())
