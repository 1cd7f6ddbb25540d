"""The table of one seat at a shared table, drawn like any other:
``SharedTableScreen`` is the deckbuilding table screen with table talk, the
seats and the host's keys, over the shared ``RemoteBackend``
(``dbdeck.tui.joined``). Its ``u`` asks every seat present to undo the last
action; while an undo is asked, the prompt says so and the key bar starts
with the keys that answer it."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding

from dbdeck.games.deckbuilding.engine.panels import TableView
from dbdeck.games.deckbuilding.tui.dialogs import DecisionDialog
from dbdeck.games.deckbuilding.tui.play import TableScreen
from dbdeck.games.deckbuilding.tui.play.keys import Keys
from dbdeck.net.protocol import BOT, ChatMessage, HostMessage, SeatInfo
from dbdeck.tui.joined import ChatDialog, RemoteBackend

__all__ = ["SharedTableScreen", "shared_keys"]


class SharedTableScreen(TableScreen):
    """The table of one seat (or a spectator) at a shared table: the same
    screen as a local game, plus table talk, the seats, and the host's keys."""

    BINDINGS = [
        *TableScreen.BINDINGS,
        Binding("m", "chat", "Chat"),
        Binding("w", "seats", "Seats"),
        Binding("H", "host", "Host", show=False),
    ]

    def __init__(self, backend: RemoteBackend) -> None:
        super().__init__(backend)
        self.remote = backend
        self.KEYS = shared_keys(self.KEYS, spectator=backend.join.seat is None)
        self._energy_after = -1
        """``p`` at a shared table: the server's version after which the next
        Energy card is played (each play waits for the view it brings; -1:
        none waits)."""
        self.connection = ""
        """How the connection stands while it is down (``""`` when up): shown
        in the prompt, the one place the table says it."""

    def action_play_energy(self) -> None:
        """Play every Energy card of the hand, as at any table: one now, and
        each next one once the server's view of the last arrives."""
        before = self.remote.version
        super().action_play_energy()  # plays one at a shared table
        self._energy_after = before if self._of_kind("play-energy") else -1

    def refresh_table(self) -> None:
        """Draw the server's view; go on playing Energy when ``p`` asked for all."""
        super().refresh_table()
        if self._energy_after < 0 or self.remote.version == self._energy_after:
            return  # no run of Energy, or the last play's view is not here yet
        offers = self._of_kind("play-energy")
        if not offers or self.app.screen is not self:
            self._energy_after = -1
            return
        self._energy_after = self.remote.version
        if not self.play(offers[0].action).accepted:
            self._energy_after = -1

    def show_connection(self, state: str) -> None:
        """Show how the connection stands (``""``: it is up again)."""
        if state == self.connection:
            return
        self.connection = state
        self.refresh_table()

    def status_text(self, view: TableView) -> Text:
        """The prompt: the connection's state while it is down, the undo
        asked while one waits, else as at any table."""
        if self.connection:
            return Text(self.connection, style="bold")
        asked = self.remote.undo_prompt()
        if asked is not None:
            return asked
        return super().status_text(view)

    def keys_now(self, passing: bool) -> Keys:
        """The table's keys now; a seat always has its undo, and the keys
        that answer an undo asked come first."""
        bar = super().keys_now(passing)
        if self.remote.join.seat is not None and bar and ("u", "Undo") not in bar:
            keys = [key for key, _ in bar]
            at = keys.index("q") if "q" in keys else len(bar) - 1
            bar = (*bar[:at], ("u", "Undo"), *bar[at:])
        return (*self.remote.undo_keys(), *bar)

    def action_chat(self) -> None:
        """Say something to the table."""

        def send(text: str | None) -> None:
            if text:
                self.remote.join.send(ChatMessage(type="chat", text=text))

        self.app.push_screen(ChatDialog(), send)

    def action_seats(self) -> None:
        """Who sits where."""
        self.notify(self.remote.join.seats_text(), title="Seats", timeout=10)

    def action_host(self) -> None:
        """The host hands a Character to a seat or the bot, or changes how the
        players' decisions are taken."""
        join = self.remote.join
        if not join.host:
            self.notify("Only the host may change the table.", severity="warning")
            return
        choices: list[HostMessage] = []
        labels: list[str] = []
        seats = [s for s in join.seats if s.seat != BOT]
        for ch in self.view.characters:
            for seat in seats:
                choices.append(HostMessage(type="host", character=ch.id, to_seat=seat.seat))
                labels.append(f"{ch.name} → seat {seat.seat} ({_seat_words(seat)})")
            choices.append(HostMessage(type="host", character=ch.id, to_seat=None))
            labels.append(f"{ch.name} → the bot")
        for mode in ("first", "vote"):
            choices.append(HostMessage(type="host", decide=mode))
            labels.append(
                "Players' decisions: the first answer decides"
                if mode == "first"
                else "Players' decisions: every seat votes"
            )

        def chosen(index: int | None) -> None:
            if index is not None:
                join.send(choices[index])

        away = [f"{s.user} (seat {s.seat})" for s in seats if s.user and not s.present]
        prompt = "Change the table:"
        if away:
            prompt = f"Away: {', '.join(away)}. Change the table:"
        self.app.push_screen(DecisionDialog("Host", prompt, labels, cancellable=True), chosen)


SPECTATOR_KEYS = frozenset({"Tab", "i", "r", "c", "q", "^p"})
"""The table's keys that work for a spectator (who never acts)."""


def shared_keys(keys: Keys, *, spectator: bool) -> Keys:
    """The key bar of a shared table: the table's keys that work there
    (undo asks every seat; no coach; a spectator's only look), with table
    talk and the seats."""
    kept = tuple(
        (key, what) for key, what in keys if key != "g" and (not spectator or key in SPECTATOR_KEYS)
    )
    return (*kept[:-2], ("m", "Chat"), ("w", "Seats"), *kept[-2:])


def _seat_words(seat: SeatInfo) -> str:
    """Who holds a seat, in words: ``bob``, ``bob, away`` or ``free``."""
    if not seat.user:
        return "free"
    return seat.user if seat.present else f"{seat.user}, away"
