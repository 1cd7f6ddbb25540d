"""``determinize``: a world a seat cannot tell from the real one.

At random points of seeded random and greedy games, for every seat and for
a spectator: the seat's view of the world dealt again is its view of the
real game, byte for byte; each pile keeps its cards and its count (and each
Villain's deck its structure); the hidden order really changes; cards whose
place the seat knows stay there; and the world depends only on what the
seat knows and on the generator, so a bot that thinks ahead on such worlds
chooses the same in two games the seat cannot tell apart. The same for the
CCG and the toy on the game protocol (rules note N51).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from toy_game.match import ToyRules

from dbdeck.games.ccg.library import Library, load_library
from dbdeck.games.ccg.match import CcgRules
from dbdeck.games.deckbuilding import bots
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine import audit
from dbdeck.games.deckbuilding.engine.actions import Action, Choose, MarketDiscard
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.labels import action_label
from dbdeck.games.deckbuilding.engine.state import GameState
from dbdeck.games.deckbuilding.engine.view import seat_offers, seat_plays, seat_view
from dbdeck.games.deckbuilding.engine.zones import MARKETS
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.tabletop.game import GameRules, Match

TABLES = [
    Setup(villain="freezer", characters=["goku", "krillin"]),
    Setup(villain="freezer", characters=["goku"], difficulty="hard", extreme=True),
    Setup(villain="raditz", characters=["piccolo", "krillin"], extreme=True, location="random"),
    Setup(villain="vegeta-nappa", characters=["piccolo", "tien"], extreme=True),
    Setup(villain="androids-19-20", characters=["goku", "krillin", "yamcha"], location="random"),
    Setup(villain="androids-17-18", characters=["supreme-kai", "tapion"], extreme=True),
    Setup(
        villain="androids-17-18",
        characters=["gohan-ss2", "master-roshi"],
        variant="androids-17-18-a-different-future",
    ),
    Setup(villain="broly", characters=["vegeta-ss1"], starting_ally="piccolo-ally"),
    Setup(villain="broly", characters=["pikkon", "dabura", "goku", "krillin"], extreme=True),
    # One seat playing both Characters: it sees both hands.
    Setup(villain="raditz", characters=["goku", "krillin"], seats=[0, 0]),
]
SEEDS = range(2)
CAP = 220
"""Actions played per game at most."""


def _points(catalog: Catalog, setup: Setup, seed: int) -> Iterator[Game]:
    """The game at random points of a seeded game (a random bot on odd
    seeds, the greedy one on even): Villain turns, pending decisions and
    Characters' turns alike."""
    game = Game.new(catalog, dataclasses.replace(setup, seed=seed))
    rng = random.Random(seed)
    bot = bots.BOTS["random" if seed % 2 else "greedy"]
    while not game.over and game.state.actions < CAP:
        if rng.random() < 0.12:
            yield game
        if game.state.paused:
            game.resume()
        else:
            game.apply(bot(game, rng))


def _viewers(game: Game) -> list[tuple[int | None, frozenset[str]]]:
    """Each seat with the Characters it plays, and a spectator."""
    seats = sorted({c.seat for c in game.state.characters})
    return [(seat, seat_plays(game, seat)) for seat in seats] + [(None, frozenset())]


def _everywhere(catalog: Catalog) -> Iterator[tuple[Setup, Game]]:
    for setup in TABLES:
        for seed in SEEDS:
            for game in _points(catalog, setup, seed):
                yield setup, game


# --- the view --------------------------------------------------------------------------------


def test_a_seat_sees_the_same_table_in_a_world_dealt_again(catalog: Catalog) -> None:
    """Nothing the seat can see changes: its whole view (the JSON the wire
    sends) is the same, for every seat and a spectator; the real game is
    left as it was; the world keeps every card in exactly one place."""
    compared = 0
    for setup, game in _everywhere(catalog):
        before = game.fingerprint()
        known = dict(game.state.known)
        for seat, plays in _viewers(game):
            world = game.determinize(plays, random.Random(compared))
            seen = seat_view(game, seat, plays=plays).to_json()
            assert seat_view(world, seat, plays=plays).to_json() == seen, (setup.villain, seat)
            assert audit.problems(world) == []
            compared += 1
        assert game.fingerprint() == before and game.state.known == known
    assert compared > 300


