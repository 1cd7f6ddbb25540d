"""The SSH door, end to end: asyncssh's own client logs in with a key, gets
a terminal, and plays at a real table through the real ``door_seat`` app,
one process on its own pty per session (``door_clients``).

Each test holds one of the promises ``docs/security.md`` lists: who may
come in, who they are at the table, what a session may do (a seat and
nothing more), how its terminal is handled, and that its app ends with it.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import logging
import struct
import termios
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import pytest
from door_clients import (
    PLAYERS,
    DoorTable,
    SshTerminal,
    alive,
    app_pids,
    dropped,
    gone,
    keys_line,
    open_table,
    ssh_connect,
    until,
    write_keys,
)

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.net.door import NO_COMMANDS, NO_FORWARDING, NO_TERMINAL, load_host_key
from dbdeck.net.door_pty import MAX_SIZE
from dbdeck.net.server import _QuietLog


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat tokens, the table list and every folder of the apps in the
    test's own folders (the apps take the host's ``XDG_*``)."""
    for kind in ("STATE", "DATA", "CONFIG"):
        monkeypatch.setenv(f"XDG_{kind}_HOME", str(tmp_path / kind.lower()))
    monkeypatch.setenv("DBDECK_TABLES", str(tmp_path / "tables"))


@pytest.fixture(scope="module")
def keys() -> dict[str, asyncssh.SSHKey]:
    """A key for each player of the tests."""
    return {name: asyncssh.generate_private_key("ssh-ed25519") for name in PLAYERS}


@pytest.fixture
async def table(
    catalog: Catalog, tmp_path: Path, keys: dict[str, asyncssh.SSHKey]
) -> AsyncIterator[DoorTable]:
    table = await open_table(catalog, tmp_path, keys)
    yield table
    await table.close()


def _text(output: bytes | str | None) -> str:
    return output.decode() if isinstance(output, bytes) else output or ""


def _seats(table: DoorTable) -> dict[int, str]:
    return {seat.number: seat.user for seat in table.server.table.seats}


def _client(table: DoorTable, user: str) -> object:
    return next((c for c in table.server.clients if c.user == user), None)


# --- who may come in -----------------------------------------------------------------------------


async def test_a_key_of_the_file_sits_and_is_told_who_it_is(table: DoorTable) -> None:
    ann = await SshTerminal.open(table, "ann")
    await ann.shows("Goku's hand")
    assert _seats(table)[0] == "ssh:ann"
    fingerprint = table.keys["ann"].get_fingerprint("sha256")
    # The welcome, in a toast that may wrap: its words in order.
    await ann.shows("You are ann (SSH key")
    words = " ".join(ann.text().replace("▌", " ").split())
    assert "at alice's table club, seat 0." in words
    assert fingerprint[:20] in words
    assert "(ssh:ann)" in ann.text()  # the table names the seat's player so
    ann.type("q")
    await ann.end()
    assert "You left alice's table club, seat 0: the seat is held." in ann.plain()
    assert ann.process.exit_status == 0


async def test_a_key_not_in_the_file_no_key_and_a_password_are_refused(
    table: DoorTable, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, "dbdeck.server")
    with pytest.raises(asyncssh.PermissionDenied):
        await ssh_connect(table, table.keys["mallory"])
    with pytest.raises(asyncssh.PermissionDenied):
        await ssh_connect(table, None)
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncssh.connect(
            "127.0.0.1",
            table.port,
            username="ann",
            password="hunter2",
            client_keys=[],
            known_hosts=None,
            agent_path=None,
        )
    said = caplog.text
    assert f"refused the key {table.keys['mallory'].get_fingerprint('sha256')}" in said
    assert "left without logging in" in said
    assert table.server.clients == []
    await until(lambda: not table.door.connections, "the refused connections to close")


async def test_failed_logins_are_logged_rate_limited(
    table: DoorTable, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, "dbdeck.server")
    table.server.quiet = _QuietLog(logging.getLogger("dbdeck.server"), 3, 60.0)
    for _ in range(6):
        with pytest.raises(asyncssh.PermissionDenied):
            await ssh_connect(table, table.keys["mallory"])
    refused = [r for r in caplog.records if "refused the key" in r.getMessage()]
    assert len(refused) == 3
    table.server.quiet.flush()
    assert "more warnings about clients" in caplog.records[-1].getMessage()


