"""The app every game's table opens in: what a terminal app of dbdeck
does whatever the game.

``TableApp`` takes its colours from the terminal (16 for a plain one) and
goes ASCII when the terminal cannot draw Unicode; drops keys and clicks
queued once it was asked to close; lets a key act only on the screen that
was in front when it was typed (a burst of keys never answers a dialog the
key before it opened); keeps one command palette; shows no traceback on an
unexpected error (a crash report is written beside the saves); and opens a
game's table screen by the game's id (``TABLE_SCREENS`` in the registry).
Each game's app is a ``TableApp`` with its own menus.
"""

from __future__ import annotations

import asyncio
import io
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, overload

from rich.console import Console, RenderableType
from textual import events
from textual.actions import ActionParseResult
from textual.await_complete import AwaitComplete
from textual.command import CommandPalette
from textual.dom import DOMNode
from textual.screen import Screen, ScreenResultCallbackType, ScreenResultType
from textual.theme import ThemeProvider
from textual.widget import AwaitMount

from dbdeck import collector
from dbdeck.saves import Session
from dbdeck.tabletop.registry import ScreenKind, table_screen
from dbdeck.tui.modal import Palette, PlainApp
from dbdeck.tui.terminal import colour_system, wants_ascii

__all__ = ["TYPED_KEYS_KEPT", "InterfaceCrash", "TableApp"]

LET_GO_AFTER = 0.3
"""Seconds after the first screen is laid out that a start's garbage is
collected (``dbdeck.collector``)."""

TYPED_KEYS_KEPT = 256
"""How many typed keys are remembered with their screen (a key the focused
widget takes for itself never comes back to be forgotten)."""


