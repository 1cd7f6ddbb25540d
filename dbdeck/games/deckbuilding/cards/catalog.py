"""Loading and checking card files into an immutable card catalog.

``load_catalog`` reads the shipped set and any packs, validates every file
against the card schema (the pydantic models, through the validator kept
from them: ``dbdeck.games.deckbuilding.cards.validator``) and then checks what one file alone
cannot show: duplicate ids, references to cards that do not exist,
incomplete Villain decks. Problems are collected, never raised one at a time, so a card author
sees them all at once, each as ``FILE: card 'ID': field.path: message``.

The catalog holds the plain objects of ``dbdeck.games.deckbuilding.cards.plain``, not the
models. A clean load is kept in the validated-catalog cache
(``dbdeck.games.deckbuilding.cards.cache``); while the files and the card code are unchanged,
the next load is read from it and no validator is built at all.

Card packs are untrusted input (a shared box loads other people's folders):
every file is read through the bounded guards of ``dbdeck.packs.reading``,
which this module re-exports for the first game's other readers.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from types import MappingProxyType

from dbdeck.games.deckbuilding.cards.cache import CatalogCache
from dbdeck.games.deckbuilding.cards.plain import (
    CLASSES,
    ActivateCard,
    Card,
    Character,
    CharacterIs,
    Damage,
    Location,
    Plain,
    SplitCard,
    Summon,
    TakeDragonBall,
    Villain,
    VillainCard,
)
from dbdeck.packs.reading import (
    MAX_CARD_FILE_BYTES,
    PACKS_ENV,
    CardSetError,
    InputRefused,
    Problem,
    decode_utf8,
    files_below,
    json_limits_problem,
    one_line,
    pack_dirs_from_env,
    read_regular_file,
    shipped_cards_dir,
    validation_problems,
)

__all__ = [
    "CCG_SUFFIX",
    "MAX_CARD_FILE_BYTES",
    "PACKS_ENV",
    "CardSetError",
    "Catalog",
    "InputRefused",
    "Problem",
    "decode_utf8",
    "files_below",
    "json_limits_problem",
    "load_catalog",
    "one_line",
    "pack_dirs_from_env",
    "read_regular_file",
    "shipped_cards_dir",
    "validation_problems",
]

CCG_SUFFIX = ".ccg.json"
"""How the files of the second game end: one pack folder (and ``cards/``
itself) may hold both games' files, and each game reads only its own."""

_VILLAIN_DECK_TYPES = frozenset({"attack", "minion", "split", "event", "transformation"})


class Catalog:
    """Every card of a loaded set, by id, in file order. Immutable.

    A plain slotted class rather than a dataclass: the quick commands that
    load it (``dbdeck cards validate``) would otherwise import ``dataclasses``
    and ``inspect``, a seventh of their start."""

    __slots__ = ("cards", "files")

    cards: Mapping[str, Card]
    """Cards by id."""
    files: Mapping[str, str]
    """For each card id, the file it came from."""

    def __init__(self, cards: Mapping[str, Card], files: Mapping[str, str] | None = None) -> None:
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "files", {} if files is None else files)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Catalog is immutable: cannot set {name!r}")

    def __reduce__(self) -> tuple[type[Catalog], tuple[Mapping[str, Card], Mapping[str, str]]]:
        # Copied and pickled through its constructor, as it refuses setattr.
        return (Catalog, (self.cards, self.files))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Catalog):
            return NotImplemented
        return self.cards == other.cards and self.files == other.files

    __hash__ = None  # type: ignore[assignment]  # mappings inside: unhashable, as before

    def __repr__(self) -> str:
        return f"Catalog({len(self.cards)} cards)"

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.cards

    def __getitem__(self, card_id: str) -> Card:
        return self.cards[card_id]

    def __len__(self) -> int:
        return len(self.cards)

    def of_kind(self, kind: str) -> list[Card]:
        """All cards of one ``kind``, in file order."""
        return [c for c in self.cards.values() if c.kind == kind]

    def characters(self) -> list[Character]:
        """Every Character board."""
        return [c for c in self.cards.values() if isinstance(c, Character)]

    def villains(self) -> list[Villain]:
        """Every Villain board."""
        return [c for c in self.cards.values() if isinstance(c, Villain)]

    def locations(self) -> list[Location]:
        """Every Location."""
        return [c for c in self.cards.values() if isinstance(c, Location)]

    def equipped_at_start(self, character: Character) -> list[str]:
        """The starting cards that begin equipped: the Allies, Equipment and
        Training among the Character's starting cards ("Preparing the
        Character and Villain Decks")."""
        return [
            entry.card
            for entry in character.starting_cards
            if self.cards[entry.card].kind in ("ally", "equipment", "training")
        ]


