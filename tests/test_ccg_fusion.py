"""Fusion at the CCG table (seed 001, Rules digest, Fusion; rules notes T9):
fusing the Main Personality or two Allies with a Fusion personality of the
Sensei Deck, the timer beneath the anger counter, defusing at five or by
hand, what the rules refuse, the adjudication settings, privacy of the
timer cards and the Sensei Deck, saves, and random games with fusions."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from ccg_fusion_decks import DECKS, PACK, fusion_deck

from dbdeck.games.ccg.library import Library, load_library
from dbdeck.games.ccg.match import CcgMatch, CcgRules
from dbdeck.games.ccg.table import actions as a
from dbdeck.games.ccg.table.seat_view import seat_view
from dbdeck.games.ccg.table.snapshot import state_from_json, state_to_json
from dbdeck.games.ccg.table.state import TableState
from dbdeck.games.ccg.table.view import HIDDEN
from dbdeck.games.ccg.table.zones import locate

JOHN, SANDRA = 0, 1


@pytest.fixture(scope="module")
def library() -> Library:
    return load_library([PACK], include_env_packs=False)


def _match(library: Library, seed: int = 3, **extra: Any) -> CcgMatch:
    game = CcgRules(library)
    setup = {
        "players": ["John", "Sandra"],
        "decks": [fusion_deck(), (DECKS / "raditz.txt").read_text()],
        "profile": "digest",
        "seed": seed,
        **extra,
    }
    return game.new(game.read_setup(setup))


def _do(match: CcgMatch, *actions: a.Action) -> None:
    for action in actions:
        problem = match.check(action)
        assert problem is None, f"{action}: {problem}"
        match.apply(action)


def _titled(state: TableState, uids: list[int], title: str) -> int:
    return next(u for u in uids if state.cards[u].title == title)


def _allies_in_play(match: CcgMatch, *titles: str) -> list[int]:
    """Draw these Allies (put on top first) and place them in play."""
    state = match.state
    deck = state.side(JOHN).life_deck
    chosen = [_titled(state, deck, t) for t in titles]
    deck[:] = chosen + [u for u in deck if u not in chosen]
    _do(match, a.DrawThree(seat=JOHN))
    if len(titles) > 3:
        _do(match, a.DrawCards(seat=JOHN, count=len(titles) - 3))
    for uid in chosen:
        _do(match, a.PlayCard(seat=JOHN, card=uid))
    return chosen


def _sensei(state: TableState, title: str) -> int:
    return _titled(state, state.side(JOHN).sensei_deck, title)


def _turn(match: CcgMatch, seat: int) -> None:
    """A turn without Combat: draw, no power up, discard down, end."""
    state = match.state
    if state.step == "draw":
        _do(match, a.DrawThree(seat=seat))
    if state.step == "non-combat":
        _do(match, a.EndNonCombat(seat=seat))
    if state.step == "power-up":
        _do(match, a.PowerUp(seat=seat, stages=0))
    if state.step == "combat?":
        _do(match, a.SkipCombat(seat=seat))
    while state.step == "discard" and state.discarding is not None:
        _do(match, a.DiscardDown(seat=state.discarding))
    if state.step == "pass-bonus":
        _do(match, a.PassBonus(seat=seat, take=False))
    _do(match, a.EndTurn(seat=seat))


def _places(state: TableState) -> list[int]:
    """Every card's place: each card must be in exactly one."""
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
        if side.fused_main and side.fusion is not None:
            every.append(side.fusion)
    if state.location is not None:
        every.append(state.location)
    every.extend(u for u, c in state.cards.items() if c.attached_to is not None)
    return every


# --- fusing -------------------------------------------------------------------------------


