"""Saved games that never get lost: autosave, locking, backups, migration.

A save is one JSON file per game, ``<id>.json`` in the saves folder, holding
the setup, the action log and a snapshot of the whole game. Every write goes
to a private temporary file with a random name in the same folder, is flushed
to disk, and replaces the save by an atomic rename; the previous save is kept
as ``<id>.bak``. A process killed at any moment leaves either the old save or
the new one, never a torn file; a write that fails (a full disk) leaves the
old one and changes nothing in the game. A save that cannot be read is moved
aside (``<id>.corrupt-<time>.json``), never overwritten, and its backup is
offered.

Saves are private: files are created 0600 in folders created 0700, since a
save holds the seed (every future shuffle) and a crash report the game's
insides. Every reader is total: whatever a file holds, reading it either
gives a save that replays or raises ``SaveError`` with one line naming it.

``Session`` ties a game to its save: it records actions, autosaves after
each one (an action counts only once it is on disk), and undoes back to the
last moment hidden information was revealed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import fcntl
import json
import os
import re
import secrets
import stat
import time
import traceback
import types
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal, TextIO

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    create_model,
    field_validator,
)

from dbdeck.cards.catalog import Catalog
from dbdeck.engine.actions import ACTION_TYPES, Action, IllegalAction
from dbdeck.engine.events import Event
from dbdeck.engine.game import Game, Setup, SetupError

__all__ = [
    "MAX_SAVE_BYTES",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "SaveError",
    "SaveFailed",
    "SaveInUse",
    "Session",
    "list_saves",
    "read_save",
    "saves_dir",
    "scan_saves",
    "write_private",
]

SAVE_FORMAT = "dbdeck-save"
SAVE_VERSION = 1
"""The save schema version this program writes."""

SAVES_ENV = "DBDECK_SAVES"

MAX_SAVE_BYTES = 64 * 1024 * 1024
"""The largest save file read (a long game's save is a few hundred KiB)."""

MAX_ACTIONS = 100_000
"""The most actions a save may hold (a whole game takes a few hundred)."""

REVEALING = frozenset({"draw", "shuffle", "roll", "reveal", "search", "summon"})
"""Event types that reveal hidden information: undo never goes back past them."""

MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}
"""``MIGRATIONS[v]`` turns a save of version ``v`` into version ``v + 1``."""

MAX_ID = 200
"""The longest save id: it names files, a table and its socket."""


class SaveError(Exception):
    """A save could not be read; the message says why and what was done."""

    def __init__(self, message: str, *, backup: Path | None = None) -> None:
        super().__init__(message)
        self.backup = backup


class SaveInUse(SaveError):
    """Another dbdeck process holds the save."""


class SaveFailed(SaveError):
    """A file could not be written (full disk, lost permission, ...): what
    was on disk before is still there, and the change was not applied.

    Not a bug, so no crash report: the message says what to do.
    """

    def __init__(self, message: str, *, code: int | None = None) -> None:
        super().__init__(message)
        self.errno = code
        """The ``errno`` of the failed write, if any."""

    @classmethod
    def from_os_error(
        cls, exc: OSError, not_applied: str = "the last action was not applied"
    ) -> SaveFailed:
        """The plain-words failure for an ``OSError`` met while writing;
        ``not_applied`` says what did not happen."""
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return cls(f"the disk is full: {not_applied}; free space and retry", code=exc.errno)
        reason = exc.strerror or str(exc) or type(exc).__name__
        return cls(f"the game could not be saved ({reason}): {not_applied}", code=exc.errno)


def saves_dir(override: str | Path | None = None) -> Path:
    """The saves folder: ``override``, else ``DBDECK_SAVES``, else the
    platform's user state folder."""
    if override:
        return Path(override)
    if os.environ.get(SAVES_ENV):
        return Path(os.environ[SAVES_ENV])
    import platformdirs

    return Path(platformdirs.user_state_dir("dbdeck")) / "saves"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def new_id(setup: Setup) -> str:
    """A readable save id: when, which Villain, and a random tail.

    Never the seed: the id names the save file, the table and its socket,
    which other users of a shared box see, and the seed would let them
    replay every shuffle. The random tail also keeps apart two games of the
    same Villain started in the same second.
    """
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return f"{stamp}-{setup.villain}-{secrets.token_hex(3)}"


