"""Undo at a shared table, through a real server over its Unix socket: one
seat asks, every seat present must agree (the asking seat agrees by asking,
spectators have no say), and a refusal, an action or a seat coming or going
calls it off. Undo never goes back past hidden information revealed.

The toy game (``tests/toy_game``) makes the protocol tests short: a play
reveals nothing (undoable), a draw reveals a card (the undo boundary). The
joined screens of the toy, the deckbuilding game and the CCG answer an
undo asked with the app's keys: a capital ``Y`` agrees, a small ``y``
never does.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from screen_text import plain
from table_clients import SETUP as DECKBUILDING_SETUP
from table_clients import Seat, Users
from textual.widgets import Static
from toy_game import GAME_ID, OPENER, SCREEN
from toy_game.match import Draw, Play, ToyOffer, ToyRules
from toy_game.screen import ToyTable

import dbdeck.games
from dbdeck.games.ccg.library import load_library
from dbdeck.games.ccg.match import CcgRules
from dbdeck.games.ccg.tui.shared import CcgSharedScreen
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.games.deckbuilding.tui.remote import JoinApp
from dbdeck.games.deckbuilding.tui.shared_table import SharedTableScreen
from dbdeck.net.protocol import (
    MAX_LINE,
    EventsMessage,
    ProtocolError,
    RefusalMessage,
    UndoAnswerMessage,
    UndoAskedMessage,
    UndoMessage,
    ViewMessage,
    decode_client,
)
from dbdeck.net.server import TableServer
from dbdeck.saves import Session
from dbdeck.tabletop import registry
from dbdeck.tabletop.game import GameRules, Match
from dbdeck.tui.keybar import KeyBar

TOY_SETUP = {"seed": 7, "players": ["Ann", "Bob"], "deck": 8, "hand": 2}
DECKS = Path(__file__).resolve().parent.parent / "cards" / "ccg" / "decks"


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat tokens and the table list in the test's own folders."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("DBDECK_TABLES", str(tmp_path / "tables"))


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy listed in ``dbdeck.games`` for one test (a joined app opens it)."""
    monkeypatch.setitem(dbdeck.games.GAMES, GAME_ID, OPENER)
    monkeypatch.setitem(dbdeck.games.TABLE_SCREENS, GAME_ID, SCREEN)
    registry.forget()
    yield
    registry.forget()


async def _serve(rules: GameRules[Match], setup: Any, folder: Path, users: Users) -> TableServer:
    """alice's table on ``folder/table.sock`` (save ``folder/table.json``);
    bob and carol may join."""
    session = Session.start(rules, setup, folder, save_id="table")
    server = TableServer(
        session,
        "club",
        socket_path=folder / "table.sock",
        owner="alice",
        identify=users,
        admits=lambda user: user in ("alice", "bob", "carol"),
        bot_delay=0.0,
        announce=False,
    )
    await server.start()
    return server


@pytest.fixture
async def toys(tmp_path: Path) -> AsyncIterator[tuple[TableServer, Users]]:
    """A toy table: Ann is seat 0, Bob seat 1."""
    users = Users()
    rules = ToyRules()
    server = await _serve(rules, rules.read_setup(TOY_SETUP), tmp_path, users)
    yield server, users
    await server.close()


async def _join(server: TableServer, users: Users, user: str, **hello: Any) -> Seat:
    seat = await Seat.join(server, users, user, game=GAME_ID, **hello)
    await seat.until(ViewMessage)
    return seat


async def _trio(server: TableServer, users: Users) -> tuple[Seat, Seat, Seat]:
    """alice at seat 0 (Ann), bob at seat 1 (Bob), carol watching."""
    alice = await _join(server, users, "alice", seat=0)
    bob = await _join(server, users, "bob", seat=1)
    carol = await _join(server, users, "carol", spectate=True)
    for seat in (alice, bob, carol):
        await seat.settle()
    return alice, bob, carol


def _offers(seat: Seat) -> list[ToyOffer]:
    return [ToyOffer.model_validate(o) for o in seat.views[-1].legal]


