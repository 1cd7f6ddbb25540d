"""The SSH door: friends sit at a table with a plain ``ssh`` and their key.

``dbdeck host … --ssh [ADDRESS:]PORT --authorized-keys FILE`` serves, beside
the table, an SSH server (asyncssh, the ``ssh`` extra) that lets in the
keys of an OpenSSH ``authorized_keys`` file (``door_keys``) and nothing
else: no password, no keyboard-interactive, no host-based login. Each
key names its player, who is ``ssh:NAME`` at the table
(``door_identity``): seats, seat tokens, votes, the host's seat dialog and
the log all know them so.

A session is a seat and nothing more. Its terminal runs the joined table's
app (``seat_command``: the CLI gives it) on a pty of its own
(``door_pty``), connected to the table by a socket pair the door hands the
server (``TableServer.serve_door``): the server knows that connection came
through the door, from the object itself, and no local user can reach it
or pass for ``ssh:NAME``. The app opens no menu, no saved game, no replay,
no file and no shell; a command (``ssh host ls``), a subsystem (sftp),
port, agent and X11 forwarding are all refused, with a message where SSH
carries one.

Limits, as for the table's own sockets: ``max_connections`` connections
in all (logged in or not), ``max_per_key`` for one player, one terminal a
connection and ``max_terminals`` at once (each is a process);
``login_timeout`` seconds to log in and open the terminal; ``byte_rate``
bytes a second from a client (after ``byte_burst``), counted on every byte
of the connection; and failed logins logged through the table's
rate-limited log. The host key is made on first use, kept 0600 in the
host's private data folder, and its fingerprint printed for players to
check.

When a client drops, its app is hung up (``SIGHUP``, then ``SIGKILL``
after ``grace`` seconds); when the door closes, every app is.
``docs/security.md`` lists what the door promises and the test that holds
each promise.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import socket
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import asyncssh

from dbdeck.net.door_identity import DoorIdentities, DoorPlayer
from dbdeck.net.door_keys import DoorKey, DoorKeys, KeysProblem, read_door_keys
from dbdeck.net.door_pty import HANGUP_GRACE, SeatTerminal, bounded_size
from dbdeck.net.protocol import MAX_LINE, printable
from dbdeck.net.server import BYTE_BURST, BYTE_RATE, MAX_CONNECTIONS, MAX_PER_USER, TableServer

__all__ = [
    "LOGIN_TIMEOUT",
    "MAX_TERMINALS",
    "DoorProblem",
    "SshDoor",
    "door_folder",
    "parse_door_address",
]

log = logging.getLogger("dbdeck.door")

LOGIN_TIMEOUT = 30.0
"""Seconds a connection has to log in, and then to open its terminal. Longer
than the table's ``HELLO_TIMEOUT``: a person may be typing the passphrase of
their key."""

MAX_TERMINALS = 16
"""Terminals the door runs at once: each is a process of its own (a Python
with Textual, some 60 to 100 MB)."""

START_TIMEOUT = 60.0
"""Seconds a session's app has to start and say hello to the table (a
loaded box may take several to start Python and Textual)."""

WINDOW_CHANGE_COST = 1024
"""What one window change costs against the byte rate: each makes the app
lay out its screen again."""

WATCH_USERNAMES = frozenset({"watch", "spectate"})
"""Login names that join as a spectator with any key (``ssh watch@HOST``)."""

CLIENT_ENV = ("LANG", "LC_ALL", "LC_CTYPE", "COLORTERM", "NO_COLOR", "DBDECK_ASCII")
"""What a client may say of its terminal besides ``TERM`` (OpenSSH sends
``LANG`` and ``LC_*`` when its ``SendEnv`` asks): the table's ASCII and
colour choices follow them (``dbdeck.tui.terminal``)."""

HOST_ENV = ("HOME", "USER", "LOGNAME", "PATH", "TMPDIR", "TZ", "VIRTUAL_ENV", "PYTHONPATH")
"""What the app keeps of the host's environment (with ``XDG_*`` and
``DBDECK_*``, the host's folders and packs): nothing of the host's terminal,
agent or display."""

HOST_ENV_DROPPED = frozenset({"DBDECK_ASCII", "DBDECK_SETTINGS", "DBDECK_JOIN_TOKEN"})
"""The host's own variables a player's app must not take."""

SAFE_TERM = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")
SAFE_VALUE = re.compile(r"[A-Za-z0-9._@+-]{0,64}")

NO_COMMANDS = (
    "This is the door of a dbdeck table: it runs no commands. "
    "Connect with ssh -t and no command to sit at the table."
)
NO_TERMINAL = "The table needs a terminal: connect with ssh -t (or -tt)."
NO_FORWARDING = "this door forwards nothing: it only seats players at its table"
FULL = "the door is full: try again later"


class DoorProblem(OSError):
    """The door cannot open (its host key, its keys file, its address)."""


def door_folder() -> Path:
    """The door's private folder in the host's data folder: its host key,
    and each player's settings."""
    import platformdirs

    return Path(platformdirs.user_data_dir("dbdeck")) / "door"


