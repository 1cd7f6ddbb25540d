"""``Session`` ties a match of any game to its save: it records actions,
autosaves after each one (an action counts only once it is on disk), and
undoes back to the last moment hidden information was revealed. It knows a
game only through the game protocol (``dbdeck.tabletop.game``)."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TextIO, TypeVar

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
from dbdeck.tabletop.game import Event, GameRules, LogLine, Match

__all__ = ["NEW_ID_TRIES", "Session"]

M = TypeVar("M", bound=Match)

NEW_ID_TRIES = 16
"""How many fresh ids ``Session.start`` tries before giving up."""


@dataclass
class Session(Generic[M]):
    """A match with its save: record, autosave, undo.

    Every change (``apply``, ``resume_villain``, ``undo``) is worked out on
    a copy and takes effect only once its save is on disk: when the write
    fails, ``SaveFailed`` is raised and the game, the actions and the undo
    floor stay as they were at the last save.
    """

    rules: GameRules[M]
    """The game, bound to its card content."""
    match: M
    """The match as it stands (what the save holds)."""
    setup: Any
    """What the match started from (the game's own setup type)."""
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
        rules: GameRules[M],
        setup: Any,
        folder: Path,
        players: dict[str, str] | None = None,
        save_id: str | None = None,
        *,
        seating: Seating | None = None,
    ) -> Session[M]:
        """A new game, saved at once (under ``save_id``, else a fresh id that
        no save in ``folder`` has yet) with its seating (or just its
        ``players``). ``SaveFailed`` if it cannot be written: no game is
        claimed that is not on disk."""
        match = rules.new(setup)
        seating = seating or Seating(players=dict(players or {}))
        if save_id:
            _check_id(save_id)
            session = cls(rules, match, setup, folder, save_id, seating=seating)
            session.lock()
        else:
            session = cls._fresh(rules, match, setup, folder, seating)
        session.floor_snapshot = match.to_json()
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
        cls, rules: GameRules[M], match: M, setup: Any, folder: Path, seating: Seating
    ) -> Session[M]:
        """A locked session under an id no other game uses: a new game must
        never overwrite (or wait for) another one."""

        def taken(save_id: str) -> bool:
            return any(os.path.lexists(folder / f"{save_id}{end}") for end in (".json", ".bak"))

        for _ in range(NEW_ID_TRIES):
            save_id = new_id(rules.save_name(setup))
            if taken(save_id):
                continue
            session = cls(rules, match, setup, folder, save_id, seating=seating)
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
        cls, rules: GameRules[M], folder: Path, save_id: str, *, from_backup: bool = False
    ) -> Session[M]:
        """Open a saved game where it was left. The game is rebuilt from its
        setup and actions; anything wrong with the file (a save of another
        game too) is a ``SaveError``."""
        from dbdeck.saves.reading import load_save  # the checker: only to resume

        loaded = load_save(folder, save_id, rules=rules, from_backup=from_backup)
        assert loaded.match is not None
        session = cls(
            rules,
            loaded.match,
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

    def apply(self, action: object) -> Sequence[Event]:
        """Apply an action, record it and save. An illegal one raises
        ``IllegalMove``, a failed save ``SaveFailed``; neither changes
        anything."""
        match = self.match.clone()
        events = match.apply(action)
        actions = [*self.actions, self.rules.action_json(action)]
        floor, snapshot, reason = self.undo_floor, self.floor_snapshot, self.floor_reason
        revealing = match.reveals(events)
        waiting = match.waiting()
        if revealing is not None or waiting:
            floor = len(actions)
            # A turn the rules play waits in the middle: no snapshot of it.
            snapshot = match.to_json() if not waiting else {}
            reason = revealing or f"{match.rules_turn} played"
        self._commit(match, actions, floor, snapshot, reason, "the last action was not applied")
        return events

    def resume_villain(self) -> Sequence[Event]:
        """Go on with a turn the rules play step by step (the Villain's, at a
        table of step mode); a failed save raises ``SaveFailed`` and the
        turn stays where it was."""
        if not self.match.waiting():
            return []
        match = self.match.clone()
        events = match.go_on()
        floor, snapshot, reason = self.undo_floor, self.floor_snapshot, self.floor_reason
        if not match.waiting():
            floor, snapshot = len(self.actions), match.to_json()
            reason = f"{match.rules_turn} played"
        self._commit(
            match,
            self.actions,
            floor,
            snapshot,
            reason,
            f"{match.rules_turn}'s step was not applied",
        )
        return events

    # --- undo --------------------------------------------------------------------------

    def undoable(self) -> int:
        """How many actions can be undone now."""
        return len(self.actions) - self.undo_floor

    def undo_lines(self, seat: int | None = None) -> tuple[LogLine, ...]:
        """What ``undo`` would take back: the last action's log lines as
        ``seat`` may read them (a spectator's by default), replayed from the
        undo floor. Empty when nothing can be undone. (An action undo may
        take back revealed nothing hidden, so a spectator's words of it are
        words every seat may read.)"""
        if self.undoable() <= 0 or not self.floor_snapshot:
            return ()
        match = self.rules.match_from_json(self.floor_snapshot)
        match.set_stepping(self.match.stepping)
        events: Sequence[Event] = ()
        for data in self.actions[self.undo_floor :]:
            events = match.apply(self.rules.read_action(data))
        return tuple(match.log(events, seat))

    def undo(self) -> bool:
        """Undo the last action, unless hidden information was revealed since
        (or by) it. Returns whether something was undone; a failed save
        raises ``SaveFailed`` and undoes nothing."""
        if self.undoable() <= 0 or not self.floor_snapshot:
            return False
        actions = self.actions[:-1]
        match = self.rules.match_from_json(self.floor_snapshot)
        match.set_stepping(self.match.stepping)
        for data in actions[self.undo_floor :]:
            match.apply(self.rules.read_action(data))
        self._commit(
            match,
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
        match: M,
        actions: list[dict[str, Any]],
        floor: int,
        snapshot: dict[str, Any],
        reason: str,
        not_applied: str,
    ) -> None:
        """Write the save of this next state, then make it the session's:
        nothing counts that is not on disk."""
        self._write(self._data(match, actions, floor, snapshot, reason), not_applied)
        self.match, self.actions = match, actions
        self.undo_floor, self.floor_snapshot, self.floor_reason = floor, snapshot, reason

    def _data(
        self,
        match: M,
        actions: list[dict[str, Any]],
        floor: int,
        snapshot: dict[str, Any],
        reason: str,
    ) -> dict[str, Any]:
        summary = match.summary()
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.rules.game_id,
            "id": self.id,
            "created": self.created,
            "updated": _now(),
            # The first game's names for the two sides, which every save has
            # had: the side played against, and the roles.
            "summary": {
                "villain": summary.opponent,
                "characters": list(summary.sides),
                "turn": summary.turn,
                "round": summary.round,
                "winner": summary.winner,
            },
            "setup": self.rules.setup_json(self.setup),
            "players": self.seating.players,
            "seating": self.seating.settings_json(),
            "actions": actions,
            "undo_floor": floor,
            "floor_reason": reason,
            "floor_snapshot": snapshot,
            "snapshot": match.to_json(),
        }

    def data(self) -> dict[str, Any]:
        """The save as JSON data."""
        return self._data(
            self.match, self.actions, self.undo_floor, self.floor_snapshot, self.floor_reason
        )

    def _write(self, data: dict[str, Any], not_applied: str) -> None:
        write_atomic(
            self.folder, self.id, json.dumps(data, separators=(",", ":")), not_applied=not_applied
        )

    @property
    def players(self) -> dict[str, str]:
        """The player of each role."""
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
        about = (
            f"game: {self.rules.game_id}\nsave: {self.id}\n"
            f"seed: {self.rules.setup_seed(self.setup)}\nactions: {len(self.actions)}\n"
        )
        return write_crash_report(self.folder, error, about)
