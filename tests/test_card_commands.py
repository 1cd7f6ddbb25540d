"""``dbdeck cards show`` and ``schema``, the plain-words phrases, and the wheel."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any, get_args

import pytest
from rich.console import Console

from dbdeck.cli import main
from dbdeck.games.deckbuilding.cards import describe as words
from dbdeck.games.deckbuilding.cards import operations as fx
from dbdeck.games.deckbuilding.cards import plain
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.cards.convert import to_plain
from dbdeck.games.deckbuilding.cards.render import card_panel

REPO = Path(__file__).resolve().parent.parent


def test_every_card_draws_as_a_panel(catalog: Catalog) -> None:
    console = Console(file=io.StringIO(), width=100, color_system=None)
    for card in catalog.cards.values():
        console.print(card_panel(card, catalog))
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Sokidan" in text and "Freezer Arrives!!" in text


def test_show_prints_stats_and_effects_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "show", "sokidan"]) == 0
    out = capsys.readouterr().out
    assert "Sokidan" in out
    assert "you draw 1 card, then discard 1 card from hand" in out
    assert main(["cards", "show", "goku-ss1"]) == 0
    out = capsys.readouterr().out
    assert "Super Saiyan 1" in out and "Damage Reduction +1" in out


def test_show_unknown_card_suggests(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "show", "sokiden"]) == 1
    err = capsys.readouterr().err
    assert "no card 'sokiden'" in err and "sokidan" in err


def test_every_operation_and_condition_has_words() -> None:
    ops = get_args(plain.Effect)
    conditions = get_args(plain.Condition)
    assert set(ops) == set(words._PHRASES)
    assert set(conditions) == set(words._CONDITIONS)
    damage = to_plain(fx.Damage(op="damage", amount=2, kind="piercing"))
    assert words.describe(damage) == ("deal 2 PIERCING damage to an enemy of your choice")


def test_schema_documents_every_field(tmp_path: Path) -> None:
    target = tmp_path / "cards.schema.json"
    assert main(["cards", "schema", "-o", str(target)]) == 0
    schema = json.loads(target.read_text())
    definitions: dict[str, Any] = schema["$defs"]
    assert {"Ally", "Technique", "Villain", "Damage", "ChooseOne"} <= set(definitions)
    undocumented = [
        f"{name}.{field}"
        for name, definition in definitions.items()
        for field, prop in definition.get("properties", {}).items()
        if not prop.get("description")
    ]
    assert undocumented == []
    assert definitions["Damage"]["additionalProperties"] is False


def test_wheel_carries_the_card_set(tmp_path: Path) -> None:
    """A wheel (not an editable install) finds the shipped cards inside itself."""
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path / "dist"),
            str(REPO),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert build.returncode == 0, build.stderr
    [wheel] = (tmp_path / "dist").glob("dbdeck-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        archive.extractall(tmp_path / "site")
    assert "dbdeck/data/cards/villains/freezer.json" in names
    code = (
        "from dbdeck.games.deckbuilding.cards.catalog import shipped_cards_dir, load_catalog;"
        "print(shipped_cards_dir()); print(len(load_catalog(include_env_packs=False)))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path / "site")},
    )
    folder, count = run.stdout.split()
    assert folder == str(tmp_path / "site" / "dbdeck" / "data" / "cards")
    assert int(count) > 300
