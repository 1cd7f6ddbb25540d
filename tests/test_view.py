"""The seat view: what each seat may see, proven by scanning what it holds.

Whole bot games against every Villain; after every action each seat's view
(two seats and a spectator) is turned into JSON and scanned against the
game's truth for hidden cards, the seed and the random generator's state.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hidden_cards import hidden_uids

from dbdeck.games.deckbuilding import bots
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine import rules
from dbdeck.games.deckbuilding.engine.actions import Buy, EndTurn
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.panels import HIDDEN, TableView
from dbdeck.games.deckbuilding.engine.state import to_data
from dbdeck.games.deckbuilding.engine.view import seat_offers, seat_view, unmask
from dbdeck.games.deckbuilding.scenario import lay_table

SEED = 73915624
"""Distinctive: it cannot turn up in a view by chance."""


def walk(data: Any) -> Iterator[tuple[str, Any]]:
    """Every (key, value) pair of a JSON tree (lists give the key ``""``)."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield key, value
            yield from walk(value)
    elif isinstance(data, list):
        for value in data:
            yield "", value
            yield from walk(value)


def leaks(game: Game, seat: int | None, data: Any) -> list[str]:
    """What ``data`` (a view or offers, as JSON) shows that ``seat`` may not see."""
    found: list[str] = []
    text = json.dumps(data)
    if str(game.state.seed) in text:
        found.append("the seed")
    if '"rng"' in text:
        found.append("the random generator")
    for number in game.rng.getstate()[1]:
        if number >= 10**6 and str(number) in text:
            found.append(f"random state {number}")
            break
    hidden = hidden_uids(game, seat)
    for key, value in walk(data):
        if key == "uid" and value != HIDDEN and value in hidden:
            found.append(f"hidden card uid {value} ({game.state.card_ids[value]})")
    # Card ids: no more copies named than the seat can see face up (a card
    # id shown more often than it lies face up names a hidden copy).
    s = game.state
    seen = Counter(s.card_ids[u] for u in range(len(s.card_ids)) if u not in hidden)
    named = Counter(
        v for k, v in walk(data) if k in ("card", "") and isinstance(v, str) and v in game.catalog
    )
    boards = {c.id for c in s.characters} | {s.villain_id, s.location or ""}
    for card_id, count in named.items():
        if card_id in boards or card_id in s.villain.side_decks:
            continue
        if count > seen[card_id]:
            found.append(f"{count} × {card_id}, {seen[card_id]} face up")
    return found


def played_games(catalog: Catalog) -> Iterator[tuple[str, Game]]:
    """A greedy game against every Villain, yielded after every action."""
    for villain in catalog.villains():
        setup = _setup_for(catalog, villain.id)
        game = Game.new(catalog, setup)
        rng = random.Random(1)
        for _ in range(400):
            yield villain.id, game
            if game.over:
                break
            game.apply(bots.greedy(game, rng))


def _setup_for(catalog: Catalog, villain: str) -> Setup:
    for pair in (["goku", "krillin"], ["krillin", "yamcha"], ["krillin", "chiaotzu"]):
        setup = Setup(characters=pair, villain=villain, seed=SEED, difficulty="easy")
        try:
            Game.new(catalog, setup)
        except ValueError:
            continue
        return setup
    raise AssertionError(f"no pair of Characters fits {villain}")


def test_no_seat_view_holds_what_its_seat_may_not_see(catalog: Catalog) -> None:
    scanned = 0
    for villain, game in played_games(catalog):
        for seat in (0, 1, None):
            view = seat_view(game, seat)
            data = view.to_json()
            assert leaks(game, seat, data) == [], (
                f"{villain}, seat {seat}, action {game.state.actions}"
            )
            offers = [o.to_json() for o in seat_offers(game, seat)]
            cards = [
                u
                for o in offers
                for u in (
                    o["action"].get("card"),
                    o["action"].get("on"),
                    *o["action"].get("cards", []),
                )
                if isinstance(u, int) and u != HIDDEN
            ]
            hidden = hidden_uids(game, seat)
            assert not hidden.intersection(cards), f"{villain}: an offer names a hidden card"
            own = {c.id for c in game.state.characters if c.seat == seat}
            assert {h.character for h in view.hands} == own
            scanned += 1
    assert scanned > 1000