def parse_door_address(text: str) -> tuple[str, int]:
    """``[ADDRESS:]PORT``: where the door listens (``127.0.0.1`` when no
    address is given; ``0.0.0.0`` or ``::`` for every interface). Port 0
    takes a free one. ``ValueError`` says why not."""
    host, colon, port = text.rpartition(":")
    if not colon:
        host = "127.0.0.1"
    host = host.strip("[]")
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"expected [ADDRESS:]PORT with a port of 0 to 65535, got {text!r}")
    if not host:
        raise ValueError(f"expected an address before ':', got {text!r}")
    return host, int(port)


def load_host_key(path: Path) -> tuple[asyncssh.SSHKey, bool]:
    """The door's host key at ``path``, made (ed25519, 0600) when there is
    none; and whether it was made now. ``DoorProblem`` for a key file that
    others may read or that is not the host's."""
    from dbdeck.saves import SaveFailed, write_private

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        key = asyncssh.generate_private_key("ssh-ed25519", comment="dbdeck door")
        try:
            write_private(path, key.export_private_key().decode("ascii"))
        except SaveFailed as exc:
            raise DoorProblem(f"the door's host key cannot be kept in {path}: {exc}") from None
        return key, True
    except OSError as exc:
        raise DoorProblem(f"the door's host key {path}: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid():
            raise DoorProblem(f"the door's host key {path} is not a file of yours")
        if st.st_mode & 0o077:
            raise DoorProblem(
                f"the door's host key {path} may be read by others (mode "
                f"{stat.S_IMODE(st.st_mode):04o}): remove it to make a new one"
            )
        data = os.read(fd, 64 * 1024)
    finally:
        os.close(fd)
    try:
        return asyncssh.import_private_key(data), False
    except (asyncssh.KeyImportError, ValueError) as exc:
        raise DoorProblem(f"the door's host key {path} cannot be read ({exc})") from None


class _Bucket:
    """A token bucket: ``rate`` bytes a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.level = burst
        self.when = asyncio.get_running_loop().time()

    def take(self, size: int) -> bool:
        """Spend ``size`` bytes; ``False`` once the bucket is empty."""
        now = asyncio.get_running_loop().time()
        self.level = min(self.burst, self.level + (now - self.when) * self.rate)
        self.when = now
        self.level -= size
        return self.level >= 0


class _AsyncsshLog(logging.Filter):
    """asyncssh's own warnings, through the table's rate-limited log (one
    a connection would let a flood of connections fill the host's log)."""

    def __init__(self, door: SshDoor) -> None:
        super().__init__()
        self.door = door

    def filter(self, record: logging.LogRecord) -> bool:
        self.door.server.quiet.warning("ssh: %s", printable(record.getMessage(), 300, spaces=True))
        return False


class SshDoor:
    """An SSH server beside a table, that seats the players of its keys."""

    def __init__(
        self,
        server: TableServer,
        identities: DoorIdentities,
        keys_file: Path,
        address: tuple[str, int],
        *,
        seat_command: Sequence[str],
        folder: Path | None = None,
        login_timeout: float = LOGIN_TIMEOUT,
        start_timeout: float = START_TIMEOUT,
        max_connections: int = MAX_CONNECTIONS,
        max_per_key: int = MAX_PER_USER,
        max_terminals: int = MAX_TERMINALS,
        byte_rate: float = BYTE_RATE,
        byte_burst: float = BYTE_BURST,
        grace: float = HANGUP_GRACE,
    ) -> None:
        """``identities`` must be the server's hooks (its ``identify``,
        ``admits`` and ``may_sit``); ``seat_command`` starts a session's
        app (``dbdeck.games.deckbuilding.tui.door_seat``), to which the door
        adds ``--fd N --name NAME --key FINGERPRINT --host OWNER`` and
        ``--spectate``."""
        self.server = server
        self.identities = identities
        self.keys_file = keys_file
        self.address = address
        self.seat_command = list(seat_command)
        self.folder = folder or door_folder()
        self.login_timeout = login_timeout
        self.start_timeout = start_timeout
        self.max_connections = max_connections
        self.max_per_key = max_per_key
        self.max_terminals = max_terminals
        self.byte_rate = byte_rate
        self.byte_burst = byte_burst
        self.grace = grace
        self.keys = DoorKeys([])
        self._keys_stamp: tuple[int, int, int] | None = None
        self.fingerprint = ""
        """The host key's SHA256 fingerprint, once the door is open."""
        self.made_host_key = False
        """Whether the host key was made when the door opened."""
        self.connections: list[_DoorConnection] = []
        """Every open SSH connection, logged in or not."""
        self._log_filter = _AsyncsshLog(self)
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closing = False

    # --- opening and closing -------------------------------------------------------------

    async def start(self) -> None:
        """Read the keys, load (or make) the host key, and listen.
        ``DoorProblem`` (or ``KeysProblem``) says why the door cannot open."""
        self._reload_keys(strict=True)
        key, self.made_host_key = load_host_key(self.folder / "ssh_host_ed25519_key")
        self.fingerprint = key.get_fingerprint("sha256")
        asyncssh_log = logging.getLogger("asyncssh")
        asyncssh_log.setLevel(logging.WARNING)
        asyncssh_log.addFilter(self._log_filter)
        host, port = self.address
        try:
            self._acceptor = await asyncssh.listen(
                host,
                port,
                server_factory=lambda: _DoorConnection(self),
                server_host_keys=[key],
                encoding=None,
                line_editor=False,
                allow_pty=True,
                agent_forwarding=False,
                x11_forwarding=False,
                public_key_auth=True,
                password_auth=False,
                kbdint_auth=False,
                host_based_auth=False,
                gss_host=None,
                login_timeout=self.login_timeout,
                keepalive_interval=30,
                keepalive_count_max=4,
            )
        except OSError as exc:
            raise DoorProblem(f"the door cannot listen on {host}:{port}: {exc}") from None
        self.address = (host, self._acceptor.get_port())

    async def close(self) -> None:
        """Stop listening, hang up every session's app, close every connection."""
        self._closing = True
        if self._acceptor is not None:
            self._acceptor.close()
        sessions = [c.session for c in self.connections if c.session is not None]
        await asyncio.gather(*(s.hang_up() for s in sessions), return_exceptions=True)
        for connection in list(self.connections):
            connection.disconnect(asyncssh.DISC_BY_APPLICATION, "the table is closing")
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=self.grace + 3)
        if self._acceptor is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._acceptor.wait_closed(), 3)
        logging.getLogger("asyncssh").removeFilter(self._log_filter)

    def spawn(self, work: Any) -> asyncio.Task[Any]:
        """Run ``work`` as a task the door waits for when it closes."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def terminals(self) -> list[SeatTerminal]:
        """The sessions' apps that run now."""
        return [
            c.session.terminal
            for c in self.connections
            if c.session is not None and c.session.terminal is not None
        ]

    # --- the keys ---------------------------------------------------------------------------

    def _reload_keys(self, *, strict: bool = False) -> None:
        """Read the keys file again if it changed since it was read: a key
        added lets its player in at once, a key taken out keeps its player
        out from their next login. A file that became unreadable keeps
        the keys read before (said in the log), unless ``strict``."""
        try:
            st = os.stat(self.keys_file)
            stamp = (st.st_ino, st.st_size, st.st_mtime_ns)
        except OSError as exc:
            if strict:
                raise KeysProblem(f"{self.keys_file}: cannot be read ({exc.strerror})") from None
            self.server.quiet.warning("ssh: the keys file cannot be read: %s", exc.strerror)
            return
        if stamp == self._keys_stamp:
            return
        try:
            self.keys = read_door_keys(self.keys_file)
        except KeysProblem as exc:
            if strict:
                raise
            self.server.quiet.warning("ssh: the keys file is kept as it was: %s", exc)
            return
        self._keys_stamp = stamp
        if not strict:
            log.info("ssh: the keys file changed: %s", ", ".join(self.keys.names()) or "no key")

    def player_env(self, term: str, client: Mapping[str, str], name: str) -> dict[str, str]:
        """The environment of a player's app: the host's folders and packs,
        the client's terminal, and the player's own settings file."""
        from dbdeck.tui.settings import SETTINGS_ENV

        env = {
            key: value
            for key, value in os.environ.items()
            if key in HOST_ENV
            or (key.startswith(("XDG_", "DBDECK_")) and key not in HOST_ENV_DROPPED)
        }
        env["TERM"] = term if SAFE_TERM.fullmatch(term) else "xterm"
        for key in CLIENT_ENV:
            value = client.get(key)
            if value is not None and SAFE_VALUE.fullmatch(value):
                env[key] = value
        if not any(key in env for key in ("LANG", "LC_ALL", "LC_CTYPE")):
            env["LANG"] = "C.UTF-8"  # what a terminal of today draws, unless told
        env[SETTINGS_ENV] = str(self.folder / "players" / f"{name}.json")
        return env


