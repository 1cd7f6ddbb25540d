"""Text a card file may hold: printable, with no control character, escape
sequence or bidirectional override.

A pack's words reach other people's terminals (a shared table draws the
host's cards on every joined screen), so a card file is refused when any of
its texts could move a cursor, retitle a window, write a clipboard or turn
the line around. Markup such as ``[bold]`` is allowed: it is drawn
literally, never run.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["PRINTABLE_PATTERN", "UNPRINTABLE", "unprintable_in"]

UNPRINTABLE = "".join(
    (
        "\x00-\x1f",  # C0 controls, ESC among them
        "\x7f-\x9f",  # DEL and the C1 controls (CSI, OSC …)
        "\u061c",  # the Arabic letter mark
        "\u200e\u200f",  # left-to-right and right-to-left marks
        "\u202a-\u202e",  # embeddings and overrides
        "\u2066-\u2069",  # isolates
    )
)
"""The characters no card text may hold, as the ranges of a regex class."""

PRINTABLE_PATTERN = f"^[^{UNPRINTABLE}]*$"
"""What every card text must match (kept in the ready-made validator, so a
plain pattern rather than a function). The card models' ``Words`` type
applies it; this module needs no pydantic, so the card cache reads it too."""


def unprintable_in(text: str) -> str:
    """The first character of ``text`` that no card text may hold, in words
    (``""`` when there is none)."""
    found = _UNPRINTABLE.search(text)
    if found is None:
        return ""
    char = found.group()
    if char == "\x1b":
        what = "an escape character"
    elif unicodedata.category(char) == "Cc":
        what = "a control character"
    else:
        what = "a bidirectional mark"
    return f"U+{ord(char):04X} ({what}) at character {found.start() + 1}"


_UNPRINTABLE = re.compile(f"[{UNPRINTABLE}]")