async def _act(seat: Seat, server: TableServer, kind: type) -> Any:
    """Take the seat's first offer of ``kind`` (a ``Play`` or a ``Draw``)
    and wait until the host applied it; the action."""
    offer = next(o for o in _offers(seat) if isinstance(o.action, kind))
    before = len(server.session.actions)
    await _send_action(seat, offer.action)
    for _ in range(200):
        if len(server.session.actions) > before:
            break
        await asyncio.sleep(0.01)
    assert len(server.session.actions) == before + 1
    return offer.action


async def _send_action(seat: Seat, action: Any) -> None:
    from dbdeck.net.protocol import ActionMessage

    await seat.client.send(
        ActionMessage(
            type="action", version=seat.views[-1].version, action=ToyRules().action_json(action)
        )
    )


async def _ask(seat: Seat, server: TableServer) -> None:
    await seat.client.send(UndoMessage(type="undo", version=server.version))


async def _answer(seat: Seat, asked: UndoAskedMessage, agree: bool) -> None:
    await seat.client.send(
        UndoAnswerMessage(type="undo-answer", request=asked.request, agree=agree)
    )


async def _settle(*seats: Seat) -> None:
    for seat in seats:
        await seat.settle()


async def _ended(seat: Seat) -> UndoAskedMessage:
    """Read until an undo asked has ended (those still open are skipped)."""
    while True:
        message = await seat.until(UndoAskedMessage)
        assert isinstance(message, UndoAskedMessage)
        if not message.open:
            return message


def _asked(seat: Seat) -> list[UndoAskedMessage]:
    return [m for m in seat.other if isinstance(m, UndoAskedMessage)]


def _log(seat: Seat) -> list[str]:
    return [str(e["text"]) for e in seat.events]


def _saved_actions(folder: Path) -> list[Any]:
    data = json.loads((folder / "table.json").read_text(encoding="utf-8"))
    actions: list[Any] = data["actions"]
    return actions


# --- the protocol ---------------------------------------------------------------------------------


async def test_an_undo_every_seat_agrees_to_is_undone_for_both(
    toys: tuple[TableServer, Users], tmp_path: Path
) -> None:
    server, users = toys
    alice, bob, carol = await _trio(server, users)
    before = server.session.match.fingerprint()
    played = await _act(alice, server, Play)
    await _settle(alice, bob, carol)
    version = server.version

    await _ask(alice, server)
    asked = await bob.until(UndoAskedMessage)
    assert asked.open and asked.by_seat == 0 and asked.by == "alice (Ann)"
    assert asked.agreed == [0] and asked.waiting == [1] and asked.waiting_for == ["bob (Bob)"]
    assert asked.undoes == [f"Ann plays {played.card} (score {played.card}).", "Turn 2: Bob plays."]
    assert await carol.until(UndoAskedMessage) == asked  # the spectator sees it too
    assert set(asked.undoes) <= set(_log(carol))  # a spectator's words: any seat's to read
    assert await alice.until(UndoAskedMessage) == asked  # the asking seat sees it waits
    assert len(server.session.actions) == 1  # nothing undone before bob agrees

    await _answer(bob, asked, agree=True)
    for seat in (alice, bob, carol):
        done = await seat.until(UndoAskedMessage)
        assert not done.open and done.ended == "undone"
        view = await seat.until(ViewMessage)
        assert view.version > version  # one version, one state: it never goes back
    assert server.session.actions == [] == _saved_actions(tmp_path)  # saved at once
    assert server.session.match.fingerprint() == before
    hand = alice.views[-1].view["hands"][0]
    assert played.card in hand["cards"] and alice.views[-1].view["active"] == "a"
    assert any(isinstance(o.action, Play) for o in _offers(alice))  # Ann's turn again
    said = f"Undone, as alice (Ann) asked and bob (Bob) agreed: Ann plays {played.card}"
    for seat in (alice, bob, carol):
        assert any(line.startswith(said) for line in _log(seat)), _log(seat)
        assert any(line.startswith("alice (Ann) asks to undo") for line in _log(seat))

    # The table goes on from the undone state: Ann plays again.
    await _act(alice, server, Play)
    assert len(server.session.actions) == 1


