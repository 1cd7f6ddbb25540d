"""Every scenario file in tests/scenarios holds, and the runner reports failures clearly."""

from __future__ import annotations

from pathlib import Path

import pytest

from dbdeck.cards.catalog import Catalog
from dbdeck.cli import main
from dbdeck.scenario import ScenarioFailure, run_file

SCENARIOS = sorted((Path(__file__).parent / "scenarios").rglob("*.toml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(catalog: Catalog, path: Path) -> None:
    run_file(catalog, path)


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 15


def test_failing_scenario_names_file_step_and_expectation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'name = "wrong on purpose"\n'
        '[setup]\nvillain = "freezer"\ncharacters = ["krillin"]\n'
        '[table]\nactive = "krillin"\n[table.villain]\narrived = true\nminions = []\n'
        '[table.characters.krillin]\nhand = ["knee-strike"]\n'
        '[[steps]]\naction = {type = "attack", cards = ["knee-strike"], target = "v"}\n'
        'expect = {"villain.damage" = 5}\n'
    )
    assert main(["scenario", "run", str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"FAIL {bad}: step 1: expected villain.damage = 5, got 1" in out


def test_unreadable_scenario_is_a_failure_not_a_traceback(catalog: Catalog, tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("name = \n")
    with pytest.raises(ScenarioFailure, match="cannot read"):
        run_file(catalog, broken)
