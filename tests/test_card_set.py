"""The shipped card set: complete, faithful to the rulebook's numbers, round-trippable."""

from __future__ import annotations

import json
from typing import Any, get_args

import pytest
from pydantic import TypeAdapter

from dbdeck.games.deckbuilding.cards import models
from dbdeck.games.deckbuilding.cards import plain as fx
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.cards.convert import to_plain
from dbdeck.games.deckbuilding.cards.kinds import Race
from dbdeck.games.deckbuilding.cards.plain import (
    Ally,
    ByDifficulty,
    Character,
    Energy,
    Equipment,
    Location,
    Technique,
    Training,
    Villain,
)

CARD = TypeAdapter(models.Card)


def named(catalog: Catalog, villain: str) -> set[str]:
    """Names of every card of a Villain, board included."""
    return {c.name for c in catalog.cards.values() if getattr(c, "villain", None) == villain}


def copies(catalog: Catalog, kind: str, *, market_only: bool = True) -> int:
    return sum(
        int(getattr(c, "copies", 0))
        for c in catalog.of_kind(kind)
        if not (market_only and getattr(c, "starting", False))
    )


def market(catalog: Catalog, kind: str) -> list[Any]:
    return [c for c in catalog.of_kind(kind) if not getattr(c, "starting", False)]


def test_characters_cover_every_race_and_level(catalog: Catalog) -> None:
    characters = catalog.characters()
    assert len(characters) >= 14
    assert {c.race for c in characters} == set(get_args(Race))
    assert set(range(7)) <= {c.level for c in characters}
    ids = {c.id for c in characters}
    assert {"goku", "goku-ss1", "vegeta-ss1", "krillin", "master-roshi"} <= ids


def test_rulebook_character_numbers(catalog: Catalog) -> None:
    roshi = catalog["master-roshi"]
    assert isinstance(roshi, Character)
    assert roshi.special_ability is not None and roshi.special_ability.uses == 1
    mods = roshi.cost_modifiers
    assert (mods.allies, mods.equipment, mods.training) == (-1, 1, 1)
    assert roshi.dragon_ball_cost == 4  # "Master Roshi would have to spend … 4"

    vegeta = catalog["vegeta-ss1"]
    assert isinstance(vegeta, Character)
    assert (vegeta.level, vegeta.cost_modifiers.allies, vegeta.max_health, vegeta.armor) == (
        1,
        "-",
        9,
        1,
    )

    goku = catalog["goku-ss1"]
    assert isinstance(goku, Character) and goku.armor == 1
    ability = goku.special_ability
    assert ability is not None and ability.name == "Super Saiyan 1"
    assert [type(op) for op in ability.cost] == [fx.Destroy]
    assert ability.cost[0].card_kind == "energy"  # type: ignore[union-attr]
    bonus = {type(op): op for op in ability.effects}
    assert bonus[fx.DamageBonus].amount == 2  # type: ignore[union-attr]
    assert bonus[fx.DamageReductionBonus].amount == 1  # type: ignore[union-attr]
    assert bonus[fx.DamageBonus].duration == "until-next-actions-phase"  # type: ignore[union-attr]


def test_starting_cards(catalog: Catalog) -> None:
    punch, wave, energy = catalog["punch-and-kick"], catalog["ki-wave"], catalog["energy"]
    assert isinstance(punch, Technique) and punch.technique_type == "physical"
    assert isinstance(wave, Technique) and wave.technique_type == "energy"
    assert isinstance(energy, Energy) and energy.booster is None  # Basic Energy: no booster
    for character in catalog.characters():
        own = [e.card for e in character.starting_cards]
        assert {"punch-and-kick", "ki-wave", "energy"} <= set(own), character.id
        assert any(card.startswith(character.id + "-") for card in own), character.id
    goku = catalog["goku"]
    assert isinstance(goku, Character)
    kamehameha = catalog["goku-kamehameha"]
    assert isinstance(kamehameha, Technique) and kamehameha.damage == 4


