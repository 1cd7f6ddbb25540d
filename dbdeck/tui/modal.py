"""Screens that close once (a burst of keys may answer a dialog twice), and
apps whose notifications are plain text.

Textual's ``Screen.dismiss`` pops whatever screen is in front: a dialog
answered twice before it closes (Enter, Enter typed together) would close
the screen beneath it too, and run its callback twice. A ``Dialog`` (and
the command palette, ``Palette``) closes only while it is in front, once.
"""

from __future__ import annotations

from typing import Any, TypeVar

from textual.app import App
from textual.await_complete import AwaitComplete
from textual.command import CommandList, CommandPalette
from textual.notifications import SeverityLevel
from textual.screen import ModalScreen

__all__ = ["Dialog", "Palette", "PlainApp"]

ResultT = TypeVar("ResultT")


class PlainApp(App[None]):
    """An app whose notifications are plain text, whatever the caller asks:
    what one says may name a card, a player or a table, never markup."""

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Show a toast; its words are drawn as written."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)


class Dialog(ModalScreen[ResultT]):
    """A modal screen that closes once, and only while it is in front."""

    def dismiss(self, result: ResultT | None = None) -> AwaitComplete:
        """Close with ``result`` (a second call, or one while another screen
        is in front, does nothing)."""
        if not self.is_active:
            return AwaitComplete()
        return super().dismiss(result)


class Palette(CommandPalette):
    """The command palette, closed once (two Enters run one command), and
    whose search, still running when the palette closes in a burst, does
    not reach for the list it has lost (Textual's palette would stop the
    app on it)."""

    def _has_list(self) -> bool:
        return bool(self.query(CommandList))

    def _refresh_command_list(self, *args: Any, **kwargs: Any) -> None:
        if self._has_list():
            super()._refresh_command_list(*args, **kwargs)

    def _watch__list_visible(self) -> None:
        if self._has_list():
            super()._watch__list_visible()

    async def _watch__show_busy(self) -> None:
        if self._has_list():
            await super()._watch__show_busy()

    def dismiss(self, result: None = None) -> AwaitComplete:
        """Close (a second call, or one while another screen is in front,
        does nothing)."""
        if not self.is_active:
            return AwaitComplete()
        return super().dismiss(result)