def test_a_world_plays_on_from_the_seats_offers(catalog: Catalog) -> None:
    """A world is a game: the offers the seat gets in it are the ones it
    gets in the real game, and it plays on to its end from legal actions,
    every card kept in one place."""
    played = 0
    for setup in TABLES[::3]:
        for game in _points(catalog, setup, 1):
            for seat, plays in _viewers(game)[:-1]:
                world = game.determinize(plays, random.Random(played))
                real = [(o.label, o.action) for o in seat_offers(game, seat, plays=plays)]
                assert [(o.label, o.action) for o in seat_offers(world, seat, plays=plays)] == real
                rng = random.Random(played)
                while not world.over and world.state.actions < game.state.actions + 60:
                    if world.state.paused:
                        world.resume()
                    else:
                        world.apply(bots.random_bot(world, rng))
                    played += 1
                assert audit.problems(world) == []
    assert played > 1000


def test_a_question_naming_cards_of_a_hand_keeps_that_hand(catalog: Catalog) -> None:
    """While a Character answers a question that names cards of its hand
    (which card to discard), another seat's worlds keep that hand: the
    question's cards are still there, and every answer can be given."""
    asked = 0
    for setup in (TABLES[0], TABLES[3], TABLES[4]):
        for seed in SEEDS:
            game = Game.new(catalog, dataclasses.replace(setup, seed=seed))
            rng = random.Random(seed)
            while not game.over and game.state.actions < CAP:
                pending = game.state.pending
                if pending is not None and pending.decider != "players":
                    hand = game.state.character(pending.decider).hand
                    named = [o.value for o in pending.options if o.value in hand]
                    for seat, plays in _viewers(game):
                        if named and pending.decider not in plays:
                            world = game.determinize(plays, random.Random(seat or 0))
                            assert set(named) <= set(world.state.character(pending.decider).hand)
                            for option in range(len(pending.options)):
                                world.clone().apply(Choose(option=option))
                            asked += 1
                if game.state.paused:
                    game.resume()
                else:
                    game.apply(bots.greedy(game, rng))
    assert asked > 10


# --- the piles -------------------------------------------------------------------------------


def _piles(s: GameState) -> dict[str, list[int]]:
    """Every pile by name (a Character's hand and deck apart)."""
    piles: dict[str, list[int]] = {}
    for ch in s.characters:
        for name in ("hand", "deck", "discard", "played"):
            piles[f"{ch.id}.{name}"] = getattr(ch, name)
    for market in MARKETS:
        piles[f"{market}.deck"] = s.markets[market].deck
        piles[f"{market}.row"] = s.markets[market].row
    piles["sixth"] = s.sixth
    piles["villain.deck"] = s.villain.deck
    piles["villain.discard"] = s.villain.discard
    for name, side in s.villain.side_decks.items():
        piles[f"side.{name}"] = side
    return piles


def _phases(game: Game) -> list[object]:
    """The Villain deck as its structure: each card's Phase (Freezer) or
    fixed card, bottom first."""
    fixed = {"freezer-arrives", "freezer-final-form", "raditz-call-for-help"}
    ids = game.state.card_ids
    return [
        ids[u] if ids[u] in fixed else getattr(game.card(u), "phase", 0)
        for u in game.state.villain.deck
    ]


def test_each_pile_keeps_its_cards_and_each_villain_its_deck(catalog: Catalog) -> None:
    """A pile the seat cannot see keeps its count and its cards (a hand and
    deck of another Character together); what it sees stays as it is;
    Freezer's deck keeps its Phases in their places and its two fixed
    cards, Raditz's "Call for Help" stays at the bottom, Broly's table is
    untouched; the random generator is reseeded."""
    for setup, game in _everywhere(catalog):
        for _, plays in _viewers(game):
            world = game.determinize(plays, random.Random(7))
            real, dealt = _piles(game.state), _piles(world.state)
            for name, pile in real.items():
                assert len(dealt[name]) == len(pile), name
                owner, _, kind = name.partition(".")
                pooled = kind in ("hand", "deck") and owner in {c.id for c in game.state.characters}
                if pooled and owner not in plays:
                    both = Counter(real[f"{owner}.hand"] + real[f"{owner}.deck"])
                    assert Counter(dealt[f"{owner}.hand"] + dealt[f"{owner}.deck"]) == both
                elif kind in ("hand", "discard", "played", "row"):
                    assert dealt[name] == pile, name  # face up, or the seat's own hand
                else:
                    assert Counter(dealt[name]) == Counter(pile), name
            if game.state.sixth:
                assert world.state.sixth[-1] == game.state.sixth[-1]
            assert _phases(world) == _phases(game)
            if setup.villain == "broly":
                assert world.state.villain.deck == game.state.villain.deck
            assert world.state.villain.side_decks.get("raditz-kidnapped-victim") == (
                game.state.villain.side_decks.get("raditz-kidnapped-victim")
            )
            assert sorted(world.state.turn_deck) == sorted(game.state.turn_deck)
            assert world.rng.getstate() != game.rng.getstate()