NEW_ID_TRIES = 16
"""How many fresh ids ``Session.start`` tries before giving up."""


def _valid_id(save_id: str) -> bool:
    """Whether ``save_id`` is a plain file name: no folder (``../x``), not
    hidden, nothing unprintable."""
    return (
        0 < len(save_id) <= MAX_ID
        and save_id.isprintable()
        and "/" not in save_id
        and not save_id.startswith(".")
    )


def _check_id(save_id: str) -> None:
    if not _valid_id(save_id):
        raise SaveError(f"{save_id!r} is not a save id (a file name, without a folder)")


def _one_line(text: str) -> str:
    """``text`` without line breaks or control characters, for a message."""
    return "".join(c if c.isprintable() else " " for c in text)


# --- the shape of a save -------------------------------------------------------------------
#
# Pydantic at the edge: a save is checked for shape, types and sizes before
# any of it reaches the engine, which trusts what it is given. The setup and
# action models are derived from ``Setup`` and ``Action`` so they cannot drift.

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
_ACTION_MODEL = _model_of(
    "SavedAction", typing.get_type_hints(Action), dict(Action._field_defaults)
)


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


@dataclass
class Loaded:
    """A save read and checked: its data, and (when a card set was given)
    the game rebuilt from its setup and actions."""

    data: dict[str, Any]
    """The save's JSON data (migrated to ``SAVE_VERSION``)."""
    setup: Setup
    actions: list[dict[str, Any]]
    """The actions, each as ``Action.to_json`` writes it."""
    players: dict[str, str]
    undo_floor: int
    floor_reason: str
    created: str
    game: Game | None = None
    """The game after the actions (``None`` when no card set was given)."""
    replays: bool = True
    """Whether the setup and actions replay to the game (else it was opened
    from its snapshot, and its log cannot be rebuilt)."""
    floor_snapshot: dict[str, Any] = field(default_factory=dict)


# --- reading ----------------------------------------------------------------------------


class _Unreadable(SaveError):
    """A file that holds no usable save; ``aside`` says whether moving it
    aside helps (bad content does; a permission problem does not)."""

    def __init__(self, message: str, *, aside: bool = True) -> None:
        super().__init__(_one_line(message))
        self.aside = aside


def _read_bytes(path: Path) -> bytes:
    """The bytes of a regular file of at most ``MAX_SAVE_BYTES``.

    Opened without following a symlink and without blocking, so a symlink to
    ``/dev/zero`` or a FIFO planted as a save is refused instead of hanging.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _Unreadable(f"{path}: is a symbolic link, not a save file") from None
        raise _Unreadable(f"{path}: cannot be read ({exc.strerror})", aside=False) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _Unreadable(
                f"{path}: is not a regular file", aside=not stat.S_ISDIR(info.st_mode)
            )
        too_big = f"{path}: is too large for a save (more than {MAX_SAVE_BYTES} bytes)"
        if info.st_size > MAX_SAVE_BYTES:
            raise _Unreadable(too_big)
        chunks: list[bytes] = []
        total = 0
        while chunk := os.read(fd, min(1 << 20, MAX_SAVE_BYTES + 1 - total)):
            chunks.append(chunk)
            total += len(chunk)
            if total > MAX_SAVE_BYTES:  # it grew while being read
                raise _Unreadable(too_big)
        return b"".join(chunks)
    except OSError as exc:
        raise _Unreadable(f"{path}: cannot be read ({exc.strerror})", aside=False) from None
    finally:
        os.close(fd)


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


def _check(path: Path, data: dict[str, Any]) -> Loaded:
    """The save's parts, checked for shape, types and sizes."""
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
        try:
            checked = _ACTION_MODEL.model_validate(raw).model_dump()
            if checked["type"] not in ACTION_TYPES:
                raise _Unreadable(f"{path}: actions.{index}: unknown action {checked['type']!r}")
            if checked.get("cards") is not None:
                checked["cards"] = tuple(checked["cards"])
            actions.append(Action(**checked).to_json())
        except ValidationError as exc:
            raise _Unreadable(f"{path}: {_problem(exc, f'actions.{index}')}") from None
    floor = len(actions) if top.undo_floor is None else top.undo_floor
    if floor > len(actions):
        raise _Unreadable(f"{path}: undo_floor {floor} is past the {len(actions)} actions")
    return Loaded(
        data,
        Setup(**setup.model_dump()),
        actions,
        dict(top.players),
        floor,
        top.floor_reason,
        top.created or _now(),
        floor_snapshot=dict(data.get("floor_snapshot") or {}),
    )


