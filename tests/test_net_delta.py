"""Views sent as what changed: the client ends with exactly the view the
server would have sent whole.

``dbdeck.net.delta`` is checked on random JSON (hypothesis): a change
applied gives back the new value, byte for byte once encoded, and a change
that is not one is refused with ``DeltaError``, never another exception.
Then whole games of both games are played through a real host: every view
each client rebuilt from a change is compared, byte for byte, with the
whole line the server built for it. A client that misses a step asks for
the whole view and goes on; the first view of a connection and the first
after a seat plays other roles are whole.
"""

from __future__ import annotations

import asyncio
import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from fuzzing import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from table_clients import Seat, Users, play_to_the_end, start, watch_to_the_end

from dbdeck.games.ccg.library import load_library
from dbdeck.games.ccg.match import CcgMatch, CcgRules
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.net import protocol
from dbdeck.net.client import HeldViews
from dbdeck.net.delta import DeltaError, Texts, apply, diff, same
from dbdeck.net.protocol import (
    ActionMessage,
    HostMessage,
    ProtocolError,
    ResendMessage,
    ViewDeltaMessage,
    ViewMessage,
    decode_server,
    encode,
)
from dbdeck.net.server import TableServer
from dbdeck.saves import Session

DECKS = Path(__file__).resolve().parent.parent / "cards" / "ccg" / "decks"


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("DBDECK_TABLES", str(tmp_path / "tables"))


def _text(value: Any) -> str:
    """JSON as the wire writes it: what must come out the same."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# --- the change on any JSON ------------------------------------------------------------------

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.floats(allow_nan=False, allow_infinity=False, width=16)
    | st.sampled_from(["", "a", "b", "line"])
)
"""Few distinct values, so that old and new share a lot (and ``1``,
``1.0``, ``True`` and ``-0.0`` meet often)."""

json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=6)
        | st.dictionaries(st.sampled_from(["a", "b", "c", "d", "e"]), children, max_size=5)
    ),
    max_leaves=30,
)


def items_of(value: list[Any]) -> st.SearchStrategy[Any]:
    """New items like those of ``value``: a log line more, a card more."""
    return items if value and isinstance(value[0], dict) else json_values


@st.composite
def edited(draw: st.DrawFn, value: Any, depth: int = 0) -> Any:
    """``value`` with some edits: a key or item changed, added, taken away;
    items moved, a list's front dropped and lines added (a log)."""
    if depth > 4 or draw(st.integers(0, 4)) == 0:
        return draw(json_values) if draw(st.booleans()) else value
    if isinstance(value, dict):
        out = dict(value)
        for key in list(out):
            how = draw(st.sampled_from(["keep", "keep", "edit", "drop"]))
            if how == "edit":
                out[key] = draw(edited(out[key], depth + 1))
            elif how == "drop":
                del out[key]
        for key in draw(st.lists(st.sampled_from(["a", "f", "g"]), max_size=2)):
            out[key] = draw(json_values)
        if draw(st.integers(0, 7)) == 0:
            keys = draw(st.permutations(list(out)))
            out = {key: out[key] for key in keys}
        return out
    if isinstance(value, list):
        items: list[Any] = []
        for item in value:
            change = draw(st.integers(0, 3)) == 0
            items.append(draw(edited(item, depth + 1)) if change else item)
        front = draw(st.integers(0, min(2, len(items))))
        items = items[front:] + draw(st.lists(items_of(value) | json_values, max_size=3))
        move = draw(st.booleans())
        if items and move:
            at = draw(st.integers(0, len(items) - 1))
            items.insert(draw(st.integers(0, len(items))), items.pop(at))
        if draw(st.integers(0, 3)) == 0:
            items = draw(st.lists(json_values, max_size=2)) + items
        return items
    return draw(json_values)


items = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(["play", "draw"]),
        "n": st.integers(0, 9),
        "text": st.sampled_from(["Goku plays Kamehameha.", "Krillin draws a card."]),
    }
)
"""An item of a list of a view: a log line, an offer, a card."""

view_like = st.fixed_dictionaries(
    {
        "log": st.lists(items, max_size=8),
        "legal": st.lists(items, max_size=8),
        "board": json_values,
    }
)
"""An object shaped like a view: lists of small objects, and anything."""


