"""One authoritative table for many terminals.

The server holds the only match of any game (a saved ``Session``: every
action is saved at once), through the game protocol
(``dbdeck.tabletop.game``). Clients send actions; the server checks who sends
them, applies them, and sends each client its own view and events. A seat
is claimed by an OS user (known from the Unix socket's peer credentials, or
from the join token and a seat token over loopback TCP), or by a player of
the SSH door (``ssh:NAME``, known from the connection the door hands over:
``serve_door`` and the ``identify`` hook, ``dbdeck.net.door_identity``), and
is held for them when their connection drops.

Every seat sees only its own: the server sends nothing but the typed seat
view (``Match.view``), the seat's offers (``Match.offers``) and the log in
words (``Match.log``). The seed, the random generator and every hidden card
stay here; an action naming a masked card is unmasked before it is checked.

Every other user of the box may be hostile. The same OS-user rules hold on
both ways in: over loopback TCP the user is the owner of the client's socket
as the kernel lists it in ``/proc/net/tcp`` (``tcp_peer_uid``), never the
name the client gives. A connection must say hello within ``HELLO_TIMEOUT``
seconds; each user may hold ``MAX_PER_USER`` connections and the table
``MAX_CONNECTIONS``; a client may send ``BYTE_RATE`` bytes a second (after a
``BYTE_BURST``). Whatever a client sends is typed at the wire (``protocol``)
and made ``printable`` before it reaches a log, the chat or a terminal, and
warnings about clients are rate-limited (``LOG_LINES`` per ``LOG_WINDOW``
seconds) so that a flood cannot fill the host's log.

Undo at a shared table needs every seat present (``undo``, then
``undo-answer``): the server keeps one undo asked at a time, shows it to
every client (who asked, and what would be undone in the log's words), and
undoes the last action, saved like any change, once every seat present has
agreed; the seat that asks agrees by asking, spectators have no say, and a
seat alone at the table undoes at once. A refusal, an action, or a seat that
comes or goes calls it off. Undo never goes back past the last moment hidden
information was revealed (``Session.undo``); the log says who asked and who
agreed.

A busy table stays fast and bounded: each action builds and encodes one view
per seat and one for all the spectators, whatever the number of clients,
and what waits to be sent is bounded per client (``SLOW_CLIENT``) and for the
whole table (``TABLE_BUFFERS``): the slowest readers are let go, spectators
before seats, and told why when they come back.

A view is sent as what changed since the last one that client got
(``dbdeck.net.delta``: the log's new lines, a pile's new card), computed
from that client's own views only, once for all the clients that hold the
same views. It is sent whole as the first view of a connection, after the
seat's roles change, when the client asks (``resend``), and whenever the
change would be no shorter or too deep.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import ipaddress
import json
import logging
import os
import random
import re
import secrets
import socket
import struct
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from dbdeck.net.delta import Texts, diff, same
from dbdeck.net.listing import TableEntry, may_join, remove_entry, user_name, write_entry
from dbdeck.net.protocol import (
    BOT,
    MAX_LINE,
    PROTOCOL_VERSION,
    VIEWS_HELD,
    ActionMessage,
    ByeMessage,
    ChatMessage,
    EventsMessage,
    HelloMessage,
    HostMessage,
    ProtocolError,
    RefusalMessage,
    ResendMessage,
    SeatInfo,
    SeatsMessage,
    UndoAnswerMessage,
    UndoAskedMessage,
    UndoMessage,
    ViewDeltaMessage,
    ViewMessage,
    WelcomeMessage,
    action_problem,
    decode_client,
    encode,
    fits_server_line,
    printable,
)
from dbdeck.saves import SaveFailed, Session, make_private_dir, story_of, write_private
from dbdeck.tabletop.game import Event, IllegalMove, LogLine, Story

__all__ = [
    "BOT",
    "BYTE_BURST",
    "BYTE_RATE",
    "HELLO_TIMEOUT",
    "MAX_CONNECTIONS",
    "MAX_PER_USER",
    "SLOW_CLIENT",
    "TABLE_BUFFERS",
    "Seat",
    "TableServer",
    "peer_user",
    "tcp_peer_uid",
    "uid_of_connection",
]

log = logging.getLogger("dbdeck.server")

SLOW_CLIENT = 8 * 1024 * 1024
"""Bytes waiting for one client before the server lets it go (a view is
some 10 to 30 KiB: hundreds of views behind)."""

TABLE_BUFFERS = 32 * 1024 * 1024
"""Bytes waiting for all the table's clients together: past it, the slowest
readers are let go, spectators before seats, until the rest fit. Without
it, 64 connections that never read could hold 64 x ``SLOW_CLIENT``."""

UNSEEN = "that action names a card you cannot see"
"""The one answer to an action naming a card its seat cannot see, whatever
the card is."""

HELLO_TIMEOUT = 5.0
"""Seconds a new connection has to say hello before it is let go."""

MAX_PER_USER = 8
"""Connections one OS user may hold at once (seats, spectators, retries)."""

MAX_CONNECTIONS = 64
"""Connections the table holds at once, below any file limit of the host."""

BYTE_RATE = 32 * 1024
"""Bytes a second a client may send, on average (a player sends a few
hundred bytes an action)."""

BYTE_BURST = 128 * 1024
"""Bytes a client may send at once before ``BYTE_RATE`` applies."""

LINE_COST = 64
"""The least one line costs against ``BYTE_RATE``: a flood of empty or tiny
lines costs the server work all the same."""

LOG_WINDOW = 10.0
"""Seconds of one window of the warnings about clients."""

LOG_LINES = 20
"""Warnings about clients written per ``LOG_WINDOW``; the rest are counted
in one summary line."""

SAVE_RETRY = 10.0
"""Seconds the bot waits before trying again an action that could not be
saved."""

NOTICE = "(table)"
"""The sender of the table's own chat lines (no login name has brackets)."""

PROC_NET_TCP = ("/proc/net/tcp", "/proc/net/tcp6")

UNDO_LINES = 6
"""The most log lines of the last action an undo asked shows."""


def peer_user(writer: asyncio.StreamWriter) -> str | None:
    """The OS user at the other end of a connection: from the peer
    credentials of a Unix socket, or from the owner of the client's socket
    of a loopback TCP connection (``tcp_peer_uid``). ``None`` when it cannot
    be told (the connection is then refused)."""
    sock = writer.get_extra_info("socket")
    if sock is None:
        return None
    if sock.family == socket.AF_UNIX:
        raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        _pid, uid, _gid = struct.unpack("3i", raw)
        return user_name(uid)
    tcp_uid = tcp_peer_uid(writer)
    return None if tcp_uid is None else user_name(tcp_uid)


def _read_proc(path: str) -> str:
    with open(path, encoding="ascii", errors="replace") as handle:
        return handle.read()


def tcp_peer_uid(
    writer: asyncio.StreamWriter, read: Callable[[str], str] | None = None
) -> int | None:
    """The uid of the process at the other end of a loopback TCP connection.

    TCP carries no credentials, but both ends of a loopback connection are
    sockets of this box, and the kernel lists each with its owner in
    ``/proc/net/tcp`` (``tcp6`` for IPv6): the client's socket is the row
    whose local address is our peer's and whose remote address is ours.
    ``None`` for a peer that is not on loopback, or when no row is found
    (``read`` reads a file of ``/proc``; tests pass a fake one).
    """
    sock = writer.get_extra_info("socket")
    if sock is None or sock.family not in (socket.AF_INET, socket.AF_INET6):
        return None
    try:
        ours = sock.getsockname()[:2]
        theirs = sock.getpeername()[:2]
        if not _plain(ipaddress.ip_address(theirs[0])).is_loopback:
            return None
    except (OSError, ValueError):
        return None
    for path in PROC_NET_TCP:
        try:
            text = (read or _read_proc)(path)
        except OSError:
            continue
        uid = uid_of_connection(text, local=theirs, remote=ours)
        if uid is not None:
            return uid
    return None


_Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def _plain(address: _Address) -> _Address:
    """An IPv4-mapped IPv6 address as the IPv4 address it is (a dual-stack
    socket sees a v4 client so; the client's own row is in ``tcp``)."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _proc_address(text: str) -> tuple[_Address, int]:
    host, _, port = text.partition(":")
    raw = bytes.fromhex(host)
    if len(raw) not in (4, 16):
        raise ValueError(f"not an address: {text!r}")
    # The kernel prints the address as 32-bit words, each in host byte order.
    if sys.byteorder == "little":
        raw = b"".join(raw[i : i + 4][::-1] for i in range(0, len(raw), 4))
    return _plain(ipaddress.ip_address(raw)), int(port, 16)


def uid_of_connection(table: str, *, local: tuple[str, int], remote: tuple[str, int]) -> int | None:
    """In the text of ``/proc/net/tcp`` or ``/proc/net/tcp6``: the uid that
    owns the socket bound to ``local`` and connected to ``remote``.

    Only a row with a socket behind it counts (a non-zero inode): a closed
    connection lingering in TIME_WAIT lists uid 0 and inode 0, and must not
    pass for root. ``None`` when no row matches.
    """
    want = (
        _plain(ipaddress.ip_address(local[0])),
        local[1],
        _plain(ipaddress.ip_address(remote[0])),
        remote[1],
    )
    # Rows are found by their ports first, in C: a busy box lists thousands.
    rows = re.compile(
        rf"^\s*\d+:\s+([0-9A-F]+:{local[1]:04X})\s+([0-9A-F]+:{remote[1]:04X})\s+(.*)$",
        re.MULTILINE | re.IGNORECASE,
    )
    for row in rows.finditer(table):
        # st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...
        rest = row.group(3).split()
        try:
            here, there = _proc_address(row.group(1)), _proc_address(row.group(2))
            uid, inode = int(rest[4]), int(rest[6])
        except (ValueError, IndexError):
            continue
        if (*here, *there) == want and inode != 0:
            return uid
    return None


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Seat:
    """A place at the table: its Characters and the user who claimed it."""

    number: int
    characters: list[str]
    user: str = ""
    token_hash: str = ""


@dataclass(eq=False)
class _BuiltView:
    """A view built for a seat: its whole line and the JSON object it is,
    shared by every client it is sent to."""

    seat: int | None
    plays: frozenset[str]
    """The roles the seat played: a view for other roles is sent whole."""
    seq: int
    line: bytes
    data: dict[str, Any]
    changes: dict[tuple[int, ...], bytes] = field(default_factory=dict)
    """The line sent to clients holding the views of these ``seq``s (the
    latest first): a change, or the whole line."""
    texts: Texts = field(default_factory=dict)
    """The texts of the items of its lists, written once for every change
    made to or from it."""


@dataclass(eq=False)
class _Client:
    writer: asyncio.StreamWriter
    user: str
    seat: int | None = None
    host: bool = False
    tcp: bool = False
    welcomed: bool = False
    views: list[_BuiltView] = field(default_factory=list)
    """The views sent to this client since the last whole one, the latest
    first (``VIEWS_HELD`` at most): what it holds to apply a change to."""

    @property
    def name(self) -> str:
        """The user, fit for a log line or a terminal."""
        return printable(self.user) if self.user else "?"


class _Bucket:
    """A token bucket: ``rate`` bytes a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.level = burst
        self.when = time.monotonic()

    def take(self, size: int) -> bool:
        """Spend ``size`` bytes; ``False`` when the bucket is empty."""
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.when) * self.rate)
        self.when = now
        self.level -= size
        return self.level >= 0


