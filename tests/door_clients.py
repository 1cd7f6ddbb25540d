"""SSH clients for the tests of the SSH door: asyncssh's own client with a
terminal of a given size, whose every byte is kept and drawn on a
terminal emulator (pyte), so that a test reads the screen a player sees.

The door in these tests is the real one: each session runs the real
``door_seat`` app in a process of its own, on a pty, at a real table
server. Nothing waits a fixed time: every wait is for a condition, with a
generous deadline for a loaded box.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh
import pyte
from table_clients import Users

from dbdeck.cli import DOOR_SEAT
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.game import Setup
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.net.door import SshDoor
from dbdeck.net.door_identity import DoorIdentities
from dbdeck.net.server import TableServer
from dbdeck.saves import Session

SETUP = Setup(characters=["goku", "krillin"], villain="freezer", difficulty="easy", seed=11)
"""Goku (seat 0) and Krillin (seat 1) against Freezer."""

DEADLINE = 30.0
"""Seconds a test waits for what must come (an app starts in one or two)."""

PLAYERS = ("ann", "bob", "carol", "mallory")
"""The keys the tests hold; mallory's is in no file."""

ESCAPES = re.compile(
    rb"\x1b(?:\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()][0-9A-Za-z]|.)"
)
"""Terminal escape sequences (CSI, OSC, charset choices, two-byte ones)."""


async def until(check: Callable[[], object], what: str, timeout: float = DEADLINE) -> Any:
    """Wait until ``check()`` is true, and return it; fail the test
    naming ``what`` past ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        await asyncio.sleep(0.02)


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended and been reaped."""
    return not Path(f"/proc/{pid}").exists()


@dataclass
class DoorTable:
    """A table served with its SSH door, in the test's folder."""

    server: TableServer
    door: SshDoor
    identities: DoorIdentities
    users: Users
    folder: Path
    keys: dict[str, asyncssh.SSHKey]
    terminals: list[SshTerminal] = field(default_factory=list)

    @property
    def port(self) -> int:
        """The door's port."""
        return self.door.address[1]

    def settings(self, name: str, **values: bool) -> None:
        """Write a player's settings at the door (their own file)."""
        import json

        players = self.door.folder / "players"
        players.mkdir(parents=True, exist_ok=True, mode=0o700)
        (players / f"{name}.json").write_text(json.dumps(values), encoding="utf-8")

    async def close(self) -> None:
        """Close every client, the door, then the table."""
        for terminal in self.terminals:
            await terminal.close()
        await self.door.close()
        await self.server.close()


def keys_line(key: asyncssh.SSHKey, comment: str, options: str = "") -> str:
    """A line of an ``authorized_keys`` file for ``key``."""
    public = key.export_public_key().decode().split()
    return " ".join([*([options] if options else []), public[0], public[1], comment])


def write_keys(path: Path, lines: list[str]) -> Path:
    """Write a keys file, the host's own and written by no one else."""
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    path.chmod(0o600)
    return path


async def open_table(
    catalog: Catalog,
    folder: Path,
    keys: dict[str, asyncssh.SSHKey],
    *,
    lines: list[str] | None = None,
    setup: Setup = SETUP,
    **door_options: Any,
) -> DoorTable:
    """Alice's table "club" on ``folder/club.sock`` (alice and bob may
    join it from the box), with its SSH door on a free loopback port; by
    default ann and bob sit and carol's key only watches."""
    session = Session.start(DeckbuildingRules(catalog), setup, folder, save_id="game")
    users = Users()
    identities = DoorIdentities(users, lambda user: user in ("alice", "bob"))
    server = TableServer(
        session,
        "club",
        socket_path=folder / "club.sock",
        owner="alice",
        identify=identities.identify,
        admits=identities.admits,
        may_sit=identities.may_sit,
        bot_delay=0.0,
        announce=False,
    )
    await server.start()
    if lines is None:
        lines = [
            keys_line(keys["ann"], "ann"),
            keys_line(keys["bob"], "bob@laptop", 'name="bob"'),
            keys_line(keys["carol"], "carol", "watch-only"),
        ]
    keys_file = write_keys(folder / "keys", lines)
    door_options.setdefault("grace", 1.0)
    door = SshDoor(
        server,
        identities,
        keys_file,
        ("127.0.0.1", 0),
        seat_command=DOOR_SEAT,
        folder=folder / "door",
        **door_options,
    )
    try:
        await door.start()
    except BaseException:
        await server.close()
        raise
    return DoorTable(server, door, identities, users, folder, keys)