def _brief(said: object, limit: int = 200) -> str:
    """An error's text, short enough for one line of a message."""
    text = str(said)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _same(game: Game, snapshot: dict[str, Any]) -> bool:
    # Through JSON text and back: tuples become lists, as in the file.
    return bool(json.loads(json.dumps(game.to_json())) == snapshot)


def _replay(catalog: Catalog, path: Path, loaded: Loaded) -> None:
    """Open the game: rebuilt from the setup and the actions when they
    replay to the saved snapshot, else from the snapshot itself.

    A save written by rules that play differently (a rules fix since, say)
    no longer replays to its snapshot. The game then goes on from the
    snapshot, the table the players last saw, rather than being lost; only
    a save that neither replays nor holds a snapshot the engine can load is
    unreadable."""
    try:
        _rebuild(catalog, path, loaded)
    except _Unreadable as replay_failed:
        try:
            game = Game.from_json(catalog, loaded.data["snapshot"])
            game.legal_actions()  # a snapshot the engine cannot read fails here, not later
        except Exception:  # whatever a damaged snapshot makes the engine do
            raise replay_failed from None
        game.events = []
        loaded.game = game
        loaded.replays = False


def _rebuild(catalog: Catalog, path: Path, loaded: Loaded) -> None:
    """Rebuild the game from the setup and the actions, which must replay to
    the save's snapshots."""
    count = len(loaded.actions)
    try:
        game = Game.new(catalog, loaded.setup)
    except SetupError as exc:
        raise _Unreadable(f"{path}: its setup is not a game ({_brief(exc)})") from None
    except Exception as exc:  # whatever a crafted setup makes the engine do
        raise _Unreadable(
            f"{path}: its setup is not a game ({type(exc).__name__}: {_brief(exc)})"
        ) from None
    game.step_mode = True  # plays the same game; lets a paused save resume paused
    floor: dict[str, Any] = game.to_json() if loaded.undo_floor == 0 else {}
    snapshot = loaded.data["snapshot"]
    for index, data in enumerate(loaded.actions):
        last = index == count - 1
        try:
            game.apply(Action.from_json(data))
            # A paused last action: stop where the save was written.
            while game.state.paused and not (last and _same(game, snapshot)):
                game.resume()
        except IllegalAction as exc:
            raise _Unreadable(
                f"{path}: action {index + 1} of {count} does not replay ({_brief(exc.reason)})"
            ) from None
        except Exception as exc:  # the engine trusts its actions; a save is no proof
            raise _Unreadable(
                f"{path}: action {index + 1} of {count} does not replay "
                f"({type(exc).__name__}: {_brief(exc)})"
            ) from None
        if index + 1 == loaded.undo_floor and not game.state.paused:
            floor = game.to_json()
    # Same seed and same actions, same game: a save that says otherwise was
    # edited, or written by rules that play differently, and is not this game.
    if not _same(game, snapshot):
        raise _Unreadable(f"{path}: its snapshot is not the game its actions replay to")
    if loaded.floor_snapshot and loaded.floor_snapshot != json.loads(json.dumps(floor)):
        raise _Unreadable(
            f"{path}: its undo snapshot is not the game its first {loaded.undo_floor} "
            "actions replay to"
        )
    game.step_mode = False
    game.events = []
    loaded.game = game


def _load(path: Path, catalog: Catalog | None) -> Loaded:
    loaded = _check(path, _decode(path, _read_bytes(path)))
    if catalog is not None:
        _replay(catalog, path, loaded)
    return loaded


