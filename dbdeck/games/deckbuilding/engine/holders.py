"""Holders: whoever can hold Dragon Balls or take damage.

Inside the engine a holder is one of six small references, a closed set:

* ``CharacterRef(id)``: a Character;
* ``AllyRef(uid)``: an Ally in play beside a Character's board;
* ``MinionRef(uid)``: a Minion in play;
* ``EnemyRef(id)``: one enemy of a Villain of several (Vegeta and Nappa,
  Androids 17 and 18);
* ``VILLAIN`` (the one ``VillainRef``): the Villain;
* ``MarketAllyRef(uid)``: an Ally face up in the Ally Market (attacked by
  Androids 17 and 18).

Each has a string form, its ``key``: ``c:goku``, ``a:12``, ``m:7``,
``e:nappa``, ``v``, ``market:30``. Saves, actions, the wire, scenario files
and the seat view keep that form, so they stay readable; ``parse`` reads it
back at those edges, and refuses anything else.

References are interned: the same holder is always the same object, so
comparing, hashing and finding them in a list cost what they cost for any
object (its identity), and ``match`` tells the kinds apart::

    match holder:
        case CharacterRef(id):
            ...
        case AllyRef(uid) | MinionRef(uid):
            ...

This module is a leaf: it imports nothing of the engine.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Final, Literal, NoReturn, Self, final

__all__ = [
    "HOLDER_TYPES",
    "LOCATION",
    "VILLAIN",
    "Actor",
    "AllyRef",
    "CharacterRef",
    "EnemyRef",
    "Holder",
    "HolderError",
    "MarketAllyRef",
    "MinionRef",
    "VillainRef",
    "holder_or_none",
    "parse",
    "to_key",
]

_LIMIT: Final = 1 << 16
"""Distinct holders of one kind that reading keys (``parse``) may add: a
game has a few hundred cards, and the bound keeps hostile input from
growing the tables. The engine's own holders are never refused."""
_MAX_UID: Final = 999_999
_CARD_ID: Final = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
"""A card id, as the card models allow it (at most 64 characters)."""


class HolderError(ValueError):
    """Text that is not the key of a holder."""


class _Ref:
    """What every holder has: its key, and being its own copy."""

    __slots__ = ("key",)
    key: str
    """The string form: ``c:goku``, ``a:12``, ``v`` …"""

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise AttributeError(f"a holder cannot be changed ({self.key})")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.key!r})"

    def __copy__(self) -> _Ref:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> _Ref:
        return self

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return parse, (self.key,)

    def to_json(self) -> str:
        """The key: how saves, the wire and the view write a holder."""
        return self.key


def _make(cls: type[_Ref], table: dict[Any, Any], value: Any, key: str, field: str) -> Any:
    ref = object.__new__(cls)
    object.__setattr__(ref, "key", key)
    if field:
        object.__setattr__(ref, field, value)
    table[value] = ref
    return ref


class _ByCardId(_Ref):
    """A holder named by a card id; each kind has its own table and prefix."""

    __slots__ = ("id",)
    __match_args__ = ("id",)
    id: str
    _prefix: ClassVar[str]
    _made: ClassVar[dict[str, Any]]

    def __init_subclass__(cls, *, prefix: str) -> None:
        super().__init_subclass__()
        cls._prefix, cls._made = prefix, {}

    def __new__(cls, id: str) -> Self:
        found: Self | None = cls._made.get(id)
        return found if found is not None else _make(cls, cls._made, id, cls._prefix + id, "id")


class _ByUid(_Ref):
    """A holder named by a card instance's uid; each kind has its own table."""

    __slots__ = ("uid",)
    __match_args__ = ("uid",)
    uid: int
    _prefix: ClassVar[str]
    _made: ClassVar[dict[int, Any]]

    def __init_subclass__(cls, *, prefix: str) -> None:
        super().__init_subclass__()
        cls._prefix, cls._made = prefix, {}

    def __new__(cls, uid: int) -> Self:
        found: Self | None = cls._made.get(uid)
        return (
            found if found is not None else _make(cls, cls._made, uid, f"{cls._prefix}{uid}", "uid")
        )


