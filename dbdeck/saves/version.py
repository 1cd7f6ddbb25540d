"""What every save file says it is: the format's name, the schema version
this program writes, and the bounds a save is read within.

Kept apart from the save models (``format``) so that writing a save, which
every action does, never imports the checker that reading one needs."""

from __future__ import annotations

from datetime import UTC, datetime

__all__ = ["MAX_ACTIONS", "SAVE_FORMAT", "SAVE_VERSION", "now"]

SAVE_FORMAT = "dbdeck-save"
SAVE_VERSION = 3
"""The save schema version this program writes. Version 2: the first game's
snapshots keep an enemy's own counters and the Ally Market's damage in
fields of their own (its ``read_snapshot`` reads either form). Version 3:
a save names its game (``game``)."""

MAX_ACTIONS = 100_000
"""The most actions a save may hold (a whole game takes a few hundred)."""


def now() -> str:
    """The time a save records: UTC, to the second, in ISO 8601."""
    return datetime.now(UTC).isoformat(timespec="seconds")
