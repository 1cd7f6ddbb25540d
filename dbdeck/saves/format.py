"""The save file: its format and version, its migrations, and the shape
every save is checked for.

A save is one JSON file per game, ``<id>.json`` in the saves folder, holding
the setup, the action log and a snapshot of the whole game.

Pydantic at the edge: a save is checked for shape, types and sizes before
any of it reaches the rules, which trust what they are given. The file's
own parts are checked here; its setup, actions and snapshots by its game
(``GameRules.read_setup``, ``read_action``, ``read_snapshot``), whose
models are derived from its own types so they cannot drift.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from dbdeck.saves.errors import _brief, _Unreadable
from dbdeck.saves.version import MAX_ACTIONS, SAVE_FORMAT, SAVE_VERSION, now
from dbdeck.seating import MAX_PACE
from dbdeck.tabletop.game import GameRules, SetupProblem
from dbdeck.tabletop.registry import DEFAULT_GAME

__all__ = [
    "MAX_ACTIONS",
    "MIGRATIONS",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "SaveFile",
    "SaveSummary",
    "SavedSeating",
]


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 changed only the game snapshots' form, which their game
    reads in either form (``GameRules.read_snapshot``)."""
    return data


def _v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    """Version 3 names the game; every earlier save is of the first game."""
    data.setdefault("game", DEFAULT_GAME)
    return data


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2, 2: _v2_to_v3}
"""``MIGRATIONS[v]`` turns a save of version ``v`` into version ``v + 1``."""

_now = now

_Text = Annotated[str, StringConstraints(max_length=400)]
_Name = Annotated[str, StringConstraints(max_length=200)]
_Count = Annotated[int, Field(ge=0, le=10**9)]
_Int = Annotated[int, Field(ge=-(2**128), le=2**128)]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, frozen=True)


class SaveSummary(_Strict):
    """What ``dbdeck saves`` shows of a game without loading it (the keys
    are the first game's words, which every save has used)."""

    villain: _Name
    """The side played against (a Villain, the other player)."""
    characters: list[_Name] = Field(max_length=16)
    """The roles in play (the Characters)."""
    turn: _Count
    """The turn the game is at."""
    round: _Count = 0
    """The round the game is at."""
    winner: _Name = ""
    """Who won (``""`` while the game goes on)."""


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
    game: _Name = DEFAULT_GAME
    """The game's id (``dbdeck.tabletop.registry``)."""
    id: _Name = ""
    """The game's id (the file's name is what counts)."""
    created: _Text = ""
    """When the game started (ISO 8601)."""
    updated: _Text = ""
    """When the save was written (ISO 8601)."""
    summary: SaveSummary | None = None
    """What the listing shows."""
    setup: dict[str, Any]
    """The setup the game started from (its game checks it)."""
    players: dict[_Name, _Name] = Field(default_factory=dict, max_length=16)
    """The player of each role."""
    seating: SavedSeating | None = None
    """How the table is run (``None``: a save from before it was kept)."""
    actions: list[dict[str, Any]] = Field(max_length=MAX_ACTIONS)
    """Every action played, in order."""
    undo_floor: _Count | None = None
    """Actions before this index cannot be undone."""
    floor_reason: _Text = "the game was loaded"
    """What revealed hidden information at the undo floor."""
    floor_snapshot: dict[str, Any] = Field(default_factory=dict)
    """The game at the undo floor (``{}``: nothing can be undone); its game
    checks its shape."""
    snapshot: dict[str, Any]
    """The whole game; it must be what the actions replay to (its game
    checks its shape)."""


class _Listing(_Strict):
    """The part of a save ``dbdeck saves`` reads."""

    format: Literal["dbdeck-save"]
    game: _Name = DEFAULT_GAME
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


def _check(
    path: Path, data: dict[str, Any], rules: GameRules[Any] | None
) -> tuple[SaveFile, Any, list[dict[str, Any]], int]:
    """The save's parts, checked for shape, types and sizes: its top level,
    its setup, its actions (each as its game writes it), its undo floor and,
    with its game's ``rules``, its snapshots (upgraded to their current
    form). Without ``rules`` the setup is its JSON data and the actions are
    not read."""
    try:
        top = SaveFile.model_validate(data)
    except ValidationError as exc:
        raise _Unreadable(f"{path}: {_problem(exc)}") from None
    if rules is None:
        return top, dict(top.setup), list(top.actions), _floor(path, top, len(top.actions))
    if top.game != rules.game_id:
        # Not moved aside: it is a good save of another game.
        raise _Unreadable(
            f"{path}: a save of the game {top.game!r}, not of {rules.game_id!r}", aside=False
        )
    try:
        setup = rules.read_setup(top.setup)
    except SetupProblem as exc:
        raise _Unreadable(f"{path}: {_brief(exc)}") from None
    actions: list[dict[str, Any]] = []
    for index, raw in enumerate(top.actions):
        # The game's models of its action kinds: exactly each kind's fields.
        try:
            actions.append(rules.action_json(rules.read_action(raw)))
        except ValidationError as exc:
            raise _Unreadable(f"{path}: {_problem(exc, f'actions.{index}')}") from None
        except ValueError as exc:
            raise _Unreadable(f"{path}: actions.{index}: {_brief(exc)}") from None
    for key in ("snapshot", "floor_snapshot"):
        if key == "floor_snapshot" and not data.get(key):
            continue
        try:
            data[key] = rules.read_snapshot(data[key])
        except ValidationError as exc:
            raise _Unreadable(f"{path}: {_problem(exc, key)}") from None
        except ValueError as exc:
            raise _Unreadable(f"{path}: {key}: {_brief(exc)}") from None
    return top, setup, actions, _floor(path, top, len(actions))


def _floor(path: Path, top: SaveFile, count: int) -> int:
    """The save's undo floor: at most its number of actions."""
    floor = count if top.undo_floor is None else top.undo_floor
    if floor > count:
        raise _Unreadable(f"{path}: undo_floor {floor} is past the {count} actions")
    return floor
