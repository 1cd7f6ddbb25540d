"""The base of the plain card objects (``dbdeck.cards.plain``, generated
from the card schema): frozen, slotted, compared and hashed by their fields.

Hand-written and imported by the generated module, so that this code is
read, linted and typed as code rather than copied out of a template."""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = ["CardId", "Plain", "data_of"]

_set = object.__setattr__
"""Writes a field of a frozen object, at construction only."""

CardId = str
"""A card id: lower-case words joined by hyphens, e.g. ``punch-and-kick``."""


def _rebuild(cls: type[Plain], values: tuple[Any, ...]) -> Plain:
    """An object of ``cls`` from its field values (for ``pickle``)."""
    obj = cls.__new__(cls)
    for name, value in zip(cls.FIELDS, values, strict=True):
        _set(obj, name, value)
    return obj


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
