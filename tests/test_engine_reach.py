"""The rules' handlers work on the narrow ``Reach`` protocol, and the action
rules on ``Playing``, never on the whole ``Game``: no such module imports the
game facade, not even for an annotation (import-linter contracts skip those,
so this test reads the sources)."""

from __future__ import annotations

from pathlib import Path

import pytest
from imported_names import imported_names

import dbdeck.games.deckbuilding.engine

ENGINE = Path(dbdeck.games.deckbuilding.engine.__file__).parent

HANDLERS = sorted(
    [
        "flow.py",
        "effects.py",
        "combat.py",
        "attacks.py",
        "zones.py",
        "rules.py",
        "audit.py",
        "tasks.py",
        "state.py",
        "context.py",
        "reach.py",
        *(f"villains/{p.name}" for p in (ENGINE / "villains").glob("*.py")),
    ]
)
BELOW_THE_GAME = sorted(
    [
        "playing.py",
        "why.py",
        "preview.py",
        "waste.py",
        "undone.py",
        "labels.py",
        "tally.py",
        *(f"actions/{p.name}" for p in (ENGINE / "actions").glob("*.py")),
    ]
)
"""The action types, the listing, the reasons and the previews: they work
on the ``Playing`` protocol, below the game facade that imports them."""


@pytest.mark.parametrize("module", HANDLERS + BELOW_THE_GAME)
def test_a_handler_module_never_names_the_game_facade(module: str) -> None:
    imported = imported_names(ENGINE / module)
    assert "dbdeck.games.deckbuilding.engine.game" not in imported
    assert "dbdeck.games.deckbuilding.engine.game.Game" not in imported


def test_a_game_has_every_member_of_the_reach() -> None:
    from dbdeck.games.deckbuilding.cards.catalog import load_catalog
    from dbdeck.games.deckbuilding.engine.game import Game, Setup
    from dbdeck.games.deckbuilding.engine.reach import Reach

    game = Game.new(
        load_catalog(include_env_packs=False),
        Setup(characters=["goku", "krillin"], villain="freezer", seed=1),
    )
    members = {name for name in vars(Reach) if not name.startswith("_")}
    members |= set(Reach.__annotations__)
    assert len(members) > 20
    assert sorted(name for name in members if not hasattr(game, name)) == []
