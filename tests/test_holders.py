"""Holders: typed references inside the engine, keys at its edges, and the
save format that moved two encoded keys into fields of their own."""

from __future__ import annotations

import copy
import json
import pickle
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from golden_games import TABLES, as_recorded
from hypothesis import given
from hypothesis import strategies as st

from dbdeck import saves
from dbdeck.games.deckbuilding.bots import BOTS
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.holders import (
    VILLAIN,
    AllyRef,
    CharacterRef,
    EnemyRef,
    Holder,
    HolderError,
    MarketAllyRef,
    MinionRef,
    parse,
)
from dbdeck.games.deckbuilding.engine.state import SNAPSHOT_VERSION, upgrade_snapshot
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.saves import Session

EVERY_KIND: list[tuple[Holder, str]] = [
    (CharacterRef("goku"), "c:goku"),
    (AllyRef(12), "a:12"),
    (MinionRef(7), "m:7"),
    (EnemyRef("vegeta-nappa-nappa"), "e:vegeta-nappa-nappa"),
    (VILLAIN, "v"),
    (MarketAllyRef(30), "market:30"),
]


@pytest.mark.parametrize(("holder", "key"), EVERY_KIND)
def test_a_holder_and_its_key_name_each_other(holder: Holder, key: str) -> None:
    assert holder.key == key
    assert parse(key) is holder
    assert holder.to_json() == key


@pytest.mark.parametrize(("holder", "key"), EVERY_KIND)
def test_a_holder_is_one_object_whatever_copies_it(holder: Holder, key: str) -> None:
    assert copy.copy(holder) is holder
    assert copy.deepcopy([holder])[0] is holder
    assert pickle.loads(pickle.dumps(holder)) is holder


def test_kinds_with_the_same_number_are_different_holders() -> None:
    same_number: list[object] = [AllyRef(5), MinionRef(5), MarketAllyRef(5)]
    assert len(set(same_number)) == 3
    assert same_number[0] != same_number[1] != same_number[2] != same_number[0]
    same_id: list[object] = [CharacterRef("x"), EnemyRef("x")]
    assert same_id[0] != same_id[1]
    assert {AllyRef(5), AllyRef(5)} == {AllyRef(5)}


def test_a_holder_cannot_be_changed() -> None:
    with pytest.raises(AttributeError):
        AllyRef(3).uid = 4
    assert AllyRef(3).uid == 3


def test_match_tells_the_kinds_apart() -> None:
    def kind(holder: Holder) -> str:
        match holder:
            case CharacterRef(character_id):
                return f"Character {character_id}"
            case AllyRef(uid) | MinionRef(uid):
                return f"card {uid} in play"
            case EnemyRef(enemy_id):
                return f"enemy {enemy_id}"
            case MarketAllyRef(uid):
                return f"market card {uid}"
        return "the Villain"

    assert [kind(h) for h, _ in EVERY_KIND] == [
        "Character goku",
        "card 12 in play",
        "card 7 in play",
        "enemy vegeta-nappa-nappa",
        "the Villain",
        "market card 30",
    ]


@pytest.mark.parametrize(
    "key",
    ["", "c:", "x:goku", "c:Goku", "c:goku!", "a:", "a:-1", "a:07", "a:1e3", "m:١٢", "v ",
     "market:", "a:" + "9" * 7, "c:" + "a" * 65, "vv"],
)  # fmt: skip
def test_text_that_names_no_holder_is_refused(key: str) -> None:
    with pytest.raises(HolderError, match="not a holder"):
        parse(key)


@given(st.one_of(st.text(max_size=80), st.integers(), st.none(), st.lists(st.text())))
def test_parse_refuses_anything_else_with_its_own_error(value: Any) -> None:
    """Whatever a save, a scenario or a peer sends, reading a key either
    gives the holder whose key it is or raises ``HolderError``."""
    try:
        holder = parse(value)
    except HolderError:
        return
    assert holder.key == value


# --- the save format ------------------------------------------------------------------------


