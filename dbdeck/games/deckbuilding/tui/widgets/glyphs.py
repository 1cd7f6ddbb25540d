"""The table's glyphs, colours and small pictures (health bars, tiles).

ASCII mode (``DBDECK_ASCII=1``, or a terminal without Unicode) draws with
ASCII only: every glyph here has an ASCII twin, and the Dragon Ball (``o``)
never looks like the mark of an exclusive card (``+``). Colours follow the
cards' border colours in the rulebook (Allies pink, Techniques blue, Energy
green, Equipment orange, Training yellow; the sixth pile cyan), chosen so
that at 16 colours each market still has its own (no two reds). Nothing
here relies on colour alone: a tile's state also shows as a word or a
mark, for ``NO_COLOR`` terminals.
"""

from __future__ import annotations

import functools
import os

from rich.style import Style
from rich.text import Text

from dbdeck.games.deckbuilding.engine.panels import CardView, Health
from dbdeck.tui.keybar import styled
from dbdeck.tui.terminal import wants_ascii

__all__ = [
    "ASCII",
    "TILE_COLOURS",
    "ball",
    "bar",
    "card_text",
    "ellipsis",
    "exclusive_mark",
    "fit",
    "health_bar",
    "more",
    "pack",
    "sep",
    "set_ascii",
    "star",
    "styled",
]

ASCII = wants_ascii(os.environ)
"""Draw with ASCII only (no block, star or box glyphs): ``DBDECK_ASCII``,
else a locale or terminal without Unicode (``tui/terminal.py``)."""


def set_ascii(on: bool) -> None:
    """Switch ASCII drawing on or off (the environment decides at start)."""
    global ASCII
    ASCII = on


TILE_COLOURS = {
    "allies": "hot_pink",
    "techniques": "dodger_blue1",
    "energy": "green3",
    "equipment": "dark_orange",
    "training": "yellow1",
    "sixth": "cyan",
}
"""Each market's colour. Down to 256 colours they are the cards' own; at 16
colours they become bright magenta, bright blue, green, bright red, bright
yellow and cyan: six different colours still."""


def ball() -> str:
    """The Dragon Ball glyph."""
    return "o" if ASCII else "●"


def star() -> str:
    """The star of a Dragon Ball's number."""
    return "*" if ASCII else "★"


def exclusive_mark() -> str:
    """The mark of a card exclusive to a race or Character."""
    return "+" if ASCII else "◆"


def outcome() -> str:
    """The mark of the line that says what the last change did."""
    return ">" if ASCII else "▸"


def sep() -> str:
    """The separator between parts of a line."""
    return "|" if ASCII else "·"


def ellipsis() -> str:
    """The mark of a cut name."""
    return "~" if ASCII else "…"


def more() -> str:
    """The mark of a line that asks a further question (a target, a slot)."""
    return "..." if ASCII else "…"


def bar(filled: int, width: int) -> Text:
    """A bar of ``width`` cells, ``filled`` of them full."""
    full, empty = ("#", "-") if ASCII else ("█", "░")
    filled = max(0, min(width, filled))
    text = Text()
    text.append(full * filled, style="green")
    text.append(empty * (width - filled), style="red")
    return text


def health_bar(health: Health, width: int) -> Text:
    """Health as the table reads it everywhere: a bar that drains with the
    damage taken, then ``left/maximum`` (a fresh Goku: ``██████████ 10/10``)."""
    maximum = max(health.maximum, 1)
    text = bar(round(width * health.remaining / maximum), width)
    text.append(f" {health.remaining}/{health.maximum}")
    return text


def card_text(card: CardView, where: str, style: str | Style = "") -> Text:
    """A card's name carrying its uid, so that a click can say which card."""
    return Text(card.name, style=_card_style(card.uid, where, style))


@functools.lru_cache(maxsize=4096)
def _card_style(uid: int, where: str, style: str | Style) -> Style:
    """The style of a card's name, made once per card and place: a style with
    a click's data is costly to build, and the renderer's caches know a
    style they have seen (a redraw draws the same cards again)."""
    base = Style.parse(style) if isinstance(style, str) else style
    return base + Style(meta={"uid": uid, "where": where})


def fit(text: Text, width: int) -> Text:
    """``text`` cut to ``width`` cells, with an ellipsis when cut."""
    if text.cell_len <= width:
        return text
    if width <= 1:
        return text[:width]
    cut = text[: width - 1]
    cut.append(ellipsis())
    return cut


def pack(parts: list[Text], width: int, *, lead: Text | None = None, indent: int = 0) -> Text:
    """Lay ``parts`` (tiles) after ``lead`` on lines of ``width`` cells, one
    space apart, never cutting one in two: a part that does not fit starts
    a new line (indented by ``indent``); a part wider than a line is cut."""
    width = max(width, indent + 4)
    lines: list[Text] = []
    line = lead.copy() if lead is not None else Text()
    bare = not line.plain.strip()  # nothing on this line yet
    for part in parts:
        gap = 0 if bare or line.plain.endswith(" ") else 1
        if not bare and line.cell_len + gap + part.cell_len > width:
            lines.append(line)
            line, bare, gap = Text(" " * indent), True, 0
        if gap:
            line.append(" ")
        line.append_text(fit(part, max(1, width - line.cell_len)))
        bare = False
    lines.append(line)
    return Text("\n").join(lines)
