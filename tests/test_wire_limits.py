"""The shared table against hostile users and hostile input.

Another user of the box may send anything: a name with escape codes, a
flood of connections that never say hello, actions of the wrong shape, more
bytes than a player ever types. Each is refused with the reason, reaches
neither the engine nor the host's terminal raw, and the table goes on.
Other OS users are played by the server's ``identify``/``admits`` hooks and
a fake ``/proc/net/tcp`` (no real user is created).
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import random
import socket
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, get_args

import pytest
from table_clients import SETUP, STEP_CAP, Seat, Users, start, view_player

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.actions import ACTION_TYPES, Action, ActionType, Choose
from dbdeck.games.deckbuilding.engine.game import MARKETS
from dbdeck.games.deckbuilding.engine.panels import MARKET_ORDER, Offer, TableView
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.net import server as server_module
from dbdeck.net.client import JoinRefused, TableClient
from dbdeck.net.listing import user_name
from dbdeck.net.protocol import (
    MAX_LINE,
    PROTOCOL_VERSION,
    ChatMessage,
    EventsMessage,
    HelloMessage,
    RefusalMessage,
    SeatsMessage,
    ViewMessage,
    decode_server,
    printable,
)
from dbdeck.net.server import TableServer, uid_of_connection
from dbdeck.saves import SaveFailed, Session

DISK_FULL = "the disk is full: the last action was not applied; free space and retry"


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat tokens and the table list in the test's own folders."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("DBDECK_TABLES", str(tmp_path / "tables"))


@pytest.fixture
async def table(catalog: Catalog, tmp_path: Path) -> AsyncIterator[tuple[TableServer, Users]]:
    """Alice's table (bob and carol may join) with short limits."""
    users = Users()
    server = await start(catalog, tmp_path, users)
    yield server, users
    await server.close()


def crash_reports(folder: Path) -> list[Path]:
    """The crash reports written beside the save."""
    return sorted(folder.glob("crash-*"))


async def raw(server: TableServer, users: Users, user: str) -> TableClient:
    """A connection as ``user`` that has said nothing yet."""
    users.next.append(user)
    client = await TableClient.connect(socket_path=server.socket_path)
    await wait_for(lambda: not users.next)
    return client


