"""The key bar at the foot of a table, for every game: as many keys as fit,
never a cut one. The keys come in order of importance; help (``?``) always
shows."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

__all__ = ["HELP", "KeyBar", "styled"]

HELP = ("?", "Help")


def styled(text: str, style: str | Style = "") -> Text:
    """``text`` (plain, never markup) in ``style``, as a part others are
    appended to (a ``Text`` made with a style would lend it to everything
    appended after)."""
    out = Text()
    out.append(text, style=style)
    return out


class KeyBar(Static):
    """The keys of the screen, most important first, as many as fit."""

    keys: reactive[tuple[tuple[str, str], ...]] = reactive(())
    """(key, what it does), most important first."""

    def watch_keys(self) -> None:
        """Redraw."""
        self.redraw()

    def on_resize(self) -> None:
        """Fit the new width."""
        self.redraw()

    @staticmethod
    def chip(key: str, what: str) -> Text:
        """One key and what it does."""
        text = styled(f" {key} ", "bold reverse")
        text.append(f" {what} ")
        return text

    def redraw(self) -> None:
        """Draw as many keys as fit the width, help last."""
        width = self.content_region.width or 80
        last = self.chip(*HELP)
        line = Text()
        for key, what in self.keys:
            if (key, what) == HELP:
                continue
            chip = self.chip(key, what)
            if line.cell_len + chip.cell_len + last.cell_len > width:
                break
            line.append_text(chip)
        line.append_text(last)
        self.update(line, layout=False)  # one line, always
