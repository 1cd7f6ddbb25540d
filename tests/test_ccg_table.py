"""The CCG table's rules, each pinned by a short game on the shipped decks
(Goku, John's deck of the Saiyan Saga rulebook's Example of Play, and
Raditz, Sandra's), and random games through the game protocol alone."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from dbdeck.games.ccg.library import Library, load_library
from dbdeck.games.ccg.match import CcgMatch, CcgRules
from dbdeck.games.ccg.table import actions as a
from dbdeck.games.ccg.table import rules
from dbdeck.games.ccg.table.state import TableState
from dbdeck.games.ccg.table.zones import locate
from dbdeck.tabletop import registry
from dbdeck.tabletop.game import GameRules, IllegalMove, Match, SetupProblem

DECKS = Path(__file__).resolve().parent.parent / "cards" / "ccg" / "decks"
JOHN, SANDRA = 0, 1


@pytest.fixture(scope="module")
def library() -> Library:
    return load_library(include_env_packs=False)


def _setup(seed: int = 1, **extra: Any) -> dict[str, Any]:
    return {
        "players": ["John", "Sandra"],
        "decks": [(DECKS / "goku.txt").read_text(), (DECKS / "raditz.txt").read_text()],
        "seed": seed,
        **extra,
    }


def _match(library: Library, seed: int = 1, **extra: Any) -> CcgMatch:
    game = CcgRules(library)
    return game.new(game.read_setup(_setup(seed, **extra)))


def _top(state: TableState, seat: int, *titles: str) -> list[int]:
    """Put cards of these titles on top of ``seat``'s Life Deck, in order."""
    deck = state.side(seat).life_deck
    chosen: list[int] = []
    for title in titles:
        uid = next(u for u in deck if state.cards[u].title == title and u not in chosen)
        chosen.append(uid)
    rest = [u for u in deck if u not in chosen]
    deck[:] = chosen + rest
    return chosen


def _hand(state: TableState, seat: int, title: str) -> int:
    return next(u for u in state.side(seat).hand if state.cards[u].title == title)


def _do(match: CcgMatch, *actions: a.Action) -> None:
    for action in actions:
        problem = match.check(action)
        assert problem is None, f"{action}: {problem}"
        match.apply(action)


def _to_combat(match: CcgMatch, seat: int, power: int = 0) -> None:
    _do(
        match,
        a.DrawThree(seat=seat),
        a.EndNonCombat(seat=seat),
        a.PowerUp(seat=seat, stages=power),
        a.DeclareCombat(seat=seat),
    )


def test_the_registry_opens_the_ccg() -> None:
    assert "ccg" in registry.game_ids()
    assert registry.open_rules("ccg").game_id == "ccg"


def test_setup_follows_the_example_of_play(library: Library) -> None:
    """Seed 002: scouters 5 stages above 0, Warrior Swords on 0, the Hero
    goes first; Goku's stack is levels 1-3, Raditz's 1-4."""
    match = _match(library)
    state = match.state
    john, sandra = state.sides
    assert (john.stages, john.anger, sandra.stages, sandra.anger) == (5, 0, 5, 0)
    assert state.active == JOHN and state.step == "draw"
    assert [state.cards[u].level for u in john.levels] == [1, 2, 3]
    assert [state.cards[u].level for u in sandra.levels] == [1, 2, 3, 4]
    assert john.tokui_waza == "Orange"
    assert not john.hand and len(john.life_deck) == 47


def test_a_setup_is_typed_and_bounded(library: Library) -> None:
    game = CcgRules(library)
    with pytest.raises(SetupProblem, match="seed"):
        game.read_setup(_setup(seed=-1))
    with pytest.raises(SetupProblem, match="colour"):
        game.read_setup({**_setup(), "colour": "red"})
    with pytest.raises(SetupProblem, match="no Main Personality"):
        game.new(
            game.read_setup(
                {**_setup(), "decks": ["[Life Deck]\n1 Senzu Bean\n"] * 2, "allow_illegal": True}
            )
        )
    with pytest.raises(SetupProblem, match="not legal"):
        game.new(game.read_setup({**_setup(), "decks": ["[Life Deck]\n1 Senzu Bean\n"] * 2}))


