"""The end of a game: who won and why, the rounds played, and each
Character's part (damage dealt and taken, cards bought); then a new game,
the replay, the main menu or quit."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from dbdeck.games.deckbuilding.engine.panels import TableView
from dbdeck.games.deckbuilding.engine.tally import Tally
from dbdeck.games.deckbuilding.engine.words import agree
from dbdeck.games.deckbuilding.tui.dialogs import HelpedDialog
from dbdeck.games.deckbuilding.tui.widgets.choices import ChoiceList
from dbdeck.tui.backend import Seating

__all__ = ["CHOICES", "SummaryScreen"]

CHOICES = (
    ("new", "New game"),
    ("replay", "Watch the replay"),
    ("menu", "Main menu"),
    ("table", "Back to the table"),
    ("quit", "Quit"),
)
"""What the summary offers, in order."""

HEADINGS = ("Character", "Player", "Health", "Damage\ndealt", "Damage\ntaken", "Cards\nbought")
"""The summary table's headings: the figures' on two lines, so that each is
hardly wider than its numbers."""


class SummaryScreen(HelpedDialog[str | None]):
    """The game's summary; it closes with the player's choice of what next."""

    BINDINGS = [
        Binding("escape", "choose('table')", "Back to the table"),
        Binding("n", "choose('new')", "New game"),
        Binding("q", "choose('quit')", "Quit"),
    ]

    def __init__(self, view: TableView, tally: object, seating: Seating) -> None:
        """``tally``: the game's story as a backend keeps it: the engine's
        ``Tally``, or a story holding one (``.tally``), or ``None``."""
        super().__init__()
        self.view = view
        self.tally = _tally_of(tally)
        self.seating = seating

    def headline(self) -> str:
        """Who won, and why."""
        view = self.view
        winner = (
            "The Characters win!"
            if view.winner == "players"
            else f"{agree(view.villain.name, 'wins', 'win')}."
        )
        reason = view.reason[:1].upper() + view.reason[1:]
        return f"{winner} {reason}".strip()

    def compose(self) -> ComposeResult:
        view = self.view
        with Vertical(classes="dialog wide", id="summary"):
            yield Label(Text("Game over", style="bold"))
            yield Static(Text(self.headline(), style="bold"))
            rounds = view.turn_order.round
            played = f"{rounds} round{'s' if rounds != 1 else ''} played"
            if self.tally is not None and self.tally.turns:
                played += f", {self.tally.turns} turns"
            yield Static(Text(f"{view.title}: {played}."))  # the title names players
            yield Static(self._table())
            # An app may offer fewer ways on (a seat at the SSH door: no menu).
            offered = getattr(self.app, "after_game_choices", None) or [k for k, _ in CHOICES]
            choices = [Option(label, id=key) for key, label in CHOICES if key in offered]
            yield ChoiceList(*choices, id="next")
            yield Static(Text("Down, then Enter", style="dim"), classes="keys")

    def _table(self) -> Table:
        # Two-line headings as narrow as their figures, and no cell that
        # wraps: every figure stays under its heading at 80 columns.
        table = Table(expand=False, box=None, padding=(0, 1), pad_edge=False)
        for heading in HEADINGS:
            named = heading in ("Character", "Player")
            table.add_column(heading, justify="left" if named else "right", no_wrap=True)
        for ch in self.view.characters:
            counted = self.tally.characters.get(ch.id) if self.tally is not None else None
            health = "defeated" if ch.defeated else f"{ch.health.remaining}/{ch.health.maximum}"
            table.add_row(
                Text(ch.name),
                Text(self.seating.players.get(ch.id, "")),
                health,
                str(counted.dealt) if counted is not None else "?",
                str(counted.taken) if counted is not None else "?",
                str(counted.bought) if counted is not None else "?",
            )
        if self.tally is None:
            table.caption = "(damage and purchases are counted at the table that holds the game)"
        v = self.view.villain
        if v.health is not None:
            dealt = str(self.tally.villain_dealt) if self.tally is not None else ""
            table.add_row(
                Text(v.name), "", f"{v.health.remaining}/{v.health.maximum}", dealt, "", ""
            )
        return table

    def on_mount(self) -> None:
        # The summary comes unasked: an Enter meant for the last action must
        # not pass it unread (a ChoiceList opens with nothing highlighted).
        self.query_one(ChoiceList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_choose(self, choice: str) -> None:
        """Close with a choice."""
        self.dismiss(choice)


def _tally_of(story: object) -> Tally | None:
    """The counts a backend's story holds: the backends are the shared
    layer's, and hand on the game's own story (the joined table's is the
    ``Tally`` the wire sent, a local one's holds it)."""
    if isinstance(story, Tally):
        return story
    held = getattr(story, "tally", None)
    return held if isinstance(held, Tally) else None
