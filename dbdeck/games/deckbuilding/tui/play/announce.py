"""Announcements: a new turn (a toast for the same player, a banner that
takes no key until read for another), the hand-off taken, the game's end
and its summary."""

from __future__ import annotations

from typing import Protocol, TypeVar

from rich.text import Text
from textual.widget import Widget
from textual.widgets import Static

from dbdeck.games.deckbuilding.engine.panels import LogLine
from dbdeck.games.deckbuilding.tui.play.shown import Backend, Shown
from dbdeck.games.deckbuilding.tui.widgets import LOG_STYLES, HandBoard
from dbdeck.tui.modal import Dialog

__all__ = ["Announcer", "Announcing"]

W = TypeVar("W", bound=Widget)

SINCE_SHOWN = 8
"""The latest log lines a turn's banner repeats."""


class Announcing(Shown, Protocol):
    """What announcements need of the screen: the backend, whether it
    announces turns at all, its widgets, and a redraw."""

    @property
    def backend(self) -> Backend:
        """Where the game is."""
        ...

    @property
    def announces_turns(self) -> bool:
        """Whether a new turn is announced (a replay moves silently)."""
        ...

    def one(self, selector: str, expect: type[W]) -> W:
        """A widget of the screen."""
        ...

    def refresh_table(self) -> None:
        """Draw the backend's view again."""
        ...


class Announcer:
    """What the table says when a turn changes hands or the game ends."""

    def __init__(self, screen: Announcing) -> None:
        self.screen = screen
        self.turn_of = ""
        """The turn last announced (whose it is)."""
        self.since: list[LogLine] = []
        """The log lines since this screen last acted (a turn's banner shows them)."""
        self.summed = False
        """Whether the game's summary was shown."""

    def taken(self, _: None) -> None:
        """The hand-off was read: the keyboard is the next player's."""
        screen = self.screen
        if screen.app.return_code is not None:
            return
        self.turn_of = screen.view.active  # the hand-off announced the turn
        screen.backend.take_keyboard()
        screen.refresh_table()

    def turn(self) -> bool:
        """A new turn: a toast for the same player; for another player's
        turn, a banner that takes no key until read (turns chain: a key
        meant for one turn must never act on the next). Whether a banner
        now stands in the way (the table goes on once it is read)."""
        screen = self.screen
        view = screen.view
        active = view.active
        if isinstance(screen.app.screen, Dialog):  # the dialogs load once one is shown
            from dbdeck.games.deckbuilding.tui.dialogs import TurnBanner

            if isinstance(screen.app.screen, TurnBanner):
                return True
        if not screen.announces_turns or active in ("", "villain") or active == self.turn_of:
            return False
        before, self.turn_of = self.turn_of, active
        board = view.character(active)
        name = board.name if board is not None else active
        hand = screen.one("#hand", HandBoard)
        hand.selected = frozenset()
        if hand.display:
            hand.focus()  # a new turn starts from the hand
        if screen.backend.shared:
            if view.hand(active) is not None:
                screen.notify(f"Your turn: {name}", title="Your turn")
            return False
        player = screen.seating.player(active)
        if not before:
            return False  # the first turn: the status line says whose it is
        if screen.seating.player(before) == player or not screen.offers:
            screen.notify(f"{player} — {name}", title="Next turn")
            return False
        order = view.turn_order
        lines = [Text(f"{player}, it is your turn with {name}.")]
        if self.since:
            lines.append(Text("Since the last turn:", style="bold"))
            lines += [
                Text(f"  {line.text}", style=LOG_STYLES.get(line.kind, ""))
                for line in self.since[-SINCE_SHOWN:]
            ]
        from dbdeck.games.deckbuilding.tui.dialogs import TurnBanner

        banner = TurnBanner(f"Round {order.round} — {name}'s turn", lines)
        screen.app.push_screen(banner, lambda _: screen.refresh_table())
        return True

    def end(self) -> None:
        """The game is over: who won and why, and its summary once."""
        screen = self.screen
        view = screen.view
        winner = "The Characters win!" if view.winner == "players" else f"{view.villain.name} wins."
        reason = view.reason[:1].upper() + view.reason[1:]
        screen.one("#prompt", Static).update(Text(f"{winner} {reason}", style="bold"))
        from dbdeck.games.deckbuilding.tui.summary import SummaryScreen

        if self.summed or not screen.announces_turns:
            return
        self.summed = True

        def chosen(choice: str | None) -> None:
            after = getattr(screen.app, "after_game", None)
            if choice and choice != "table" and after is not None:
                after(choice)

        screen.app.push_screen(SummaryScreen(view, screen.backend.tally(), screen.seating), chosen)

    def summary_again(self) -> None:
        """Show the summary of a finished game again."""
        if not self.screen.view.over:
            self.screen.notify("The game is not over yet.", severity="warning")
            return
        self.summed = False
        self.end()
