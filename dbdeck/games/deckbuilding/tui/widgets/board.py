"""What every board widget shares: a panel drawn to the widget's width, and
a cursor over the cards it shows.

A board is focusable (Tab, or the number keys the table gives it). While it
has the focus one of its cards is under the cursor, drawn reversed: the
arrows move the cursor, Enter chooses the card (``CardChosen``), and every
move says which card is under it (``CardFocused``), so the table can tell
what the card is and what it can do. A click on a card chooses it too.
Boards never rule: what a card can do is the screen's business, asked of
the view.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from rich.cells import cell_len
from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.widgets import Static

__all__ = ["BUY_BALL", "Board", "CardChosen", "CardFocused", "Item", "Items", "show_fitted"]

BUY_BALL = -2
"""The item of the markets panel that stands for buying a Dragon Ball."""


class CardChosen(Message):
    """A card on the table was chosen (Enter or a click): the screen decides
    what it means."""

    def __init__(self, uid: int, where: str) -> None:
        super().__init__()
        self.uid = uid
        """The card's instance uid, as actions name it (``BUY_BALL`` for the
        Dragon Ball purchase)."""
        self.where = where
        """Where the card lies: ``hand``, ``market:<market>``, ``villain``,
        ``character:<id>`` or ``balls``."""


class CardFocused(Message):
    """The cursor of a board moved onto a card (or left every card: ``uid``
    ``None``)."""

    def __init__(self, uid: int | None, where: str, *, by_key: bool = False) -> None:
        super().__init__()
        self.uid = uid
        self.where = where
        self.by_key = by_key
        """The player moved the cursor (not a redraw or a focus coming back)."""


class Item(NamedTuple):
    """A card a board shows, in the order the cursor visits them."""

    uid: int
    where: str
    row: int = 0
    """The line of cards it belongs to (Up and Down move between them)."""


class Items:
    """The items of one drawing, with the cursor's drawn as it is added."""

    def __init__(self, cursor: int | None) -> None:
        self.cursor = cursor
        self.items: list[Item] = []

    def add(self, text: Text, uid: int, where: str, row: int = 0) -> Text:
        """Record ``text`` as the item for card ``uid``; reversed under the cursor."""
        if self.cursor == len(self.items):
            text.stylize("reverse bold")
        self.items.append(Item(uid, where, row))
        return text


def _lines_within(picture: RenderableType, width: int) -> int | None:
    """The height of a picture drawn already fitted to ``width`` (a text
    whose every line fits: no wrapping to work out), else ``None``."""
    if not isinstance(picture, Text):
        return None
    lines = picture.plain.split("\n")
    if any(cell_len(line) > width for line in lines):
        return None
    return len(lines)


def show_fitted(widget: Static, picture: RenderableType) -> None:
    """Draw ``picture`` in ``widget``. The screen is laid out again only when
    the widget's height changes: a layout redraws every panel, which costs
    more than all the rest of a redraw."""
    width = widget.content_region.width
    if width <= 0 or not widget.is_mounted:
        widget.update(picture)
        return
    widget.update(picture, layout=False)
    height = _lines_within(picture, width)
    if height is None:
        height = widget.get_content_height(widget.size, widget.app.size, width)
    if height != widget.content_region.height:
        widget.refresh(layout=True)


