"""The command line explains itself: every option of the game commands is
described, their help lists the ids they take, and a mistyped id is answered
with the nearest one (exit code 2, no traceback)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from dbdeck.cli import Commands, build_parser, main
from dbdeck.games.deckbuilding.cards.catalog import Catalog


def subcommand(name: str) -> argparse.ArgumentParser:
    """The parser of one sub-command."""
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, Commands):
            return action.parser_of(name)
    raise AssertionError("no sub-commands")


@pytest.mark.parametrize("command", ["play", "sim", "host", "join"])
def test_every_option_has_a_description(command: str) -> None:
    for action in subcommand(command)._actions:
        if action.help == argparse.SUPPRESS:
            continue  # kept only to say it is gone
        assert action.help and action.help.strip(), f"{command} {action.option_strings}"


@pytest.mark.parametrize("command", ["play", "sim", "host"])
def test_the_help_lists_the_ids(
    command: str, catalog: Catalog, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    assert stop.value.code == 0
    shown = capsys.readouterr().out
    listed = shown.split("ids (dbdeck cards show ID describes one):", 1)[1]
    for kind in ("Villains", "Characters", "Locations", "Scenario cards", "Difficulties"):
        assert f"{kind} (--" in listed
    for card in [*catalog.villains(), *catalog.characters(), *catalog.locations()]:
        assert card.id in listed
    assert "androids-17-18-a-different-future" in listed
    assert "easy, medium, hard" in listed


def test_other_commands_do_not_list_the_ids(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    assert "Villains (--villain)" not in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["sim", "--villain", "freezr", "--characters", "goku"],
            "unknown villain 'freezr'; did you mean freezer?",
        ),
        (
            ["sim", "--villain", "freezer", "--characters", "goku,krilin"],
            "unknown character 'krilin'; did you mean krillin?",
        ),
        (
            ["sim", "--villain", "freezer", "--characters", "goku", "--location", "kame-hose"],
            "unknown location 'kame-hose'; did you mean kame-house?",
        ),
        (
            ["sim", "--villain", "broly", "--characters", "goku", "--starting-ally", "bulmaa"],
            "did you mean bulma-ally?",
        ),
        (
            [
                "sim",
                "--villain",
                "androids-17-18",
                "--characters",
                "goku",
                "--variant",
                "androids-17-18-a-diferent-future",
            ],
            "did you mean androids-17-18-a-different-future?",
        ),
        (
            ["play", "--villain", "freezr", "--characters", "goku"],
            "unknown villain 'freezr'; did you mean freezer?",
        ),
        (
            ["sim", "--villain", "zzzzzz", "--characters", "goku"],
            "unknown villain 'zzzzzz' (dbdeck sim --help lists the ids)",
        ),
    ],
)
def test_a_mistyped_id_suggests_the_nearest(
    argv: list[str],
    said: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(
        ["--saves", str(tmp_path), *argv, "--games", "1"]
        if argv[0] == "sim"
        else ["--saves", str(tmp_path), *argv]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert said in err
    assert "Traceback" not in err
    assert not list(tmp_path.iterdir())  # no game was saved