def test_the_example_of_play_first_turn(library: Library) -> None:
    """Seed 002's Example of Play, John's first turn, as far as the table
    can follow it without the card texts."""
    match = _match(library)
    state = match.state
    _top(state, JOHN, "Orange Standing Fist Punch", "Orange One-Knuckle Punch", "Mother's Touch")
    _top(state, SANDRA, "Red Lunge Punch", "Black Elbow Strike", "Vegeta Level 1")
    _do(match, a.DrawThree(seat=JOHN), a.EndNonCombat(seat=JOHN))
    # No pack gives Goku's PUR: the player says 2 (PUR 1, +1 for the Tokui-Waza).
    _do(match, a.PowerUp(seat=JOHN, stages=2), a.DeclareCombat(seat=JOHN))
    assert state.side(JOHN).stages == 7
    assert len(state.side(SANDRA).hand) == 3, "the defender draws 3 when Combat is declared"
    punch = _hand(state, JOHN, "Orange One-Knuckle Punch")
    _do(match, a.Attack(seat=JOHN, source=punch, attack="physical", stages=1))
    elbow = _hand(state, SANDRA, "Black Elbow Strike")
    _do(match, a.Defend(seat=SANDRA, source=elbow, stops="physical"))
    _do(match, a.Counter(seat=SANDRA, counter="anger", delta=1))
    lunge = _hand(state, SANDRA, "Red Lunge Punch")
    _do(match, a.Attack(seat=SANDRA, source=lunge, attack="physical", stages=1))
    touch = _hand(state, JOHN, "Mother's Touch")
    _do(match, a.Defend(seat=JOHN, source=touch, stops="damage"))
    # Goku's Kamehameha: an energy attack of 1 stage for 3 life cards.
    _do(match, a.Attack(seat=JOHN, attack="energy", cost=1, life=3))
    assert state.side(JOHN).stages == 6
    # Raditz's Saiyan Energy Deflection brings it to 2: by hand, as a defence of the damage...
    before = len(state.side(SANDRA).discard)
    _do(match, a.Defend(seat=SANDRA, stops="damage"), a.DrawCards(seat=SANDRA, count=1))
    _do(match, a.MoveCard(seat=SANDRA, card=state.side(SANDRA).hand[-1], to="discard"))
    assert len(state.side(SANDRA).discard) >= before
    _do(match, a.Pass(seat=SANDRA))
    fist = _hand(state, JOHN, "Orange Standing Fist Punch")
    _do(match, a.Attack(seat=JOHN, source=fist, attack="physical", stages=1))
    _do(match, a.AllowAttack(seat=SANDRA))
    assert state.side(SANDRA).stages == 4, "the Physical Attack Table's 1: one stage lost"
    # The Standing Fist Punch raises John's anger: by hand, on his next move.
    _do(match, a.Pass(seat=SANDRA), a.Counter(seat=JOHN, counter="anger", delta=1))
    assert state.side(JOHN).anger == 1
    _do(match, a.Pass(seat=JOHN))
    assert state.combat is None and state.step in ("discard", "end")
    assert state.side(SANDRA).hand and len(state.side(SANDRA).hand) <= 2
    while state.step == "discard":
        seat = rules.asked(state)
        assert seat is not None
        keep = state.side(seat).hand[0]
        _do(match, a.DiscardDown(seat=seat, keep=keep))
    assert len(state.side(SANDRA).hand) <= 1
    assert state.step == "end", "John had Combat: no pass bonus"
    _do(match, a.EndTurn(seat=JOHN))
    assert (state.active, state.turn, state.step) == (SANDRA, 2, "draw")