def test_the_hidden_order_really_changes(catalog: Catalog) -> None:
    """Over many worlds every hidden pile of two different cards or more is
    dealt in more than one order (not a no-op), the dice differ, and the
    seat's own hand never moves."""
    game = Game.new(catalog, Setup(villain="freezer", characters=["goku", "krillin"], seed=3))
    s = game.state
    krillin = s.character("krillin")
    hidden = {
        "goku.deck": s.character("goku").deck,
        "krillin.hand": krillin.hand + krillin.deck,
        "krillin.deck": krillin.hand + krillin.deck,
        "villain.deck": s.villain.deck,
        "sixth": s.sixth[:-1],
        **{f"{m}.deck": s.markets[m].deck for m in MARKETS},
    }
    orders: dict[str, set[tuple[int, ...]]] = {name: set() for name in hidden}
    turn_decks, own_hands, rolls = set(), set(), set()
    for seed in range(30):
        world = game.determinize(frozenset({"goku"}), random.Random(seed))
        piles = _piles(world.state)
        for name in hidden:
            orders[name].add(tuple(piles[name]))
        turn_decks.add(tuple(world.state.turn_deck))
        own_hands.add(tuple(world.state.character("goku").hand))
        rolls.add(world.rng.randint(1, 1_000_000))
    for name, pile in hidden.items():
        if len({s.card_ids[u] for u in pile}) > 1:
            assert len(orders[name]) > 1, name
    assert len(turn_decks) > 1 and len(rolls) > 25
    assert own_hands == {tuple(s.character("goku").hand)}


# --- what a seat knows -----------------------------------------------------------------------


def _to_a_market_discard(catalog: Catalog) -> tuple[Game, MarketDiscard]:
    """A game where the Character acting may send a card beneath its
    market deck, and that discard."""
    game = Game.new(catalog, Setup(villain="freezer", characters=["goku", "krillin"], seed=2))
    rng = random.Random(2)
    while not game.over:
        found = [a for a in game.legal_actions() if isinstance(a, MarketDiscard)]
        if found and len(game.state.markets[found[0].market].deck) > 3:
            return game, found[0]
        game.apply(bots.greedy(game, rng))
    raise AssertionError("no market discard in this game")


def test_a_card_seen_going_beneath_its_deck_stays_there(catalog: Catalog) -> None:
    game, discard = _to_a_market_discard(catalog)
    game.apply(discard)
    deck = game.state.markets[discard.market].deck
    assert deck[0] == discard.card and game.state.known[discard.card] == ""
    above = set()
    for seed in range(20):
        for _, plays in _viewers(game):
            world = game.determinize(plays, random.Random(seed))
            assert world.state.markets[discard.market].deck[0] == discard.card
            above.add(tuple(world.state.markets[discard.market].deck[1:]))
    assert len(above) > 1
    # What the table remembers is no part of its saved form: a save replays to it.
    assert "known" not in game.to_json()["state"]


def test_a_card_put_back_on_top_is_known_to_its_player_alone(catalog: Catalog) -> None:
    """A Different Future: Gohan's fifth card goes back on top of his deck,
    seen by his player, not by Master Roshi's."""
    setup = TABLES[6]
    game = Game.set_up(catalog, setup)
    gohan = game.state.character("gohan-ss2")
    top = gohan.deck[-1]
    assert game.state.known == {top: "gohan-ss2"}
    tops = set()
    for seed in range(20):
        world = game.determinize(frozenset({"gohan-ss2"}), random.Random(seed))
        assert world.state.character("gohan-ss2").deck[-1] == top
        world = game.determinize(frozenset({"master-roshi"}), random.Random(seed))
        dealt = world.state.character("gohan-ss2").deck[-1]
        tops.add(dealt)
        # In Roshi's world Gohan's player knows the card dealt on top, and
        # nothing there names the real one.
        assert world.state.known == {dealt: "gohan-ss2"}
        assert world.state.seed != game.state.seed
    assert len(tops) > 1