def test_some_starting_cards_begin_equipped(catalog: Catalog) -> None:
    equipped = [c.id for c in catalog.characters() if catalog.equipped_at_start(c)]
    assert len(equipped) >= 3


def test_market_sizes(catalog: Catalog) -> None:
    assert len(market(catalog, "ally")) >= 40
    assert len(market(catalog, "technique")) >= 20
    assert len(market(catalog, "energy")) >= 10
    assert len(market(catalog, "equipment")) >= 12
    assert len(market(catalog, "training")) >= 12
    assert copies(catalog, "concentrated-energy") == 18
    assert copies(catalog, "capsule") >= 1
    total = sum(
        copies(catalog, kind)
        for kind in (
            "ally",
            "technique",
            "energy",
            "equipment",
            "training",
            "concentrated-energy",
            "capsule",
        )
    )
    assert total >= 150


def test_allies(catalog: Catalog) -> None:
    mai = catalog["mai-ally"]
    assert isinstance(mai, Ally) and mai.health == 3 and mai.armor == 0
    allies = market(catalog, "ally")
    assert any(a.duo for a in allies)
    assert any(a.pay_with == "dragon-balls" for a in allies)
    for character in catalog.characters():
        for ally in character.ally_versions:
            assert catalog[ally].kind == "ally"
    assert catalog["goku-ally"].name == "Goku"


def test_named_techniques(catalog: Catalog) -> None:
    sokidan = catalog["sokidan"]
    assert isinstance(sokidan, Technique)
    assert (sokidan.technique_type, sokidan.time) == ("energy", 2)
    assert [type(op) for op in sokidan.effects] == [fx.Draw, fx.Discard]
    kikoho = catalog["kikoho"]
    assert isinstance(kikoho, Technique) and kikoho.time == 2
    arm = catalog["energy-arm"]
    assert isinstance(arm, Technique)
    assert (arm.technique_type, arm.damage, arm.damage_kind) == ("physical", 2, "piercing")
    tear = catalog["tear-apart"]
    assert isinstance(tear, Technique)
    assert (tear.technique_type, tear.damage) == ("physical", 1)
    assert [type(op) for op in tear.combo_effects] == [fx.DropDragonBall]
    techniques = market(catalog, "technique")
    assert sum(t.healing for t in techniques) >= 2
    assert any(t.exclusive.races or t.exclusive.characters for t in techniques)


def test_named_energy_and_items(catalog: Catalog) -> None:
    combat = catalog["combat-energy"]
    assert isinstance(combat, Energy)
    assert (combat.value, combat.value_for.get("training")) == (2, 3)
    divine = catalog["divine-energy"]
    assert isinstance(divine, Energy) and divine.booster
    assert any(isinstance(op, fx.Draw) and op.target != "self" for op in divine.booster)
    radar = catalog["dragon-radar"]
    assert isinstance(radar, Equipment)
    assert any(isinstance(op, fx.ExtraDragonBallPurchase) for op in radar.effects)
    pistol = catalog["pistol"]
    assert isinstance(pistol, Equipment) and pistol.exclusive.races == ["human"]
    assert any("armor" in e.keywords for e in market(catalog, "equipment"))
    rules = {t.rule: t.id for t in catalog.of_kind("training") if isinstance(t, Training)}
    assert rules["block"] == "block"
    assert rules["power-clash"] == "power-clash"
    assert rules["room-of-spirit-and-time"] == "room-of-spirit-and-time"
    room = catalog["room-of-spirit-and-time"]
    assert isinstance(room, Training)
    assert sorted(r.turns for r in room.rewards) == [1, 2, 3, 4]