class Board(Static, can_focus=True):
    """A widget drawn from a panel of the view, with a cursor over its cards."""

    BINDINGS = [
        Binding("left", "move(-1)", "Previous", show=False),
        Binding("right", "move(1)", "Next", show=False),
        Binding("up", "row(-1)", "Row up", show=False),
        Binding("down", "row(1)", "Row down", show=False),
        Binding("enter", "choose", "Card actions", show=False),
    ]

    where = ""
    """What ``CardChosen`` says about where this widget's cards lie."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.items: list[Item] = []
        """The cards shown, in cursor order (as last drawn)."""
        self.cursor = 0
        self._cursor_uid: int | None = None
        self._announced: int | None = -1
        self._width = 0
        self._fitted: tuple[int, int | None] = (0, None)
        """The width the picture was drawn to, and its lines if every one fits."""

    # --- drawing ------------------------------------------------------------------------

    def picture(self, width: int, items: Items) -> RenderableType:
        """The board's picture at ``width`` cells; each card added to ``items``."""
        return Text()

    def redraw(self, focused: bool | None = None) -> None:
        """Draw again from the panel (after a new panel, a resize, a move);
        the cursor shows while the board has the focus."""
        width = self.content_region.width or max(20, self.app.size.width - 4)
        self._width = width
        if focused is None:
            focused = self.has_focus
        items = Items(self.cursor if focused else None)
        picture = self.picture(width, items)
        uids = [i.uid for i in items.items]
        if focused and self._cursor_uid in uids and uids.index(self._cursor_uid) != self.cursor:
            # Keep the cursor on the same card when the panel changes under it.
            self.cursor = uids.index(self._cursor_uid)
            items = Items(self.cursor)
            picture = self.picture(width, items)
        self.items = items.items
        if self.items:
            self.cursor = max(0, min(self.cursor, len(self.items) - 1))
        self._show(picture)
        if focused:
            # A new panel can put another card under the cursor: say which.
            item = self.current()
            uid = item.uid if item is not None else None
            if uid != self._announced:
                self._announced = uid
                where = item.where if item else self.where
                self.post_message(CardFocused(uid, where, by_key=self._by_key))
        self._by_key = False

    def _show(self, picture: RenderableType) -> None:
        self._fitted = (self._width, _lines_within(picture, self._width))
        show_fitted(self, picture)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The picture's height: its line count when it was drawn to this
        width already (no wrapping to work out again for the layout)."""
        drawn, lines = self._fitted
        if lines is not None and width == drawn:
            return lines
        return super().get_content_height(container, viewport, width)

    def on_resize(self, event: events.Resize) -> None:
        """A new width lays the board out again (tiles wrap between them)."""
        if self.content_region.width != self._width:
            self.redraw()

    # --- the cursor ---------------------------------------------------------------------

    def current(self) -> Item | None:
        """The card under the cursor."""
        if not self.items:
            return None
        return self.items[max(0, min(self.cursor, len(self.items) - 1))]

    _by_key = False

    def _moved(self, *, by_key: bool = False) -> None:
        self._by_key = by_key
        item = self.current()
        self._cursor_uid = item.uid if item is not None else None
        self._announced = -1  # said again, even for the same card
        self.redraw(focused=True)

    def on_focus(self) -> None:
        """Show the cursor, and say which card it is on."""
        self._moved()

    def on_blur(self) -> None:
        """Hide the cursor, and say no card of this board is under it any
        more (a card played meanwhile must not stay described)."""
        self.redraw(focused=False)
        self.post_message(CardFocused(None, self.where))

    def action_move(self, delta: int) -> None:
        """Move the cursor to the previous or next card."""
        if self.items:
            self.cursor = (self.cursor + delta) % len(self.items)
            self._moved(by_key=True)

    def action_row(self, delta: int) -> None:
        """Move the cursor to the line of cards above or below (the next
        panel, when there is none)."""
        item = self.current()
        if item is None:
            self.screen.focus_next() if delta > 0 else self.screen.focus_previous()
            return
        rows = sorted({i.row for i in self.items})
        at = rows.index(item.row) + delta
        if not 0 <= at < len(rows):
            self.screen.focus_next() if delta > 0 else self.screen.focus_previous()
            return
        column = [i for i in self.items[: self.cursor] if i.row == item.row]
        target = [n for n, i in enumerate(self.items) if i.row == rows[at]]
        self.cursor = target[min(len(column), len(target) - 1)]
        self._moved(by_key=True)

    def action_choose(self) -> None:
        """Enter: the card under the cursor is chosen."""
        item = self.current()
        if item is not None:
            self.post_message(CardChosen(item.uid, item.where))

    def on_click(self, event: events.Click) -> None:
        """A click on a card's name chooses that card."""
        meta: dict[str, Any] = event.style.meta
        uid = meta.get("uid")
        if isinstance(uid, int) and (uid >= 0 or uid == BUY_BALL):
            event.stop()
            self.post_message(CardChosen(uid, str(meta.get("where") or self.where)))
