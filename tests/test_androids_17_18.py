"""Androids 17 and 18 beyond the scenario files: what A Different Future leaves
out of the Ally Market, and whole games (with damaged market Allies, split
cards on the Time Track, the scenario) that keep every invariant and save,
restore and continue identically."""

from __future__ import annotations

import json
import random

import pytest

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine import audit
from dbdeck.games.deckbuilding.engine.actions import Action
from dbdeck.games.deckbuilding.engine.game import Game, Setup, SetupError
from dbdeck.games.deckbuilding.engine.villains.androids_17_18 import (
    DIFFERENT_FUTURE,
    FALLEN_Z_FIGHTERS,
)

FUTURE = Setup(
    characters=["gohan-ss2", "master-roshi"],
    villain="androids-17-18",
    variant=DIFFERENT_FUTURE,
)


def _ally_ids(game: Game) -> list[str]:
    market = game.state.markets["allies"]
    return [game.state.card_ids[u] for u in market.deck + market.row]


@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_a_different_future_leaves_the_fallen_out(catalog: Catalog, difficulty: str) -> None:
    for seed in range(8):
        setup = Setup(**{**FUTURE.to_json(), "seed": seed, "difficulty": difficulty})
        game = Game.new(catalog, setup)
        allies = _ally_ids(game)
        assert not FALLEN_Z_FIGHTERS & set(allies)
        # 15 Allies, less any a Villain turn at setup already eliminated.
        assert len(allies) + len(game.state.eliminated) == 15
        assert game.state.variant == DIFFERENT_FUTURE


def test_a_different_future_belongs_to_the_androids(catalog: Catalog) -> None:
    with pytest.raises(SetupError, match="not a scenario of Freezer"):
        Game.new(catalog, Setup(**{**FUTURE.to_json(), "villain": "freezer"}))
    with pytest.raises(SetupError, match="not a scenario"):
        Game.new(catalog, Setup(**{**FUTURE.to_json(), "variant": "androids-17-18-despair"}))


def _pick(rng: random.Random, game: Game) -> Action:
    actions = game.legal_actions()
    others = [a for a in actions if a.type != "end-turn"]
    return rng.choice(others) if others and rng.random() < 0.85 else rng.choice(actions)


@pytest.mark.parametrize("variant", [None, DIFFERENT_FUTURE])
def test_whole_games_keep_invariants_and_restore(catalog: Catalog, variant: str | None) -> None:
    for seed in range(3):
        characters = ["gohan-ss2", "master-roshi"] if variant else ["goku", "yamcha", "krillin"]
        game = Game.new(
            catalog,
            Setup(
                characters=characters,
                villain="androids-17-18",
                extreme=seed % 2 == 0,
                seed=seed,
                variant=variant,
            ),
        )
        rng = random.Random(seed)
        stop = random.Random(seed + 50).randrange(40, 200)
        while not game.over and game.state.actions < stop:
            game.apply(_pick(rng, game))
            assert not audit.problems(game)
        copy = Game.from_json(catalog, json.loads(json.dumps(game.to_json())))
        clone = game.clone()
        shared = random.Random(seed + 7)
        while not game.over and game.state.actions < 4000:
            action = _pick(shared, game)
            for each in (game, copy, clone):
                each.apply(action)
            assert not audit.problems(game)
        assert game.over
        assert copy.fingerprint() == game.fingerprint() == clone.fingerprint()