def _move_aside(folder: Path, save_id: str, path: Path, exc: _Unreadable) -> SaveError:
    backup = folder / f"{save_id}.bak"
    offered = backup if backup.is_file() else None
    if not exc.aside:
        return SaveError(str(exc), backup=offered)
    aside = folder / f"{save_id}.corrupt-{int(time.time())}.json"
    try:
        os.replace(path, aside)
    except OSError as error:
        return SaveError(f"{exc}. It could not be moved aside ({error.strerror}).", backup=offered)
    return SaveError(f"{exc}. It was moved to {aside}.", backup=offered)


_TOKEN = re.compile(r"[0-9a-f]{16}")


def _temporary_of(save_id: str, name: str, kinds: tuple[str, ...] = ("json",)) -> bool:
    """Whether ``name`` is a temporary file of this save (``.<id>.json.<token>.tmp``,
    the old fixed ``.<id>.json.tmp``) and not of another game's id that
    happens to start the same way."""
    if name == f".{save_id}.json.tmp":
        return True
    for kind in kinds:
        start = f".{save_id}.{kind}."
        token = name[len(start) : -len(".tmp")]
        if name.startswith(start) and name.endswith(".tmp") and _TOKEN.fullmatch(token):
            return True
    return False


def _pending(folder: Path, save_id: str) -> list[Path]:
    """Temporary files of a save, newest first (the old fixed name too)."""
    try:
        found = [folder / n for n in os.listdir(folder) if _temporary_of(save_id, n)]
    except OSError:
        return []

    def age(path: Path) -> float:
        try:
            return path.lstat().st_mtime
        except OSError:
            return 0.0

    return sorted(found, key=age, reverse=True)


def load_save(
    folder: Path, save_id: str, *, catalog: Catalog | None = None, from_backup: bool = False
) -> Loaded:
    """Read and check a save; with ``catalog``, also rebuild its game (so a
    save whose actions do not replay is refused too).

    Raises ``SaveError`` (one line, naming the file) for anything else. A
    save that cannot be used is moved aside and the error names its backup.
    """
    _check_id(save_id)
    path = folder / f"{save_id}.json"
    backup = folder / f"{save_id}.bak"
    if from_backup:
        if not backup.exists():
            raise SaveError(f"no backup of {save_id!r}")
        return _load(backup, catalog)
    if not os.path.lexists(path):
        # Killed between two renames (a file system without hard links): the
        # newest complete temporary file is the save.
        for pending in _pending(folder, save_id):
            with contextlib.suppress(SaveError, OSError):
                loaded = _load(pending, catalog)
                os.replace(pending, path)
                return loaded
        if backup.exists():
            raise SaveError(f"{path} is missing", backup=backup)
        raise SaveError(f"no saved game {save_id!r} in {folder}")
    try:
        return _load(path, catalog)
    except _Unreadable as exc:
        raise _move_aside(folder, save_id, path, exc) from None


def read_save(
    folder: Path, save_id: str, *, from_backup: bool = False, catalog: Catalog | None = None
) -> dict[str, Any]:
    """The data of a save, checked for shape (and, with ``catalog``, that its
    actions replay). A save that cannot be used is moved aside and
    ``SaveError`` names it and the backup (if any)."""
    return load_save(folder, save_id, catalog=catalog, from_backup=from_backup).data


@dataclass
class SaveInfo:
    """One line of ``dbdeck saves``."""

    id: str
    villain: str
    characters: list[str]
    turn: int
    updated: str
    winner: str
    path: Path


def _listing(path: Path) -> SaveInfo:
    raw = _read_bytes(path)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        raise _Unreadable(f"{path}: cannot be read (not JSON)") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise _Unreadable(f"{path}: not a dbdeck save")
    try:
        top = _Listing.model_validate(data)
    except ValidationError as exc:
        raise _Unreadable(f"{path}: {_problem(exc)}") from None
    s = top.summary
    names = [s.villain, *s.characters, s.winner, top.updated]
    if not all(name.isprintable() for name in names):  # nothing to print but text
        raise _Unreadable(f"{path}: summary: unprintable characters")
    return SaveInfo(path.stem, s.villain, list(s.characters), s.turn, top.updated, s.winner, path)