@st.composite
def histories(draw: st.DrawFn) -> list[Any]:
    """A few values, each an edit of one before it (mostly the one just
    before: else an offer list comes back), the latest last."""
    views = [draw(view_like | json_values)]
    for _ in range(draw(st.integers(1, 5))):
        back = draw(st.sampled_from([1, 1, 1, 2, 3]))
        base = views[-min(back, len(views))]
        if isinstance(base, dict) and draw(st.integers(0, 3)) == 0:
            base = {key: [] if isinstance(value, list) else value for key, value in base.items()}
        views.append(draw(edited(base)))
    return views


@settings(max_examples=examples(200), deadline=None)
@given(histories())
def test_a_change_applied_gives_the_new_value_exactly(views: list[Any]) -> None:
    kept = copy.deepcopy(views)
    texts: list[Texts] = [{} for _ in views]
    for step in range(1, len(views)):
        old, new, older = views[step - 1], views[step], views[step - 2 :: -1] if step > 1 else []
        change = diff(old, new, older)
        json.dumps(change)  # a change is JSON
        assert _text(apply(old, change, older)) == _text(new)
        assert same(apply(old, change, older), new)
        # The texts kept with each view (as the server keeps them) change nothing.
        held = texts[step - 1 :: -1]
        assert diff(old, new, older, (texts[step], held)) == change
    assert _text(views) == _text(kept), "neither side's views are changed"


@settings(max_examples=examples(200), deadline=None)
@given(json_values, json_values)
def test_any_two_values(old: Any, new: Any) -> None:
    assert _text(apply(old, diff(old, new))) == _text(new)


def test_1_and_1_0_and_true_and_minus_0_are_told_apart() -> None:
    for old, new in [
        ({"a": 1}, {"a": True}),
        ({"a": 1}, {"a": 1.0}),
        ({"a": 0.0}, {"a": -0.0}),
        ({"a": [1, 2]}, {"a": [True, 2]}),
        ({"a": 1, "b": 2}, {"b": 2, "a": 1}),
        ({"a": {"x": 1, "y": 2}}, {"a": {"y": 2, "x": 1}}),
    ]:
        assert old == new  # Python says so...
        change = diff(old, new)
        assert change != {"obj": {}}
        assert _text(apply(old, change)) == _text(new)  # ... the wire does not
        assert not same(old, new)
    # The same JSON is the same, whatever objects it is made of.
    line = "".join(["Goku ", "draws."])
    assert same([line, line, {"a": line}], [line, "Goku draws.", {"a": "Goku draws."}])


def test_a_log_that_keeps_its_last_lines_costs_only_the_new_ones() -> None:
    lines = [{"kind": "play", "text": f"line {n}", "seat": n % 2} for n in range(70)]
    old = {"turn": 3, "log": lines[:60]}
    new = {"turn": 3, "log": lines[3:63]}
    change = diff(old, new)
    assert change == {"obj": {"log": {"list": [{"keep": [3, 57]}, {"add": lines[60:63]}]}}}
    assert _text(apply(old, change)) == _text(new)


def test_a_card_more_in_a_pile_and_one_number_changed() -> None:
    card = {"uid": 7, "title": "Senzu Bean", "face_up": True}
    pile = [{**card, "uid": n} for n in range(30)]
    old: dict[str, Any] = {
        "seats": [{"life_deck": 20, "discard": pile}, {"life_deck": 19, "discard": []}]
    }
    new = copy.deepcopy(old)
    new["seats"][0]["life_deck"] = 18
    new["seats"][0]["discard"].append({**card, "uid": 99})
    change = diff(old, new)
    assert len(_text(change)) < 200 < len(_text(new))
    assert _text(apply(old, change)) == _text(new)


def test_offers_come_back_from_an_older_view() -> None:
    offers = [
        {"action": {"kind": "attack", "source": n}, "label": f"Attack {n}"} for n in range(40)
    ]
    asked = {"version": 1, "legal": offers}
    waiting = {"version": 2, "legal": []}
    again = {"version": 3, "legal": offers[:39]}
    change = diff(waiting, again, [asked])
    assert change["obj"]["legal"] == {"list": [{"keep": [0, 39]}], "from": 1}
    assert apply(waiting, change, [asked]) == again
    with pytest.raises(DeltaError, match="'from' names no view"):
        apply(waiting, change)  # the older view is not held


