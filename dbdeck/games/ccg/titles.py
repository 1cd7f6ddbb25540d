"""How card titles are compared and what a title alone says about a card.

A person types a title from memory, so titles match ignoring case, curly
versus straight apostrophes and repeated spaces. Several rules read the title
itself: its first word is its martial arts style ("Martial Arts Style Cards"
in the errata of 7 June 2001), a personality's name in it makes it a named
card ("Named Cards"), a Drill's title ends with "Drill" and a Move card's
title holds the word "Move".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Final, Literal

from dbdeck.packs.reading import one_line

__all__ = [
    "DECLARABLE",
    "STYLES",
    "Style",
    "article",
    "counted",
    "fold",
    "is_drill_title",
    "is_move_title",
    "mastery_style",
    "names_character",
    "personality_form",
    "quoted",
    "style_of",
]

Style = Literal["Red", "Blue", "Orange", "Black", "Saiyan", "Namekian"]
"""The six martial arts styles a title may begin with."""

STYLES: Final[tuple[Style, ...]] = ("Red", "Blue", "Orange", "Black", "Saiyan", "Namekian")
"""The martial arts styles, as the errata of 7 June 2001 lists them (Tokui-Waza 1)."""

DECLARABLE: Final[tuple[str, ...]] = (*STYLES, "Freestyle")
"""What a deck's ``[Tokui-Waza]`` may declare (Freestyle only under the digest)."""

_APOSTROPHES = str.maketrans({c: "'" for c in "\u2018\u2019\u201b\u02bc\u02bb\u0060\u00b4\u2032"})
_QUOTES = str.maketrans({c: '"' for c in "\u201c\u201d\u201e\u201f\u2033"})
_SPACES = re.compile(r"\s+")


def fold(title: str) -> str:
    """``title`` in the form titles are compared in: Unicode-normalised,
    case-folded, curly apostrophes and quotes made straight, every run of
    white space one space, no space at either end."""
    text = unicodedata.normalize("NFKC", title).translate(_APOSTROPHES).translate(_QUOTES)
    return _SPACES.sub(" ", text).strip().casefold()


def _first_word(title: str) -> str:
    # "Orange Fighting Style-Standing Fist Punch": the style is the first word
    # whether a space or a hyphen ends it.
    words = re.split(r"[\s\-]+", unicodedata.normalize("NFKC", title).strip(), maxsplit=1)
    return words[0].casefold() if words else ""


def style_of(title: str) -> Style | None:
    """The martial arts style of a title: its first word when that is one of
    the six styles, else ``None`` (a style-less card)."""
    first = _first_word(title)
    return next((s for s in STYLES if s.casefold() == first), None)


def mastery_style(title: str) -> str | None:
    """The style a Mastery's title gives it: one of the six, or Freestyle."""
    style = style_of(title)
    if style is not None:
        return style
    return "Freestyle" if _first_word(title) in ("freestyle", "free-style") else None


def is_drill_title(title: str) -> bool:
    """Whether the title ends with the word "Drill" ("Drill Cards")."""
    return fold(title).endswith(" drill") or fold(title) == "drill"


def is_move_title(title: str) -> bool:
    """Whether the title holds the word "Move" (a Move card, "Tokui-Waza 1")."""
    return re.search(r"(?<![\w'])move(?![\w])", fold(title)) is not None


_PERSONALITY = re.compile(r"^(?P<name>.+?),?\s+level\s+(?P<level>\d{1,2})$", re.IGNORECASE)


def personality_form(title: str) -> tuple[str, int] | None:
    """``(NAME, N)`` when the title is written ``NAME Level N``, else ``None``."""
    match = _PERSONALITY.match(_SPACES.sub(" ", title.strip()))
    if match is None:
        return None
    level = int(match["level"])
    return (match["name"].strip(), level) if level >= 1 else None


def _name_pattern(name: str) -> re.Pattern[str]:
    # A name is a run of whole words: "Goku" is in "Goku's Touch" but not in
    # "Gokuu"; "Chi-Chi" and "Garlic Jr." keep their punctuation.
    return re.compile(r"(?<![\w])" + re.escape(fold(name)) + r"(?![\w])")


def names_character(text: str, name: str, *, apart: Iterable[str] = ()) -> bool:
    """Whether ``text`` (a title or a card's text) names the character
    ``name``. Occurrences inside any name of ``apart`` (longer names of other
    characters, such as "Majin Vegeta" for "Vegeta") do not count."""
    folded = fold(text)
    for other in apart:
        if fold(other) != fold(name):
            folded = _name_pattern(other).sub(" ", folded)
    return _name_pattern(name).search(folded) is not None


def quoted(text: str) -> str:
    """``text`` in single quotes for a message, every character a terminal
    could take for a control escaped (titles come from the user's files)."""
    clipped = text if len(text) <= 120 else text[:119] + "…"
    return f"'{one_line(clipped)}'"


def article(word: object) -> str:
    """The word with its indefinite article: "an Orange", "a Blue"."""
    text = str(word)
    return f"{'an' if text[:1].lower() in 'aeiou' else 'a'} {text}"


def counted(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless ``n`` is 1: "1 problem", "2 warnings"."""
    return f"{n} {noun}{'' if n == 1 else 's'}"
