"""The log: what happened, styled by kind, re-wrapped when the panel's width
changes; a Villain's turn under its own heading; dice with their faces."""

from __future__ import annotations

import re
from typing import Any

from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import RichLog

from dbdeck.games.deckbuilding.engine.panels import LogLine
from dbdeck.games.deckbuilding.tui.widgets import glyphs
from dbdeck.games.deckbuilding.tui.widgets.glyphs import styled

__all__ = ["LOG_STYLES", "TableLog"]

LOG_STYLES = {
    "damage": "red",
    "defeat": "bold red",
    "eliminate": "red",
    "game-over": "bold",
    "reveal": "bold",
    "turn": "bold",
    "roll": "cyan",
    "balls": "yellow",
    "undo": "italic",
    "note": "italic dim",
    "choice": "italic",
}
"""How the log draws each kind of line."""

KEPT = 2000
"""Lines kept (and re-wrapped) by the log."""

_STEAL = re.compile(r"(rolls \d+ Steal dice?: )(.*)\.$")


def faces(text: str) -> str:
    """A Steal roll's faces drawn as dice: ``[ ] [o] [x] [xo]``."""
    match = _STEAL.search(text)
    if match is None:
        return text
    mark = {"blank": " ", "ball": glyphs.ball(), "damage": "x", "damage+ball": "x" + glyphs.ball()}
    dice = " ".join(
        f"[{mark.get(face.strip(), face.strip())}]" for face in match.group(2).split(",")
    )
    return text[: match.start(2)] + dice + f" ({match.group(2)})."


class TableLog(RichLog):
    """The table's log. It keeps its lines, so that a new width re-wraps
    them all, and shows every one of them (``entries``) even before it is
    drawn."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(wrap=True, markup=False, min_width=20, **kwargs)
        self.entries: list[Text] = []
        """Every line written, as drawn."""
        self._laid_width = 0
        self._drawing_style: Style | None = None

    def render_lines(self, crop: Region) -> list[Strip]:
        """Draw the lines in ``crop``, working the widget's style out once
        for all of them (the log asks for it again on every line, and each
        time it is blended from every container above)."""
        self._drawing_style = super().rich_style
        try:
            return super().render_lines(crop)
        finally:
            self._drawing_style = None

    @property
    def rich_style(self) -> Style:
        """The widget's style; while lines are drawn, the one worked out for them."""
        drawing = self._drawing_style
        return drawing if drawing is not None else super().rich_style

    def add(self, line: LogLine) -> None:
        """Write one line of the game's log."""
        if line.kind == "reveal" and line.text.startswith("Turn-order card:"):
            who = line.text.removeprefix("Turn-order card:").strip().rstrip(".")
            self.say(styled(f"{who}", "bold"), rule=True)
            return
        text = faces(line.text) if line.kind == "roll" else line.text
        self.say(Text(text, style=LOG_STYLES.get(line.kind, "")))

    def say(self, text: Text, *, rule: bool = False) -> None:
        """Write a line (``rule``: as a heading across the log)."""
        if rule:
            text = Text.assemble(("-- " if glyphs.ASCII else "── "), text, " ")
            text.stylize("bold")
        self.entries.append(text)
        del self.entries[:-KEPT]
        self.write(text)

    def clear_all(self) -> None:
        """Forget every line."""
        self.entries = []
        self.clear()

    def on_resize(self, event: events.Resize) -> None:
        """Re-wrap every line to the new width."""
        width = self.scrollable_content_region.width
        if width and width != self._laid_width:
            self._laid_width = width
            self.clear()
            for text in self.entries:
                self.write(text)