async def test_the_host_key_is_made_once_kept_0600_and_is_the_one_served(
    table: DoorTable, tmp_path: Path
) -> None:
    path = table.door.folder / "ssh_host_ed25519_key"
    assert path.stat().st_mode & 0o777 == 0o600
    assert table.door.made_host_key
    key, made = load_host_key(path)
    assert not made and key.get_fingerprint() == table.door.fingerprint
    conn = await ssh_connect(table, table.keys["ann"])
    try:
        assert conn.get_server_host_key() is not None
        assert conn.get_server_host_key().get_fingerprint() == table.door.fingerprint  # type: ignore[union-attr]
    finally:
        conn.close()
    path.chmod(0o644)
    with pytest.raises(OSError, match="may be read by others"):
        load_host_key(path)


# --- who they are at the table --------------------------------------------------------------------


async def test_two_keys_get_two_seats_and_a_key_coming_back_gets_its_own(
    table: DoorTable,
) -> None:
    ann = await SshTerminal.open(table, "ann")
    await ann.shows("Goku's hand")
    bob = await SshTerminal.open(table, "bob")
    await bob.shows("Krillin's hand")
    assert _seats(table) == {0: "ssh:ann", 1: "ssh:bob"}
    # Ann's connection drops; her seat is held, and her key takes it back.
    await ann.close()
    await until(lambda: _client(table, "ssh:ann") is None, "ann to leave the table")
    assert _seats(table)[0] == "ssh:ann"
    again = await SshTerminal.open(table, "ann")
    await again.shows("Goku's hand")
    assert _seats(table) == {0: "ssh:ann", 1: "ssh:bob"}
    # The seats are kept with the save under the door's names.
    saved = json.loads((table.folder / "game.table").read_text(encoding="utf-8"))
    assert [s["user"] for s in saved["seats"]] == ["ssh:ann", "ssh:bob"]


async def test_a_local_user_cannot_pass_for_a_door_player(table: DoorTable) -> None:
    """Over the table's own socket a user is who the kernel says; a name of
    the door's namespace from there is no one, and refused."""
    from dbdeck.net.client import JoinRefused, TableClient

    ann = await SshTerminal.open(table, "ann")
    await ann.shows("Goku's hand")
    table.users.next.append("ssh:ann")
    client = await TableClient.connect(socket_path=table.server.socket_path)
    with pytest.raises(JoinRefused, match="cannot tell which user you are"):
        await client.hello(seat=0, user="ssh:ann")
    await client.close()
    # Bob from the box is bob, and ann's seat stays hers.
    table.users.next.append("bob")
    client = await TableClient.connect(socket_path=table.server.socket_path)
    with pytest.raises(JoinRefused, match="seat 0 is held by ssh:ann"):
        await client.hello(seat=0)
    await client.close()
    assert _seats(table)[0] == "ssh:ann"


async def test_a_watch_only_key_watches_and_cannot_act(table: DoorTable) -> None:
    server = table.server
    carol = await SshTerminal.open(table, "carol")
    await until(lambda: _client(table, "ssh:carol") is not None, "carol at the table")
    await carol.shows("Round 1")
    assert _client(table, "ssh:carol").seat is None  # type: ignore[attr-defined]
    assert all(not s.user for s in server.table.seats)
    # Goku's turn: nothing carol types moves the game.
    for keys in ("p", "e", "\r", "b", "a"):
        carol.type(keys)
    ann = await SshTerminal.open(table, "ann")
    await ann.shows("Goku's hand")
    assert server.version == 0
    assert _seats(table) == {0: "ssh:ann", 1: ""}
    # Her identity may never take a seat, whatever its client asks.
    assert not table.identities.may_sit("ssh:carol")
    assert table.identities.may_sit("ssh:ann")


async def test_watch_as_the_login_name_watches_with_any_key(table: DoorTable) -> None:
    ann = await SshTerminal.open(table, "ann", username="watch")
    await until(lambda: _client(table, "ssh:ann") is not None, "ann at the table")
    await ann.shows("Round 1")
    assert _client(table, "ssh:ann").seat is None  # type: ignore[attr-defined]
    assert _seats(table)[0] == ""


# --- a seat and nothing more --------------------------------------------------------------------


