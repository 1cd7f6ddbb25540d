"""The plain card objects: generated from the schema, faithful to it, and the
only card objects the engine sees."""

from __future__ import annotations

import copy
import inspect
import json
import pickle
import subprocess
import sys
from typing import Annotated, Any, get_args, get_origin

import pytest
from pydantic import BaseModel

from dbdeck.games.deckbuilding.cards import models, plain
from dbdeck.games.deckbuilding.cards import operations as effects
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.cards.kinds import MARKET_OF_KIND
from dbdeck.games.deckbuilding.cards.plain_source import PLAIN_PATH, plain_module_source


def _schema_classes() -> dict[str, type[BaseModel]]:
    """Every public model class of the schema, by name (the file wrapper aside)."""
    return {
        name: cls
        for module in (effects, models)
        for name, cls in vars(module).items()
        if inspect.isclass(cls)
        and issubclass(cls, BaseModel)
        and cls.__module__ == module.__name__
        and not name.startswith("_")
        and name != "CardFile"
    }


def test_plain_module_is_what_the_schema_generates() -> None:
    """plain.py is regenerated from models.py and effects.py; an edit to the
    schema without ``python -m dbdeck.games.deckbuilding.cards.plain_source`` fails here."""
    assert plain_module_source() == PLAIN_PATH.read_text(encoding="utf-8")


def test_every_class_has_the_models_fields_in_order() -> None:
    schema = _schema_classes()
    assert set(plain.CLASSES) == set(schema)
    for name, model in schema.items():
        fields = plain.CLASSES[name].FIELDS
        assert fields == tuple(model.model_fields), name


def test_class_tree_mirrors_the_schema() -> None:
    """isinstance answers as it did on the models (``Attack`` is an ``AttackBody``)."""
    schema = _schema_classes()
    for name, model in schema.items():
        bases = {b.__name__ for b in model.__mro__ if b.__name__ in schema}
        mirrored = {b.__name__ for b in plain.CLASSES[name].__mro__ if b.__name__ in schema}
        assert mirrored == bases, name
    for union in ("Card", "VillainCard", "MarketCard", "Effect", "Condition"):
        module = effects if union in ("Effect", "Condition") else models
        assert _members(getattr(plain, union)) == _members(getattr(module, union)), union


def _members(union: object) -> set[str]:
    """The class names of a union, through ``Annotated`` and nested unions."""
    if isinstance(union, type):
        return {union.__name__}
    if get_origin(union) is Annotated:
        return _members(get_args(union)[0])
    return {name for member in get_args(union) for name in _members(member)}


def test_plain_cards_are_frozen_and_slotted(catalog: Catalog) -> None:
    card = catalog["goku"]
    assert not hasattr(card, "__dict__")
    with pytest.raises(AttributeError):
        card.name = "Kakarot"
    with pytest.raises(AttributeError):
        del card.name
    assert copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(card)) == card


def test_methods_and_derived_flags(catalog: Catalog) -> None:
    roshi = catalog["master-roshi"]
    assert isinstance(roshi, plain.Character)
    assert roshi.cost_modifiers.for_market("allies") == -1
    freezer = catalog["freezer"]
    assert isinstance(freezer, plain.Villain)
    assert (freezer.max_health.at("easy"), freezer.max_health.at("hard")) == (40, 60)
    for card in catalog.cards.values():
        market = getattr(card, "MARKET", None)
        assert market == MARKET_OF_KIND.get(card.kind), card.id


def test_card_flags_are_worked_out_from_the_fields(catalog: Catalog) -> None:
    """Every card carries its flags, as the fields say, and they stay out of
    the fields: a rebuilt, unpickled or cached card has the same ones."""
    lasting_found = 0
    for card in catalog.cards.values():
        assert isinstance(card, plain.CardFlags), card.id
        cost = getattr(card, "cost", None)
        assert card.printed_cost == (0 if cost in (None, "-") else int(cost)), card.id
        assert card.energy == int(getattr(card, "value", 0)), card.id
        assert dict(card.energy_for) == getattr(card, "value_for", {}), card.id
        lasting: dict[type, list[object]] = {}
        for op in getattr(card, "effects", ()):
            if getattr(op, "duration", None) in ("while-in-play", "permanent"):
                lasting.setdefault(type(op), []).append(op)
        assert {kind: list(ops) for kind, ops in card.lasting.items()} == lasting, card.id
        lasting_found += len(lasting)
        assert not set(plain.CardFlags.DERIVED) & set(card.FIELDS)
        for twin in (pickle.loads(pickle.dumps(card)), type(card)(**plain_fields(card))):
            assert twin == card
            assert [getattr(twin, f) for f in plain.CardFlags.DERIVED] == [
                getattr(card, f) for f in plain.CardFlags.DERIVED
            ], card.id
    assert lasting_found  # the shipped set grants bonuses while in play
    assert catalog["combat-energy"].energy_for == {"training": 3}


def plain_fields(card: plain.Plain) -> dict[str, Any]:
    """A plain object's fields by name, to build its twin."""
    return {f: getattr(card, f) for f in card.FIELDS}


def test_equality_is_by_class_and_fields(catalog: Catalog) -> None:
    card = catalog["punch-and-kick"]
    rebuilt = type(card)(**{f: getattr(card, f) for f in card.FIELDS})
    assert rebuilt == card and rebuilt is not card
    op = catalog["ruined-city"].setup_effects[0]  # type: ignore[union-attr]
    twin = type(op)(**{f: getattr(op, f) for f in op.FIELDS})
    assert hash(twin) == hash(op) and twin in {op}
    assert card != catalog["energy"]
    assert json.loads(json.dumps(plain.data_of(card)))["id"] == "punch-and-kick"


def test_the_engine_imports_no_pydantic() -> None:
    """Every engine module, and a game set up from the (warm) cache, without pydantic."""
    code = (
        "import pkgutil, importlib, sys\n"
        "import dbdeck.games.deckbuilding.engine\n"
        "from dbdeck.games.deckbuilding.cards.catalog import load_catalog\n"
        "engine = dbdeck.games.deckbuilding.engine\n"
        "for info in pkgutil.walk_packages(engine.__path__, engine.__name__ + '.'):\n"
        "    importlib.import_module(info.name)\n"
        "from dbdeck.games.deckbuilding.engine.game import Game, Setup\n"
        "catalog = load_catalog(include_env_packs=False)\n"
        "game = Game.new(catalog, Setup(characters=['goku'], villain='freezer', seed=1))\n"
        "game.legal_actions()\n"
        "print(sorted(m for m in sys.modules if m.startswith('pydantic')))\n"
    )
    run = [sys.executable, "-c", code]
    subprocess.run(run, check=True, capture_output=True)  # fills the cache
    done = subprocess.run(run, check=True, capture_output=True, text=True)
    assert done.stdout.strip() == "[]"