def test_energy_attack_costs_two_and_deals_four(library: Library) -> None:
    """Seed 003, Energy Attacks 1-2: 2 stages, 4 life cards; the cost is
    paid when it is stopped, and an unpaid cost refuses the attack."""
    match = _match(library)
    state = match.state
    _to_combat(match, JOHN)
    deck = len(state.side(SANDRA).life_deck)
    _do(match, a.Attack(seat=JOHN, attack="energy"))
    assert state.side(JOHN).stages == 3
    _do(match, a.AllowAttack(seat=SANDRA))
    balls = sum(1 for u in state.side(SANDRA).life_deck[:0])
    assert len(state.side(SANDRA).life_deck) == deck - 4 - balls or state.side(SANDRA).removed
    _do(match, a.Attack(seat=SANDRA, attack="energy"))
    _do(match, a.Defend(seat=JOHN, source=state.side(JOHN).hand[0], stops="energy"))
    assert state.side(SANDRA).stages == 3, "a stopped attack's cost is still paid"
    _do(match, a.Counter(seat=JOHN, counter="stages", delta=-2))
    before = match.fingerprint()
    problem = match.check(a.Attack(seat=JOHN, attack="energy"))
    assert problem is not None and "cannot be performed" in problem
    with pytest.raises(IllegalMove):
        match.apply(a.Attack(seat=JOHN, attack="energy"))
    assert match.fingerprint() == before, "a refused action changes nothing"


def test_stage_damage_overflows_into_life_cards(library: Library) -> None:
    """Seed 001: four stage damage against two stages is two stages and two
    life cards."""
    match = _match(library)
    state = match.state
    _do(match, a.Counter(seat=JOHN, counter="stages", delta=-3))
    _to_combat(match, JOHN)
    _do(match, a.Pass(seat=JOHN))
    _top(state, JOHN, "Senzu Bean", "Senzu Bean")
    deck = len(state.side(JOHN).life_deck)
    _do(match, a.Attack(seat=SANDRA, attack="physical", stages=4), a.AllowAttack(seat=JOHN))
    assert state.side(JOHN).stages == 0
    assert len(state.side(JOHN).life_deck) == deck - 2


def test_a_dragon_ball_revealed_as_damage_does_not_count(library: Library) -> None:
    """Seed 003, Dragon Balls 1 and 5: to the bottom when not in play,
    removed from the game when one like it is; the damage goes on."""
    match = _match(library)
    state = match.state
    ball3, ball4 = _top(state, SANDRA, "Earth Dragon Ball 3", "Earth Dragon Ball 4")
    # John puts his own Earth Dragon Ball 4 in play: Sandra's is then a duplicate.
    _top(state, JOHN, "Earth Dragon Ball 4")
    _do(match, a.DrawThree(seat=JOHN))
    _do(match, a.PlayCard(seat=JOHN, card=_hand(state, JOHN, "Earth Dragon Ball 4")))
    _do(match, a.EndNonCombat(seat=JOHN), a.PowerUp(seat=JOHN, stages=0))
    _do(match, a.DeclareCombat(seat=JOHN))
    # Sandra's defender draw took the two balls: put them back on top.
    for uid in (ball4, ball3):
        state.side(SANDRA).hand.remove(uid)
        state.side(SANDRA).life_deck.insert(0, uid)
    deck = len(state.side(SANDRA).life_deck)
    _do(match, a.Attack(seat=JOHN, attack="energy"), a.AllowAttack(seat=SANDRA))
    assert ball3 in state.side(SANDRA).life_deck[-3:], "at the bottom (other balls may follow)"
    assert locate(state, ball4) == (SANDRA, "removed")
    discarded = [u for u in state.side(SANDRA).discard]
    assert len(discarded) == 4 and ball3 not in discarded
    assert len(state.side(SANDRA).life_deck) == deck - 5


