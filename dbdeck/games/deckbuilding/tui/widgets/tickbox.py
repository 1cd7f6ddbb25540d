"""A check box whose mark is a glyph, not a colour: ``▐X▌`` when checked,
``▐ ▌`` when not, so that it reads the same under ``NO_COLOR`` and in ASCII
mode (where Textual's own box shows an ``X`` either way, told apart only by
its colour)."""

from __future__ import annotations

from textual.content import Content
from textual.style import Style
from textual.widgets import Checkbox

__all__ = ["TickBox"]


class TickBox(Checkbox):
    """A check box marked ``X`` only while checked."""

    @property
    def _button(self) -> Content:
        """The box, with its mark only while checked (drawn as Textual draws
        its own: the sides in the button's colour)."""
        button = self.get_visual_style("toggle--button")
        side = Style(foreground=button.background, background=self.background_colors[1])
        return Content.assemble(
            (self.BUTTON_LEFT, side),
            (self.BUTTON_INNER if self.value else " ", button),
            (self.BUTTON_RIGHT, side),
        )