VILLAIN_CARDS = {
    "freezer": {
        "Freezer's Transformations",
        "Final Form",
        "Freezer Arrives!!",
        "Guard",
        "Freezer's Army",
        "Guldo",
        "Phase 1",
    },
    "raditz": {
        "Kidnapped Victim",
        "Call for Help",
        "Saibaman",
        "Raditz's Choice",
        "Double Sunday",
        "Boosted Ki Wave",
        "Saturday Crush",
    },
    "androids-17-18": {
        "Android 18's Wishes",
        "Despair",
        "A Different Future",
        "Android 16",
        "Android 17",
        "Android 18",
    },
    "broly": {"Broly's Power", "Phase 1", "Phase 2", "Phase 3", "Paragus", "Furious Rage"},
    "androids-19-20": {"Android 19", "Android 20", "Android Activation", "Thirst for Revenge"},
    "vegeta-nappa": {"Saiyan Armor", "Coldness", "Ozaru Form", "Saibaman"},
}


@pytest.mark.parametrize("villain", sorted(VILLAIN_CARDS))
def test_villain_named_cards(catalog: Catalog, villain: str) -> None:
    board = catalog[villain]
    assert isinstance(board, Villain)
    missing = VILLAIN_CARDS[villain] - named(catalog, villain)
    assert not missing, f"{villain} lacks {sorted(missing)}"
    assert sum(e.copies for e in board.deck) >= 8


def test_villain_board_numbers(catalog: Catalog) -> None:
    levels = {v.id: v.level for v in catalog.villains()}
    assert levels["freezer"] == 1 and levels["broly"] == 6
    freezer = catalog["freezer"]
    assert isinstance(freezer, Villain)
    assert freezer.max_health == ByDifficulty(easy=40, medium=50, hard=60)
    assert freezer.armor.medium == 1  # Krillin's 4 damage becomes 3
    assert freezer.starting_minions == ["freezer-guard"]
    assert "freezer-army" in freezer.extreme_cards
    raditz = catalog["raditz"]
    assert isinstance(raditz, Villain)
    assert raditz.max_health == ByDifficulty(easy=40, medium=50, hard=60)
    assert raditz.starting_dragon_balls == 6
    assert "controls-all-dragon-balls" not in {v.condition for v in raditz.victory}
    assert [(e.card, e.copies) for e in raditz.side_decks] == [("raditz-saibaman", 6)]
    broly = catalog["broly"]
    assert isinstance(broly, Villain)
    assert broly.max_health == ByDifficulty(easy=160, medium=180, hard=220)
    androids = catalog["androids-17-18"]
    assert isinstance(androids, Villain)
    assert androids.turn_order_cards == 3
    assert androids.ally_market_size is not None
    assert androids.ally_market_size == ByDifficulty(easy=25, medium=20, hard=15)
    assert len(androids.enemies) == 2
    assert len(catalog["androids-19-20"].enemies) == 2  # type: ignore[union-attr]
    nappa = catalog["vegeta-nappa"]
    assert isinstance(nappa, Villain)
    assert [(e.card, e.copies) for e in nappa.side_decks] == [("vegeta-nappa-saibaman", 4)]


def test_locations(catalog: Catalog) -> None:
    locations = catalog.locations()
    assert len(locations) == 21
    ruined = catalog["ruined-city"]
    assert isinstance(ruined, Location)
    assert ruined.setup_effects == [
        fx.RemoveFromMarket(op="remove-from-market", market="allies", count=10)
    ]


def test_every_card_round_trips_through_json(catalog: Catalog) -> None:
    """A plain card written as card-file JSON validates back to itself."""
    for card in catalog.cards.values():
        text = json.dumps(fx.data_of(card))
        assert to_plain(CARD.validate_json(text)) == card, card.id


def test_listing_json_counts(catalog: Catalog, capsys: pytest.CaptureFixture[str]) -> None:
    from dbdeck.cli import main

    assert main(["cards", "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == len(catalog)
    assert {"id", "name", "kind", "copies"} <= set(rows[0])
    characters = [r for r in rows if r["kind"] == "character"]
    assert len(characters) == len(catalog.characters())
    assert all({"race", "level"} <= set(r) for r in characters)
    assert main(["cards", "list", "--json", "--kind", "location"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 21