@final
class CharacterRef(_ByCardId, prefix="c:"):
    """A Character, by its card id."""

    __slots__ = ()
    __match_args__ = ("id",)  # its own: compiled matches read no base's


@final
class AllyRef(_ByUid, prefix="a:"):
    """An Ally in play, by its card uid."""

    __slots__ = ()
    __match_args__ = ("uid",)  # its own: compiled matches read no base's


@final
class MinionRef(_ByUid, prefix="m:"):
    """A Minion in play, by its card uid."""

    __slots__ = ()
    __match_args__ = ("uid",)  # its own: compiled matches read no base's


@final
class EnemyRef(_ByCardId, prefix="e:"):
    """One enemy of a Villain of several, by its card id."""

    __slots__ = ()
    __match_args__ = ("id",)  # its own: compiled matches read no base's


@final
class MarketAllyRef(_ByUid, prefix="market:"):
    """An Ally face up in the Ally Market, by its card uid."""

    __slots__ = ()
    __match_args__ = ("uid",)  # its own: compiled matches read no base's


_VILLAINS: dict[str, VillainRef] = {}


@final
class VillainRef(_Ref):
    """The Villain (of one enemy, or the board of several): ``VILLAIN``."""

    __slots__ = ()
    __match_args__ = ()

    def __new__(cls) -> VillainRef:
        found = _VILLAINS.get("v")
        return found if found is not None else _make(cls, _VILLAINS, "v", "v", "")


VILLAIN: Final = VillainRef()
"""The Villain."""

Holder = CharacterRef | AllyRef | MinionRef | EnemyRef | VillainRef | MarketAllyRef
"""Whoever can hold Dragon Balls or take damage."""

LOCATION: Final = "loc"
"""Not a holder: the owner of a Location's effects (an effect's ``actor``)."""

Actor = Holder | Literal["loc"]
"""Who owns an effect: a holder, or the Location in play (``LOCATION``)."""

HOLDER_TYPES: Final = (CharacterRef, AllyRef, MinionRef, EnemyRef, VillainRef, MarketAllyRef)
"""The holder classes, for ``isinstance``."""

_BY_KEY: dict[str, Holder] = {"v": VILLAIN}
"""Keys already read, for a cheap ``parse``."""


def parse(key: str) -> Holder:
    """The holder a key names; ``HolderError`` for text that names none."""
    if not isinstance(key, str):
        raise HolderError(f"a holder key is text, not {type(key).__name__}")
    found = _BY_KEY.get(key)
    if found is not None:
        return found
    kind, colon, rest = key.partition(":")
    if colon:
        if kind in ("c", "e") and len(rest) <= 64 and _CARD_ID.fullmatch(rest):
            return _read(key, CharacterRef if kind == "c" else EnemyRef, rest)
        if kind in ("a", "m", "market") and rest.isdigit() and rest.isascii():
            uid = int(rest)
            if uid <= _MAX_UID and str(uid) == rest:
                return _read(key, _BY_UID_PREFIX[kind], uid)
    shown = key if len(key) <= 40 else key[:40] + "…"
    raise HolderError(f"not a holder: {shown!r}")


_BY_UID_PREFIX: Final = {"a": AllyRef, "m": MinionRef, "market": MarketAllyRef}


def _read(key: str, kind: Any, value: str | int) -> Holder:
    """The holder of a key read from outside, within the bound."""
    if value not in kind._made and len(kind._made) >= _LIMIT:
        raise HolderError(f"too many holders read ({_LIMIT} of one kind)")
    holder: Holder = kind(value)
    if len(_BY_KEY) < 6 * _LIMIT:
        _BY_KEY[key] = holder
    return holder


def holder_or_none(key: str) -> Holder | None:
    """The holder a key names; ``None`` for the empty key (no holder: a
    Dragon Ball nobody controls) and ``HolderError`` for other text."""
    return None if key == "" else parse(key)


def to_key(holder: Holder | None) -> str:
    """The key of a holder; the empty key for none."""
    return "" if holder is None else holder.key
