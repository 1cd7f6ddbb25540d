"""The CCG card library: shipped identities, characters, reference lists and
rulings, with the user's packs on top, loaded into plain immutable records.

Shipped data lives in ``cards/ccg/``; packs are folders of ``*.ccg.json``
files named by ``--pack DIR`` or ``DBDECK_PACKS`` (the same variable as the
first game's packs: each game reads only its own files). A pack folder's
``physical-attack-table.ccg.json`` is a Physical Attack Table, not cards
(rules notes, T1); one table at most across the packs. Files are read with
the first game's bounded readers, and every problem is one line
``FILE: card 'ID': field.path: message``, collected, never raised one by one.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

from dbdeck.games.ccg.attack_table import TABLE_FILE, PhysicalAttackTable, table_problems
from dbdeck.games.ccg.library_cache import LibraryCache
from dbdeck.games.ccg.titles import fold, personality_form, style_of
from dbdeck.packs.reading import (
    MAX_CARD_FILE_BYTES,
    CardSetError,
    InputRefused,
    Problem,
    decode_utf8,
    files_below,
    json_limits_problem,
    pack_dirs_from_env,
    read_regular_file,
    shipped_cards_dir,
    validation_problems,
)

if TYPE_CHECKING:
    # The models (and pydantic) are imported only to validate: a library the
    # cache answers, with no pack on top, never loads them.
    from pydantic import BaseModel, TypeAdapter

    from dbdeck.games.ccg.kinds import Alignment, CardType
    from dbdeck.games.ccg.models import Identity, PackCard

__all__ = [
    "CardRecord",
    "CharacterRecord",
    "Library",
    "ListRecord",
    "RulingRecord",
    "load_library",
    "read_attack_table",
    "shipped_ccg_dir",
]

CCG_SUFFIX = ".ccg.json"
"""How this game's card files end: one pack folder (and ``cards/`` itself)
may hold both games' files, and each game reads only its own."""

_Model = TypeVar("_Model", bound="BaseModel")


@dataclass(frozen=True, slots=True)
class CardRecord:
    """One card: what the sources say of it, and what a pack adds."""

    id: str
    title: str
    saga: str | None
    number: str | None
    type: CardType | None
    personality: str | None
    level: int | None
    alignment: Alignment | None
    dragon_ball: tuple[str, int] | None
    """``("Earth", 3)`` for Earth Dragon Ball 3."""
    also_written: tuple[str, ...] = ()
    other_numbers: tuple[str, ...] = ()
    seen_in: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    shipped: bool = True
    """Whether the card is one of the shipped identities."""
    pack_file: str | None = None
    """The pack file that gave facts of this card, if one did."""
    pur: int | None = None
    power_stages: tuple[int, ...] = ()
    endurance: int | None = None
    text: str = ""
    levels: tuple[int, ...] = ()
    high_tech: bool = False
    fusion: bool = False
    sensei_capacity: int | None = None
    for_sensei_deck: bool = False
    only: tuple[str, ...] = ()
    limit_one_per_deck: bool = False
    unless_main_personality: str | None = None
    battle_simulator: bool = False
    starter_kid_trunks_ally: bool = False

    @property
    def style(self) -> str | None:
        """The martial arts style: the title's first word, when it is one."""
        return style_of(self.title)

    @property
    def printing(self) -> str:
        """``Saiyan #75``, ``Frieza Promo 1`` or ``""``."""
        if self.saga is None:
            return ""
        if self.number is None:
            return self.saga
        hash_ = "" if self.number[0].isalpha() else "#"
        return f"{self.saga} {hash_}{self.number}"

    @property
    def all_levels(self) -> tuple[int, ...]:
        """Every level of a personality card (one, or a multi-level card's)."""
        if self.levels:
            return self.levels
        return (self.level,) if self.level is not None else ()


