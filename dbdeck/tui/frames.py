"""A screen that draws no frame the terminal would never see.

While the app holds its updates back (``App.batch_update``: Textual holds
them through the whole of its start, until the first screen is mounted),
Textual still renders every widget of the screen in front on each refresh,
then drops the frame unwritten. For a table of a few dozen panels that is a
whole redraw thrown away before the first one is shown. A ``HeldScreen``
renders nothing while updates are held, and redraws in full once they are
let go: the frame the terminal gets is the same, drawn once.
"""

from __future__ import annotations

from typing import TypeVar

from textual.screen import Screen

__all__ = ["HeldScreen"]

ResultT = TypeVar("ResultT")


class HeldScreen(Screen[ResultT]):
    """A screen that renders no frame while the app holds its updates back."""

    def _compositor_refresh(self) -> None:
        # Textual's own attributes: the count of ``batch_update`` blocks open,
        # and the flag its update timer reads once they close (a whole-screen
        # redraw, so nothing drawn since is missed).
        if self.app._batch_count:
            self._repaint_required = True
            return
        super()._compositor_refresh()
