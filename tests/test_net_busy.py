"""A busy table: one view built per distinct view, and bounded buffers.

Each action builds and encodes one view per seat and one for all the
spectators, whatever the number of clients. What waits for the clients is
bounded for the whole table: clients that never read are let go, the most
behind first and spectators before seats, with the reason in the host's
log and told to the user when they come back.
"""

from __future__ import annotations

import asyncio
import logging
import random
import socket
from pathlib import Path
from typing import Any

import pytest
from table_clients import Seat, Users, start, view_player

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.panels import Offer, TableView
from dbdeck.net.protocol import (
    PROTOCOL_VERSION,
    ChatMessage,
    EventsMessage,
    HelloMessage,
    HostMessage,
    ViewMessage,
    encode,
)
from dbdeck.net.server import TableServer


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("DBDECK_TABLES", str(tmp_path / "tables"))


_ANSWERED: dict[int, int] = {}
"""The last version each seat (by ``id``) answered."""


async def _next_action(seat: Seat, rng: random.Random) -> None:
    """Answer the seat's latest view with offers not yet answered (read
    until there is one)."""
    message = seat.views[-1] if seat.views else None
    while message is None or not message.legal or _ANSWERED.get(id(seat)) == message.version:
        got = await seat.receive()
        message = got if isinstance(got, ViewMessage) else message
    _ANSWERED[id(seat)] = message.version
    offers = [Offer.from_json(o) for o in message.legal]
    await seat.act(view_player(TableView.from_json(message.view), offers, rng), message.version)


async def _deaf(server: TableServer, users: Users, user: str, **hello: Any) -> socket.socket:
    """A client that says hello and never reads a byte (a plain socket: an
    asyncio client would read on into its own buffer)."""
    users.next.append(user)
    deaf = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    deaf.setblocking(False)
    await asyncio.get_running_loop().sock_connect(deaf, str(server.socket_path))
    deaf.sendall(encode(HelloMessage(type="hello", protocol=PROTOCOL_VERSION, **hello)))
    joined = len(server.clients) + 1
    async with asyncio.timeout(5):
        while len(server.clients) < joined:
            await asyncio.sleep(0.01)
    return deaf


async def test_spectators_share_one_view_and_each_seat_has_its_own(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    users = Users()
    server = await start(catalog, tmp_path, users)
    try:
        alice, bob = await Seat.pair(server, users)
        watchers = [await Seat.join(server, users, "carol", spectate=True) for _ in range(5)]
        for seat in (alice, bob, *watchers):
            await seat.settle()
            seat.client.lines.clear()
        built: list[int | None] = []
        view_line = server._view_line

        def counted(seat: int | None) -> bytes:
            built.append(seat)
            return view_line(seat)

        monkeypatch.setattr(server, "_view_line", counted)
        await _next_action(alice, random.Random(1))
        await alice.until(EventsMessage)
        await alice.until(ViewMessage)
        for seat in (bob, *watchers):
            await seat.settle()
        assert sorted(built, key=str) == [0, 1, None]  # 3 views for 7 clients
        seen = {b"".join(w.client.lines) for w in watchers}
        assert len(seen) == 1  # byte for byte the same lines
        assert b"".join(bob.client.lines) not in seen
    finally:
        await server.close()


async def test_clients_that_never_read_are_let_go_spectators_first(
    catalog: Catalog,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    users = Users()
    limit = 256 * 1024
    # Views sent whole, so that what waits passes the bound within a game
    # (as changes, a game sends a few KiB an action).
    server = await start(catalog, tmp_path, users, table_buffers=limit, deltas=False)
    try:
        alice = await Seat.join(server, users, "alice", seat=0)
        bob = await _deaf(server, users, "bob", seat=1)
        watchers = [await _deaf(server, users, "carol", spectate=True) for _ in range(3)]
        # Alice plays every Character: bob's seat never reads, nor do the watchers.
        await alice.client.send(HostMessage(type="host", character="krillin", to_seat=0))
        rng = random.Random(2)
        order: list[int | None] = []
        most = 0
        with caplog.at_level(logging.WARNING, logger="dbdeck.server"):
            for _ in range(600):
                present = [c.seat for c in server.clients]
                await _next_action(alice, rng)
                await asyncio.sleep(0)
                waiting = sum(c.writer.transport.get_write_buffer_size() for c in server.clients)
                most = max(most, waiting)
                gone = len(present) - len(server.clients)
                if gone:
                    after = [c.seat for c in server.clients]
                    for seat in after:
                        present.remove(seat)
                    order += present
                if server.session.match.game.over or 1 not in [c.seat for c in server.clients]:
                    break
        assert order == [None, None, None, 1], order  # the spectators, then bob's seat
        assert most <= limit + 64 * 1024  # within one broadcast of the bound
        assert [c.seat for c in server.clients] == [0]  # alice reads: she stays
        warned = [r.getMessage() for r in caplog.records if "let go" in r.getMessage()]
        assert len(warned) == 4
        assert all("was let go for reading too slowly" in w for w in warned)
        assert "carol (a spectator)" in warned[0] and "bob (seat 1)" in warned[-1]
        assert "more than the 256 KiB it holds" in warned[-1]

        # Back at the table, bob is told why he was let go.
        back = await Seat.join(server, users, "bob", seat=1)
        told = await back.until(ChatMessage)
        assert told.sender == "(table)" and told.text.startswith("bob (seat 1) was let go")
        for deaf in (bob, *watchers):
            deaf.close()
    finally:
        await server.close()


async def test_one_client_past_its_own_cap_is_let_go(catalog: Catalog, tmp_path: Path) -> None:
    users = Users()
    server = await start(catalog, tmp_path, users, slow_client=64 * 1024)
    try:
        alice = await Seat.join(server, users, "alice", seat=0)
        carol = await _deaf(server, users, "carol", spectate=True)
        await alice.client.send(HostMessage(type="host", character="krillin", to_seat=0))
        rng = random.Random(3)
        for _ in range(600):
            await _next_action(alice, rng)
            await asyncio.sleep(0)
            if len(server.clients) == 1 or server.session.match.game.over:
                break
        assert [c.seat for c in server.clients] == [0]
        assert "carol" in server.let_go and "more than one may hold" in server.let_go["carol"]
        carol.close()
    finally:
        await server.close()