@pytest.mark.parametrize(
    ("old", "change", "words"),
    [
        ({}, [], "a change is an object, not a list"),
        ({}, {"put": 1}, "a change has 'set', 'obj' or 'list'"),
        ({}, {"set": 1, "obj": {}}, "a 'set' change has no other key"),
        ([], {"obj": {}}, "an object's change for a list"),
        ({"a": 1}, {"obj": {"b": {"obj": {}}}}, "at .b: a new key's change is a 'set'"),
        ({"a": 1}, {"obj": {}, "del": ["z"]}, "no key 'z' to take away"),
        ({"a": 1}, {"obj": {}, "order": ["a", "b"]}, "'order' names other keys"),
        (
            {"a": [1]},
            {"obj": {"a": {"list": [{"keep": [0, 5]}]}}},
            "at .a: keeps items 0 to 4 of 1",
        ),
        ({"a": [1, 2]}, {"obj": {"a": {"list": [{"keep": [0, 2]}, {"keep": [0, 2]}]}}}, "again"),
        ([1], {"list": [{"keep": [0, True]}]}, "two whole numbers"),
        ([1], {"list": [{"keep": [0, 1], "at": [[1, {"set": 2}]]}]}, "names item 1"),
        ([1], {"list": [{"add": 1}]}, "'add' is a list"),
        ([1], {"list": [{"keep": [0, 1], "add": [2]}]}, "unknown key 'keep'"),
        ([1], {"list": [7]}, "a piece of a list is an object"),
        ([[1]], {"list": [{"keep": [0, 1], "at": [[0, {"obj": {}}]]}]}, "at [0]: an object's"),
    ],
)
def test_a_change_that_does_not_fit_is_refused_with_where(
    old: Any, change: Any, words: str
) -> None:
    before = copy.deepcopy(old)
    with pytest.raises(DeltaError, match=re.escape(words)):
        apply(old, change)
    assert old == before


changes = st.recursive(
    st.builds(lambda v: {"set": v}, json_values)
    | st.dictionaries(st.sampled_from(["set", "obj", "list", "del", "x"]), json_values, max_size=3),
    lambda children: (
        st.builds(
            lambda obj, gone: {"obj": obj, "del": gone},
            st.dictionaries(st.sampled_from(["a", "b", "c"]), children, max_size=3),
            st.lists(st.sampled_from(["a", "b", "z"]), max_size=2),
        )
        | st.builds(
            lambda pieces, back: {"list": pieces, "from": back},
            st.lists(
                st.builds(lambda v: {"add": v}, st.lists(json_values, max_size=2))
                | st.builds(
                    lambda span, at: {"keep": span, "at": at},
                    st.lists(st.integers(-1, 4), min_size=2, max_size=2),
                    st.lists(st.tuples(st.integers(-1, 4), children).map(list), max_size=2),
                ),
                max_size=4,
            ),
            st.integers(-1, 2),
        )
    ),
    max_leaves=10,
)


@settings(max_examples=examples(300), deadline=None)
@given(json_values, changes, st.lists(json_values, max_size=2))
def test_any_change_applies_or_is_refused_with_a_reason(
    old: Any, change: Any, older: list[Any]
) -> None:
    before = _text([old, older])
    try:
        new = apply(old, change, older)
    except DeltaError as exc:
        assert str(exc).startswith("at ")
    else:
        json.dumps(new)
    assert _text([old, older]) == before


# --- the client's held views -----------------------------------------------------------------


def _whole(seq: int, **view: Any) -> dict[str, Any]:
    message = ViewMessage(type="view", version=seq, seq=seq, view=view, legal=[])
    data: dict[str, Any] = json.loads(encode(message))
    return data


def test_held_views_rebuild_or_ask_once() -> None:
    held = HeldViews()
    first = _whole(1, log=["a"])
    held.whole(first)
    second = _whole(2, log=["a", "b"])
    change = ViewDeltaMessage(type="view-delta", version=2, base=1, patch=diff(first, second))
    assert encode(held.rebuild(change)) == encode(ViewMessage.model_validate(second))
    # A change to a view not held (a step missed) is no view.
    with pytest.raises(DeltaError, match="a change to view 1; the last view held is 2"):
        held.rebuild(change)
    assert held.lost() is True
    assert held.lost() is False  # asked once until a whole view comes
    held.whole(second)
    assert held.asked is False and held.views == [second]


