"""The deck file: a plain text format a person can type (``docs/ccg/decks.md``).

::

    # Goku, Saiyan Saga. Lines: QUANTITY TITLE, optionally (SAGA #NUMBER).
    [Tokui-Waza]
    Orange
    [Main Personality]
    1 Goku Level 1
    [Life Deck]
    3 Orange Standing Fist Punch
    1 Earth Dragon Ball 3 (Saiyan #75)

Parsing never fails: a line it cannot read becomes a format problem at that
line, and the rest of the deck is still read. Only a file that cannot be read
at all (missing, not a regular file, too large, not UTF-8) is refused, with
``DeckUnreadable``. A parsed deck keeps its text, so that a count changed in
the deck screen is saved with every other line, comment and blank as it was.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

from dbdeck.games.ccg.titles import quoted
from dbdeck.packs.reading import InputRefused, decode_utf8, read_regular_file

__all__ = [
    "MAX_COUNT",
    "MAX_DECK_BYTES",
    "SECTIONS",
    "CardLine",
    "DeckFile",
    "DeckUnreadable",
    "FormatProblem",
    "Section",
    "parse_deck",
    "read_deck",
]

Section = Literal["Tokui-Waza", "Main Personality", "Mastery", "Sensei", "Sensei Deck", "Life Deck"]
"""A deck file's sections."""

SECTIONS: Final[tuple[Section, ...]] = (
    "Tokui-Waza",
    "Main Personality",
    "Mastery",
    "Sensei",
    "Sensei Deck",
    "Life Deck",
)
"""Every section, in the order a new deck file lists them."""

MAX_DECK_BYTES: Final = 256 * 1024
"""The largest deck file read (a 90-card deck takes about 3 KB)."""
MAX_LINES: Final = 5000
"""Lines read from a deck file; the rest are one format problem."""
MAX_LINE: Final = 300
"""Characters of a line read; a longer line is a format problem."""
MAX_COUNT: Final = 999
"""The largest quantity a line may give."""

_HEADER = re.compile(r"^\[(?P<name>[^\]]*)\]$")
_QUANTITY = re.compile(r"^(?P<count>[0-9]+)\s+(?P<rest>\S.*)$")
_PRINTING = re.compile(
    r"\s*\((?P<saga>[A-Za-z][A-Za-z'. -]{0,39}?)(?:\s+saga)?\s+"
    r"(?:#\s*(?P<number>[0-9]{1,4})|(?P<kind>promo|preview)\s*#?\s*(?P<extra>[0-9]{1,3}))\)$",
    re.IGNORECASE,
)


class DeckUnreadable(Exception):
    """The deck file cannot be read at all; the message says why."""


@dataclass(frozen=True, slots=True)
class FormatProblem:
    """A line the format cannot read."""

    line: int
    """The line, from 1."""
    message: str
    """What is wrong, in words."""


@dataclass(frozen=True, slots=True)
class CardLine:
    """``QUANTITY TITLE (SAGA #NUMBER)`` in a section."""

    line: int
    """The line, from 1."""
    section: Section
    """The section it is in."""
    count: int
    """How many copies."""
    title: str
    """The title as written (spaces tidied, printing left out)."""
    saga: str | None = None
    """The saga given in parentheses, if any."""
    number: str | None = None
    """The number given in parentheses (``75``, ``Promo 1``), if any."""


@dataclass(slots=True)
class DeckFile:
    """A parsed deck file."""

    text_lines: list[str]
    """The file's lines, as read (without line ends)."""
    cards: list[CardLine] = field(default_factory=list)
    """Every card line, in file order."""
    tokui_waza: str | None = None
    """The declared style as written, or ``None``."""
    tokui_waza_line: int | None = None
    """The line of the declaration."""
    headers: dict[Section, int] = field(default_factory=dict)
    """The line of each section's first header."""
    problems: list[FormatProblem] = field(default_factory=list)
    """Lines the format cannot read."""

    def in_section(self, section: Section) -> list[CardLine]:
        """The card lines of one section."""
        return [c for c in self.cards if c.section == section]

    def text(self) -> str:
        """The deck as text, as it would be saved."""
        return "".join(line + "\n" for line in self.text_lines)

    def with_count(self, line: int, count: int) -> DeckFile:
        """The deck with the quantity of the card line at ``line`` changed."""
        count = max(0, min(MAX_COUNT, count))
        lines = list(self.text_lines)
        old = lines[line - 1]
        match = re.match(r"^(\s*)([0-9]+)", old)
        if match is None:
            raise ValueError(f"line {line} is not a card line")
        lines[line - 1] = match[1] + str(count) + old[match.end() :]
        return parse_deck("\n".join(lines))

    def with_card(self, section: Section, count: int, title: str) -> DeckFile:
        """The deck with a card line added at the end of ``section`` (the
        section is added at the end of the file if it has no header)."""
        entry = f"{max(0, min(MAX_COUNT, count))} {title.strip()}"
        lines = list(self.text_lines)
        if section not in self.headers:
            if lines and lines[-1].strip():
                lines.append("")
            lines += [f"[{section}]", entry]
            return parse_deck("\n".join(lines))
        start = self.headers[section]
        end = start
        for index in range(start, len(lines)):
            if _HEADER.match(lines[index].strip()):
                break
            if _content(lines[index]):
                end = index + 1
        lines.insert(end, entry)
        return parse_deck("\n".join(lines))


