"""A seat at a shared table, for any game: ``RemoteBackend`` holds the last
view and offers the server sent this seat (read by the game's rules), and
sends actions back through a ``TableLink`` (the connection ``dbdeck join``
keeps); ``WaitingScreen`` and ``ChatDialog`` are the joined table's own
screens. Undo at a shared table is asked of every seat present: the
backend keeps the undo asked (``undo_asked``), words it for this seat
(``undo_prompt``) and names the keys that answer it (``undo_keys``, for
the key bar); ``AGREE_KEY`` and ``REFUSE_KEY`` are the app's, whatever the
game. Each game draws the table itself (the deckbuilding game's
``SharedTableScreen``), in a screen that is a ``SharedTable``. Nothing here
imports a game: an import-linter contract keeps it so.
"""

from __future__ import annotations

from typing import Any, Protocol

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Input, Label, Static

from dbdeck.net.protocol import (
    ActionMessage,
    ChatMessage,
    SeatInfo,
    UndoAnswerMessage,
    UndoAskedMessage,
    UndoMessage,
)
from dbdeck.tabletop.game import GameRules, LogLine
from dbdeck.tui.backend import OneSeatPerScreen, Outcome, Seating
from dbdeck.tui.modal import Dialog

__all__ = [
    "AGREE_KEY",
    "REFUSE_KEY",
    "ChatDialog",
    "RemoteBackend",
    "SharedTable",
    "TableLink",
    "WaitingScreen",
    "undo_words",
]

AGREE_KEY = "Y"
"""Agree to the undo another seat asked: a capital, so that no stray key
agrees (the table's own keys are small letters)."""

REFUSE_KEY = "N"
"""Refuse the undo another seat asked, or withdraw one's own."""

Keys = tuple[tuple[str, str], ...]


def undo_words(asked: UndoAskedMessage) -> str:
    """What an undo asked would take back, in one line."""
    return " ".join(asked.undoes) or "the last action"


def _sentence(text: str) -> str:
    """``text`` ending as a sentence does (log lines mostly have their stop)."""
    return text if text.endswith((".", "!", "?", "…")) else f"{text}."


class TableLink(Protocol):
    """The connection of a joined table, as its screen uses it."""

    host: bool
    """Whether this terminal's user is the table's host."""
    seat: int | None
    """This terminal's seat (``None``: a spectator)."""
    seats: list[SeatInfo]

    def send(self, message: Any) -> None:
        """Send a message to the server."""

    def seats_text(self) -> str:
        """The seats in plain words."""


class SharedTable(Protocol):
    """What the app of a joined table asks of a game's table screen there
    (``SHARED_TABLE_SCREENS``, else ``TABLE_SCREENS``, made on a
    ``RemoteBackend``), besides being a screen."""

    def refresh_table(self) -> None:
        """Draw the backend's view and offers again (a new view came)."""

    def write_lines(self, lines: list[LogLine]) -> None:
        """Add log lines (words from the server) to the table's log."""

    def say(self, text: Text) -> None:
        """Add a line of table talk or a note of the seats to the log."""

    def show_connection(self, state: str) -> None:
        """Show how the connection stands (``""``: it is up again)."""

    def ask_again(self) -> None:
        """Reopen an open decision's dialog (the answer may have been lost
        with the connection), and draw the table again."""


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


class ChatDialog(Dialog[str | None]):
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


