"""The table in one terminal of a shared table: ``dbdeck join``.

The same table screen as a local game, behind a ``RemoteBackend``: it draws
the ``TableView`` the server sent this seat, offers the server's offers,
and sends actions back; the server answers with a new view (or a refusal,
shown with its reason). A dropped connection is retried; the seat is held by
the server meanwhile.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from rich.text import Text

from dbdeck.cards.catalog import Catalog
from dbdeck.engine.table_view import LogLine, Offer, TableView
from dbdeck.net.client import JoinRefused, TableClient
from dbdeck.net.protocol import (
    ChatMessage,
    EventsMessage,
    RefusalMessage,
    SeatInfo,
    SeatsMessage,
    ViewMessage,
    WelcomeMessage,
)
from dbdeck.net.tables import read_seat_token, store_seat_token
from dbdeck.tui.app import DbdeckApp
from dbdeck.tui.backend import Seating
from dbdeck.tui.shared import RemoteBackend, SharedTableScreen, WaitingScreen

__all__ = ["JoinApp", "RemoteBackend", "SharedTableScreen"]

RETRY_SECONDS = 1.0


class JoinApp(DbdeckApp):
    """dbdeck connected to a shared table."""

    def __init__(
        self,
        catalog: Catalog,
        *,
        socket_path: Path | None = None,
        tcp: tuple[str, int] | None = None,
        seat: int | None = None,
        spectate: bool = False,
        join_token: str | None = None,
        user: str | None = None,
    ) -> None:
        super().__init__(catalog, start=WaitingScreen("Connecting to the table…"))
        self.socket_path = socket_path
        self.tcp = tcp
        self.wanted_seat = seat
        self.spectate = spectate
        self.join_token = join_token
        self.user = user
        self.client: TableClient | None = None
        self.seat: int | None = None
        self.host = False
        self.table_name = ""
        self.seats: list[SeatInfo] = []
        self.table: SharedTableScreen | None = None
        self.backend: RemoteBackend | None = None
        self.failure = ""
        """Why the app stopped, when it stopped on its own."""

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
            names = ", ".join(self.catalog[c].name for c in s.characters) or "-"
            seat = "bot" if s.bot else f"seat {s.seat}"
            you = "  ← you" if s.seat == self.seat and not s.bot else ""
            lines.append(f"{seat}: {who}{state} — {names}{you}")
        return "\n".join(lines)

    def on_mount(self) -> None:
        super().on_mount()
        self.run_worker(self._run(), exclusive=True, name="connection")

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
        self._waiting(why)
        await asyncio.sleep(RETRY_SECONDS)

    async def _run(self) -> None:
        connected_once = False
        while True:
            try:
                client = await TableClient.connect(socket_path=self.socket_path, tcp=self.tcp)
            except OSError as exc:
                if not connected_once:
                    self.stop(f"cannot reach the table: {exc}")
                    return
                await self._retry(f"Connection lost — reconnecting… ({exc.strerror or exc})")
                continue
            try:
                welcome = await client.hello(**self._hello())
            except JoinRefused as exc:
                await client.close()
                if not connected_once:
                    self.stop(f"the table refused: {exc}")
                    return
                await self._retry(f"Reconnecting… ({exc})")
                continue
            connected_once = True
            self.client = client
            self._welcomed(welcome)
            reason = await self._listen(client)
            self.client = None
            await client.close()
            if reason:
                self.stop(reason)
                return
            self._waiting("Connection lost — reconnecting…")
            await asyncio.sleep(RETRY_SECONDS)

    def _hello(self) -> dict[str, Any]:
        key = self._token_key()
        held_seat, token = read_seat_token(key)
        seat = self.wanted_seat if self.wanted_seat is not None else held_seat
        if seat is not None and held_seat is not None and seat != held_seat:
            token = None
        return {
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

    def _welcomed(self, welcome: WelcomeMessage) -> None:
        self.seat = welcome.seat
        self.wanted_seat = welcome.seat
        self.host = welcome.host
        self.table_name = welcome.table
        if welcome.seat is not None and welcome.seat_token:
            store_seat_token(self._token_key(), welcome.seat, welcome.seat_token)

    def _waiting(self, text: str) -> None:
        if isinstance(self.screen, WaitingScreen):
            self.screen.say(text)
        elif self.table is not None:
            self.table.notify(text, title="Connection", severity="warning", timeout=5)

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
            elif isinstance(message, ChatMessage) and self.table is not None:
                self.table.say(Text(f"<{message.sender}> {message.text}", style="magenta"))
            elif isinstance(message, RefusalMessage):
                if message.fatal:
                    return message.reason
                if self.table is not None:
                    self.table.notify(message.reason, title="Not allowed", severity="warning")

    def _view(self, message: ViewMessage) -> None:
        try:
            view = TableView.from_json(message.view)
            offers = [Offer.from_json(o) for o in message.legal]
        except (ValidationError, ValueError) as exc:
            self.stop(f"the table sent a view this dbdeck cannot read: {exc}")
            return
        if self.backend is None:
            self.backend = RemoteBackend(self.catalog, Seating(players=self._players()), self)
        self.backend.update(message.version, view, offers)
        if self.table is None:
            self.table = SharedTableScreen(self.backend)
            self.table.sub_title = self.where()
            self.switch_screen(self.table)
            return
        if not self.table.is_mounted:
            return
        if isinstance(self.screen, WaitingScreen):
            self.pop_screen()
        self.table.sub_title = self.where()
        self.table.refresh_table()

    def _events(self, message: EventsMessage) -> None:
        lines = []
        for event in message.events:
            kind, text = event.get("kind"), event.get("text")
            if isinstance(kind, str) and isinstance(text, str):
                lines.append(LogLine(kind, text))
        if self.backend is not None:
            self.backend.add_lines(lines)
        if self.table is not None and self.table.is_mounted:
            self.table.write_lines(self.backend.events() if self.backend else [])

    def _seats(self, seats: list[SeatInfo]) -> None:
        before = {s.seat: s for s in self.seats}
        self.seats = seats
        if self.backend is not None:
            self.backend.seating.players = self._players()
        if self.table is None:
            return
        for s in seats:
            was = before.get(s.seat)
            if was is not None and s.user and was.present != s.present and not s.bot:
                state = "joined" if s.present else "is away"
                self.table.say(Text(f"{s.user} (seat {s.seat}) {state}.", style="italic"))
        if self.table.is_mounted:
            self.table.refresh_table()

    def _players(self) -> dict[str, str]:
        players = {}
        for s in self.seats:
            for c in s.characters:
                players[c] = "the bot" if s.bot else (s.user or f"seat {s.seat}")
        return players
