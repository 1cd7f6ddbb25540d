"""What the active Character has left undone at the end of its turn: worked
out by the engine, told to the seat that plays it alone, and never a move
that would waste something."""

from __future__ import annotations

from tables import turn_game, villain_decision

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.actions import EndTurn, PlayEnergy
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.panels import TableView
from dbdeck.games.deckbuilding.engine.undone import SPENDS_ENERGY, left_undone
from dbdeck.games.deckbuilding.engine.view import seat_view
from dbdeck.games.deckbuilding.scenario import lay_table


def test_the_turn_lists_what_is_left_in_words(catalog: Catalog) -> None:
    game = turn_game(catalog)
    assert seat_view(game, 0).left_undone == (
        "2 Energy cards still in hand",
        "prepare Sokidan",
        # Each alone deals no damage (Freezer's Armor 1); together they do.
        "attack with Punch and Kick, Tear Apart",
    )
    game.apply(PlayEnergy(card=game.state.character("goku").hand[3]))
    assert seat_view(game, 0).left_undone[:2] == (
        "1 Energy card still in hand",
        "prepare Sokidan",
    )


def test_energy_is_unspent_only_when_something_would_spend_it(catalog: Catalog) -> None:
    game = turn_game(catalog)
    game.state.character("goku").energy = 3
    assert seat_view(game, 0).left_undone[0] == "3 Energy unspent"  # Sokidan costs 3
    # Nothing left to buy: the Energy has nothing to be spent on.
    for market in game.state.markets.values():
        market.row.clear()
    game.state.sixth.clear()
    assert not any(a.type in SPENDS_ENERGY for a in game.legal_actions())
    left = seat_view(game, 0).left_undone
    assert left and not any("unspent" in line for line in left), left


def test_an_attack_that_deals_no_damage_is_not_left_undone(catalog: Catalog) -> None:
    game = turn_game(catalog)
    lay_table(game, {"characters": {"goku": {"hand": ["sokidan", "punch-and-kick"]}}})
    attacks = [a for a in game.legal_actions() if a.type == "attack"]
    assert attacks  # legal, but Freezer's Armor takes all of its 1 damage
    left = seat_view(game, 0).left_undone
    assert left == ("prepare Sokidan",), left


def test_a_technique_that_would_be_lost_is_not_left_undone(catalog: Catalog) -> None:
    # Goku's first turn: Freezer's ship has not landed, so a Technique
    # prepared now may have no target when it is used.
    game = Game.new(catalog, Setup(characters=["goku", "krillin"], villain="freezer", seed=11))
    assert any(a.type == "prepare" for a in game.legal_actions())
    left = seat_view(game, 0).left_undone
    assert not any(line.startswith("prepare") for line in left), left
    # Kaio-ken's extra damage has nothing to attack this turn either (N49).
    assert not any("Kaio-ken" in line for line in left), left
    assert left == ("2 Energy cards still in hand",)


def test_only_the_seat_that_plays_the_active_character_is_told(catalog: Catalog) -> None:
    game = turn_game(catalog)
    assert seat_view(game, 0).left_undone
    assert seat_view(game, 1).left_undone == ()
    assert seat_view(game, None).left_undone == ()
    # A shared table handing Goku to the second seat hands the words over.
    assert seat_view(game, 1, plays=frozenset({"goku"})).left_undone
    assert seat_view(game, 0, plays=frozenset({"krillin"})).left_undone == ()


def test_nothing_is_left_undone_without_a_turn_to_end(catalog: Catalog) -> None:
    game = villain_decision(catalog)  # Freezer's turn: the players choose
    assert game.actor() == "players" and seat_view(game, 0).decision is not None
    assert seat_view(game, 0).left_undone == ()
    assert left_undone(game, game.legal_actions()) == ()


def test_the_next_turn_tells_its_own_seat(catalog: Catalog) -> None:
    game = turn_game(catalog)
    game.apply(EndTurn())
    assert game.state.active == "krillin"
    assert seat_view(game, 0).left_undone == ()
    assert seat_view(game, 1).left_undone


def test_the_words_cross_the_wire(catalog: Catalog) -> None:
    view = seat_view(turn_game(catalog), 0)
    assert view.left_undone
    again = TableView.from_json(view.to_json())
    assert again == view and again.left_undone == view.left_undone
    hand = again.hand("goku")
    assert hand is not None
    assert [(c.facts, c.physical) for c in hand.cards] == [
        ("E2 T2", False),
        ("P1", True),
        ("P1", True),
        ("+1", False),
        ("+1", False),
    ]