async def test_a_refused_undo_changes_nothing(toys: tuple[TableServer, Users]) -> None:
    server, users = toys
    alice, bob, carol = await _trio(server, users)
    await _act(alice, server, Play)
    await _settle(alice, bob, carol)
    after = server.session.match.fingerprint()

    await _ask(alice, server)
    asked = await bob.until(UndoAskedMessage)
    await _answer(bob, asked, agree=False)
    ended = await _ended(alice)
    assert ended.ended == "called off: bob (Bob) refused"
    await _settle(alice, bob, carol)
    assert len(server.session.actions) == 1 and server.session.match.fingerprint() == after
    assert any("is called off: bob (Bob) refused" in line for line in _log(carol))

    # A late agreement counts for nothing.
    await _answer(bob, asked, agree=True)
    assert "no longer asked" in (await bob.until(RefusalMessage)).reason
    assert len(server.session.actions) == 1

    # The asking seat withdraws its own.
    await _ask(alice, server)
    again = await bob.until(UndoAskedMessage)
    assert again.request != asked.request
    await _answer(alice, again, agree=False)
    ended = await _ended(bob)
    assert ended.ended == "called off: alice (Ann) withdrew it"
    assert len(server.session.actions) == 1 and server.session.match.fingerprint() == after


async def test_an_action_calls_the_undo_off(toys: tuple[TableServer, Users]) -> None:
    server, users = toys
    alice, bob, carol = await _trio(server, users)
    await _act(alice, server, Play)
    await _settle(alice, bob, carol)
    await _ask(alice, server)
    asked = await bob.until(UndoAskedMessage)
    await bob.settle()

    played = await _act(bob, server, Play)  # Bob's turn: he plays instead of answering
    ended = await _ended(alice)
    assert ended.ended == "called off: an action was taken first"
    await _answer(bob, asked, agree=True)
    assert "no longer asked" in (await bob.until(RefusalMessage)).reason
    assert len(server.session.actions) == 2

    # Any seat may ask: bob asks to undo his play, alice agrees.
    await _settle(alice, bob, carol)
    await _ask(bob, server)
    mine = await alice.until(UndoAskedMessage)
    assert mine.by == "bob (Bob)" and mine.waiting == [0]
    assert mine.undoes[0] == f"Bob plays {played.card} (score {played.card})."
    await _answer(alice, mine, agree=True)
    assert (await _ended(bob)).ended == "undone"
    await _settle(alice, bob, carol)
    assert len(server.session.actions) == 1


async def test_undo_never_goes_back_past_hidden_information(
    toys: tuple[TableServer, Users],
) -> None:
    server, users = toys
    alice, bob, carol = await _trio(server, users)
    await _ask(alice, server)
    assert (await alice.until(RefusalMessage)).reason == "nothing to undo: no action was taken yet"

    await _act(alice, server, Draw)  # reveals a card to Ann: the undo boundary
    await _settle(alice, bob, carol)
    await _ask(alice, server)
    reason = (await alice.until(RefusalMessage)).reason
    assert reason.startswith("nothing to undo: the last action revealed hidden information")
    assert str(alice.views[-1].view["hands"][0]["cards"][-1]) not in reason  # no card named

    await _act(alice, server, Play)
    await _settle(alice, bob, carol)
    await _ask(alice, server)
    asked = await bob.until(UndoAskedMessage)
    await _answer(bob, asked, agree=True)
    await alice.until(ViewMessage)
    await _settle(alice, bob, carol)
    assert len(server.session.actions) == 1  # the play undone, the draw kept
    await _ask(alice, server)
    assert "revealed hidden information" in (await alice.until(RefusalMessage)).reason
    assert len(server.session.actions) == 1
    assert not [m for m in _asked(bob) if m.request != asked.request]  # no other was asked