def test_the_sensei_deck_holds_the_fusion_personalities_its_pack_marks(library: Library) -> None:
    state = _match(library).state
    john = state.side(JOHN)
    marks = {state.cards[u].title: state.cards[u].fusion for u in john.sensei_deck}
    assert marks == {
        "Test Gokuhan Level 1": True,
        "Test Gokuhan Level 2": True,
        "Test Krilltien Level 1": True,
        "Test Loner Level 1": False,
    }
    assert john.sensei is not None and state.cards[john.sensei].title == "Test Sensei of Fusion"
    # Without a pack, nobody says: None.
    assert all(state.cards[u].fusion is None for u in john.life_deck)


def test_a_main_personality_fusion_becomes_the_main_personality(library: Library) -> None:
    match = _match(library)
    state = match.state
    john = state.side(JOHN)
    john.anger, john.stages = 3, 2
    goku = john.main
    (gohan,) = _allies_in_play(match, "Gohan Level 1")
    fusion = _sensei(state, "Test Gokuhan Level 1")
    _do(match, a.Fuse(seat=JOHN, fusion=fusion, ally=gohan))
    assert john.fusion == fusion and john.fused == [goku, gohan] and john.fused_main
    assert john.main == fusion and john.stages == 14 and john.anger == 0
    assert john.allies == [] and fusion not in john.sensei_deck
    assert locate(state, fusion) == (JOHN, "main")
    assert locate(state, gohan) == (JOHN, "beneath")
    assert state.cards[gohan].attached_to == fusion
    assert state.mp_name(JOHN) == "Test Gokuhan"
    view = seat_view(state, SANDRA).seats[JOHN]
    assert view.main.title == "Test Gokuhan Level 1" and view.main.max_stages == 14
    assert view.main.pur == 3, "its own PUR, +1 for the declared Tokui-Waza"
    assert view.fusion is not None and view.fusion.uid == fusion and view.fusion_is_main
    assert [f.title for f in view.fused] == ["Goku Level 1", "Gohan Level 1"]
    assert "John fuses Goku Level 1 and Gohan Level 1 into Test Gokuhan Level 1" in (
        state.log[-1].text
    )


def test_an_ally_only_fusion_is_one_ally_and_takes_control(library: Library) -> None:
    match = _match(library)
    state = match.state
    john = state.side(JOHN)
    krillin, tien, gohan = _allies_in_play(
        match, "Krillin Level 1", "Tien Level 1", "Gohan Level 1"
    )
    john.anger = 2
    _do(match, a.EndNonCombat(seat=JOHN), a.PowerUp(seat=JOHN, stages=0))
    _do(match, a.DeclareCombat(seat=JOHN), a.Counter(seat=JOHN, counter="stages", delta=-4))
    _do(match, a.TakeControl(seat=JOHN, personality=tien))
    fusion = _sensei(state, "Test Krilltien Level 1")
    _do(match, a.Fuse(seat=JOHN, fusion=fusion, ally=krillin, partner=tien))
    assert john.allies == [fusion, gohan] and state.cards[fusion].stages == 12
    assert john.anger == 2, "an Ally-only fusion leaves the Main Personality's anger"
    assert john.in_control == fusion, "a component in control passes control to the fusion"
    assert not john.fused_main and john.main == john.levels[0]
    # It is one Ally: an attack's damage goes to it, and spills into life cards.
    _do(match, a.Pass(seat=JOHN), a.Attack(seat=SANDRA, attack="physical", stages=15))
    deck = len(john.life_deck)
    _do(match, a.AllowAttack(seat=JOHN, recipient=fusion))
    assert state.cards[fusion].stages == 0
    assert len(john.life_deck) == deck - 3, "three stages it could not take: three life cards"