def test_only_dragon_balls_left_loses(library: Library) -> None:
    """Seed 003, Dragon Balls 2."""
    match = _match(library)
    state = match.state
    sandra = state.side(SANDRA)
    balls = [u for u in sandra.life_deck if state.cards[u].dragon_ball is not None]
    sandra.removed.extend(u for u in sandra.life_deck if u not in balls)
    sandra.life_deck[:] = balls
    _to_combat(match, JOHN)
    _do(match, a.Attack(seat=JOHN, attack="physical", stages=6), a.AllowAttack(seat=SANDRA))
    assert match.over and state.winner == JOHN
    assert "only Dragon Balls" in state.result


def test_combat_ends_after_two_passes_and_the_pass_bonus(library: Library) -> None:
    """Seed 003, Combat 5 and Discarding 1-2."""
    match = _match(library)
    state = match.state
    _top(state, JOHN, "Senzu Bean", "Senzu Bean", "Mother's Touch")
    _to_combat(match, JOHN)
    _do(match, a.Pass(seat=JOHN))
    assert state.combat is not None and state.combat.passes == 1
    _do(match, a.Pass(seat=SANDRA))
    assert state.combat is None
    while state.step == "discard":
        seat = rules.asked(state)
        assert seat is not None
        _do(match, a.DiscardDown(seat=seat, keep=state.side(seat).hand[0]))
    assert all(len(s.hand) <= 1 for s in state.sides)
    assert state.step == "pass-bonus", "John passed his whole Combat step"
    top = state.side(JOHN).discard[-1]
    _do(match, a.PassBonus(seat=JOHN, take=True))
    assert state.side(JOHN).life_deck[-1] == top
    assert not state.cards[top].face_up


def test_a_location_skips_combat_and_replaces_the_old_one(library: Library) -> None:
    match = _match(library)
    state = match.state
    hand = state.side(JOHN)
    uid = hand.life_deck[0]
    state.cards[uid].type = "location"
    state.cards[uid].title = "A Test Location"
    _do(match, a.DrawThree(seat=JOHN), a.PlayCard(seat=JOHN, card=uid))
    assert state.location == uid
    _do(match, a.EndNonCombat(seat=JOHN), a.PowerUp(seat=JOHN, stages=0))
    assert "skipped" in (match.check(a.DeclareCombat(seat=JOHN)) or "")
    _do(match, a.SkipCombat(seat=JOHN))


def test_a_card_moved_to_the_location_slot_removes_the_one_there(library: Library) -> None:
    """Seed 001: only one Location is in play; a new one removes the previous
    one from the game, moved by hand as when placed."""
    match = _match(library)
    state = match.state
    first, second = state.side(JOHN).life_deck[:2]
    _do(match, a.DrawThree(seat=JOHN), a.MoveCard(seat=JOHN, card=first, to="location"))
    _do(match, a.MoveCard(seat=JOHN, card=second, to="location"))
    assert state.location == second
    assert locate(state, first) == (JOHN, "removed")
    assert "removing" in state.log[-1].text


def test_five_anger_raises_the_level_and_level_four_wins(library: Library) -> None:
    """Seed 003, Anger and Levels; seed 002: Raditz must reach level 4."""
    match = _match(library)
    state = match.state
    sandra = state.side(SANDRA)
    _do(
        match,
        a.DrawThree(seat=JOHN),
        a.EndNonCombat(seat=JOHN),
        a.PowerUp(seat=JOHN, stages=0),
        a.SkipCombat(seat=JOHN),
    )
    while state.step != "draw":
        seat = rules.asked(state)
        assert seat is not None
        legal = [o.action for o in match.offers(frozenset({"p1", "p2"}))]
        step = next(x for x in legal if isinstance(x, a.DiscardDown | a.PassBonus | a.EndTurn))
        _do(match, step)
    _do(match, a.Counter(seat=SANDRA, counter="stages", delta=-3))
    _do(match, a.Counter(seat=SANDRA, counter="anger", delta=4))
    assert (sandra.anger, state.cards[sandra.main].level) == (4, 1)
    _do(match, a.Counter(seat=SANDRA, counter="anger", delta=3))
    assert (sandra.anger, state.cards[sandra.main].level, sandra.stages) == (0, 2, 10), (
        "the extra anger does not carry over; the highest stage"
    )
    _do(match, a.Counter(seat=SANDRA, counter="level", delta=-1))
    assert (state.cards[sandra.main].level, sandra.stages) == (1, 5)
    _do(match, a.Counter(seat=SANDRA, counter="level", delta=2))
    assert not match.over
    _do(match, a.Counter(seat=SANDRA, counter="anger", delta=5))
    assert match.over and state.winner == SANDRA and "Most Powerful" in state.result