async def test_spectators_have_no_say(toys: tuple[TableServer, Users]) -> None:
    server, users = toys
    alice, bob, carol = await _trio(server, users)
    await _act(alice, server, Play)
    await _settle(alice, bob, carol)

    await _ask(carol, server)
    assert (await carol.until(RefusalMessage)).reason == "spectators have no say in an undo"
    await _ask(alice, server)
    asked = await carol.until(UndoAskedMessage)
    assert 2 not in asked.waiting and asked.waiting == [1]  # only the seats are asked
    await _answer(carol, asked, agree=True)
    assert (await carol.until(RefusalMessage)).reason == "spectators have no say in an undo"
    await _answer(carol, asked, agree=False)
    await carol.until(RefusalMessage)
    await _settle(alice, bob)
    assert len(server.session.actions) == 1
    assert all(m.open for m in _asked(bob))  # still waiting for bob, not called off

    await _answer(bob, asked, agree=True)
    assert (await carol.until(UndoAskedMessage)).ended == "undone"
    await _settle(alice, bob, carol)
    assert server.session.actions == []


async def test_a_seat_alone_at_the_table_undoes_at_once(
    toys: tuple[TableServer, Users], tmp_path: Path
) -> None:
    server, users = toys
    alice = await _join(server, users, "alice", seat=0)
    carol = await _join(server, users, "carol", spectate=True)  # no say: does not hold it up
    await _act(alice, server, Play)
    await _settle(alice, carol)
    await _ask(alice, server)
    done = await alice.until(UndoAskedMessage)
    assert not done.open and done.ended == "undone" and done.waiting == []
    await alice.until(ViewMessage)
    assert server.session.actions == [] == _saved_actions(tmp_path)
    events = await carol.until(EventsMessage)
    assert events.events[-1]["text"].startswith("Undone, as alice (Ann) asked: Ann plays")


async def test_a_seat_coming_or_going_calls_the_undo_off(
    toys: tuple[TableServer, Users],
) -> None:
    server, users = toys
    alice, bob, carol = await _trio(server, users)
    await _act(alice, server, Play)
    await _settle(alice, bob, carol)

    # The asking seat leaves.
    await _ask(alice, server)
    await bob.until(UndoAskedMessage)
    await alice.client.close()
    ended = await _ended(bob)
    assert ended.ended == "called off: alice (Ann) left the table"

    # alice comes back; bob asks, and it waits for her. A spectator who
    # comes is shown it and changes nothing; alice leaving calls it off.
    alice = await _join(server, users, "alice", seat=0)
    await _settle(alice, bob, carol)
    await _ask(bob, server)
    asked = await alice.until(UndoAskedMessage)
    assert asked.open and asked.waiting == [0]
    late = await _join(server, users, "carol", spectate=True)  # a spectator: nothing changes
    assert (await late.until(UndoAskedMessage)) == asked  # shown what waits
    await alice.client.close()
    assert (await _ended(bob)).ended == "called off: alice (Ann) left the table"
    await bob.settle()
    await _ask(bob, server)  # bob alone now: undone at once
    assert (await _ended(bob)).ended == "undone"
    await bob.settle()
    assert server.session.actions == []


async def test_bad_undo_messages_are_refused_with_the_reason(
    toys: tuple[TableServer, Users],
) -> None:
    server, users = toys
    alice, bob, carol = await _trio(server, users)
    await _act(alice, server, Play)
    await _settle(alice, bob, carol)
    after = server.session.match.fingerprint()
    await _ask(alice, server)
    asked = await bob.until(UndoAskedMessage)
    await bob.settle()
    bad = {
        b'{"type": "undo", "version": "1"}': "bad 'undo' message: version",
        b'{"type": "undo"}': "bad 'undo' message: version: Field required",
        b'{"type": "undo", "version": 1, "steps": 3}': "bad 'undo' message: steps",
        b'{"type": "undo-answer", "request": 1, "agree": 1}': "bad 'undo-answer' message: agree",
        b'{"type": "undo-answer", "request": "1", "agree": true}': "bad 'undo-answer' message",
        b'{"type": "undo-answer", "request": -3, "agree": true}': "bad 'undo-answer' message",
        b'{"type": "undo-answer", "request": 99999999, "agree": true}': "bad 'undo-answer'",
        b'{"type": "undo-answer", "agree": true}': "request: Field required",
    }
    for line, expected in bad.items():
        with pytest.raises(ProtocolError, match=expected.replace("'", ".")):
            decode_client(line)
        await bob.client.send_raw(line + b"\n")
        assert expected in (await bob.until(RefusalMessage)).reason
    await bob.client.send(
        UndoAnswerMessage(type="undo-answer", request=asked.request + 5, agree=True)
    )
    assert "no longer asked" in (await bob.until(RefusalMessage)).reason
    await bob.client.send(UndoMessage(type="undo", version=server.version + 3))
    assert "changed since your view" in (await bob.until(RefusalMessage)).reason
    await bob.client.send(UndoMessage(type="undo", version=server.version))
    assert "alice (Ann) asked to undo already" in (await bob.until(RefusalMessage)).reason
    await alice.settle()
    await alice.client.send(UndoMessage(type="undo", version=server.version))
    assert "your undo already waits for bob (Bob)" in (await alice.until(RefusalMessage)).reason
    # Nothing of that agreed or called anything off.
    assert server.undo_asked is not None and server.undo_asked.request == asked.request
    assert server.session.match.fingerprint() == after

    padding = b" " * (MAX_LINE + 10)
    await bob.client.send_raw(
        b'{"type": "undo-answer", "request": 1, "agree": true}' + padding + b"\n"
    )
    refusal = await bob.until(RefusalMessage)
    assert refusal.fatal and "too long" in refusal.reason
    assert server.session.match.fingerprint() == after


