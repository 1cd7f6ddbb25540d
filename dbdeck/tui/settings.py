"""The table's settings that last from one game to the next.

One small JSON file in the user's configuration folder
(``$XDG_CONFIG_HOME/dbdeck/settings.json`` on Linux; ``DBDECK_SETTINGS``
names another file). A missing or unreadable file means the defaults: a
setting is a comfort, never a reason for the table not to open.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from dbdeck.folders import make_private_dir

__all__ = ["SETTINGS_ENV", "Settings", "load_settings", "save_settings", "settings_path"]

SETTINGS_ENV = "DBDECK_SETTINGS"
"""An environment variable naming the settings file to use instead."""


@dataclass
class Settings:
    """What a player chose for every table."""

    confirm_end_turn: bool = True
    """Ask before ending a turn with Energy unspent or cards still playable."""


def settings_path() -> Path:
    """Where the settings are kept."""
    named = os.environ.get(SETTINGS_ENV)
    if named:
        return Path(named)
    import platformdirs

    return Path(platformdirs.user_config_dir("dbdeck")) / "settings.json"


def load_settings() -> Settings:
    """The saved settings, or the defaults."""
    try:
        data = json.loads(settings_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Settings()
    if not isinstance(data, dict):
        return Settings()
    known = {f.name: f.type for f in fields(Settings)}
    values = {k: v for k, v in data.items() if k in known and isinstance(v, bool)}
    return Settings(**values)


def save_settings(settings: Settings) -> bool:
    """Keep the settings for the next games; ``False`` when they could not
    be written (the table goes on with them all the same). The file is
    0600 and any folder made for it 0700, under any umask."""
    path = settings_path()
    pending = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    try:
        make_private_dir(path.parent)
        fd = os.open(pending, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(json.dumps(asdict(settings), indent=1))
        os.replace(pending, path)
        return True
    except OSError:
        with contextlib.suppress(OSError):
            pending.unlink()
    return False
