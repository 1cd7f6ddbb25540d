"""The table's widgets: a board per side and one for the middle, the list
of what the turn asks now, the log, the key bar, and the one list every
dialog uses.

Widgets render, they don't rule: each holds what it shows in one reactive
(drawn in its watcher) and posts small messages up (``ItemFocused``,
``ItemChosen``); the screen turns them into offers. A board is focusable:
the arrows move its cursor over the cards it shows (Up and Down between
groups), Enter opens the card's menu.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import RichLog, Static

from dbdeck.games.ccg.table.view import LogLine, TableView
from dbdeck.games.ccg.tui import glyphs
from dbdeck.games.ccg.tui.draw import Item, Items, SeatShown, middle_picture, seat_picture
from dbdeck.games.ccg.tui.glyphs import pack, styled
from dbdeck.games.ccg.tui.offers import Entry
from dbdeck.tui import choices

__all__ = [
    "Board",
    "ChoiceList",
    "ItemChosen",
    "ItemFocused",
    "MiddleBoard",
    "MiddleShown",
    "NowPanel",
    "NowShown",
    "SeatBoard",
    "TableLog",
    "TickList",
]


class ItemFocused(Message):
    """A board's cursor moved onto a thing (``key`` ``None``: off every one)."""

    def __init__(self, key: str | None, *, by_key: bool = False) -> None:
        super().__init__()
        self.key = key
        self.by_key = by_key
        """The player moved the cursor (not a redraw)."""


class ItemChosen(Message):
    """Enter on a thing of a board: the screen opens its menu."""

    def __init__(self, key: str) -> None:
        super().__init__()
        self.key = key


class Board(Static, can_focus=True):
    """A panel of the view drawn to its width, with a cursor over its things."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Previous", show=False),
        Binding("right", "move(1)", "Next", show=False),
        Binding("up", "row(-1)", "Group up", show=False),
        Binding("down", "row(1)", "Group down", show=False),
        Binding("enter", "choose", "Card menu", show=False),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.items: list[Item] = []
        """The things shown, in cursor order (as last drawn)."""
        self.cursor = 0
        self._cursor_key: str | None = None
        self._announced: str | None = "-"
        self._by_key = False

    def picture(self, width: int, items: Items) -> RenderableType:
        """The board's picture at ``width`` cells, each thing added to ``items``."""
        return Text()

    def redraw(self, focused: bool | None = None) -> None:
        """Draw again (a new panel, a resize, a move); the cursor shows
        while the board has the focus, and stays on the same thing when the
        panel changes under it."""
        width = self.content_region.width or max(20, self.app.size.width - 4)
        if focused is None:
            focused = self.has_focus
        items = Items(self.cursor if focused else None)
        picture = self.picture(width, items)
        keys = [i.key for i in items.items]
        if focused and self._cursor_key in keys and keys.index(self._cursor_key) != self.cursor:
            self.cursor = keys.index(self._cursor_key)
            items = Items(self.cursor)
            picture = self.picture(width, items)
        self.items = items.items
        if self.items:
            self.cursor = max(0, min(self.cursor, len(self.items) - 1))
        self.update(picture)
        if focused:
            item = self.current()
            key = item.key if item is not None else None
            if key != self._announced:
                self._announced = key
                self.post_message(ItemFocused(key, by_key=self._by_key))
        self._by_key = False

    def on_resize(self) -> None:
        """A new width lays the tiles out again."""
        self.redraw()

    def current(self) -> Item | None:
        """The thing under the cursor."""
        if not self.items:
            return None
        return self.items[max(0, min(self.cursor, len(self.items) - 1))]

    def _moved(self, *, by_key: bool = False) -> None:
        self._by_key = by_key
        item = self.current()
        self._cursor_key = item.key if item is not None else None
        self._announced = "-"
        self.redraw(focused=True)

    def on_focus(self) -> None:
        """Show the cursor and say what it is on."""
        self._moved()

    def on_blur(self) -> None:
        """Hide the cursor."""
        self.redraw(focused=False)
        self._announced = "-"
        self.post_message(ItemFocused(None))

    def action_move(self, delta: int) -> None:
        """The previous or next thing."""
        if self.items:
            self.cursor = (self.cursor + delta) % len(self.items)
            self._moved(by_key=True)

    def action_row(self, delta: int) -> None:
        """The group above or below (the next panel past the last one)."""
        item = self.current()
        if item is None:
            self.screen.focus_next() if delta > 0 else self.screen.focus_previous()
            return
        rows = sorted({i.row for i in self.items})
        at = rows.index(item.row) + delta
        if not 0 <= at < len(rows):
            self.screen.focus_next() if delta > 0 else self.screen.focus_previous()
            return
        self.cursor = next(n for n, i in enumerate(self.items) if i.row == rows[at])
        self._moved(by_key=True)

    def action_choose(self) -> None:
        """Enter: the thing under the cursor is chosen."""
        item = self.current()
        if item is not None:
            self.post_message(ItemChosen(item.key))

    def go_to(self, key: str) -> bool:
        """Put the cursor on ``key``, if the board shows it."""
        keys = [i.key for i in self.items]
        if key not in keys:
            return False
        self.cursor = keys.index(key)
        self._moved(by_key=True)
        return True


