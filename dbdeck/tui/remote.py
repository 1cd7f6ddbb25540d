"""The table in one terminal of a shared table: ``dbdeck join``.

The same table screen as a local game, drawn from the views the server
sends. Actions go to the server, which answers with a new view (or a
refusal, shown with its reason). A dropped connection is retried; the seat
is held by the server meanwhile.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Label, RichLog, Static

from dbdeck.cards.catalog import Catalog
from dbdeck.engine.actions import Action
from dbdeck.engine.events import Event
from dbdeck.net.client import JoinRefused, TableClient
from dbdeck.net.protocol import (
    ActionMessage,
    ChatMessage,
    EventsMessage,
    HostMessage,
    RefusalMessage,
    SeatInfo,
    SeatsMessage,
    ViewMessage,
    WelcomeMessage,
)
from dbdeck.net.server import BOT
from dbdeck.net.tables import read_seat_token, store_seat_token
from dbdeck.net.views import ShadowGame
from dbdeck.tui.app import DbdeckApp
from dbdeck.tui.dialogs import DecisionDialog
from dbdeck.tui.table import Seating, TableScreen
from dbdeck.tui.widgets import HandPanel

__all__ = ["JoinApp", "RemoteTableScreen"]

RETRY_SECONDS = 1.0


class WaitingScreen(Screen[None]):
    """Shown while connecting (or reconnecting)."""

    BINDINGS = [Binding("q", "app.quit", "Quit")]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="menu"):
            yield Static(Text(self.text), id="waiting")

    def say(self, text: str) -> None:
        """Change the message."""
        self.query_one("#waiting", Static).update(Text(text))


class ChatDialog(ModalScreen[str | None]):
    """One line of table talk."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text("Say to the table", style="bold"))
            yield Input(placeholder="message (Enter sends, Escape cancels)", max_length=500)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class RemoteTableScreen(TableScreen):
    """The table of one seat (or a spectator) at a shared table."""

    BINDINGS = [
        *TableScreen.BINDINGS,
        Binding("m", "chat", "Chat"),
        Binding("w", "seats", "Seats"),
        Binding("H", "host", "Host", show=False),
    ]

    def __init__(self, game: ShadowGame, seating: Seating, join: JoinApp) -> None:
        seating.pace = 0.0
        super().__init__(game, seating)
        self.join = join
        self.version = 0
        self.decision_version = -1

    @property
    def shadow(self) -> ShadowGame:
        """The table as the server last showed it."""
        assert isinstance(self.game, ShadowGame)
        return self.game

    def own(self) -> tuple[str, ...]:
        """The Characters this terminal plays."""
        return tuple(
            c for seat in self.join.seats if seat.seat == self.join.seat for c in seat.characters
        )

    def update_view(self, game: ShadowGame, message: ViewMessage) -> None:
        """A new view from the server: redraw, and close a decision someone
        else already answered."""
        self.game = game
        self.version = message.version
        self.sub_title = self.join.where()
        self.query_one(HandPanel).own = self.own()
        if isinstance(self.app.screen, DecisionDialog) and (
            game.state.pending is None or not game.offered
        ):
            self.app.pop_screen()
            self.decision_version = -1
        self.refresh_table()

    # --- acting goes to the server ------------------------------------------------------------

    def play(self, action: Action) -> bool:
        """Send the action; the server's view (or refusal) follows."""
        self.join.send(ActionMessage(type="action", version=self.version, action=action.to_json()))
        return True

    def action_play_energy(self) -> None:
        actions = [a for a in self.legal if a.type == "play-energy"]
        if not actions:
            self.notify("No Energy card to play.", severity="warning")
            return
        # One card per round trip: the next view offers the next one.
        self.play(actions[0])

    def action_undo(self) -> None:
        self.notify(
            "Undo is not available at a shared table: every seat would have to agree.",
            title="Undo",
            severity="warning",
        )

    def _open_decision(self) -> None:
        if not self.shadow.offered or self.decision_version == self.version:
            return
        if isinstance(self.app.screen, DecisionDialog):
            return
        self.decision_version = self.version
        super()._open_decision()

    def _fill_actions(self) -> None:
        super()._fill_actions()
        game = self.game
        if game.over or self.shadow.offered:
            return
        actor = game.actor()
        prompt = self.query_one("#prompt", Static)
        if actor is None:
            prompt.update("")
        elif actor == "players":
            prompt.update(Text("The players decide…", style="italic"))
        else:
            who = self.seating.player(actor)
            prompt.update(Text(f"Waiting for {who} — {game.name('c:' + actor)}", style="italic"))

    def _hot_seat(self) -> None:
        active = self.game.state.active
        if active == self.last_seat_character:
            return
        self.last_seat_character = active
        if active in self.own():
            self.notify(f"Your turn: {self.game.name('c:' + active)}", title="Your turn")

    # --- the shared table ---------------------------------------------------------------------

    def write_remote(self, events: list[dict[str, Any]]) -> None:
        """Events from the server, into the log."""
        self.write_events(Event(e["type"], e["text"], e.get("data", {})) for e in events)

    def say(self, text: Text) -> None:
        """A line in the log (chat, comings and goings)."""
        self.query_one("#log", RichLog).write(text)

    def action_chat(self) -> None:
        def send(text: str | None) -> None:
            if text:
                self.join.send(ChatMessage(type="chat", text=text))

        self.app.push_screen(ChatDialog(), send)

    def action_seats(self) -> None:
        self.notify(self.join.seats_text(), title="Seats", timeout=10)

    def action_host(self) -> None:
        """The host hands a Character to a seat or the bot, or changes how the
        players' decisions are taken."""
        if not self.join.host:
            self.notify("Only the host may change the table.", severity="warning")
            return
        game = self.game
        choices: list[HostMessage] = []
        labels: list[str] = []
        seats = [s for s in self.join.seats if s.seat != BOT]
        for ch in game.state.characters:
            for seat in seats:
                choices.append(HostMessage(type="host", character=ch.id, to_seat=seat.seat))
                labels.append(
                    f"{game.name('c:' + ch.id)} → seat {seat.seat} ({seat.user or 'free'})"
                )
            choices.append(HostMessage(type="host", character=ch.id, to_seat=None))
            labels.append(f"{game.name('c:' + ch.id)} → the bot")
        for mode in ("first", "vote"):
            choices.append(HostMessage(type="host", decide=mode))
            labels.append(
                "Players' decisions: the first answer decides"
                if mode == "first"
                else "Players' decisions: every seat votes"
            )

        def chosen(index: int | None) -> None:
            if index is not None:
                self.join.send(choices[index])

        self.app.push_screen(
            DecisionDialog("Host", "Change the table:", labels, cancellable=True), chosen
        )


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
        self.table: RemoteTableScreen | None = None
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
            elif isinstance(message, EventsMessage) and self.table is not None:
                self.table.write_remote(message.events)
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
        game = ShadowGame.from_view(self.catalog, message.view, message.legal)
        if self.table is None:
            self.table = RemoteTableScreen(game, Seating(players=self._players()), self)
            self.table.version = message.version
            self.switch_screen(self.table)
            self.call_after_refresh(lambda: self._first_draw(message))
            return
        if not self.table.is_mounted:
            return
        if isinstance(self.screen, WaitingScreen):
            self.pop_screen()
        self.table.update_view(game, message)

    def _first_draw(self, message: ViewMessage) -> None:
        assert self.table is not None
        self.table.update_view(self.table.shadow, message)

    def _seats(self, seats: list[SeatInfo]) -> None:
        before = {s.seat: s for s in self.seats}
        self.seats = seats
        if self.table is None:
            return
        self.table.seating.players = self._players()
        for s in seats:
            was = before.get(s.seat)
            if was is not None and s.user and was.present != s.present and not s.bot:
                state = "joined" if s.present else "is away"
                self.table.say(Text(f"{s.user} (seat {s.seat}) {state}.", style="italic"))
        if self.table.is_mounted:
            self.table.query_one(HandPanel).own = self.table.own()
            self.table.refresh_table()

    def _players(self) -> dict[str, str]:
        players = {}
        for s in self.seats:
            for c in s.characters:
                players[c] = "the bot" if s.bot else (s.user or f"seat {s.seat}")
        return players
