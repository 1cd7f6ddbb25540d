"""The engine's queries for the table: why no action of a kind is legal, and
what an action or an answer would do.

Greedy games against every Villain are watched action by action: every kind
with no legal action has a reason (and no kind with one has any); every
attack deals what its preview said; a Steal's odds follow its die; a moot
question is one whose answers all leave the same game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from dbdeck.games.deckbuilding.bots import greedy
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.actions import Action, Choose
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.preview import attack_preview, moot_answer, steal_odds
from dbdeck.games.deckbuilding.engine.why import KINDS, card_notes, why_none
from dbdeck.games.deckbuilding.scenario import lay_table

LONGEST = 250


def watched(catalog: Catalog) -> Iterator[tuple[str, Game, Action]]:
    """Each Villain's greedy game: the game before each action, and the action."""
    for villain in catalog.villains():
        game = Game.new(catalog, Setup(characters=["goku", "krillin"], villain=villain.id, seed=2))
        rng = random.Random(2)
        for _ in range(LONGEST):
            if game.over:
                break
            action = greedy(game, rng)
            yield villain.id, game, action
            game.apply(action)


def test_every_kind_without_a_legal_action_says_why(catalog: Catalog) -> None:
    looked = 0
    for villain, game, _action in watched(catalog):
        legal = game.legal_actions()
        reasons = why_none(game, legal)
        kinds = {a.type for a in legal}
        for kind in KINDS:
            if kind in kinds:
                assert kind not in reasons, (villain, kind)
            else:
                assert reasons.get(kind), (villain, kind)
                looked += 1
        for note in card_notes(game, legal):
            assert note.reason and note.reason[0].isupper(), (villain, note)
    assert looked > 1000


def test_every_attack_deals_what_its_preview_said(catalog: Catalog) -> None:
    attacks = 0
    for villain, game, action in watched(catalog):
        if action.type != "attack":
            continue
        hit = attack_preview(game, action)
        twin = game.clone()
        events = twin.apply(action)
        source = f"c:{game.state.active}"
        dealt = next(
            (e for e in events if e.type == "damage" and e.data.get("source") == source), None
        )
        if dealt is None:
            assert not hit.taker, (villain, action)
            continue
        assert hit.taker == dealt.data["target"], (villain, action)
        assert hit.dealt <= dealt.data["amount"] <= hit.most, (villain, action)
        attacks += 1
    assert attacks > 20


def test_a_guardian_is_said_to_take_what_is_aimed_at_the_villain(catalog: Catalog) -> None:
    game = Game.new(catalog, Setup(characters=["goku", "krillin"], villain="freezer", seed=5))
    lay_table(
        game,
        {
            "active": "goku",
            "villain": {"arrived": True, "minions": ["freezer-guard"]},
            "characters": {"goku": {"hand": ["punch-and-kick", "tear-apart"]}},
        },
    )
    [combo] = [
        a
        for a in game.legal_actions()
        if a.type == "attack" and len(a.cards) == 2 and a.target == "v"
    ]
    hit = attack_preview(game, combo)
    assert hit.taker.startswith("m:") and hit.dealt == 2
    assert "the Guardian takes what is aimed at Freezer" in hit.words(game)


@pytest.mark.parametrize("held", [1, 3, 7])
def test_steal_odds_follow_the_die(catalog: Catalog, held: int) -> None:
    game = Game.new(catalog, Setup(characters=["goku"], villain="freezer", seed=5))
    lay_table(game, {"active": "goku", "villain": {"arrived": True, "dragon_balls": held}})
    one = steal_odds(game, 1)
    assert one.balls == pytest.approx(0.5) and one.damage == pytest.approx(0.5)
    assert one.some_ball == pytest.approx(0.5)
    seven = steal_odds(game, 7)
    assert seven.balls <= held and seven.damage == pytest.approx(3.5)
    assert seven.some_ball == pytest.approx(1 - 0.5**7)
    assert seven.balls >= one.balls


def test_a_moot_question_leaves_the_same_game_whatever_the_answer(catalog: Catalog) -> None:
    moot = asked = 0
    for _villain, game, _action in watched(catalog):
        if game.state.pending is None:
            continue
        answer = moot_answer(game)
        options = len(game.state.pending.options)
        if answer is None:
            asked += 1
            continue
        moot += 1
        outcomes = set()
        for option in range(options):
            twin = game.clone()
            twin.apply(Choose(option=option))
            outcomes.add(twin.fingerprint())
        assert len(outcomes) == 1
    assert asked > 0