class RemoteBackend(OneSeatPerScreen):
    """A seat (or a spectator) at a shared table: the views the server sent,
    and actions sent back to it."""

    shared = True
    hand_rule = "Each terminal of a shared table sees its own hand only."

    def __init__(self, rules: GameRules[Any], seating: Seating, join: TableLink) -> None:
        self.rules = rules
        self.catalog = rules.content
        """The card content the screen's inspector reads."""
        self.seating = seating
        self.join = join
        self.version = 0
        """The server's state version of the last view (actions name it)."""
        self._view: Any = None
        self._offers: list[Any] = []
        self._lines: list[LogLine] = []
        self._tally: object = None
        self.online = True
        """Whether the connection is up: while it is down nothing is offered."""
        self.undo_asked: UndoAskedMessage | None = None
        """The undo waiting for the seats' answers, as the server last
        showed it (``None``: none waits)."""

    def update(self, version: int, view: Any, offers: list[Any], tally: object = None) -> None:
        """A new view from the server (with the game's counts once it is over)."""
        self.version = version
        self._view = view
        self._offers = offers
        if tally is not None:
            self._tally = tally

    def tally(self) -> object:
        """The counts the server sent at the end of the game, if any."""
        return self._tally

    def add_lines(self, lines: list[LogLine]) -> None:
        """Log lines from the server."""
        self._lines += lines

    def view(self) -> Any:
        """The server's last view."""
        assert self._view is not None, "no view from the server yet"
        return self._view

    def legal_actions(self) -> list[Any]:
        """What the server offers this seat now (nothing while disconnected)."""
        return list(self._offers) if self.online else []

    def send(self, action: object) -> Outcome:
        """Send the action; the server's view (or refusal) follows."""
        if not self.online:
            return Outcome(False, "Not connected to the table: wait until it is back.")
        if not self._offers:
            return Outcome(False, "It is not your turn to act.")
        data = self.rules.action_json(action)
        self.join.send(ActionMessage(type="action", version=self.version, action=data))
        return Outcome(True)

    def chat(self, text: str) -> None:
        """Say something to the table (a game's screen need not know the wire)."""
        if text:
            self.join.send(ChatMessage(type="chat", text=text))

    def seats_text(self) -> str:
        """Who sits where, in words."""
        return self.join.seats_text()

    def undo(self) -> Outcome:
        """Ask the table to undo the last action: every seat present must
        agree (a seat alone at the table undoes at once)."""
        if not self.online:
            return Outcome(False, "Not connected to the table: wait until it is back.")
        if self.join.seat is None:
            return Outcome(False, "Spectators have no say in an undo.")
        asked = self.undo_asked
        if asked is not None:
            if asked.by_seat == self.join.seat:
                return Outcome(
                    False, f"Your undo waits for {_names(asked)}; {REFUSE_KEY} withdraws it."
                )
            return Outcome(
                False,
                f"{asked.by} asked to undo already: {AGREE_KEY} agrees, {REFUSE_KEY} refuses.",
            )
        self.join.send(UndoMessage(type="undo", version=self.version))
        return Outcome(True, "Asking the table to undo the last action…")

    def answer_undo(self, agree: bool) -> Outcome:
        """Agree to the undo asked, or refuse it (withdraw it, for the seat
        that asked)."""
        asked = self.undo_asked
        if asked is None:
            return Outcome(False, "No undo is asked now.")
        if not self.online:
            return Outcome(False, "Not connected to the table: wait until it is back.")
        if self.join.seat is None:
            return Outcome(False, "Spectators have no say in an undo.")
        mine = asked.by_seat == self.join.seat
        if agree and (mine or self.join.seat in asked.agreed):
            return Outcome(False, f"You agreed already; it waits for {_names(asked)}.")
        self.join.send(UndoAnswerMessage(type="undo-answer", request=asked.request, agree=agree))
        if agree:
            return Outcome(True, "You agree to the undo.")
        return Outcome(True, "You withdrew your undo." if mine else "You refused the undo.")

    def undo_prompt(self) -> Text | None:
        """The undo asked, in words for this seat (``None``: none waits)."""
        asked = self.undo_asked
        if asked is None:
            return None
        seat = self.join.seat
        what = undo_words(asked)
        text = Text()
        if seat == asked.by_seat:
            text.append("Your undo waits for ", style="bold")
            text.append(_names(asked))
            text.append(f" ({REFUSE_KEY} withdraws it): ", style="bold")
        elif seat is not None and seat not in asked.agreed:
            text.append(asked.by)
            text.append(f" asks to undo ({AGREE_KEY} agrees, {REFUSE_KEY} refuses): ", style="bold")
        else:
            text.append(asked.by)
            text.append(" asks to undo, waiting for ", style="bold")
            text.append(_names(asked))
            text.append(": ", style="bold")
        text.append(what)
        return text

    def undo_keys(self) -> Keys:
        """The keys that answer the undo asked, for this seat's key bar."""
        asked = self.undo_asked
        seat = self.join.seat
        if asked is None or seat is None:
            return ()
        if seat == asked.by_seat:
            return ((REFUSE_KEY, "Withdraw undo"),)
        if seat in asked.agreed:
            return ((REFUSE_KEY, "Refuse undo"),)
        return ((AGREE_KEY, "Agree to undo"), (REFUSE_KEY, "Refuse undo"))

    def undo_news(self, asked: UndoAskedMessage) -> str:
        """Take the server's news of an undo asked; what to tell this seat
        about it (``""``: nothing new to say)."""
        before = self.undo_asked
        self.undo_asked = asked if asked.open else None
        seat = self.join.seat
        if not asked.open:
            if asked.ended == "undone":
                return ""  # the log says it, and the view shows it
            return f"The undo {asked.by} asked is {asked.ended}."
        if before is not None and before.request == asked.request:
            return ""  # a seat agreed: the prompt shows who is still awaited
        if seat is not None and seat != asked.by_seat:
            return (
                f"{asked.by} asks to undo: {_sentence(undo_words(asked))} "
                f"{AGREE_KEY} (Shift+{AGREE_KEY.lower()}) agrees, {REFUSE_KEY} refuses."
            )
        if seat == asked.by_seat:
            return f"Undo asked: waiting for {_names(asked)} to agree."
        return f"{asked.by} asks to undo: {_sentence(undo_words(asked))}"

    def events(self) -> list[LogLine]:
        """The log lines not yet drawn."""
        lines, self._lines = self._lines, []
        return lines


def _names(asked: UndoAskedMessage) -> str:
    """The seats an undo asked waits for, in words."""
    return ", ".join(asked.waiting_for) or "the other seats"
