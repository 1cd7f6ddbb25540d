"""The CCG table's glyphs: each has an ASCII twin, and no state is told by
colour alone (a mark or a word says it too, for ``NO_COLOR`` terminals).

ASCII mode (``DBDECK_ASCII=1``, or a terminal without Unicode) is read from
the environment when the screen is made; the app's ASCII filter turns
whatever else is drawn into ASCII cell for cell.
"""

from __future__ import annotations

import os

from rich.text import Text

from dbdeck.tui.keybar import styled
from dbdeck.tui.terminal import wants_ascii

__all__ = [
    "ASCII",
    "arrow",
    "ball",
    "bar",
    "ellipsis",
    "fit",
    "mark",
    "pack",
    "sep",
    "set_ascii",
    "styled",
]

ASCII = wants_ascii(os.environ)
"""Draw with ASCII only: ``DBDECK_ASCII``, else a locale or terminal
without Unicode (``dbdeck.tui.terminal``)."""


def set_ascii(on: bool) -> None:
    """Switch ASCII drawing on or off (the environment decides at start)."""
    global ASCII
    ASCII = on


def sep() -> str:
    """The separator between the parts of a line."""
    return "|" if ASCII else "│"


def ball() -> str:
    """The Dragon Ball glyph."""
    return "o" if ASCII else "●"


def arrow() -> str:
    """The attacker-to-defender arrow."""
    return "->" if ASCII else "→"


def ellipsis() -> str:
    """The mark of a cut name, or of an entry that asks a further question."""
    return "..." if ASCII else "…"


def mark() -> str:
    """The mark of the highlighted entry of a list, or of the line that says
    what the last change did."""
    return ">" if ASCII else "▶"


def bar(
    filled: int, width: int, *, full_style: str = "bold light_coral", empty_style: str = "dim"
) -> Text:
    """A gauge of ``width`` cells, ``filled`` of them full (``##---`` in ASCII)."""
    full, empty = ("#", "-") if ASCII else ("█", "░")
    filled = max(0, min(width, filled))
    text = Text()
    text.append(full * filled, style=full_style)
    text.append(empty * (width - filled), style=empty_style)
    return text


def fit(text: Text, width: int) -> Text:
    """``text`` cut to ``width`` cells, with an ellipsis when cut."""
    if text.cell_len <= width:
        return text
    if width <= 1:
        return text[:width]
    tail = "~" if ASCII else "…"
    cut = text[: width - 1]
    cut.append(tail)
    return cut


def pack(
    parts: list[Text],
    width: int,
    *,
    lead: Text | None = None,
    indent: int = 2,
    between: str = " ",
) -> Text:
    """Lay ``parts`` after ``lead`` on lines of ``width`` cells, ``between``
    apart (a space, or a separator), never cutting one in two: a part that
    does not fit starts a new line (indented by ``indent``); a part wider
    than a line stands on lines of its own (wrapped where it is drawn)."""
    width = max(width, indent + 4)
    lines: list[Text] = []
    line = lead.copy() if lead is not None else Text()
    bare = not line.plain.strip()
    for part in parts:
        if part.cell_len > width - indent:
            # Words longer than a line (a result, an attack) are never cut:
            # they stand on lines of their own, wrapped where they are drawn.
            if not bare:
                lines.append(line)
            lines.append(part)
            line, bare = Text(" " * indent), True
            continue
        gap = "" if bare or (line.plain.endswith(" ") and between == " ") else between
        if not bare and line.cell_len + len(gap) + part.cell_len > width:
            lines.append(line)
            line, bare, gap = Text(" " * indent), True, ""
        if gap:
            line.append(gap, style="dim")
        line.append_text(part)
        bare = False
    if not bare or not lines:
        lines.append(line)
    return Text("\n").join(lines)
