"""The save file: its format and version, its migrations, and the shape
every save is checked for.

A save is one JSON file per game, ``<id>.json`` in the saves folder, holding
the setup, the action log and a snapshot of the whole game.

Pydantic at the edge: a save is checked for shape, types and sizes before
any of it reaches the engine, which trusts what it is given. The setup and
action models are derived from ``Setup`` and ``Action`` so they cannot drift.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    create_model,
    field_validator,
)

from dbdeck.games.deckbuilding.action_models import read_action
from dbdeck.games.deckbuilding.engine.game import Setup
from dbdeck.games.deckbuilding.engine.state import upgrade_snapshot
from dbdeck.saves.errors import _brief, _Unreadable
from dbdeck.saves.version import MAX_ACTIONS, SAVE_FORMAT, SAVE_VERSION, now
from dbdeck.seating import MAX_PACE

__all__ = [
    "MAX_ACTIONS",
    "MIGRATIONS",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "GameSnapshot",
    "SaveFile",
    "SaveSummary",
    "SavedSeating",
]


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 changed only the game snapshots' form (``upgrade_snapshot``)."""
    for key in ("snapshot", "floor_snapshot"):
        if isinstance(data.get(key), dict) and data[key]:
            data[key] = upgrade_snapshot(data[key])
    return data


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2}
"""``MIGRATIONS[v]`` turns a save of version ``v`` into version ``v + 1``."""

_now = now

_Text = Annotated[str, StringConstraints(max_length=400)]
_Name = Annotated[str, StringConstraints(max_length=200)]
_Count = Annotated[int, Field(ge=0, le=10**9)]
_Int = Annotated[int, Field(ge=-(2**128), le=2**128)]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, frozen=True)


class SaveSummary(_Strict):
    """What ``dbdeck saves`` shows of a game without loading it."""

    villain: _Name
    """The Villain's name."""
    characters: list[_Name] = Field(max_length=16)
    """The Characters' names."""
    turn: _Count
    """The turn the game is at."""
    round: _Count = 0
    """The round the game is at."""
    winner: _Name = ""
    """Who won (``""`` while the game goes on)."""


def _json_type(hint: Any) -> Any:
    """The JSON-side, bounded type of a field of ``Setup`` or ``Action``
    (tuples are JSON arrays; texts, numbers and lists have a size)."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return typing.Union[tuple(_json_type(a) for a in args)]  # noqa: UP007
    if origin in (list, tuple):
        return Annotated[list[_json_type(args[0])], Field(max_length=64)]  # type: ignore[misc]
    if hint is str:
        return _Name
    if hint is int:
        return _Int
    return hint


def _model_of(name: str, hints: dict[str, Any], defaults: dict[str, Any]) -> type[BaseModel]:
    fields: dict[str, Any] = {}
    for key, hint in hints.items():
        default = defaults.get(key, ...)
        fields[key] = (_json_type(hint), list(default) if isinstance(default, tuple) else default)
    model: type[BaseModel] = create_model(
        name, __config__=ConfigDict(strict=True, extra="forbid"), **fields
    )
    return model


def _setup_defaults() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in dataclasses.fields(Setup):
        if f.default is not dataclasses.MISSING:
            out[f.name] = f.default
        elif f.default_factory is not dataclasses.MISSING:
            out[f.name] = f.default_factory()
    return out


_SETUP_MODEL = _model_of("SavedSetup", typing.get_type_hints(Setup), _setup_defaults())

_Word = Annotated[int, Field(ge=0, lt=2**32)]


class GameSnapshot(_Strict):
    """The shape of ``Game.to_json``: compared with the replayed game, never
    loaded (so its state needs no deeper model here)."""

    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")

    version: int
    """The engine's snapshot version."""
    state: dict[str, Any]
    """The game state."""
    rng: Annotated[list[int | list[_Word] | float | None], Field(min_length=3, max_length=3)]
    """The Mersenne Twister's state, as ``random.getstate`` gives it."""

    @field_validator("rng")
    @classmethod
    def _mersenne(cls, rng: list[Any]) -> list[Any]:
        version, words, gauss = rng
        if type(version) is not int or not isinstance(words, list) or len(words) != 625:
            raise ValueError("not the state of a random generator")
        if gauss is not None and type(gauss) is not float:
            raise ValueError("not the state of a random generator")
        return rng


class SavedSeating(_Strict):
    """How the table is run, kept with the game so that a resume brings it
    back (a hidden-hands game stays hidden)."""

    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")

    hide_hands: bool = False
    """Hot-seat: every hand hidden between turns, a hand-off before each."""
    pace: Annotated[float, Field(ge=0, le=MAX_PACE, allow_inf_nan=False)] = 0.4
    """Seconds between the steps of the Villain's turn."""
    confirm_end_turn: bool = True
    """Ask before ending a turn with Energy unspent or cards still playable."""


