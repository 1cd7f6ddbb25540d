"""After setup every card is in exactly one place and none was made from
nothing, for every Villain, Location, difficulty and Extreme Mode, and for
the solo starting Ally above all (rules note N48): set aside before the
markets are built, it is never removed by the Ruined City nor copied."""

from __future__ import annotations

import pytest

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.cards.plain import Ally
from dbdeck.games.deckbuilding.engine import audit
from dbdeck.games.deckbuilding.engine.game import Game, Setup, SetupError

RUINED_CITY = "ruined-city"


def _setups(catalog: Catalog) -> list[Setup]:
    """One setup per Villain (and scenario), Location (none, each, random),
    Extreme Mode on and off, at each difficulty in turn; with the lowest-level
    Characters the Villain allows, two of them (one against a Villain of a
    lower level)."""
    characters = sorted(catalog.characters(), key=lambda c: (c.level, c.id))
    locations = [None, "random", *sorted(loc.id for loc in catalog.locations())]
    difficulties = ("easy", "medium", "hard")
    setups = []
    for villain in sorted(catalog.villains(), key=lambda v: v.id):
        for index, location in enumerate(locations):
            for extreme in (False, True):
                chosen = [c.id for c in characters[:2]]
                setups.append(
                    Setup(
                        characters=chosen,
                        villain=villain.id,
                        location=location,
                        extreme=extreme,
                        difficulty=difficulties[index % 3],
                        seed=index,
                        ignore_levels=sum(c.level for c in characters[:2]) > villain.level,
                    )
                )
    return setups


def test_every_setup_puts_every_card_in_one_place(catalog: Catalog) -> None:
    setups = _setups(catalog)
    assert len(setups) > 200
    for setup in setups:
        game = Game.new(catalog, setup)
        assert audit.problems(game) == [], setup
        if setup.villain == "androids-17-18":
            _check_androids_allies(game)


def _check_androids_allies(game: Game) -> None:
    """The Androids' Ally Market holds 25, 20 or 15 Allies by difficulty;
    the Ruined City removes 5 of them (rules notes A1, A11)."""
    s = game.state
    market = s.markets["allies"]
    boxed = [u for u in s.box if game.card(u).kind == "ally"]
    dealt = len(market.row) + len(market.deck) + len(boxed)
    assert dealt == {"easy": 25, "medium": 20, "hard": 15}[s.difficulty], dealt
    assert len(boxed) == (5 if s.location == RUINED_CITY else 0)


def _allies(catalog: Catalog) -> list[Ally]:
    return [a for a in catalog.of_kind("ally") if isinstance(a, Ally)]


def _solo_allies(catalog: Catalog) -> list[tuple[str, str, str]]:
    """Every (Villain, Character, Ally) a solo game may start with."""
    found = []
    for villain in catalog.villains():
        if villain.level < 6:
            continue
        for character in catalog.characters():
            for ally in _allies(catalog):
                if ally.starting or ally.id in character.ally_versions:
                    continue
                if ally.power + character.level <= villain.level:
                    found.append((villain.id, character.id, ally.id))
    return sorted(found)


def test_every_solo_starting_ally_is_set_aside_before_the_ruined_city(
    catalog: Catalog,
) -> None:
    """Every Ally a solo game may start with, at the Ruined City: the chosen
    card is the Character's, one instance only, and the Ruined City removed
    ten other Allies."""
    choices = _solo_allies(catalog)
    assert len(choices) > 20
    for index, (villain, character, ally) in enumerate(choices):
        setup = Setup(
            characters=[character],
            villain=villain,
            starting_ally=ally,
            location=RUINED_CITY,
            seed=index,
        )
        _check_starting_ally(Game.new(catalog, setup), ally)


@pytest.mark.parametrize("seed", range(0, 200, 25))
def test_the_starting_ally_survives_the_ruined_city_at_every_seed(
    catalog: Catalog, seed: int
) -> None:
    """Goku solo against Broly with Piccolo (the case that once lost it), for
    seeds 0-199."""
    for each in range(seed, seed + 25):
        setup = Setup(
            characters=["goku"],
            villain="broly",
            starting_ally="piccolo-ally",
            location=RUINED_CITY,
            seed=each,
        )
        _check_starting_ally(Game.new(catalog, setup), "piccolo-ally")


def _check_starting_ally(game: Game, ally: str) -> None:
    s = game.state
    assert audit.problems(game) == []
    assert s.card_ids.count(ally) == 1  # one instance, never made anew
    # The Character's own starting Allies (Yamcha's Puar) come too.
    assert [s.card_ids[u.uid] for u in s.characters[0].allies][-1] == ally
    market = s.markets["allies"]
    boxed = [s.card_ids[u] for u in s.box if game.card(u).kind == "ally"]
    assert ally not in boxed
    assert ally not in [s.card_ids[u] for u in (*market.row, *market.deck)]
    assert len(boxed) == 10


def test_a_starting_ally_is_one_of_the_ally_markets_cards(catalog: Catalog) -> None:
    own = next(a for a in _allies(catalog) if a.starting)
    with pytest.raises(SetupError, match="starting card"):
        Game.new(
            catalog,
            Setup(characters=["goku"], villain="broly", starting_ally=own.id, seed=1),
        )
