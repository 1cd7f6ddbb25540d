"""Where saves live and what they are called: the saves folder, fresh save
ids, and the check that an id is a plain file name."""

from __future__ import annotations

import os
import secrets
from datetime import UTC, datetime
from pathlib import Path

from dbdeck.saves.errors import SaveError

__all__ = ["MAX_ID", "SAVES_ENV", "new_id", "saves_dir"]

SAVES_ENV = "DBDECK_SAVES"

MAX_ID = 200
"""The longest save id: it names files, a table and its socket."""


def saves_dir(override: str | Path | None = None) -> Path:
    """The saves folder: ``override``, else ``DBDECK_SAVES``, else the
    platform's user state folder."""
    if override:
        return Path(override)
    if os.environ.get(SAVES_ENV):
        return Path(os.environ[SAVES_ENV])
    import platformdirs

    return Path(platformdirs.user_state_dir("dbdeck")) / "saves"


def new_id(name: str) -> str:
    """A readable save id: when, what is played (``name``, the game's words:
    the Villain), and a random tail.

    Never the seed: the id names the save file, the table and its socket,
    which other users of a shared box see, and the seed would let them
    replay every shuffle. The random tail also keeps apart two games of the
    same Villain started in the same second.
    """
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return f"{stamp}-{name}-{secrets.token_hex(3)}"


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
