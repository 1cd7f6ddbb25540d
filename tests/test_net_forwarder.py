"""A TCP forwarder run by a table member admits whoever has the join token,
as that member.

Over TCP the table knows a client by the owner of the client's socket
(``/proc/net/tcp``). A forwarder makes its own connection to the table, so
everyone who comes through it is the forwarder's owner to the table: a
process of another uid, refused when it connects itself, is admitted as the
member through the member's forwarder once it has the join token, and only
then. Another uid is played by a child process that gives up root for a uid
with no account.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from table_clients import SETUP

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.net.listing import user_name
from dbdeck.net.protocol import PROTOCOL_VERSION
from dbdeck.net.server import TableServer
from dbdeck.saves import Session

STRANGER = 4242
"""A uid with no account on the box: another user."""

TOKEN = "forwarded-table-join-token"

PLAIN_PYTHON = shutil.which("python3", path="/usr/bin:/bin") or "/usr/bin/python3"

pytestmark = pytest.mark.skipif(
    os.getuid() != 0 or not os.path.exists(PLAIN_PYTHON),
    reason="playing another uid needs root and a python3 it can run",
)

_JOIN = """
import json, socket, sys
port, token, protocol = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
    hello = {"type": "hello", "protocol": protocol, "join_token": token, "spectate": True}
    sock.sendall(json.dumps(hello).encode() + b"\\n")
    lines = sock.makefile("rb")
    while True:
        message = json.loads(lines.readline())
        if message["type"] == "refusal":
            print(json.dumps({"refused": message["reason"]}))
            break
        if message["type"] == "welcome":
            print(json.dumps({"welcome": message["table"]}))
            break
"""
"""A client in plain Python of the box (the project's interpreter may be in
a folder the other uid cannot reach): says hello, prints the answer."""


def _as_stranger(port: int, token: str) -> dict[str, str]:
    """Join the table at ``port`` from a process of uid ``STRANGER``."""
    out = subprocess.run(
        [PLAIN_PYTHON, "-I", "-c", _JOIN, str(port), token, str(PROTOCOL_VERSION)],
        capture_output=True,
        text=True,
        timeout=30,
        user=STRANGER,
        env={"PATH": "/usr/bin:/bin"},
        cwd="/",
        check=True,
    ).stdout
    answer: dict[str, str] = json.loads(out)
    return answer


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(ConnectionError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    writer.close()


@contextlib.asynccontextmanager
async def _forwarder(port: int) -> AsyncIterator[int]:
    """A plain TCP forwarder to ``port`` run by this user (like ``socat``)."""

    async def relay(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", port)
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))

    server = await asyncio.start_server(relay, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        server.close()


async def test_a_members_forwarder_admits_the_token_holder_as_the_member(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    session = Session.start(DeckbuildingRules(catalog), SETUP, tmp_path, save_id="game")
    me = user_name()
    server = TableServer(
        session, "club", tcp=("127.0.0.1", 0), join_token=TOKEN, announce=False, owner=me
    )
    await server.start()
    assert server.tcp is not None
    port = server.tcp[1]
    try:
        # Itself, the other uid is known for who it is, and refused.
        direct = await asyncio.to_thread(_as_stranger, port, TOKEN)
        assert direct == {"refused": f"this table admits {me} only"}
        async with _forwarder(port) as forwarded:
            # Through the member's forwarder: the member, once it has the token.
            no_token = await asyncio.to_thread(_as_stranger, forwarded, "wrong-token-000000")
            assert no_token == {"refused": "a valid join token is needed over TCP"}
            through = await asyncio.to_thread(_as_stranger, forwarded, TOKEN)
            assert through == {"welcome": "club"}
    finally:
        await server.close()
