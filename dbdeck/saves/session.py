"""``Session`` ties a game to its save: it records actions, autosaves after
each one (an action counts only once it is on disk), and undoes back to the
last moment hidden information was revealed."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.actions import Action, action_from_json
from dbdeck.games.deckbuilding.engine.events import Event
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.holders import VILLAIN, CharacterRef
from dbdeck.saves.errors import SaveError, SaveFailed, SaveInUse, _one_line
from dbdeck.saves.files import (
    PRIVATE_FILE,
    _temporary_of,
    make_private_dir,
    write_atomic,
    write_crash_report,
)
from dbdeck.saves.names import _check_id, new_id
from dbdeck.saves.version import SAVE_FORMAT, SAVE_VERSION
from dbdeck.saves.version import now as _now
from dbdeck.seating import Seating

__all__ = ["NEW_ID_TRIES", "REVEALING", "Session"]

REVEALING = frozenset({"draw", "shuffle", "roll", "reveal", "search", "summon"})
"""Event types that reveal hidden information: undo never goes back past them."""

NEW_ID_TRIES = 16
"""How many fresh ids ``Session.start`` tries before giving up."""


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
    seating: Seating = field(default_factory=Seating)
    """Who plays which Character and how the table is run: saved with the
    game, so a resume opens the table as it was left."""
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
        *,
        seating: Seating | None = None,
    ) -> Session:
        """A new game, saved at once (under ``save_id``, else a fresh id that
        no save in ``folder`` has yet) with its seating (or just its
        ``players``). ``SaveFailed`` if it cannot be written: no game is
        claimed that is not on disk."""
        game = Game.new(catalog, setup)
        seating = seating or Seating(players=dict(players or {}))
        if save_id:
            _check_id(save_id)
            session = cls(catalog, game, setup, folder, save_id, seating=seating)
            session.lock()
        else:
            session = cls._fresh(catalog, game, setup, folder, seating)
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
        cls, catalog: Catalog, game: Game, setup: Setup, folder: Path, seating: Seating
    ) -> Session:
        """A locked session under an id no other game uses: a new game must
        never overwrite (or wait for) another one."""

        def taken(save_id: str) -> bool:
            return any(os.path.lexists(folder / f"{save_id}{end}") for end in (".json", ".bak"))

        for _ in range(NEW_ID_TRIES):
            save_id = new_id(setup)
            if taken(save_id):
                continue
            session = cls(catalog, game, setup, folder, save_id, seating=seating)
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
        from dbdeck.saves.reading import load_save  # the checker: only to resume

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
            loaded.seating,
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
            game.apply(action_from_json(data))
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
                "villain": game.name(VILLAIN),
                "characters": [game.name(CharacterRef(c.id)) for c in s.characters],
                "turn": s.turn,
                "round": s.round,
                "winner": s.winner,
            },
            "setup": self.setup.to_json(),
            "players": self.seating.players,
            "seating": self.seating.settings_json(),
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

    @property
    def players(self) -> dict[str, str]:
        """The player at each Character."""
        return self.seating.players

    def reseat(self, seating: Seating) -> None:
        """Change how the table is run (hands hidden or shown, the pace) and
        save it at once: a resume must find what the table last showed.
        ``SaveFailed`` when it cannot be written; the seating is then as it was."""
        before, self.seating = self.seating, seating
        try:
            self._write(self.data(), "the table's settings were not changed")
        except SaveFailed:
            self.seating = before
            raise

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
