"""Tasks: the rules' work in progress, one slotted dataclass per kind.

The game keeps a stack of tasks (an attack's damage, a Minion's activation,
an effect's operations …). ``Game._advance`` pops the top one and calls its
``run``; a task that needs a person's answer leaves a decision pending and
stays on the stack until the answer comes (``Asking.choice``).

Each kind registers itself by its JSON name when its class is defined
(``@task_kind("damage")``); ``Task.from_json`` finds the class by that name.
A task's JSON form is the small object saves, clones and fingerprints have
always held: ``{"t": <kind>, …}`` with its fields in order, optional ones
left out while they have their default.

Holders (``dbdeck.games.deckbuilding.engine.holders``) in a task's fields are written as their
keys and read back by the fields declared with the ``HOLDER`` or ``CONTEXT``
metadata (``field(metadata=HOLDER)``), or with ``optional(None, holder=True)``;
a kind that reads its own JSON uses ``read_holder`` and ``read_holders``.

This module sits at the bottom of the engine (it imports only the holders
and an effect's context),
so every engine module, the Villains' included, can define its own tasks on
these bases without an import cycle.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import MISSING, Field, dataclass, field, fields
from typing import Any, ClassVar, TypeVar

from dbdeck.games.deckbuilding.engine.context import ContextError, EffectContext
from dbdeck.games.deckbuilding.engine.holders import Holder, HolderError, parse

__all__ = [
    "CONTEXT",
    "HOLDER",
    "KINDS",
    "Asking",
    "OrderItem",
    "Task",
    "TaskError",
    "VillainTask",
    "field_values",
    "make",
    "optional",
    "read_choice",
    "read_holder",
    "read_holders",
    "task_kind",
    "villain_rules",
    "villain_task",
]

_ATOMIC = frozenset({int, str, bool, float, type(None), EffectContext})
"""Field values a copy can share (an effect's context is frozen)."""

_OMIT = "omit"
"""Field metadata: a predicate on the task; true leaves the field out of the JSON."""
_KEY = "key"
"""Field metadata: the field's JSON key when it is not the field's name."""
_READ = "read"
"""Field metadata: turns the field's JSON value into the field's value."""
_WRITE = "write"
"""Field metadata: turns the field's value into its JSON value."""


class TaskError(ValueError):
    """Data that is not a task of a known kind."""


def optional(default: bool | None, **kwargs: Any) -> Any:
    """A field left out of the JSON while it holds ``default`` (``None``,
    ``True`` or ``False``: a flag or an answer that is not there yet);
    ``holder=True`` for one holding a holder when it is set."""
    name = kwargs.pop("key", None)
    metadata: dict[str, Any] = {_OMIT: lambda task, value: value is default}
    if kwargs.pop("holder", False):
        metadata[_READ] = _read_holder_or_none
    if name is not None:
        metadata[_KEY] = name
    return field(default=default, metadata=metadata, **kwargs)


def read_holder(value: Any) -> Holder:
    """A holder from its key in a task's JSON; ``TaskError`` for anything else."""
    try:
        return parse(value)
    except HolderError as exc:
        raise TaskError(str(exc)) from None


def _read_holder_or_none(value: Any) -> Holder | None:
    return None if value is None else read_holder(value)


def read_choice(value: Any) -> Any:
    """An answer as the task asking for a holder keeps it: a key read back
    as its holder; any other answer (``""`` for "no one", an index) as it is."""
    if isinstance(value, str) and value:
        try:
            return parse(value)
        except HolderError:
            return value
    return value


def _read_context(value: Any) -> EffectContext:
    try:
        return EffectContext.from_json(value)
    except ContextError as exc:
        raise TaskError(str(exc)) from None


def _write_context(value: EffectContext) -> dict[str, Any]:
    return value.to_json()


def read_holders(value: Any) -> list[Holder]:
    """Holders from a JSON array of their keys; ``TaskError`` for anything else."""
    if not isinstance(value, list):
        raise TaskError("a list of holders is a JSON array")
    return [read_holder(v) for v in value]


HOLDER: Mapping[str, Any] = {_READ: read_holder}
"""Field metadata of a field holding a holder: ``field(metadata=HOLDER)``."""
CONTEXT: Mapping[str, Any] = {_READ: _read_context, _WRITE: _write_context}
"""Field metadata of an effect's context (``context.EffectContext``), written
as the JSON object saves have always held."""


class Task:
    """One piece of the rules' work on the game's stack."""

    __slots__ = ()

    tag: ClassVar[str] = ""
    """The kind's name: the ``"t"`` of its JSON form."""
    queues_only: ClassVar[bool] = False
    """Whether running it only queues more tasks, changing nothing else:
    the game then need not look again for a defeat or a victory."""

    def run(self, game: Any) -> None:
        """Do the work (the task has been taken off the stack). A task that
        needs a choice pushes itself back with ``game.ask``.

        ``game`` is the rules' ``Reach`` (``engine/reach.py``), and each kind
        says so in its own ``run``: this module sits below the protocol (the
        protocol names the game state, which holds the tasks), so it cannot
        name it without a circle of imports."""
        raise NotImplementedError

    def answer(self, value: Any) -> None:
        """Record the answer to the decision this task waits for."""
        raise TypeError(f"a {self.tag!r} task asks nothing")

    def __deepcopy__(self, memo: dict[int, Any]) -> Task:
        # Field by field: several times faster than the generic copy of a
        # slotted object, and clones (bots, previews) copy the stack often.
        cls = type(self)
        new = cls.__new__(cls)
        for f in _fields_of(cls):
            value = getattr(self, f.name)
            if value.__class__ not in _ATOMIC:
                value = copy.deepcopy(value, memo)
            setattr(new, f.name, value)
        return new

    # --- JSON --------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The task as JSON data: ``{"t": kind, …fields}``."""
        data: dict[str, Any] = {"t": self.tag}
        for f in _fields_of(type(self)):
            value = getattr(self, f.name)
            omit = f.metadata.get(_OMIT)
            if omit is not None and omit(self, value):
                continue
            write = f.metadata.get(_WRITE)
            data[f.metadata.get(_KEY, f.name)] = _plain(value) if write is None else write(value)
        return data

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Task:
        """The task ``to_json`` wrote; ``TaskError`` for an unknown kind."""
        if not isinstance(data, Mapping):
            raise TaskError(f"a task is a JSON object, not {type(data).__name__}")
        kind = KINDS.get(data.get("t"))  # type: ignore[arg-type]
        if kind is None:
            raise TaskError(f"unknown task {data.get('t')!r}")
        return kind.read(data)

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Task:
        """A task of this kind from its JSON fields (absent ones take their
        defaults). Kinds holding other tasks read those themselves."""
        return cls(**field_values(cls, data))


class Asking(Task):
    """A task that may wait for a decision: the answer lands in ``choice``
    (``None`` until it is given). Subclasses declare the ``choice`` field
    last, with ``optional(None)``."""

    __slots__ = ()

    choice: Any

    @staticmethod
    def read_answer(value: Any) -> Any:
        """An answer read from JSON (the task's own ``choice``, or an option
        of the decision it waits for) as the task keeps it: a task whose
        answers may be holders reads them back (``read_choice``)."""
        return value

    def answer(self, value: Any) -> None:
        """Record the answer to the decision this task waits for."""
        self.choice = value


@dataclass(slots=True)
class OrderItem:
    """One of several simultaneous effects: its name and the task it is."""

    label: str
    task: Task

    def __deepcopy__(self, memo: dict[int, Any]) -> OrderItem:
        return OrderItem(self.label, copy.deepcopy(self.task, memo))

    def to_json(self) -> dict[str, Any]:
        """``{"label", "task"}``."""
        return {"label": self.label, "task": self.task.to_json()}


class VillainTask(Task):
    """A task of a Villain module's own rules.

    Their JSON kind is ``villain``, told apart by one more key: ``do`` or
    ``rule`` (the two words the modules have always used) naming the
    rule. Each module defines its classes with ``@villain_task``; one
    that asks is also an ``Asking``."""

    __slots__ = ()

    dialect: ClassVar[tuple[str, str]] = ("", "")
    """The key (``do`` or ``rule``) and the rule's name under it."""

    def to_json(self) -> dict[str, Any]:
        """``{"t": "villain", <key>: <rule>, …fields}``."""
        data = Task.to_json(self)
        key, rule = self.dialect
        return {"t": "villain", key: rule, **{k: v for k, v in data.items() if k != "t"}}


_VILLAIN_RULES: dict[tuple[str, str], type[VillainTask]] = {}


class _VillainKinds(Task):
    """Reads a ``villain`` task into the class of its rule."""

    __slots__ = ()

    tag = "villain"

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Task:
        """The Villain task whose ``do`` or ``rule`` the data names."""
        for key in ("do", "rule"):
            if key in data:
                kind = _VILLAIN_RULES.get((key, data[key]))
                if kind is None:
                    raise TaskError(f"unknown Villain rule {key}={data[key]!r}")
                return kind.read({k: v for k, v in data.items() if k != key})
        raise TaskError("a Villain task names its rule with 'do' or 'rule'")


KINDS: dict[str, type[Task]] = {"villain": _VillainKinds}
"""Every task kind by its JSON name, filled as the classes are defined."""

_T = TypeVar("_T", bound=type[Task])
_V = TypeVar("_V", bound=type[VillainTask])


def task_kind(name: str) -> Callable[[_T], _T]:
    """Register a task class under its JSON name (put it above
    ``@dataclass``, which builds a new class for slots)."""

    def register(cls: _T) -> _T:
        if name in KINDS and KINDS[name] is not cls:
            raise ValueError(f"two task kinds named {name!r}")
        cls.tag = name
        KINDS[name] = cls
        return cls

    return register


def villain_task(key: str, rule: str) -> Callable[[_V], _V]:
    """Register a Villain module's task: JSON ``{"t": "villain", key: rule}``."""

    def register(cls: _V) -> _V:
        if (key, rule) in _VILLAIN_RULES and _VILLAIN_RULES[key, rule] is not cls:
            raise ValueError(f"two Villain tasks named {key}={rule!r}")
        cls.tag = "villain"
        cls.dialect = (key, rule)
        _VILLAIN_RULES[key, rule] = cls
        return cls

    return register


def villain_rules() -> dict[tuple[str, str], type[VillainTask]]:
    """Every Villain task class by its ``(do|rule, name)``."""
    return dict(_VILLAIN_RULES)


_FIELDS: dict[type, tuple[Field[Any], ...]] = {}


def _fields_of(cls: type) -> tuple[Field[Any], ...]:
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = fields(cls)
    return found


def _plain(value: Any) -> Any:
    """JSON data for a field's value (tasks inside it included)."""
    if isinstance(value, Task):
        return value.to_json()
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    to_json = getattr(value, "to_json", None)
    if to_json is not None:
        return to_json()
    return value


def make(kind: str, **values: Any) -> Task:
    """A task of the kind named. For a rule that queues work of a module
    above its own (the end-of-game check queues the Wish): the layers run
    one way, so it names the kind instead of importing its class."""
    return KINDS[kind](**values)


def field_values(cls: type[Task], data: Mapping[str, Any]) -> dict[str, Any]:
    """A task class's fields found in its JSON data (copied), by field name;
    ``TaskError`` when one without a default is missing. For a kind's own
    ``read`` (a slotted dataclass's methods cannot call ``super()``)."""
    values: dict[str, Any] = {}
    read_answer = getattr(cls, "read_answer", None)
    for f in _fields_of(cls):
        key = f.metadata.get(_KEY, f.name)
        if key in data:
            value = copy.deepcopy(data[key])
            read = f.metadata.get(_READ)
            if read is not None:
                value = read(value)
            elif f.name == "choice" and read_answer is not None:
                value = read_answer(value)
            values[f.name] = value
        elif f.default is MISSING and f.default_factory is MISSING:
            raise TaskError(f"a {cls.tag!r} task needs {key!r}")
    return values
