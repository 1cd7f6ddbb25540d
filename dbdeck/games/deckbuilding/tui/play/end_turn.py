"""The questions asked before a move that wastes something: ending a turn
with something left undone, or a move the engine says would waste
something (an attack for no damage). The player's settings and the table's
may turn them off."""

from __future__ import annotations

from typing import Protocol

from dbdeck.games.deckbuilding.engine.actions import Action
from dbdeck.games.deckbuilding.engine.panels import Offer
from dbdeck.games.deckbuilding.tui.play.shown import Shown
from dbdeck.tui.backend import Outcome
from dbdeck.tui.settings import Settings, save_settings

__all__ = ["Asking", "asks", "confirm_waste", "end_turn"]


class Asking(Shown, Protocol):
    """What the questions need of the screen: the settings, and a way to play."""

    @property
    def settings(self) -> Settings:
        """The player's settings."""
        ...

    def play(self, action: Action) -> Outcome:
        """Send an action."""
        ...


def asks(screen: Asking) -> bool:
    """Whether a move that wastes something is confirmed first (the
    player's setting, and the table's)."""
    return screen.settings.confirm_end_turn and screen.seating.confirm_end_turn


def end_turn(screen: Asking, action: Action) -> None:
    """End the turn; with something left undone, ask first (unless the
    player turned the question off). What is left undone comes with the
    seat's view, worked out by the engine."""
    view = screen.view
    left = view.left_undone
    if not left or not asks(screen):
        screen.play(action)
        return
    board = view.character(view.active)
    name = board.name if board is not None else "this Character"
    body = f"{name} could still: " + "; ".join(left) + "."

    def answer(choice: int | None) -> None:
        if choice == 2:
            screen.settings.confirm_end_turn = False
            save_settings(screen.settings)
            screen.notify("The end of a turn is no longer confirmed (S: settings).")
        if choice in (1, 2):
            screen.play(action)

    from dbdeck.games.deckbuilding.tui.dialogs import DecisionDialog

    screen.app.push_screen(
        DecisionDialog(
            f"End {name}'s turn?",
            body,
            ["Keep playing", "End the turn", "End the turn, and stop asking"],
            cancellable=True,
        ),
        answer,
    )


def confirm_waste(screen: Asking, offer: Offer) -> None:
    """Ask before a move the engine says would waste something."""

    def answer(choice: int | None) -> None:
        if choice == 1:
            screen.play(offer.action)

    from dbdeck.games.deckbuilding.tui.dialogs import DecisionDialog

    screen.app.push_screen(
        DecisionDialog(
            f"{offer.label}?",
            offer.waste,
            ["Keep playing", f"{offer.label} all the same"],
            cancellable=True,
        ),
        answer,
    )