class _DoorConnection(asyncssh.SSHServer):
    """One SSH connection at the door: its login, its limits, its session."""

    def __init__(self, door: SshDoor) -> None:
        self.door = door
        self.conn: asyncssh.SSHServerConnection | None = None
        self.peer = "?"
        self.offered: DoorKey | None = None
        """The last key the client offered that the file holds."""
        self.tried = False
        """Whether the client offered any key."""
        self.player: DoorPlayer | None = None
        """Who logged in (``None`` until then)."""
        self.spectate = False
        """Whether the session watches (a watch-only key, or ``ssh watch@HOST``)."""
        self.session: _DoorSession | None = None
        self.bucket = _Bucket(door.byte_rate, door.byte_burst)
        self._timer: asyncio.TimerHandle | None = None
        self._gone = False

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        if isinstance(peer, tuple) and len(peer) >= 2:
            self.peer = f"{peer[0]}:{peer[1]}"
        door = self.door
        door.connections.append(self)
        if len(door.connections) > door.max_connections or door._closing:
            door.server.quiet.warning(
                "ssh: refused %s: %d connections open", self.peer, len(door.connections) - 1
            )
            # Once the versions are exchanged, so that the client is told why.
            loop = asyncio.get_running_loop()
            loop.call_soon(self.disconnect, asyncssh.DISC_TOO_MANY_CONNECTIONS, FULL)
            return
        # Every byte of the connection counts against its rate (the SSH
        # layer's own requests too: an endless stream of them costs the
        # host all the same). The asyncio protocol's entry is wrapped.
        taken = conn.data_received

        def received(data: bytes, datatype: Any = None) -> None:
            if self._gone:
                return
            if not self.bucket.take(len(data)):
                self.too_fast()
                return
            taken(data, datatype)

        setattr(conn, "data_received", received)  # noqa: B010 (an instance's own entry)

    def too_fast(self) -> None:
        """The client sent more than the door takes: let it go."""
        door = self.door
        who = self.player.name if self.player else self.peer
        door.server.quiet.warning("ssh: %s sends too fast: disconnected", printable(who))
        self.disconnect(
            asyncssh.DISC_BY_APPLICATION,
            f"too much data: at most {door.byte_rate:g} bytes a second (after {door.byte_burst:g})",
        )

    def disconnect(self, code: int, reason: str) -> None:
        """Close the connection, saying why."""
        if self.conn is not None and not self._gone:
            self._gone = True
            self.conn.disconnect(code, reason)

    def connection_lost(self, exc: Exception | None) -> None:
        self._gone = True
        if self._timer is not None:
            self._timer.cancel()
        if self in self.door.connections:
            self.door.connections.remove(self)
        if self.player is None and not self.tried and not self.door._closing:
            self.door.server.quiet.warning("ssh: %s left without logging in", self.peer)
        if self.session is not None:
            self.session.lost()

    # --- login ---------------------------------------------------------------------------------

    def begin_auth(self, username: str) -> bool:
        self.door._reload_keys()
        self.spectate = username in WATCH_USERNAMES
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def host_based_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        self.tried = True
        entry = self.door.keys.find(key.public_data)
        if entry is None:
            self.door.server.quiet.warning(
                "ssh: refused the key %s from %s: not in %s",
                key.get_fingerprint("sha256"),
                self.peer,
                self.door.keys_file,
            )
            self.offered = None
            return False
        self.offered = entry
        return True

    def auth_completed(self) -> None:
        door = self.door
        entry = self.offered
        assert entry is not None, "a login without a key the file holds"
        held = sum(1 for c in door.connections if c.player and c.player.name == entry.name)
        if held >= door.max_per_key:
            door.server.quiet.warning("ssh: refused %s: %d connections open", entry.name, held)
            self.disconnect(
                asyncssh.DISC_TOO_MANY_CONNECTIONS,
                f"too many connections of {entry.name} ({held}, at most {door.max_per_key}): "
                "close some first",
            )
            return
        self.player = DoorPlayer(entry.name, entry.fingerprint, entry.watch_only)
        self.spectate = self.spectate or entry.watch_only
        log.info("ssh: %s (%s) logged in from %s", entry.name, entry.fingerprint, self.peer)
        # Logged in, the connection has as long again to open its terminal.
        self._timer = asyncio.get_running_loop().call_later(door.login_timeout, self._no_terminal)

    def _no_terminal(self) -> None:
        if self.session is None or self.session.terminal is None:
            self.disconnect(
                asyncssh.DISC_BY_APPLICATION,
                f"no terminal opened within {self.door.login_timeout:g} s",
            )

    # --- what the client asks for --------------------------------------------------------------

    def session_requested(self) -> _DoorSession:
        door = self.door
        if self.session is not None:
            raise asyncssh.ChannelOpenError(
                asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, "one terminal a connection"
            )
        if len(door.terminals()) >= door.max_terminals or door._closing:
            raise asyncssh.ChannelOpenError(asyncssh.OPEN_RESOURCE_SHORTAGE, FULL)
        self.session = _DoorSession(self)
        return self.session

    def connection_requested(
        self, dest_host: str, dest_port: int, orig_host: str, orig_port: int
    ) -> bool:
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, NO_FORWARDING)

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, NO_FORWARDING)

    def unix_server_requested(self, listen_path: str) -> bool:
        return False

    def tun_requested(self, unit: int | None) -> bool:
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, NO_FORWARDING)

    def tap_requested(self, unit: int | None) -> bool:
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, NO_FORWARDING)