async def test_commands_subsystems_and_a_terminal_less_shell_are_refused(
    table: DoorTable,
) -> None:
    conn = await ssh_connect(table, table.keys["ann"])
    try:
        result = await conn.run("id; cat /etc/passwd", check=False)
        assert result.exit_status == 1
        assert NO_COMMANDS in str(result.stderr) and not result.stdout
        # One terminal a connection, even one refused: a new one for each try.
        with pytest.raises(asyncssh.ChannelOpenError, match="one terminal a connection"):
            await asyncio.wait_for(conn.create_process(term_type="xterm"), 10)
    finally:
        conn.close()
    conn = await ssh_connect(table, table.keys["ann"])
    try:
        process = await conn.create_process(term_type=None, encoding=None)
        result = await asyncio.wait_for(process.wait(), 10)
        assert result.exit_status == 1
        assert NO_TERMINAL in _text(result.stderr)
    finally:
        conn.close()
    assert app_pids(table) == [] and table.server.clients == []


async def test_sftp_is_refused_with_a_message(table: DoorTable) -> None:
    conn = await ssh_connect(table, table.keys["ann"])
    try:
        process = await conn.create_process(subsystem="sftp", encoding=None)
        result = await asyncio.wait_for(process.wait(), 10)
        assert result.exit_status == 1
        said = _text(result.stderr)
        assert "it serves no sftp (no files, no shell)" in said
    finally:
        conn.close()


async def test_a_shell_is_the_table_and_runs_nothing_typed(table: DoorTable) -> None:
    ann = await SshTerminal.open(table, "ann")
    await ann.shows("Goku's hand")
    ann.type("echo $((6*7))\r")
    ann.type("\x1b")  # whatever opened, closed
    await ann.shows("Goku's hand")
    assert "42" not in ann.plain()


async def test_port_and_agent_forwarding_are_refused(table: DoorTable) -> None:
    conn = await ssh_connect(table, table.keys["ann"], agent_forwarding=True)
    try:
        with pytest.raises(asyncssh.ChannelOpenError, match=NO_FORWARDING):
            await conn.open_connection("127.0.0.1", table.port)
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_unix_connection(str(table.server.socket_path))
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 9)
        process = await conn.create_process(term_type="xterm", term_size=(90, 30), encoding=None)
        link = await until(
            lambda: next((c for c in table.door.connections if c.session is not None), None),
            "the session",
        )
        await until(lambda: link.session.terminal is not None, "the app")
        assert link.conn.get_agent_path() is None
        assert "SSH_AUTH_SOCK" not in link.session.terminal.env
        process.close()
    finally:
        conn.close()


# --- the terminal ---------------------------------------------------------------------------------


async def test_a_resize_reaches_the_app_and_sizes_are_bounded(table: DoorTable) -> None:
    ann = await SshTerminal.open(table, "ann", size=(100, 30))
    await ann.shows("Goku's hand")
    assert "End turn" in ann.screen.display[29]
    ann.resize(120, 40)
    # The app lays out its screen anew: the key bar is on the new last line.
    await until(lambda: "End turn" in ann.screen.display[39], "the key bar on line 40")
    terminal = table.door.terminals()[0]
    assert terminal.size == (120, 40)
    ann.resize(65535, 65535)
    await until(lambda: terminal.size == MAX_SIZE, "the size clamped")
    ann.process.change_terminal_size(0, 0)
    await until(lambda: terminal.size == (80, 24), "an unknown size taken as 80x24")
    rows, columns = struct.unpack(
        "HHHH", fcntl.ioctl(terminal._master, termios.TIOCGWINSZ, b"\0" * 8)
    )[:2]
    assert (columns, rows) == (80, 24)


async def test_the_terminal_type_and_locale_choose_ascii(table: DoorTable) -> None:
    ann = await SshTerminal.open(table, "ann", term="vt100", env={"LANG": "C", "EVIL": "x"})
    await ann.shows("Goku's hand")
    env = table.door.terminals()[0].env
    assert env["TERM"] == "vt100" and env["LANG"] == "C" and "EVIL" not in env
    assert "╭" not in ann.text() and "+" in ann.text()


# --- the app ends with its session --------------------------------------------------------------


async def test_after_a_drop_the_app_is_gone(table: DoorTable) -> None:
    ann = await SshTerminal.open(table, "ann")
    await ann.shows("Goku's hand")
    [pid] = app_pids(table)
    assert alive(pid)
    ann.conn.abort()  # the client's end goes without a word
    await until(lambda: gone(pid), f"app {pid} to end")
    await until(lambda: _client(table, "ssh:ann") is None, "ann to leave the table")
    assert _seats(table)[0] == "ssh:ann"  # held for her


