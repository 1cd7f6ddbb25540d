"""``dbdeck ccg play``: bad input is refused in words before any table
opens (the table itself is tested through its screen)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dbdeck.cli import main


def test_one_deck_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = tmp_path / "a.txt"
    deck.write_text("[Main Personality]\n1 Goku Level 1\n")
    assert main(["ccg", "play", str(deck), "--saves", str(tmp_path / "saves")]) == 2
    assert "give two deck files" in capsys.readouterr().err


def test_a_missing_deck_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.txt"
    assert main(["ccg", "play", str(missing), str(missing), "--saves", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "nope.txt" in err and "cannot read the deck" in err


def test_an_illegal_deck_is_refused_unless_allowed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = tmp_path / "tiny.txt"
    deck.write_text("[Main Personality]\n1 Goku Level 1\n1 Goku Level 2\n1 Goku Level 3\n")
    code = main(["ccg", "play", str(deck), str(deck), "--saves", str(tmp_path / "s")])
    assert code == 2
    err = capsys.readouterr().err
    assert "not legal under errata-2001" in err and "dbdeck ccg check" in err
    assert not (tmp_path / "s").exists() or not any((tmp_path / "s").iterdir())


def test_two_names_or_none(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ccg", "play", "--players", "Ann", "--saves", str(tmp_path)]) == 2
    assert "two player names" in capsys.readouterr().err


def test_setup_writes_a_file_the_host_reads(tmp_path: Path) -> None:
    import json

    from dbdeck.tabletop import registry

    out = tmp_path / "table.json"
    assert main(["ccg", "setup", "--players", "ann,bob", "--seed", "7", "-o", str(out)]) == 0
    data = json.loads(out.read_text())
    rules = registry.open_rules("ccg")
    setup = rules.read_setup(data)
    match = rules.new(setup)
    assert [r.name for r in match.roles()] == ["Goku", "Raditz"]
    assert match.summary().opponent == "bob (Raditz)"
