"""Events: what happened, in plain words and as data, for the log and the UI.

An event's words are written when something reads them, not when the rules
log it. Bots, searches and the simulator play thousands of actions and read
none of the log, and the words were most of an event's cost: every name is
a look-up in the catalog, and every verb agrees with its subject. So a rule
logs a *template* with its *words* (``Game.log``)::

    g.log("prepare", "{} prepares {} at Time {}.", CharacterRef(ch.id), Name(uid), slot)

and ``Event.text`` fills the template in on its first read, and keeps it.
A word is

* a ``str`` or an ``int``: itself;
* a holder (``CharacterRef``, ``VILLAIN`` …): its name;
* ``Name(uid)``: the name of a card, by its uid (a bare ``int`` is a number);
* ``Agree(who, one, many)``: a name and the verb that agrees with it
  ("Goku deals", "Androids 19 and 20 deal");
* ``Names(holders)``: several names, in a list ("Goku, Krillin").

Only what cannot change may be left to the reading: the names of holders and
cards (a game's catalog is fixed, and a uid's card id never changes). What
can change — a count of tokens, Remaining Health, Energy — is written into
the words as a value when the event is logged. The template itself is a
literal: a card's name or any other text goes in as a word, so a brace in it
is never read as a field.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, Final, final

from dbdeck.games.deckbuilding.engine.holders import HOLDER_TYPES, Holder
from dbdeck.games.deckbuilding.engine.words import agree

__all__ = ["Agree", "Event", "Name", "Namer", "Names", "Word", "starts_turn"]

Namer = Callable[[Holder | int], str]
"""Names a holder or a card uid in words (``Game.name``)."""


@final
class Name:
    """The name of a card, by its uid; or of a holder (a bare holder in the
    words names itself, so this is for uids)."""

    __slots__ = ("of",)

    def __init__(self, of: Holder | int) -> None:
        self.of: Final = of

    def __repr__(self) -> str:
        return f"Name({self.of!r})"

    def render(self, name: Namer) -> str:
        """The name in words."""
        return name(self.of)


@final
class Agree:
    """A name and the verb form that agrees with it (``words.agree``):
    "Goku deals", "Vegeta and Nappa deal". ``who`` is a holder, a card uid,
    or a name already in words ("The Characters")."""

    __slots__ = ("many", "one", "who")

    def __init__(self, who: Holder | int | str, one: str, many: str) -> None:
        self.who: Final = who
        self.one: Final = one
        self.many: Final = many

    def __repr__(self) -> str:
        return f"Agree({self.who!r}, {self.one!r}, {self.many!r})"

    def render(self, name: Namer) -> str:
        """The name and its verb in words."""
        who = self.who
        return agree(who if who.__class__ is str else name(who), self.one, self.many)  # type: ignore[arg-type]


@final
class Names:
    """Several names, joined by ``sep``: "Goku, Krillin". The holders are
    copied, as a task may change its list after the event is logged."""

    __slots__ = ("of", "sep")

    def __init__(self, of: Iterable[Holder | int], sep: str = ", ") -> None:
        self.of: Final = tuple(of)
        self.sep: Final = sep

    def __repr__(self) -> str:
        return f"Names({self.of!r}, {self.sep!r})"

    def render(self, name: Namer) -> str:
        """The names in words."""
        return self.sep.join(map(name, self.of))


Word = str | int | Holder | Name | Agree | Names
"""What fills one ``{}`` of a template (see the module's notes)."""

_PARTS: Final = (Name, Agree, Names)


def _word(word: Word, name: Namer) -> object:
    cls = word.__class__
    if cls in _PARTS:
        return word.render(name)  # type: ignore[union-attr]
    if cls in HOLDER_TYPES:
        return name(word)  # type: ignore[arg-type]
    # Anything else is written as an f-string would write it.
    return word


class Event:
    """One thing that happened during ``apply``.

    Made by ``Game.log``; read-only once logged. Its ``text`` is filled in
    from the template and words on first read (and kept), so an event costs
    little to make when nobody reads it. Copies, deep copies and pickles
    carry the written text, not the game that names the words.
    """

    __slots__ = ("_names", "_template", "_text", "_words", "data", "private_to", "type")

    type: str
    """A short kind: ``damage``, ``draw``, ``buy``, ``reveal``, ``roll`` …"""
    data: dict[str, Any]
    """Details for the UI (holder keys, card ids, dice faces …)."""
    private_to: str
    """A Character id when only that seat may see the details (a draw)."""

    def __init__(
        self,
        type: str,
        text: str,
        data: dict[str, Any] | None = None,
        private_to: str = "",
        words: tuple[Word, ...] = (),
        names: Namer | None = None,
    ) -> None:
        """An event of ``type``. Without ``words``, ``text`` is its words as
        they stand; with them, a template whose ``{}`` fields they fill, and
        ``names`` (``Game.name``) names their holders and cards."""
        self.type = type
        self.data = {} if data is None else data
        self.private_to = private_to
        self._template = text
        self._words = words
        self._names = names
        # Nothing to fill in: the text is written already.
        self._text: str | None = None if words else text

    @property
    def text(self) -> str:
        """The event in plain words."""
        text = self._text
        if text is None:
            names = self._names
            assert names is not None, "an event with words has a namer"
            text = self._text = self._template.format(*[_word(w, names) for w in self._words])
            # The words are spent: let go of them and of the game.
            self._words = ()
            self._names = None
        return text

    def to_json(self) -> dict[str, Any]:
        """The event as JSON data."""
        out: dict[str, Any] = {"type": self.type, "text": self.text, "data": self.data}
        if self.private_to:
            out["private_to"] = self.private_to
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (self.type, self.data, self.private_to, self.text) == (
            other.type,
            other.data,
            other.private_to,
            other.text,
        )

    __hash__ = None  # type: ignore[assignment]  # its data is a dict, as before

    def __repr__(self) -> str:
        return (
            f"Event(type={self.type!r}, text={self.text!r}, data={self.data!r}, "
            f"private_to={self.private_to!r})"
        )

    def __copy__(self) -> Event:
        twin = Event.__new__(Event)
        twin.type, twin.data, twin.private_to = self.type, self.data, self.private_to
        twin._template, twin._words, twin._names, twin._text = (
            self._template,
            self._words,
            self._names,
            self._text,
        )
        return twin

    def __reduce__(self) -> tuple[Any, tuple[str, str, dict[str, Any], str]]:
        # A deep copy or a pickle stands alone: it carries the written text.
        return Event, (self.type, self.text, self.data, self.private_to)


_TURN_CARD = re.compile(r"V?[0-9]+|W")
"""A turn-order card: a Character's number, a Villain card ``V1`` …, the Wildcard."""


def starts_turn(event: Event) -> bool:
    """Whether an event is the reveal of a turn-order card: a turn starting,
    as the game counts turns (a Villain revealing a card of its deck is not
    one)."""
    if event.type != "reveal":
        return False
    card = event.data.get("card")
    return isinstance(card, str) and _TURN_CARD.fullmatch(card) is not None