def test_what_the_rules_refuse_and_what_they_cannot_tell(library: Library) -> None:
    match = _match(library)
    state = match.state
    john = state.side(JOHN)
    gohan, krillin = _allies_in_play(match, "Gohan Level 1", "Krillin Level 1")
    hand_card = john.hand[0]
    cases = {
        a.Fuse(seat=JOHN, fusion=hand_card, ally=gohan): "taken from your Sensei Deck",
        a.Fuse(
            seat=JOHN, fusion=_sensei(state, "Test Loner Level 1"), ally=gohan
        ): "is not a Fusion personality (its pack says so)",
        a.Fuse(
            seat=JOHN, fusion=_sensei(state, "Test Gokuhan Level 2"), ally=gohan
        ): "the Fusion personality of their level, 1",
        a.Fuse(
            seat=JOHN, fusion=_sensei(state, "Test Krilltien Level 1"), ally=gohan, partner=gohan
        ): "two different Allies",
        a.Fuse(
            seat=JOHN, fusion=_sensei(state, "Test Krilltien Level 1"), ally=john.levels[1]
        ): "one of your Allies in play",
    }
    for action, words in cases.items():
        problem = match.check(action)
        assert problem is not None and words in problem, (action, problem)
    john.level_index = 1
    problem = match.check(
        a.Fuse(seat=JOHN, fusion=_sensei(state, "Test Gokuhan Level 1"), ally=gohan)
    )
    assert problem is not None and "Goku Level 2 is level 2 and Gohan Level 1 level 1" in problem
    assert "only two matching-level personalities fuse (seed 001)" in problem
    # The two Allies are of one level: the card that allows it says which Fusion.
    allies = a.Fuse(
        seat=JOHN, fusion=_sensei(state, "Test Krilltien Level 1"), ally=gohan, partner=krillin
    )
    assert match.check(allies) is None
    offered = [o.action for o in match.offers(frozenset({"p1"})) if o.action.kind == "fuse"]
    assert allies in offered
    assert all(match.check(x) is None for x in offered)
    assert not any(x.fusion == _sensei(state, "Test Loner Level 1") for x in offered)
    _do(match, allies)
    again = a.Fuse(seat=JOHN, fusion=_sensei(state, "Test Gokuhan Level 1"), ally=krillin)
    problem = match.check(again)
    assert problem is not None and "one fusion at a time" in problem
    assert not [o for o in match.offers(frozenset({"p1"})) if o.action.kind == "fuse"]


def test_off_allows_a_fusion_the_rules_would_refuse_and_suggest_notes_it(
    library: Library,
) -> None:
    for adjudication in ("off", "suggest"):
        match = _match(library, adjudication=adjudication)
        state = match.state
        (gohan,) = _allies_in_play(match, "Gohan Level 1")
        wrong = _sensei(state, "Test Gokuhan Level 2")
        _do(match, a.Fuse(seat=JOHN, fusion=wrong, ally=gohan))
        assert state.side(JOHN).fusion == wrong
        notes = [e.text for e in state.log if e.kind == "suggest"]
        if adjudication == "suggest":
            assert any("the Fusion personality of their level, 1" in n for n in notes)
        else:
            assert notes == []


def test_the_fused_pieces_stay_put_until_it_defuses(library: Library) -> None:
    match = _match(library)
    state = match.state
    john = state.side(JOHN)
    (gohan,) = _allies_in_play(match, "Gohan Level 1")
    fusion = _sensei(state, "Test Gokuhan Level 1")
    _do(match, a.Fuse(seat=JOHN, fusion=fusion, ally=gohan))
    for action, words in (
        (a.MoveCard(seat=JOHN, card=gohan, to="hand"), "is fused into Test Gokuhan Level 1"),
        (a.Attach(seat=JOHN, card=gohan), "is fused into"),
        (a.Counter(seat=JOHN, counter="level", delta=1), "Fusion personality of one level"),
    ):
        problem = match.check(action)
        assert problem is not None and words in problem, (action, problem)
    drill = _titled(state, john.life_deck, "Orange Tripping Drill")
    john.life_deck.remove(drill)
    john.drills.append(drill)
    state.cards[drill].face_up = True
    _do(match, a.Counter(seat=JOHN, counter="anger", delta=5))
    assert john.anger == 0 and john.stages == 14 and john.fusion == fusion
    assert john.level_index == 0 and state.winner is None
    assert john.drills == [drill], "no level change: the Drills stay"


# --- the timer and defusing -----------------------------------------------------------------


