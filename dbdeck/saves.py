"""Saved games that never get lost: autosave, locking, backups, migration.

A save is one JSON file per game, ``<id>.json`` in the saves folder, holding
the setup, the action log and a snapshot of the whole game for fast loading.
Every write goes to a temporary file in the same folder, is flushed to disk,
and replaces the save by an atomic rename; the previous save is kept as
``<id>.bak``. A process killed at any moment leaves either the old save or
the new one, never a torn file. A save that cannot be read is moved aside
(``<id>.corrupt-<time>.json``), never overwritten, and its backup is offered.

``Session`` ties a game to its save: it records actions, autosaves after
each one, and undoes back to the last moment hidden information was revealed.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from dbdeck.cards.catalog import Catalog
from dbdeck.engine.actions import Action
from dbdeck.engine.events import Event
from dbdeck.engine.game import Game, Setup

__all__ = [
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "SaveError",
    "SaveInUse",
    "Session",
    "list_saves",
    "read_save",
    "saves_dir",
]

SAVE_FORMAT = "dbdeck-save"
SAVE_VERSION = 1
"""The save schema version this program writes."""

SAVES_ENV = "DBDECK_SAVES"

REVEALING = frozenset({"draw", "shuffle", "roll", "reveal", "search", "summon"})
"""Event types that reveal hidden information: undo never goes back past them."""

MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}
"""``MIGRATIONS[v]`` turns a save of version ``v`` into version ``v + 1``."""


class SaveError(Exception):
    """A save could not be read; the message says why and what was done."""

    def __init__(self, message: str, *, backup: Path | None = None) -> None:
        super().__init__(message)
        self.backup = backup


class SaveInUse(SaveError):
    """Another dbdeck process holds the save."""


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


# --- reading ----------------------------------------------------------------------------


def _parse(path: Path) -> dict[str, Any]:
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SaveError(f"{path}: cannot be read ({exc})") from None
    if not isinstance(loaded, dict) or loaded.get("format") != SAVE_FORMAT:
        raise SaveError(f"{path}: not a dbdeck save")
    data: dict[str, Any] = loaded
    version = data.get("version")
    if not isinstance(version, int):
        raise SaveError(f"{path}: no save version")
    if version > SAVE_VERSION:
        raise SaveError(
            f"{path}: saved by a newer dbdeck (save version {version}; this "
            f"dbdeck reads up to {SAVE_VERSION}). Update dbdeck to load it."
        )
    while version < SAVE_VERSION:
        if version not in MIGRATIONS:
            raise SaveError(f"{path}: save version {version} cannot be migrated")
        data = MIGRATIONS[version](data)
        version += 1
        data["version"] = version
    for key in ("id", "setup", "actions", "snapshot"):
        if key not in data:
            raise SaveError(f"{path}: the save lacks {key!r}")
    return data


def read_save(folder: Path, save_id: str, *, from_backup: bool = False) -> dict[str, Any]:
    """The data of a save. A corrupt save is moved aside and ``SaveError``
    names it and the backup (if any)."""
    path = folder / f"{save_id}.json"
    backup = folder / f"{save_id}.bak"
    if from_backup:
        if not backup.exists():
            raise SaveError(f"no backup of {save_id!r}")
        return _parse(backup)
    if not path.exists():
        pending = folder / f".{save_id}.json.tmp"
        if pending.exists():  # killed between the two renames: the new save is complete
            with contextlib.suppress(SaveError):
                data = _parse(pending)
                os.replace(pending, path)
                return data
        if backup.exists():
            raise SaveError(f"{path} is missing", backup=backup)
        raise SaveError(f"no saved game {save_id!r} in {folder}")
    try:
        return _parse(path)
    except SaveError as exc:
        aside = folder / f"{save_id}.corrupt-{int(time.time())}.json"
        os.replace(path, aside)
        raise SaveError(
            f"{exc}. It was moved to {aside}.", backup=backup if backup.exists() else None
        ) from None


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


def list_saves(folder: Path) -> list[SaveInfo]:
    """Saved games, the most recently played first. A save that cannot be
    read is listed from its backup, so it can still be continued."""
    found: dict[str, SaveInfo] = {}
    for path in sorted(folder.glob("*.json")) + sorted(folder.glob("*.bak")):
        if ".corrupt-" in path.name or path.stem in found:
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            summary = data["summary"]
            found[path.stem] = SaveInfo(
                data["id"],
                summary["villain"],
                summary["characters"],
                summary["turn"],
                data.get("updated", ""),
                summary.get("winner", ""),
                path,
            )
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return sorted(found.values(), key=lambda s: s.updated, reverse=True)


# --- the session --------------------------------------------------------------------------


@dataclass
class Session:
    """A game with its save: record, autosave, undo."""

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
        no save in ``folder`` has yet)."""
        game = Game.new(catalog, setup)
        if save_id:
            session = cls(catalog, game, setup, folder, save_id, players=dict(players or {}))
            session.lock()
        else:
            session = cls._fresh(catalog, game, setup, folder, dict(players or {}))
        session.floor_snapshot = game.to_json()
        session.save()
        return session

    @classmethod
    def _fresh(
        cls, catalog: Catalog, game: Game, setup: Setup, folder: Path, players: dict[str, str]
    ) -> Session:
        """A locked session under an id no other game uses: a new game must
        never overwrite (or wait for) another one."""

        def taken(save_id: str) -> bool:
            return any((folder / f"{save_id}{end}").exists() for end in (".json", ".bak"))

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
        """Open a saved game where it was left."""
        data = read_save(folder, save_id, from_backup=from_backup)
        setup = Setup(**data["setup"])
        game = Game.from_json(catalog, data["snapshot"])
        session = cls(
            catalog,
            game,
            setup,
            folder,
            data["id"],
            list(data["actions"]),
            int(data.get("undo_floor", len(data["actions"]))),
            data.get("floor_snapshot") or data["snapshot"],
            data.get("floor_reason", "the game was loaded"),
            dict(data.get("players", {})),
            data.get("created", _now()),
        )
        session.lock()
        if from_backup:
            session.save()
        return session

    def lock(self) -> None:
        """Hold the save's lock file: a second process cannot play it too."""
        self.folder.mkdir(parents=True, exist_ok=True)
        handle = open(self.folder / f"{self.id}.lock", "a+", encoding="utf-8")  # noqa: SIM115
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            handle.close()
            raise SaveInUse(f"the game {self.id!r} is open in another dbdeck ({holder})") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}")
        handle.flush()
        self._lock = handle

    def close(self) -> None:
        """Release the lock."""
        if self._lock is not None:
            fcntl.flock(self._lock, fcntl.LOCK_UN)
            self._lock.close()
            self._lock = None

    # --- playing -----------------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Apply an action, record it and save (an illegal one raises and
        changes nothing)."""
        events = self.game.apply(action)
        self._record(action, events)
        return events

    def resume_villain(self) -> list[Event]:
        """Go on with a paused Villain turn (the table's step mode)."""
        events = self.game.resume()
        if not self.game.state.paused:
            self.undo_floor = len(self.actions)
            self.floor_snapshot = self.game.to_json()
            self.floor_reason = "the Villain played"
        self.save()
        return events

    def _record(self, action: Action, events: list[Event]) -> None:
        self.actions.append(action.to_json())
        revealing = next((e for e in events if e.type in REVEALING), None)
        if revealing is not None or self.game.state.paused:
            self.undo_floor = len(self.actions)
            self.floor_snapshot = self.game.to_json() if not self.game.state.paused else {}
            self.floor_reason = revealing.text if revealing else "the Villain played"
        self.save()

    # --- undo --------------------------------------------------------------------------

    def undoable(self) -> int:
        """How many actions can be undone now."""
        return len(self.actions) - self.undo_floor

    def undo(self) -> bool:
        """Undo the last action, unless hidden information was revealed since
        (or by) it. Returns whether something was undone."""
        if self.undoable() <= 0 or not self.floor_snapshot:
            return False
        self.actions.pop()
        game = Game.from_json(self.catalog, self.floor_snapshot)
        game.step_mode = self.game.step_mode
        for data in self.actions[self.undo_floor :]:
            game.apply(Action.from_json(data))
        self.game = game
        self.save()
        return True

    # --- saving ------------------------------------------------------------------------

    def data(self) -> dict[str, Any]:
        """The save as JSON data."""
        s = self.game.state
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "id": self.id,
            "created": self.created,
            "updated": _now(),
            "summary": {
                "villain": self.game.name("v"),
                "characters": [self.game.name("c:" + c.id) for c in s.characters],
                "turn": s.turn,
                "round": s.round,
                "winner": s.winner,
            },
            "setup": self.setup.to_json(),
            "players": self.players,
            "actions": self.actions,
            "undo_floor": self.undo_floor,
            "floor_reason": self.floor_reason,
            "floor_snapshot": self.floor_snapshot,
            "snapshot": self.game.to_json(),
        }

    def save(self) -> Path:
        """Write the save crash-safely (temporary file, fsync, atomic rename;
        the previous save becomes the backup)."""
        write_atomic(self.folder, self.id, json.dumps(self.data(), separators=(",", ":")))
        return self.folder / f"{self.id}.json"

    def crash_report(self, error: BaseException) -> Path:
        """Write a crash report beside the save; returns its path. The save on
        disk is the game as it was before the failing action, so nothing is
        lost and the game reloads from it."""
        about = f"save: {self.id}\nseed: {self.setup.seed}\nactions: {len(self.actions)}\n"
        return write_crash_report(self.folder, error, about)


