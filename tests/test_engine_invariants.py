"""Random play from legal actions only: invariants hold after every action,
illegal actions change nothing, and saved games continue identically."""

from __future__ import annotations

import json
import random

import pytest

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine import audit
from dbdeck.games.deckbuilding.engine.actions import (
    Action,
    Attack,
    Buy,
    Choose,
    GiveBall,
    IllegalAction,
    Prepare,
    Steal,
    action_from_json,
)
from dbdeck.games.deckbuilding.engine.game import Game, Setup

TABLES = [
    ("freezer", ["goku", "krillin"]),
    ("freezer", ["oolong"]),
    ("freezer", ["goku", "krillin", "yamcha", "android-8"]),
    ("raditz", ["master-roshi"]),
    ("androids-17-18", ["goku-ss1", "piccolo", "android-8"]),
    ("androids-19-20", ["tien", "supreme-kai"]),
    ("vegeta-nappa", ["oolong", "yamcha"]),
    ("broly", ["goku-ss3"]),
]
CAP = 4000


def pick(rng: random.Random, actions: list[Action]) -> Action:
    """A random legal action, leaning away from ending the turn at once."""
    others = [a for a in actions if a.type != "end-turn"]
    return rng.choice(others) if others and rng.random() < 0.85 else rng.choice(actions)


def new_game(catalog: Catalog, villain: str, characters: list[str], seed: int) -> Game:
    return Game.new(
        catalog,
        Setup(
            characters=characters,
            villain=villain,
            seed=seed,
            extreme=seed % 2 == 1,
            location="random" if seed % 3 == 0 else None,
        ),
    )


@pytest.mark.parametrize(("villain", "characters"), TABLES)
def test_random_play_keeps_invariants(
    catalog: Catalog, villain: str, characters: list[str]
) -> None:
    for seed in range(6):
        game = new_game(catalog, villain, characters, seed)
        rng = random.Random(seed)
        for _ in range(CAP):
            if game.over:
                break
            actions = game.legal_actions()
            assert actions, f"seed {seed}: nobody can act at step {game.state.step}"
            game.apply(pick(rng, actions))
            problems = audit.problems(game)
            assert not problems, f"seed {seed}: {problems}"
        assert game.over, f"seed {seed}: the game hit the {CAP}-action cap"


def test_illegal_actions_change_nothing(catalog: Catalog) -> None:
    game = new_game(catalog, "freezer", ["goku", "krillin"], 4)
    rng = random.Random(4)
    wrong: list[Action] = [
        Buy(market="allies", card=-5),
        Attack(cards=(999,), target="v"),
        Steal(amount=9),
        Choose(option=7),
        Prepare(card=0, slot=4),
        GiveBall(source="v", target="c:goku"),
    ]
    refused = 0
    while not game.over and game.state.actions < 300:
        before = game.fingerprint()
        for action in wrong:
            if action in game.legal_actions():
                continue
            with pytest.raises(IllegalAction) as err:
                game.apply(action)
            assert err.value.reason
            assert game.fingerprint() == before
            refused += 1
        game.apply(pick(rng, game.legal_actions()))
    assert refused > 100


def test_save_and_restore_continue_identically(catalog: Catalog) -> None:
    for seed in range(4):
        game = new_game(catalog, "freezer", ["goku", "krillin"], seed)
        rng = random.Random(seed)
        stop = random.Random(seed + 100).randrange(10, 120)
        while not game.over and game.state.actions < stop:
            game.apply(pick(rng, game.legal_actions()))
        saved = json.loads(json.dumps(game.to_json()))
        copy = Game.from_json(catalog, saved)
        clone = game.clone()
        assert copy.fingerprint() == game.fingerprint() == clone.fingerprint()
        shared = random.Random(seed + 7)
        while not game.over:
            actions = game.legal_actions()
            assert actions == copy.legal_actions() == clone.legal_actions()
            action = pick(shared, actions)
            for each in (game, copy, clone):
                each.apply(action)
            assert copy.fingerprint() == game.fingerprint() == clone.fingerprint()


def test_seed_and_actions_replay_the_same_game(catalog: Catalog) -> None:
    game = new_game(catalog, "vegeta-nappa", ["krillin", "yamcha"], 12)
    rng = random.Random(12)
    log: list[dict[str, object]] = []
    while not game.over:
        action = pick(rng, game.legal_actions())
        log.append(action.to_json())
        game.apply(action)
    replay = new_game(catalog, "vegeta-nappa", ["krillin", "yamcha"], 12)
    for data in json.loads(json.dumps(log)):
        replay.apply(action_from_json(data))
    assert replay.fingerprint() == game.fingerprint()
    assert replay.state.winner == game.state.winner


def test_step_mode_plays_the_same_game(catalog: Catalog) -> None:
    """A table's step mode only pauses: the game is the same as headless."""
    plain = new_game(catalog, "freezer", ["goku", "krillin"], 9)
    stepped = new_game(catalog, "freezer", ["goku", "krillin"], 9)
    stepped.step_mode = True
    rng = random.Random(9)
    pauses = 0
    while not plain.over:
        action = pick(rng, plain.legal_actions())
        plain.apply(action)
        stepped.apply(action)
        while stepped.state.paused:
            assert stepped.legal_actions() == [] and stepped.actor() is None
            stepped.resume()
            pauses += 1
        assert stepped.fingerprint() == plain.fingerprint()
    assert pauses > 5