async def wait_for(condition: Callable[[], bool], timeout: float = 5) -> None:
    """Poll until ``condition`` holds (the server runs in this loop)."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


async def refusal_then_close(client: TableClient) -> RefusalMessage:
    """The fatal refusal the server sends before it closes the connection."""
    message = await asyncio.wait_for(client.receive(), 5)
    assert isinstance(message, RefusalMessage), message
    assert message.fatal and message.reason
    assert await asyncio.wait_for(client.receive(), 5) is None
    return message


# --- the wire's types ---------------------------------------------------------------------


def test_the_wire_types_match_the_engine() -> None:
    assert set(get_args(ActionType)) == set(ACTION_TYPES)
    assert set(MARKET_ORDER) == {*MARKETS, "sixth"}


def test_printable_escapes_what_could_drive_a_terminal() -> None:
    assert printable("alice") == "alice"
    forged = printable("bob\n12:00 alice joined seat 0\x1b[2J\u202e")
    assert "\n" not in forged and "\x1b" not in forged and "\u202e" not in forged
    assert forged.startswith("bob\\x0a12:00\\x20alice")
    assert printable("hi there\tyou\r\n", 100, spaces=True) == "hi there you\\x0d\\x0a"
    assert len(printable("x" * 1000, 64)) == 64 and printable("x" * 1000, 64).endswith("…")
    assert printable("\ud800", 10) == "\\ud800"  # a lone surrogate could not even be encoded


# --- who connects over TCP ------------------------------------------------------------------


def _proc_row(local: str, remote: str, uid: int, inode: int, state: str = "01") -> str:
    return (
        f"   0: {local} {remote} {state} 00000000:00000000 00:00000000 00000000 "
        f"{uid:5d}        0 {inode} 1 0000000000000000 20 4 30 10 -1"
    )


PROC_HEADER = (
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt"
    "   uid  timeout inode"
)


def test_uid_of_connection_reads_the_clients_row() -> None:
    # 127.0.0.1:7777 is the server, 127.0.0.1:40000 the client (as a
    # little-endian kernel prints them); each end has its row.
    server_end = _proc_row("0100007F:1E61", "0100007F:9C40", uid=1000, inode=11)
    client_end = _proc_row("0100007F:9C40", "0100007F:1E61", uid=4242, inode=12)
    lingering = _proc_row("0100007F:9C41", "0100007F:1E61", uid=0, inode=0, state="06")
    text = "\n".join([PROC_HEADER, server_end, lingering, client_end, "garbage line"])
    client = ("127.0.0.1", 40000)
    server = ("127.0.0.1", 7777)
    assert uid_of_connection(text, local=client, remote=server) == 4242
    assert uid_of_connection(text, local=server, remote=client) == 1000
    # TIME_WAIT lists uid 0 and no socket: never taken for root.
    assert uid_of_connection(text, local=("127.0.0.1", 40001), remote=server) is None
    assert uid_of_connection(PROC_HEADER, local=client, remote=server) is None


def test_uid_of_connection_reads_tcp6() -> None:
    loopback6 = "00000000000000000000000001000000"  # ::1, word by word little-endian
    mapped = "0000000000000000FFFF00000100007F"  # ::ffff:127.0.0.1
    text = "\n".join(
        [
            PROC_HEADER,
            _proc_row(f"{loopback6}:9C40", f"{loopback6}:1E61", uid=4243, inode=21),
            _proc_row(f"{mapped}:9C42", f"{mapped}:1E61", uid=4244, inode=22),
        ]
    )
    assert uid_of_connection(text, local=("::1", 40000), remote=("::1", 7777)) == 4243
    assert (
        uid_of_connection(text, local=("127.0.0.1", 40002), remote=("::ffff:127.0.0.1", 7777))
        == 4244
    )


@pytest.mark.parametrize("family,host", [(socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")])
def test_uid_of_a_real_loopback_connection(family: socket.AddressFamily, host: str) -> None:
    try:
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.bind((host, 0))
    except OSError:
        pytest.skip(f"no {host} on this box")
    with listener:
        listener.listen(1)
        with socket.socket(family, socket.SOCK_STREAM) as client:
            client.connect(listener.getsockname()[:2])
            accepted, _ = listener.accept()
            with accepted:
                name = "/proc/net/tcp" if family == socket.AF_INET else "/proc/net/tcp6"
                text = Path(name).read_text(encoding="ascii")
                found = uid_of_connection(
                    text, local=client.getsockname()[:2], remote=accepted.getsockname()[:2]
                )
    assert found == os.getuid()


def _as_uid(uid: int) -> Callable[[str], str]:
    """A ``/proc/net/tcp`` reader that shows every socket as ``uid``'s."""

    def read(path: str) -> str:
        lines = Path(path).read_text(encoding="ascii").splitlines()
        out = lines[:1]
        for line in lines[1:]:
            fields = line.split()
            fields[7] = str(uid)
            out.append(" ".join(fields))
        return "\n".join(out)

    return read


async def tcp_table(catalog: Catalog, tmp_path: Path, **options: Any) -> TableServer:
    """A table of this box's user on loopback TCP, admitting group "gamers"
    (no such group here: only the owner is admitted), found by the real
    ``peer_user``."""
    session = Session.start(DeckbuildingRules(catalog), SETUP, tmp_path, save_id="game")
    server = TableServer(
        session,
        "club",
        tcp=("127.0.0.1", 0),
        group="gamers",
        join_token="sesame",
        announce=False,
        **options,
    )
    await server.start()
    return server