@dataclass(frozen=True, slots=True)
class CharacterRecord:
    """A personality the sources name."""

    name: str
    alignment: Alignment | None
    source: str
    named_in: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ListRecord:
    """A reference list with its source."""

    id: str
    title: str
    source: str
    of: str
    entries: tuple[str, ...]
    pairs: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RulingRecord:
    """A ruling of 7 June 2001 on one card."""

    card: str
    source: str
    summary: str
    facts: tuple[Mapping[str, Any], ...]
    """Each fact as a mapping with its ``fact`` kind and fields."""

    def has(self, kind: str) -> bool:
        """Whether the ruling establishes a fact of this kind."""
        return any(f["fact"] == kind for f in self.facts)


@dataclass(frozen=True, slots=True)
class Library:
    """Every CCG card, character, list and ruling known. Immutable."""

    cards: Mapping[str, CardRecord]
    characters: Mapping[str, CharacterRecord]
    """By folded name."""
    lists: Mapping[str, ListRecord]
    rulings: Mapping[str, tuple[RulingRecord, ...]]
    """By card id."""
    titles: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Card ids by every folded way of writing their title."""
    attack_table: PhysicalAttackTable | None = None
    """The Physical Attack Table a pack gives, if one does."""
    attack_table_file: str | None = None
    """The file it comes from."""

    def find(self, title: str) -> tuple[CardRecord, ...]:
        """The cards a title (or another known spelling of it) names."""
        return tuple(self.cards[i] for i in self.titles.get(fold(title), ()))

    def character(self, name: str) -> CharacterRecord | None:
        """The personality of this name, if the sources name it."""
        return self.characters.get(fold(name))

    def reference(self, list_id: str) -> ListRecord:
        """A reference list by id."""
        return self.lists[list_id]

    def rulings_on(self, card_id: str) -> tuple[RulingRecord, ...]:
        """The rulings on a card."""
        return self.rulings.get(card_id, ())

    def suggestions(self, title: str, n: int = 3) -> list[str]:
        """Known titles close to ``title``, best first."""
        import difflib

        folded = fold(title)
        close = difflib.get_close_matches(folded, list(self.titles), n=n * 3, cutoff=0.6)
        seen: list[str] = []
        for key in close:
            for card_id in self.titles[key]:
                shown = self.cards[card_id].title
                if shown not in seen:
                    seen.append(shown)
        return seen[:n]


def shipped_ccg_dir() -> Path:
    """The folder of the shipped CCG data (``cards/ccg``)."""
    return shipped_cards_dir() / "ccg"


def load_library(
    packs: Iterable[Path] = (),
    *,
    include_env_packs: bool = True,
    shipped: Path | None = None,
) -> Library:
    """The shipped data with ``packs`` (and ``DBDECK_PACKS``) on top.

    Raises ``CardSetError`` listing every problem of the shipped files and
    packs.
    """
    base = _shipped(shipped or shipped_ccg_dir())
    folders = list(packs) + (pack_dirs_from_env() if include_env_packs else [])
    if not folders:
        return base
    from dbdeck.games.ccg.models import PackFile

    problems: list[Problem] = []
    loaded: list[tuple[str, PackCard]] = []
    table: tuple[str, PhysicalAttackTable] | None = None
    for folder in folders:
        if not folder.is_dir():
            problems.append(Problem(str(folder), "not a folder of card files"))
            continue
        files, unreadable = files_below(folder, CCG_SUFFIX)
        problems += [Problem(str(path), message) for path, message in unreadable]
        for path in files:
            if path.name == TABLE_FILE:
                found = _attack_table(path, problems)
                if found is not None and table is not None:
                    problems.append(
                        Problem(
                            str(path),
                            f"a second Physical Attack Table: {table[0]} gives one already",
                        )
                    )
                elif found is not None:
                    table = (str(path), found)
                continue
            parsed = _read(path, PackFile, problems)
            if parsed is not None:
                loaded += [(str(path), card) for card in parsed.cards]
    cards = dict(base.cards)
    from_pack: dict[str, str] = {}
    for file, card in loaded:
        wrong = _inconsistent(card)
        if wrong:
            problems += [Problem(file, said, card.id, path) for path, said in wrong]
            continue
        if card.id in from_pack:
            problems.append(
                Problem(
                    file, f"duplicate id, already defined in {from_pack[card.id]}", card.id, "id"
                )
            )
            continue
        shipped_card = base.cards.get(card.id)
        if shipped_card is not None and fold(card.title) not in _spellings(shipped_card):
            problems.append(
                Problem(
                    file,
                    f"the shipped card of this id is titled {shipped_card.title!r}: give that "
                    "title to add facts to it, or another id for another card",
                    card.id,
                    "title",
                )
            )
            continue
        from_pack[card.id] = file
        cards[card.id] = _merge(shipped_card, card, file)
    if problems:
        raise CardSetError(problems)
    return Library(
        MappingProxyType(cards),
        base.characters,
        base.lists,
        base.rulings,
        MappingProxyType(_title_index(cards)),
        attack_table=table[1] if table is not None else None,
        attack_table_file=table[0] if table is not None else None,
    )


def read_attack_table(path: Path) -> PhysicalAttackTable:
    """The Physical Attack Table a file holds (``--attack-table FILE``);
    ``CardSetError`` naming the file and the field otherwise."""
    problems: list[Problem] = []
    table = _attack_table(path, problems)
    if table is None:
        raise CardSetError(problems)
    return table


def _attack_table(path: Path, problems: list[Problem]) -> PhysicalAttackTable | None:
    """A Physical Attack Table file, or ``None`` after adding its problems."""
    from dbdeck.games.ccg.models import PhysicalAttackTableFile

    parsed = _read(path, PhysicalAttackTableFile, problems)
    if parsed is None:
        return None
    wrong = table_problems(parsed.attacker_up_to, parsed.defender_up_to, parsed.damage)
    if wrong:
        problems += [Problem(str(path), message, None, where) for where, message in wrong]
        return None
    return PhysicalAttackTable(
        attacker_up_to=tuple(parsed.attacker_up_to),
        defender_up_to=tuple(parsed.defender_up_to),
        damage=tuple(tuple(row) for row in parsed.damage),
        title=parsed.title,
    )


_SHIPPED_FILES = ("identities", "characters", "lists", "rulings")


@functools.cache
def _shipped(folder: Path) -> Library:
    """The shipped data, read and checked once per process: from the cache
    while the files and the code are unchanged, else validated (and kept)."""
    files: list[tuple[str, bytes]] = []
    try:
        for name in _SHIPPED_FILES:
            path = folder / f"{name}{CCG_SUFFIX}"
            files.append((str(path), read_regular_file(path, MAX_CARD_FILE_BYTES)))
    except InputRefused:
        return _validated(folder)  # which says what is wrong with the file
    entry = LibraryCache.for_files(folder, files)
    if entry is not None:
        kept = entry.load()
        if kept is not None:
            library = _from_json(kept)
            if library is not None:
                return library
    # The bytes the key was made of are the ones validated: a file changed
    # in between must not be kept under the old bytes' key.
    library = _validated(folder, dict(files))
    if entry is not None:
        entry.save(_to_json(library))
    return library


def _validated(folder: Path, read: Mapping[str, bytes] | None = None) -> Library:
    """The shipped data validated by the models; ``CardSetError`` otherwise
    (``read``: the files' bytes already read, by path)."""
    from dbdeck.games.ccg.models import CharacterFile, IdentityFile, ListFile, RulingFile

    problems: list[Problem] = []
    identities = _read(folder / f"identities{CCG_SUFFIX}", IdentityFile, problems, read)
    characters = _read(folder / f"characters{CCG_SUFFIX}", CharacterFile, problems, read)
    lists = _read(folder / f"lists{CCG_SUFFIX}", ListFile, problems, read)
    rulings = _read(folder / f"rulings{CCG_SUFFIX}", RulingFile, problems, read)
    if identities is None or characters is None or lists is None or rulings is None:
        raise CardSetError(problems)
    name = str(folder / f"identities{CCG_SUFFIX}")
    cards: dict[str, CardRecord] = {}
    for identity in identities.cards:
        if identity.id in cards:
            problems.append(Problem(name, "duplicate id", identity.id, "id"))
        wrong = _inconsistent(identity)
        problems += [Problem(name, said, identity.id, path) for path, said in wrong]
        cards[identity.id] = _record(identity)
    people = {
        fold(c.name): CharacterRecord(c.name, c.alignment, c.source, tuple(c.named_in))
        for c in characters.characters
    }
    list_file = str(folder / f"lists{CCG_SUFFIX}")
    by_id: dict[str, ListRecord] = {}
    for i, lst in enumerate(lists.lists):
        for entry in lst.entries:
            known = entry in cards if lst.of == "cards" else fold(entry) in people
            if not known:
                problems.append(
                    Problem(list_file, f"unknown {lst.of[:-1]} {entry!r}", None, f"lists.{i}")
                )
        by_id[lst.id] = ListRecord(
            lst.id,
            lst.title,
            lst.source,
            lst.of,
            tuple(lst.entries),
            tuple(lst.pairs),
            tuple(lst.notes),
        )
    ruling_file = str(folder / f"rulings{CCG_SUFFIX}")
    on_card: dict[str, list[RulingRecord]] = {}
    for i, ruling in enumerate(rulings.rulings):
        if ruling.card not in cards:
            problems.append(
                Problem(ruling_file, f"unknown card {ruling.card!r}", None, f"rulings.{i}")
            )
            continue
        facts = tuple(MappingProxyType(f.model_dump()) for f in ruling.facts)
        on_card.setdefault(ruling.card, []).append(
            RulingRecord(ruling.card, ruling.source, ruling.summary, facts)
        )
    if problems:
        raise CardSetError(problems)
    return Library(
        MappingProxyType(cards),
        MappingProxyType(people),
        MappingProxyType(by_id),
        MappingProxyType({k: tuple(v) for k, v in on_card.items()}),
        MappingProxyType(_title_index(cards)),
    )


def _to_json(library: Library) -> dict[str, Any]:
    """The shipped library as JSON data for the cache: each record as the
    list of its fields."""

    def rows(records: Iterable[Any]) -> list[list[Any]]:
        return [[getattr(r, f.name) for f in dataclasses.fields(r)] for r in records]

    return {
        "cards": rows(library.cards.values()),
        "characters": rows(library.characters.values()),
        "lists": rows(library.lists.values()),
        "rulings": [
            [r.card, r.source, r.summary, [dict(f) for f in r.facts]]
            for kept in library.rulings.values()
            for r in kept
        ],
    }


def _from_json(content: Any) -> Library | None:
    """The library the cache kept, or ``None`` when it is not of this shape."""
    try:
        cards = {c.id: c for c in (CardRecord(*_tuples(row)) for row in content["cards"])}
        people = {
            fold(c.name): c for c in (CharacterRecord(*_tuples(r)) for r in content["characters"])
        }
        lists = {x.id: x for x in (ListRecord(*_tuples(row)) for row in content["lists"])}
        on_card: dict[str, list[RulingRecord]] = {}
        for card, source, summary, facts in content["rulings"]:
            kept = tuple(MappingProxyType(dict(f)) for f in facts)
            on_card.setdefault(card, []).append(RulingRecord(card, source, summary, kept))
        titles = _title_index(cards)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    return Library(
        MappingProxyType(cards),
        MappingProxyType(people),
        MappingProxyType(lists),
        MappingProxyType({k: tuple(v) for k, v in on_card.items()}),
        MappingProxyType(titles),
    )


def _tuples(value: Any) -> Any:
    """JSON's lists back as the records' tuples, at every depth."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def _read(
    path: Path,
    model: type[_Model],
    problems: list[Problem],
    read: Mapping[str, bytes] | None = None,
) -> _Model | None:
    """One file validated by ``model``, or ``None`` after adding its
    problems (``read``: bytes already read, by path)."""
    from pydantic import ValidationError

    name = str(path)
    try:
        data = read[name] if read is not None and name in read else None
        if data is None:
            data = read_regular_file(path, MAX_CARD_FILE_BYTES)
        text = decode_utf8(data)
        refused = json_limits_problem(data)
        if refused is not None:
            raise InputRefused(refused)
    except InputRefused as exc:
        problems.append(Problem(name, str(exc)))
        return None
    try:
        parsed: _Model = _adapter(model).validate_json(data)
    except ValidationError as exc:
        problems += validation_problems(name, text, exc)
        return None
    return parsed


@functools.cache
def _adapter(model: type[_Model]) -> TypeAdapter[_Model]:
    from pydantic import TypeAdapter

    return TypeAdapter(model)


def _inconsistent(card: Identity | PackCard) -> list[tuple[str, str]]:
    """What one card's fields say against each other, as (field, message)."""
    said: list[tuple[str, str]] = []
    if (card.personality is None) != (card.level is None):
        missing = "level" if card.level is None else "personality"
        said.append((missing, "a personality card gives both personality and level"))
    if card.personality is not None and card.type not in (None, "personality"):
        said.append(("type", f"a card with a personality is of type personality, not {card.type}"))
    if card.dragon_ball is not None and card.type not in (None, "dragon-ball"):
        said.append(("type", f"a Dragon Ball is of type dragon-ball, not {card.type}"))
    if card.style is not None and card.style != style_of(card.title):
        said.append(
            (
                "style",
                f"{card.style} disagrees with the title, whose first word gives "
                f"{style_of(card.title) or 'no style'}",
            )
        )
    from dbdeck.games.ccg.models import PackCard

    if isinstance(card, PackCard):
        if card.levels and (card.level is None or min(card.levels) != card.level):
            said.append(("levels", "the levels of a multi-level card start at its level"))
        if card.unless_main_personality is not None and not card.limit_one_per_deck:
            said.append(("unless_main_personality", "goes with limit_one_per_deck: true"))
    return said


def _record(identity: Identity) -> CardRecord:
    ball = identity.dragon_ball
    return CardRecord(
        id=identity.id,
        title=identity.title,
        saga=identity.saga,
        number=identity.number,
        type=identity.type,
        personality=identity.personality,
        level=identity.level,
        alignment=identity.alignment,
        dragon_ball=(ball.set, ball.number) if ball is not None else None,
        also_written=tuple(identity.also_written),
        other_numbers=tuple(identity.other_numbers),
        seen_in=tuple(identity.seen_in),
        notes=tuple(identity.notes),
    )


_LISTS = ("power_stages", "levels", "only", "also_written")


def _merge(base: CardRecord | None, card: PackCard, file: str) -> CardRecord:
    """A pack card on its own, or over the shipped identity of its id: what
    the pack gives wins."""
    given: dict[str, Any] = {}
    for name in card.model_fields_set:
        value = getattr(card, name)
        if name == "dragon_ball":
            value = (value.set, value.number) if value is not None else None
        elif name in _LISTS:
            value = tuple(value)
        elif name == "style":
            continue  # always the title's first word (checked by the model)
        given[name] = value
    if base is None:
        defaults = CardRecord(
            id=card.id,
            title=card.title,
            saga=None,
            number=None,
            type=None,
            personality=None,
            level=None,
            alignment=None,
            dragon_ball=None,
            shipped=False,
        )
        return _replace(defaults, given | {"pack_file": file})
    if "also_written" in given:
        given["also_written"] = base.also_written + given["also_written"]
    given.pop("title", None)  # the shipped spelling stays the one shown
    return _replace(base, given | {"pack_file": file})


def _replace(record: CardRecord, changes: Mapping[str, Any]) -> CardRecord:
    return dataclasses.replace(record, **changes)


def _spellings(card: CardRecord) -> set[str]:
    return {fold(card.title), *(fold(t) for t in card.also_written)}


def _title_index(cards: Mapping[str, CardRecord]) -> dict[str, tuple[str, ...]]:
    """Every folded way of writing each card's title: the title, its other
    spellings and, for a personality card, ``NAME Level N``."""
    index: dict[str, list[str]] = {}
    for card in cards.values():
        for key in _keys(card):
            ids = index.setdefault(key, [])
            if card.id not in ids:
                ids.append(card.id)
    return {key: tuple(ids) for key, ids in index.items()}


def _keys(card: CardRecord) -> Iterator[str]:
    yield from _spellings(card)
    if card.personality is not None and card.level is not None:
        yield fold(f"{card.personality} Level {card.level}")
        form = personality_form(card.title)
        if form is not None:
            yield fold(f"{form[0]} Level {form[1]}")