def test_the_scan_finds_a_leak(catalog: Catalog) -> None:
    """The scanner is no rubber stamp: the raw state of a game leaks."""
    game = Game.new(catalog, Setup(characters=["goku", "krillin"], villain="freezer", seed=SEED))
    found = leaks(game, 0, to_data(game.state))
    assert "the seed" in found
    assert any(" face up" in f for f in found)  # the card ids of every deck
    assert leaks(game, 0, game.to_json())[:2] == ["the seed", "the random generator"]
    assert any(f.startswith("random state") for f in leaks(game, 0, game.to_json()))
    krillin = game.state.characters[1].hand[0]
    forged = {"hands": [{"cards": [{"uid": krillin, "card": game.state.card_ids[krillin]}]}]}
    assert any(f.startswith("hidden card uid") for f in leaks(game, 0, forged))
    assert leaks(game, 1, forged) == []


def test_a_view_round_trips_through_json(catalog: Catalog) -> None:
    checked = 0
    for index, (_villain, game) in enumerate(played_games(catalog)):
        if index % 25:
            continue
        for seat in (0, None):
            view = seat_view(game, seat)
            assert TableView.from_json(json.loads(json.dumps(view.to_json()))) == view
            checked += 1
    assert checked > 40


def test_numbers_come_computed(catalog: Catalog) -> None:
    """Health, costs and why a card cannot be bought are the engine's own."""
    game = Game.new(catalog, Setup(characters=["goku", "krillin"], villain="freezer", seed=5))
    game.state.characters[0].damage = 3
    view = seat_view(game, None)
    goku = view.character("goku")
    assert goku is not None and (goku.health.remaining, goku.health.maximum) == (7, 10)
    freezer = view.villain.health
    assert freezer is not None and freezer.remaining == freezer.maximum == 50
    active = game.state.character(game.state.active)
    assert view.active == active.id
    for market in view.markets:
        for offered in market.row:
            uid = offered.card.uid
            assert offered.cost == rules.buy_cost(game, active, uid, market.market)
            why = game.check(Buy(card=uid, market=market.market))
            assert offered.buyable == (why is None) and offered.why_not == (why or "")
    assert any(not m.buyable for market in view.markets for m in market.row)


def test_a_spectator_sees_no_hand_and_no_other_decision(catalog: Catalog) -> None:
    game = Game.new(catalog, Setup(characters=["goku", "krillin"], villain="freezer", seed=SEED))
    assert seat_view(game, None).hands == ()
    assert seat_view(game, None, every_hand=True).hands[1].character == "krillin"
    rng = random.Random(2)
    while not game.over:
        pending = game.state.pending
        if pending is not None and pending.decider not in ("players",):
            decider_seat = game.state.character(pending.decider).seat
            other = 1 - decider_seat
            assert seat_view(game, other).decision.options == ()  # type: ignore[union-attr]
            assert len(seat_view(game, decider_seat).decision.options) == len(pending.options)  # type: ignore[union-attr]
            return
        game.apply(bots.greedy(game, rng))
    pytest.skip("no Character's own decision in this game")


def test_a_coop_duo_purchase_masks_the_other_hand(catalog: Catalog) -> None:
    """Krillin's Energy card for Goku's Duo purchase reaches Goku's seat
    masked, and what Goku sends back is unmasked to the real purchase."""
    game = Game.new(catalog, Setup(characters=["goku", "krillin"], villain="freezer", seed=122))
    lay_table(
        game,
        {
            "active": "goku",
            "villain": {"arrived": True, "minions": []},
            "markets": {
                "allies": ["gohan-and-videl-ally", "yamcha-ally", "chi-chi-ally", "korin-ally"]
            },
            "characters": {
                "goku": {"energy": 5, "hand": ["combat-energy"], "discard": []},
                "krillin": {"hand": ["pure-energy", "energy"], "discard": []},
            },
        },
    )
    real = [a for a in game.legal_actions() if a.type == "buy" and a.cards]
    assert len(real) == 1
    offered = [o for o in seat_offers(game, 0) if o.action.type == "buy" and o.action.cards]
    assert [o.action.cards for o in offered] == [(HIDDEN,)]
    assert "Krillin" in offered[0].label and "Pure Energy" not in offered[0].label
    assert unmask(game, 0, offered[0].action) == real[0]
    assert unmask(game, 0, EndTurn()) == EndTurn()
