"""The table in one terminal of a shared table: ``dbdeck join``, of any
game.

The app opens the game the table plays: the one its entry names, else the
one its welcome names (its rules from the registry). Its table screen
(``SHARED_TABLE_SCREENS``, else ``TABLE_SCREENS``: the deckbuilding game's
``SharedTableScreen``) sits behind a ``RemoteBackend``: it draws the view
the server sent this seat, offers the server's offers, and sends actions
back; the server answers with a new view (or a refusal, shown with its
reason). A dropped connection is retried; the seat is held by the server
meanwhile. The keys that answer an undo another seat asked are the app's
(``AGREE_KEY``, ``REFUSE_KEY``), so they work on every game's table, over
its dialogs too.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import signal
import sys
from pathlib import Path
from typing import Any, cast

from pydantic import ValidationError
from rich.text import Text
from textual.binding import Binding
from textual.screen import Screen

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.panels import LogLine
from dbdeck.games.deckbuilding.tui.app import DbdeckApp
from dbdeck.games.deckbuilding.tui.shared_table import SharedTableScreen
from dbdeck.net.client import JoinRefused, TableClient
from dbdeck.net.listing import check_server, read_seat_token, store_seat_token, user_name
from dbdeck.net.protocol import (
    ChatMessage,
    EventsMessage,
    RefusalMessage,
    SeatInfo,
    SeatsMessage,
    UndoAskedMessage,
    ViewMessage,
    WelcomeMessage,
)
from dbdeck.packs.reading import CardSetError
from dbdeck.saves import SaveFailed
from dbdeck.tabletop.game import GameRules
from dbdeck.tabletop.registry import (
    has_table_screen,
    known,
    no_screen_words,
    open_rules,
    unknown_words,
)
from dbdeck.tui.backend import Seating
from dbdeck.tui.joined import (
    AGREE_KEY,
    REFUSE_KEY,
    RemoteBackend,
    SharedTable,
    WaitingScreen,
)

__all__ = ["JoinApp", "RemoteBackend", "SharedTableScreen"]

RETRY_SECONDS = 1.0

WATCH_SECONDS = 0.5
"""How often a joined table checks that its terminal is still there."""

TERMINAL_GONE = "the terminal closed: left the table (your seat is held; dbdeck join to come back)"


def lost_words(exc: OSError) -> str:
    """Why a table that was open cannot be reached now, in words: a socket
    gone or refusing connections is a table whose host closed it (or whose
    host process ended)."""
    if isinstance(exc, (FileNotFoundError, ConnectionRefusedError)):
        return "The host closed the table; waiting for it to come back"
    return f"Connection lost — reconnecting… ({exc.strerror or exc})"


def terminal_gone() -> bool:
    """Whether this process's terminal went away: stdin is no longer a
    terminal, or hangs up (a closed pty reads as end of file for ever, and
    Textual's input thread would spin on it)."""
    stream = sys.__stdin__
    try:
        fd = stream.fileno() if stream is not None else -1
        if fd < 0 or not os.isatty(fd):
            return True
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        hung = select.POLLHUP | select.POLLERR | select.POLLNVAL
        return any(events & hung for _, events in poller.poll(0))
    except (OSError, ValueError):
        return True


class JoinApp(DbdeckApp):
    """dbdeck connected to a shared table, of any game."""

    BINDINGS = [
        *DbdeckApp.BINDINGS,
        Binding(AGREE_KEY, "answer_undo(True)", "Agree to undo"),
        Binding(REFUSE_KEY, "answer_undo(False)", "Refuse undo"),
    ]

    def __init__(
        self,
        rules: GameRules[Any] | None,
        *,
        socket_path: Path | None = None,
        tcp: tuple[str, int] | None = None,
        seat: int | None = None,
        spectate: bool = False,
        join_token: str | None = None,
        user: str | None = None,
        server_owner: tuple[str, int] | None = None,
    ) -> None:
        """``rules``: the game the table plays, as its entry names it;
        ``None`` for a table found by its address alone, whose welcome
        names its game (opened then, from the registry). ``server_owner``
        is the host's name and uid, whose server the socket must be before
        a seat token is sent; by default the owner of ``socket_path`` as it
        is found at the first connection."""
        content = rules.content if rules is not None else None
        super().__init__(
            content if isinstance(content, Catalog) else None,
            start=WaitingScreen("Connecting to the table…"),
        )
        self.rules = rules
        """The game the table plays, as this terminal reads its views
        (``None`` until the welcome names it)."""
        self.socket_path = socket_path
        self.tcp = tcp
        self.wanted_seat = seat
        self.spectate = spectate
        self.join_token = join_token
        self.user = user
        self.server_owner = server_owner
        self.client: TableClient | None = None
        self.seat: int | None = None
        self.host = False
        self.table_name = ""
        self.seats: list[SeatInfo] = []
        # Any: each game's own screen, which its tests reach into as such.
        self.table: Any = None
        """The game's table screen (a ``SharedTable``), once the first view came."""
        self.backend: RemoteBackend | None = None
        self.failure = ""
        """Why the app stopped, when it stopped on its own."""
        self._ask_again = False
        """A reconnected table: reopen an open decision's dialog at the next view."""
        self._tries = 0
        """Tries to reconnect since the connection was lost."""

    reconnects = True
    """Whether a connection that ends is tried again (the seat is held
    meanwhile); otherwise the app ends with it."""

    def where(self) -> str:
        """This terminal's place at the table, in words."""
        place = "spectator" if self.seat is None else f"seat {self.seat}"
        return f"{self.table_name} · {place}"

    def seats_text(self) -> str:
        """The seats in plain words."""
        lines = []
        for s in self.seats:
            if s.bot and not s.characters:
                continue
            who = "the bot" if s.bot else (s.user or "free")
            state = "" if s.bot or not s.user else (" (here)" if s.present else " (away)")
            names = ", ".join(self.role_name(c) for c in s.characters) or "-"
            seat = "bot" if s.bot else f"seat {s.seat}"
            you = "  ← you" if s.seat == self.seat and not s.bot else ""
            lines.append(f"{seat}: {who}{state} — {names}{you}")
        return "\n".join(lines)

    def role_name(self, role: str) -> str:
        """A role of the table in words: a Character's name in this game,
        the role's id in another (its screen names them)."""
        content = self.rules.content if self.rules is not None else None
        if isinstance(content, Catalog) and role in content.cards:
            return str(content[role].name)
        return role

    def on_mount(self) -> None:
        super().on_mount()
        if not self.is_headless:
            # A terminal that goes away must end the app: by SIGHUP, or (no
            # SIGHUP when the pty is not our controlling terminal) by stdin
            # hanging up.
            self.set_interval(WATCH_SECONDS, self._watch_terminal, name="terminal watch")
            loop = asyncio.get_running_loop()
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(signal.SIGHUP, self.stop, TERMINAL_GONE)
        self.run_worker(self._run(), exclusive=True, name="connection")

    def _watch_terminal(self) -> None:
        if terminal_gone():
            self.stop(TERMINAL_GONE)

    def send(self, message: Any) -> None:
        """Send a message to the server (in the background)."""
        client = self.client
        if client is None:
            self.notify("Not connected: the message was not sent.", severity="warning")
            return

        async def go() -> None:
            try:
                await client.send(message)
            except (ConnectionError, RuntimeError):
                self.notify("Not connected: the message was not sent.", severity="warning")

        self.run_worker(go(), group="send")

    def stop(self, why: str) -> None:
        """Leave with a reason printed after the app closes."""
        self.failure = why
        self.exit(return_code=1)

    async def _retry(self, why: str) -> None:
        """Say why the table is out of reach, then wait before the next try."""
        self._tries += 1
        self._waiting(f"{why} (tried {self._tries}×; q quits)")
        await asyncio.sleep(RETRY_SECONDS)

    def _expect_owner(self) -> str:
        """Settle whose server the socket must be (``--socket PATH``: the
        socket file's owner now, before connecting); why not, or ``""``."""
        if self.socket_path is None or self.server_owner is not None:
            return ""
        try:
            uid = os.lstat(self.socket_path).st_uid
        except OSError as exc:
            return f"cannot reach the table: {exc.strerror or exc} ({self.socket_path})"
        self.server_owner = (user_name(uid), uid)
        return ""

    def _check_server(self, client: TableClient) -> str:
        """Why this connection must not get the hello (which carries the seat
        token): its server is not the host's. ``""`` when it is, or over TCP,
        where the join token vouches for the table instead."""
        if self.socket_path is None or self.server_owner is None:
            return ""
        owner, uid = self.server_owner
        try:
            served_by = client.server_uid()
        except OSError:
            served_by = None
        return check_server(self.socket_path, owner, uid, served_by)

    async def _run(self) -> None:
        connected_once = False
        problem = self._expect_owner()
        if problem:
            self.stop(problem)
            return
        while True:
            try:
                client = await self._connect()
            except OSError as exc:
                if not connected_once:
                    self.stop(f"cannot reach the table: {exc}")
                    return
                await self._retry(lost_words(exc))
                continue
            problem = self._check_server(client)
            if problem:
                # Checked at every connection: a socket swapped while the
                # host was away gets nothing either.
                await client.close()
                self.stop(problem)
                return
            try:
                welcome = await client.hello(**self._hello())
            except JoinRefused as exc:
                await client.close()
                if not connected_once:
                    self.stop(f"the table refused: {exc}")
                    return
                await self._retry(f"Reconnecting… ({exc})")
                continue
            # An open decision's dialog reopens at the first view after a
            # reconnection: the answer may have been lost with the connection.
            self._ask_again = connected_once
            if connected_once:
                self._back()
            connected_once = True
            problem = self._open_game(welcome.game)
            if problem:
                await client.close()
                self.stop(problem)
                return
            self.client = client
            self._welcomed(welcome)
            reason = await self._listen(client)
            self.client = None
            await client.close()
            if reason:
                self.stop(reason)
                return
            if not self.reconnects:
                self.stop("the table closed the connection")
                return
            self._lost()
            await asyncio.sleep(RETRY_SECONDS)

    async def _connect(self) -> TableClient:
        """A new connection to the table (``OSError`` when none answers)."""
        return await TableClient.connect(socket_path=self.socket_path, tcp=self.tcp)

    def _hello(self) -> dict[str, Any]:
        key = self._token_key()
        held_seat, token = read_seat_token(key)
        seat = self.wanted_seat if self.wanted_seat is not None else held_seat
        if seat is not None and held_seat is not None and seat != held_seat:
            token = None
        return {
            # None: the game the table plays (its welcome names it).
            "game": self.rules.game_id if self.rules is not None else None,
            "seat": None if self.spectate else seat,
            "spectate": self.spectate,
            "seat_token": None if self.spectate else token,
            "join_token": self.join_token,
            "user": self.user,
        }

    def _token_key(self) -> str:
        if self.tcp is not None:
            return f"tcp:{self.tcp[0]}:{self.tcp[1]}"
        return f"unix:{self.socket_path}"

    def _open_game(self, game: str) -> str:
        """Open the rules of the game the welcome names, unless they are
        open already; why they cannot be, or ``""``."""
        if not known(game):
            return f"cannot join: this table plays {unknown_words(game)}"
        if not has_table_screen(game, "shared"):
            return f"cannot join: {no_screen_words(game)}"
        if self.rules is not None and self.rules.game_id == game:
            return ""
        if self.rules is not None:
            # Another game's table answers where this one was (a reconnection).
            return f"this table now plays {game!r}, not {self.rules.game_id!r}"
        try:
            rules = open_rules(game)
        except CardSetError as exc:
            first = exc.problems[0] if exc.problems else exc
            return f"cannot join: the cards of {game!r} do not load ({first})"
        except (ValueError, OSError) as exc:
            return f"cannot join: {exc}"
        self.rules = rules
        content = rules.content
        if isinstance(content, Catalog):
            self.catalog = content
        return ""

    def _welcomed(self, welcome: WelcomeMessage) -> None:
        self.seat = welcome.seat
        self.wanted_seat = welcome.seat
        self.host = welcome.host
        self.table_name = welcome.table
        if welcome.seat is not None and welcome.seat_token:
            try:
                store_seat_token(self._token_key(), welcome.seat, welcome.seat_token)
            except SaveFailed as exc:
                self.notify(
                    f"Your seat token could not be kept ({exc}): another terminal of yours "
                    "can still take the seat back.",
                    severity="warning",
                )

    def _waiting(self, text: str) -> None:
        """Say how the connection stands, in one place: the waiting screen
        while connecting, the table's prompt once it is open."""
        if isinstance(self.screen, WaitingScreen):
            self.screen.say(text)
        elif (table := self._up()) is not None:
            table.show_connection(text)

    def _lost(self) -> None:
        """The connection ended: said once; the table waits, acting on nothing."""
        self._tries = 0
        if self.backend is not None:
            self.backend.online = False
        if self._shown():
            self._table_screen().notify(
                "The connection to the table ended; reconnecting (the prompt shows how it goes).",
                title="Connection",
                severity="warning",
            )
        self._waiting("Connection lost — reconnecting…")

    def _back(self) -> None:
        """Connected again: the table acts again (its next view follows)."""
        self._tries = 0
        if self.backend is not None:
            self.backend.online = True
        if (table := self._up()) is not None:
            table.show_connection("")
            self._table_screen().notify("Back at the table.", title="Connection")

    async def _listen(self, client: TableClient) -> str:
        """Handle the server's messages until the connection ends; returns a
        reason to stop, or ``""`` to reconnect."""
        while True:
            message = await client.receive()
            if message is None:
                return ""
            if isinstance(message, ViewMessage):
                self._view(message)
            elif isinstance(message, EventsMessage):
                self._events(message)
            elif isinstance(message, SeatsMessage):
                self._seats(message.seats)
            elif isinstance(message, UndoAskedMessage):
                self._undo_asked(message)
            elif isinstance(message, ChatMessage) and self.table is not None:
                self._shared().say(Text(f"<{message.sender}> {message.text}", style="magenta"))
            elif isinstance(message, RefusalMessage):
                if message.fatal:
                    return message.reason
                if self.table is not None:
                    self._table_screen().notify(
                        message.reason, title="Not allowed", severity="warning"
                    )

    def _view(self, message: ViewMessage) -> None:
        rules = self.rules
        assert rules is not None, "a view comes after the welcome, which opens its game"
        try:
            view = rules.read_view(message.view)
            offers = [rules.read_offer(o) for o in message.legal]
        except (ValidationError, ValueError) as exc:
            self.stop(f"the table sent a view this dbdeck cannot read: {exc}")
            return
        try:
            tally = rules.read_story(message.tally) if message.tally else None
        except ValueError:
            tally = None  # the counts are a comfort: the summary shows "?" then
        if self.backend is None:
            self.backend = RemoteBackend(rules, Seating(players=self._players()), self)
        self.backend.update(message.version, view, offers, tally)
        if self.table is None:
            # The game's own screen for a seat at a shared table.
            screen = self.table_screen(rules.game_id, self.backend, "shared")
            self.table = screen
            screen.sub_title = self.where()
            self.switch_screen(screen)
            return
        screen = self._table_screen()
        if not screen.is_mounted:
            return
        if isinstance(self.screen, WaitingScreen):
            self.pop_screen()
        screen.sub_title = self.where()
        if self._ask_again:
            self._ask_again = False
            self._shared().ask_again()  # redraws the table too
        else:
            self._shared().refresh_table()

    def _shown(self) -> bool:
        """Whether the table screen is up (made and mounted)."""
        return self._up() is not None

    def _up(self) -> SharedTable | None:
        """The table screen while it is up (made and mounted)."""
        if self.table is None or not self._table_screen().is_mounted:
            return None
        return self._shared()

    def _shared(self) -> SharedTable:
        """The table, as what a joined table asks of its screen."""
        assert self.table is not None
        return cast(SharedTable, self.table)

    def _table_screen(self) -> Screen[None]:
        """The table, as the screen it is."""
        assert self.table is not None
        return cast(Screen[None], self.table)

    def _events(self, message: EventsMessage) -> None:
        lines = []
        for event in message.events:
            kind, text = event.get("kind"), event.get("text")
            if isinstance(kind, str) and isinstance(text, str):
                lines.append(LogLine(kind, text))
        if self.backend is not None:
            self.backend.add_lines(lines)
        if (table := self._up()) is not None:
            table.write_lines(self.backend.events() if self.backend else [])

    def _undo_asked(self, message: UndoAskedMessage) -> None:
        """News of an undo asked: kept by the backend, told in a note, and
        drawn in the table's prompt and key bar."""
        if self.backend is None:
            return
        news = self.backend.undo_news(message)
        self.refresh_bindings()
        if (table := self._up()) is None:
            return
        if news:
            asking = message.open and self.seat not in (None, message.by_seat)
            self._table_screen().notify(
                news, title="Undo asked" if asking else "Undo", timeout=20 if asking else 8
            )
        table.refresh_table()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The keys that answer an undo work (and show) only while one is asked."""
        if action == "answer_undo":
            backend = self.backend
            return backend is not None and bool(backend.undo_keys())
        return super().check_action(action, parameters)

    def action_answer_undo(self, agree: bool) -> None:
        """Agree to the undo another seat asked, or refuse it (withdraw one's own)."""
        if self.backend is None or not self._shown():
            return
        outcome = self.backend.answer_undo(agree)
        if not outcome.accepted:
            self._table_screen().notify(outcome.message, title="Undo", severity="warning")
        elif outcome.message:
            self._table_screen().notify(outcome.message, title="Undo")

    def _seats(self, seats: list[SeatInfo]) -> None:
        before = {s.seat: s for s in self.seats}
        self.seats = seats
        if self.backend is not None:
            self.backend.seating.players = self._players()
            self.backend.seating.away = self._away()
        if self.table is None:
            return
        # The table may be made and not yet shown (seats come with the first
        # view when several terminals join at once): its log waits for it.
        shown = self._up()
        for s in seats:
            was = before.get(s.seat)
            if was is not None and s.user and was.present != s.present and not s.bot:
                names = ", ".join(self.role_name(c) for c in s.characters)
                if s.present:
                    said = f"{s.user} (seat {s.seat}) is back."
                else:
                    plays = f" {names} waits; " if names else " "
                    said = f"{s.user} (seat {s.seat}) left the table:{plays}the seat is held."
                if shown is not None:
                    shown.say(Text(said, style="italic"))
                if s.seat != self.seat:
                    self._table_screen().notify(
                        said, title="Seats", severity="information" if s.present else "warning"
                    )
        if shown is not None:
            shown.refresh_table()

    def _away(self) -> frozenset[str]:
        """The Characters whose player has left the table."""
        return frozenset(
            c for s in self.seats if s.user and not s.present and not s.bot for c in s.characters
        )

    def _players(self) -> dict[str, str]:
        players = {}
        for s in self.seats:
            for c in s.characters:
                players[c] = "the bot" if s.bot else (s.user or f"seat {s.seat}")
        return players
