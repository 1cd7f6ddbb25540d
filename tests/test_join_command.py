"""``dbdeck join`` and ``dbdeck host`` on a shared box with hostile users.

The join token never travels on a command line; a joined terminal sends its
seat token only to a server run by the table's host; a resumed table is
served where it was, so joined terminals come back by themselves; and a
joined terminal whose terminal went away ends.
"""

from __future__ import annotations

import asyncio
import json
import os
import pty
import pwd
import select
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
from table_clients import SETUP

from dbdeck.cli import build_parser, main
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.games.deckbuilding.tui.remote import JoinApp
from dbdeck.net import commands
from dbdeck.net.commands import TOKEN_ENV, join_token
from dbdeck.net.listing import (
    TableEntry,
    default_socket,
    host_uid,
    join_token_for,
    list_tables,
    read_token_file,
    user_name,
    write_entry,
)
from dbdeck.net.server import TableServer
from dbdeck.saves import Session

STRANGER = 4242
"""A uid with no account on the box: "another user"."""


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables, tokens, saves and the runtime folder in the test's own folder."""
    monkeypatch.setenv("DBDECK_TABLES", str(tmp_path / "tables"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("DBDECK_SAVES", str(tmp_path / "saves"))
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))
    monkeypatch.delenv(TOKEN_ENV, raising=False)


async def _until(condition: Any, pilot: Any, what: str, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.05)


# --- the join token ----------------------------------------------------------------------------


def test_a_token_on_the_command_line_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    for given in (["--token", "sesame"], ["--token"]):
        assert main(["join", "--tcp", "127.0.0.1:9", *given]) == 2
        assert "--token is gone" in capsys.readouterr().err
    # Not taken for an abbreviation of --token-file either.
    with pytest.raises(SystemExit):
        build_parser().parse_args(["join", "--tok", "sesame"])


def _token_file(tmp_path: Path, mode: int, uid: int | None = None) -> Path:
    path = tmp_path / "token"
    path.write_text("sesame-sesame-sesame\n", encoding="utf-8")
    path.chmod(mode)
    if uid is not None:
        os.chown(path, uid, -1)
    return path


def test_the_join_token_comes_from_a_private_file_the_environment_or_a_prompt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    address = "127.0.0.1:7777"
    path = _token_file(tmp_path, 0o600)
    assert join_token(str(path), address) == "sesame-sesame-sesame"

    monkeypatch.setenv(TOKEN_ENV, " from-the-env ")
    assert join_token(None, address) == "from-the-env"
    assert join_token(str(path), address) == "sesame-sesame-sesame"  # the file first
    monkeypatch.delenv(TOKEN_ENV)

    class Terminal:
        def isatty(self) -> bool:
            return True

    asked: list[str] = []

    def getpass(prompt: str) -> str:
        asked.append(prompt)
        return "typed"

    monkeypatch.setattr(sys, "stdin", Terminal())
    monkeypatch.setattr("getpass.getpass", getpass)
    assert join_token(None, address) == "typed" and address in asked[0]

    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(ValueError, match=f"needs the table's join token.*{TOKEN_ENV}"):
        join_token(None, address)


