"""The table's lists (``dbdeck.tui.choices``), marked with this game's glyphs.

Every list of the table behaves one way: it opens with nothing highlighted,
Down highlights the first item, Up and Down never wrap, and the highlighted
item is marked by a glyph (``▶``; ``>`` in ASCII), not by colour alone.
"""

from __future__ import annotations

from dbdeck.games.deckbuilding.tui.widgets import glyphs
from dbdeck.tui import choices
from dbdeck.tui.choices import GUTTER, NONE_ENABLED, NOTHING_HIGHLIGHTED

__all__ = ["GUTTER", "NONE_ENABLED", "NOTHING_HIGHLIGHTED", "ChoiceList", "TickList", "marker"]


def marker() -> str:
    """The mark of the highlighted item (it shows without colour too)."""
    return ">" if glyphs.ASCII else choices.unicode_marker()


class ChoiceList(choices.ChoiceList):
    """An ``OptionList`` that follows the table's one rule for lists."""

    def marker(self) -> str:
        """The mark of the highlighted item."""
        return marker()


class TickList(choices.TickList):
    """A ``SelectionList`` that follows the table's one rule for lists:
    Space ticks the highlighted item; its box holds a mark only when ticked."""

    def marker(self) -> str:
        """The mark of the highlighted item."""
        return marker()
