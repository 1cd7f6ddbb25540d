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
from dataclasses import asdict, dataclass, fields
from pathlib import Path

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
    from dbdeck.saves import SaveFailed, write_private

    path = settings_path()
    with contextlib.suppress(OSError, SaveFailed):
        write_private(path, json.dumps(asdict(settings), indent=1))
        return True
    return False