def test_a_hand_known_by_elimination_stays_a_hand(catalog: Catalog) -> None:
    """Once a Character's discard pile became the deck, every player knows
    the cards left in that hand (the old deck's): they stay in the hand in
    another seat's worlds, while the new deck's order is forgotten."""
    checked = 0
    for game in _points(catalog, TABLES[0], 0):
        krillin = game.state.character("krillin")
        known = [u for u in krillin.hand if game.state.known.get(u) == ""]
        if not known:
            continue
        assert not set(krillin.deck) & set(game.state.known)
        for seed in range(5):
            world = game.determinize(frozenset({"goku"}), random.Random(seed))
            assert set(known) <= set(world.state.character("krillin").hand)
        checked += 1
    assert checked > 0


# --- fairness --------------------------------------------------------------------------------


def _outlook(game: Game) -> float:
    """How a playout's end looks for the players: damage dealt less damage
    taken, and a win or a loss above all."""
    s = game.state
    if s.winner:
        return 1000.0 if s.winner == "players" else -1000.0
    dealt = s.villain.damage + sum(s.villain.enemy_damage.values())
    return dealt - sum(ch.damage for ch in s.characters)


def _playout(world: Game, action: Action, rng: random.Random) -> float:
    """``action``, then 40 steps of the greedy bot: how it ends."""
    world.apply(action)
    for _ in range(40):
        if world.over:
            break
        if world.state.paused:
            world.resume()
        else:
            world.apply(bots.greedy(world, rng))
    return _outlook(world)


def fair_choice(game: Game, plays: frozenset[str], seed: int) -> tuple[str, list[float]]:
    """A small flat Monte Carlo bot that plays fair: it weighs the greedy
    bot's three best moves by greedy playouts on worlds dealt for its seat,
    never on the real game. Its choice (as the seat's offer label) and the
    weights."""
    rng = random.Random(seed)
    world = game.determinize(plays, rng)
    candidates = [a for a, _ in bots.ranked_candidates(world, 3)]
    weights = []
    for action in candidates:
        tries = [_playout(world.determinize(plays, rng), action, rng) for _ in range(2)]
        weights.append(sum(tries) / len(tries))
    best = max(range(len(candidates)), key=lambda i: weights[i])
    return action_label(world, candidates[best]), weights


def peeking_weights(game: Game, seed: int) -> list[float]:
    """The same bot on copies of the real game (its future included)."""
    rng = random.Random(seed)
    candidates = [a for a, _ in bots.ranked_candidates(game, 3)]
    return [_playout(game.clone(), a, rng) for a in candidates]


def test_a_fair_bot_chooses_the_same_in_games_its_seat_cannot_tell_apart(
    catalog: Catalog,
) -> None:
    """Two games that differ only in what the seat cannot know (the same
    game dealt again twice): the same seat view, and the fair bot weighs
    and chooses the same in both, its inputs being its view and its own
    generator; the world it thinks on is the same world. A bot that peeks
    at the real game weighs them differently."""
    pairs = peeked_apart = 0
    for setup in (TABLES[0], TABLES[2], TABLES[8]):
        for game in _points(catalog, setup, 0):
            s = game.state
            if s.pending is not None or s.step != "char_main" or pairs >= 18:
                continue
            plays = seat_plays(game, game.state.character(s.active).seat)
            one = game.determinize(plays, random.Random(1))
            two = game.determinize(plays, random.Random(2))
            seat = game.state.character(s.active).seat
            assert seat_view(one, seat).to_json() == seat_view(two, seat).to_json()
            assert one.fingerprint() != two.fingerprint()
            assert fair_choice(one, plays, 5) == fair_choice(two, plays, 5)
            again = [w.determinize(plays, random.Random(9)) for w in (game, one, two)]
            assert len({w.fingerprint() for w in again}) == 1
            assert len({json.dumps(sorted(w.state.known.items())) for w in again}) == 1
            if peeking_weights(one, 5) != peeking_weights(two, 5):
                peeked_apart += 1
            pairs += 1
    assert pairs >= 12
    assert peeked_apart > 0


# --- on the game protocol: every game --------------------------------------------------------

DECKS = Path(__file__).resolve().parent.parent / "cards" / "ccg" / "decks"


@pytest.fixture(scope="module")
def library() -> Library:
    return load_library(include_env_packs=False)


def _ccg_setup(seed: int) -> dict[str, Any]:
    return {
        "players": ["John", "Sandra"],
        "decks": [(DECKS / "goku.txt").read_text(), (DECKS / "raditz.txt").read_text()],
        "seed": seed,
    }