def load_catalog(
    packs: Iterable[Path] = (),
    *,
    include_shipped: bool = True,
    include_env_packs: bool = True,
    use_cache: bool = True,
) -> Catalog:
    """Load, validate and cross-check the shipped set and packs.

    With ``use_cache`` a clean load is answered from, or kept in, the
    validated-catalog cache. Raises ``CardSetError`` listing every problem
    found.
    """
    folders: list[Path] = [shipped_cards_dir()] if include_shipped else []
    folders += list(packs)
    if include_env_packs:
        folders += pack_dirs_from_env()
    # Read everything first: the cache key is the bytes of every file.
    entries: list[Problem | tuple[Path, bytes | InputRefused]] = []
    for item in _card_files(folders):
        if isinstance(item, Problem):
            entries.append(item)
            continue
        try:
            entries.append((item, read_regular_file(item, MAX_CARD_FILE_BYTES)))
        except InputRefused as exc:
            entries.append((item, exc))
    read = [(str(e[0]), e[1]) for e in entries if isinstance(e, tuple) and isinstance(e[1], bytes)]
    store = None
    if use_cache and len(read) == len(entries):  # a set with a problem is never cached
        store = CatalogCache.for_files(folders, read)
        kept = store.load() if store is not None else None
        if kept is not None:
            return Catalog(MappingProxyType(kept[0]), MappingProxyType(kept[1]))
    problems: list[Problem] = []
    loaded: list[tuple[str, Card]] = []
    for entry in entries:
        if isinstance(entry, Problem):
            problems.append(entry)
        else:
            loaded += _load_file(*entry, problems)
    cards: dict[str, Card] = {}
    files: dict[str, str] = {}
    for file, card in loaded:
        if card.id in cards:
            problems.append(
                Problem(file, f"duplicate id, already defined in {files[card.id]}", card.id, "id")
            )
            continue
        cards[card.id] = card
        files[card.id] = file
    problems += check_references(cards, files)
    if problems:
        raise CardSetError(problems)
    if store is not None:
        store.save(cards, files)
    return Catalog(MappingProxyType(cards), MappingProxyType(files))


def _card_files(folders: Iterable[Path]) -> Iterator[Path | Problem]:
    """The card files of each folder in turn, and the problems of listing
    them where they arise, so problems keep the order of the folders."""
    for folder in folders:
        if not folder.is_dir():
            yield Problem(str(folder), "not a folder of card files")
            continue
        files, unreadable = files_below(folder, ".json")
        yield from (Problem(str(path), message) for path, message in unreadable)
        yield from (path for path in files if not path.name.endswith(CCG_SUFFIX))


def _load_file(
    path: Path, data: bytes | InputRefused, problems: list[Problem]
) -> list[tuple[str, Card]]:
    """Validate one file's bytes (or report why it was not read) into plain cards."""
    name = str(path)
    try:
        if isinstance(data, InputRefused):
            raise data
        text = decode_utf8(data)
        refused = json_limits_problem(data)
        if refused is not None:
            raise InputRefused(refused)
    except InputRefused as exc:
        problems.append(Problem(name, str(exc)))
        return []
    # Only a load the cache cannot answer needs a validator (and pydantic-core).
    from pydantic_core import ValidationError

    from dbdeck.games.deckbuilding.cards.validator import card_file_cards

    try:
        cards = card_file_cards(data)
    except ValidationError as exc:
        problems += validation_problems(name, text, exc)
        return []
    return [(name, card) for card in cards]


# --- cross references ---------------------------------------------------------


def check_references(cards: Mapping[str, Card], files: Mapping[str, str]) -> list[Problem]:
    """Problems only the whole set shows: dangling ids, incomplete decks."""
    checker = _References(cards, files)
    for card in cards.values():
        checker.check(card)
    return checker.problems