def test_goku_at_his_top_level_resets_at_five_anger(library: Library) -> None:
    """Seed 001: a top level that cannot win resets the anger and maximizes
    the stages."""
    match = _match(library)
    state = match.state
    john = state.side(JOHN)
    _do(match, a.Counter(seat=JOHN, counter="level", delta=2))
    _do(match, a.Counter(seat=JOHN, counter="stages", delta=-4))
    _do(match, a.Counter(seat=JOHN, counter="anger", delta=5))
    assert not match.over and (john.anger, john.stages) == (0, 10)


def test_the_final_physical_attack_is_once_and_then_passes(library: Library) -> None:
    match = _match(library)
    state = match.state
    _to_combat(match, JOHN)
    card = state.side(JOHN).hand[0]
    _do(match, a.FinalPhysicalAttack(seat=JOHN, discard=card, stages=2))
    _do(match, a.AllowAttack(seat=SANDRA), a.Pass(seat=SANDRA))
    legal = {type(o.action) for o in match.offers(frozenset({"p1"}))}
    assert a.Attack not in legal and a.FinalPhysicalAttack not in legal and a.Pass in legal


def test_five_life_cards_may_capture_a_dragon_ball(library: Library) -> None:
    """Seed 003, Capturing Dragon Balls 1, and the turned captured ball."""
    match = _match(library)
    state = match.state
    _top(state, JOHN, "Earth Dragon Ball 1")
    _do(match, a.DrawThree(seat=JOHN))
    ball = _hand(state, JOHN, "Earth Dragon Ball 1")
    _do(
        match,
        a.PlayCard(seat=JOHN, card=ball),
        a.EndNonCombat(seat=JOHN),
        a.PowerUp(seat=JOHN, stages=0),
        a.DeclareCombat(seat=JOHN),
        a.Pass(seat=JOHN),
    )
    state.side(JOHN).life_deck[:] = [
        u for u in state.side(JOHN).life_deck if state.cards[u].dragon_ball is None
    ] + [u for u in state.side(JOHN).life_deck if state.cards[u].dragon_ball is not None]
    _do(match, a.Attack(seat=SANDRA, attack="energy", life=5), a.AllowAttack(seat=JOHN))
    assert state.combat is not None and state.combat.phase == "capture"
    assert rules.asked(state) == SANDRA
    _do(match, a.Capture(seat=SANDRA, ball=ball, powers=True))
    assert locate(state, ball) == (SANDRA, "dragon-balls")
    assert state.cards[ball].turned and state.cards[ball].owner == JOHN


