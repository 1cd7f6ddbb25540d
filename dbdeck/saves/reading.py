"""Reading saves: load one (checked, and with a card set rebuilt by replaying
it), list them all, and move aside a save that cannot be used.

Every reader is total: whatever a file holds, reading it either gives a save
that replays or raises ``SaveError`` with one line naming it. A save that
cannot be read is moved aside (``<id>.corrupt-<time>.json``), never
overwritten, and its backup is offered.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from dbdeck.saves.errors import SaveError, _brief, _one_line, _Unreadable
from dbdeck.saves.files import _pending, _read_bytes
from dbdeck.saves.format import SAVE_FORMAT, _check, _decode, _Listing, _now, _problem
from dbdeck.saves.names import _check_id, _valid_id
from dbdeck.seating import Seating
from dbdeck.tabletop.game import GameRules, IllegalMove, Match, SetupProblem
from dbdeck.tabletop.registry import DEFAULT_GAME

__all__ = [
    "Loaded",
    "SaveInfo",
    "list_saves",
    "load_save",
    "read_save",
    "save_game",
    "scan_saves",
]


@dataclass
class Loaded:
    """A save read and checked: its data, and (when its game's rules were
    given) the match rebuilt from its setup and actions."""

    data: dict[str, Any]
    """The save's JSON data (migrated to ``SAVE_VERSION``)."""
    game: str
    """The id of the save's game."""
    setup: Any
    """The setup (its JSON data when no rules were given)."""
    actions: list[dict[str, Any]]
    """The actions, each as its game writes it."""
    seating: Seating
    """The players and the table's settings."""
    undo_floor: int
    floor_reason: str
    created: str
    match: Any = None
    """The match after the actions (``None`` when no rules were given)."""
    replays: bool = True
    """Whether the setup and actions replay to the game (else it was opened
    from its snapshot, and its log cannot be rebuilt)."""
    floor_snapshot: dict[str, Any] = field(default_factory=dict)


def _loaded(path: Path, data: dict[str, Any], rules: GameRules[Any] | None) -> Loaded:
    """The save's parts, checked for shape, types and sizes (``format._check``),
    as a ``Loaded`` without its match."""
    top, setup, actions, floor = _check(path, data, rules)
    return Loaded(
        data,
        top.game,
        setup,
        actions,
        Seating.of_save(
            dict(top.players), top.seating.model_dump() if top.seating is not None else None
        ),
        floor,
        top.floor_reason,
        top.created or _now(),
        floor_snapshot=dict(data.get("floor_snapshot") or {}),
    )


def _replay(rules: GameRules[Any], path: Path, loaded: Loaded) -> None:
    """Open the game: rebuilt from the setup and the actions when they
    replay to the saved snapshot, else from the snapshot itself.

    A save written by rules that play differently (a rules fix since, say)
    no longer replays to its snapshot. The game then goes on from the
    snapshot, the table the players last saw, rather than being lost; only
    a save that neither replays nor holds a snapshot the engine can load is
    unreadable."""
    try:
        _rebuild(rules, path, loaded)
    except _Unreadable as replay_failed:
        try:
            match = rules.match_from_json(loaded.data["snapshot"])
        except Exception:  # whatever a damaged snapshot makes the rules do
            raise replay_failed from None
        loaded.match = match
        loaded.replays = False