def test_a_rebuilt_view_is_bounded_as_a_whole_one(monkeypatch: pytest.MonkeyPatch) -> None:
    held = HeldViews()
    first = _whole(1, text="")
    held.whole(first)
    monkeypatch.setattr(protocol, "MAX_VIEW_LINE", 400)
    patch = diff(first, _whole(2, text="x" * 500))
    with pytest.raises(ProtocolError, match="message too long"):
        held.rebuild(ViewDeltaMessage(type="view-delta", version=2, base=1, patch=patch))
    monkeypatch.setattr(protocol, "MAX_SERVER_DEPTH", 3)
    patch = diff(first, _whole(2, text=[[["deep"]]]))
    with pytest.raises(ProtocolError, match="nested too deeply"):
        held.rebuild(ViewDeltaMessage(type="view-delta", version=2, base=1, patch=patch))
    wrong = {"obj": {"version": {"set": "two"}}}
    with pytest.raises(ProtocolError, match="version"):
        held.rebuild(ViewDeltaMessage(type="view-delta", version=2, base=1, patch=wrong))


def test_a_change_line_is_typed_and_bounded_at_the_wire() -> None:
    line = b'{"type":"view-delta","version":1,"base":1,"patch":{"obj":{}},"extra":1}'
    with pytest.raises(ProtocolError, match="extra"):
        decode_server(line)
    deep = b'{"type":"view-delta","version":1,"base":1,"patch":' + b"[" * 70 + b"]" * 70 + b"}"
    with pytest.raises(ProtocolError, match="nested too deeply"):
        decode_server(deep)


# --- whole games through a real host ---------------------------------------------------------


def _record(server: TableServer, monkeypatch: pytest.MonkeyPatch) -> dict[int, bytes]:
    """Every whole view line the server builds, by its ``seq``."""
    built: dict[int, bytes] = {}
    build = server._build_view

    def recording(seat: int | None) -> Any:
        view = build(seat)
        built[view.seq] = view.line
        return view

    monkeypatch.setattr(server, "_build_view", recording)
    return built


def _check_exact(seats: list[Seat], built: dict[int, bytes]) -> tuple[int, int, int]:
    """Every view each client has, whole or rebuilt, is the server's whole
    line for it; the views, those that came as changes, and the bytes sent
    as changes against those views whole."""
    views = rebuilt = 0
    for seat in seats:
        for view in seat.views:
            assert encode(view) == built[view.seq]
        views += len(seat.views)
        rebuilt += len(seat.client.rebuilt)
        for number in seat.client.rebuilt:
            assert json.loads(seat.client.lines[number])["type"] == "view-delta"
    return views, rebuilt, sum(len(line) for s in seats for line in s.client.lines)