def scan_saves(folder: Path) -> tuple[list[SaveInfo], list[str]]:
    """The saved games, the most recently played first, and one line for
    each file that could not be listed. A save that cannot be read is listed
    from its backup, so it can still be continued."""
    try:
        names = sorted(os.listdir(folder))
    except FileNotFoundError:
        return [], []
    except OSError as exc:
        return [], [_one_line(f"{folder}: cannot be listed ({exc.strerror})")]
    found: dict[str, SaveInfo] = {}
    problems: dict[str, str] = {}
    candidates = [n for n in names if n.endswith(".json")] + [
        n for n in names if n.endswith(".bak")
    ]
    for name in candidates:
        path = folder / name
        if name.startswith(".") or ".corrupt-" in name or path.stem in found:
            continue
        if not _valid_id(path.stem):
            continue
        try:
            found[path.stem] = _listing(path)
        except SaveError as exc:
            problems.setdefault(path.stem, str(exc))
    notes = []
    for stem, problem in problems.items():
        if stem in found:
            notes.append(f"{problem} (listed from its backup)")
        else:
            notes.append(f"{problem} (skipped)")
    saves = sorted(found.values(), key=lambda s: s.updated, reverse=True)
    return saves, notes


def list_saves(folder: Path) -> list[SaveInfo]:
    """Saved games, the most recently played first. A save that cannot be
    read is listed from its backup, so it can still be continued; one that
    cannot be listed at all is left out (``scan_saves`` says why)."""
    return scan_saves(folder)[0]


# --- the session --------------------------------------------------------------------------