def test_one_dragon_ball_of_each_number_in_play(library: Library) -> None:
    """Seed 002: "there can only be one Dragon Ball One in play at a time"."""
    match = _match(library)
    state = match.state
    _top(state, JOHN, "Earth Dragon Ball 3")
    _do(match, a.DrawThree(seat=JOHN))
    _do(match, a.PlayCard(seat=JOHN, card=_hand(state, JOHN, "Earth Dragon Ball 3")))
    _do(match, a.EndNonCombat(seat=JOHN), a.PowerUp(seat=JOHN, stages=0), a.SkipCombat(seat=JOHN))
    while state.step != "draw":
        legal = [o.action for o in match.offers(frozenset({"p1", "p2"}))]
        _do(match, next(x for x in legal if isinstance(x, a.DiscardDown | a.PassBonus | a.EndTurn)))
    _top(state, SANDRA, "Earth Dragon Ball 3")
    _do(match, a.DrawThree(seat=SANDRA))
    problem = match.check(a.PlayCard(seat=SANDRA, card=_hand(state, SANDRA, "Earth Dragon Ball 3")))
    assert problem is not None and "only be one" in problem


def test_a_search_is_private(library: Library) -> None:
    """Seed 001: the opponent sees that you are searching, not the results."""
    match = _match(library)
    _do(match, a.StartSearch(seat=JOHN))
    mine = match.view(0, frozenset({"p1"}))
    theirs = match.view(1, frozenset({"p2"}))
    assert mine.seats[0].searching and len(mine.seats[0].search) == 47
    assert theirs.seats[0].searching and theirs.seats[0].search == ()
    take = match.state.side(JOHN).life_deck[5]
    _do(match, a.SearchTake(seat=JOHN, cards=(take,)), a.FinishSearch(seat=JOHN))
    after = match.view(1, frozenset({"p2"}))
    assert [f.uid for f in after.seats[0].hand] == [take], "the chosen card is shown"
    assert match.state.side(JOHN).cut_offered


def test_suggest_mode_suggests_damage_without_dealing_it(library: Library) -> None:
    match = _match(library, adjudication="suggest")
    state = match.state
    _to_combat(match, JOHN)
    deck = len(state.side(SANDRA).life_deck)
    _do(match, a.Attack(seat=JOHN, attack="physical", stages=3), a.AllowAttack(seat=SANDRA))
    assert state.side(SANDRA).stages == 5 and len(state.side(SANDRA).life_deck) == deck
    assert "loses 3 stages" in state.suggestion


def _who_acts(match: Match) -> frozenset[str]:
    return match.asked().roles


def _uids(data: Any) -> set[int]:
    found: set[int] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "uid" and isinstance(value, int):
                found.add(value)
            else:
                found |= _uids(value)
    elif isinstance(data, list):
        for value in data:
            found |= _uids(value)
    return found


def _ids_of_hidden_faces(data: Any) -> set[str]:
    """The card ids a view gives its hidden faces (there must be none)."""
    found: set[str] = set()
    if isinstance(data, dict):
        if data.get("uid") == -1 and data.get("card_id"):
            found.add(str(data["card_id"]))
        for value in data.values():
            found |= _ids_of_hidden_faces(value)
    elif isinstance(data, list):
        for value in data:
            found |= _ids_of_hidden_faces(value)
    return found


def _hidden_from(state: TableState, viewer: int | None) -> set[int]:
    hidden: set[int] = set()
    for side in state.sides:
        if side.seat == viewer:
            continue
        hidden |= {u for u in side.hand if u not in side.shown}
        hidden |= set(side.life_deck) | set(side.sensei_deck) | set(side.timer)
        for zone in (side.non_combat, side.drills, side.allies, side.dragon_balls):
            hidden |= {u for u in zone if not state.cards[u].face_up}
    own = state.side(viewer) if viewer is not None else None
    if own is not None and not own.searching:
        hidden |= set(own.life_deck)
    return hidden


