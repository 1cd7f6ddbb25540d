"""The toy's table: one screen for every backend (a game on this machine,
a seat at a shared table, a replay). It draws the view the backend gives,
lists the offers, and sends the one chosen; like every table, it holds no
rule. Text from the view (the players' names) is drawn as plain ``Text``.
``u`` undoes (at a shared table: asks every seat), and the board says what
an undo asked waits for.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from dbdeck.tabletop.game import LogLine
from dbdeck.tui.backend import TableBackend
from dbdeck.tui.joined import RemoteBackend
from dbdeck.tui.local import ReplayBackend
from toy_game.match import ToyOffer, ToyView

__all__ = ["ToyTable"]


class ToyTable(Screen[None]):
    """The toy's table: the board, the offers, and the log."""

    DEFAULT_CSS = """
    ToyTable #toy-board { height: auto; padding: 0 1; }
    ToyTable #toy-offers { height: auto; max-height: 8; }
    ToyTable #toy-log { height: 1fr; }
    """

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("q", "app.quit", "Quit"),
        Binding("u", "undo", "Undo"),
        Binding("right,n", "step(1)", "Next turn", show=False),
        Binding("left,b", "step(-1)", "Previous turn", show=False),
    ]

    def __init__(self, backend: TableBackend[ToyView, ToyOffer]) -> None:
        super().__init__()
        self.backend = backend
        self.offers: list[ToyOffer] = []
        """The offers listed now, in order."""
        self.connection = ""
        """How the connection stands while it is down (a shared table)."""
        self.lines: list[str] = []
        """Every log line written, in order (what the tests read)."""
        self.drawn = False
        """Whether the screen's widgets are there to draw on."""

    def compose(self) -> ComposeResult:
        yield Static(id="toy-board")
        yield OptionList(id="toy-offers")
        yield RichLog(id="toy-log", wrap=True, markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.drawn = True
        self.refresh_table()
        self.query_one(OptionList).focus()

    @property
    def view(self) -> ToyView:
        """The view drawn now."""
        return self.backend.view()

    def board_text(self) -> Text:
        """The table in words: each hand (its cards, or how many), the
        scores, the deck and whose turn it is."""
        view = self.view
        text = Text()
        for hand in view.hands:
            cards = (
                " ".join(str(c) for c in hand.cards) if hand.cards is not None else "?" * hand.count
            )
            turn = " ◀" if hand.role == view.active else ""
            text.append(f"{hand.name}{turn}", style="bold")
            text.append(f"  hand: {cards or '-'}  score: {hand.score}\n")
        text.append(f"Deck: {view.deck} cards · turn {view.turn}")
        if view.winner:
            text.append(f"\nOver: {view.winner} wins, {view.reason}.", style="bold")
        if self.connection:
            text.append(f"\n{self.connection}", style="bold")
        asked = self.backend.undo_prompt() if isinstance(self.backend, RemoteBackend) else None
        if asked is not None:
            text.append("\n")
            text.append_text(asked)
        return text

    def refresh_table(self) -> None:
        """Draw the backend's view and offers again, and its new log lines."""
        if not self.drawn:
            return
        self.query_one("#toy-board", Static).update(self.board_text())
        self.offers = list(self.backend.legal_actions())
        options = self.query_one(OptionList)
        options.clear_options()
        options.add_options([Option(Text(offer.label)) for offer in self.offers])
        self.write_lines(self.backend.events())

    def write_lines(self, lines: Iterable[LogLine]) -> None:
        """Add log lines to the log."""
        for line in lines:
            self.say(Text(line.text))

    def say(self, text: Text) -> None:
        """Add a line to the log."""
        self.lines.append(text.plain)
        if self.drawn:
            self.query_one(RichLog).write(text)

    def show_connection(self, state: str) -> None:
        """Show how the connection stands (``""``: it is up again)."""
        self.connection = state
        self.refresh_table()

    def ask_again(self) -> None:
        """The toy asks nothing in a dialog: draw the table again."""
        self.refresh_table()

    def take(self, offer: ToyOffer) -> bool:
        """Send an offer's action; a refusal is shown with its reason."""
        outcome = self.backend.send(offer.action)
        if not outcome.accepted:
            self.notify(outcome.message, title="Not allowed", severity="warning")
        self.refresh_table()
        return outcome.accepted

    @on(OptionList.OptionSelected, "#toy-offers")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        if 0 <= event.option_index < len(self.offers):
            self.take(self.offers[event.option_index])

    def action_undo(self) -> None:
        """Undo the last action (at a shared table: ask every seat)."""
        outcome = self.backend.undo()
        self.notify(
            outcome.message, title="Undo", severity="information" if outcome.accepted else "warning"
        )
        self.refresh_table()

    def action_step(self, delta: int) -> None:
        """A replay: one turn forward or back (another table has no turns
        to step through)."""
        replay = self.backend
        if not isinstance(replay, ReplayBackend):
            return
        replay.go(replay.index + delta)
        self.query_one(RichLog).clear()
        self.refresh_table()
