"""Screens that close once: a burst of keys may answer a dialog twice.

Textual's ``Screen.dismiss`` pops whatever screen is in front: a dialog
answered twice before it closes (Enter, Enter typed together) would close
the screen beneath it too, and run its callback twice. A ``Dialog`` (and
the command palette, ``Palette``) closes only while it is in front, once.
"""

from __future__ import annotations

from typing import TypeVar

from textual.await_complete import AwaitComplete
from textual.command import CommandPalette
from textual.screen import ModalScreen

__all__ = ["Dialog", "Palette"]

ResultT = TypeVar("ResultT")


class Dialog(ModalScreen[ResultT]):
    """A modal screen that closes once, and only while it is in front."""

    def dismiss(self, result: ResultT | None = None) -> AwaitComplete:
        """Close with ``result`` (a second call, or one while another screen
        is in front, does nothing)."""
        if not self.is_active:
            return AwaitComplete()
        return super().dismiss(result)


class Palette(CommandPalette):
    """The command palette, closed once (two Enters run one command)."""

    def dismiss(self, result: None = None) -> AwaitComplete:
        """Close (a second call, or one while another screen is in front,
        does nothing)."""
        if not self.is_active:
            return AwaitComplete()
        return super().dismiss(result)
