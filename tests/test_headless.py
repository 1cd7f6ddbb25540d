"""The fast path of bots and searches: a headless game (no events built) and
``apply_legal`` (no second legality check) reach exactly the states a logged
game reaches through ``apply``, action for action."""

from __future__ import annotations

import random

import pytest
from golden_games import TABLES

from dbdeck.games.deckbuilding.bots import BOTS, greedy
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.actions import EndTurn, IllegalAction
from dbdeck.games.deckbuilding.engine.game import Game, Setup

SEEDS = range(6)
ACTION_CAP = 400
COMPARE_EVERY = 15
"""Whole states are compared every so many actions and at the end (the bot's
choices, which read the state, at every action)."""


def _setup(table_setup: Setup, seed: int) -> Setup:
    return Setup(**{**table_setup.to_json(), "seed": seed})


@pytest.mark.parametrize("table", TABLES, ids=[t.name for t in TABLES])
def test_a_headless_game_reaches_the_same_states(catalog: Catalog, table: object) -> None:
    """Over seeded games of every golden table, greedy and random, the
    headless twin played with ``apply_legal`` has the logged game's
    fingerprint along the way and at the end, and the bot makes the same
    choices on it at every action."""
    setup_of = table.setup  # type: ignore[attr-defined]
    logged_events = 0
    for seed in SEEDS:
        bot_name = "greedy" if seed % 2 == 0 else "random"
        bot = BOTS[bot_name]
        game = Game.new(catalog, _setup(setup_of, seed))
        fast = game.clone(headless=True)
        assert fast.headless and not game.headless
        rng, fast_rng = random.Random(seed), random.Random(seed)
        played = 0
        while not game.over and played < ACTION_CAP:
            action = bot(game, rng)
            assert bot(fast, fast_rng) == action, (table, seed, played)
            logged_events += len(game.apply(action))
            assert fast.apply_legal(action) == []
            assert fast.events == []
            played += 1
            if played % COMPARE_EVERY == 0:
                assert fast.fingerprint() == game.fingerprint(), (table, seed, played, action)
        assert fast.over == game.over
        assert fast.fingerprint() == game.fingerprint(), (table, seed, played)
    assert logged_events > 0, "the logged games built events: the comparison means something"


def test_determinized_headless_worlds_match_logged_ones(catalog: Catalog) -> None:
    """A headless world dealt from the same generator is the logged world,
    and greedy playouts on both stay identical."""
    game = Game.new(catalog, Setup(villain="freezer", characters=["goku", "krillin"], seed=4))
    rng = random.Random(4)
    for _ in range(40):
        game.apply(greedy(game, rng))
    plays = [ch.id for ch in game.state.characters]
    for world_seed in range(8):
        logged = game.determinize(plays, random.Random(world_seed))
        fast = game.determinize(plays, random.Random(world_seed), headless=True)
        assert fast.headless and fast.events == [] and logged.events == game.events
        playout, fast_playout = random.Random(world_seed), random.Random(world_seed)
        for _ in range(60):
            if logged.over:
                break
            action = greedy(logged, playout)
            assert greedy(fast, fast_playout) == action
            logged.apply(action)
            fast.apply_legal(action)
        assert fast.fingerprint() == logged.fingerprint()


def test_apply_legal_logs_what_apply_logs(catalog: Catalog) -> None:
    """Not headless, ``apply_legal`` returns the events ``apply`` returns."""
    setup = Setup(villain="raditz", characters=["piccolo", "krillin"], seed=2)
    checked, trusted = Game.new(catalog, setup), Game.new(catalog, setup)
    rng = random.Random(2)
    for _ in range(120):
        if checked.over:
            break
        action = greedy(checked, rng)
        events = checked.apply(action)
        assert [e.to_json() for e in trusted.apply_legal(action)] == [e.to_json() for e in events]


def test_apply_still_refuses_on_a_headless_game(catalog: Catalog) -> None:
    """Headless changes what is recorded, not what is allowed: ``apply``
    still refuses an illegal action and leaves the game as it was."""
    game = Game.new(catalog, Setup(villain="freezer", characters=["goku"], seed=1))
    game.headless = True
    while game.state.pending is None and not game.over:
        game.apply(greedy(game, random.Random(0)))
    before = game.fingerprint()
    with pytest.raises(IllegalAction, match="decision is pending"):
        game.apply(EndTurn())
    assert game.fingerprint() == before