class SeatBoard(Board):
    """One player's side of the table."""

    shown: reactive[SeatShown | None] = reactive(None, always_update=True)

    def watch_shown(self) -> None:
        """Redraw from the new view."""
        self.redraw()

    def picture(self, width: int, items: Items) -> RenderableType:
        """The side's picture."""
        if self.shown is None:
            return Text()
        return seat_picture(self.shown, width, items)


@dataclass(frozen=True, slots=True)
class MiddleShown:
    """What the middle board draws."""

    view: TableView
    compact: bool = False


class MiddleBoard(Board):
    """The turn and its steps, the Location, Combat, a finished game's result."""

    shown: reactive[MiddleShown | None] = reactive(None, always_update=True)

    def watch_shown(self) -> None:
        """Redraw from the new view."""
        self.redraw()

    def picture(self, width: int, items: Items) -> RenderableType:
        """The middle's picture."""
        if self.shown is None:
            return Text()
        return middle_picture(self.shown.view, width, items, compact=self.shown.compact)


@dataclass(frozen=True, slots=True)
class NowShown:
    """What the list of the turn's offers shows: its lines (numbered 1-9
    in order), the heading of those about the focused thing, and how many
    more offers the action list holds."""

    focused: tuple[Entry, ...] = ()
    focused_title: str = ""
    now: tuple[Entry, ...] = ()
    more: int = 0
    """Offers of the action list not shown here (the manual moves)."""
    compact: bool = False
    note: str = ""
    """Said when nothing is offered (another seat acts, a hand-off waits)."""

    @property
    def numbered(self) -> tuple[Entry, ...]:
        """The lines the number keys take, in order."""
        return (*self.focused, *self.now)[:9]


class NowPanel(Static):
    """What the turn and Combat offer now, numbered: a number key takes it.
    Those about the thing under the cursor come first."""

    shown: reactive[NowShown] = reactive(NowShown, always_update=True)

    def watch_shown(self) -> None:
        """Redraw."""
        self.redraw()

    def on_resize(self) -> None:
        """Fit the new width."""
        self.redraw()

    def redraw(self) -> None:
        """Draw the lines, numbered."""
        shown = self.shown
        width = self.content_region.width or 40
        numbered = shown.numbered
        chips: list[Text] = []
        lines: list[Text] = []
        for number, entry in enumerate(numbered, 1):
            chip = styled(f" {number} ", "bold reverse")
            chip.append(" ")
            label = entry.label + ("" if entry.single else f" {glyphs.ellipsis()}")
            chip.append(label)
            if number == 1 and shown.focused:
                head = styled("For ", "bold")
                head.append(shown.focused_title, style="bold")
                head.append(":")
                (chips if shown.compact else lines).append(head)
            if number == len(shown.focused) + 1 and shown.focused and shown.now:
                head = styled("Now:", "bold")
                (chips if shown.compact else lines).append(head)
            (chips if shown.compact else lines).append(chip)
        rest = len(shown.focused) + len(shown.now) - len(numbered) + shown.more
        if not numbered:
            if rest > 0:
                note = f"Nothing the turn asks now; {rest} more by hand: a for every action"
            else:
                note = shown.note or "Nothing is offered now."
            (chips if shown.compact else lines).append(styled(note, "italic"))
        elif rest > 0:
            tail = styled(f"+{rest} more: a for every action", "dim")
            (chips if shown.compact else lines).append(tail)
        # A long label wraps (two offers may differ only at its end).
        self.update(pack(chips, width, indent=0) if shown.compact else Text("\n").join(lines))


LOG_STYLES = {
    "damage": "light_coral",
    "combat": "bold",
    "turn": "bold",
    "capture": "bold yellow",
    "game-over": "bold reverse",
    "undo": "italic",
    "overrule": "bold italic",
    "note": "dim italic",
    "search": "italic",
}
"""How the log draws each kind of line."""


class TableLog(RichLog):
    """The log as the seat may read it, re-drawn whole when it changes."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(wrap=True, markup=False, min_width=20, **kwargs)
        self.drawn: tuple[LogLine, ...] = ()
        """The lines drawn, in order."""

    def show(self, lines: Sequence[LogLine]) -> None:
        """Draw ``lines``: only the new ones when the old ones lead them."""
        lines = tuple(lines)
        if lines == self.drawn:
            return
        start = len(self.drawn) if lines[: len(self.drawn)] == self.drawn else 0
        if start == 0:
            self.clear()
        for line in lines[start:]:
            self.write(Text(line.text, style=LOG_STYLES.get(line.kind, "")))
        self.drawn = lines

    def on_resize(self, event: events.Resize) -> None:
        """Re-wrap every line to the new width."""
        lines, self.drawn = self.drawn, ()
        self.clear()
        self.show(lines)


class ChoiceList(choices.ChoiceList):
    """A list of the table's one kind (``dbdeck.tui.choices``): it opens with
    nothing highlighted, Up and Down stop at the ends, and the highlighted
    item is marked by this table's glyph. Its labels are plain text."""

    def marker(self) -> str:
        """The mark of the highlighted item."""
        return glyphs.mark()


class TickList(choices.TickList):
    """Cards to tick with Space, in a list of the table's one kind; a box
    holds a mark only when ticked."""

    def marker(self) -> str:
        """The mark of the highlighted item."""
        return glyphs.mark()