class _References:
    """Collects the cross-reference problems of a set of cards."""

    def __init__(self, cards: Mapping[str, Card], files: Mapping[str, str]) -> None:
        self.cards = cards
        self.files = files
        self.problems: list[Problem] = []

    def report(self, owner: Card, path: str, message: str) -> None:
        self.problems.append(Problem(self.files[owner.id], message, owner.id, path))

    def need(self, owner: Card, path: str, ref: str, *kinds: str) -> Card | None:
        """Report ``ref`` unless it names a card of one of ``kinds``."""
        target = self.cards.get(ref)
        if target is None:
            self.report(owner, path, f"unknown card {ref!r}")
        elif kinds and _kind_of(target) not in kinds:
            expected = " or ".join(kinds)
            self.report(owner, path, f"{ref!r} is a {_kind_of(target)}, expected {expected}")
            return None
        return target

    def check(self, card: Card) -> None:
        for path, op in _walk_effects(card):
            if isinstance(op, Summon):
                self.need(card, f"{path}.card", op.card, "minion")
            elif isinstance(op, ActivateCard):
                self.need(card, f"{path}.card", op.card, "attack", "split")
            elif isinstance(op, Damage) and op.character is not None:
                self.need(card, f"{path}.character", op.character, "character")
            elif isinstance(op, CharacterIs):
                for i, ref in enumerate(op.characters):
                    self.need(card, f"{path}.characters.{i}", ref, "character")
        exclusive = getattr(card, "exclusive", None)
        if exclusive is not None:
            for i, ref in enumerate(exclusive.characters):
                self.need(card, f"exclusive.characters.{i}", ref, "character")
        if "search" in getattr(card, "keywords", ()):
            self.check_search(card)
        if isinstance(card, Character):
            self.check_character(card)
        elif isinstance(card, Villain):
            self.check_villain(card)
        elif card.kind == "villain-card":
            self.check_villain_card(card)
        elif card.kind != "location" and not card.starting and card.cost is None:
            self.report(card, "cost", "a market card needs a cost")

    def check_search(self, card: Card) -> None:
        """The Search keyword takes the ball by itself; an effect repeating it
        would take two."""
        for path, op in _walk_effects(card):
            if isinstance(op, TakeDragonBall) and not path.startswith("destroy_effects"):
                self.report(
                    card,
                    path,
                    "the Search keyword already takes an unclaimed "
                    "Dragon Ball; remove this operation or the keyword",
                )

    def check_villain_card(self, card: VillainCard) -> None:
        villain = self.need(card, "villain", card.villain, "villain")
        for i, enemy in enumerate(card.acts):
            if isinstance(villain, Villain) and enemy not in villain.enemies:
                self.report(card, f"acts.{i}", f"{enemy!r} is not an enemy of {villain.id!r}")
        if isinstance(card, SplitCard):
            for i, half in enumerate(card.halves):
                self.need(card, f"halves.{i}.enemy", half.enemy, "enemy")

    def check_character(self, card: Character) -> None:
        for i, entry in enumerate(card.starting_cards):
            path = f"starting_cards.{i}.card"
            target = self.need(card, path, entry.card, *_MARKET_KINDS)
            if target is not None and not getattr(target, "starting", False):
                self.report(card, path, f"{entry.card!r} is not a starting card")
        for i, ref in enumerate(card.ally_versions):
            self.need(card, f"ally_versions.{i}", ref, "ally")

    def check_villain(self, card: Villain) -> None:
        listed: set[str] = set()
        groups: tuple[tuple[str, list[tuple[str, int | None]], tuple[str, ...]], ...] = (
            ("deck", [(e.card, e.copies) for e in card.deck], tuple(_VILLAIN_DECK_TYPES)),
            ("side_decks", [(e.card, e.copies) for e in card.side_decks], ("minion",)),
            ("reference_cards", [(r, None) for r in card.reference_cards], ()),
            ("starting_minions", [(r, None) for r in card.starting_minions], ("minion",)),
            ("enemies", [(r, None) for r in card.enemies], ("enemy",)),
            ("extreme_cards", [(r, None) for r in card.extreme_cards], ()),
        )
        for field_name, refs, kinds in groups:
            for i, (ref, copies) in enumerate(refs):
                path = f"{field_name}.{i}"
                listed.add(ref)
                target = self.need(card, path, ref, *kinds)
                if target is None or target.kind != "villain-card":
                    continue
                if target.villain != card.id:
                    self.report(card, path, f"{ref!r} belongs to villain {target.villain!r}")
                if copies is not None and target.copies != copies:
                    self.report(
                        card,
                        f"{path}.copies",
                        f"{copies} copies listed but {ref!r} says {target.copies}",
                    )
        for other in self.cards.values():
            if other.kind != "villain-card" or other.villain != card.id:
                continue
            if other.id not in listed:
                self.report(
                    card,
                    "deck",
                    f"villain card {other.id!r} is in none of deck, "
                    "side_decks, reference_cards, starting_minions, enemies "
                    "or extreme_cards",
                )
            if other.phase is not None and other.phase > card.phases:
                self.report(
                    other,
                    "phase",
                    f"phase {other.phase} but {card.id!r} has {card.phases} phase(s)",
                )
        if len(card.enemies) == 1:
            self.report(card, "enemies", "a villain of several enemies lists at least two")


_MARKET_KINDS = ("ally", "technique", "energy", "equipment", "training")


def _kind_of(card: Card) -> str:
    """The card's kind, or its type for a Villain card (``minion``, ``enemy`` …)."""
    if card.kind == "villain-card":
        return card.type
    return card.kind


_OPERATIONS = frozenset(c for c in CLASSES.values() if {"op", "when"} & set(c.FIELDS))
"""The classes of effect operations and conditions."""


def _walk_effects(card: Plain) -> Iterator[tuple[str, Plain]]:
    """Every effect operation and condition inside a card, with its path."""
    return _walk(card, "")


def _walk(node: Plain, path: str) -> Iterator[tuple[str, Plain]]:
    for name in node.FIELDS:
        value = getattr(node, name)
        if isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, Plain):
                    where = f"{path}{name}.{i}"
                    if type(item) in _OPERATIONS:
                        yield where, item
                    yield from _walk(item, where + ".")
        elif isinstance(value, Plain):
            where = f"{path}{name}"
            if type(value) in _OPERATIONS:
                yield where, value
            yield from _walk(value, where + ".")
