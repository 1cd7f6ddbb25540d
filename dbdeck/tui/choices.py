"""Every list of the table behaves one way.

- A list opens with nothing highlighted, and nothing is highlighted again
  after any change: an Enter meant for what came before does nothing.
- Down (or Up) highlights the first item; then Up and Down move one item
  and stop at the ends: a list never wraps.
- Enter with nothing highlighted does nothing, and says so; so does Up or
  Down on a list whose every item is disabled, saying why.
- The highlighted item is marked with a glyph (``▶``; ``>`` in ASCII), not
  by colour alone.

``ChoiceList`` is such an ``OptionList`` (dialogs, the action list, the
end-of-game choices); ``TickList`` such a ``SelectionList`` (the Techniques
of a Combo, the cards of a search, ticked with Space). Both games' tables
use them; each game's subclass gives the marker its own glyphs draw
(``marker``), so that ASCII mode follows that game's switch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rich.segment import Segment
from rich.text import Text
from textual.strip import Strip
from textual.widgets import Checkbox, OptionList, SelectionList
from textual.widgets.option_list import Option, OptionDoesNotExist

__all__ = [
    "GUTTER",
    "NONE_ENABLED",
    "NOTHING_HIGHLIGHTED",
    "ChoiceList",
    "TickList",
    "answers",
    "unicode_marker",
]

NOTHING_HIGHLIGHTED = "Nothing is highlighted: press Down to highlight the first item, then Enter."
"""What Enter says on a list with nothing highlighted."""

NONE_ENABLED = "Nothing in this list can be chosen now."
"""What Up or Down says on a list whose every item is disabled."""

GUTTER = 2
"""The cells before each item that hold the marker."""


def unicode_marker() -> str:
    """The mark of the highlighted item (it shows without colour too); a
    game's subclass gives its ASCII twin where its glyphs are ASCII."""
    return "▶"


def answers(options: Sequence[str], forbidden: Sequence[str], *, ascii_only: bool) -> list[Option]:
    """A dialog's answers as plain-text options (id: the answer's index),
    then what cannot be done now, and why, disabled and crossed out."""
    cross = "x" if ascii_only else "✗"
    shown = [Option(Text(o), id=str(i)) for i, o in enumerate(options)]
    shown += [Option(Text(f"{cross} {line}", style="dim"), disabled=True) for line in forbidden]
    return shown


def _step(options: Sequence[Option], highlighted: int | None, direction: int) -> int | None:
    """The item Up or Down goes to: the first one when none is highlighted,
    else the next enabled one that way, staying put at the end."""
    enabled = [i for i, option in enumerate(options) if not option.disabled]
    if not enabled:
        return None
    if highlighted is None:
        return enabled[0]
    ahead = [i for i in enabled if (i - highlighted) * direction > 0]
    if not ahead:
        return highlighted
    return min(ahead) if direction > 0 else max(ahead)


def _marked(listing: OptionList, y: int, strip: Strip, marker: str) -> Strip:
    """Line ``y`` of ``listing`` behind the marker's gutter, which holds
    the marker on the first line of the highlighted item."""
    try:
        index, offset = listing._lines[listing.scroll_offset.y + y]
    except IndexError:
        index, offset = -1, 0
    on = offset == 0 and index == listing.highlighted
    parts = ("option-list--option", "option-list--option-highlighted") if on else ()
    style = listing.get_visual_style("option-list--option", *parts[1:]).rich_style
    mark = f"{marker} " if on else " " * GUTTER
    return Strip.join([Strip([Segment(mark, style)], GUTTER), strip])


if TYPE_CHECKING:
    _ListBase = OptionList
else:  # a mixin at run time: Textual's component classes stay the lists' own
    _ListBase = object


class _OneRule(_ListBase):
    """What every list of the table shares: nothing highlighted at first, the
    marker in its gutter, Up and Down that never wrap, Enter that says so
    when nothing is highlighted."""

    NOTHING = NOTHING_HIGHLIGHTED
    """What Enter (or Space) says with nothing highlighted."""

    def marker(self) -> str:
        """The mark of the highlighted item (a game's subclass gives its own
        glyph, with its ASCII twin)."""
        return unicode_marker()

    none_enabled = NONE_ENABLED
    """What Up or Down says when no item of the list can be chosen now."""

    def on_mount(self) -> None:
        """Nothing is highlighted when the list opens."""
        self.highlighted = None

    def _get_left_gutter_width(self) -> int:
        return super()._get_left_gutter_width() + GUTTER

    def render_line(self, y: int) -> Strip:
        """A line of the list, the highlighted item marked."""
        return _marked(self, y, super().render_line(y), self.marker())

    def action_cursor_down(self) -> None:
        """Down: the first item, or the next one (never wrapping)."""
        self._move(1)

    def action_cursor_up(self) -> None:
        """Up: the first item, or the one before (never wrapping)."""
        self._move(-1)

    def _move(self, direction: int) -> None:
        step = _step(self.options, self.highlighted, direction)
        if step is None and self.option_count:  # every item is disabled: say why
            self.notify(self.none_enabled, title="Not now", severity="warning")
        self.highlighted = step

    def action_select(self) -> None:
        """Choose (or tick) the highlighted item; with none, say so."""
        if self.highlighted is None:
            self.notify(self.NOTHING, title="Choose first", severity="warning")
            return
        super().action_select()


class ChoiceList(_OneRule, OptionList):
    """An ``OptionList`` that follows the table's one rule for lists."""

    ALLOW_MAXIMIZE: ClassVar[bool] = False

    def __init__(
        self, *content: Option | str | None, none_enabled: str | None = None, **kwargs: Any
    ) -> None:
        # Labels are plain text: a card name or "[Grim Rule]" is never markup.
        kwargs.setdefault("markup", False)
        super().__init__(*content, **kwargs)
        if none_enabled is not None:
            self.none_enabled = none_enabled


class TickList(_OneRule, SelectionList[int]):
    """A ``SelectionList`` that follows the table's one rule for lists:
    Space ticks the highlighted item. Its box holds a mark only when ticked
    (``▐X▌``, else ``▐ ▌``), like ``TickBox``: Textual's own box shows an
    ``X`` either way, told apart by its colour alone, so under ``NO_COLOR``,
    in ASCII mode or read as text every item would look ticked."""

    NOTHING = "Nothing is highlighted: press Down to highlight the first item, then Space."

    def render_line(self, y: int) -> Strip:
        """A line of the list, its box empty unless its item is ticked."""
        strip = super().render_line(y)
        try:
            selection = self.get_option_at_index(self.scroll_offset.y + y)
        except OptionDoesNotExist:
            return strip
        if selection.value in self._selected:
            return strip
        segments = list(strip)
        for n, segment in enumerate(segments):
            if segment.text == Checkbox.BUTTON_INNER:
                segments[n] = Segment(" ", segment.style, segment.control)
                break
        return Strip(segments, strip.cell_length)