class TableApp(PlainApp):
    """A dbdeck app in a terminal, of any game."""

    asked_return_code: int | None = None
    """The return code of a deliberate ``exit``; ``None`` until one."""

    leaving = False
    """Whether the app was asked to close: from then on no key, click or
    binding acts (keys typed in a burst after ``q`` are already queued, and
    Textual mounts nothing more once it is closing, so a dialog they opened
    would have no content)."""

    def __init__(
        self,
        *,
        session: Session[Any] | None = None,
        saves: Path | None = None,
        ascii: bool | None = None,
    ) -> None:
        """``ascii``: draw with ASCII only (by default, when the terminal
        cannot draw Unicode: ``DBDECK_ASCII``, the locale)."""
        from textual import constants

        # Textual's console takes its colours from here as the app is made:
        # a plain terminal gets 16 colours, not what Textual would guess.
        if (colours := colour_system(os.environ)) is not None:
            setattr(constants, "COLOR_SYSTEM", colours)  # noqa: B010 (a Final constant)
        super().__init__()
        if wants_ascii(os.environ) if ascii is None else ascii:
            from dbdeck.tui.ascii import AsciiFilter

            self._filters.append(AsciiFilter())
        self.session: Session[Any] | None = session
        """The saved game open at the table, if any (closed with the app)."""
        self.saves = saves
        """The saves folder; ``None`` plays without saving (tests, demos)."""
        self._typed_on: dict[int, tuple[events.Key, Screen[Any]]] = {}
        """The screen in front when each key waiting to act was typed."""

    def on_ready(self) -> None:
        """The first screen is laid out: a start that held the collector off
        (``dbdeck.collector``) lets it go a moment later, once the first
        frame is on the terminal (Textual writes it from a thread of its
        own, which the collection would hold up)."""
        self.set_timer(LET_GO_AFTER, collector.let_go)

    def table_screen(self, game_id: str, backend: Any, kind: ScreenKind = "table") -> Screen[None]:
        """The table screen of the game ``game_id`` on ``backend`` (of a
        shared table, or of a replay, by ``kind``)."""
        screen: Screen[None] = table_screen(game_id, kind)(backend)
        return screen

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.InputEvent):
            # Keys and clicks still queued when the app was asked to close
            # are dropped: none of them may act on a game that was left.
            if self.leaving:
                return
            if isinstance(event, events.Key) and not self._for_screen_in_front(event):
                return
        await super().on_event(event)

    def _for_screen_in_front(self, key: events.Key) -> bool:
        """Whether ``key`` may act: it was typed while the screen now in
        front was. A key reaches the app twice: first as typed (the screen
        in front then is noted), then back from the focused widget, when its
        binding runs. The keys of a burst are all typed before the first one
        acts, so a key that opened or closed a screen leaves the keys typed
        after it without a screen: an Enter typed at the table must not
        answer the dialog the key before it opened."""
        if not key.is_forwarded:
            if not self.screen.is_mounted:
                return False  # typed before the screen in front was shown
            self._typed_on[id(key)] = (key, self.screen)
            while len(self._typed_on) > TYPED_KEYS_KEPT:
                self._typed_on.pop(next(iter(self._typed_on)))
            return True
        typed = self._typed_on.pop(id(key), None)
        return typed is None or typed[0] is not key or typed[1] is self.screen

    if TYPE_CHECKING:

        @overload
        def push_screen(
            self,
            screen: Screen[ScreenResultType] | str,
            callback: ScreenResultCallbackType[ScreenResultType] | None = None,
            wait_for_dismiss: Literal[False] = False,
            *,
            mode: str | None = None,
        ) -> AwaitMount: ...

        @overload
        def push_screen(
            self,
            screen: Screen[ScreenResultType] | str,
            callback: ScreenResultCallbackType[ScreenResultType] | None = None,
            wait_for_dismiss: Literal[True] = True,
            *,
            mode: str | None = None,
        ) -> asyncio.Future[ScreenResultType]: ...

    def push_screen(
        self,
        screen: Screen[ScreenResultType] | str,
        callback: ScreenResultCallbackType[ScreenResultType] | None = None,
        wait_for_dismiss: bool = False,
        *,
        mode: str | None = None,
    ) -> AwaitMount | asyncio.Future[ScreenResultType]:
        """Show ``screen`` in front, unless the app is closing: Textual
        mounts nothing then, so the screen would show without its content
        (the answer of a dialog, still queued, may ask for the next one)."""
        if self.leaving:
            if wait_for_dismiss:
                return asyncio.get_running_loop().create_future()  # never answered
            return AwaitMount(self.screen, [])
        if wait_for_dismiss:
            return super().push_screen(screen, callback, True, mode=mode)
        return super().push_screen(screen, callback, False, mode=mode)

    def switch_screen(self, screen: Screen[Any] | str) -> AwaitComplete:
        """Replace the screen in front, unless the app is closing."""
        if self.leaving:
            return AwaitComplete()
        return super().switch_screen(screen)

    def action_command_palette(self) -> None:
        """The command palette (one that closes once, however fast the keys)."""
        # No id: a palette just closed may still be leaving the app.
        if self.use_command_palette and not any(
            isinstance(screen, CommandPalette) for screen in self.screen_stack
        ):
            self.push_screen(Palette())

    def search_themes(self) -> None:
        """The palette of themes (one that closes once, like the other)."""
        self.push_screen(Palette(providers=[ThemeProvider], placeholder="Search for themes…"))

    async def run_action(
        self,
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        """Run an action (every binding comes here), unless the app is
        closing: then the action is taken as done, and nothing happens."""
        if self.leaving:
            return True
        return await super().run_action(action, default_namespace, namespaces)

    def on_unmount(self) -> None:
        if self.session is not None:
            self.session.close()

    def exit(
        self, result: Any = None, return_code: int = 0, message: RenderableType | None = None
    ) -> None:
        """Leave the app on purpose (with ``return_code`` 1, say, for a table
        out of reach): what follows is no crash. Nothing acts afterwards."""
        self.leaving = True
        self.asked_return_code = return_code
        super().exit(result, return_code, message)

    async def run_async(self, **kwargs: Any) -> Any:
        """Run the app (``run`` runs it through here). An unexpected error
        anywhere in the interface shows no traceback: Textual prints its
        account of an unhandled error on ``error_console`` once the terminal
        is restored, so that console writes into memory while the app runs,
        and a crash report holds what it caught; the user is only told where
        the report is."""
        terminal = self.error_console
        caught = io.StringIO()
        self.error_console = Console(
            file=caught, color_system=None, markup=False, highlight=False, width=terminal.width
        )
        try:
            result: Any = await super().run_async(**kwargs)  # type: ignore[func-returns-value]
        finally:
            self.error_console = terminal
        said = caught.getvalue()
        # Textual ends the app with return code 1 on an unhandled error.
        if self.return_code == 1 and self.asked_return_code != 1 and said.strip():
            crash = InterfaceCrash("the interface stopped; Textual's account follows\n" + said)
            # One unbroken line: a terminal or a copy and paste keeps the path whole.
            terminal.print(self.report_crash(crash), markup=False, soft_wrap=True)
        elif said:
            terminal.file.write(said)  # an exit message, as Textual would show it
        return result

    def report_crash(self, error: BaseException) -> str:
        """Write a crash report beside the saves (the save's id, seed and
        action count in it when a game is open) and say where, in words for
        the user. Nothing is claimed about the save: whether its last write
        succeeded is not known here."""
        from dbdeck.saves import saves_dir, write_crash_report

        try:
            if self.session is not None:
                report = str(self.session.crash_report(error))
            else:
                report = str(write_crash_report(self.saves or saves_dir(), error))
        except OSError as exc:
            report = f"(could not be written: {exc})"
        return f"dbdeck stopped on an unexpected error. Crash report: {report}"


class InterfaceCrash(RuntimeError):
    """An unexpected error of the interface, as Textual reported it (the
    traceback it rendered): what a crash report holds."""