async def test_a_deckbuilding_game_ends_with_every_view_exact(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    users = Users()
    server = await start(catalog, tmp_path, users)
    built = _record(server, monkeypatch)
    try:
        goku, krillin = await Seat.pair(server, users)
        watcher = await Seat.join(server, users, "carol", spectate=True)
        await play_to_the_end([goku, krillin], seed=4)
        await watch_to_the_end(watcher)
        for seat in (goku, krillin, watcher):
            await seat.settle(0.05)
    finally:
        await server.close()
    seats = [goku, krillin, watcher]
    views, rebuilt, sent = _check_exact(seats, built)
    whole = sum(len(built[v.seq]) for s in seats for v in s.views)
    assert len(server.session.actions) > 30
    assert views >= 3 * len(server.session.actions)
    assert rebuilt >= views - 3  # all but the first of each client
    assert sent * 3 < whole, (sent, whole)


async def _ccg_player(seat: Seat, rng: random.Random, done: asyncio.Event) -> None:
    """Answer each view that offers something, from its offers alone."""
    while not done.is_set():
        message = await seat.receive()
        if not isinstance(message, ViewMessage):
            continue
        if message.view.get("winner") is not None:
            done.set()
            return
        if not message.legal:
            continue
        plain = [o for o in message.legal if o.get("group") in ("turn", "combat")]
        offer = rng.choice(plain if plain and rng.random() < 0.93 else message.legal)
        await seat.client.send(
            ActionMessage(type="action", version=message.version, action=offer["action"])
        )


async def test_a_ccg_game_ends_with_every_view_exact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = CcgRules(load_library(include_env_packs=False))
    setup = rules.read_setup(
        {
            "players": ["alice", "bob"],
            "decks": [(DECKS / "goku.txt").read_text(), (DECKS / "raditz.txt").read_text()],
            "seed": 8,
        }
    )
    session: Session[CcgMatch] = Session.start(rules, setup, tmp_path, save_id="ccg")
    users = Users()
    server = TableServer(
        session,
        "club",
        socket_path=tmp_path / "club.sock",
        owner="alice",
        identify=users,
        admits=lambda user: user in ("alice", "bob", "carol"),
        bot_delay=0.0,
        announce=False,
    )
    built = _record(server, monkeypatch)
    await server.start()
    try:
        alice = await Seat.join(server, users, "alice", game="ccg", seat=0)
        bob = await Seat.join(server, users, "bob", game="ccg", seat=1)
        carol = await Seat.join(server, users, "carol", game="ccg", spectate=True)
        done = asyncio.Event()
        await asyncio.wait_for(
            asyncio.gather(
                _ccg_player(alice, random.Random(1), done),
                _ccg_player(bob, random.Random(2), done),
            ),
            timeout=240,
        )
        for seat in (alice, bob, carol):
            await seat.settle(0.1)
    finally:
        await server.close()
    assert server.session.match.over
    seats = [alice, bob, carol]
    views, rebuilt, sent = _check_exact(seats, built)
    whole = sum(len(built[v.seq]) for s in seats for v in s.views)
    assert views >= 3 * len(server.session.actions)
    assert rebuilt >= views - 3
    assert sent * 5 < whole, (sent, whole)


async def _act(seat: Seat) -> None:
    """The seat takes its first offer."""
    view = seat.views[-1]
    assert view.legal, "the seat is offered something"
    await seat.client.send(
        ActionMessage(type="action", version=view.version, action=view.legal[0]["action"])
    )


async def test_a_client_that_missed_a_step_asks_for_the_whole_view(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    users = Users()
    server = await start(catalog, tmp_path, users)
    built = _record(server, monkeypatch)
    try:
        goku, krillin = await Seat.pair(server, users)
        # Goku's seat plays both Characters: it has every offer.
        await goku.client.send(HostMessage(type="host", character="krillin", to_seat=0))
        await goku.settle()
        await krillin.settle()
        asked = []
        resend = server._resend_view

        async def counted(client: Any) -> None:
            asked.append(client.seat)
            await resend(client)

        monkeypatch.setattr(server, "_resend_view", counted)
        # Krillin's terminal loses the change of Goku's first action.
        await _act(goku)
        while json.loads(await krillin.client.receive_line())["type"] != "view-delta":
            pass
        # The next change is to a view it does not hold: it asks, and the
        # whole view comes.
        await goku.settle()
        await _act(goku)
        view = await krillin.until(ViewMessage)
        assert asked == [1]
        assert json.loads(krillin.client.lines[-1])["type"] == "view"
        assert encode(view) == built[view.seq] and view.version == server.version
        # From there on changes again, exact.
        await goku.settle()
        await _act(goku)
        view = await krillin.until(ViewMessage)
        assert json.loads(krillin.client.lines[-1])["type"] == "view-delta"
        assert encode(view) == built[view.seq]
    finally:
        await server.close()


async def test_a_resend_with_no_change_sent_builds_no_view(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    users = Users()
    server = await start(catalog, tmp_path, users)
    built = _record(server, monkeypatch)
    try:
        goku = await Seat.join(server, users, "alice", seat=0)
        await goku.settle()
        before = len(built)
        for _ in range(20):
            await goku.client.send(ResendMessage(type="resend"))
        await goku.settle()
        assert len(built) == before and len(goku.views) == 1
        assert not goku.refusals
    finally:
        await server.close()


async def test_first_views_and_a_seat_given_other_roles_are_whole(
    catalog: Catalog, tmp_path: Path
) -> None:
    users = Users()
    server = await start(catalog, tmp_path, users)
    try:
        goku, krillin = await Seat.pair(server, users)
        watchers = [await Seat.join(server, users, "carol", spectate=True) for _ in range(2)]
        for seat in (goku, krillin, *watchers):
            await seat.settle()
            assert [json.loads(line)["type"] for line in seat.client.lines].count("view") == 1
            seat.client.lines.clear()
        # The host plays Krillin too: Goku's seat now sees Krillin's hand.
        await goku.client.send(HostMessage(type="host", character="krillin", to_seat=0))
        for seat in (goku, krillin, *watchers):
            await seat.settle()
        kinds = {
            name: [json.loads(line)["type"] for line in seat.client.lines if b'"view' in line]
            for name, seat in (("goku", goku), ("krillin", krillin), ("watcher", watchers[0]))
        }
        assert kinds == {"goku": ["view"], "krillin": ["view"], "watcher": ["view-delta"]}
        # The two watchers hold the same views: the same bytes.
        assert watchers[0].client.lines == watchers[1].client.lines
        # A reconnection starts whole again.
        await krillin.client.close()
        again = await Seat.join(server, users, "bob", seat=1)
        await again.until(ViewMessage)
        assert json.loads(again.client.lines[-1])["type"] == "view"
    finally:
        await server.close()