class _DoorSession(asyncssh.SSHServerSession[bytes]):
    """One terminal at the door: the table's app on a pty of its own."""

    def __init__(self, link: _DoorConnection) -> None:
        self.link = link
        self.door = link.door
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term = ""
        self.size = bounded_size(0, 0)
        self.pty = False
        self.refusal = ""
        self.terminal: SeatTerminal | None = None
        self._hanging_up: asyncio.Task[None] | None = None
        self._lost = False

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Mapping[int, int]
    ) -> bool:
        # The client's terminal modes are not taken: the app sets its own.
        self.pty = True
        self.term = term_type
        self.size = bounded_size(term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True  # the "shell" of the door is the table

    def exec_requested(self, command: str) -> bool:
        self.refusal = NO_COMMANDS
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        self.refusal = (
            f"This is the door of a dbdeck table: it serves no {printable(subsystem, 40)} "
            "(no files, no shell). Connect with ssh -t to sit at the table."
        )
        return True

    def session_started(self) -> None:
        chan = self.chan
        assert chan is not None
        if not self.refusal and not self.pty:
            self.refusal = NO_TERMINAL
        if self.refusal:
            chan.write_stderr((self.refusal + "\r\n").encode())
            chan.exit(1)
            return
        self.door.spawn(self.run())

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if not self.link.bucket.take(WINDOW_CHANGE_COST):
            self.link.too_fast()
            return
        self.size = bounded_size(width, height)
        if self.terminal is not None:
            self.terminal.resize(*self.size)

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        if self.terminal is not None and datatype is None:
            self.terminal.write(data)

    def eof_received(self) -> bool:
        self.lost()
        return False

    def pause_writing(self) -> None:
        if self.terminal is not None:
            self.terminal.pause_output()

    def resume_writing(self) -> None:
        if self.terminal is not None:
            self.terminal.resume_output()

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost()

    def lost(self) -> None:
        """The client went away: the app is hung up."""
        self._lost = True
        if self.terminal is not None and self._hanging_up is None:
            self._hanging_up = self.door.spawn(self.hang_up())

    async def hang_up(self) -> None:
        """End the session's app (``SIGHUP``, then ``SIGKILL`` after the grace)."""
        if self.terminal is not None:
            await self.terminal.hang_up(self.door.grace)

    def _write(self, data: bytes) -> None:
        chan = self.chan
        if chan is not None and not self._lost and not chan.is_closing():
            chan.write(data)

    async def run(self) -> None:
        """Start the app, hand its connection to the table, and wait for it
        to end; then end the session with its status."""
        link, door, chan = self.link, self.door, self.chan
        assert chan is not None and link.player is not None
        player = link.player
        door_end, app_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        argv = [
            *door.seat_command,
            "--fd",
            str(app_end.fileno()),
            "--name",
            player.name,
            "--key",
            player.fingerprint,
            "--host",
            door.server.owner,
            *(["--spectate"] if link.spectate else []),
        ]
        env = door.player_env(self.term, chan.get_environment(), player.name)
        cwd = door.folder / "players"
        from dbdeck.folders import make_private_dir

        try:
            make_private_dir(cwd)
            terminal = SeatTerminal(
                argv,
                env=env,
                cwd=str(cwd),
                size=self.size,
                pass_fds=[app_end.fileno()],
                on_output=self._write,
            )
            await terminal.start()
        except OSError as exc:
            door_end.close()
            door.server.quiet.warning("ssh: %s's table could not start: %s", player.name, exc)
            chan.write_stderr(b"The table could not start here: try again later.\r\n")
            chan.exit(1)
            return
        finally:
            app_end.close()
        self.terminal = terminal
        terminal.on_input_blocked = self._input_blocked
        if self._lost:  # the client left while the app started
            self.lost()
        writer = None
        serving = None
        try:
            if await self._hello_or_end(door_end, terminal):
                reader, writer = await asyncio.open_unix_connection(sock=door_end, limit=MAX_LINE)
                door.identities.enter(writer, player)
                serving = door.spawn(door.server.serve_door(reader, writer))
            elif terminal.running():
                door.server.quiet.warning("ssh: %s's table did not start in time", player.name)
                await terminal.hang_up(door.grace)
            status = await terminal.wait()
            # What the app wrote last (its farewell), unless the client is gone.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(terminal.output_done), 1.0)
        finally:
            terminal.close()
            if serving is not None:
                # The app is gone, and its end of the socket with it: the
                # table drops the connection (it holds the seat).
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(serving), 5)
            if writer is not None:
                writer.close()
                door.identities.leave(writer)
            else:
                door_end.close()
        if not self._lost and not chan.is_closing():
            chan.exit(min(status, 255) if status >= 0 else 128 - status)
        link.disconnect(asyncssh.DISC_BY_APPLICATION, "the table's session ended")

    def _input_blocked(self, blocked: bool) -> None:
        if self.chan is None:
            return
        if blocked:
            self.chan.pause_reading()
        else:
            self.chan.resume_reading()

    async def _hello_or_end(self, door_end: socket.socket, terminal: SeatTerminal) -> bool:
        """Wait until the app has written to the table (its hello: the table's
        ``HELLO_TIMEOUT`` then counts from there, not from a slow start) or
        ended; whether it wrote, or ended (the table then sees it go)."""
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        door_end.setblocking(False)
        fd = door_end.fileno()

        def written() -> None:
            if not ready.done():
                ready.set_result(True)

        loop.add_reader(fd, written)
        ended = loop.create_task(terminal.wait())
        try:
            await asyncio.wait(
                {ready, ended}, timeout=self.door.start_timeout, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            loop.remove_reader(fd)
            ended.cancel()
        return ready.done()
