"""The kept validator (``core_schema.json``) is the models' own: current, as
strict, with the same messages, and set aside whenever it may not be."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from card_samples import ALLY
from pydantic import TypeAdapter, ValidationError

from dbdeck.games.deckbuilding.cards import cache as card_cache
from dbdeck.games.deckbuilding.cards import validator
from dbdeck.games.deckbuilding.cards.catalog import (
    CardSetError,
    Catalog,
    load_catalog,
    validation_problems,
)
from dbdeck.games.deckbuilding.cards.core_schema_source import core_schema_text
from dbdeck.games.deckbuilding.cards.models import CardFile
from dbdeck.games.deckbuilding.cards.plain import data_of

BAD_FILES: list[Any] = [
    [],
    {"cards": "all of them"},
    {"cards": [5]},
    {"cards": [{}]},
    {"cards": [ALLY | {"kind": "spaceship"}]},
    {"cards": [ALLY | {"hitpoints": 4}]},
    {"cards": [ALLY | {"power": "strong", "race": "saiyajin", "cost": -1}]},
    {"cards": [ALLY | {"exclusive": 5}]},
    {"cards": [ALLY | {"exclusive": {"races": ["cyborg"], "x": 1}}]},
    {"cards": [ALLY | {"exhaust_effects": [{"op": "teleport"}, {"count": 1}, 3]}]},
    {"cards": [ALLY | {"effects": [{"op": "if", "condition": {"when": "nope"}, "then": []}]}]},
    {"cards": [ALLY | {"id": "Not An Id", "name": ""}]},
    {"cards": [{"kind": "villain-card", "type": "attack", "id": "a", "name": "A"}]},
    {"cards": [{"kind": "villain-card", "type": "boss", "id": "a", "name": "A"}]},
    {"cards": [{"kind": "character", "id": "x", "name": "X", "cost_modifiers": "none"}]},
    {"cards": [], "$schema": 4, "extra": True},
]
"""Card files wrong in every way the schema can tell: the wrong shape at the
top, in a card, in a nested object, in a union tag, in a constraint."""


@functools.cache
def _fresh_kept() -> Any:
    """The kept validator as the generator makes it with the pydantic
    installed (the file itself may be for another: see above)."""
    kept = validator.validator_of(core_schema_text())
    assert kept is not None
    return kept


@pytest.fixture
def from_the_models(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The validator built from the models, as when the kept one is stale."""
    validator._validator.cache_clear()
    monkeypatch.setattr(validator, "schema_key", lambda: "models edited since")
    yield
    validator._validator.cache_clear()


def test_the_kept_schema_is_what_the_models_generate() -> None:
    """core_schema.json is rewritten from the models: an edit to the models
    without ``python -m dbdeck.games.deckbuilding.cards.core_schema_source`` fails here. Under
    another pydantic than the one it was made with (a newer release), the
    kept file is set aside and the models build the validator; the
    generator then still makes a valid one."""
    kept = json.loads(validator.SCHEMA_PATH.read_text(encoding="utf-8"))
    fresh = core_schema_text()
    if kept["pydantic"] == metadata.version("pydantic"):
        assert fresh == validator.SCHEMA_PATH.read_text(encoding="utf-8")
        assert validator._kept_validator() is not None
        validator._validator.cache_clear()
        assert not isinstance(validator._validator(), TypeAdapter)
    else:
        assert validator._kept_validator() is None
        validator._validator.cache_clear()
        assert isinstance(validator._validator(), TypeAdapter)
    assert validator.validator_of(fresh) is not None


@pytest.mark.parametrize("content", BAD_FILES)
def test_the_kept_validator_refuses_as_the_models_do(content: Any) -> None:
    data = json.dumps(content).encode()
    kept = _fresh_kept()
    with pytest.raises(ValidationError) as by_kept:
        kept.validate_json(data)
    with pytest.raises(ValidationError) as by_models:
        TypeAdapter(CardFile).validate_json(data)
    assert by_kept.value.errors() == by_models.value.errors()
    text = data.decode()
    kept_problems = validation_problems("f.json", text, by_kept.value)
    assert kept_problems == validation_problems("f.json", text, by_models.value)
    assert kept_problems