# --- the joined screens ---------------------------------------------------------------------------


async def _until(condition: Callable[[], bool], pilot: Any, what: str, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.05)


def _bar(screen: Any) -> tuple[tuple[str, str], ...]:
    """The keys a table shows: its key bar's, else (the toy's footer) the
    active bindings that show."""
    if screen.query(KeyBar):
        keys: tuple[tuple[str, str], ...] = screen.query_one(KeyBar).keys
        return keys
    shown = screen.app.active_bindings.values()
    return tuple((b.binding.key, b.binding.description) for b in shown if b.binding.show)


async def _seated_app(
    app: JoinApp, pilot: Any, server: TableServer, users: Users, kind: type[Any]
) -> Seat:
    """Wait for the app's table of ``kind`` at seat 0; then bob sits at seat 1."""
    await _until(
        lambda: isinstance(app.table, kind) and bool(app.table.is_mounted), pilot, "the table"
    )
    bob = await Seat.join(server, users, "bob", game=server.session.rules.game_id, seat=1)
    await bob.until(ViewMessage)
    await pilot.pause(0.2)
    await bob.settle()
    return bob


async def _agree_by_keys(
    app: JoinApp, pilot: Any, server: TableServer, bob: Seat, stray: str = "y"
) -> None:
    """bob asks to undo the last action; the app's seat sees it, a small
    letter (``stray``, a key the table does not act on) neither agrees nor
    refuses, the capital ``Y`` agrees."""
    actions = len(server.session.actions)
    await _ask(bob, server)
    await _until(
        lambda: app.backend is not None and app.backend.undo_asked is not None, pilot, "the ask"
    )
    await pilot.pause(0.2)
    assert app.table is not None
    bar = _bar(app.table)
    answers = (("Y", "Agree to undo"), ("N", "Refuse undo"))
    assert bar[:2] == answers if app.table.query(KeyBar) else set(answers) <= set(bar)
    await pilot.press(stray)
    await pilot.pause(0.3)
    assert len(server.session.actions) == actions and server.undo_asked is not None
    await pilot.press("Y")
    await _until(lambda: len(server.session.actions) == actions - 1, pilot, "the undo")
    await _until(
        lambda: app.backend is not None and app.backend.undo_asked is None, pilot, "the end"
    )
    await pilot.pause(0.2)
    assert ("Y", "Agree to undo") not in _bar(app.table)