@pytest.mark.parametrize("seed", range(6))
def test_random_games_through_the_protocol(library: Library, seed: int) -> None:
    """OpenSpiel's random simulation test: every offer is accepted, a clone
    and a JSON round trip go on identically, and no view shows a card its
    seat may not see (scanned in the view's JSON)."""
    game: GameRules[Match] = CcgRules(library)
    match = game.new(game.read_setup(_setup(seed)))
    rng = random.Random(seed)
    for step in range(400):
        if match.over:
            break
        plays = _who_acts(match)
        offers = match.offers(plays)
        assert offers, "someone can always act until the game is over"
        for offer in offers:
            assert match.check(offer.action) is None, offer.label
        turnish = [o for o in offers if o.to_json()["group"] != "card"]
        offer = rng.choice(turnish if rng.random() < 0.85 else offers)
        if step % 40 == 0:
            twin = game.match_from_json(json.loads(json.dumps(match.to_json())))
            twin.apply(offer.action)
        else:
            twin = None
        match.apply(offer.action)
        if twin is not None:
            assert twin.fingerprint() == match.fingerprint()
        again = game.read_action(json.loads(json.dumps(game.action_json(offer.action))))
        assert again == offer.action
        assert isinstance(match, CcgMatch)
        for seat, role in ((0, "p1"), (1, "p2"), (None, "")):
            view = match.view(seat, frozenset({role}) if role else frozenset())
            shown = _uids(view.to_json())
            leaked = shown & _hidden_from(match.state, seat)
            assert not leaked, f"seat {seat} sees {[match.state.cards[u].title for u in leaked]}"
            assert not _ids_of_hidden_faces(view.to_json()), "a hidden face names its card"
            text = json.dumps(view.to_json())
            for entry in match.state.log[-60:]:
                if entry.private and entry.seat != seat:
                    assert entry.private not in text
            game.read_view(json.loads(text))


def test_an_action_is_exactly_its_fields(library: Library) -> None:
    game = CcgRules(library)
    assert game.read_action({"kind": "pass", "seat": 0}) == a.Pass(seat=0)
    with pytest.raises(ValueError, match="has no field 'card'"):
        game.read_action({"kind": "pass", "seat": 0, "card": 3})
    with pytest.raises(ValueError, match="kind 'fly'"):
        game.read_action({"kind": "fly", "seat": 0})
    with pytest.raises(ValueError, match="out of bounds"):
        game.read_action({"kind": "draw-cards", "seat": 0, "count": 10**9})
    reveal = game.read_action({"kind": "reveal", "seat": 1, "cards": [4, 5]})
    assert reveal == a.Reveal(seat=1, cards=(4, 5))


def test_an_action_naming_an_unseen_card_is_caught(library: Library) -> None:
    match = _match(library)
    hidden = match.state.side(SANDRA).life_deck[0]
    assert match.names_unseen(0, frozenset({"p1"}), a.MoveCard(seat=0, card=hidden, to="hand"))
    own = match.state.side(JOHN).life_deck[0]
    assert match.names_unseen(0, frozenset({"p1"}), a.MoveCard(seat=0, card=own, to="hand"))


def test_a_capturing_ally_in_control_captures_instead_of_damage(library: Library) -> None:
    """Seed 003, Allies in Combat 2 (control at 0 or 1 stage above 0) and
    Capturing Dragon Balls 2 (Krillin captures instead of the life cards)."""
    match = _match(library)
    state = match.state
    sandra = state.side(SANDRA)
    ball = next(u for u in sandra.life_deck if state.cards[u].dragon_ball is not None)
    sandra.life_deck.remove(ball)
    sandra.dragon_balls.append(ball)
    _top(state, JOHN, "Krillin Level 1")
    _do(match, a.DrawThree(seat=JOHN))
    krillin = _hand(state, JOHN, "Krillin Level 1")
    _do(
        match,
        a.PlayCard(seat=JOHN, card=krillin),
        a.EndNonCombat(seat=JOHN),
        a.PowerUp(seat=JOHN, stages=0),
        a.DeclareCombat(seat=JOHN),
    )
    assert state.cards[krillin].stages == 5
    problem = match.check(a.TakeControl(seat=JOHN, personality=krillin))
    assert problem is not None and "0 or 1 stage" in problem
    _do(match, a.Counter(seat=JOHN, counter="stages", delta=-4))
    _do(match, a.TakeControl(seat=JOHN, personality=krillin))
    sandra.stages = 0
    deck = len(sandra.life_deck)
    _do(match, a.Attack(seat=JOHN, attack="physical", stages=2), a.AllowAttack(seat=SANDRA))
    assert state.combat is not None and state.combat.phase == "capture"
    _do(match, a.Capture(seat=JOHN, ball=ball))
    assert locate(state, ball) == (JOHN, "dragon-balls")
    assert len(sandra.life_deck) == deck, "the capture replaces the life cards of damage"