def test_the_shipped_set_loads_alike_either_way(catalog: Catalog, from_the_models: None) -> None:
    fresh = load_catalog(include_env_packs=False, use_cache=False)
    assert isinstance(validator._validator(), TypeAdapter)
    assert list(fresh.cards) == list(catalog.cards)
    assert [data_of(c) for c in fresh.cards.values()] == [
        data_of(c) for c in catalog.cards.values()
    ]
    assert [type(c) for c in fresh.cards.values()] == [type(c) for c in catalog.cards.values()]


def test_defaults_are_fresh_objects(catalog: Catalog) -> None:
    """A default made by a factory (Exclusivity) is a new object per card."""
    fresh = load_catalog(include_env_packs=False, use_cache=False)
    allies = [c for c in fresh.cards.values() if c.kind == "ally" and not c.exclusive.races]
    assert len(allies) >= 2
    assert allies[0].exclusive is not allies[1].exclusive
    assert allies[0].exclusive.races is not allies[1].exclusive.races


def test_a_stale_schema_falls_back_to_the_models(tmp_path: Path, from_the_models: None) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "allies.json").write_text(json.dumps({"cards": [ALLY | {"hitpoints": 4}]}))
    with pytest.raises(CardSetError) as err:
        load_catalog([pack], include_shipped=False, include_env_packs=False)
    assert [str(p) for p in err.value.problems] == [
        f"{pack / 'allies.json'}: card 'test-bulma-ally': hitpoints: unknown field"
    ]
    assert isinstance(validator._validator(), TypeAdapter)


def test_a_damaged_schema_file_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for text in (
        "",
        "{",
        '{"format": 1}',
        json.dumps({"format": 0, "key": validator.schema_key()}),
        json.dumps({"format": 1, "key": validator.schema_key(), "schema": {"type": "?"}}),
        json.dumps({"format": 1, "key": validator.schema_key(), "schema": [], "config": {}}),
        json.dumps({"format": 1, "key": validator.schema_key(), "cls": {"$plain": "Exploit"}}),
    ):
        path = tmp_path / "core_schema.json"
        path.write_text(text)
        monkeypatch.setattr(validator, "SCHEMA_PATH", path)
        assert validator._kept_validator() is None, text
    monkeypatch.setattr(validator, "SCHEMA_PATH", tmp_path / "missing.json")
    assert validator._kept_validator() is None


def test_a_cold_validate_imports_no_pydantic_models(tmp_path: Path) -> None:
    """With the kept validator current, a cold ``cards validate`` needs only
    pydantic-core: neither pydantic nor the models are imported."""
    code = (
        "import sys\n"
        "from dbdeck.cli import main\n"
        "code = main(['cards', 'validate'])\n"
        "print(sorted(m for m in sys.modules if m.startswith('pydantic')"
        " and not m.startswith('pydantic_core')))\n"
        "print('dbdeck.games.deckbuilding.cards.models' in sys.modules)\n"
    )
    env = {**os.environ, card_cache.CACHE_ENV: str(tmp_path / "cold")}
    env.pop("DBDECK_PACKS", None)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    lines = done.stdout.splitlines()
    assert lines[0].startswith("ok: ")
    kept = json.loads(validator.SCHEMA_PATH.read_text(encoding="utf-8"))
    if kept["pydantic"] == metadata.version("pydantic"):
        assert lines[1:] == ["[]", "False"]
    else:  # the kept file is for another pydantic: the models validate
        assert lines[2] == "True"
    assert (tmp_path / "cold" / "catalog").is_dir()  # validated, then kept