def _games(
    catalog: Catalog, library: Library
) -> list[tuple[GameRules[Match], dict[str, Any], float]]:
    """Each game with a setup and how often its random games stop to look
    (a CCG copy goes through JSON: it stops less often)."""
    deckbuilding: GameRules[Match] = DeckbuildingRules(catalog)
    ccg: GameRules[Match] = CcgRules(library)
    toy: GameRules[Match] = ToyRules()
    return [
        (
            deckbuilding,
            {"villain": "raditz", "characters": ["goku", "krillin"], "seats": [0, 1]},
            0.2,
        ),
        (ccg, _ccg_setup(0), 0.06),
        (toy, {"players": ["Ann", "Bob"], "deck": 12, "hand": 2}, 0.3),
    ]


@pytest.mark.parametrize("which", range(3))
def test_every_game_deals_fair_worlds_through_the_protocol(
    catalog: Catalog, library: Library, which: int
) -> None:
    """Through the game protocol alone: each seat's view of a world is its
    view of the match, the world changes what the seat cannot see, and two
    worlds the seat cannot tell apart are dealt into one by one generator."""
    rules, setup, often = _games(catalog, library)[which]
    varied = compared = 0
    for seed in range(3):
        match = rules.new(rules.read_setup({**setup, "seed": seed}))
        rng = random.Random(seed)
        while not match.over and match.version < 150:
            if rng.random() < often:
                for role in match.roles():
                    plays = frozenset({role.id})
                    seen = json.dumps(match.view(role.seat, plays).to_json())
                    one = match.determinize(plays, random.Random(1))
                    two = match.determinize(plays, random.Random(2))
                    assert json.dumps(one.view(role.seat, plays).to_json()) == seen
                    assert json.dumps(two.view(role.seat, plays).to_json()) == seen
                    varied += one.fingerprint() != two.fingerprint()
                    a = one.determinize(plays, random.Random(3))
                    b = two.determinize(plays, random.Random(3))
                    assert a.fingerprint() == b.fingerprint()
                    compared += 1
            if match.waiting():
                match.go_on()
            else:
                match.apply(match.bot_move(rng))
    assert compared > 10
    assert varied > compared // 2


def test_a_ccg_table_dealt_again_keeps_nothing_told_to_the_other_seat(library: Library) -> None:
    """A CCG table dealt for one seat keeps no words the log told the other
    seat alone (its draws), nor the table kept for an overrule; the cards
    the other player revealed stay in that hand."""
    rules = CcgRules(library)
    match = rules.new(rules.read_setup(_ccg_setup(4)))
    rng = random.Random(4)
    checked = 0
    full = None
    while not match.over and match.version < 120:
        match.apply(match.bot_move(rng))
        other = match.state.side(1)
        if len(other.hand) >= 3 and full is None:
            full = match.clone()
        told = [e for e in match.state.log if e.private and e.seat == 1]
        if not told:
            continue
        world = match.determinize(frozenset({"p1"}), random.Random(match.version))
        assert not [e for e in world.state.log if e.private and e.seat == 1]
        assert [e for e in world.state.log if e.seat == 0] == [
            e for e in match.state.log if e.seat == 0
        ]
        assert world.state.previous is None
        checked += 1
    assert checked > 10
    # A card Sandra revealed from her hand stays there; the rest moves.
    assert full is not None
    other = full.state.side(1)
    shown = other.hand[0]
    other.shown.add(shown)
    hands = set()
    for seed in range(10):
        world = full.determinize(frozenset({"p1"}), random.Random(seed))
        assert shown in world.state.side(1).hand
        hands.add(tuple(world.state.side(1).hand))
    assert len(hands) > 1


def test_a_ccg_fusion_timer_of_the_other_seat_is_dealt_again(library: Library) -> None:
    """The other player's timer cards lie face down beneath the anger
    counter: the seat sees how many, so a world deals them again with that
    player's hand and Life Deck (rules notes, T9 and T11)."""
    rules = CcgRules(library)
    match = rules.new(rules.read_setup(_ccg_setup(6)))
    other = match.state.side(1)
    for _ in range(3):
        uid = other.life_deck.pop(0)
        match.state.cards[uid].face_up = False
        other.timer.append(uid)
    plays = frozenset({"p1"})
    seen = json.dumps(match.view(0, plays).to_json())
    pooled = sorted([*other.hand, *other.life_deck, *other.timer])
    timers = set()
    for seed in range(12):
        world = match.determinize(plays, random.Random(seed))
        side = world.state.side(1)
        assert json.dumps(world.view(0, plays).to_json()) == seen
        assert len(side.timer) == 3
        assert sorted([*side.hand, *side.life_deck, *side.timer]) == pooled
        assert not any(world.state.cards[u].face_up for u in side.timer)
        timers.add(tuple(side.timer))
    assert len(timers) > 1
