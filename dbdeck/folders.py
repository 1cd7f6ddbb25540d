"""Private folders: every folder dbdeck makes is 0700, its parents too.

``Path.mkdir(parents=True)`` and ``os.makedirs`` give the parents they make
the umask's mode (0777 under umask 000), whatever ``mode`` says; a missing
``~/.cache`` would be made open to all. Here each missing folder is made
0700 from its creation (never chmodded afterwards, which would leave a
window); ``os.mkdir`` with 0700 gives 0700 under any umask, since a umask
only takes bits away.
"""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path

__all__ = ["PRIVATE_DIR", "make_private_dir"]

PRIVATE_DIR = 0o700
"""The mode of every folder made."""


def make_private_dir(folder: Path) -> None:
    """Create ``folder`` and each missing parent with mode 0700 (folders that
    already exist are left as they are); ``NotADirectoryError`` when
    something other than a folder is there."""
    missing: list[Path] = []
    here = folder
    while not here.exists() and here != here.parent:
        missing.append(here)
        here = here.parent
    for path in reversed(missing):
        with contextlib.suppress(FileExistsError):
            os.mkdir(path, PRIVATE_DIR)
    if not folder.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder))
