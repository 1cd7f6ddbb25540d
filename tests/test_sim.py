"""``dbdeck sim``: same arguments, same output; every game ends; the greedy
bot wins a fair share against Freezer on easy."""

from __future__ import annotations

import json

import pytest

from dbdeck.cli import main
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.game import Setup
from dbdeck.games.deckbuilding.sim import simulate, summary

ARGS = [
    "sim",
    "--villain",
    "freezer",
    "--characters",
    "goku,krillin",
    "--games",
    "4",
    "--seed",
    "3",
    "--json",
]


def test_sim_json_is_repeatable(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(ARGS) == 0
    first = capsys.readouterr().out
    assert main(ARGS) == 0
    assert capsys.readouterr().out == first
    data = json.loads(first)
    assert [g["seed"] for g in data["games"]] == [3, 4, 5, 6]
    for game in data["games"]:
        assert game["winner"] in ("players", "villain")
        assert game["reason"] and game["turns"] > 0 and game["actions"] > 0
    assert data["summary"]["games"] == 4 and data["summary"]["capped"] == 0


def test_sim_random_bot_and_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "sim",
        "--villain",
        "raditz",
        "--characters",
        "krillin",
        "--games",
        "2",
        "--bot",
        "random",
    ]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.count("seed ") == 2 and "Characters won" in out


def test_sim_refuses_a_bad_setup(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["sim", "--villain", "freezer", "--characters", "goku-ss1,vegeta-ss1"]
    assert main(args) == 2
    assert "more than Freezer's level 1" in capsys.readouterr().err


def test_greedy_bot_wins_a_fair_share_on_easy(catalog: Catalog) -> None:
    results = simulate(
        catalog,
        Setup(characters=["goku", "krillin"], villain="freezer", difficulty="easy", seed=100),
        games=12,
    )
    report = summary(results)
    assert report["capped"] == 0
    assert report["players_win_rate"] >= 0.4, report


def test_a_small_sweep_of_every_villain_ends_cleanly(
    catalog: Catalog, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same sweep as the balance table's, two games per run: every
    Villain × difficulty × Extreme Mode plays to an end without an error."""
    assert main(["sim", "--sweep", "--games", "2", "--jobs", "2", "--json"]) == 0
    cells = json.loads(capsys.readouterr().out)
    villains = {v.id for v in catalog.villains()}
    assert {c["villain"] for c in cells} == villains
    assert len(cells) == len(villains) * 3 * 2
    for cell in cells:
        report = cell["summary"]
        assert report["games"] == 2 and report["errors"] == 0 and report["capped"] == 0, cell
        assert report["players_wins"] + report["villain_wins"] == 2


def test_a_game_the_engine_fails_on_is_reported_not_raised(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dbdeck.games.deckbuilding import bots, sim

    def broken(game: object, rng: object) -> object:
        raise RuntimeError("no move")

    monkeypatch.setitem(bots.BOTS, "greedy", broken)
    result = sim.play(catalog, Setup(characters=["goku"], villain="freezer", seed=1))
    assert result.winner == "" and "RuntimeError: no move" in result.reason
    assert "Traceback" in result.error
    assert summary([result])["errors"] == 1 and summary([result])["capped"] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--sweep", "--jobs", "0"], "--jobs must be at least 1"),
        (["--sweep", "--villain", "nobody"], "unknown villain 'nobody'"),
        (["--games", "1"], "needs --villain and --characters"),
        (["--bot", "planner", "--think", "0"], "--think must be a number of seconds above 0"),
    ],
)
def test_sim_refuses_bad_arguments_without_a_traceback(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["sim", *args]) == 2
    assert message in capsys.readouterr().err