def test_the_timer_grows_each_turn_and_five_defuse_at_once(library: Library) -> None:
    match = _match(library)
    state = match.state
    john = state.side(JOHN)
    (gohan,) = _allies_in_play(match, "Gohan Level 1")
    fusion = _sensei(state, "Test Gokuhan Level 1")
    _do(match, a.Fuse(seat=JOHN, fusion=fusion, ally=gohan))
    total = len(state.cards)
    _turn(match, JOHN)
    assert john.timer == [], "the timer starts at the owner's next turn"
    seen: list[int] = []
    for n in range(1, 5):
        _turn(match, SANDRA)
        assert len(john.timer) == n and john.fusion == fusion
        top = john.timer[-1]
        assert not state.cards[top].face_up
        seen.append(top)
        assert state.log[-1].kind == "timer" and state.log[-1].private
        other = seat_view(state, SANDRA).seats[JOHN]
        assert [f.uid for f in other.timer] == [HIDDEN] * n
        text = json.dumps(seat_view(state, SANDRA).to_json())
        assert not any(f'"uid": {u},' in text for u in john.timer)
        mine = seat_view(state, JOHN).seats[JOHN]
        assert [f.uid for f in mine.timer] == john.timer
        assert sorted(_places(state)) == sorted(state.cards) and len(state.cards) == total
        _turn(match, JOHN)
    deck_before = len(john.life_deck)
    _turn(match, SANDRA)
    assert john.fusion is None and john.fused == [] and john.timer == []
    assert john.removed[-1] == fusion and locate(state, fusion) == (JOHN, "removed")
    assert john.allies == [gohan] and state.cards[gohan].stages == 10
    assert john.stages == 10 and john.main == john.levels[0]
    assert len(john.life_deck) == deck_before - 1 + 5
    assert set(seen) <= set(john.life_deck) and john.cut_offered
    kinds = [e.kind for e in state.log[-3:]]
    assert kinds[-2:] == ["timer", "defuse"]
    assert "5 timer cards: it defuses at once" in state.log[-1].text
    assert sorted(_places(state)) == sorted(state.cards)


def test_suggest_and_off_leave_the_timer_to_the_player(library: Library) -> None:
    for adjudication in ("suggest", "off"):
        match = _match(library, adjudication=adjudication)
        state = match.state
        john = state.side(JOHN)
        (gohan,) = _allies_in_play(match, "Gohan Level 1")
        _do(match, a.Fuse(seat=JOHN, fusion=_sensei(state, "Test Gokuhan Level 1"), ally=gohan))
        _turn(match, JOHN)
        _turn(match, SANDRA)
        assert john.timer == []
        if adjudication == "suggest":
            assert "Place the fusion's timer" in state.suggestion
        else:
            assert state.suggestion == ""
        for _ in range(6):
            _do(match, a.FusionTimer(seat=JOHN))
        assert len(john.timer) == 6 and john.fusion is not None, "by hand: the player defuses"
        _do(match, a.Defuse(seat=JOHN))
        assert john.fusion is None and john.allies == [gohan] and john.timer == []


def test_the_timer_by_hand_is_the_tables_under_apply(library: Library) -> None:
    match = _match(library)
    state = match.state
    (gohan,) = _allies_in_play(match, "Gohan Level 1")
    problem = match.check(a.FusionTimer(seat=JOHN))
    assert problem is not None and "no Fusion personality in play" in problem
    _do(match, a.Fuse(seat=JOHN, fusion=_sensei(state, "Test Gokuhan Level 1"), ally=gohan))
    problem = match.check(a.FusionTimer(seat=JOHN))
    assert problem is not None and "the table puts the timer card there itself" in problem
    labels = [o.label for o in match.offers(frozenset({"p1"})) if o.action.kind == "defuse"]
    assert labels == ["Defuse Test Gokuhan Level 1: it leaves the game, its components return"]