def write_crash_report(folder: Path, error: BaseException, about: str = "") -> Path:
    """Write a crash report (the error and its traceback) into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    report = folder / f"crash-{datetime.now(UTC).strftime('%Y%m%d-%H%M%S-%f')}.txt"
    report.write_text(
        "dbdeck crash report\n" + about + "\n" + "".join(traceback.format_exception(error)),
        encoding="utf-8",
    )
    return report


def write_atomic(folder: Path, save_id: str, text: str) -> None:
    """Replace ``<id>.json`` with ``text`` so that a crash at any moment leaves
    a whole file; the replaced save becomes ``<id>.bak``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{save_id}.json"
    pending = folder / f".{save_id}.json.tmp"
    with open(pending, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    if path.exists():
        os.replace(path, folder / f"{save_id}.bak")
    os.replace(pending, path)
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def replay_events(
    catalog: Catalog, data: dict[str, Any]
) -> Iterator[tuple[dict[str, Any], Game, list[Event]]]:
    """Replay a save from its setup: each action, the game after it, and its
    events (the opening events come with an empty action)."""
    game = Game.new(catalog, Setup(**data["setup"]))
    yield {}, game, list(game.events)
    for action in data["actions"]:
        events = game.apply(Action.from_json(action))
        while game.state.paused:
            events += game.resume()
        yield action, game, events