def _played(catalog: Catalog, setup: Setup, actions: int) -> Game:
    game = Game.new(catalog, setup)
    rng = random.Random(setup.seed)
    for _ in range(actions):
        if game.over:
            break
        if game.state.paused:
            game.resume()
            continue
        game.apply(BOTS["random"](game, rng))
    return game


@pytest.mark.parametrize("table", TABLES, ids=[t.name for t in TABLES])
def test_version_1_snapshots_read_back_to_the_same_game(catalog: Catalog, table: Any) -> None:
    """The old form (counters written ``armor:<enemy>`` among the Villain's
    tokens, market damage ``market:<uid>`` among the enemies') and the new
    one carry the same game both ways."""
    for seed in (3, 4):
        game = _played(catalog, Setup(**{**table.setup.to_json(), "seed": seed}), 120)
        snapshot = json.loads(json.dumps(game.to_json()))
        assert snapshot["version"] == SNAPSHOT_VERSION == 2
        old = as_recorded(snapshot)
        assert upgrade_snapshot(old) == snapshot
        assert Game.from_json(catalog, old).fingerprint() == game.fingerprint()


def test_an_enemy_s_armor_and_the_market_s_damage_have_their_fields(catalog: Catalog) -> None:
    game = Game.new(catalog, Setup(villain="vegeta-nappa", characters=["goku"], seed=1))
    v = game.state.villain
    assert set(v.enemy_tokens) == {"vegeta-nappa-vegeta", "vegeta-nappa-nappa"}
    assert all("armor" in own for own in v.enemy_tokens.values())
    assert not any(":" in counter for counter in v.tokens)
    old = as_recorded(game.to_json())
    assert {"armor:vegeta-nappa-vegeta", "armor:vegeta-nappa-nappa"} <= set(
        old["state"]["villain"]["tokens"]
    )

    game = Game.new(catalog, Setup(villain="androids-17-18", characters=["goku"], seed=1))
    uid = game.state.markets["allies"].row[0]
    game.state.markets["allies"].damage[uid] = 2
    old = as_recorded(game.to_json())
    assert old["state"]["villain"]["enemy_damage"][f"market:{uid}"] == 2
    back = Game.from_json(catalog, old)
    assert back.state.markets["allies"].damage == {uid: 2}


def test_a_version_1_save_file_still_loads(catalog: Catalog, tmp_path: Path) -> None:
    """A save written in version 1 (its snapshots in the old form) is
    migrated on reading and resumes the game it held."""
    setup = Setup(villain="vegeta-nappa", characters=["piccolo", "tien"], seed=5)
    session = Session.start(DeckbuildingRules(catalog), setup, tmp_path)
    rng = random.Random(5)
    for _ in range(40):
        session.apply(BOTS["random"](session.match.game, rng))
    expected = session.match.game.fingerprint()
    session.close()
    path = tmp_path / f"{session.id}.json"
    data = json.loads(path.read_text())
    assert data["version"] == saves.SAVE_VERSION == 3
    data["version"] = 1  # before saves named their game, too
    del data["game"]
    data["snapshot"] = as_recorded(data["snapshot"])
    assert any(":" in k for k in data["snapshot"]["state"]["villain"]["tokens"])
    path.write_text(json.dumps(data))
    resumed = Session.resume(DeckbuildingRules(catalog), tmp_path, session.id)
    assert resumed.match.game.fingerprint() == expected
    assert resumed.match.game.state.villain.enemy_tokens
    resumed.close()


def test_hostile_keys_cannot_grow_the_tables_nor_block_the_engine() -> None:
    """Reading keys adds at most 65,536 holders of a kind; past that a new
    key is refused, while the engine's own holders are still made. Run in a
    process of its own: the tables are the process's."""
    code = (
        "from dbdeck.games.deckbuilding.engine.holders import AllyRef, HolderError, parse\n"
        "n = 0\n"
        "try:\n"
        "    for uid in range(100_000, 200_000):\n"
        "        parse(f'a:{uid}'); n += 1\n"
        "except HolderError as exc:\n"
        "    print(n, exc)\n"
        "print(AllyRef(7).key, parse('a:100000') is AllyRef(100000))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == [
        "65536 too many holders read (65536 of one kind)",
        "a:7 True",
    ]
