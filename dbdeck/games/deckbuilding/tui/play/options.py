"""The table's own options, asked in dialogs: whether a move that wastes
something is confirmed first, and whether hands hide between turns
(showing them is asked first: once a hand is on the screen it cannot be
unseen)."""

from __future__ import annotations

from typing import Protocol

from dbdeck.games.deckbuilding.tui.play.shown import Backend, Shown
from dbdeck.tui.settings import Settings, save_settings

__all__ = ["Options", "ask_settings", "toggle_hide"]


class Options(Shown, Protocol):
    """What the options need of the screen: the settings, the backend
    (which hides hands), and a redraw."""

    @property
    def settings(self) -> Settings:
        """The player's settings."""
        ...

    @property
    def backend(self) -> Backend:
        """Where the game is."""
        ...

    def refresh_table(self) -> None:
        """Draw the backend's view again."""
        ...


def ask_settings(screen: Options) -> None:
    """The table's settings: ask before a move that wastes something, or not."""
    settings = screen.settings
    ask = settings.confirm_end_turn
    labels = [
        "Ask before a move that wastes something (ending a turn with Energy, cards or"
        f" an ability left; an attack for no damage): {'on' if ask else 'off'}"
        " (Enter to switch)",
        "Close",
    ]

    def answer(choice: int | None) -> None:
        if choice == 0:
            settings.confirm_end_turn = not ask
            save_settings(settings)
            screen.notify(f"Ask before a wasted move: {'off' if ask else 'on'}.")

    from dbdeck.games.deckbuilding.tui.dialogs import DecisionDialog

    screen.app.push_screen(DecisionDialog("Settings", "", labels, cancellable=True), answer)


def toggle_hide(screen: Options) -> None:
    """Hot-seat: hide or show hands between turns. Showing them is asked
    first: once a hand is on the screen it cannot be unseen."""
    if not screen.seating.hide_hands:
        _set_hidden(screen, True)
        return

    def answer(choice: int | None) -> None:
        if choice == 1:
            _set_hidden(screen, False)

    from dbdeck.games.deckbuilding.tui.dialogs import DecisionDialog

    dialog = DecisionDialog(
        "Show the hands?",
        "From now on the table shows the hand of whoever acts, to everyone "
        "at the screen, with no hand-off. The game keeps this when it is resumed.",
        ["Keep them hidden", "Show the hands"],
        cancellable=True,
    )
    screen.app.push_screen(dialog, answer)


def _set_hidden(screen: Options, hide: bool) -> None:
    outcome = screen.backend.hide_hands(hide)
    screen.notify(outcome.message, severity="information" if outcome.accepted else "warning")
    screen.refresh_table()
