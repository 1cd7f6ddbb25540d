"""What every part of the table screen may read of it: the view and offers
it drew, who sits where, and the app to open dialogs on.

Each part (the card menu, the pickers, decisions, announcements, the
end-of-turn question) states in a protocol of its own, built on this one,
the few things more it needs of the screen, so a part never reaches into
the rest of it.
"""

from __future__ import annotations

from typing import Protocol, TypeAlias

from textual.app import App
from textual.notifications import SeverityLevel

from dbdeck.games.deckbuilding.engine.panels import Offer, TableView
from dbdeck.tui.backend import Seating, TableBackend

Backend: TypeAlias = TableBackend[TableView, Offer]
"""A backend of this game's table: its views and offers."""

__all__ = ["Shown", "of_kind"]


class Shown(Protocol):
    """The table screen as its parts see it."""

    @property
    def view(self) -> TableView:
        """The backend's view when last drawn."""
        ...

    @property
    def offers(self) -> list[Offer]:
        """The backend's legal actions when last drawn."""
        ...

    @property
    def seating(self) -> Seating:
        """Who sits where, and how the table asks."""
        ...

    @property
    def app(self) -> App[object]:
        """The app, to open a dialog on."""
        ...

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """A toast."""
        ...


def of_kind(shown: Shown, kind: str) -> list[Offer]:
    """The offers of one kind of action."""
    return [o for o in shown.offers if o.action.type == kind]
