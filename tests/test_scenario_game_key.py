"""A scenario file's ``game`` key picks the runner its game registered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dbdeck.cli import main
from dbdeck.scenarios import GameUnavailable, Outcome, ScenarioFailure, ScenarioRunner, register
from dbdeck.scenarios import runners as registry
from dbdeck.tabletop.registry import DEFAULT_GAME

DECKBUILDING = (
    'name = "Krillin strikes"\n'
    '[setup]\nvillain = "freezer"\ncharacters = ["krillin"]\n'
    '[table]\nactive = "krillin"\n[table.villain]\narrived = true\nminions = []\n'
    '[table.characters.krillin]\nhand = ["knee-strike"]\n'
    '[[steps]]\naction = {type = "attack", cards = ["knee-strike"], target = "v"}\n'
    'expect = {"villain.damage" = 1}\n'
)


class FakeRunner:
    """A game's scenario runner that remembers what it was given."""

    def __init__(self) -> None:
        self.seen: list[tuple[dict[str, Any], str]] = []

    def run(self, data: dict[str, Any], file: str) -> Outcome:
        self.seen.append((data, file))
        if data.get("fail"):
            raise ScenarioFailure("step 1: expected lamp = on, got off")
        return Outcome(file, str(data.get("name", file)), len(data.get("steps", [])))


@pytest.fixture(autouse=True)
def own_registrations(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a test registers is forgotten after it."""
    monkeypatch.setattr(registry, "_registered", {})


@pytest.fixture
def fake() -> list[FakeRunner]:
    """A game ``fake`` registered for this test; the runners made for it."""
    made: list[FakeRunner] = []

    def factory() -> ScenarioRunner:
        made.append(FakeRunner())
        return made[-1]

    register("fake", factory)
    return made


def test_missing_game_is_the_deckbuilding_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert DEFAULT_GAME == "deckbuilding"
    path = tmp_path / "s.toml"
    path.write_text(DECKBUILDING)
    assert main(["scenario", "run", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"ok   {path}: Krillin strikes (1 steps)",
        "1 passed, 0 failed",
    ]


def test_game_deckbuilding_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.toml"
    path.write_text('game = "deckbuilding"\n' + DECKBUILDING)
    assert main(["scenario", "run", str(path)]) == 0
    assert f"ok   {path}: Krillin strikes (1 steps)" in capsys.readouterr().out


def test_a_deckbuilding_failure_still_names_step_and_expectation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "s.toml"
    path.write_text('game = "deckbuilding"\n' + DECKBUILDING.replace("= 1}", "= 5}"))
    assert main(["scenario", "run", str(path)]) == 1
    assert f"FAIL {path}: step 1: expected villain.damage = 5, got 1" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ('"chess"', "game: unknown game 'chess'; known games: ccg, deckbuilding"),
        ('""', "game: unknown game ''; known games: ccg, deckbuilding"),
        ('"x\\ny"', "game: unknown game 'x\\ny'; known games: ccg, deckbuilding"),
        ("3", "game: expected a string"),
        ('["deckbuilding"]', "game: expected a string"),
    ],
)
def test_an_unknown_game_is_one_line_naming_the_file_and_the_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str, message: str
) -> None:
    path = tmp_path / "s.toml"
    path.write_text(f"game = {value}\n" + DECKBUILDING)
    good = tmp_path / "t.toml"
    good.write_text(DECKBUILDING)
    assert main(["scenario", "run", str(path), str(good)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"FAIL {path}: {message}",
        f"ok   {good}: Krillin strikes (1 steps)",
        "1 passed, 1 failed",
    ]


def test_a_file_of_another_game_goes_to_its_runner(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fake: list[FakeRunner]
) -> None:
    one = tmp_path / "a.toml"
    one.write_text('game = "fake"\nname = "The lamp"\n[[steps]]\nlamp = "on"\n')
    two = tmp_path / "b.toml"
    two.write_text('game = "fake"\nfail = true\n')
    deckbuilding = tmp_path / "c.toml"
    deckbuilding.write_text(DECKBUILDING)
    assert main(["scenario", "run", str(tmp_path)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"ok   {one}: The lamp (1 steps)",
        f"FAIL {two}: step 1: expected lamp = on, got off",
        f"ok   {deckbuilding}: Krillin strikes (1 steps)",
        "2 passed, 1 failed",
    ]
    # One runner for the whole run, given each file's data without its game key.
    [runner] = fake
    assert runner.seen == [
        ({"name": "The lamp", "steps": [{"lamp": "on"}]}, str(one)),
        ({"fail": True}, str(two)),
    ]


def test_the_known_games_are_listed_sorted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fake: list[FakeRunner]
) -> None:
    path = tmp_path / "s.toml"
    path.write_text('game = "chess"\n')
    assert main(["scenario", "run", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"FAIL {path}: game: unknown game 'chess'; known games: ccg, deckbuilding, fake" in out
    assert fake == []


def test_a_game_that_cannot_run_stops_the_run_with_its_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def unavailable() -> ScenarioRunner:
        raise GameUnavailable("cards/broken.json: not JSON", "cards/other.json: too big")

    register("deckbuilding", unavailable)
    path = tmp_path / "s.toml"
    path.write_text(DECKBUILDING)
    assert main(["scenario", "run", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == ["cards/broken.json: not JSON", "cards/other.json: too big"]


def test_only_the_games_of_the_files_run_are_loaded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def never() -> ScenarioRunner:
        raise AssertionError("the deckbuilding runner was made for another game's file")

    register("deckbuilding", never)
    register("fake", FakeRunner)
    path = tmp_path / "s.toml"
    path.write_text('game = "fake"\n')
    assert main(["scenario", "run", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"ok   {path}: {path} (0 steps)",
        "1 passed, 0 failed",
    ]
