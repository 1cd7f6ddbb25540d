"""ASCII mode (``DBDECK_ASCII=1``): nothing reaches the terminal but ASCII.

The table's own glyphs have ASCII twins (``widgets/glyphs.py``); this line
filter makes sure of the rest, Textual's own drawing included (borders,
scrollbars, check boxes, the header's icon): every character outside ASCII
is turned into the ASCII character that looks most like it, cell for cell,
so that columns stay where they were.
"""

from __future__ import annotations

import unicodedata

from rich.cells import cell_len
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

__all__ = ["AsciiFilter", "to_ascii"]

_SAME = {
    "●": "o",
    "○": ".",
    "◆": "+",
    "★": "*",
    "☆": "*",
    "·": ".",
    "…": ".",
    "—": "-",
    "–": "-",
    "→": ">",
    "←": "<",
    "↑": "^",
    "↓": "v",
    "✓": "v",
    "✔": "v",
    "✗": "x",
    "✘": "x",
    "×": "x",
    "⭘": "O",
    "█": "#",
    "▓": "#",
    "▒": "=",
    "░": "-",
    "▀": "-",
    "▄": "_",
    "▔": "-",
    "▁": "_",
    "▂": "_",
    "▃": "_",
    "▅": "#",
    "▆": "#",
    "▇": "#",
    "▉": "|",
    "▊": "|",
    "▋": "|",
    "▌": "|",
    "▍": "|",
    "▎": "|",
    "▏": "|",
    "▐": "|",
    "▕": "|",
    "\u00a0": " ",
}
"""Characters and their ASCII look-alikes."""


def _box(char: str) -> str:
    """A box-drawing character as ``-``, ``|`` or ``+``."""
    name = unicodedata.name(char, "")
    horizontal = "HORIZONTAL" in name
    vertical = "VERTICAL" in name
    if horizontal and not vertical:
        return "-"
    if vertical and not horizontal:
        return "|"
    return "+"


def to_ascii(text: str) -> str:
    """``text`` in ASCII, one look-alike per cell."""
    if text.isascii():
        return text
    out = []
    for char in text:
        if char.isascii():
            out.append(char)
        elif char in _SAME:
            out.append(_SAME[char])
        elif "\u2500" <= char <= "\u257f":
            out.append(_box(char))
        else:
            plain = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
            width = cell_len(char)
            out.append((plain or "?")[:1] * max(width, 1) if width else "")
    return "".join(out)


class AsciiFilter(LineFilter):
    """A line filter that leaves only ASCII in what is drawn."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        """Every segment's text in ASCII, its style kept."""
        return [
            segment
            if segment.control or segment.text.isascii()
            else Segment(to_ascii(segment.text), segment.style)
            for segment in segments
        ]
