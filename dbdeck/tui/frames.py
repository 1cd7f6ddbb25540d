"""A screen that does the work of its first showing once.

While the app holds its updates back (``App.batch_update``: Textual holds
them through the whole of its start, until the first screen is mounted),
Textual still renders every widget of the screen in front on each refresh,
then drops the frame unwritten. For a table of a few dozen panels that is a
whole redraw thrown away before the first one is shown. And once a screen
is pushed, Textual styles each of its widgets as it mounts, then styles
them all again as the screen comes to the front.

A ``HeldScreen`` renders nothing while updates are held, and redraws in full
once they are let go; it is not styled again when it first comes to the
front, a moment after its widgets were. The frame the terminal gets is the
same, drawn once.
"""

from __future__ import annotations

from typing import TypeVar

from textual import events
from textual.screen import Screen

__all__ = ["HeldScreen"]

ResultT = TypeVar("ResultT")


class HeldScreen(Screen[ResultT]):
    """A screen that renders no frame while the app holds its updates back,
    and is styled once as it is first shown."""

    _shown = False
    """Whether the screen came to the front before."""

    def _compositor_refresh(self) -> None:
        # Textual's own attributes: the count of ``batch_update`` blocks open,
        # and the flag its update timer reads once they close (a whole-screen
        # redraw, so nothing drawn since is missed).
        # Only the screen in front holds back: a screen behind a dialog
        # passes its changes on to the one in front, as Textual does.
        if self.app._batch_count and self.app.screen is self:
            self._repaint_required = True
            return
        super()._compositor_refresh()

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        # Textual runs a class's handler before its bases': this one comes
        # before Screen's, which restyles every widget when the event asks.
        # The first time, they were all styled as they mounted, just before.
        # Later resumes (back from a dialog, after a change of theme) restyle.
        if not self._shown:
            self._shown = True
            event.refresh_styles = False
