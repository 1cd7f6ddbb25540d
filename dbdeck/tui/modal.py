"""Screens that close once (a burst of keys may answer a dialog twice), and
apps whose notifications are plain text.

Textual's ``Screen.dismiss`` pops whatever screen is in front: a dialog
answered twice before it closes (Enter, Enter typed together) would close
the screen beneath it too, and run its callback twice. A ``Dialog`` (and
the command palette, ``Palette``) closes only while it is in front, once.
"""

from __future__ import annotations

from typing import TypeVar

from textual.app import App
from textual.await_complete import AwaitComplete
from textual.command import CommandPalette
from textual.notifications import SeverityLevel
from textual.screen import ModalScreen
from textual.worker import Worker, WorkType

__all__ = ["Dialog", "Palette", "PlainApp"]

ResultT = TypeVar("ResultT")
ResultType = TypeVar("ResultType")


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

    def deliver_screenshot(
        self,
        filename: str | None = None,
        path: str | None = None,
        time_format: str | None = None,
    ) -> str | None:
        """Save a screenshot (the palette's command), unless the app has
        already closed: a quit typed right after the command leaves no screen
        to take it of."""
        if not self.screen_stack:
            return None
        return super().deliver_screenshot(filename, path, time_format)


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
    whose search, still running or started by a key of the burst that
    closed it, does not stop the app when it reaches for the list the
    closed palette no longer has.

    Textual's palette starts a search (a worker) for every change of its
    input, and a change typed just before Escape may be handled after it:
    that search starts on a palette already closed. Only public Textual API
    is used: closing cancels the palette's workers, and a worker started
    once the palette is no longer in front ends quietly on an error instead
    of stopping the app.
    """

    def run_worker(
        self,
        work: WorkType[ResultType],
        name: str | None = "",
        group: str = "default",
        description: str = "",
        exit_on_error: bool = True,
        start: bool = True,
        exclusive: bool = False,
        thread: bool = False,
    ) -> Worker[ResultType]:
        """Run work in a worker; once the palette has closed, a failing
        search is its own end, not the app's."""
        return super().run_worker(
            work,
            name,
            group,
            description,
            exit_on_error and self.is_active,
            start,
            exclusive,
            thread,
        )

    def dismiss(self, result: None = None) -> AwaitComplete:
        """Close, with every search stopped (a second call, or one while
        another screen is in front, does nothing)."""
        if not self.is_active:
            return AwaitComplete()
        self.workers.cancel_node(self)
        return super().dismiss(result)
