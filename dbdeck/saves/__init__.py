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

The modules, one job each:

- ``errors``: ``SaveError``, ``SaveInUse``, ``SaveFailed``, and messages of
  one line.
- ``files``: private files and folders (born 0600 and 0700, never through a
  symlink), crash-safe writes (``write_private``, ``write_atomic``), reading a
  regular file under ``MAX_SAVE_BYTES``, crash reports.
- ``format``: the save file's models (``SaveFile``, ``SaveSummary``),
  ``SAVE_FORMAT`` and ``SAVE_VERSION``, the migrations, and the shape checks
  (a save's setup, actions and snapshots are checked by its game).
- ``names``: the saves folder (``saves_dir``), fresh save ids (``new_id``),
  and what a save id may be.
- ``reading``: ``load_save``, ``read_save``, ``scan_saves``, ``list_saves``:
  total readers that check a save replays and move a bad one aside.
- ``session``: ``Session``, a game tied to its save: lock, apply, autosave,
  undo, crash report.
- ``replay``: ``replay_events``, a saved game replayed action by action.

Everything public is importable from ``dbdeck.saves`` itself. A test that
replaces a name must replace it in the module that looks it up (say
``dbdeck.saves.files._write_fd``), not here.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dbdeck.saves.errors import SaveError, SaveFailed, SaveInUse
    from dbdeck.saves.files import (
        MAX_SAVE_BYTES,
        PRIVATE_DIR,
        PRIVATE_FILE,
        make_private_dir,
        write_atomic,
        write_crash_report,
        write_private,
    )
    from dbdeck.saves.format import (
        MIGRATIONS,
        SaveFile,
        SaveSummary,
    )
    from dbdeck.saves.names import MAX_ID, SAVES_ENV, new_id, saves_dir
    from dbdeck.saves.reading import (
        Loaded,
        SaveInfo,
        list_saves,
        load_save,
        read_save,
        save_game,
        save_game_file,
        scan_saves,
    )
    from dbdeck.saves.replay import replay_events, story_of
    from dbdeck.saves.session import NEW_ID_TRIES, Session
    from dbdeck.saves.version import MAX_ACTIONS, SAVE_FORMAT, SAVE_VERSION

_HOME = {
    "errors": ("SaveError", "SaveFailed", "SaveInUse"),
    "files": (
        "MAX_SAVE_BYTES",
        "PRIVATE_DIR",
        "PRIVATE_FILE",
        "make_private_dir",
        "write_atomic",
        "write_crash_report",
        "write_private",
    ),
    "format": ("MIGRATIONS", "SaveFile", "SaveSummary"),
    "names": ("MAX_ID", "SAVES_ENV", "new_id", "saves_dir"),
    "reading": (
        "Loaded",
        "SaveInfo",
        "list_saves",
        "load_save",
        "read_save",
        "save_game",
        "save_game_file",
        "scan_saves",
    ),
    "replay": ("replay_events", "story_of"),
    "session": ("NEW_ID_TRIES", "Session"),
    "version": ("MAX_ACTIONS", "SAVE_FORMAT", "SAVE_VERSION"),
}
"""Where each public name lives. The modules are imported on first use:
playing a game never needs the save checker's models (pydantic), only
listing, loading and migrating saves do."""

_MODULE_OF = {name: module for module, names in _HOME.items() for name in names}


def __getattr__(name: str) -> Any:
    """A public name (or a module) of the package, imported when first asked for."""
    module = _MODULE_OF.get(name)
    if module is None:
        if name in _HOME:
            return importlib.import_module(f"{__name__}.{name}")
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "MAX_ACTIONS",
    "MAX_ID",
    "MAX_SAVE_BYTES",
    "MIGRATIONS",
    "NEW_ID_TRIES",
    "PRIVATE_DIR",
    "PRIVATE_FILE",
    "SAVES_ENV",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "Loaded",
    "SaveError",
    "SaveFailed",
    "SaveFile",
    "SaveInUse",
    "SaveInfo",
    "SaveSummary",
    "Session",
    "list_saves",
    "load_save",
    "make_private_dir",
    "new_id",
    "read_save",
    "replay_events",
    "save_game",
    "save_game_file",
    "saves_dir",
    "scan_saves",
    "story_of",
    "write_atomic",
    "write_crash_report",
    "write_private",
]
