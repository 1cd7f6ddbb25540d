"""The game protocol: the deckbuilding game through ``Match`` and
``GameRules`` alone, as the shared layers drive it.

Like OpenSpiel's random-simulation test: random games from the offers
alone, checking after every action that what is offered is accepted, that
an illegal action changes nothing, that a clone and a JSON round trip go on
identically, and that each seat's view holds no other seat's hand.
"""

from __future__ import annotations

import json
import random

import pytest

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.match import DeckbuildingMatch, DeckbuildingRules
from dbdeck.tabletop import registry
from dbdeck.tabletop.game import GameRules, IllegalMove, Match, SetupProblem

SETUP = {"villain": "raditz", "characters": ["goku", "krillin"], "seats": [0, 1], "seed": 11}


def _rules(catalog: Catalog) -> GameRules[Match]:
    return DeckbuildingRules(catalog)  # mypy checks that it is a ``GameRules``


def _seat_plays(match: Match, seat: int) -> frozenset[str]:
    return frozenset(r.id for r in match.roles() if r.seat == seat)


def _who_acts(match: Match) -> frozenset[str]:
    asked = match.asked()
    return frozenset(r.id for r in match.roles()) if asked.together else asked.roles


def test_the_registry_opens_the_deckbuilding_game_by_its_id() -> None:
    rules = registry.open_rules("deckbuilding")
    assert rules.game_id == "deckbuilding"
    assert "deckbuilding" in registry.game_ids()
    with pytest.raises(registry.UnknownGame, match="known games: deckbuilding"):
        registry.open_rules("chess")


def test_a_setup_is_typed_and_bounded_at_the_edge(catalog: Catalog) -> None:
    rules = _rules(catalog)
    setup = rules.read_setup(SETUP)
    assert rules.setup_json(setup)["villain"] == "raditz"
    assert rules.setup_seed(setup) == 11
    with pytest.raises(SetupProblem, match="seed"):
        rules.read_setup({**SETUP, "seed": "11"})
    with pytest.raises(SetupProblem, match="colour"):
        rules.read_setup({**SETUP, "colour": "red"})
    with pytest.raises(SetupProblem, match="villain"):
        rules.new(rules.read_setup({**SETUP, "villain": "nobody"}))


def test_random_games_through_the_protocol_alone(catalog: Catalog) -> None:
    rules = _rules(catalog)
    rng = random.Random(5)
    for seed in range(3):
        match = rules.new(rules.read_setup({**SETUP, "seed": seed}))
        for _ in range(150):
            if match.over:
                assert match.result() is not None
                break
            acting = _who_acts(match)
            assert acting, "someone is asked while the game goes on"
            seat = next(r.seat for r in match.roles() if r.id in acting)
            plays = _seat_plays(match, seat)
            offers = match.offers(plays)
            assert offers
            # A seat that does not act is offered nothing.
            others = [r.seat for r in match.roles() if r.seat != seat]
            if not match.asked().together:
                for other in others:
                    assert match.offers(_seat_plays(match, other)) == []
            offer = rng.choice(offers)
            action = match.unmask(plays, offer.action)
            assert match.check(action) is None, offer.label
            twin = match.clone()
            text = json.dumps(match.to_json())
            events = match.apply(action)
            assert all(e.text for e in events)
            twin.apply(action)
            assert twin.fingerprint() == match.fingerprint()
            reread = rules.match_from_json(json.loads(text))
            reread.apply(action)
            assert reread.fingerprint() == match.fingerprint()
            assert rules.read_action(rules.action_json(action)) == action


def test_an_illegal_action_is_refused_and_changes_nothing(catalog: Catalog) -> None:
    rules = _rules(catalog)
    match = rules.new(rules.read_setup(SETUP))
    before = match.fingerprint()
    wrong = rules.read_action({"type": "buy", "card": 999_999, "market": "allies"})
    assert match.check(wrong)
    with pytest.raises(IllegalMove, match=str(match.check(wrong))):
        match.apply(wrong)
    assert match.fingerprint() == before
    assert "not an action" in str(match.check("not an action"))
    with pytest.raises(IllegalMove, match="not an action"):
        match.apply({"type": "end-turn", "amount": 3})


def test_a_seat_view_holds_its_own_hand_alone(catalog: Catalog) -> None:
    rules = _rules(catalog)
    match = rules.new(rules.read_setup(SETUP))
    assert isinstance(match, DeckbuildingMatch)
    hands = {c.id: set(c.hand) for c in match.game.state.characters}
    for role in match.roles():
        seen = json.dumps(match.view(role.seat, _seat_plays(match, role.seat)).to_json())
        shown = json.loads(seen)["hands"]
        assert [h["character"] for h in shown] == [role.id]
        other = next(c for c in hands if c != role.id)
        assert not any(f'"uid": {u},' in seen for u in hands[other])
    spectator = match.view(None, frozenset()).to_json()
    assert spectator["hands"] == []


def test_undo_stops_where_hidden_information_came_to_light(catalog: Catalog) -> None:
    rules = _rules(catalog)
    match = rules.new(rules.read_setup(SETUP))
    # Ending a turn draws a new hand: undo may not go back past it.
    acting = _who_acts(match)
    seat = next(r.seat for r in match.roles() if r.id in acting)
    plays = _seat_plays(match, seat)
    end = next(o for o in match.offers(plays) if rules.action_json(o.action)["type"] == "end-turn")
    events = match.apply(end.action)
    assert match.reveals(events) is not None
    assert match.reveals([]) is None


def test_each_game_registers_its_screens_by_id() -> None:
    """A game's table screen and its entries in another game's menu come
    from the registry, by game id."""
    from dbdeck.games.deckbuilding.tui.play import TableScreen

    assert registry.table_screen("deckbuilding") is TableScreen
    with pytest.raises(registry.UnknownGame, match="no table screen"):
        registry.table_screen("chess")
    entries = registry.menu_screens(besides="deckbuilding")
    assert [(s.game, s.id) for s in entries] == [
        ("ccg", "ccg-play"),
        ("ccg", "ccg-decks"),
        ("ccg", "ccg-howto"),
    ]
    assert registry.menu_screens(besides="ccg") == []