async def test_tcp_applies_the_group_to_the_kernels_user(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = await tcp_table(catalog, tmp_path)
    assert server.tcp is not None
    try:
        # Not in the group: refused, whatever name the hello gives.
        monkeypatch.setattr(server_module, "_read_proc", _as_uid(4242))
        for name in ("mallory", server.owner):
            client = await TableClient.connect(tcp=server.tcp)
            with pytest.raises(JoinRefused, match=f"admits {server.owner} and group gamers"):
                await client.hello(user=name, seat=0, join_token="sesame")
        assert [s.user for s in server.table.seats] == ["", ""]

        # No row for the connection: nobody can tell who it is.
        monkeypatch.setattr(server_module, "_read_proc", lambda path: "")
        client = await TableClient.connect(tcp=server.tcp)
        with pytest.raises(JoinRefused, match="cannot tell which user"):
            await client.hello(user=server.owner, seat=0, join_token="sesame")

        # This box's user (root in CI), found in the real /proc/net/tcp,
        # is the owner; the name it gives is not what counts.
        monkeypatch.undo()
        client = await TableClient.connect(tcp=server.tcp)
        welcome = await client.hello(user="mallory", seat=0, join_token="sesame")
        assert welcome.seat == 0 and not welcome.host
        assert server.table.seats[0].user == user_name(os.getuid())
        await client.close()
    finally:
        await server.close()


# --- limits -------------------------------------------------------------------------------


async def test_a_connection_that_never_says_hello_is_let_go(
    catalog: Catalog, tmp_path: Path
) -> None:
    users = Users()
    server = await start(catalog, tmp_path, users, hello_timeout=0.3)
    try:
        silent = await raw(server, users, "bob")
        refusal = await refusal_then_close(silent)
        assert refusal.reason == "no hello within 0.3 s"
        # A slow hello, one byte at a time, has the same deadline.
        slow = await raw(server, users, "bob")
        for byte in b'{"type"':
            await slow.send_raw(bytes([byte]))
            await asyncio.sleep(0.03)
        assert "no hello" in (await refusal_then_close(slow)).reason
        assert not server.connections
        # One who says hello in time stays.
        seat = await Seat.join(server, users, "alice", seat=0)
        await asyncio.sleep(0.5)
        await seat.client.send(ChatMessage(type="chat", text="still here"))
        assert (await seat.until(ChatMessage)).text == "still here"
    finally:
        await server.close()


async def test_connections_are_capped_per_user_and_in_total(
    catalog: Catalog, tmp_path: Path
) -> None:
    users = Users()
    server = await start(catalog, tmp_path, users, max_per_user=2, max_connections=4)
    server.admits = lambda user: True
    try:
        bobs = [await raw(server, users, "bob") for _ in range(2)]
        third = await raw(server, users, "bob")
        assert (
            "too many connections of bob (2, at most 2)" in (await refusal_then_close(third)).reason
        )
        others = [await raw(server, users, user) for user in ("carol", "dave")]
        assert len(server.connections) == 4
        full = await raw(server, users, "erin")
        assert "the table is full (4 connections)" in (await refusal_then_close(full)).reason

        # The host gets in past the total (within the per-user cap).
        users.next.append("alice")
        alice = await TableClient.connect(socket_path=server.socket_path)
        assert (await alice.hello(seat=0)).seat == 0
        assert len(server.connections) == 5

        # A closed connection makes room; the refused ones held none.
        await bobs[0].close()
        await others[0].close()
        await wait_for(lambda: len(server.connections) == 3)
        users.next.append("erin")
        erin = await TableClient.connect(socket_path=server.socket_path)
        assert (await erin.hello(spectate=True)).seat is None
        for client in [*bobs[1:], *others[1:], alice, erin]:
            await client.close()
    finally:
        await server.close()


async def test_a_client_over_the_byte_rate_is_let_go(catalog: Catalog, tmp_path: Path) -> None:
    users = Users()
    server = await start(catalog, tmp_path, users, byte_rate=2000, byte_burst=8000)
    try:
        goku, krillin = await Seat.pair(server, users)
        await krillin.settle()
        for _ in range(40):  # 16 KB at once, twice the burst
            await krillin.client.send(ChatMessage(type="chat", text="x" * 400))
        while True:
            message = await krillin.receive()
            if isinstance(message, RefusalMessage):
                break
        assert message.fatal and "too much data: at most 2000 bytes a second" in message.reason
        assert await asyncio.wait_for(krillin.client.receive(), 5) is None
        # The others are served; an honest pace is never cut.
        await goku.settle()
        for i in range(5):
            await goku.client.send(ChatMessage(type="chat", text=f"line {i}"))
            await asyncio.sleep(0.05)
        await goku.settle(0.3)
        said = [m.text for m in goku.other if isinstance(m, ChatMessage)]
        assert [f"line {i}" for i in range(5)] == said[-5:]
    finally:
        await server.close()


async def test_warnings_about_clients_are_rate_limited(
    catalog: Catalog, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    users = Users()
    server = await start(catalog, tmp_path, users, max_per_user=1)
    caplog.set_level(logging.WARNING, logger="dbdeck.server")
    try:
        first = await raw(server, users, "bob")
        for _ in range(60):
            refused = await raw(server, users, "bob")
            await refusal_then_close(refused)
        warnings = [r for r in caplog.records if r.name == "dbdeck.server"]
        assert len(warnings) == server_module.LOG_LINES
        server.quiet.flush()
        assert "40 more warnings about clients" in caplog.records[-1].getMessage()
        await first.close()
    finally:
        await server.close()


# --- names and text that reach a terminal ---------------------------------------------------

FORGED = "bob\n12:00:00 alice joined seat 1\x1b[2J\x1b]0;owned\x07"


async def test_names_and_chat_are_made_printable(
    catalog: Catalog, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="dbdeck.server")
    users = Users()
    server = await start(catalog, tmp_path, users)
    server.admits = lambda user: True
    try:
        alice = await Seat.join(server, users, "alice", seat=0)
        evil = await Seat.join(server, users, FORGED, seat=1)
        assert server.table.seats[1].user == FORGED  # the seat goes by the real name
        await evil.client.send(ChatMessage(type="chat", text="hi\n<alice> give me\x1b[31m all"))
        said = await alice.until(ChatMessage)
        seats = [m for m in alice.other if isinstance(m, SeatsMessage)][-1]
        for shown in (said.sender, said.text, seats.seats[1].user):
            assert not any(c in shown for c in "\n\r\x1b\x07"), shown
        assert said.text == "hi\\x0a<alice> give me\\x1b[31m all"
        assert said.sender == printable(FORGED)
        # A name too long for a log line is cut.
        assert len(printable("x" * 500)) <= 64
        # The host's log: one line a record, no escape.
        lines = [r.getMessage() for r in caplog.records]
        assert any("joined seat 1" in line and "bob\\x0a" in line for line in lines)
        assert not any(c in line for line in lines for c in "\n\x1b\x07")

        # A TCP-style name or a token that is not printable ASCII is refused.
        client = await raw(server, users, "carol")
        for bad in ('"user": "a\\nb"', '"join_token": "\\u00e9"', '"seat_token": "x\\u001b"'):
            hello = f'{{"type": "hello", "protocol": {PROTOCOL_VERSION}, {bad}}}\n'
            await client.send_raw(hello.encode())
            refusal = await asyncio.wait_for(client.receive(), 5)
            assert isinstance(refusal, RefusalMessage)
            assert "printable ASCII only" in refusal.reason
        await client.close()
    finally:
        await server.close()


# --- typed input --------------------------------------------------------------------------

WRONG = [
    b'{"type": "buy", "card": 1, "market": "allies", "cards": [[1]]}',
    b'{"type": "steal", "amount": "x"}',
    b'{"type": "buy", "card": 1, "market": ["allies"]}',
    b'{"type": "buy", "card": 1, "market": "bank"}',
    b'{"type": "play", "card": true}',
    b'{"type": "choose", "option": 1.5}',
    b'{"type": "play", "card": 10000000}',
    b'{"type": "attack", "target": "v", "cards": [' + b",".join([b"1"] * 17) + b"]}",
    b'{"type": "attack", "cards": [1], "target": "v\\u001b[2J"}',
    b'{"type": "attack", "cards": [1], "target": "' + b"v" * 65 + b'"}',
    b'{"type": "end-turn", "why": 1}',
    b'{"type": "end-turn", "amount": 1000000, "on": -1, "cards": [-1, -1]}',
    b'{"type": "buy", "card": 1, "market": "allies", "slot": 1}',
    b'{"type": "buy", "market": "allies"}',
    b'{"type": "fly"}',
    b'{"type": "end-turn", "card": {"$gt": 1}}',
    b'{"type": "end-turn", "card": 1e400}',
    b'{"type": "end-turn", "card": ' + b"9" * 30 + b"}",
    b'{"type": "end-turn", "card": ' + b"[" * 20 + b"]" * 20 + b"}",
]
"""Actions of the wrong shape, each a few dozen bytes (500 of them stay
under the byte rate's burst)."""


async def test_wrong_typed_actions_never_reach_the_engine(
    catalog: Catalog,
    tmp_path: Path,
    table: tuple[TableServer, Users],
    caplog: pytest.LogCaptureFixture,
) -> None:
    server, users = table
    goku, _krillin = await Seat.pair(server, users)
    await goku.until(ViewMessage)
    before = server.session.match.game.fingerprint()
    calls: list[Action] = []
    apply = server.session.apply

    def spy(action: Action) -> Any:
        calls.append(action)
        return apply(action)

    server.session.apply = spy  # type: ignore[method-assign, assignment]
    for i in range(500):
        action = WRONG[i % len(WRONG)]
        await goku.client.send_raw(b'{"type": "action", "version": 0, "action": ' + action + b"}\n")
    reasons = [(await goku.until(RefusalMessage)).reason for _ in range(500)]
    starts = ("bad 'action' message", "a number too long", "nested too deeply")
    assert all(reason.startswith(starts) for reason in reasons), set(reasons)
    assert any("not an action: buy.cards.0" in reason for reason in reasons)
    # Each kind takes exactly its own fields (a field it does not use is refused).
    assert any("not an action: end-turn.amount: Extra inputs" in reason for reason in reasons)
    assert any("not an action: buy.slot: Extra inputs" in reason for reason in reasons)
    assert any("not an action: buy.card: Field required" in reason for reason in reasons)
    assert not calls and not crash_reports(tmp_path)
    assert server.session.match.game.fingerprint() == before and server.version == 0
    assert not any(r.exc_info for r in caplog.records)

    # Still connected, still served.
    view = goku.views[-1]
    offers = [Offer.from_json(o) for o in view.legal]
    await goku.act(view_player(TableView.from_json(view.view), offers, random.Random(1)))
    await goku.until(EventsMessage)
    assert server.version == 1


# --- a full disk --------------------------------------------------------------------------


def _disk_full(kind: str) -> BaseException:
    if kind == "SaveFailed":
        return SaveFailed(DISK_FULL, code=errno.ENOSPC)
    return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("kind", ["SaveFailed", "OSError"])
async def test_a_full_disk_refuses_the_action_and_the_table_goes_on(
    catalog: Catalog,
    tmp_path: Path,
    table: tuple[TableServer, Users],
    kind: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    server, users = table
    goku, krillin = await Seat.pair(server, users)
    view = await goku.until(ViewMessage)
    await krillin.settle()
    before = server.session.match.game.fingerprint()
    offers = [Offer.from_json(o) for o in view.legal]
    action = view_player(TableView.from_json(view.view), offers, random.Random(1))

    def full(action: Action) -> Any:
        raise _disk_full(kind)

    monkeypatch.setattr(server.session, "apply", full)
    await goku.act(action)
    assert (await goku.until(RefusalMessage)).reason == DISK_FULL
    notice = await krillin.until(ChatMessage)
    assert notice.text == DISK_FULL and notice.sender == "(table)"
    again = await goku.until(ViewMessage)
    assert again.version == 0 and again.legal == view.legal
    assert server.session.match.game.fingerprint() == before and server.version == 0
    assert not crash_reports(tmp_path)

    monkeypatch.undo()  # space freed: the same action goes through
    await goku.act(action)
    await goku.until(EventsMessage)
    assert server.version == 1


async def test_a_save_that_fails_after_the_move_goes_back_to_the_disk(
    catalog: Catalog,
    tmp_path: Path,
    table: tuple[TableServer, Users],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    server, users = table
    goku, krillin = await Seat.pair(server, users)
    view = await goku.until(ViewMessage)
    before = server.session.match.game.fingerprint()
    session = server.session

    def half(action: Action) -> Any:
        # A session that moves the game in memory, then cannot write it.
        session.match.game.apply(action)
        session.actions.append(action.to_json())
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def no_table(path: Path, text: str) -> None:
        raise SaveFailed(DISK_FULL, code=errno.ENOSPC)

    monkeypatch.setattr(session, "apply", half)
    monkeypatch.setattr(server_module, "write_private", no_table)
    offers = [Offer.from_json(o) for o in view.legal]
    action = view_player(TableView.from_json(view.view), offers, random.Random(1))
    await goku.act(action)
    assert (await goku.until(RefusalMessage)).reason == DISK_FULL
    assert server.session is not session  # read back from the disk
    assert server.session.match.game.fingerprint() == before and server.version == 0
    assert not crash_reports(tmp_path)
    # Seats cannot be written either, and still a seat can be taken.
    carol = await Seat.join(server, users, "carol", spectate=True)
    assert (await carol.until(ViewMessage)).version == 0
    krillin.client.writer.transport.abort()
    await wait_for(lambda: len(server.clients) == 2)
    back = await Seat.join(server, users, "bob")
    assert back.number == 1
    monkeypatch.undo()
    await goku.act(action, version=0)
    await goku.until(EventsMessage)
    assert server.version == 1


# --- votes --------------------------------------------------------------------------------


async def reach_players_decision(server: TableServer, seats: list[Seat]) -> None:
    """Play from the seats' own views until the players must decide."""
    rng = random.Random(2)
    for _ in range(STEP_CAP):
        game = server.session.match.game
        assert not game.over, "no players' decision in this game"
        actor = game.actor()
        if actor == "players":
            return
        assert actor is not None
        seat = seats[server.table.control[actor]]
        while not (seat.views and seat.views[-1].version == server.version):
            await seat.until(ViewMessage)
        view = seat.views[-1]
        offers = [Offer.from_json(o) for o in view.legal]
        await seat.act(view_player(TableView.from_json(view.view), offers, rng), view.version)
        await wait_for(lambda v=view.version: server.version > v)  # type: ignore[misc]
    pytest.fail("no players' decision")


async def test_a_vote_completes_when_a_seat_leaves(catalog: Catalog, tmp_path: Path) -> None:
    users = Users()
    server = await start(catalog, tmp_path, users, decide="vote")
    try:
        goku, krillin = await Seat.pair(server, users)
        await reach_players_decision(server, [goku, krillin])
        decided = server.version
        await goku.act(Choose(option=0), decided)
        voted = await goku.until(ViewMessage)
        while not voted.votes:
            voted = await goku.until(ViewMessage)
        assert voted.votes == {"0": 0} and server.version == decided

        # Krillin's player drops without voting: Goku's vote decides.
        krillin.client.writer.transport.abort()
        await wait_for(lambda: server.version == decided + 1)
        assert server.session.actions[-1] == {"type": "choose", "option": 0}
    finally:
        await server.close()


async def test_a_vote_waits_when_nobody_is_left(catalog: Catalog, tmp_path: Path) -> None:
    users = Users()
    server = await start(catalog, tmp_path, users, decide="vote")
    try:
        goku, krillin = await Seat.pair(server, users)
        await reach_players_decision(server, [goku, krillin])
        decided = server.version
        await goku.act(Choose(option=0), decided)
        await wait_for(lambda: server.votes == {0: 0})
        # Goku first: with Krillin alone left, the vote would be complete.
        goku.client.writer.transport.abort()
        await wait_for(lambda: len(server.connections) == 1)
        assert server.version == decided
        krillin.client.writer.transport.abort()
        await wait_for(lambda: not server.connections)
        await asyncio.sleep(0.2)
        assert server.version == decided and server.session.match.game.actor() == "players"
        # Krillin comes back: Goku's vote is not counted while Goku is away.
        back = await Seat.join(server, users, "bob", seat=1)
        assert server.version == decided
        await back.until(ViewMessage)
        await back.act(Choose(option=0), decided)
        await wait_for(lambda: server.version == decided + 1)
    finally:
        await server.close()


# --- the table file -----------------------------------------------------------------------


async def test_the_table_file_keeps_where_it_was_served(
    catalog: Catalog, tmp_path: Path, table: tuple[TableServer, Users]
) -> None:
    path = tmp_path / "game.table"
    assert path.stat().st_mode & 0o777 == 0o600
    assert TableServer.stored_place(tmp_path, "game") == {
        "name": "club",
        "socket": str(tmp_path / "club.sock"),
        "group": "",
        "tcp": "",
        "ssh": "",
        "authorized_keys": "",
    }
    assert TableServer.stored_place(tmp_path, "nothing") == {}
    path.write_text("[1, 2]", encoding="utf-8")
    assert TableServer.stored_place(tmp_path, "game") == {}


def test_a_too_long_line_is_refused_by_size() -> None:
    from dbdeck.net.protocol import ProtocolError, decode_client

    with pytest.raises(ProtocolError, match="too long"):
        decode_client(b'{"type": "chat", "text": "' + b"x" * MAX_LINE + b'"}')
    hello = HelloMessage(type="hello", protocol=PROTOCOL_VERSION)
    assert decode_server(b'{"type": "refusal", "reason": "x"}').reason == "x"
    assert hello.protocol == PROTOCOL_VERSION
