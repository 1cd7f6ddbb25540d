"""The private files of dbdeck's caches: where they live, and how one is
read and written on a shared box, where every other user is hostile.

A cache holds data only, never code. Its folder is made 0700 and each file is
written 0600 to a temporary name, then renamed into place; a folder someone
else owns or may write in is not written to. A file that is not a regular
file owned by the user, or that group or others may write, is not read.
Nothing here raises: the worst a cache can do is miss.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from dbdeck.folders import make_private_dir

__all__ = [
    "CACHE_ENV",
    "cache_dir",
    "code_digest",
    "entry_key",
    "feed",
    "owned_by_user",
    "private_folder",
    "pydantic_version",
    "read_private",
    "write_private",
]

_MAX_CACHE_BYTES = 64 * 1024 * 1024
"""The largest cache file read (the shipped card set's is about 0.5 MB)."""


class Hash(Protocol):
    """What ``feed`` needs of a hashlib hash."""

    def update(self, data: bytes, /) -> None:
        """Add bytes to the hash."""


CACHE_ENV = "DBDECK_CACHE_DIR"
"""Environment variable naming the cache folder instead of the user cache
folder (the tests point it at a temporary folder)."""


def cache_dir() -> Path:
    """dbdeck's cache folder: ``DBDECK_CACHE_DIR``, else the user cache folder
    (on Linux ``$XDG_CACHE_HOME/dbdeck``, by default ``~/.cache/dbdeck``). The
    first game's catalog is kept in its ``catalog`` folder, the second's
    library in its ``ccg-library`` folder."""
    named = os.environ.get(CACHE_ENV, "")
    if named.strip():
        return Path(named)
    if sys.platform.startswith("linux"):
        # platformdirs' own rule here (the XDG Base Directory one, which
        # ignores a relative path), without importing it: every quick command
        # reads the cache, and the import costs a tenth of the start. A test
        # holds the two to the same answer.
        base = os.environ.get("XDG_CACHE_HOME", "").strip()
        if not os.path.isabs(base):
            base = os.path.expanduser("~/.cache")
        return Path(base) / "dbdeck"
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("dbdeck", appauthor=False))


def pydantic_version() -> bytes | None:
    """The text of pydantic's ``version.py`` (its version and the pydantic-core
    version it requires), read without importing pydantic; ``None`` when it
    cannot be found."""
    from importlib.util import find_spec

    try:
        spec = find_spec("pydantic")
        if spec is None or spec.origin is None:
            return None
        return Path(spec.origin).with_name("version.py").read_bytes()
    except (OSError, ImportError, ValueError):
        return None


def code_digest(title: bytes, here: Path, files: Sequence[str]) -> bytes | None:
    """A hash of a cache's ``title`` (its name and format), of pydantic's
    version and of the code that decides what the cache holds (``files``,
    relative to ``here``); ``None`` (no caching) when any cannot be read."""
    version = pydantic_version()
    if version is None:
        return None
    h = hashlib.sha256(title)
    feed(h, b"pydantic", version)
    try:
        for name in files:
            feed(h, name.encode(), (here / name).read_bytes())  # "../" stays inside dbdeck
    except OSError:
        return None
    return h.digest()


def entry_key(code: bytes, files: Sequence[tuple[str, bytes]]) -> str:
    """The key of a cache entry: the code's hash, then every file read (its
    name as given, even one that is not valid Unicode, and its bytes), in
    order."""
    h = hashlib.sha256(code)
    for name, data in files:
        feed(h, name.encode("utf-8", "surrogatepass"), data)
    return h.hexdigest()


def feed(h: Hash, name: bytes, data: bytes) -> None:
    """Hash a name and its bytes so no two different lists feed alike."""
    h.update(len(name).to_bytes(8, "big") + name + len(data).to_bytes(8, "big"))
    h.update(data)


def owned_by_user(info: os.stat_result) -> bool:
    """Whether a file belongs to the user running dbdeck."""
    getuid = getattr(os, "getuid", None)
    return getuid is None or info.st_uid == getuid()


def read_private(path: Path) -> bytes | None:
    """The bytes of a cache file we own and only we may write, else ``None``."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        if (
            not stat.S_ISREG(info.st_mode)
            or not owned_by_user(info)
            or info.st_mode & 0o022
            or info.st_size > _MAX_CACHE_BYTES
        ):
            return None
        chunks = []
        size = 0
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
            size += len(chunk)
            if size > _MAX_CACHE_BYTES:
                return None
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def private_folder(folder: Path) -> bool:
    """Make ``folder`` (0700 from its creation) or check an existing one: it
    must be ours, and no one else may write in it. A folder that fails is not
    written to (every load then validates), never chmodded into shape."""
    try:
        make_private_dir(folder)
        info = os.lstat(folder)
    except (OSError, ValueError):
        return False
    return stat.S_ISDIR(info.st_mode) and owned_by_user(info) and not info.st_mode & 0o022


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` (0600) by a temporary file and a rename, so
    a reader sees the old file or the new one, never half of one."""
    if not private_folder(path.parent):
        return
    import tempfile

    try:
        fd, temporary = tempfile.mkstemp(prefix=".cache-", suffix=".tmp", dir=path.parent)
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
