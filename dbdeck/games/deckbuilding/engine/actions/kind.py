"""What every action kind is made of: its fields, their bounds, and the one
base class that makes a kind a small frozen record.

A kind declares exactly the fields it uses (``card``, ``market``, …) as
annotations, as a dataclass does; ``ActionKind`` turns them into slots and a
keyword-only constructor. The engine is plain Python on the hot path: a
kind is built with no validation at all (``problem`` checks a built one,
``read`` checks JSON data). A field a kind does not use still reads as
empty (``None`` or ``()``), so that code reading any action (``action.card``)
needs no case per kind; it can never be set.

The bounds say what a field's value may be whatever the game's state: a uid
is an integer of a bounded range, a holder key printable text of a bounded
length, a market one of the six rows. Whether the value is legal now is the
rules' to say (``check``), in the rulebook's words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal, NamedTuple, Self, dataclass_transform

__all__ = [
    "FIELD_ORDER",
    "HIDDEN_ID",
    "MARKET_NAMES",
    "MAX_CARDS",
    "MAX_ID",
    "MAX_KEY",
    "ActionKind",
    "BadAction",
    "Bound",
]

MAX_ID = 10**6
"""The largest uid, option, Time slot or count an action may hold."""

HIDDEN_ID = -1
"""The smallest uid an action may hold: a card of another hand, masked."""

MAX_CARDS = 16
"""The most cards one action names (a Combo, a Duo's Energy)."""

MAX_KEY = 64
"""The longest holder key (``target``, ``source``)."""

MARKET_NAMES: tuple[str, ...] = (
    "allies",
    "techniques",
    "energy",
    "equipment",
    "training",
    "sixth",
)
"""The rows an action may name: the five market decks and the sixth pile."""

FIELD_ORDER = ("card", "cards", "target", "source", "market", "slot", "on", "amount", "option")
"""Every field any kind may have, in the order ``to_json`` writes them (the
order saved games have always had, so that their bytes do not change)."""


class BadAction(ValueError):
    """Data that is not an action of the engine's own shape; the text names
    the kind and the field."""


class Bound(NamedTuple):
    """What values a field takes, whatever the state of the game."""

    shape: Literal["int", "ints", "key", "market"]
    """An integer, a list of uids, a holder key, a market's name."""
    low: int = 0
    """The smallest integer, or the fewest uids, or the shortest key."""
    high: int = MAX_ID
    """The largest integer, or the most uids, or the longest key."""

    def test(self, v: str) -> str:
        """A Python expression of the variable ``v``, true when its value
        fits: the same test as ``problem``'s, inlined into a kind's
        ``_fits`` (one call per action on the engine's hot path)."""
        if self.shape == "int":
            return f"(type({v}) is int and {self.low} <= {v} <= {self.high})"
        if self.shape == "ints":
            return f"(type({v}) is tuple and {self.low} <= len({v}) <= {self.high} and _uids({v}))"
        if self.shape == "key":
            return (
                f"(type({v}) is str and {self.low} <= len({v}) <= {self.high}"
                f" and {v}.isascii() and {v}.isprintable() and ' ' not in {v})"
            )
        return f"(type({v}) is str and {v} in _MARKETS)"

    def problem(self, value: object) -> str | None:
        """What is wrong with ``value``, or ``None``."""
        if self.shape == "int":
            if type(value) is not int or not self.low <= value <= self.high:
                return f"an integer from {self.low} to {self.high}"
            return None
        if self.shape == "ints":
            if not isinstance(value, tuple) or not self.low <= len(value) <= self.high:
                return f"a list of {self.low} to {self.high} card uids"
            for uid in value:
                if type(uid) is not int or not HIDDEN_ID <= uid <= MAX_ID:
                    return f"a list of card uids (integers from {HIDDEN_ID} to {MAX_ID})"
            return None
        if self.shape == "key":
            if not isinstance(value, str) or not self.low <= len(value) <= self.high:
                return f"a holder key of {self.low} to {self.high} characters"
            if not all("!" <= c <= "~" for c in value):
                return "a holder key of printable ASCII, without spaces"
            return None
        if value not in MARKET_NAMES:
            return "one of " + ", ".join(MARKET_NAMES)
        return None


BOUNDS: Mapping[str, Bound] = {
    "card": Bound("int", HIDDEN_ID),
    "cards": Bound("ints", 0, MAX_CARDS),
    "target": Bound("key", 1, MAX_KEY),
    "source": Bound("key", 1, MAX_KEY),
    "market": Bound("market"),
    "slot": Bound("int"),
    "on": Bound("int", HIDDEN_ID),
    "amount": Bound("int"),
    "option": Bound("int"),
}
"""Each field's bound, unless a kind narrows it (``ActionKind.bounds``)."""

_EMPTY: Mapping[str, object] = {
    "card": None,
    "cards": (),
    "target": None,
    "source": None,
    "market": None,
    "slot": None,
    "on": None,
    "amount": None,
    "option": None,
}
"""What a field reads as when it is left out (or when the kind has no such field)."""

_set = object.__setattr__


def _uids(uids: tuple[Any, ...]) -> bool:
    """Whether each of ``uids`` is a card uid an action may hold."""
    # A loop, not ``all()``: no generator for the one or two uids of most actions.
    for uid in uids:  # noqa: SIM110
        if type(uid) is not int or not HIDDEN_ID <= uid <= MAX_ID:
            return False
    return True


@dataclass_transform(kw_only_default=True, frozen_default=True, eq_default=True)
class _KindMaker(type):
    """Builds a kind from its annotations: the slots, the constructor, the
    tuple of values its equality and hash compare."""

    def __new__(mcs, name: str, bases: tuple[type, ...], ns: dict[str, Any]) -> _KindMaker:
        notes: dict[str, str] = ns.get("__annotations__", {})
        fields = [f for f, note in notes.items() if not str(note).startswith("ClassVar")]
        unknown = [f for f in fields if f not in _EMPTY]
        if unknown:
            raise TypeError(f"{name}: no action field may be called {unknown[0]!r}")
        # The kind's fields in ``to_json``'s order, whatever their order in the class.
        fields.sort(key=FIELD_ORDER.index)
        defaults = {f: ns.pop(f) for f in fields if f in ns}
        odd = [f for f, value in defaults.items() if value != _EMPTY[f]]
        if odd:
            # ``to_json`` leaves out, and ``problem`` lets pass, only the empty value.
            raise TypeError(f"{name}: {odd[0]!r} may default to {_EMPTY[odd[0]]!r} only")
        ns["__slots__"] = tuple(fields)
        ns["__match_args__"] = tuple(fields)
        ns["fields"] = tuple(fields)
        ns["required"] = tuple(f for f in fields if f not in defaults)
        own: Mapping[str, Bound] = ns.get("bounds", {})
        # What ``problem`` asks of each field, worked out once per kind.
        ns["_checks"] = tuple(
            (f, f not in defaults, _EMPTY[f], own.get(f) or BOUNDS[f]) for f in fields
        )
        scope: dict[str, Any] = {
            "_set": _set,
            "_defaults": defaults,
            "_uids": _uids,
            "_MARKETS": frozenset(MARKET_NAMES),
        }
        params = ", ".join(f"{f}=_defaults[{f!r}]" if f in defaults else f for f in fields)
        sets = "".join(f"\n    _set(self, {f!r}, {f})" for f in fields)
        values = "".join(f"self.{f}, " for f in fields)
        source = f"def _values(self):\n    return ({values})\n"
        tests = []
        for f, required, empty, bound in ns["_checks"]:
            test = bound.test(f"self.{f}")
            tests.append(test if required else f"(self.{f} == {empty!r} or {test})")
        source += f"def _fits(self):\n    return {' and '.join(tests) or 'True'}\n"
        if fields:
            source += f"def __init__(self, *, {params}):{sets}\n"
        exec(source, scope)  # the fastest constructor: no loop, no keyword dict
        ns["_values"] = scope["_values"]
        ns["_fits"] = scope["_fits"]
        if fields:
            ns["__init__"] = scope["__init__"]
        return super().__new__(mcs, name, bases, ns)


class _Reads:
    """Every field reads on every kind: as the kind's own value, or empty
    (``None``, ``()``) when the kind has no such field."""

    __slots__ = ()

    @property
    def card(self) -> int | None:
        """The card (uid) the action is about."""
        return None

    @property
    def cards(self) -> tuple[int, ...]:
        """The cards (uids) the action uses."""
        return ()

    @property
    def target(self) -> str | None:
        """The holder (its key) the action aims at."""
        return None

    @property
    def source(self) -> str | None:
        """The holder (its key) the action comes from."""
        return None

    @property
    def market(self) -> str | None:
        """The market row (or ``sixth``)."""
        return None

    @property
    def slot(self) -> int | None:
        """The Time Track slot, 1 to 4."""
        return None

    @property
    def on(self) -> int | None:
        """The card (uid) the action's card goes on or beside."""
        return None

    @property
    def amount(self) -> int | None:
        """A number: dice, or 1 for an option taken."""
        return None

    @property
    def option(self) -> int | None:
        """The option chosen."""
        return None


class ActionKind(_Reads, metaclass=_KindMaker):
    """One kind of action: a frozen record of exactly its own fields."""

    __slots__ = ()

    type: ClassVar[str]
    """The kind's name, as JSON data spells it (``end-turn``)."""
    fields: ClassVar[tuple[str, ...]] = ()
    """The kind's fields, in ``to_json``'s order."""
    required: ClassVar[tuple[str, ...]] = ()
    """The fields that must be given."""
    bounds: ClassVar[Mapping[str, Bound]] = {}
    """The kind's own bounds where they are narrower than the field's."""
    _checks: ClassVar[tuple[tuple[str, bool, object, Bound], ...]] = ()

    def _values(self) -> tuple[Any, ...]:
        return ()

    def _fits(self) -> bool:
        """Whether every field is of its type and in bounds (``problem`` says
        which is not, more slowly)."""
        return True

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"an action is frozen: {self.type} cannot change {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ActionKind):
            return NotImplemented
        return type(other) is type(self) and other._values() == self._values()

    def __hash__(self) -> int:
        return hash((self.type, self._values()))

    def __repr__(self) -> str:
        fields = ", ".join(f"{f}={v!r}" for f, v in zip(self.fields, self._values(), strict=True))
        return f"{type(self).__name__}({fields})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), dict(zip(self.fields, self._values(), strict=True))))

    def _replace(self, **changes: Any) -> Self:
        """The same action with some of its fields changed."""
        values = dict(zip(self.fields, self._values(), strict=True))
        values.update(changes)
        return type(self)(**values)

    def to_json(self) -> dict[str, Any]:
        """The action as JSON data, without empty fields."""
        out: dict[str, Any] = {"type": self.type}
        for name, value in zip(self.fields, self._values(), strict=True):
            if value is not None and value != ():
                out[name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def bound(cls, name: str) -> Bound:
        """What values the kind's field ``name`` takes."""
        return cls.bounds.get(name) or BOUNDS[name]

    def problem(self) -> str | None:
        """What makes the action not one of the engine's own shape (a field of
        the wrong type, or out of bounds), naming the kind and the field; or
        ``None``."""
        if self._fits():
            return None
        for (name, required, empty, bound), value in zip(self._checks, self._values(), strict=True):
            if not required and value == empty:
                continue  # left out
            if value is None and required:
                return f"{self.type}: {name!r} is missing"
            wanted = bound.problem(value)
            if wanted:
                return f"{self.type}: {name!r} must be {wanted}, not {_brief(value)}"
        return f"{self.type}: not of its own shape"  # ``_fits`` and this loop disagree

    @classmethod
    def optional_values(cls) -> Mapping[str, object]:
        """What each field that may be left out reads as then."""
        return {f: _EMPTY[f] for f in cls.fields if f not in cls.required}

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Self:
        """The action of this kind that JSON ``data`` holds (``type`` included);
        raises ``BadAction`` naming the kind and the field."""
        extra = [k for k in data if k != "type" and k not in cls.fields]
        if extra:
            takes = f"its fields: {', '.join(cls.fields)}" if cls.fields else "it has none"
            raise BadAction(f"{cls.type} has no field {extra[0]!r} ({takes})")
        missing = [f for f in cls.required if data.get(f) is None]
        if missing:
            raise BadAction(f"{cls.type}: {missing[0]!r} is missing")
        values = {f: data[f] for f in cls.fields if f in data}
        for name, value in values.items():
            if isinstance(value, list):
                values[name] = tuple(value)  # JSON has lists; actions hold tuples
        action = cls(**values)
        problem = action.problem()
        if problem:
            raise BadAction(problem)
        return action


def _rebuild(kind: type[ActionKind], values: dict[str, Any]) -> ActionKind:
    """An action rebuilt from its fields (for ``copy`` and ``pickle``)."""
    return kind(**values)


def _brief(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"