@pytest.mark.parametrize(
    ("mode", "uid", "why"),
    [
        (0o640, None, "may be read by others .mode 0640.: chmod 600"),
        (0o604, None, "may be read by others"),
        (0o600, STRANGER, f"belongs to uid {STRANGER}, not to you"),
    ],
)
def test_a_token_file_others_may_read_is_refused(
    mode: int, uid: int | None, why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _token_file(tmp_path, mode, uid)
    with pytest.raises(ValueError, match=why):
        read_token_file(path)
    assert main(["join", "--tcp", "127.0.0.1:9", "--token-file", str(path)]) == 2
    err = capsys.readouterr().err
    assert "may be read" in err or "belongs to" in err
    assert "sesame" not in err


def test_the_hosts_join_token_is_kept_private_and_for_the_resumed_table(tmp_path: Path) -> None:
    token, path = join_token_for("game")
    assert path == tmp_path / "state" / "dbdeck" / "tables" / "game.join-token"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert read_token_file(path) == token and len(token) >= 16
    assert join_token_for("game") == (token, path)  # TCP players keep theirs
    path.chmod(0o644)  # others may have read it: a new one
    fresh, _ = join_token_for("game")
    assert fresh != token and stat.S_IMODE(path.stat().st_mode) == 0o600


async def test_a_tcp_player_joins_with_the_token_from_the_environment(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    token, _ = join_token_for("game")
    session = Session.start(DeckbuildingRules(catalog), SETUP, tmp_path / "saves", save_id="game")
    server = TableServer(
        session, "club", tcp=("127.0.0.1", 0), join_token=token, announce=False, bot_delay=0
    )
    await server.start()
    try:
        assert server.tcp is not None
        monkeypatch.setenv(TOKEN_ENV, token)
        address = f"127.0.0.1:{server.tcp[1]}"
        app = JoinApp(
            DeckbuildingRules(catalog),
            tcp=server.tcp,
            seat=1,
            join_token=join_token(None, address),
            user="bob",
        )
        async with app.run_test(size=(160, 50)) as pilot:
            await _until(lambda: app.table is not None, pilot, "the table")
            assert app.seat == 1 and server.table.seats[1].user
    finally:
        await server.close()


# --- whose server ------------------------------------------------------------------------------


class Listener:
    """A Unix socket that accepts and records every byte sent to it (and
    never answers): does a client send anything, a hello, a token?"""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.received = b""
        self.connections = 0
        self.server: asyncio.AbstractServer | None = None

    async def __aenter__(self) -> Listener:
        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            self.connections += 1
            self.received += await reader.read()
            writer.close()

        self.server = await asyncio.start_unix_server(serve, path=str(self.path))
        return self

    async def __aexit__(self, *_: object) -> None:
        assert self.server is not None
        self.server.close()


async def test_no_token_goes_to_a_server_that_is_not_the_hosts(
    catalog: Catalog, tmp_path: Path
) -> None:
    """The table list names alice (uid 4242) as the host; root serves the
    socket: the app stops before its hello, which carries the seat token."""
    async with Listener(tmp_path / "club.sock") as planted:
        app = JoinApp(
            DeckbuildingRules(catalog), socket_path=planted.path, server_owner=("alice", STRANGER)
        )
        async with app.run_test() as pilot:
            await _until(lambda: bool(app.failure), pilot, "the refusal")
        await asyncio.sleep(0.1)
        assert planted.connections == 1 and planted.received == b""
    assert app.failure == (
        f"the socket {planted.path} is served by uid 0 (root), not by alice: "
        "not sending your seat token"
    )


async def test_a_socket_file_of_another_user_gets_no_token_either(
    catalog: Catalog, tmp_path: Path
) -> None:
    """``--socket PATH``: whoever owns the socket file must be serving it."""
    async with Listener(tmp_path / "club.sock") as planted:
        os.chown(planted.path, STRANGER, -1)
        app = JoinApp(DeckbuildingRules(catalog), socket_path=planted.path)
        async with app.run_test() as pilot:
            await _until(lambda: bool(app.failure), pilot, "the refusal")
        assert planted.received == b""
    assert f"served by uid 0 (root), not by {STRANGER}" in app.failure


def _nobody() -> tuple[str, int]:
    try:
        entry = pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("no user 'nobody' on this box")
    return entry.pw_name, entry.pw_uid


async def test_a_listed_table_is_checked_against_its_host(catalog: Catalog, tmp_path: Path) -> None:
    """A table of user nobody, open to group root, listed for root: its
    socket, served by root, is not nobody's server."""
    name, uid = _nobody()
    folder = tmp_path / "tables" / name
    async with Listener(tmp_path / "club.sock") as planted:
        folder.mkdir(parents=True)
        entry = TableEntry("club", str(planted.path), name, os.getpid(), group="root")
        # Written as root, then given to nobody, as nobody's own dbdeck would.
        (folder / "club.json").write_text(json.dumps(asdict(entry)), encoding="utf-8")
        os.chown(folder / "club.json", uid, -1)
        os.chown(folder, uid, -1)
        (tmp_path / "tables").chmod(0o1777)
        chosen = commands._choose(list_tables(), "club")
        assert isinstance(chosen, TableEntry) and chosen.owner == name
        owner_uid = host_uid(chosen.owner)
        assert owner_uid == uid
        app = JoinApp(
            DeckbuildingRules(catalog),
            socket_path=Path(chosen.socket),
            server_owner=(name, owner_uid),
        )
        async with app.run_test() as pilot:
            await _until(lambda: bool(app.failure), pilot, "the refusal")
        assert planted.received == b""
    assert f"not by {name}: not sending your seat token" in app.failure


def test_two_hosts_may_use_the_same_name(tmp_path: Path) -> None:
    alice = TableEntry("club", "/a.sock", "alice", 1)
    bob = TableEntry("club", "/b.sock", "bob", 1)
    refused = str(commands._choose([alice, bob], "club", user="carol"))
    assert "several tables are named 'club', alice's and bob's" in refused
    assert "use --table alice/club or --table bob/club" in refused
    assert commands._choose([alice, bob], "bob/club", user="carol") is bob
    assert commands._label(alice, [alice, bob]) == "alice/club"


def test_anothers_table_of_the_same_name_leaves_ours_chosen() -> None:
    """bob naming a table as alice's does not make alice's --table ambiguous."""
    alice = TableEntry("club", "/a.sock", "alice", 1)
    bob = TableEntry("club", "/b.sock", "bob", 1)
    notes: list[str] = []
    assert commands._choose([bob, alice], "club", notes=notes, user="alice") is alice
    assert notes == [
        "club is your table; bob also has one named so: use --table bob/club for theirs"
    ]
    assert commands._choose([bob, alice], "bob/club", notes=notes, user="alice") is bob


# --- resuming a table --------------------------------------------------------------------------


async def test_a_resumed_table_keeps_its_name_and_socket_and_its_players_come_back(
    catalog: Catalog, tmp_path: Path
) -> None:
    saves = tmp_path / "saves"
    socket_path = default_socket("club", "")
    session = Session.start(DeckbuildingRules(catalog), SETUP, saves, save_id="game")
    server = TableServer(session, "club", socket_path=socket_path, bot_delay=0)
    await server.start()
    app = JoinApp(DeckbuildingRules(catalog), socket_path=socket_path, seat=0)
    try:
        async with app.run_test(size=(160, 50)) as pilot:
            await _until(lambda: app.table is not None, pilot, "the table")
            assert app.table is not None
            asked: list[int] = []
            app.table.ask_again = lambda: asked.append(1)
            await server.close()
            await _until(lambda: app.client is None, pilot, "the lost connection")

            # `dbdeck host --resume game`, and nothing else.
            args = build_parser().parse_args(["host", "--resume", "game"])
            place = commands._resolve_place(args, saves)
            assert place == ("club", str(socket_path), "", "", True)
            session = Session.resume(DeckbuildingRules(catalog), saves, "game")
            server = TableServer(session, place[0], socket_path=Path(place[1]), bot_delay=0)
            await server.start()
            await _until(lambda: app.client is not None, pilot, "the reconnection", 15)
            # The decision dialog (if any) reopens once the first view arrives.
            await _until(lambda: asked == [1], pilot, "ask_again after the new view")
            assert app.seat == 0 and [t.name for t in list_tables()] == ["club"]
    finally:
        await server.close()

    # An override serves the table elsewhere, as asked.
    args = build_parser().parse_args(["host", "--resume", "game", "--name", "other"])
    assert commands._resolve_place(args, saves) == ("other", "", "", "", False)


def _dbdeck() -> str:
    command = shutil.which("dbdeck", path=str(Path(sys.executable).parent))
    assert command, "the dbdeck command is installed next to the interpreter"
    return command


def _host(args: list[str], tmp_path: Path) -> str:
    """Run ``dbdeck host ARGS`` until it is serving, then stop it (Ctrl+C);
    what it printed."""
    process = subprocess.Popen(
        [_dbdeck(), "host", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=dict(os.environ),
        cwd=tmp_path,
    )
    assert process.stdout is not None
    printed = ""
    deadline = time.monotonic() + 30
    try:
        while "Ctrl+C" not in printed and time.monotonic() < deadline:
            line = process.stdout.readline().decode()
            if not line:
                break
            printed += line
        assert "Ctrl+C" in printed, printed
        process.send_signal(signal.SIGINT)
        printed += process.communicate(timeout=20)[0].decode()
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, printed
    return printed


def test_host_resume_as_the_readme_shows_it_serves_the_same_table(tmp_path: Path) -> None:
    first = _host(
        [
            "--villain",
            "freezer",
            "--characters",
            "goku,krillin",
            "--name",
            "club",
            "--tcp",
            "127.0.0.1:0",
        ],
        tmp_path,
    )
    save_id = first.rsplit("dbdeck host --resume ", 1)[1].split()[0]
    socket_line = next(line for line in first.splitlines() if "Socket:" in line)
    tcp_line = next(line for line in first.splitlines() if "Over loopback TCP" in line)
    assert "--token " not in first and "the join token is in" in tcp_line
    # The host is told the table ends with its terminal, and how to keep it.
    assert "The table closes with this terminal" in first
    assert "tmux new -s club" in first

    again = _host(["--resume", save_id], tmp_path)
    assert "Table club:" in again
    assert socket_line in again.splitlines()
    assert tcp_line in again.splitlines()  # the same port, the same token file


# --- the terminal goes away --------------------------------------------------------------------


@pytest.fixture
def silent_table(tmp_path: Path) -> Iterator[Path]:
    """A socket that takes connections and never answers: a joined terminal
    waits at its hello for ever (until its terminal goes)."""
    path = tmp_path / "silent.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(8)
    try:
        yield path
    finally:
        server.close()


def _join_in_a_pty(socket_path: Path, tmp_path: Path) -> tuple[subprocess.Popen[bytes], int]:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env.update(TERM="xterm-256color", COLUMNS="100", LINES="30")
    main_fd, child = pty.openpty()
    process = subprocess.Popen(
        [_dbdeck(), "join", "--socket", str(socket_path)],
        stdin=child,
        stdout=child,
        stderr=child,
        env=env,
        cwd=tmp_path,
        close_fds=True,
    )
    os.close(child)
    seen = b""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and b"Connecting" not in seen:
        if select.select([main_fd], [], [], 0.2)[0]:
            try:
                seen += os.read(main_fd, 65536)
            except OSError:
                break
    assert b"Connecting" in seen, seen[-500:]
    return process, main_fd


def test_join_ends_when_its_terminal_closes(silent_table: Path, tmp_path: Path) -> None:
    process, main_fd = _join_in_a_pty(silent_table, tmp_path)
    try:
        # Not our controlling terminal: no SIGHUP, stdin just hangs up.
        os.close(main_fd)
        assert process.wait(timeout=10) == 1
    finally:
        if process.poll() is None:
            process.kill()


def test_join_ends_on_sighup_and_says_why(silent_table: Path, tmp_path: Path) -> None:
    process, main_fd = _join_in_a_pty(silent_table, tmp_path)
    seen = b""
    try:
        process.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 10
        while process.poll() is None and time.monotonic() < deadline:
            if select.select([main_fd], [], [], 0.2)[0]:
                try:
                    seen += os.read(main_fd, 65536)
                except OSError:
                    break
        assert process.wait(timeout=5) == 1
        with_tail = seen
        while select.select([main_fd], [], [], 0.2)[0]:
            try:
                chunk = os.read(main_fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            with_tail += chunk
        assert b"the terminal closed" in with_tail
    finally:
        if process.poll() is None:
            process.kill()
        os.close(main_fd)


def test_join_without_a_terminal_says_so(
    silent_table: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Closed:
        def isatty(self) -> bool:
            return False

    monkeypatch.setattr(sys, "stdin", Closed())
    assert main(["join", "--socket", str(silent_table)]) == 2
    assert "needs a terminal" in capsys.readouterr().err


def test_write_entry_names_this_user(tmp_path: Path) -> None:
    path = write_entry(TableEntry("club", "", user_name(), os.getpid(), tcp="127.0.0.1:1"))
    assert path.parent.name == user_name()