async def ssh_connect(
    table: DoorTable, key: asyncssh.SSHKey | None, *, username: str = "player", **options: Any
) -> asyncssh.SSHClientConnection:
    """An SSH connection to the door with ``key`` (``None``: no key)."""
    return await asyncssh.connect(
        "127.0.0.1",
        table.port,
        username=username,
        client_keys=[key] if key is not None else [],
        known_hosts=None,
        agent_path=None,
        password=None,
        kbdint_auth=False,
        gss_auth=False,
        host_based_auth=False,
        **options,
    )


class _Told(asyncssh.SSHClient):
    """A client that keeps why its connection ended."""

    def __init__(self) -> None:
        self.why: Exception | None = None
        self.lost = asyncio.get_running_loop().create_future()

    def connection_lost(self, exc: Exception | None) -> None:
        self.why = exc
        if not self.lost.done():
            self.lost.set_result(None)


async def dropped(table: DoorTable, key: asyncssh.SSHKey) -> str:
    """Log in with ``key`` and wait for the door to let the connection go;
    the reason it gave (empty when it gave none)."""
    try:
        _conn, client = await asyncssh.create_connection(
            _Told,
            "127.0.0.1",
            table.port,
            username="player",
            client_keys=[key],
            known_hosts=None,
            agent_path=None,
        )
    except asyncssh.DisconnectError as exc:
        return exc.reason
    assert isinstance(client, _Told)
    await asyncio.wait_for(client.lost, DEADLINE)
    return client.why.reason if isinstance(client.why, asyncssh.DisconnectError) else ""


class SshTerminal:
    """A player at the door: an SSH connection with a terminal, and the
    screen it shows."""

    def __init__(
        self, conn: asyncssh.SSHClientConnection, process: Any, size: tuple[int, int]
    ) -> None:
        self.conn = conn
        self.process = process
        self.screen = pyte.Screen(*size)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        """Every byte the door sent this terminal."""
        self.ended = False
        self._reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(
        cls,
        table: DoorTable,
        name: str,
        *,
        username: str = "player",
        size: tuple[int, int] = (100, 30),
        term: str = "xterm-256color",
        env: dict[str, str] | None = None,
    ) -> SshTerminal:
        """Log in with ``name``'s key and open a terminal of ``size``."""
        conn = await ssh_connect(table, table.keys[name], username=username)
        process = await conn.create_process(
            term_type=term, term_size=size, encoding=None, env=env or {}
        )
        terminal = cls(conn, process, size)
        table.terminals.append(terminal)
        return terminal

    async def _read(self) -> None:
        while True:
            try:
                data = await self.process.stdout.read(65536)
            except (asyncssh.Error, OSError):
                data = b""
            if not data:
                self.ended = True
                return
            self.raw += data
            self.stream.feed(data)

    def text(self) -> str:
        """The screen now, line by line."""
        return "\n".join(self.screen.display)

    def plain(self) -> str:
        """Everything the door sent, without escape sequences."""
        return ESCAPES.sub(b"", bytes(self.raw)).decode("utf-8", "replace")

    def type(self, keys: str | bytes) -> None:
        """Type keys into the terminal (of a session still open)."""
        if self.ended or self.process.stdin.is_closing():
            raise AssertionError(f"the session ended; what it showed last:\n{self.plain()[-3000:]}")
        self.process.stdin.write(keys.encode() if isinstance(keys, str) else keys)

    def resize(self, columns: int, rows: int) -> None:
        """Resize the terminal (the client's window changes)."""
        self.screen.resize(rows, columns)
        self.process.change_terminal_size(columns, rows)

    async def shows(self, words: str, timeout: float = DEADLINE) -> None:
        """Wait until the screen shows ``words``."""
        try:
            await until(lambda: words in self.text(), f"{words!r} on the screen", timeout)
        except AssertionError:
            raise AssertionError(f"{words!r} not shown; the screen:\n{self.text()}") from None

    async def end(self, timeout: float = DEADLINE) -> None:
        """Wait until the door ends the session."""
        await until(lambda: self.ended, "the session to end", timeout)

    async def close(self) -> None:
        """Close the connection (if it is still open)."""
        self.conn.close()
        self._reader.cancel()
        with contextlib.suppress(TimeoutError, asyncssh.Error, OSError):
            await asyncio.wait_for(self.conn.wait_closed(), 5)


def app_pids(table: DoorTable) -> list[int]:
    """The process ids of the door's running apps."""
    return [t.pid for t in table.door.terminals() if t.pid is not None and t.running()]


def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (not a zombie)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
