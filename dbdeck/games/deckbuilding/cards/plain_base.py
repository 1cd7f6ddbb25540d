"""The base of the plain card objects (``dbdeck.games.deckbuilding.cards.plain``, generated
from the card schema): frozen, slotted, compared and hashed by their fields.

Hand-written and imported by the generated module, so that this code is
read, linted and typed as code rather than copied out of a template."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

__all__ = ["CardFlags", "CardId", "Plain", "Words", "data_of"]

_set = object.__setattr__
"""Writes a field of a frozen object, at construction only."""

CardId = str
"""A card id: lower-case words joined by hyphens, e.g. ``punch-and-kick``."""

Words = str
"""A text of a card: checked printable when its file was read."""


def _rebuild(cls: type[Plain], values: tuple[Any, ...]) -> Plain:
    """An object of ``cls`` from its field values (for ``pickle``)."""
    # Through __init__, so a card works out its flags as when it was loaded.
    return cls(**dict(zip(cls.FIELDS, values, strict=True)))


class Plain:
    """The base of every plain card object: frozen, slotted, equal when of one
    class with equal fields."""

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ()
    """The field names, in the order of the card schema."""

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot delete {name!r}")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self.FIELDS)

    def __hash__(self) -> int:
        return hash((type(self), *(getattr(self, f) for f in self.FIELDS)))

    def __repr__(self) -> str:
        fields = ", ".join(f"{f}={getattr(self, f)!r}" for f in self.FIELDS)
        return f"{type(self).__name__}({fields})"

    def __copy__(self) -> Plain:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Plain:
        # Frozen all the way down but for lists nobody writes to: sharing is safe.
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild, (type(self), tuple(getattr(self, f) for f in self.FIELDS))


def data_of(value: Any) -> Any:
    """A plain value as card-file JSON data: every object a dict of all its fields."""
    if isinstance(value, Plain):
        return {name: data_of(getattr(value, name)) for name in value.FIELDS}
    if isinstance(value, list):
        return [data_of(item) for item in value]
    if isinstance(value, dict):
        return {key: data_of(item) for key, item in value.items()}
    return value


_LASTING = ("while-in-play", "permanent")
"""The durations of an operation that holds for as long as its card is in play."""

_NO_ENERGY_FOR: Mapping[str, int] = {}
"""The special market values of a card that has none (shared: never written)."""


class CardFlags(Plain):
    """What the rules read of a card over and over, worked out once from its
    fields when the card is made (loaded, read from the cache, unpickled),
    so that the engine reads a slot instead of converting or scanning.

    These are not fields: they are not in ``FIELDS``, the card files, the
    cache, equality or the hash. Each card class holds them in its slots."""

    __slots__ = ()
    DERIVED: ClassVar[tuple[str, ...]] = ("energy", "energy_for", "lasting", "printed_cost")
    """The names of the worked-out attributes."""

    printed_cost: int
    """The printed cost as a number: ``-`` and no cost (a starting card, a
    card that is never bought) count 0 (rules note N28)."""
    energy: int
    """Energy the card gives for a purchase: its ``value``, 0 for a card that
    gives none."""
    energy_for: Mapping[str, int]
    """Its special values for one market (``value_for``; Combat Energy gives 3
    for Training), empty for a card that has none."""
    lasting: Mapping[type[Plain], tuple[Plain, ...]]
    """The lasting operations among its ``effects`` (a ``while-in-play`` or
    ``permanent`` duration), by operation class, in card order: the bonuses
    it grants while in play."""

    def _derive(self) -> None:
        """Work out the flags from the fields (the last step of ``__init__``)."""
        cost = getattr(self, "cost", None)
        _set(self, "printed_cost", cost if isinstance(cost, int) else 0)
        value = getattr(self, "value", 0)
        _set(self, "energy", value if isinstance(value, int) else 0)
        _set(self, "energy_for", getattr(self, "value_for", None) or _NO_ENERGY_FOR)
        grouped: dict[type[Plain], list[Plain]] = {}
        for op in getattr(self, "effects", ()):
            if getattr(op, "duration", None) in _LASTING:
                grouped.setdefault(type(op), []).append(op)
        _set(self, "lasting", {kind: tuple(ops) for kind, ops in grouped.items()})
