"""The CCG table of one seat at a shared table: the same screen as a local
game, plus table talk and the seats, over the shared ``RemoteBackend``
(which the screen knows only by the few calls it makes). Its ``u`` asks
every seat present to undo the last action (the players agree on a
correction, rules note T8); while an undo is asked, the prompt says so and
the key bar starts with the keys that answer it."""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from rich.text import Text
from textual.binding import Binding, BindingType

from dbdeck.games.ccg.tui import keys
from dbdeck.games.ccg.tui.dialogs import TextDialog
from dbdeck.games.ccg.tui.screen import CcgTableScreen
from dbdeck.tabletop.game import LogLine

__all__ = ["CcgSharedScreen"]


class Talking(Protocol):
    """What this screen asks of a shared table's backend, besides a table's."""

    def chat(self, text: str) -> None:
        """Say something to the table."""

    def seats_text(self) -> str:
        """Who sits where."""

    def undo_prompt(self) -> Text | None:
        """The undo asked, in words for this seat (``None``: none waits)."""

    def undo_keys(self) -> keys.Keys:
        """The keys that answer the undo asked."""


class CcgSharedScreen(CcgTableScreen):
    """A seat (or a spectator) at a shared CCG table."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *CcgTableScreen.BINDINGS,
        Binding("T", "chat", "Talk"),
        Binding("W", "seats", "Seats"),
    ]

    def __init__(self, backend: Any) -> None:
        super().__init__(backend)
        self.connection = ""
        """How the connection stands while it is down (``""`` when up)."""

    def keys_now(self) -> keys.Keys:
        """The keys that answer an undo asked, the table's keys (a seat's
        undo among them), then talk and the seats."""
        bar = super().keys_now()
        if not bar:
            return bar
        talk: Talking = self.backend  # type: ignore[assignment]
        extra: keys.Keys = (("T", "Talk"), ("W", "Seats"))
        if self.view.viewer is not None and ("u", "Undo") not in bar:
            extra = (("u", "Undo"), *extra)
        return (*talk.undo_keys(), *bar[:-1], *extra, bar[-1])

    def write_lines(self, lines: list[LogLine]) -> None:
        """Words from the server: the last is the line under the prompt (the
        view's own log holds the game's story)."""
        if lines:
            self.outcome = Text(lines[-1].text)
            self.refresh_table()

    def say(self, text: Text) -> None:
        """Table talk or news of the seats."""
        self.outcome = Text(text.plain)
        self.notify(text.plain, title="Table", timeout=8)
        self.refresh_table()

    def show_connection(self, state: str) -> None:
        """Show how the connection stands (``""``: it is up again)."""
        if state == self.connection:
            return
        self.connection = state
        self.refresh_table()

    def ask_again(self) -> None:
        """Draw the table again (nothing of this game waits in a dialog)."""
        self.refresh_table()

    def _prompt(self) -> Text:
        if self.connection:
            return Text(self.connection, style="bold")
        talk: Talking = self.backend  # type: ignore[assignment]
        asked = talk.undo_prompt()
        if asked is not None:
            return asked
        return super()._prompt()

    def action_chat(self) -> None:
        """Say something to the table."""
        talk: Talking = self.backend  # type: ignore[assignment]

        def send(text: str | None) -> None:
            if text:
                talk.chat(text[:200])

        self.app.push_screen(TextDialog("Talk to the table", "What do you say?"), send)

    def action_seats(self) -> None:
        """Who sits where."""
        talk: Talking = self.backend  # type: ignore[assignment]
        self.notify(talk.seats_text(), title="Seats", timeout=10)
