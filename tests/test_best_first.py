"""Bots that ask for the best legal action get the one ``max`` over the
whole listing would pick, and the kept derived values (bonus sums, costs,
Maximum Health) follow every change of the cards in play and the bonuses.

``Game.best_action`` checks candidates best-first and may leave the market
rows out when the bot says a score beats them; nothing of that may change
which action is chosen (the golden games pin the greedy bot's choices on
their tables, this test on every table of the legality contract).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Callable

import pytest
from test_legality_contract import SEEDS, TABLES, _positions

from dbdeck.games.deckbuilding import bots
from dbdeck.games.deckbuilding.cards import plain as fx
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine import rules
from dbdeck.games.deckbuilding.engine.actions import ACTION_TYPES, Action
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.state import Bonus, Unit


def _listed_best(game: Game) -> Action:
    """The greedy bot's choice the long way: score the whole listing, take
    the highest, the first listed among equals."""
    score = bots.scorer(game)
    actions = game.legal_actions()
    return max(enumerate(actions), key=lambda pair: (score(pair[1]), -pair[0]))[1]


@pytest.mark.parametrize("table", range(len(TABLES)))
def test_the_greedy_bot_picks_what_the_whole_listing_would(catalog: Catalog, table: int) -> None:
    for bot in ("random", "greedy"):
        for seed in SEEDS:
            for game in _positions(catalog, TABLES[table], bot, seed):
                expected = _listed_best(game)
                assert bots.greedy(game, random.Random(0)) == expected
                assert game.best_action(bots.scorer(game)) == expected
                ranked = bots.ranked_candidates(game)
                assert ranked[0][0] == expected
                # Every legal action once, best first, ties in listing order.
                listed = game.legal_actions()
                assert sorted(map(listed.index, (a for a, _ in ranked))) == list(range(len(listed)))
                for (a, high), (b, low) in itertools.pairwise(ranked):
                    assert high > low or (high == low and listed.index(a) < listed.index(b))
                assert bots.ranked_candidates(game, 3) == ranked[:3]


def test_ranked_answers_put_the_bots_answer_first(catalog: Catalog) -> None:
    """With a decision pending, the ranking lists every answer once, the
    greedy bot's first."""
    seen = 0
    for game in _decisions(catalog):
        pending = game.state.pending
        assert pending is not None
        ranked = bots.ranked_candidates(game)
        assert ranked[0][0] == bots.greedy(game, random.Random(0))
        assert sorted(a.option or 0 for a, _ in ranked) == list(range(len(pending.options)))
        seen += 1
    assert seen > 5


def _decisions(catalog: Catalog) -> list[Game]:
    """Positions of seeded random games where a decision with several
    answers is pending."""
    found = []
    for setup in TABLES[:4]:
        game = Game.new(catalog, dataclasses.replace(setup, seed=1))
        rng = random.Random(1)
        while not game.over and game.state.actions < 200:
            if game.state.paused:
                game.resume()
                continue
            pending = game.state.pending
            if pending is not None and len(pending.options) > 1:
                found.append(game.clone())
            game.apply(bots.random_bot(game, rng))
    return found


def _bonus_card(catalog: Catalog, op_type: type) -> str:
    """A card id of an Equipment whose lasting effects include ``op_type``."""
    for card in catalog.cards.values():
        if getattr(card, "kind", "") != "equipment":
            continue
        for op in getattr(card, "effects", ()):
            if isinstance(op, op_type) and getattr(op, "duration", "") in (
                "while-in-play",
                "permanent",
            ):
                return str(card.id)
    raise AssertionError(f"the shipped set has no Equipment with a lasting {op_type.__name__}")


def test_kept_values_follow_the_cards_in_play_and_the_bonuses(catalog: Catalog) -> None:
    game = Game.new(catalog, Setup(villain="freezer", characters=["goku", "krillin"], seed=3))
    goku = game.state.character("goku")
    printed = rules.character_max_health(game, goku)
    assert printed == game.character_card("goku").max_health

    uid = game.new_uid(_bonus_card(catalog, fx.MaxHealthBonus))
    goku.equipment.append(Unit(uid))
    raised = rules.character_max_health(game, goku)
    assert raised > printed
    assert raised == printed + rules._card_bonus(game, goku, "max-health", None)

    goku.bonuses.append(Bonus("max-health", 2, "this-turn"))
    assert rules.character_max_health(game, goku) == raised + 2
    goku.bonuses = [b for b in goku.bonuses if b.duration != "this-turn"]
    assert rules.character_max_health(game, goku) == raised

    goku.equipment.remove(goku.equipment[-1])
    assert rules.character_max_health(game, goku) == printed

    # A clone keeps its own values: a change on one table is not seen on the other.
    twin = game.clone()
    twin.state.character("goku").bonuses.append(Bonus("cost:techniques", -1, "this-turn"))
    before = rules.price_change(game, goku, "techniques")
    assert rules.price_change(twin, twin.state.character("goku"), "techniques") == (
        None if before is None else before - 1
    )
    assert rules.price_change(game, goku, "techniques") == before


def _by_type(
    by_type: dict[str, int], rows: int
) -> tuple[Callable[[Action], float], Callable[[float], bool]]:
    """A score by action type, and the truthful ``beats_rows`` that goes
    with it (``rows``: the most a buy or a market discard scores)."""
    return (lambda a: by_type[a.type]), (lambda score: score > rows)


@pytest.mark.parametrize("table", [0, 2, 4, 7])
def test_ties_between_the_rows_and_the_rest_go_to_the_first_listed(
    catalog: Catalog, table: int
) -> None:
    """With scores by action type drawn from a few values (so that buys tie
    with actions listed before and after the rows), ``best_action`` with a
    truthful ``beats_rows`` still takes the first listed of the best."""
    draw = random.Random(table)
    for game in _positions(catalog, TABLES[table], "random", 0):
        by_type = {t: draw.choice((0, 1, 2)) for t in ACTION_TYPES}
        rows = max(by_type["buy"], by_type["market-discard"])
        listed = game.legal_actions()
        expected = max(enumerate(listed), key=lambda pair: (by_type[pair[1].type], -pair[0]))[1]
        chosen = game.best_action(*_by_type(by_type, rows))
        assert chosen == expected
