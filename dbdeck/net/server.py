"""One authoritative table for many terminals.

The server holds the only game (a saved ``Session``: every action is saved
at once) and the engine. Clients send actions; the server checks who sends
them, applies them, and sends each client its own view and events. A seat
is claimed by an OS user (known from the Unix socket's peer credentials, or
from the join token and a seat token over loopback TCP) and is held for that
user when their connection drops.

Every seat sees only its own: the server sends nothing but the typed seat
view (``seat_view``), the seat's offers (``seat_offers``) and the log in
words (``log_lines``). The seed, the random generator and every hidden card
stay here; an action naming a masked card is unmasked before it is checked.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import os
import random
import secrets
import socket
import struct
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from dbdeck import bots
from dbdeck.engine.actions import Action, IllegalAction
from dbdeck.engine.events import Event
from dbdeck.engine.game import Game
from dbdeck.engine.grim import break_tie
from dbdeck.engine.table_view import HIDDEN
from dbdeck.engine.view import log_lines, seat_offers, seat_view, unmask
from dbdeck.net.protocol import (
    BOT,
    MAX_LINE,
    PROTOCOL_VERSION,
    ActionMessage,
    ByeMessage,
    ChatMessage,
    EventsMessage,
    HelloMessage,
    HostMessage,
    ProtocolError,
    RefusalMessage,
    SeatInfo,
    SeatsMessage,
    ViewMessage,
    WelcomeMessage,
    decode_client,
    encode,
)
from dbdeck.net.tables import TableEntry, may_join, remove_entry, user_name, write_entry
from dbdeck.saves import Session

__all__ = ["BOT", "Seat", "TableServer", "peer_user"]

log = logging.getLogger("dbdeck.server")

SLOW_CLIENT = 32 * 1024 * 1024
"""Bytes waiting for one client before the server lets it go."""

UNSEEN = "that action names a card you cannot see"
"""The one answer to an action naming a card its seat cannot see, whatever
the card is."""


def peer_user(writer: asyncio.StreamWriter) -> str | None:
    """The OS user at the other end of a Unix socket (``None`` over TCP)."""
    sock = writer.get_extra_info("socket")
    if sock is None or sock.family != socket.AF_UNIX:
        return None
    raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", raw)
    return user_name(uid)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Seat:
    """A place at the table: its Characters and the user who claimed it."""

    number: int
    characters: list[str]
    user: str = ""
    token_hash: str = ""


@dataclass
class _Client:
    writer: asyncio.StreamWriter
    user: str
    seat: int | None = None
    host: bool = False
    tcp: bool = False
    welcomed: bool = False


@dataclass
class _Table:
    """What the server keeps beside the save: seats, controllers, settings."""

    seats: list[Seat]
    control: dict[str, int] = field(default_factory=dict)
    """The seat (or ``BOT``) that plays each Character now."""
    decide: str = "first"


class TableServer:
    """A table served on a Unix socket (and optionally loopback TCP)."""

    def __init__(
        self,
        session: Session,
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
        bot_delay: float = 0.3,
        announce: bool = True,
    ) -> None:
        self.session = session
        self.name = name
        self.socket_path = socket_path
        self.group = group
        self.tcp = tcp
        self.join_token = join_token or secrets.token_urlsafe(12)
        self.owner = owner or user_name()
        self.identify = identify
        self.admits = admits or (lambda user: may_join(user, self.owner, self.group))
        """Whether an OS user may sit at the table (the owner, and the group)."""
        self.bot_delay = bot_delay
        self.announce = announce
        self.clients: list[_Client] = []
        self.votes: dict[int, int] = {}
        # Not the game's seed: a bot's moves are seen by every seat, and
        # nothing seen at the table may be a function of the seed.
        self.bot_rng = random.Random(secrets.randbits(64))
        self._servers: list[asyncio.AbstractServer] = []
        self._bot_task: asyncio.Task[None] | None = None
        self._handlers: set[asyncio.Task[Any]] = set()
        self._writers: set[asyncio.StreamWriter] = set()
        self.table = self._load_table(decide)

    # --- the table beside the save -------------------------------------------------------

    @property
    def _table_file(self) -> Path:
        return self.session.folder / f"{self.session.id}.table"

    def _load_table(self, decide: str) -> _Table:
        seats: dict[int, Seat] = {}
        for ch in self.session.game.state.characters:
            seats.setdefault(ch.seat, Seat(ch.seat, [])).characters.append(ch.id)
        table = _Table(sorted(seats.values(), key=lambda s: s.number), decide=decide)
        table.control = {ch.id: ch.seat for ch in self.session.game.state.characters}
        try:
            data = json.loads(self._table_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
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

    def _save_table(self) -> None:
        data = {
            "seats": [asdict(s) for s in self.table.seats],
            "control": self.table.control,
            "decide": self.table.decide,
        }
        pending = self._table_file.with_suffix(".table-tmp")
        pending.write_text(json.dumps(data), encoding="utf-8")
        os.replace(pending, self._table_file)

    # --- running ---------------------------------------------------------------------

    async def start(self) -> None:
        """Listen; announce the table in the shared list."""
        if self.socket_path is not None:
            path = self.socket_path
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.exists() or path.is_symlink():
                if _socket_in_use(path):
                    raise OSError(f"a table is already served on {path}")
                path.unlink()
            old = os.umask(0o177)
            try:
                server = await asyncio.start_unix_server(
                    self._serve, path=str(path), limit=MAX_LINE + 2
                )
            finally:
                os.umask(old)
            if self.group:
                import grp

                os.chown(path, -1, grp.getgrnam(self.group).gr_gid)
                path.chmod(0o660)
            self._servers.append(server)
        if self.tcp is not None:
            host, port = self.tcp
            server = await asyncio.start_server(self._serve, host, port, limit=MAX_LINE + 2)
            self.tcp = (host, server.sockets[0].getsockname()[1])
            self._servers.append(server)
        self._save_table()
        if self.announce:
            write_entry(self.entry())
        self._schedule_bot()

    def entry(self) -> TableEntry:
        """This table in the shared list."""
        s = self.session.game.state
        return TableEntry(
            name=self.name,
            socket=str(self.socket_path or ""),
            owner=self.owner,
            pid=os.getpid(),
            group=self.group,
            tcp=f"{self.tcp[0]}:{self.tcp[1]}" if self.tcp else "",
            villain=self.session.game.name("v"),
            characters=[self.session.game.name("c:" + c.id) for c in s.characters],
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
        self.session.close()

    # --- one connection ------------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._handlers.add(task)
            task.add_done_callback(self._handlers.discard)
        self._writers.add(writer)
        user = self.identify(writer)
        client = _Client(writer, user or "", tcp=user is None)
        try:
            while True:
                try:
                    line = await reader.readline()
                except (ValueError, asyncio.LimitOverrunError):
                    log.warning("oversized message from %s", client.user or "?")
                    await self._refuse(client, f"message too long (at most {MAX_LINE} bytes)", True)
                    return
                if not line:
                    return
                if not line.strip():
                    continue
                try:
                    message = decode_client(line)
                except ProtocolError as exc:
                    log.warning("malformed message from %s: %s", client.user or "?", exc)
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
        except (ConnectionError, asyncio.IncompleteReadError):
            return
        except Exception:  # one client's trouble never stops the table
            log.exception("error serving %s", client.user or "?")
        finally:
            await self._drop(client)

    async def _drop(self, client: _Client) -> None:
        self._writers.discard(client.writer)
        if client in self.clients:
            self.clients.remove(client)
            await self._broadcast_seats()
        with contextlib.suppress(Exception):
            client.writer.close()

    async def _send(self, client: _Client, message: BaseModel) -> None:
        """Queue a message for a client. The server never waits for one
        client to read (two clients each waiting on the other would stall
        the table): a client that falls too far behind is let go."""
        writer = client.writer
        if writer.is_closing():
            return
        writer.write(encode(message))
        if writer.transport.get_write_buffer_size() > SLOW_CLIENT:
            log.warning("%s reads too slowly: disconnected", client.user or "?")
            writer.close()
            if client in self.clients:
                self.clients.remove(client)

    async def _refuse(self, client: _Client, reason: str, fatal: bool = False) -> None:
        await self._send(client, RefusalMessage(type="refusal", reason=reason, fatal=fatal))

    # --- hello ---------------------------------------------------------------------------------

    async def _hello(self, client: _Client, hello: HelloMessage) -> bool:
        if hello.protocol != PROTOCOL_VERSION:
            await self._refuse(
                client,
                f"this table speaks protocol {PROTOCOL_VERSION}, your dbdeck speaks "
                f"{hello.protocol}: use the same dbdeck version as the host",
                True,
            )
            return False
        if client.tcp:
            if not hello.join_token or not hmac.compare_digest(hello.join_token, self.join_token):
                await self._refuse(client, "a valid join token is needed over TCP", True)
                return False
            if not hello.user:
                await self._refuse(client, "say who you are (user) over TCP", True)
                return False
            client.user = hello.user
        elif not self.admits(client.user):
            admits = f"{self.owner}" + (f" and group {self.group}" if self.group else "")
            await self._refuse(client, f"this table admits {admits} only", True)
            return False
        client.host = client.user == self.owner and not client.tcp
        token = None
        if not hello.spectate:
            seat, why = self._seat_for(client, hello)
            if seat is None:
                await self._refuse(client, why, True)
                return False
            if not seat.user:
                token = secrets.token_urlsafe(16)
                seat.user = client.user
                seat.token_hash = _digest(token)
                self._save_table()
            elif hello.seat_token:
                token = hello.seat_token
            else:
                # The same OS user over the socket, without the token (a new
                # terminal): a fresh token replaces the old one.
                token = secrets.token_urlsafe(16)
                seat.token_hash = _digest(token)
                self._save_table()
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
                table=self.name,
                seat=client.seat,
                seat_token=token,
                host=client.host,
            ),
        )
        log.info("%s joined seat %s", client.user, client.seat)
        await self._broadcast_seats()
        await self._send_view(client)
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
            return None, f"seat {seat.number} is held by {seat.user}"
        if seat.user and client.tcp:
            token = hello.seat_token or ""
            if not hmac.compare_digest(_digest(token), seat.token_hash):
                return None, f"seat {seat.number} needs its seat token to reconnect"
        return seat, ""

    # --- messages ----------------------------------------------------------------------------

    async def _handle(self, client: _Client, message: Any) -> None:
        if isinstance(message, ActionMessage):
            await self._action(client, message)
        elif isinstance(message, ChatMessage):
            said = ChatMessage(type="chat", text=message.text, sender=client.user)
            for other in list(self.clients):
                await self._send(other, said)
        elif isinstance(message, HostMessage):
            await self._host(client, message)
        elif isinstance(message, HelloMessage):
            await self._refuse(client, "already joined")

    def plays(self, seat: int | None) -> frozenset[str]:
        """The Characters a seat plays now, whose hands it sees (the host may
        have handed a Character to another seat, or to the bot)."""
        if seat is None:
            return frozenset()
        return frozenset(c for c, owner in self.table.control.items() if owner == seat)

    def may_act(self, seat: int | None) -> bool:
        """Whether a client at ``seat`` may act now."""
        game = self.session.game
        actor = game.actor()
        if seat is None or actor is None:
            return False
        if actor == "players":
            return True
        return self.table.control.get(actor) == seat

    def _who(self, actor: str) -> str:
        controller = self.table.control.get(actor)
        name = self.session.game.name("c:" + actor)
        if controller == BOT:
            return f"{name} (the bot)"
        seat = next((s for s in self.table.seats if s.number == controller), None)
        return f"{name} ({seat.user or f'seat {controller}'})" if seat else name

    async def _action(self, client: _Client, message: ActionMessage) -> None:
        game = self.session.game
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
        try:
            sent = Action.from_json(message.action)
        except ValueError as exc:
            await self._refuse(client, f"not an action: {exc}")
            return
        if not self.may_act(client.seat):
            actor = game.actor()
            if actor is None:
                why = "the game is over" if game.over else "nobody may act now"
            else:
                why = f"it is not your turn: {self._who(actor)} acts now"
            await self._refuse(client, why)
            return
        plays = self.plays(client.seat)
        if _names_unseen(game, client.seat, plays, sent):
            # The engine's reasons are written by one who sees every card: a
            # seat probing a uid it cannot see learns nothing but this.
            await self._refuse(client, UNSEEN)
            return
        # An offer names a card of another hand as HIDDEN: the legal action
        # behind it is found here, never told to the client.
        action = unmask(game, client.seat, sent, plays=plays)
        if game.actor() == "players" and self.table.decide == "vote":
            await self._vote(client, action)
            return
        await self._apply(action, client)

    async def _vote(self, client: _Client, action: Action) -> None:
        pending = self.session.game.state.pending
        assert pending is not None and client.seat is not None
        if action.type != "choose" or not 0 <= (action.option or 0) < len(pending.options):
            await self._refuse(client, "answer the decision with one of its options")
            return
        self.votes[client.seat] = action.option or 0
        voters = {c.seat for c in self.clients if c.seat is not None}
        if voters - set(self.votes):
            await self._broadcast_views()
            return
        counts: dict[int, int] = {}
        for option in self.votes.values():
            counts[option] = counts.get(option, 0) + 1
        best = max(counts.values())
        tied = sorted(o for o, n in counts.items() if n == best)
        # A tie is a table that cannot agree: the Grim Rule (rules note N43).
        await self._apply(Action("choose", option=break_tie(pending, tied)), None)

    async def _apply(self, action: Action, client: _Client | None) -> None:
        try:
            events = self.session.apply(action)
        except IllegalAction as exc:
            if client is not None:
                await self._refuse(client, exc.reason)
            return
        except Exception as exc:  # a rules bug: keep the table, report it
            report = self.session.crash_report(exc)
            log.exception("rules error; crash report %s", report)
            self._reload()
            if client is not None:
                await self._refuse(client, f"the server hit an error (crash report: {report})")
            await self._broadcast_views()
            return
        self.votes.clear()
        await self._broadcast(events)
        self._schedule_bot()

    def _reload(self) -> None:
        self.session.close()
        self.session = Session.resume(self.session.catalog, self.session.folder, self.session.id)

    async def _host(self, client: _Client, message: HostMessage) -> None:
        if not client.host:
            await self._refuse(client, "only the host may change the table")
            return
        if message.decide is not None:
            self.table.decide = message.decide
            self.votes.clear()
        if message.character is not None:
            if message.character not in self.table.control:
                await self._refuse(client, f"no Character {message.character!r} at this table")
                return
            target = BOT if message.to_seat is None else message.to_seat
            if target != BOT and target not in {s.number for s in self.table.seats}:
                await self._refuse(client, f"there is no seat {target}")
                return
            self.table.control[message.character] = target
        self._save_table()
        await self._broadcast_seats()
        await self._broadcast_views()
        self._schedule_bot()

    # --- the bot -------------------------------------------------------------------------------

    def _bot_turn(self) -> bool:
        """Whether the bot must act now (a Character handed to it, or a
        players' decision with no one at the table)."""
        actor = self.session.game.actor()
        if actor is None:
            return False
        if actor == "players":
            humans = {c.seat for c in self.clients if c.seat is not None}
            return not humans and all(v == BOT for v in self.table.control.values())
        return self.table.control.get(actor) == BOT

    def _schedule_bot(self) -> None:
        if self._bot_turn() and (self._bot_task is None or self._bot_task.done()):
            self._bot_task = asyncio.get_running_loop().create_task(self._run_bot())

    async def _run_bot(self) -> None:
        while self._bot_turn():
            await asyncio.sleep(self.bot_delay)
            if not self._bot_turn():
                return
            await self._apply(bots.greedy(self.session.game, self.bot_rng), None)

    # --- sending ---------------------------------------------------------------------------------

    @property
    def version(self) -> int:
        """The state version: the number of actions applied."""
        return len(self.session.actions)

    def seat_infos(self) -> list[SeatInfo]:
        """Who sits where, who is away, which Characters the bot plays."""
        present = {c.seat for c in self.clients}
        return [
            SeatInfo(
                seat=s.number,
                characters=[c for c, owner in self.table.control.items() if owner == s.number],
                user=s.user,
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
        message = SeatsMessage(type="seats", seats=self.seat_infos())
        for client in list(self.clients):
            await self._send(client, message)
        if self.announce:
            with contextlib.suppress(OSError):
                write_entry(self.entry())

    async def _send_view(self, client: _Client) -> None:
        game = self.session.game
        plays = self.plays(client.seat)
        offers = seat_offers(game, client.seat, plays=plays) if self.may_act(client.seat) else []
        await self._send(
            client,
            ViewMessage(
                type="view",
                version=self.version,
                view=seat_view(game, client.seat, plays=plays).to_json(),
                legal=[o.to_json() for o in offers],
                decide="vote" if self.table.decide == "vote" else "first",
                votes={str(k): v for k, v in self.votes.items()},
            ),
        )

    async def _broadcast_views(self) -> None:
        for client in list(self.clients):
            await self._send_view(client)

    async def _broadcast(self, events: list[Event]) -> None:
        game = self.session.game
        for client in list(self.clients):
            await self._send(
                client,
                EventsMessage(
                    type="events",
                    version=self.version,
                    events=[asdict(line) for line in log_lines(events, game, client.seat)],
                ),
            )
        await self._broadcast_views()


def _names_unseen(game: Game, seat: int | None, plays: frozenset[str], action: Action) -> bool:
    """Whether ``action`` names a card that ``seat`` cannot see (a masked
    ``HIDDEN`` card excepted). Every offer names only face-up cards of the
    seat's view, or ``HIDDEN``."""
    named = [u for u in (action.card, action.on, *action.cards) if u is not None and u != HIDDEN]
    if not named:
        return False
    seen = {card.uid for card in seat_view(game, seat, plays=plays).cards()}
    return any(uid not in seen for uid in named)


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
