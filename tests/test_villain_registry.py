"""A new Villain touches its card file, its module and one registry line.

The registry of ``engine/villains/__init__.py`` is the only list of the
Villains' modules: each module is registered there once, no other engine
module names one, and what a module keeps of its own lives in its own state
class, not in the shared ``VillainState``.
"""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from imported_names import imported_names

import dbdeck.games.deckbuilding.engine
from dbdeck.games.deckbuilding.engine import villains
from dbdeck.games.deckbuilding.engine.holders import CharacterRef
from dbdeck.games.deckbuilding.engine.state import (
    GameState,
    VillainOwnState,
    VillainState,
    in_every_snapshot,
    own_state_for,
    state_from_data,
    to_data,
)
from dbdeck.games.deckbuilding.engine.villains.base import VillainRules
from dbdeck.games.deckbuilding.engine.villains.broly import BrolyState
from dbdeck.games.deckbuilding.engine.villains.freezer import FreezerState

ENGINE = Path(dbdeck.games.deckbuilding.engine.__file__).parent
PACKAGE = "dbdeck.games.deckbuilding.engine.villains"
MODULES = sorted(
    p.stem for p in (ENGINE / "villains").glob("*.py") if p.stem not in ("__init__", "base")
)

SHARED_FIELDS = {
    "id",
    "damage",
    "enemy_damage",
    "defeated_enemies",
    "phase",
    "deck",
    "discard",
    "side_decks",
    "time_track",
    "minions",
    "tokens",
    "enemy_tokens",
    "armor_bonus",
    "damage_bonus",
    "damage_reduction_bonus",
    "last_form",
    "extra_turns",
    "own",
}
"""What every Villain's board has. A field one Villain alone uses belongs to
its module's own state (``OWN_STATE``), not here."""


def test_every_villain_module_is_registered_once() -> None:
    registered = [rules.__module__.rpartition(".")[2] for rules in villains._RULES.values()]
    assert sorted(registered) == MODULES
    for villain_id, rules in villains._RULES.items():
        assert issubclass(rules, VillainRules) and rules is not VillainRules, villain_id


def test_no_other_module_names_a_villain_module() -> None:
    """Only the registry names a Villain's module: not the rest of the
    engine, nor the bots, the scenario runner, the screens or the commands
    (a Villain's habits for the bots are its own typed hooks)."""
    root = Path(dbdeck.__file__).parent
    named = {
        str(path.relative_to(root)): sorted(
            name
            for name in imported_names(path)
            if any(name == f"{PACKAGE}.{m}" or name.startswith(f"{PACKAGE}.{m}.") for m in MODULES)
        )
        for path in root.rglob("*.py")
        if path.parent != ENGINE / "villains"
    }
    assert {path: found for path, found in named.items() if found} == {}


def test_the_shared_villain_state_names_no_villain() -> None:
    assert {f.name for f in fields(VillainState)} == SHARED_FIELDS


def test_each_villain_owns_its_state_class() -> None:
    for villain_id, rules in villains._RULES.items():
        own = rules.OWN_STATE
        assert issubclass(own, VillainOwnState), villain_id
        if own is not VillainOwnState:
            assert own.__module__ == rules.__module__, villain_id
        assert type(own_state_for(villain_id)) is own
        assert type(VillainState(id=villain_id).own) is own


def test_only_the_older_villains_write_their_state_in_every_snapshot() -> None:
    """Snapshots have held Freezer's arrival and Broly's Aggro token for
    every Villain since before each module owned its state; a new Villain's
    own fields appear in its own games' snapshots only."""
    always = {
        f.name
        for rules in villains._RULES.values()
        if in_every_snapshot(rules.OWN_STATE)
        for f in fields(rules.OWN_STATE)
    }
    assert always == {"arrived", "aggro"}


def test_a_villains_own_state_reads_back() -> None:
    """A Villain's own fields are written among the board's, and read back
    into its own state class."""

    broly = VillainState(id="broly")
    assert isinstance(broly.own, BrolyState)
    broly.own.aggro = CharacterRef("goku")
    data = to_data(broly)
    # The JSON form snapshots have always held: every Villain's state among the board's.
    assert data["aggro"] == "c:goku" and data["arrived"] is True and "own" not in data
    freezer = to_data(VillainState(id="freezer"))
    assert freezer["aggro"] == "" and freezer["arrived"] is True
    raditz = to_data(VillainState(id="raditz"))
    assert raditz["aggro"] == "" and raditz["arrived"] is True
    state = GameState(villain_id="broly", difficulty="medium", extreme=False, location=None, seed=1)
    state.villain = broly
    back = state_from_data(to_data(state))
    assert isinstance(back.villain.own, BrolyState) and back.villain.own.aggro == CharacterRef(
        "goku"
    )
    assert isinstance(VillainState(id="freezer").own, FreezerState)