async def test_an_app_that_ignores_the_hangup_is_killed(table: DoorTable) -> None:
    ann = await SshTerminal.open(table, "ann")
    await ann.shows("Goku's hand")
    [terminal] = table.door.terminals()
    assert terminal.pid is not None
    # The app stops itself (SIGSTOP): a hangup cannot end it, the kill does.
    import os
    import signal

    os.kill(terminal.pid, signal.SIGSTOP)
    ann.conn.abort()
    await until(lambda: gone(terminal.pid), "the stopped app to be killed")  # type: ignore[arg-type]
    assert terminal.process is not None and terminal.process.returncode == -signal.SIGKILL


async def test_when_the_door_closes_every_app_ends(
    catalog: Catalog, tmp_path: Path, keys: dict[str, asyncssh.SSHKey]
) -> None:
    table = await open_table(catalog, tmp_path, keys)
    try:
        ann, carol = await asyncio.gather(
            SshTerminal.open(table, "ann"), SshTerminal.open(table, "carol")
        )
        await asyncio.gather(ann.shows("Goku's hand"), carol.shows("Round 1"))
        pids = app_pids(table)
        assert len(pids) == 2
    finally:
        await table.close()
    assert all(gone(pid) for pid in pids)
    assert table.door.connections == []


# --- limits ---------------------------------------------------------------------------------------


async def test_connections_per_key_and_in_all_are_capped(
    catalog: Catalog, tmp_path: Path, keys: dict[str, asyncssh.SSHKey]
) -> None:
    table = await open_table(catalog, tmp_path, keys, max_per_key=1, max_connections=2)
    try:
        first = await ssh_connect(table, keys["ann"])
        assert "too many connections of ann (1, at most 1)" in await dropped(table, keys["ann"])
        bob = await ssh_connect(table, keys["bob"])
        assert "the door is full" in await dropped(table, keys["carol"])
        # The connections let go are no longer counted.
        await until(lambda: len(table.door.connections) == 2, "two connections left")
        first.close()
        bob.close()
    finally:
        await table.close()


async def test_a_connection_that_does_not_log_in_in_time_is_let_go(
    catalog: Catalog, tmp_path: Path, keys: dict[str, asyncssh.SSHKey]
) -> None:
    table = await open_table(catalog, tmp_path, keys, login_timeout=0.5)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", table.port)
        await until(lambda: table.door.connections, "the connection")
        banner = await asyncio.wait_for(reader.readline(), 5)
        assert banner.startswith(b"SSH-2.0-")
        # Nothing more is said: the door closes the connection.
        rest = await asyncio.wait_for(reader.read(), 10)
        assert rest == b"" or not rest.startswith(b"SSH-")
        await until(lambda: not table.door.connections, "the silent connection to go")
        writer.close()
        # Logged in without opening a terminal: let go too.
        conn = await ssh_connect(table, keys["ann"])
        await asyncio.wait_for(conn.wait_closed(), 10)
    finally:
        await table.close()


async def test_a_client_that_sends_too_fast_is_let_go(
    catalog: Catalog, tmp_path: Path, keys: dict[str, asyncssh.SSHKey]
) -> None:
    table = await open_table(catalog, tmp_path, keys, byte_rate=2000, byte_burst=40000)
    try:
        ann = await SshTerminal.open(table, "ann")
        await ann.shows("Goku's hand")
        [pid] = app_pids(table)
        for _ in range(20):
            ann.type(b"\x1b[B" * 1000)
        await ann.end()
        await until(lambda: gone(pid), "the app to end")
    finally:
        await table.close()


async def test_keys_added_to_the_file_let_their_player_in_at_once(
    catalog: Catalog, tmp_path: Path, keys: dict[str, asyncssh.SSHKey]
) -> None:
    table = await open_table(catalog, tmp_path, keys, lines=[keys_line(keys["ann"], "ann")])
    try:
        with pytest.raises(asyncssh.PermissionDenied):
            await ssh_connect(table, keys["bob"])
        write_keys(
            table.door.keys_file, [keys_line(keys["ann"], "ann"), keys_line(keys["bob"], "bob")]
        )
        conn = await ssh_connect(table, keys["bob"])
        conn.close()
        # A broken file keeps the keys read before.
        table.door.keys_file.write_text("ssh-ed25519 AAAA-broken ann\n", encoding="utf-8")
        conn = await ssh_connect(table, keys["bob"])
        conn.close()
    finally:
        await table.close()