def test_undo_stops_at_a_fusion_and_at_a_timer_card(library: Library) -> None:
    match = _match(library)
    state = match.state
    (gohan,) = _allies_in_play(match, "Gohan Level 1")
    match.apply(a.Fuse(seat=JOHN, fusion=_sensei(state, "Test Gokuhan Level 1"), ally=gohan))
    assert match.reveals(match.latest_events()) is not None
    _turn(match, JOHN)
    _do(match, a.DrawThree(seat=SANDRA), a.EndNonCombat(seat=SANDRA))
    _do(match, a.PowerUp(seat=SANDRA, stages=0), a.SkipCombat(seat=SANDRA))
    while state.step == "discard" and state.discarding is not None:
        _do(match, a.DiscardDown(seat=state.discarding))
    if state.step == "pass-bonus":
        _do(match, a.PassBonus(seat=SANDRA, take=False))
    match.apply(a.EndTurn(seat=SANDRA))
    assert match.reveals(match.latest_events()) is not None
    match.apply(a.Defuse(seat=JOHN))
    assert match.reveals(match.latest_events()) is not None


# --- the edges: saves, the wire ------------------------------------------------------------


def test_a_fused_table_saves_and_goes_on_identically(library: Library) -> None:
    match = _match(library)
    state = match.state
    krillin, tien = _allies_in_play(match, "Krillin Level 1", "Tien Level 1")
    _do(
        match,
        a.Fuse(
            seat=JOHN, fusion=_sensei(state, "Test Krilltien Level 1"), ally=krillin, partner=tien
        ),
    )
    _turn(match, JOHN)
    _turn(match, SANDRA)
    assert len(state.side(JOHN).timer) == 1
    game = CcgRules(library)
    data = json.loads(json.dumps(match.to_json()))
    again = game.match_from_json(data)
    assert again.fingerprint() == match.fingerprint()
    assert again.state.side(JOHN).timer == state.side(JOHN).timer
    assert again.state.side(JOHN).fused == [krillin, tien]
    twin = match.clone()
    for each in (match, twin, again):
        _turn(each, JOHN)
        _turn(each, SANDRA)
    assert twin.fingerprint() == match.fingerprint() == again.fingerprint()
    assert len(state.side(JOHN).timer) == 2


def test_a_save_from_before_fusion_still_loads() -> None:
    library = load_library(include_env_packs=False)
    game = CcgRules(library)
    match = game.new(
        game.read_setup(
            {
                "players": ["John", "Sandra"],
                "decks": [(DECKS / "goku.txt").read_text(), (DECKS / "raditz.txt").read_text()],
            }
        )
    )
    data = state_to_json(match.state)
    for side in data["sides"]:
        for key in ("fusion", "fused", "timer"):
            del side[key]
    for card in data["cards"]:
        del card["fusion"]
    old = state_from_json(data)
    assert old.side(0).fusion is None and old.side(0).timer == []
    assert all(card.fusion is None for card in old.cards.values())


def test_the_fusion_actions_are_exactly_their_fields(library: Library) -> None:
    game = CcgRules(library)
    fuse = a.Fuse(seat=0, fusion=60, ally=12, partner=13)
    assert game.read_action(json.loads(json.dumps(fuse.to_json()))) == fuse
    assert game.read_action({"kind": "fuse", "seat": 0, "fusion": 60, "ally": 12}) == a.Fuse(
        seat=0, fusion=60, ally=12
    )
    for data, words in (
        ({"kind": "fuse", "seat": 0, "fusion": 60, "ally": 12, "card": 3}, "has no field 'card'"),
        ({"kind": "fuse", "seat": 0, "ally": 12}, "fuse.fusion"),
        ({"kind": "defuse", "seat": 0, "fusion": 60}, "has no field 'fusion'"),
        ({"kind": "fusion-timer", "seat": 1, "count": 2}, "has no field 'count'"),
        ({"kind": "fuse", "seat": 0, "fusion": 10**9, "ally": 1}, "out of bounds"),
    ):
        with pytest.raises(ValueError, match=words):
            game.read_action(data)