def test_an_ally_shares_the_main_personality_alignment(library: Library) -> None:
    """Seed 003, Allies 3: Hero Main Personalities have only Hero Allies."""
    match = _match(library)
    state = match.state
    _top(state, JOHN, "Krillin Level 1")
    _do(match, a.DrawThree(seat=JOHN))
    krillin = _hand(state, JOHN, "Krillin Level 1")
    vegeta = next(
        u for u in state.side(SANDRA).life_deck if state.cards[u].title.startswith("Vegeta Level 1")
    )
    state.side(SANDRA).life_deck.remove(vegeta)
    state.side(JOHN).hand.append(vegeta)
    state.cards[vegeta].owner = JOHN
    problem = match.check(a.PlayCard(seat=JOHN, card=vegeta))
    assert problem is not None and "villain" in problem
    _do(match, a.PlayCard(seat=JOHN, card=krillin))
    assert locate(state, krillin) == (JOHN, "allies")


def _zones_of(state: TableState) -> list[int]:
    every: list[int] = []
    for side in state.sides:
        for zone in (
            side.life_deck,
            side.hand,
            side.discard,
            side.removed,
            side.non_combat,
            side.drills,
            side.allies,
            side.dragon_balls,
            side.set_aside,
            side.sensei_deck,
            side.levels,
            side.timer,
        ):
            every.extend(zone)
        every.extend(u for u in (side.mastery, side.sensei) if u is not None)
        if side.fusion is not None and side.fused_main:
            every.append(side.fusion)
    if state.location is not None:
        every.append(state.location)
    every.extend(u for u, c in state.cards.items() if c.attached_to is not None)
    return every


@pytest.mark.parametrize("profile", ["errata-2001", "saiyan-2000", "digest"])
def test_bot_games_conserve_cards_keep_counters_in_range_and_end(
    library: Library, profile: str
) -> None:
    """Seeded sparring-bot games against each other: every card is in
    exactly one place after every action, stages and anger stay in range,
    and every game ends."""
    for seed in range(8):
        match = _match(library, seed, profile=profile)
        state = match.state
        rng = random.Random(seed)
        for _ in range(3000):
            if match.over:
                break
            match.apply(match.bot_move(rng))
            places = _zones_of(state)
            assert sorted(places) == sorted(state.cards), "a card is lost or in two places"
            for side in state.sides:
                top = state.cards[side.main].max_stages
                assert 0 <= side.stages <= top and 0 <= side.anger <= 5
                for uid in side.allies:
                    stages = state.cards[uid].stages
                    assert stages is not None and 0 <= stages <= state.cards[uid].max_stages
        assert match.over, f"seed {seed}: the game did not end"
        assert match.result() is not None


def test_a_match_read_from_json_never_changes_the_json(library: Library) -> None:
    """A save's undo floor is read again for every undo: playing on a match
    read from it must leave it as it was."""
    game = CcgRules(library)
    match = _match(library, 4)
    _do(match, a.DrawThree(seat=JOHN))
    snapshot = json.loads(json.dumps(match.to_json()))
    kept = json.dumps(snapshot, sort_keys=True)
    again = game.match_from_json(snapshot)
    again.apply(a.EndNonCombat(seat=JOHN))
    again.apply(a.PowerUp(seat=JOHN, stages=1))
    again.apply(a.DeclareCombat(seat=JOHN))
    assert json.dumps(snapshot, sort_keys=True) == kept