class _QuietLog:
    """Warnings about clients, at most ``lines`` per ``window`` seconds; the
    rest are counted and told in one line when the window ends. A flood of
    bad connections must not fill the host's disk with its log."""

    def __init__(self, logger: logging.Logger, lines: int, window: float) -> None:
        self.logger = logger
        self.lines = lines
        self.window = window
        self.start = time.monotonic()
        self.written = 0
        self.hidden = 0
        self._timer: asyncio.TimerHandle | None = None

    def warning(self, message: str, *args: object) -> None:
        """Log ``message % args`` (args from a client made printable first)."""
        now = time.monotonic()
        if now - self.start >= self.window:
            self.flush()
            self.start, self.written = now, 0
        if self.written < self.lines:
            self.written += 1
            self.logger.warning(message, *args)
            return
        self.hidden += 1
        if self._timer is None:
            with contextlib.suppress(RuntimeError):  # no loop: told at the next warning
                loop = asyncio.get_running_loop()
                self._timer = loop.call_later(self.start + self.window - now, self.flush)

    def flush(self) -> None:
        """Tell how many warnings were left out."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.hidden:
            self.logger.warning(
                "… %d more warnings about clients in %g s (not shown)", self.hidden, self.window
            )
            self.hidden = 0


@dataclass
class _UndoAsked:
    """The undo asked at the table, waiting for every seat present."""

    request: int
    """Its number (an answer names it)."""
    by_seat: int
    by: str
    """Who asked, in words."""
    undoes: list[str]
    """What it would undo: the last action's log lines, as a spectator
    reads them."""
    agreed: set[int] = field(default_factory=set)
    """The seats that agreed (the one that asked among them)."""


@dataclass
class _Table:
    """What the server keeps beside the save: seats, controllers, settings."""

    seats: list[Seat]
    control: dict[str, int] = field(default_factory=dict)
    """The seat (or ``BOT``) that plays each role (Character) now."""
    decide: str = "first"


class TableServer:
    """A table served on a Unix socket (and optionally loopback TCP)."""

    def __init__(
        self,
        session: Session[Any],
        name: str,
        *,
        socket_path: Path | None = None,
        group: str = "",
        tcp: tuple[str, int] | None = None,
        join_token: str | None = None,
        owner: str | None = None,
        decide: str = "first",
        identify: Callable[[asyncio.StreamWriter], str | None] = peer_user,
        admits: Callable[[str], bool] | None = None,
        may_sit: Callable[[str], bool] | None = None,
        bot_delay: float = 0.3,
        bot_think: float | None = None,
        announce: bool = True,
        hello_timeout: float = HELLO_TIMEOUT,
        max_connections: int = MAX_CONNECTIONS,
        max_per_user: int = MAX_PER_USER,
        byte_rate: float = BYTE_RATE,
        byte_burst: float = BYTE_BURST,
        slow_client: int = SLOW_CLIENT,
        table_buffers: int = TABLE_BUFFERS,
        deltas: bool = True,
    ) -> None:
        self.session = session
        self.story: Story = story_of(session.rules, session.data()) or session.rules.story()
        """The game's story in numbers so far, sent with the views once it
        is over."""
        self.name = name
        self.socket_path = socket_path
        self.group = group
        self.tcp = tcp
        self.door_place: tuple[str, str] | None = None
        """The SSH door opened beside the table, if any: its address
        (``HOST:PORT``) and its keys file, kept for ``--resume``."""
        self.join_token = join_token or secrets.token_urlsafe(12)
        self.owner = owner or user_name()
        self.identify = identify
        """The OS user of a new connection (``peer_user``; tests name users)."""
        self.admits = admits or (lambda user: may_join(user, self.owner, self.group))
        """Whether an OS user may sit at the table (the owner, and the group),
        over the Unix socket and over TCP alike."""
        self.may_sit = may_sit or (lambda user: True)
        """Whether a user may take a seat (the SSH door's watch-only keys
        may only watch)."""
        self.bot_delay = bot_delay
        self.bot_think = bot_think
        """Seconds the bot thinks at most on a move (the game's planning bot
        plays), or ``None``: the game's quick bot plays."""
        self.announce = announce
        self.hello_timeout = hello_timeout
        self.max_connections = max_connections
        self.max_per_user = max_per_user
        self.byte_rate = byte_rate
        self.byte_burst = byte_burst
        self.save_retry = SAVE_RETRY
        self.slow_client = slow_client
        self.table_buffers = table_buffers
        self.let_go: dict[str, str] = {}
        """Why a user's connection was let go for reading too slowly, told
        to them when they come back (one line a user)."""
        self.unsaved_seats = ""
        """Why the seats could not be saved, while they are not (``""``)."""
        self.quiet = _QuietLog(log, LOG_LINES, LOG_WINDOW)
        """Where warnings about clients go (rate-limited)."""
        self.clients: list[_Client] = []
        """The clients that said hello."""
        self.connections: list[_Client] = []
        """Every open connection, welcomed or not (for the caps)."""
        self.votes: dict[int, int] = {}
        self.undo_asked: _UndoAsked | None = None
        """The undo waiting for the seats' answers, if any."""
        self.undo_requests = 0
        """How many undos were asked (each one's number)."""
        self.undone = 0
        """How many actions were undone since the table opened (the version
        counts them too: it only ever goes up)."""
        self.deltas = deltas
        """Whether views after a client's first are sent as what changed."""
        self._view_seq = 0
        self._latest: dict[int | None, _BuiltView] = {}
        """The last view built for each seat (``None``: the spectators')."""
        # Not the game's seed: a bot's moves are seen by every seat, and
        # nothing seen at the table may be a function of the seed.
        self.bot_rng = random.Random(secrets.randbits(64))
        self._servers: list[asyncio.AbstractServer] = []
        self._bot_task: asyncio.Task[None] | None = None
        self._handlers: set[asyncio.Task[Any]] = set()
        self._writers: set[asyncio.StreamWriter] = set()
        self._closing = False
        self.table = self._load_table(decide)

    # --- the table beside the save -------------------------------------------------------

    @property
    def _table_file(self) -> Path:
        return self.session.folder / f"{self.session.id}.table"

    def _load_table(self, decide: str) -> _Table:
        seats: dict[int, Seat] = {}
        roles = self.session.match.roles()
        for role in roles:
            seats.setdefault(role.seat, Seat(role.seat, [])).characters.append(role.id)
        table = _Table(sorted(seats.values(), key=lambda s: s.number), decide=decide)
        table.control = {role.id: role.seat for role in roles}
        try:
            data = json.loads(self._table_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return table
        if not isinstance(data, dict):
            return table
        # A resumed table: the same users keep their seats.
        held = {s.get("number"): s for s in data.get("seats", []) if isinstance(s, dict)}
        for seat in table.seats:
            saved = held.get(seat.number, {})
            seat.user = str(saved.get("user", ""))
            seat.token_hash = str(saved.get("token_hash", ""))
        control = data.get("control", {})
        for character in table.control:
            if isinstance(control.get(character), int):
                table.control[character] = control[character]
        table.decide = data.get("decide", decide) if decide == "first" else decide
        return table

    @staticmethod
    def stored_place(folder: Path, save_id: str) -> dict[str, str]:
        """Where the table of save ``save_id`` was served: its ``name``,
        ``socket``, ``group`` and ``tcp`` (``HOST:PORT``, or empty), and
        its SSH door's ``ssh`` address and ``authorized_keys`` file (empty
        without a door), as the ``.table`` file beside the save keeps them,
        so that ``dbdeck host --resume ID`` can serve the same table again.
        ``{}`` when there is no such file (or it cannot be read); keys
        missing from an older file are left out."""
        try:
            data = json.loads((folder / f"{save_id}.table").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {
            key: data[key]
            for key in ("name", "socket", "group", "tcp", "ssh", "authorized_keys")
            if isinstance(data.get(key), str)
        }

    def _save_table(self) -> None:
        data = {
            "seats": [asdict(s) for s in self.table.seats],
            "control": self.table.control,
            "decide": self.table.decide,
            "name": self.name,
            "socket": str(self.socket_path or ""),
            "group": self.group,
            "tcp": f"{self.tcp[0]}:{self.tcp[1]}" if self.tcp else "",
            "ssh": self.door_place[0] if self.door_place else "",
            "authorized_keys": self.door_place[1] if self.door_place else "",
        }
        # Seat token hashes: for this user only, and never through a
        # symlink planted at a predictable temporary name.
        write_private(self._table_file, json.dumps(data))

    def remember_door(self, address: str, keys_file: str) -> None:
        """Keep the SSH door opened beside the table (``HOST:PORT`` and its
        keys file) with the table, so that ``--resume`` opens it again."""
        self.door_place = (address, keys_file)
        self._keep_table()

    def _keep_table(self) -> bool:
        """Save the table, or log why not: a full disk must not stop a seat
        from being claimed (it is then held while the host runs, and saved
        again after the next action; ``unsaved_seats`` says why)."""
        try:
            self._save_table()
        except (SaveFailed, OSError) as exc:
            reason = str(exc) if isinstance(exc, SaveFailed) else str(SaveFailed.from_os_error(exc))
            log.error("the table's seats could not be saved: %s", reason)
            self.unsaved_seats = reason
            return False
        self.unsaved_seats = ""
        return True

    async def _tell_unsaved_seat(self, client: _Client) -> None:
        """Tell a player whose claim could not be saved, and the host, that
        the seat holds only while this table runs."""
        seat = f"seat {client.seat} ({client.name})"
        text = (
            f"{seat} could not be saved ({self.unsaved_seats}): it is held while this "
            "table runs but will not survive a restart until it is saved; free space "
            "(it is saved again after the next action)"
        )
        log.warning("%s", text)
        notice = ChatMessage(type="chat", text=printable(text, 500, spaces=True), sender=NOTICE)
        for other in list(self.clients):
            if other is client or other.host:
                await self._send(other, notice)

    async def _retry_unsaved_seats(self) -> None:
        """After an action is saved, save the seats that could not be; tell
        the table once they are."""
        if not self.unsaved_seats or not self._keep_table():
            return
        text = "the seats are saved now: they will survive a restart"
        log.info("%s", text)
        notice = ChatMessage(type="chat", text=text, sender=NOTICE)
        for other in list(self.clients):
            await self._send(other, notice)

    # --- running ---------------------------------------------------------------------

    async def start(self) -> None:
        """Listen; announce the table in the shared list."""
        if self.socket_path is not None:
            server = await asyncio.start_unix_server(
                self._serve, sock=self._bind(self.socket_path), limit=MAX_LINE
            )
            self._servers.append(server)
        if self.tcp is not None:
            host, port = self.tcp
            server = await asyncio.start_server(self._serve, host, port, limit=MAX_LINE)
            self.tcp = (host, server.sockets[0].getsockname()[1])
            self._servers.append(server)
        self._keep_table()
        if self.announce:
            write_entry(self.entry())
        self._schedule_bot()

    def _bind(self, path: Path) -> socket.socket:
        """The table's listening socket at ``path``: its mode set by the umask
        as it is made (0600, or 0660 for a group table), and its group given
        without following a link (``lchown``), never by chmod afterwards."""
        make_private_dir(path.parent)
        if path.exists() or path.is_symlink():
            if _socket_in_use(path):
                raise OSError(f"a table is already served on {path}")
            path.unlink()
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o117 if self.group else 0o177)
        try:
            sock.bind(str(path))
        except OSError:
            sock.close()
            raise
        finally:
            os.umask(old)
        if self.group:
            import grp

            os.lchown(path, -1, grp.getgrnam(self.group).gr_gid)
        return sock

    def entry(self) -> TableEntry:
        """This table in the shared list."""
        summary = self.session.match.summary()
        return TableEntry(
            game=self.session.rules.game_id,
            name=self.name,
            socket=str(self.socket_path or ""),
            owner=self.owner,
            pid=os.getpid(),
            group=self.group,
            tcp=f"{self.tcp[0]}:{self.tcp[1]}" if self.tcp else "",
            villain=summary.opponent,
            characters=list(summary.sides),
            free_seats=sum(1 for seat in self.table.seats if not seat.user),
        )

    async def serve_forever(self) -> None:
        """Serve until cancelled."""
        try:
            await asyncio.gather(*(s.serve_forever() for s in self._servers))
        finally:
            await self.close()

    async def close(self) -> None:
        """Stop listening, say goodbye, release the save."""
        self._closing = True
        for server in self._servers:
            server.close()
        for client in list(self.clients):
            with contextlib.suppress(Exception):
                client.writer.close()
        self.clients.clear()
        for writer in list(self._writers):
            with contextlib.suppress(Exception):
                writer.close()
        if self._handlers:
            await asyncio.wait(set(self._handlers), timeout=2)
        if self._bot_task is not None:
            self._bot_task.cancel()
        if self.announce:
            remove_entry(self.name)
        if self.socket_path is not None:
            with contextlib.suppress(OSError):
                self.socket_path.unlink()
        self.quiet.flush()
        self.session.close()

    # --- one connection ------------------------------------------------------------------

    async def serve_door(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Serve a connection the SSH door made for one of its sessions, as
        one that came to the table's socket: who it is comes from
        ``identify`` all the same (``dbdeck.net.door_identity``)."""
        await self._serve(reader, writer)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._handlers.add(task)
            task.add_done_callback(self._handlers.discard)
        self._writers.add(writer)
        sock = writer.get_extra_info("socket")
        tcp = sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6)
        client = _Client(writer, "", tcp=tcp)
        try:
            if not await self._admit(client):
                return
            await self._read(client, reader)
        except (ConnectionError, asyncio.IncompleteReadError):
            return
        except Exception:  # one client's trouble never stops the table
            log.exception("error serving %s", client.name)
        finally:
            await self._drop(client)

    async def _admit(self, client: _Client) -> bool:
        """Find the OS user of a new connection and count it against the
        caps; refuse it (with the reason) when it may not stay."""
        # Past what even the players' own connections could reach, the
        # table is full for anyone, without the cost of a TCP owner lookup.
        ceiling = self.max_connections + (len(self.table.seats) + 1) * self.max_per_user
        if len(self.connections) >= ceiling:
            return await self._full(client)
        try:
            user = self.identify(client.writer)
        except Exception as exc:  # a lookup that failed tells no one
            self.quiet.warning("cannot tell who connects: %s", printable(exc, 200, spaces=True))
            user = None
        if not user:
            how = "the owner of the TCP connection" if client.tcp else "the socket's peer"
            self.quiet.warning("refused a connection: %s is unknown", how)
            await self._refuse(client, f"cannot tell which user you are ({how} is unknown)", True)
            return False
        client.user = user
        held = sum(1 for c in self.connections if c.user == user)
        if held >= self.max_per_user:
            self.quiet.warning("refused a connection of %s: %d open", client.name, held)
            await self._refuse(
                client,
                f"too many connections of {client.name} ({held}, at most "
                f"{self.max_per_user}): close some first",
                True,
            )
            return False
        # The host and the players holding a seat are let in past the total
        # (each still within the per-user cap): others filling the table
        # with connections must not keep them from their own game.
        players = {self.owner, *(s.user for s in self.table.seats if s.user)}
        if len(self.connections) >= self.max_connections and user not in players:
            return await self._full(client)
        self.connections.append(client)
        return True

    async def _full(self, client: _Client) -> bool:
        """Refuse a connection to a full table; always ``False``."""
        open_now = len(self.connections)
        self.quiet.warning("refused a connection of %s: %d open", client.name, open_now)
        await self._refuse(
            client,
            f"the table is full ({self.max_connections} connections): try again later",
            True,
        )
        return False

    async def _read(self, client: _Client, reader: asyncio.StreamReader) -> None:
        """Read and handle the client's lines until it leaves or is let go."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.hello_timeout
        bucket = _Bucket(self.byte_rate, self.byte_burst)
        while True:
            try:
                if client.welcomed:
                    line = await reader.readline()
                else:
                    # A connection that never says hello holds a file and a
                    # buffer of the host: it has until the deadline.
                    line = await asyncio.wait_for(reader.readline(), deadline - loop.time())
            except TimeoutError:
                self.quiet.warning("no hello from %s: disconnected", client.name)
                await self._refuse(client, f"no hello within {self.hello_timeout:g} s", True)
                return
            except (ValueError, asyncio.LimitOverrunError):
                self.quiet.warning("oversized message from %s", client.name)
                await self._refuse(client, f"message too long (at most {MAX_LINE} bytes)", True)
                return
            if not line:
                return
            if not bucket.take(max(len(line), LINE_COST)):
                self.quiet.warning("%s sends too fast: disconnected", client.name)
                await self._refuse(
                    client,
                    f"too much data: at most {self.byte_rate:g} bytes a second "
                    f"(after {self.byte_burst:g})",
                    True,
                )
                return
            if not line.strip():
                continue
            try:
                message = decode_client(line)
            except ProtocolError as exc:
                self.quiet.warning("malformed message from %s: %s", client.name, exc)
                await self._refuse(client, str(exc))
                continue
            if not client.welcomed:
                if not isinstance(message, HelloMessage):
                    await self._refuse(client, "say hello first", True)
                    return
                if not await self._hello(client, message):
                    return
                continue
            await self._handle(client, message)
            if isinstance(message, ByeMessage):
                return

    async def _drop(self, client: _Client) -> None:
        self._writers.discard(client.writer)
        if client in self.connections:
            self.connections.remove(client)
        if client in self.clients:
            self.clients.remove(client)
        with contextlib.suppress(Exception):
            client.writer.close()
        if not client.welcomed or self._closing:
            return
        log.info("%s %s", client.name, self._place_words(client, "left"))
        # A client let go elsewhere (too slow, its seat taken up) is told
        # about here too: the seats changed, and a vote may now be complete.
        await self._broadcast_seats()
        if client.seat is not None and client.seat not in self._present_seats():
            await self._call_off_undo(f"{self._seat_words(client.seat)} left the table")
        if client.seat is not None and not await self._count_votes():
            self._schedule_bot()

    def _place_words(self, client: _Client, went: str) -> str:
        """Where a client joined or left, for the host's console: ``joined
        seat 1 (krillin)``, ``left seat 1 (krillin): the seat is held``,
        ``joined as a spectator``."""
        if client.seat is None:
            return f"{went} as a spectator"
        match = self.session.match
        plays = [
            match.role_name(c) for c, owner in self.table.control.items() if owner == client.seat
        ]
        chars = f" ({', '.join(plays)})" if plays else ""
        still = any(c.seat == client.seat for c in self.clients)  # taken up elsewhere
        held = ": the seat is held" if went == "left" and not still else ""
        return f"{went} seat {client.seat}{chars}{held}"

    async def _send(self, client: _Client, message: BaseModel) -> None:
        """Queue a message for a client (see ``_send_line``)."""
        self._send_line(client, encode(message))

    def _send_line(self, client: _Client, line: bytes) -> None:
        """Queue an encoded message for a client. The server never waits for
        one client to read (two clients each waiting on the other would
        stall the table): a client that falls too far behind is let go."""
        writer = client.writer
        if writer.is_closing():
            return
        writer.write(line)
        if writer.transport.get_write_buffer_size() > self.slow_client:
            self._let_go(
                client,
                f"{_mib(self.slow_client)} were waiting for this terminal, more than one may hold",
            )

    def _let_go(self, client: _Client, why: str) -> None:
        """Let a client go that reads too slowly, freeing what waits for it
        at once (closing would keep it until the client read it all); the
        host's log says so, and the user is told when they come back."""
        place = "a spectator" if client.seat is None else f"seat {client.seat}"
        reason = f"{client.name} ({place}) was let go for reading too slowly: {why}"
        self.quiet.warning("%s", reason)
        if client.user and (client.user in self.let_go or len(self.let_go) < MAX_CONNECTIONS):
            self.let_go[client.user] = reason
        client.writer.transport.abort()
        if client in self.clients:
            self.clients.remove(client)

    def _bound_buffers(self) -> None:
        """Keep what waits for the table's clients within ``table_buffers``:
        the slowest readers go first, spectators before seats."""
        waiting = [(c, c.writer.transport.get_write_buffer_size()) for c in self.clients]
        total = sum(size for _, size in waiting)
        if total <= self.table_buffers:
            return
        # Spectators first (a seat is a player of the game), the most behind first.
        waiting.sort(key=lambda cs: (cs[0].seat is not None, -cs[1]))
        for client, size in waiting:
            if total <= self.table_buffers:
                return
            self._let_go(
                client,
                f"the table's clients had {_mib(total)} waiting, more than the "
                f"{_mib(self.table_buffers)} it holds, and this terminal was the furthest behind",
            )
            total -= size

    async def _refuse(self, client: _Client, reason: str, fatal: bool = False) -> None:
        await self._send(client, RefusalMessage(type="refusal", reason=reason, fatal=fatal))

    # --- hello ---------------------------------------------------------------------------------

    async def _turn_away(self, client: _Client, reason: str) -> bool:
        """Refuse a hello (fatal); always ``False``."""
        self.quiet.warning("refused %s: %s", client.name, reason)
        await self._refuse(client, reason, True)
        return False

    async def _hello(self, client: _Client, hello: HelloMessage) -> bool:
        if hello.protocol != PROTOCOL_VERSION:
            return await self._turn_away(
                client,
                f"this table speaks protocol {PROTOCOL_VERSION}, your dbdeck speaks "
                f"{hello.protocol}: use the same dbdeck version as the host",
            )
        if hello.game is not None and hello.game != self.session.rules.game_id:
            return await self._turn_away(
                client,
                f"this table plays {self.session.rules.title} ({self.session.rules.game_id}), "
                f"not {printable(hello.game)}",
            )
        if client.tcp:
            # The token only proves the client read it from the host; who
            # the client is comes from the kernel (``hello.user`` is ignored:
            # anyone can write any name there).
            given = (hello.join_token or "").encode()
            if not given or not hmac.compare_digest(given, self.join_token.encode()):
                return await self._turn_away(client, "a valid join token is needed over TCP")
        if not self.admits(client.user):
            admits = f"{printable(self.owner)}" + (
                f" and group {printable(self.group)}" if self.group else ""
            )
            return await self._turn_away(client, f"this table admits {admits} only")
        if not hello.spectate and not self.may_sit(client.user):
            return await self._turn_away(client, f"{client.name} may only watch this table")
        client.host = client.user == self.owner and not client.tcp
        token = None
        saved = True
        if not hello.spectate:
            seat, why = self._seat_for(client, hello)
            if seat is None:
                return await self._turn_away(client, why)
            if not seat.user:
                token = secrets.token_urlsafe(16)
                seat.user = client.user
                seat.token_hash = _digest(token)
                saved = self._keep_table()
            elif hello.seat_token:
                token = hello.seat_token
            else:
                # The same OS user over the socket, without the token (a new
                # terminal): a fresh token replaces the old one.
                token = secrets.token_urlsafe(16)
                seat.token_hash = _digest(token)
                saved = self._keep_table()
            client.seat = seat.number
            for other in [c for c in self.clients if c.seat == seat.number]:
                await self._refuse(other, "your seat was taken up from another terminal", True)
                self.clients.remove(other)
                with contextlib.suppress(Exception):
                    other.writer.close()
        client.welcomed = True
        self.clients.append(client)
        await self._send(
            client,
            WelcomeMessage(
                type="welcome",
                protocol=PROTOCOL_VERSION,
                game=self.session.rules.game_id,
                table=self.name,
                seat=client.seat,
                seat_token=token,
                host=client.host,
            ),
        )
        log.info("%s %s", client.name, self._place_words(client, "joined"))
        if (was := self.let_go.pop(client.user, "")) and not client.writer.is_closing():
            notice = ChatMessage(type="chat", text=printable(was, 500, spaces=True), sender=NOTICE)
            await self._send(client, notice)
        if not saved:
            # Seated all the same (the game cannot go on without them), but
            # never silently: a restart would forget the claim.
            await self._tell_unsaved_seat(client)
        await self._broadcast_seats()
        await self._send_view(client)
        await self._undo_after_hello(client)
        return True

    def _seat_for(self, client: _Client, hello: HelloMessage) -> tuple[Seat | None, str]:
        seats = self.table.seats
        if hello.seat is not None:
            seat = next((s for s in seats if s.number == hello.seat), None)
            if seat is None:
                return None, f"there is no seat {hello.seat} (seats: {_numbers(seats)})"
        else:
            seat = next((s for s in seats if s.user == client.user), None) or next(
                (s for s in seats if not s.user), None
            )
            if seat is None:
                return None, "every seat is taken: join with --spectate to watch"
        if seat.user and seat.user != client.user:
            return None, f"seat {seat.number} is held by {printable(seat.user)}"
        if seat.user and client.tcp:
            token = hello.seat_token or ""
            if not hmac.compare_digest(_digest(token).encode(), seat.token_hash.encode()):
                return None, f"seat {seat.number} needs its seat token to reconnect"
        return seat, ""

    # --- messages ----------------------------------------------------------------------------

    async def _handle(self, client: _Client, message: Any) -> None:
        if isinstance(message, ActionMessage):
            await self._action(client, message)
        elif isinstance(message, ChatMessage):
            # A newline or an escape sequence in a chat line would forge
            # lines or drive the others' terminals.
            text = printable(message.text, 500, spaces=True)
            said = encode(ChatMessage(type="chat", text=text, sender=client.name))
            for other in list(self.clients):
                self._send_line(other, said)
            self._bound_buffers()
        elif isinstance(message, HostMessage):
            await self._host(client, message)
        elif isinstance(message, UndoMessage):
            await self._ask_undo(client, message)
        elif isinstance(message, UndoAnswerMessage):
            await self._answer_undo(client, message)
        elif isinstance(message, HelloMessage):
            await self._refuse(client, "already joined")
        elif isinstance(message, ResendMessage):
            await self._resend_view(client)

    def plays(self, seat: int | None) -> frozenset[str]:
        """The Characters a seat plays now, whose hands it sees (the host may
        have handed a Character to another seat, or to the bot)."""
        if seat is None:
            return frozenset()
        return frozenset(c for c, owner in self.table.control.items() if owner == seat)

    def may_act(self, seat: int | None) -> bool:
        """Whether a client at ``seat`` may act now."""
        asked = self.session.match.asked()
        if seat is None or asked.nobody:
            return False
        if asked.together:
            return True
        return any(self.table.control.get(role) == seat for role in asked.roles)

    def _who(self, actor: str) -> str:
        controller = self.table.control.get(actor)
        name = self.session.match.role_name(actor)
        if controller == BOT:
            return f"{name} (the bot)"
        seat = next((s for s in self.table.seats if s.number == controller), None)
        held = printable(seat.user) if seat and seat.user else f"seat {controller}"
        return f"{name} ({held})" if seat else name

    async def _action(self, client: _Client, message: ActionMessage) -> None:
        match = self.session.match
        if client.seat is None:
            await self._refuse(client, "spectators cannot act")
            return
        if message.version != self.version:
            await self._refuse(
                client,
                f"the table changed since your view (version {message.version}, "
                f"now {self.version}): look again",
            )
            return
        # Typed and bounded by the game's own models: only the rules' own
        # shape of action goes further.
        try:
            sent = self.session.rules.read_action(message.action)
        except ValidationError as exc:
            await self._refuse(client, action_problem(exc))
            return
        except ValueError as exc:
            await self._refuse(client, printable(f"bad 'action' message: {exc}", 400, spaces=True))
            return
        if not self.may_act(client.seat):
            asked = match.asked()
            if asked.nobody:
                why = "the game is over" if match.over else "nobody may act now"
            else:
                who = ", ".join(self._who(role) for role in sorted(asked.roles))
                why = f"it is not your turn: {who} acts now"
            await self._refuse(client, why)
            return
        plays = self.plays(client.seat)
        if match.names_unseen(client.seat, plays, sent):
            # The engine's reasons are written by one who sees every card: a
            # seat probing a uid it cannot see learns nothing but this.
            await self._refuse(client, UNSEEN)
            return
        # An offer names a card of another hand as HIDDEN: the legal action
        # behind it is found here, never told to the client.
        action = match.unmask(plays, sent)
        if match.asked().together and self.table.decide == "vote":
            await self._vote(client, action)
            return
        await self._apply(action, client)

    def _together_offers(self) -> list[object]:
        """The actions of a decision for the players together, in the order
        offered: a vote names one by its place."""
        every_role = frozenset(self.table.control)
        return [offer.action for offer in self.session.match.offers(every_role)]

    async def _vote(self, client: _Client, action: object) -> None:
        assert client.seat is not None
        choices = self._together_offers()
        if action not in choices:
            await self._refuse(client, "answer the decision with one of its options")
            return
        self.votes[client.seat] = choices.index(action)
        if not await self._count_votes():
            await self._broadcast_views()

    async def _count_votes(self) -> bool:
        """Apply the players' decision once every seat present has voted;
        whether it was applied. Only the votes of the seats present count:
        a seat that left (mid-vote or before) must not hold up the others,
        and its vote counts again if it comes back before the end. With no
        seat present the decision waits."""
        match = self.session.match
        if self.table.decide != "vote" or not match.asked().together:
            return False
        voters = {c.seat for c in self.clients if c.seat is not None}
        counted = {seat: option for seat, option in self.votes.items() if seat in voters}
        if not voters or voters - set(counted):
            return False
        counts: dict[int, int] = {}
        for option in counted.values():
            counts[option] = counts.get(option, 0) + 1
        best = max(counts.values())
        tied = sorted(o for o, n in counts.items() if n == best)
        # A tie is a table that cannot agree: the game settles it (the
        # deckbuilding game's Grim Rule, its rules note N43).
        await self._apply(self._together_offers()[match.break_tie(tied)], None)
        return True

    async def _apply(self, action: object, client: _Client | None) -> bool:
        """Apply and save an action, tell every seat; whether it was applied."""
        before = self.version
        try:
            events = self.session.apply(action)
        except IllegalMove as exc:
            if client is not None:
                await self._refuse(client, exc.reason)
            return False
        except SaveFailed as exc:
            await self._unsaved(str(exc), client, moved=self.version != before)
            return False
        except OSError as exc:  # a save that failed without ``SaveFailed``
            reason = str(SaveFailed.from_os_error(exc))
            await self._unsaved(reason, client, moved=self.version != before)
            return False
        except Exception as exc:  # a rules bug: keep the table, report it
            try:
                report: object = self.session.crash_report(exc)
            except OSError as failed:
                report = f"not written: {failed}"
            log.exception("rules error; crash report %s", report)
            self._reload()
            if client is not None:
                await self._refuse(client, f"the server hit an error (crash report: {report})")
            await self._broadcast_views()
            return False
        self.votes.clear()
        self.story.add(self.session.match, events)
        await self._call_off_undo("an action was taken first")
        await self._retry_unsaved_seats()
        await self._broadcast(events)
        self._schedule_bot()
        return True

    async def _unsaved(self, reason: str, client: _Client | None, *, moved: bool) -> None:
        """An action that could not be saved (a full disk): not a rules bug,
        so no crash report. The game stays at the last saved action, every
        seat is told why, and the table goes on so the action can be tried
        again once there is room."""
        if moved:
            # The game went on in memory only: back to what is on disk.
            self._reload()
        self.quiet.warning("an action was not saved: %s", reason)
        # In a vote, every seat answers again (each sees the decision anew).
        self.votes.clear()
        if client is not None:
            await self._refuse(client, reason)
        notice = ChatMessage(type="chat", text=reason, sender=NOTICE)
        for other in list(self.clients):
            if other is not client:
                await self._send(other, notice)
        await self._broadcast_views()

    def _reload(self) -> None:
        self.session.close()
        try:
            self.session = Session.resume(self.session.rules, self.session.folder, self.session.id)
        except Exception:  # the save is still on disk: the host can resume it
            log.exception("the save could not be read back")
            raise
        self.story = story_of(self.session.rules, self.session.data()) or self.session.rules.story()

    async def _host(self, client: _Client, message: HostMessage) -> None:
        if not client.host:
            await self._refuse(client, "only the host may change the table")
            return
        if message.decide is not None:
            self.table.decide = message.decide
            self.votes.clear()
        if message.character is not None:
            if message.character not in self.table.control:
                await self._refuse(client, f"no {message.character!r} plays at this table")
                return
            target = BOT if message.to_seat is None else message.to_seat
            if target != BOT and target not in {s.number for s in self.table.seats}:
                await self._refuse(client, f"there is no seat {target}")
                return
            self.table.control[message.character] = target
            await self._call_off_undo("the host handed a role to another seat")
        self._keep_table()
        await self._broadcast_seats()
        await self._broadcast_views()
        self._schedule_bot()

    # --- undo, when every seat agrees ---------------------------------------------------------

    def _present_seats(self) -> set[int]:
        """The seats with a terminal at the table now."""
        return {c.seat for c in self.clients if c.seat is not None}

    def _seat_words(self, number: int) -> str:
        """A seat in words: its user and the roles it plays (``alice (Goku)``)."""
        seat = next((s for s in self.table.seats if s.number == number), None)
        user = printable(seat.user) if seat is not None and seat.user else f"seat {number}"
        match = self.session.match
        roles = [match.role_name(c) for c, owner in self.table.control.items() if owner == number]
        words = f"{user} ({', '.join(roles)})" if roles else user
        return printable(words, 120, spaces=True)

    def _why_no_undo(self) -> str:
        """Why the last action cannot be undone now, or ``""``. Never the
        floor's own words: they are written by one who sees every card."""
        session = self.session
        if not session.actions:
            return "nothing to undo: no action was taken yet"
        if session.undoable() > 0 and session.floor_snapshot:
            return ""
        turn = session.match.rules_turn
        if session.floor_reason == f"{turn} played":
            return f"nothing to undo: undo never goes back past {printable(turn, 60, spaces=True)}"
        return (
            "nothing to undo: the last action revealed hidden information (a card drawn, "
            "a deck shuffled, a die rolled), and undo never goes back past that"
        )

    async def _ask_undo(self, client: _Client, message: UndoMessage) -> None:
        """A seat asks to undo the last action: at once when it is alone at
        the table, else once every seat present agrees."""
        if client.seat is None:
            await self._refuse(client, "spectators have no say in an undo")
            return
        if message.version != self.version:
            await self._refuse(
                client,
                f"the table changed since your view (version {message.version}, "
                f"now {self.version}): look again",
            )
            return
        asked = self.undo_asked
        if asked is not None:
            if asked.by_seat == client.seat:
                waiting = ", ".join(self._undo_waiting_words(asked))
                await self._refuse(client, f"your undo already waits for {waiting}")
            else:
                await self._refuse(client, f"{asked.by} asked to undo already: answer it first")
            return
        why = self._why_no_undo()
        if why:
            await self._refuse(client, why)
            return
        try:
            lines = self.session.undo_lines(None)
        except Exception as exc:  # a rules bug: the table goes on, undo waits
            await self._refuse(client, self._undo_crashed(exc))
            return
        undoes = [printable(line.text, 200, spaces=True) for line in lines[:UNDO_LINES]]
        self.undo_requests += 1
        asked = _UndoAsked(
            self.undo_requests,
            client.seat,
            self._seat_words(client.seat),
            undoes or ["the last action"],
            {client.seat},
        )
        if not self._undo_waiting(asked):
            await self._undo(asked)
            return
        self.undo_asked = asked
        log.info("%s asks to undo: %s", asked.by, " ".join(asked.undoes))
        await self._tell_lines(
            [LogLine("undo", f"{asked.by} asks to undo: {' '.join(asked.undoes)}")]
        )
        await self._send_undo(asked)

    async def _answer_undo(self, client: _Client, message: UndoAnswerMessage) -> None:
        """A seat agrees to the undo asked (the last agreement carries it
        out) or refuses it (which calls it off)."""
        if client.seat is None:
            await self._refuse(client, "spectators have no say in an undo")
            return
        asked = self.undo_asked
        if asked is None or message.request != asked.request:
            await self._refuse(
                client, "that undo is no longer asked (it was carried out or called off)"
            )
            return
        who = self._seat_words(client.seat)
        if not message.agree:
            await self._call_off_undo(
                f"{who} withdrew it" if client.seat == asked.by_seat else f"{who} refused"
            )
            return
        asked.agreed.add(client.seat)
        if self._undo_waiting(asked):
            await self._send_undo(asked)
            return
        await self._undo(asked)

    def _undo_waiting(self, asked: _UndoAsked) -> list[int]:
        """The seats present that have not agreed yet."""
        return sorted(self._present_seats() - asked.agreed)

    def _undo_waiting_words(self, asked: _UndoAsked) -> list[str]:
        return [self._seat_words(seat) for seat in self._undo_waiting(asked)]

    async def _undo(self, asked: _UndoAsked) -> None:
        """Undo the last action, save, and tell every seat who asked, who
        agreed and what was undone. A save that fails undoes nothing."""
        self.undo_asked = None
        why = self._why_no_undo()
        reason = ""
        if why:
            reason = why
        else:
            try:
                if not self.session.undo():
                    reason = "nothing to undo"
            except SaveFailed as exc:
                reason = str(exc)
            except OSError as exc:  # a save that failed without ``SaveFailed``
                reason = str(SaveFailed.from_os_error(exc))
            except Exception as exc:  # a rules bug: the session kept the game as saved
                reason = self._undo_crashed(exc)
        if reason:
            self.quiet.warning("an undo was not carried out: %s", reason)
            await self._send_undo(asked, ended=f"not undone: {reason}")
            await self._tell_lines([LogLine("undo", f"Not undone: {reason}")])
            return
        self.undone += 1
        self.votes.clear()
        self.story = story_of(self.session.rules, self.session.data()) or self.session.rules.story()
        others = [self._seat_words(seat) for seat in sorted(asked.agreed - {asked.by_seat})]
        how = f"as {asked.by} asked" + (f" and {', '.join(others)} agreed" if others else "")
        text = f"Undone, {how}: {' '.join(asked.undoes)}"
        log.info("%s", text)
        await self._send_undo(asked, ended="undone")
        await self._retry_unsaved_seats()
        await self._tell_lines([LogLine("undo", text)])
        await self._broadcast_views()
        self._schedule_bot()

    def _undo_crashed(self, exc: Exception) -> str:
        """A rules error while undoing, reported: the words for the table."""
        try:
            report: object = self.session.crash_report(exc)
        except OSError as failed:
            report = f"not written: {failed}"
        log.exception("rules error while undoing; crash report %s", report)
        return f"the server hit an error (crash report: {report})"

    async def _call_off_undo(self, why: str) -> None:
        """Call off the undo asked, if any, saying why to every seat."""
        asked = self.undo_asked
        if asked is None:
            return
        self.undo_asked = None
        log.info("the undo %s asked is called off: %s", asked.by, why)
        await self._send_undo(asked, ended=f"called off: {why}")
        await self._tell_lines(
            [LogLine("undo", f"The undo {asked.by} asked is called off: {why}.")]
        )

    async def _undo_after_hello(self, client: _Client) -> None:
        """A seat that sat down calls off the undo asked (it has a say too);
        a spectator is shown it."""
        asked = self.undo_asked
        if asked is None:
            return
        if client.seat is not None:
            await self._call_off_undo(f"{self._seat_words(client.seat)} sat down")
        else:
            self._send_line(client, self._undo_line(asked))

    def _undo_line(self, asked: _UndoAsked, ended: str = "") -> bytes:
        waiting = [] if ended else self._undo_waiting(asked)
        return encode(
            UndoAskedMessage(
                type="undo-asked",
                request=asked.request,
                by_seat=asked.by_seat,
                by=asked.by,
                undoes=asked.undoes,
                agreed=sorted(asked.agreed),
                waiting=waiting,
                waiting_for=[self._seat_words(seat) for seat in waiting],
                open=not ended,
                ended=ended,
            )
        )

    async def _send_undo(self, asked: _UndoAsked, ended: str = "") -> None:
        """Show every client the undo asked as it stands (``ended``: how it ended)."""
        line = self._undo_line(asked, ended)
        for client in list(self.clients):
            self._send_line(client, line)
        self._bound_buffers()

    async def _tell_lines(self, lines: list[LogLine]) -> None:
        """Lines of the table's own for every client's log (the same words
        for every seat)."""
        line = encode(
            EventsMessage(
                type="events",
                version=self.version,
                events=[{"kind": one.kind, "text": one.text} for one in lines],
            )
        )
        for client in list(self.clients):
            self._send_line(client, line)
        self._bound_buffers()

    # --- the bot -------------------------------------------------------------------------------

    def _bot_turn(self) -> bool:
        """Whether the bot must act now (a Character handed to it, or a
        players' decision with no one at the table)."""
        asked = self.session.match.asked()
        if asked.together:
            humans = {c.seat for c in self.clients if c.seat is not None}
            return not humans and all(v == BOT for v in self.table.control.values())
        return any(self.table.control.get(role) == BOT for role in asked.roles)

    def _schedule_bot(self) -> None:
        if self._bot_turn() and (self._bot_task is None or self._bot_task.done()):
            self._bot_task = asyncio.get_running_loop().create_task(self._run_bot())

    async def _run_bot(self) -> None:
        while self._bot_turn():
            await asyncio.sleep(self.bot_delay)
            if not self._bot_turn():
                return
            # Thought over on a copy, on a thread: the table goes on serving
            # its clients (chat, views, comings and goings) meanwhile.
            version = self.version
            snapshot = self.session.match.clone()
            rng = random.Random(self.bot_rng.getrandbits(64))
            move = await asyncio.to_thread(snapshot.bot_move, rng, self.bot_think)
            if self.version != version or not self._bot_turn():
                continue  # the table moved on (an undo): think again
            if not await self._apply(move, None):
                # Most likely a full disk: not a new notice every bot_delay.
                await asyncio.sleep(self.save_retry)

    # --- sending ---------------------------------------------------------------------------------

    @property
    def version(self) -> int:
        """The state version: the number of actions applied, and of those
        undone (an undo raises it too: one version, one state)."""
        return len(self.session.actions) + 2 * self.undone

    def seat_infos(self) -> list[SeatInfo]:
        """Who sits where, who is away, which Characters the bot plays."""
        present = {c.seat for c in self.clients}
        return [
            SeatInfo(
                seat=s.number,
                characters=[c for c, owner in self.table.control.items() if owner == s.number],
                user=printable(s.user),
                present=s.number in present,
                bot=False,
            )
            for s in self.table.seats
        ] + [
            SeatInfo(
                seat=BOT,
                characters=[c for c, owner in self.table.control.items() if owner == BOT],
                user="bot",
                present=True,
                bot=True,
            )
        ]

    async def _broadcast_seats(self) -> None:
        line = encode(SeatsMessage(type="seats", seats=self.seat_infos()))
        for client in list(self.clients):
            self._send_line(client, line)
        self._bound_buffers()
        if self.announce:
            with contextlib.suppress(OSError):
                write_entry(self.entry())

    def _view_line(self, seat: int | None) -> bytes:
        """The view message of ``seat`` (``None``: a spectator's), encoded
        whole, numbered with the last ``seq`` given."""
        match = self.session.match
        plays = self.plays(seat)
        offers = match.offers(plays) if self.may_act(seat) else []
        return encode(
            ViewMessage(
                type="view",
                version=self.version,
                seq=self._view_seq,
                view=match.view(seat, plays).to_json(),
                legal=[o.to_json() for o in offers],
                decide="vote" if self.table.decide == "vote" else "first",
                votes={str(k): v for k, v in self.votes.items()},
                tally=self.story.to_json() if match.over else None,
            )
        )

    def _build_view(self, seat: int | None) -> _BuiltView:
        self._view_seq += 1
        line = self._view_line(seat)
        # The object the client reads: what a change is made against.
        data = json.loads(line)
        return _BuiltView(seat, self.plays(seat), self._view_seq, line, data)

    async def _send_view(self, client: _Client) -> None:
        """Send the client its whole view (a join, a reconnection, a
        ``resend``)."""
        built = self._build_view(client.seat)
        latest = self._latest.get(client.seat)
        if (
            latest is not None
            and latest.plays == built.plays
            and same({**latest.data, "seq": 0}, {**built.data, "seq": 0})
        ):
            # Nothing changed since the last view built for the seat: the
            # newcomer holds the same view as the others, and shares their
            # changes from now on.
            built = latest
        self._latest[client.seat] = built
        client.views = [built]
        self._send_line(client, built.line)

    async def _resend_view(self, client: _Client) -> None:
        """A client could not apply a change: its whole view, unless no
        change was sent since the last whole one (that one is on its way,
        and a client may not have views built at will)."""
        if len(client.views) > 1:
            await self._send_view(client)

    def _line_for(self, client: _Client, built: _BuiltView) -> bytes:
        """What to send a client for a new view: the change from the views
        it holds, or the whole view. The client holds ``built`` next."""
        held = client.views
        if (
            not self.deltas
            or not held
            or (held[0].seat, held[0].plays) != (built.seat, built.plays)
        ):
            client.views = [built]
            return built.line
        key = tuple(view.seq for view in held)
        line = built.changes.get(key)
        if line is None:
            line = built.changes[key] = self._change_line(held, built)
        client.views = [built] if line is built.line else [built, *held][:VIEWS_HELD]
        return line

    def _change_line(self, held: list[_BuiltView], built: _BuiltView) -> bytes:
        """The change from the views ``held`` (the latest first) to
        ``built``, as a line; the whole line when that is no longer, or the
        change nests deeper than a client reads."""
        try:
            patch = diff(
                held[0].data,
                built.data,
                [view.data for view in held[1:]],
                (built.texts, [view.texts for view in held]),
            )
        except (RecursionError, ValueError):  # nested past what Python walks
            return built.line
        line = encode(
            ViewDeltaMessage(
                type="view-delta",
                version=built.data["version"],
                base=held[0].seq,
                patch=patch,
            )
        )
        if len(line) >= len(built.line) or not fits_server_line(line):
            return built.line
        return line

    async def _broadcast_views(self) -> None:
        # Built and encoded once per distinct view: every spectator shares
        # one, each seat has its own (two terminals of one seat share too);
        # a change is made once for the clients that hold the same views.
        built: dict[int | None, _BuiltView] = {}
        for client in list(self.clients):
            view = built.get(client.seat)
            if view is None:
                view = built[client.seat] = self._build_view(client.seat)
                self._latest[client.seat] = view
            self._send_line(client, self._line_for(client, view))
        self._bound_buffers()

    async def _broadcast(self, events: Sequence[Event]) -> None:
        match = self.session.match
        lines: dict[int | None, bytes] = {}
        for client in list(self.clients):
            line = lines.get(client.seat)
            if line is None:
                line = lines[client.seat] = encode(
                    EventsMessage(
                        type="events",
                        version=self.version,
                        # Words only: a kind and a text.
                        events=[
                            {"kind": e.kind, "text": e.text} for e in match.log(events, client.seat)
                        ],
                    )
                )
            self._send_line(client, line)
        await self._broadcast_views()


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MiB" if size >= 1024 * 1024 else f"{size / 1024:.0f} KiB"


def _numbers(seats: list[Seat]) -> str:
    return ", ".join(str(s.number) for s in seats)


def _socket_in_use(path: Path) -> bool:
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(str(path))
    except OSError:
        return False
    finally:
        probe.close()
    return True