def read_deck(path: Path) -> DeckFile:
    """Read and parse a deck file; ``DeckUnreadable`` when it cannot be read."""
    try:
        data = read_regular_file(path, MAX_DECK_BYTES)
        text = decode_utf8(data)
    except InputRefused as exc:
        raise DeckUnreadable(str(exc)) from None
    return parse_deck(text)


def _content(line: str) -> str:
    """A line without its comment, spaces tidied. A ``#`` outside
    parentheses starts a comment; inside them it starts a card number."""
    depth = 0
    for index, char in enumerate(line):
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        elif char == "#" and depth == 0:
            line = line[:index]
            break
    return " ".join(line.split())


def _section_of(name: str) -> Section | None:
    key = re.sub(r"[\s_-]+", "", name).casefold()
    return next((s for s in SECTIONS if re.sub(r"[\s-]+", "", s).casefold() == key), None)


def parse_deck(text: str) -> DeckFile:
    """Parse deck text; format problems are collected, never raised."""
    text = text.removeprefix("\ufeff")
    lines = text.splitlines()
    deck = DeckFile(text_lines=lines)
    if len(lines) > MAX_LINES:
        deck.problems.append(
            FormatProblem(MAX_LINES + 1, f"more than {MAX_LINES} lines; the rest is not read")
        )
    section: Section | None = None
    skipping = False  # under an unknown header: said once, at the header
    for number, raw in enumerate(lines[:MAX_LINES], start=1):
        if len(raw) > MAX_LINE:
            deck.problems.append(
                FormatProblem(number, f"a line of more than {MAX_LINE} characters")
            )
            continue
        line = _content(raw)
        if not line:
            continue
        header = _HEADER.match(line)
        if header is not None:
            found = _section_of(header["name"])
            if found is None:
                known = ", ".join(f"[{s}]" for s in SECTIONS)
                deck.problems.append(
                    FormatProblem(
                        number,
                        f"unknown section {quoted(line)}, whose lines are not read; "
                        f"sections: {known}",
                    )
                )
                section, skipping = None, True
                continue
            section, skipping = found, False
            deck.headers.setdefault(found, number)
            continue
        if skipping:
            continue
        if section is None:
            deck.problems.append(
                FormatProblem(
                    number, "a line before any section: start with a header, e.g. [Life Deck]"
                )
            )
            continue
        if section == "Tokui-Waza":
            _declare(deck, number, line)
            continue
        _card(deck, section, number, line)
    return deck


def _declare(deck: DeckFile, number: int, line: str) -> None:
    if deck.tokui_waza_line is not None:
        deck.problems.append(
            FormatProblem(number, "[Tokui-Waza] holds one line: the declared style")
        )
        return
    deck.tokui_waza_line = number
    if line.casefold() != "none":
        deck.tokui_waza = line


def _card(deck: DeckFile, section: Section, number: int, line: str) -> None:
    match = _QUANTITY.match(line)
    if match is None:
        deck.problems.append(
            FormatProblem(
                number, f"expected QUANTITY TITLE, e.g. '3 Senzu Bean', not {quoted(line)}"
            )
        )
        return
    count = int(match["count"])
    if count > MAX_COUNT:
        deck.problems.append(FormatProblem(number, f"a quantity of at most {MAX_COUNT}"))
        return
    title, saga, card_number = match["rest"], None, None
    printing = _PRINTING.search(title)
    if printing is not None and printing.start() > 0:
        title = title[: printing.start()].strip()
        saga = printing["saga"].strip().title()
        card_number = (
            str(int(printing["number"]))
            if printing["number"] is not None
            else f"{printing['kind'].capitalize()} {int(printing['extra'])}"
        )
    deck.cards.append(CardLine(number, section, count, title, saga, card_number))
