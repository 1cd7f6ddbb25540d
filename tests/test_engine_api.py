"""The engine's API: setup checks, views, actions as JSON, and rule numbers."""

from __future__ import annotations

import pytest

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine import combat
from dbdeck.games.deckbuilding.engine.actions import Attack, BuyDragonBall, action_from_json
from dbdeck.games.deckbuilding.engine.game import Game, Setup, SetupError
from dbdeck.games.deckbuilding.engine.holders import CharacterRef
from dbdeck.games.deckbuilding.engine.state import Bonus


def test_setup_refuses_levels_above_the_villain(catalog: Catalog) -> None:
    with pytest.raises(SetupError, match="add up to 2, more than Freezer's level 1"):
        Game.new(catalog, Setup(characters=["goku-ss1", "vegeta-ss1"], villain="freezer"))
    with pytest.raises(SetupError, match="unknown villain"):
        Game.new(catalog, Setup(characters=["goku"], villain="cell"))
    with pytest.raises(SetupError, match="1 to 4"):
        Game.new(catalog, Setup(characters=[], villain="freezer"))


def test_solo_starting_ally_against_broly(catalog: Catalog) -> None:
    # Vegeta SS1 (level 1) against Broly (level 6) may take an Ally of power 5 or
    # lower, even though Vegeta cannot buy Allies.
    allies = [c for c in catalog.of_kind("ally") if not c.starting]  # type: ignore[union-attr]
    strong = next(a for a in allies if a.power == 6)  # type: ignore[union-attr]
    fine = next(a for a in allies if a.power == 5)  # type: ignore[union-attr]
    with pytest.raises(SetupError, match="exceeds Broly's level 6"):
        Game.new(
            catalog, Setup(characters=["vegeta-ss1"], villain="broly", starting_ally=strong.id)
        )
    game = Game.new(
        catalog, Setup(characters=["vegeta-ss1"], villain="broly", starting_ally=fine.id)
    )
    vegeta = game.state.character("vegeta-ss1")
    assert [game.state.card_ids[u.uid] for u in vegeta.allies] == [fine.id]
    with pytest.raises(SetupError, match="only for one Character"):
        Game.new(
            catalog, Setup(characters=["vegeta-ss1"], villain="freezer", starting_ally=fine.id)
        )


def test_setup_removes_ally_versions_and_equips_starting_cards(catalog: Catalog) -> None:
    game = Game.new(catalog, Setup(characters=["goku", "master-roshi"], villain="freezer"))
    s = game.state
    market = [s.card_ids[u] for u in s.markets["allies"].deck + s.markets["allies"].row]
    assert "goku-ally" not in market and "master-roshi-ally" not in market
    assert "krillin-ally" in market
    roshi = s.character("master-roshi")
    equipped = [s.card_ids[u.uid] for u in roshi.units()]
    assert equipped == catalog.equipped_at_start(catalog["master-roshi"])  # type: ignore[arg-type]
    for ch in s.characters:
        assert len(ch.hand) == 5
    assert all(len(m.row) == 4 for m in s.markets.values())
    assert len(s.sixth) == 24


def test_action_json_round_trip() -> None:
    action = Attack(cards=(3, 4), target="v")
    assert action.to_json() == {"type": "attack", "cards": [3, 4], "target": "v"}
    assert action_from_json(action.to_json()) == action
    with pytest.raises(ValueError, match="end-turn has no field 'sneaky'"):
        action_from_json({"type": "end-turn", "sneaky": 1})
    with pytest.raises(ValueError, match="not an action"):
        action_from_json({"type": "teleport"})


def test_eliminate_on_vegeta_counts_armor_and_damage_reduction(catalog: Catalog) -> None:
    """Glossary, "Eliminate": Vegeta (9 health, Armor 1) takes 10, 11 in Super Saiyan."""
    game = Game.new(catalog, Setup(characters=["vegeta-ss1"], villain="freezer"))
    assert combat.eliminate_damage(game, CharacterRef("vegeta-ss1")) == 10
    game.state.character("vegeta-ss1").damage = 4  # damage already taken does not count
    assert combat.eliminate_damage(game, CharacterRef("vegeta-ss1")) == 10
    game.state.character("vegeta-ss1").bonuses.append(
        Bonus("damage-reduction", 1, "until-next-actions-phase")
    )
    assert combat.eliminate_damage(game, CharacterRef("vegeta-ss1")) == 11


def test_legal_actions_are_accepted(catalog: Catalog) -> None:
    game = Game.new(catalog, Setup(characters=["goku", "krillin"], villain="freezer", seed=2))
    for action in game.legal_actions():
        assert game.check(action) is None
    assert game.check(BuyDragonBall()) is not None or game.state.character("goku").energy >= 5


def test_mandatory_destroy_never_takes_starting_cards(catalog: Catalog) -> None:
    """ "Starting cards cannot be destroyed by mandatory effects … however, they
    may be voluntarily selected to be destroyed." (Destroying Cards)"""
    from dbdeck.games.deckbuilding.engine import zones

    game = Game.new(catalog, Setup(characters=["goku"], villain="freezer", seed=1))
    goku = game.state.character("goku")
    goku.hand = [game.new_uid("energy"), game.new_uid("combat-energy")]
    mandatory = zones.pile_candidates(game, goku, "hand", "energy", voluntary=False)
    voluntary = zones.pile_candidates(game, goku, "hand", "energy", voluntary=True)
    assert [game.state.card_ids[u] for u in mandatory] == ["combat-energy"]
    assert [game.state.card_ids[u] for u in voluntary] == ["energy", "combat-energy"]
