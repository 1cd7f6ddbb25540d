"""A deck resolved for the checks, and what they report: the deck's lines
with their card facts (``DeckView``, ``Entry``), the findings the checks add
(``Report``) and the verdict that comes out (``Verdict``, ``Finding``).

Every family of rules in ``dbdeck.games.ccg.checks`` reads and writes these, and
the checker builds them, so they live below both.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from dbdeck.games.ccg.deckfile import CardLine, DeckFile, Section
from dbdeck.games.ccg.facts import Facts
from dbdeck.games.ccg.kinds import Alignment
from dbdeck.games.ccg.library import Library
from dbdeck.games.ccg.profiles import Profile
from dbdeck.games.ccg.rules import applies, source
from dbdeck.games.ccg.titles import fold

__all__ = ["DeckView", "Entry", "Finding", "Report", "Verdict"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem or warning: a line, a rule, what is wrong and the source."""

    line: int
    """The line of the deck file, from 1; 0 for the deck as a whole."""
    rule: str
    """The rule's id."""
    message: str
    """What is wrong, in words."""
    source: str
    """The rule's source under the profile checked."""

    def as_line(self, deck: str, *, warning: bool = False) -> str:
        """``DECK:LINE: RULE-ID: message (source)`` (``DECK:LINE: warning:
        RULE-ID: …`` for a warning)."""
        kind = "warning: " if warning else ""
        return f"{deck}:{self.line}: {kind}{self.rule}: {self.message} ({self.source})"

    def to_json(self) -> dict[str, Any]:
        """``{line, rule, message, source}``."""
        return {
            "line": self.line,
            "rule": self.rule,
            "message": self.message,
            "source": self.source,
        }


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the checker says of one deck."""

    profile: str
    problems: tuple[Finding, ...]
    warnings: tuple[Finding, ...]
    cards: int
    """The deck's size as the size rules count it."""

    @property
    def legal(self) -> bool:
        """No problem (warnings allowed)."""
        return not self.problems


class Report:
    """What the checks report, each finding tagged with its rule's source."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.problems: list[Finding] = []
        self.warnings: list[Finding] = []

    def applies(self, rule: str) -> bool:
        """Whether the profile has the rule."""
        return applies(rule, self.profile.name)

    def source(self, rule: str) -> str:
        """The rule's source under the profile."""
        return source(rule, self.profile.name)

    def problem(self, rule: str, line: int, message: str, *, cited: str | None = None) -> None:
        """A problem of ``rule`` (which the profile must have), citing the
        rule's source, or ``cited`` when the passage behind this one finding
        is another (a card clarification, one paragraph of the digest)."""
        self.problems.append(Finding(line, rule, message, cited or self.source(rule)))

    def warning(self, rule: str, line: int, message: str, *, cited: str | None = None) -> None:
        """A warning of ``rule``, citing as ``problem`` does."""
        self.warnings.append(Finding(line, rule, message, cited or self.source(rule)))


@dataclass(frozen=True, slots=True)
class Entry:
    """A card line resolved to facts."""

    line: CardLine
    facts: Facts

    @property
    def count(self) -> int:
        """Copies on the line."""
        return self.line.count

    @property
    def at(self) -> int:
        """The line number."""
        return self.line.line


@dataclass(slots=True)
class DeckView:
    """A deck resolved under one profile: what every check reads.

    ``entries`` is set once, before any check reads the deck: what is
    derived from the Main Personality is worked out on first reading and
    kept, since checks ask for it once per line of the deck."""

    file: DeckFile
    library: Library
    profile: Profile
    tournament: bool
    entries: list[Entry] = field(default_factory=list)
    declared: str | None = None
    """The declared style, spelled as the rules spell it; ``None`` for none
    (or for a declaration that is no style: ``TW-STYLE`` reports it)."""
    _mp: tuple[str | None, str | None, list[Entry]] | None = field(
        default=None, init=False, repr=False
    )
    """The Main Personality's character, its folded name and its cards, once read."""
    _close: dict[str, list[str]] = field(default_factory=dict, init=False, repr=False)
    """Known titles close to each unknown title, by folded title."""

    def section(self, section: Section) -> list[Entry]:
        """The lines of a section that hold at least one copy."""
        return [e for e in self.entries if e.line.section == section and e.count > 0]

    def counted(self) -> Iterator[Entry]:
        """The lines the size rules count: the Main Personality, the
        Mastery, the Sensei and the Life Deck (not the Sensei Deck)."""
        for entry in self.entries:
            if entry.count > 0 and entry.line.section != "Sensei Deck":
                yield entry

    @property
    def size(self) -> int:
        """The deck's size as the size rules count it."""
        return sum(e.count for e in self.counted())

    @property
    def main_personality(self) -> list[Entry]:
        """The Main Personality's personality cards."""
        return [e for e in self.section("Main Personality") if e.facts.is_personality]

    def _main(self) -> tuple[str | None, str | None, list[Entry]]:
        """The Main Personality's character (the one most of its cards are
        of, the first such on a tie), its folded name and its cards."""
        if self._mp is None:
            cards = self.main_personality
            names = [e.facts.personality for e in cards if e.facts.personality]
            if not names:
                self._mp = (None, None, [])
            else:
                counts = Counter(fold(n) for n in names)
                name = max(names, key=lambda n: counts[fold(n)])
                key = fold(name)
                mine = [
                    e for e in cards if e.facts.personality and fold(e.facts.personality) == key
                ]
                self._mp = (name, key, mine)
        return self._mp

    @property
    def mp_name(self) -> str | None:
        """The Main Personality's character: the one most of its cards are
        of (the first such, on a tie)."""
        return self._main()[0]

    @property
    def has_sensei_deck(self) -> bool:
        """Whether the profile's rules know Sensei Decks (else the
        ``[Sensei Deck]`` is no part of the deck)."""
        return applies("SENSEI-ONE", self.profile.name)

    def in_deck(self) -> Iterator[Entry]:
        """Every line with a copy that is part of the deck: every section,
        the Sensei Deck only under the rules that have one."""
        for entry in self.entries:
            if entry.count > 0 and (entry.line.section != "Sensei Deck" or self.has_sensei_deck):
                yield entry

    def is_mp(self, name: str | None) -> bool:
        """Whether ``name`` is the Main Personality's character."""
        key = self._main()[1]
        return name is not None and key is not None and fold(name) == key

    @property
    def mp_cards(self) -> list[Entry]:
        """The Main Personality cards of its one character."""
        return list(self._main()[2])

    @property
    def mp_levels(self) -> set[int]:
        """Every level the Main Personality's cards cover."""
        return {level for e in self.mp_cards for level in e.facts.levels}

    @property
    def mp_alignment(self) -> Alignment | None:
        """The Main Personality's alignment (``rogue`` under the digest)."""
        known = [e.facts.alignment for e in self.mp_cards if e.facts.alignment is not None]
        return known[0] if known else None

    @property
    def allies(self) -> list[Entry]:
        """The Life Deck's personality cards: the Allies."""
        return [e for e in self.section("Life Deck") if e.facts.is_personality]

    def header(self, section: Section) -> int:
        """The line of a section's header, or 0."""
        return self.file.headers.get(section, 0)