async def test_the_toy_screen_asks_and_answers_an_undo(toy: None, tmp_path: Path) -> None:
    users = Users()
    rules = ToyRules()
    server = await _serve(rules, rules.read_setup(TOY_SETUP), tmp_path, users)
    try:
        app = JoinApp(None, socket_path=server.socket_path, seat=0)
        async with app.run_test(size=(100, 30)) as pilot:
            bob = await _seated_app(app, pilot, server, users, ToyTable)
            table = app.table
            assert isinstance(table, ToyTable)
            play = next(o for o in table.offers if isinstance(o.action, Play))
            assert table.take(play)
            await _until(lambda: len(server.session.actions) == 1, pilot, "the play")
            await pilot.pause(0.2)
            await bob.settle()

            # alice's u asks; her board says what it waits for; bob refuses.
            await pilot.press("u")
            asked = await bob.until(UndoAskedMessage)
            await pilot.pause(0.2)
            assert "Your undo waits for bob (Bob)" in table.board_text().plain
            await _answer(bob, asked, agree=False)
            await _until(
                lambda: app.backend is not None and app.backend.undo_asked is None,
                pilot,
                "the refusal",
            )
            assert len(server.session.actions) == 1
            await bob.settle()

            # bob asks; alice agrees with Y (the app's key, on any game's table).
            await _agree_by_keys(app, pilot, server, bob)
            assert any(
                "Undone, as bob (Bob) asked and alice (Ann) agreed" in line for line in table.lines
            )
    finally:
        await server.close()


async def test_the_deckbuilding_shared_screen_asks_and_answers_an_undo(
    catalog: Catalog, tmp_path: Path
) -> None:
    users = Users()
    server = await _serve(DeckbuildingRules(catalog), DECKBUILDING_SETUP, tmp_path, users)
    try:
        app = JoinApp(DeckbuildingRules(catalog), socket_path=server.socket_path, seat=0)
        async with app.run_test(size=(160, 50)) as pilot:
            bob = await _seated_app(app, pilot, server, users, SharedTableScreen)
            table = app.table
            assert isinstance(table, SharedTableScreen)
            assert ("u", "Undo") in _bar(table)
            energy = next(o for o in table.offers if o.action.type == "play-energy")
            assert table.play(energy.action).accepted
            await _until(lambda: len(server.session.actions) == 1, pilot, "the Energy played")
            await pilot.pause(0.2)
            await bob.settle()

            await pilot.press("u")
            asked = await bob.until(UndoAskedMessage)
            assert asked.by == "alice (Goku)" and asked.waiting_for == ["bob (Krillin)"]
            assert asked.undoes and "Goku" in asked.undoes[0]
            await pilot.pause(0.2)
            prompt = plain(table.query_one("#prompt", Static).content)
            assert "Your undo waits for bob (Krillin)" in prompt
            assert _bar(table)[0] == ("N", "Withdraw undo")
            await pilot.press("N")  # alice withdraws it
            ended = await _ended(bob)
            assert ended.ended == "called off: alice (Goku) withdrew it"
            await pilot.pause(0.2)
            await bob.settle()

            await _agree_by_keys(app, pilot, server, bob, stray="n")  # y: Goku's ability
            assert server.session.actions == []
            await pilot.pause(0.2)
            assert any(
                o.action.type == "play-energy" for o in table.offers
            )  # Goku's Energy is back
    finally:
        await server.close()


async def test_the_ccg_shared_screen_asks_and_answers_an_undo(tmp_path: Path) -> None:
    users = Users()
    rules = CcgRules(load_library(include_env_packs=False))
    setup = rules.read_setup(
        {
            "players": ["alice", "bob"],
            "decks": [(DECKS / "goku.txt").read_text(), (DECKS / "raditz.txt").read_text()],
            "seed": 5,
        }
    )
    server = await _serve(rules, setup, tmp_path, users)
    try:
        app = JoinApp(None, socket_path=server.socket_path, seat=0)
        async with app.run_test(size=(160, 50)) as pilot:
            bob = await _seated_app(app, pilot, server, users, CcgSharedScreen)
            table = app.table
            assert isinstance(table, CcgSharedScreen)
            # A move of alice's that reveals nothing (one the table can undo).
            match = server.session.match
            quiet = None
            for offer in table.offers:
                trial = match.clone()
                if (
                    match.check(offer.action) is None
                    and trial.reveals(trial.apply(offer.action)) is None
                ):
                    quiet = offer
                    break
            assert quiet is not None, [o.label for o in table.offers]
            assert table.play(quiet.action).accepted
            await _until(lambda: len(server.session.actions) == 1, pilot, "alice's move")
            await pilot.pause(0.2)
            await bob.settle()
            assert ("u", "Undo") in _bar(table)
            await _agree_by_keys(app, pilot, server, bob)
            assert server.session.actions == []
    finally:
        await server.close()
