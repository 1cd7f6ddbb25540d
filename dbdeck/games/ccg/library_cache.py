"""The shipped CCG library kept as JSON in the user's cache folder, so that a
command such as ``dbdeck ccg check`` starts without pydantic.

The key is a hash of the cache format, of pydantic's version, of the code
that decides what the library holds (the models, the library, the title
rules, the readers) and of the four shipped files' names and bytes. Any
change to one of them misses, and the files are validated afresh.

Only a clean load is kept, and only the shipped data: a pack on top is
validated on every run, so its problems always come from the one path that
finds them. The file is data only (JSON, no pickle), private and written
atomically (``dbdeck.packs.cache_files``). Nothing here raises: the worst the
cache can do is miss.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dbdeck.packs.cache_files import (
    cache_dir,
    code_digest,
    entry_key,
    read_private,
    write_private,
)

__all__ = ["LibraryCache"]

_FORMAT = 1
"""Bumped whenever the layout of a cache file changes."""

_CODE_FILES = (
    "models.py",
    "kinds.py",
    "library.py",
    "library_cache.py",
    "titles.py",
    "attack_table.py",
    "../../packs/reading.py",
    "../../packs/printable.py",
    "../../packs/cache_files.py",
)
"""The modules (relative to ``dbdeck/games/ccg``) whose code decides what a
loaded library holds."""


@functools.cache
def _code_digest() -> bytes | None:
    """A hash of the format, pydantic's version and the library's code;
    ``None`` (no caching) when any of them cannot be read."""
    title = b"dbdeck ccg library cache %d\0" % _FORMAT
    return code_digest(title, Path(__file__).parent, _CODE_FILES)


class LibraryCache:
    """The cache entry of one shipped folder and its files' bytes."""

    def __init__(self, path: Path, key: str) -> None:
        self.path = path
        """The cache file."""
        self.key = key
        """What the file's key must be to be used."""

    @classmethod
    def for_files(
        cls, folder: Path, files: Sequence[tuple[str, bytes]], directory: Path | None = None
    ) -> LibraryCache | None:
        """The entry for a load of ``folder`` that read ``files`` (name,
        bytes), or ``None`` when nothing can be cached."""
        code = _code_digest()
        if code is None:
            return None
        # One file per folder: a changed file replaces its entry.
        where = hashlib.sha256(str(folder).encode("utf-8", "surrogatepass")).hexdigest()[:24]
        base = cache_dir() if directory is None else directory
        return cls(base / "ccg-library" / f"library-{where}.json", entry_key(code, files))

    def load(self) -> Any | None:
        """The JSON content kept under this key, or ``None``."""
        data = read_private(self.path)
        if data is None:
            return None
        head, _, body = data.partition(b"\n")
        try:
            if json.loads(head) != {"format": _FORMAT, "key": self.key}:
                return None
            return json.loads(body)
        except (ValueError, RecursionError):
            return None

    def save(self, content: Any) -> None:
        """Keep ``content`` (JSON data) under this key; a cache that cannot be
        written is skipped (the load itself has succeeded)."""
        try:
            header = json.dumps({"format": _FORMAT, "key": self.key})
            body = json.dumps(content, separators=(",", ":"))
        except (TypeError, ValueError):
            return
        write_private(self.path, (header + "\n" + body).encode("ascii"))