@dataclass
class Session:
    """A game with its save: record, autosave, undo.

    Every change (``apply``, ``resume_villain``, ``undo``) is worked out on
    a copy and takes effect only once its save is on disk: when the write
    fails, ``SaveFailed`` is raised and the game, the actions and the undo
    floor stay as they were at the last save.
    """

    catalog: Catalog
    game: Game
    setup: Setup
    folder: Path
    id: str
    actions: list[dict[str, Any]] = field(default_factory=list)
    undo_floor: int = 0
    """Actions before this index cannot be undone (hidden information was
    revealed by the action just before it)."""
    floor_snapshot: dict[str, Any] = field(default_factory=dict)
    floor_reason: str = "the game starts"
    players: dict[str, str] = field(default_factory=dict)
    created: str = field(default_factory=_now)
    _lock: TextIO | None = None

    # --- opening ----------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        catalog: Catalog,
        setup: Setup,
        folder: Path,
        players: dict[str, str] | None = None,
        save_id: str | None = None,
    ) -> Session:
        """A new game, saved at once (under ``save_id``, else a fresh id that
        no save in ``folder`` has yet). ``SaveFailed`` if it cannot be
        written: no game is claimed that is not on disk."""
        game = Game.new(catalog, setup)
        if save_id:
            _check_id(save_id)
            session = cls(catalog, game, setup, folder, save_id, players=dict(players or {}))
            session.lock()
        else:
            session = cls._fresh(catalog, game, setup, folder, dict(players or {}))
        session.floor_snapshot = game.to_json()
        try:
            session._write(session.data(), "the game was not started")
        except SaveFailed:
            session.close()
            if not os.path.lexists(folder / f"{session.id}.json"):
                with contextlib.suppress(OSError):
                    os.unlink(folder / f"{session.id}.lock")
            raise
        return session

    @classmethod
    def _fresh(
        cls, catalog: Catalog, game: Game, setup: Setup, folder: Path, players: dict[str, str]
    ) -> Session:
        """A locked session under an id no other game uses: a new game must
        never overwrite (or wait for) another one."""

        def taken(save_id: str) -> bool:
            return any(os.path.lexists(folder / f"{save_id}{end}") for end in (".json", ".bak"))

        for _ in range(NEW_ID_TRIES):
            save_id = new_id(setup)
            if taken(save_id):
                continue
            session = cls(catalog, game, setup, folder, save_id, players=players)
            try:
                session.lock()
            except SaveInUse:
                continue  # another process is starting a game under this id
            if taken(save_id):
                session.close()  # it started and saved while this one looked
                continue
            return session
        raise SaveError(f"no free save id in {folder} after {NEW_ID_TRIES} tries")

    @classmethod
    def resume(
        cls, catalog: Catalog, folder: Path, save_id: str, *, from_backup: bool = False
    ) -> Session:
        """Open a saved game where it was left. The game is rebuilt from its
        setup and actions; anything wrong with the file is a ``SaveError``."""
        loaded = load_save(folder, save_id, catalog=catalog, from_backup=from_backup)
        assert loaded.game is not None
        session = cls(
            catalog,
            loaded.game,
            loaded.setup,
            folder,
            save_id,  # the file's name, whatever the file says: it is where it saves
            loaded.actions,
            loaded.undo_floor,
            loaded.floor_snapshot,
            loaded.floor_reason,
            loaded.players,
            loaded.created,
        )
        session.lock()
        if from_backup:
            try:
                session._write(session.data(), "the backup was not restored")
            except SaveFailed:
                session.close()
                raise
        return session

    def lock(self) -> None:
        """Hold the save's lock file: a second process cannot play it too."""
        path = self.folder / f"{self.id}.lock"
        try:
            make_private_dir(self.folder)
            # Never through a symlink; born private. Not O_EXCL: the lock
            # file outlives the process that held it.
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, PRIVATE_FILE)
        except OSError as exc:
            raise SaveFailed(
                _one_line(f"{path}: cannot be locked ({exc.strerror})"), code=exc.errno
            ) from None
        handle = os.fdopen(fd, "r+", encoding="utf-8")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            try:
                handle.seek(0)
                holder = handle.read(200).strip() or "another process"
            except (OSError, ValueError):
                holder = "another process"
            handle.close()
            raise SaveInUse(
                _one_line(f"the game {self.id!r} is open in another dbdeck ({holder})")
            ) from None
        with contextlib.suppress(OSError):  # who holds it is only a courtesy
            handle.seek(0)
            handle.truncate()
            handle.write(f"pid {os.getpid()}")
            handle.flush()
        self._lock = handle
        self._sweep()

    def _sweep(self) -> None:
        """Remove temporary files a killed process left behind. Only while
        holding the lock (nobody else writes this save) and only once the
        save itself exists (else one of them may be the save, see
        ``load_save``)."""
        if not os.path.lexists(self.folder / f"{self.id}.json"):
            return
        try:
            names = os.listdir(self.folder)
        except OSError:
            return
        for name in names:
            if _temporary_of(self.id, name, ("json", "bak")):
                with contextlib.suppress(OSError):
                    os.unlink(self.folder / name)

    def close(self) -> None:
        """Release the lock."""
        if self._lock is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._lock, fcntl.LOCK_UN)
            with contextlib.suppress(OSError):
                self._lock.close()
            self._lock = None

    # --- playing -----------------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Apply an action, record it and save. An illegal one raises
        ``IllegalAction``, a failed save ``SaveFailed``; neither changes
        anything."""
        game = self.game.clone()
        events = game.apply(action)
        actions = [*self.actions, action.to_json()]
        floor, snapshot, reason = self.undo_floor, self.floor_snapshot, self.floor_reason
        revealing = next((e for e in events if e.type in REVEALING), None)
        if revealing is not None or game.state.paused:
            floor = len(actions)
            snapshot = game.to_json() if not game.state.paused else {}
            reason = revealing.text if revealing else "the Villain played"
        self._commit(game, actions, floor, snapshot, reason, "the last action was not applied")
        return events

    def resume_villain(self) -> list[Event]:
        """Go on with a paused Villain turn (the table's step mode); a failed
        save raises ``SaveFailed`` and the Villain stays where it was."""
        if not self.game.state.paused:
            return []
        game = self.game.clone()
        events = game.resume()
        floor, snapshot, reason = self.undo_floor, self.floor_snapshot, self.floor_reason
        if not game.state.paused:
            floor, snapshot, reason = len(self.actions), game.to_json(), "the Villain played"
        self._commit(
            game, self.actions, floor, snapshot, reason, "the Villain's step was not applied"
        )
        return events

    # --- undo --------------------------------------------------------------------------

    def undoable(self) -> int:
        """How many actions can be undone now."""
        return len(self.actions) - self.undo_floor

    def undo(self) -> bool:
        """Undo the last action, unless hidden information was revealed since
        (or by) it. Returns whether something was undone; a failed save
        raises ``SaveFailed`` and undoes nothing."""
        if self.undoable() <= 0 or not self.floor_snapshot:
            return False
        actions = self.actions[:-1]
        game = Game.from_json(self.catalog, self.floor_snapshot)
        game.step_mode = self.game.step_mode
        for data in actions[self.undo_floor :]:
            game.apply(Action.from_json(data))
        self._commit(
            game,
            actions,
            self.undo_floor,
            self.floor_snapshot,
            self.floor_reason,
            "the undo was not applied",
        )
        return True

    # --- saving ------------------------------------------------------------------------

    def _commit(
        self,
        game: Game,
        actions: list[dict[str, Any]],
        floor: int,
        snapshot: dict[str, Any],
        reason: str,
        not_applied: str,
    ) -> None:
        """Write the save of this next state, then make it the session's:
        nothing counts that is not on disk."""
        self._write(self._data(game, actions, floor, snapshot, reason), not_applied)
        self.game, self.actions = game, actions
        self.undo_floor, self.floor_snapshot, self.floor_reason = floor, snapshot, reason

    def _data(
        self,
        game: Game,
        actions: list[dict[str, Any]],
        floor: int,
        snapshot: dict[str, Any],
        reason: str,
    ) -> dict[str, Any]:
        s = game.state
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "id": self.id,
            "created": self.created,
            "updated": _now(),
            "summary": {
                "villain": game.name("v"),
                "characters": [game.name("c:" + c.id) for c in s.characters],
                "turn": s.turn,
                "round": s.round,
                "winner": s.winner,
            },
            "setup": self.setup.to_json(),
            "players": self.players,
            "actions": actions,
            "undo_floor": floor,
            "floor_reason": reason,
            "floor_snapshot": snapshot,
            "snapshot": game.to_json(),
        }

    def data(self) -> dict[str, Any]:
        """The save as JSON data."""
        return self._data(
            self.game, self.actions, self.undo_floor, self.floor_snapshot, self.floor_reason
        )

    def _write(self, data: dict[str, Any], not_applied: str) -> None:
        write_atomic(
            self.folder, self.id, json.dumps(data, separators=(",", ":")), not_applied=not_applied
        )

    def save(self) -> Path:
        """Write the save crash-safely (private temporary file, fsync, atomic
        rename; the previous save becomes the backup). ``SaveFailed`` when
        it cannot be written; the save on disk is then as it was."""
        self._write(self.data(), "the game was not saved")
        return self.folder / f"{self.id}.json"

    def crash_report(self, error: BaseException) -> Path:
        """Write a crash report beside the save; returns its path. The save on
        disk is the game as it was before the failing action, so nothing is
        lost and the game reloads from it."""
        about = f"save: {self.id}\nseed: {self.setup.seed}\nactions: {len(self.actions)}\n"
        return write_crash_report(self.folder, error, about)


# --- private files ----------------------------------------------------------------------
#
# On a shared box the saves hold the seed (and so every future shuffle), the
# players' names and the crash reports' tracebacks: nothing another user may
# read. Files are born 0600 and folders 0700 (no chmod afterwards, which would
# leave a window), and every file is created with O_EXCL|O_NOFOLLOW under a
# random name so that a symlink planted at a predictable name cannot redirect
# a write.

PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700
_CREATE = os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_WRONLY | os.O_CLOEXEC


def make_private_dir(folder: Path) -> None:
    """Create ``folder`` and each missing parent with mode 0700 (folders that
    already exist are left as they are)."""
    missing: list[Path] = []
    here = folder
    while not here.exists() and here != here.parent:
        missing.append(here)
        here = here.parent
    for path in reversed(missing):
        # os.makedirs gives the parents the default mode, not ``mode``.
        with contextlib.suppress(FileExistsError):
            os.mkdir(path, PRIVATE_DIR)
    if not folder.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder))


def _create_private(path: Path) -> int:
    """A new file at ``path`` open for writing, mode 0600; fails if anything
    (a file, a symlink) is already there."""
    return os.open(path, _CREATE, PRIVATE_FILE)


def _write_fd(fd: int, data: bytes) -> None:
    """Write all of ``data`` to ``fd`` and force it to the disk."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    os.fsync(fd)


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _private_temp(path: Path, data: bytes) -> Path:
    """A complete, fsynced private copy of ``data`` beside ``path`` under a
    random name ``.<name>.<token>.tmp``; nothing is left behind on failure."""
    make_private_dir(path.parent)
    while True:
        pending = path.parent / f".{path.name}.{secrets.token_hex(8)}.tmp"
        try:
            fd = _create_private(pending)
        except FileExistsError:
            continue  # astronomically unlikely; never write through what is there
        break
    try:
        try:
            _write_fd(fd, data)
        finally:
            os.close(fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(pending)
        raise
    return pending


def write_private(path: Path, text: str) -> None:
    """Replace ``path`` atomically with ``text`` (UTF-8), readable by this
    user only.

    The text goes to a fresh 0600 temporary file with a random name in the
    same folder (created 0700 if missing), is flushed and fsynced, renamed
    over ``path``, and the folder is fsynced. On any ``OSError`` the
    temporary file is removed, ``path`` is as it was, and ``SaveFailed``
    says why in plain words.
    """
    pending: Path | None = None
    try:
        pending = _private_temp(path, text.encode("utf-8"))
        os.replace(pending, path)
        pending = None
        _fsync_dir(path.parent)
    except OSError as exc:
        if pending is not None:
            with contextlib.suppress(OSError):
                os.unlink(pending)
        raise SaveFailed.from_os_error(exc) from exc


def write_crash_report(folder: Path, error: BaseException, about: str = "") -> Path:
    """Write a crash report (the error and its traceback) into ``folder``,
    readable by this user only; raises ``OSError`` if it cannot."""
    make_private_dir(folder)
    text = "dbdeck crash report\n" + about + "\n" + "".join(traceback.format_exception(error))
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
    report = folder / f"crash-{stamp}.txt"
    while True:
        try:
            fd = _create_private(report)
        except FileExistsError:  # two reports in one microsecond, or a planted name
            report = folder / f"crash-{stamp}-{secrets.token_hex(3)}.txt"
            continue
        break
    try:
        try:
            _write_fd(fd, text.encode("utf-8", "backslashreplace"))
        finally:
            os.close(fd)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(report)  # half a report helps nobody
        raise
    return report


def _keep_backup(folder: Path, save_id: str, path: Path) -> None:
    """Make the current save (if any) the backup, leaving the save itself in
    place: a hard link under a random name, renamed over ``<id>.bak``."""
    if not os.path.lexists(path):
        return
    backup = folder / f"{save_id}.bak"
    linked = folder / f".{save_id}.bak.{secrets.token_hex(8)}.tmp"
    try:
        os.link(path, linked, follow_symlinks=False)
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
            raise
        # No hard links here: move the save; a crash before the next rename
        # leaves only the temporary file, which ``read_save`` recovers.
        os.replace(path, backup)
        return
    try:
        os.replace(linked, backup)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(linked)
        raise


def write_atomic(
    folder: Path,
    save_id: str,
    text: str,
    *,
    not_applied: str = "the last action was not applied",
) -> None:
    """Replace ``<id>.json`` with ``text`` so that a crash at any moment leaves
    a whole file; the replaced save becomes ``<id>.bak``.

    On any ``OSError`` the save and its backup are as they were (or the
    backup already equals the save), no temporary file is left, and
    ``SaveFailed`` says, with ``not_applied``, what did not happen.
    """
    path = folder / f"{save_id}.json"
    pending: Path | None = None
    try:
        pending = _private_temp(path, text.encode("utf-8"))
        _keep_backup(folder, save_id, path)
        os.replace(pending, path)
        pending = None
        _fsync_dir(folder)
    except OSError as exc:
        if pending is not None:
            with contextlib.suppress(OSError):
                os.unlink(pending)
        raise SaveFailed.from_os_error(exc, not_applied) from exc


def replay_events(
    catalog: Catalog, data: dict[str, Any]
) -> Iterator[tuple[dict[str, Any], Game, list[Event]]]:
    """Replay a save from its setup: each action, the game after it, and its
    events (the opening events come with an empty action). ``data`` should
    come from ``read_save(..., catalog=catalog)``, which checks it replays."""
    game = Game.new(catalog, Setup(**data["setup"]))
    yield {}, game, list(game.events)
    for action in data["actions"]:
        events = game.apply(Action.from_json(action))
        while game.state.paused:
            events += game.resume()
        yield action, game, events