def test_a_fuse_naming_the_other_sensei_deck_is_caught(library: Library) -> None:
    match = _match(library)
    state = match.state
    theirs = state.side(JOHN).sensei_deck[0]
    allies = _allies_in_play(match, "Gohan Level 1")
    action = a.Fuse(seat=SANDRA, fusion=theirs, ally=allies[0])
    assert match.names_unseen(1, frozenset({"p2"}), action)
    assert not match.names_unseen(
        0, frozenset({"p1"}), a.Fuse(seat=0, fusion=theirs, ally=allies[0])
    )


def _hidden_from(state: TableState, viewer: int | None) -> set[int]:
    hidden: set[int] = set()
    for side in state.sides:
        if side.seat != viewer or not side.searching:
            hidden |= set(side.life_deck)
        if side.seat == viewer:
            continue
        hidden |= {u for u in side.hand if u not in side.shown}
        hidden |= set(side.sensei_deck) | set(side.timer)
    return hidden


def _uids(node: Any) -> set[int]:
    found: set[int] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "uid" and isinstance(value, int) and value != HIDDEN:
                found.add(value)
            else:
                found |= _uids(value)
    elif isinstance(node, list):
        for value in node:
            found |= _uids(value)
    return found


@pytest.mark.parametrize("seed", range(4))
def test_random_games_with_fusions(library: Library, seed: int) -> None:
    """Random play from the offers, fusing whenever offered: every offer
    passes its check, each card is in one place, a JSON round trip goes on
    identically, and no view shows another seat's timer, Sensei Deck or
    private words."""
    adjudication = ("apply", "apply", "suggest", "off")[seed]
    match = _match(library, seed, adjudication=adjudication)
    deck = match.state.side(JOHN).life_deck
    allies = [_titled(match.state, deck, t) for t in ("Gohan Level 1", "Krillin Level 1")]
    deck[:] = allies + [u for u in deck if u not in allies]
    game = CcgRules(library)
    rng = random.Random(seed)
    fused = timers = defused = 0
    for step in range(700):
        if match.over:
            break
        state = match.state
        seat = 0 if match.offers(frozenset({"p1"})) else 1
        offers = match.offers(frozenset({("p1", "p2")[seat]}))
        assert offers
        for offer in offers:
            assert match.check(offer.action) is None, offer.label
        fuses = [o for o in offers if o.action.kind == "fuse"]
        turnish = [o for o in offers if o.group in ("turn", "combat")]
        if fuses and rng.random() < 0.5:
            offer = rng.choice(fuses)
        elif adjudication != "apply" and rng.random() < 0.1:
            offer = rng.choice([o for o in offers if o.group != "card"])
        else:
            offer = rng.choice(turnish if turnish and rng.random() < 0.95 else offers)
        if step % 50 == 0:
            twin: CcgMatch | None = game.match_from_json(json.loads(json.dumps(match.to_json())))
            assert twin is not None
            twin.apply(offer.action)
        else:
            twin = None
        match.apply(offer.action)
        if twin is not None:
            assert twin.fingerprint() == match.fingerprint()
        fused += offer.action.kind == "fuse"
        timers += sum(e.kind == "timer" for e in match.latest_events())
        defused += sum(e.kind == "defuse" for e in match.latest_events())
        assert sorted(_places(state)) == sorted(state.cards), "a card is lost or in two places"
        for side in state.sides:
            assert 0 <= side.stages <= state.cards[side.main].max_stages
            assert side.fusion is None or len(side.fused) == 2
        for viewer in (0, 1, None):
            view = seat_view(state, viewer).to_json()
            leaked = _uids(view) & _hidden_from(state, viewer)
            assert not leaked, [state.cards[u].title for u in leaked]
            text = json.dumps(view)
            for entry in state.log[-60:]:
                if entry.private and entry.seat != viewer:
                    assert entry.private not in text
    assert fused >= 1
    if adjudication == "apply":
        assert timers >= 1
    print(f"seed {seed}: {fused} fusions, {timers} timer cards, {defused} defusings")