class SaveFile(_Strict):
    """The top level of a save (after migration to ``SAVE_VERSION``)."""

    format: Literal["dbdeck-save"]
    """Always ``dbdeck-save``."""
    version: int
    """The save schema version."""
    id: _Name = ""
    """The game's id (the file's name is what counts)."""
    created: _Text = ""
    """When the game started (ISO 8601)."""
    updated: _Text = ""
    """When the save was written (ISO 8601)."""
    summary: SaveSummary | None = None
    """What the listing shows."""
    setup: dict[str, Any]
    """The ``Setup`` the game started from."""
    players: dict[_Name, _Name] = Field(default_factory=dict, max_length=16)
    """The player at each Character."""
    seating: SavedSeating | None = None
    """How the table is run (``None``: a save from before it was kept)."""
    actions: list[dict[str, Any]] = Field(max_length=MAX_ACTIONS)
    """Every action played, in order."""
    undo_floor: _Count | None = None
    """Actions before this index cannot be undone."""
    floor_reason: _Text = "the game was loaded"
    """What revealed hidden information at the undo floor."""
    floor_snapshot: GameSnapshot | Annotated[dict[str, Any], Field(max_length=0)] = Field(
        default_factory=dict
    )
    """The game at the undo floor (``{}``: nothing can be undone)."""
    snapshot: GameSnapshot
    """The whole game; it must be what the actions replay to."""


class _Listing(_Strict):
    """The part of a save ``dbdeck saves`` reads."""

    format: Literal["dbdeck-save"]
    updated: _Text = ""
    summary: SaveSummary


def _problem(exc: ValidationError, prefix: str = "") -> str:
    """The first problem of a validation error, on one line."""
    first = exc.errors()[0]
    where = ".".join(str(part) for part in (*([prefix] if prefix else []), *first["loc"]))
    more = f" (and {exc.error_count() - 1} more problems)" if exc.error_count() > 1 else ""
    return f"{where or 'the save'}: {first['msg']}{more}"


def _decode(path: Path, raw: bytes) -> dict[str, Any]:
    """The JSON object of a save, migrated to ``SAVE_VERSION``."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _Unreadable(f"{path}: cannot be read (not UTF-8 text at byte {exc.start})") from None
    try:
        loaded = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _Unreadable(
            f"{path}: cannot be read (not JSON: {exc.msg} at line {exc.lineno} column {exc.colno})"
        ) from None
    except (ValueError, RecursionError) as exc:  # huge numbers, deep nesting
        raise _Unreadable(f"{path}: cannot be read (not usable JSON: {_brief(exc)})") from None
    if not isinstance(loaded, dict) or loaded.get("format") != SAVE_FORMAT:
        raise _Unreadable(f"{path}: not a dbdeck save")
    data: dict[str, Any] = loaded
    version = data.get("version")
    if type(version) is not int:  # not ``isinstance``: ``true`` is no version
        raise _Unreadable(f"{path}: no save version")
    if version > SAVE_VERSION:
        # Not moved aside: a newer dbdeck reads it fine.
        raise _Unreadable(
            f"{path}: saved by a newer dbdeck (save version {version}; this "
            f"dbdeck reads up to {SAVE_VERSION}). Update dbdeck to load it.",
            aside=False,
        )
    while version < SAVE_VERSION:
        if version not in MIGRATIONS:
            raise _Unreadable(f"{path}: save version {version} cannot be migrated")
        try:
            data = MIGRATIONS[version](data)
        except Exception as exc:  # a migration meets whatever the file holds
            raise _Unreadable(
                f"{path}: save version {version} could not be migrated "
                f"({type(exc).__name__}: {_brief(exc)})"
            ) from None
        if not isinstance(data, dict):
            raise _Unreadable(f"{path}: save version {version} could not be migrated")
        version += 1
        data["version"] = version
    return data


def _check(path: Path, data: dict[str, Any]) -> tuple[SaveFile, Setup, list[dict[str, Any]], int]:
    """The save's parts, checked for shape, types and sizes: its top level,
    its setup, its actions (each as ``Action.to_json`` writes it) and its
    undo floor."""
    try:
        top = SaveFile.model_validate(data)
    except ValidationError as exc:
        raise _Unreadable(f"{path}: {_problem(exc)}") from None
    try:
        setup = _SETUP_MODEL.model_validate(top.setup)
    except ValidationError as exc:
        raise _Unreadable(f"{path}: {_problem(exc, 'setup')}") from None
    actions: list[dict[str, Any]] = []
    for index, raw in enumerate(top.actions):
        # The wire's models of the action kinds: exactly each kind's fields.
        try:
            actions.append(read_action(raw).to_json())
        except ValidationError as exc:
            raise _Unreadable(f"{path}: {_problem(exc, f'actions.{index}')}") from None
    floor = len(actions) if top.undo_floor is None else top.undo_floor
    if floor > len(actions):
        raise _Unreadable(f"{path}: undo_floor {floor} is past the {len(actions)} actions")
    return top, Setup(**setup.model_dump()), actions, floor