def _rebuild(rules: GameRules[Any], path: Path, loaded: Loaded) -> None:
    """Rebuild the match from the setup and the actions, which must replay
    to the save's snapshots."""
    count = len(loaded.actions)
    try:
        match: Match = rules.new(loaded.setup)
    except SetupProblem as exc:
        raise _Unreadable(f"{path}: its setup is not a game ({_brief(exc)})") from None
    except Exception as exc:  # whatever a crafted setup makes the rules do
        raise _Unreadable(
            f"{path}: its setup is not a game ({type(exc).__name__}: {_brief(exc)})"
        ) from None
    match.set_stepping(True)  # plays the same game; lets a paused save resume paused
    floor: dict[str, Any] = match.to_json() if loaded.undo_floor == 0 else {}
    snapshot = loaded.data["snapshot"]
    for index, data in enumerate(loaded.actions):
        last = index == count - 1
        try:
            match.apply(rules.read_action(data))
            # A paused last action: stop where the save was written.
            while match.waiting() and not (last and match.same_as(snapshot)):
                match.go_on()
        except IllegalMove as exc:
            raise _Unreadable(
                f"{path}: action {index + 1} of {count} does not replay ({_brief(exc.reason)})"
            ) from None
        except Exception as exc:  # the engine trusts its actions; a save is no proof
            raise _Unreadable(
                f"{path}: action {index + 1} of {count} does not replay "
                f"({type(exc).__name__}: {_brief(exc)})"
            ) from None
        if index + 1 == loaded.undo_floor and not match.waiting():
            floor = match.to_json()
    # Same seed and same actions, same game: a save that says otherwise was
    # edited, or written by rules that play differently, and is not this game.
    if not match.same_as(snapshot):
        raise _Unreadable(f"{path}: its snapshot is not the game its actions replay to")
    if loaded.floor_snapshot and loaded.floor_snapshot != json.loads(json.dumps(floor)):
        raise _Unreadable(
            f"{path}: its undo snapshot is not the game its first {loaded.undo_floor} "
            "actions replay to"
        )
    match.set_stepping(False)
    loaded.match = match


def _load(path: Path, rules: GameRules[Any] | None) -> Loaded:
    loaded = _loaded(path, _decode(path, _read_bytes(path)), rules)
    if rules is not None:
        _replay(rules, path, loaded)
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


def load_save(
    folder: Path,
    save_id: str,
    *,
    rules: GameRules[Any] | None = None,
    from_backup: bool = False,
) -> Loaded:
    """Read and check a save; with its game's ``rules``, also rebuild its
    match (so a save whose actions do not replay is refused too, and a save
    of another game).

    Raises ``SaveError`` (one line, naming the file) for anything else. A
    save that cannot be used is moved aside and the error names its backup.
    """
    _check_id(save_id)
    path = folder / f"{save_id}.json"
    backup = folder / f"{save_id}.bak"
    if from_backup:
        if not backup.exists():
            raise SaveError(f"no backup of {save_id!r}")
        return _load(backup, rules)
    if not os.path.lexists(path):
        # Killed between two renames (a file system without hard links): the
        # newest complete temporary file is the save.
        for pending in _pending(folder, save_id):
            with contextlib.suppress(SaveError, OSError):
                loaded = _load(pending, rules)
                os.replace(pending, path)
                return loaded
        if backup.exists():
            raise SaveError(f"{path} is missing", backup=backup)
        raise SaveError(f"no saved game {save_id!r} in {folder}")
    try:
        return _load(path, rules)
    except _Unreadable as exc:
        raise _move_aside(folder, save_id, path, exc) from None


def read_save(
    folder: Path,
    save_id: str,
    *,
    from_backup: bool = False,
    rules: GameRules[Any] | None = None,
) -> dict[str, Any]:
    """The data of a save, checked for shape (and, with its game's
    ``rules``, that its actions replay). A save that cannot be used is moved
    aside and ``SaveError`` names it and the backup (if any)."""
    return load_save(folder, save_id, rules=rules, from_backup=from_backup).data


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
    game: str = DEFAULT_GAME
    """The id of the save's game."""


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
    names = [top.game, s.villain, *s.characters, s.winner, top.updated]
    if not all(name.isprintable() for name in names):  # nothing to print but text
        raise _Unreadable(f"{path}: summary: unprintable characters")
    return SaveInfo(
        path.stem, s.villain, list(s.characters), s.turn, top.updated, s.winner, path, top.game
    )


def save_game(folder: Path, save_id: str) -> str:
    """The id of the game a save is of, from its listing (or its backup's,
    when the save itself cannot be listed); the first game when it cannot
    be told (opening the save then says what is wrong)."""
    return save_game_file(folder, save_id)[0]


def save_game_file(folder: Path, save_id: str) -> tuple[str, Path | None]:
    """The game a save is of, as ``save_game`` tells it, and the file it was
    told from (the save or its backup; ``None`` when neither could be read)."""
    for end in (".json", ".bak"):
        path = folder / f"{save_id}{end}"
        try:
            _check_id(save_id)
            return _listing(path).game, path
        except (SaveError, OSError):
            continue
    return DEFAULT_GAME, None


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
