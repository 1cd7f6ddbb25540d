"""The validated-catalog cache: a clean load of the card set kept as JSON in
the user's cache folder, so that the next start skips pydantic altogether.

The key is a hash of the cache format, of pydantic's version, of the code
that decides what a card is (the models, the plain objects, the converter,
the cross-checks) and of every card file read: its path as given and its
bytes, in load order. Any change to one of them misses.

Only clean loads are kept. A set with problems is validated afresh each
time, so its problems always come from the one path that finds them and
read the same whether or not a cache exists.

A shared box is hostile ground, so the cache holds data only, never code:
JSON, rebuilt through the fixed class map ``plain.CLASSES`` (no pickle). The
folder is made 0700 and each file written 0600 to a temporary name, then
renamed into place; a folder someone else owns or may write in is not
written to. A cache file that is not a regular file owned by the
user, or that group or others may write, is ignored; so is one that fails
to parse or whose key differs. Nothing here ever raises: the worst a cache
can do is miss.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dbdeck.folders import make_private_dir
from dbdeck.games.deckbuilding.cards import plain

__all__ = ["CACHE_ENV", "CatalogCache", "cache_dir", "pydantic_version"]

CACHE_ENV = "DBDECK_CACHE_DIR"
"""Environment variable naming the cache folder instead of the user cache
folder (the tests point it at a temporary folder)."""

_FORMAT = 1
"""Bumped whenever the layout of a cache file changes."""

_CODE_FILES = (
    "kinds.py",
    "operations.py",
    "models.py",
    "plain.py",
    "plain_base.py",
    "convert.py",
    "validator.py",
    "core_schema_source.py",
    "catalog.py",
    "cache.py",
    "../../../packs/reading.py",
    "../../../packs/printable.py",
)
"""The modules of ``dbdeck.games.deckbuilding.cards`` (and of the shared
readers in ``dbdeck.packs``) whose code decides what a loaded card is.
The kept validator's ``core_schema.json`` is not read: it is what its
generator makes of the models, both listed (and hashing it would cost a
warm start more than all of these)."""

_MAX_CACHE_BYTES = 64 * 1024 * 1024
"""The largest cache file read (the shipped set's is about 0.5 MB)."""

_TAG = "@"
"""The key naming a plain object's class in the cache's JSON."""


def cache_dir() -> Path:
    """dbdeck's cache folder: ``DBDECK_CACHE_DIR``, else the user cache folder
    (on Linux ``$XDG_CACHE_HOME/dbdeck``, by default ``~/.cache/dbdeck``). The
    catalog cache is its ``catalog`` folder."""
    named = os.environ.get(CACHE_ENV, "")
    if named.strip():
        return Path(named)
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


@functools.cache
def _code_digest() -> bytes | None:
    """A hash of the cache format, pydantic's version and the card code;
    ``None`` (no caching) when any of them cannot be read."""
    version = pydantic_version()
    if version is None:
        return None
    h = hashlib.sha256(b"dbdeck catalog cache %d\0" % _FORMAT)
    _feed(h, b"pydantic", version)
    here = Path(__file__).parent
    try:
        for name in _CODE_FILES:
            _feed(h, name.encode(), (here / name).read_bytes())  # "../" stays inside dbdeck
    except OSError:
        return None
    return h.digest()


def _feed(h: Any, name: bytes, data: bytes) -> None:
    """Hash a name and its bytes so no two different lists feed alike."""
    h.update(len(name).to_bytes(8, "big") + name + len(data).to_bytes(8, "big"))
    h.update(data)


class CatalogCache:
    """The cache entry of one list of card folders and its files' bytes."""

    def __init__(self, path: Path, key: str) -> None:
        self.path = path
        """The cache file."""
        self.key = key
        """What the file's key must be to be used."""

    @classmethod
    def for_files(
        cls,
        folders: Sequence[Path],
        files: Sequence[tuple[str, bytes]],
        directory: Path | None = None,
    ) -> CatalogCache | None:
        """The entry for a load of ``folders`` that read ``files`` (name as
        given, bytes), or ``None`` when nothing can be cached."""
        code = _code_digest()
        if code is None:
            return None
        h = hashlib.sha256(code)
        for name, data in files:
            _feed(h, _bytes_of(name), data)
        # One file per list of folders: a changed card replaces its entry
        # instead of piling up new ones.
        where = hashlib.sha256(_bytes_of("\0".join(map(str, folders))))
        # A folder of its own, made 0700 by dbdeck, whoever made the one above.
        folder = (cache_dir() if directory is None else directory) / "catalog"
        return cls(folder / f"catalog-{where.hexdigest()[:24]}.json", h.hexdigest())

    def load(self) -> tuple[dict[str, plain.Card], dict[str, str]] | None:
        """The cards and their files kept under this key, or ``None``."""
        data = _read_private(self.path)
        if data is None:
            return None
        head, _, body = data.partition(b"\n")
        try:
            header = json.loads(head)
            if header != {"format": _FORMAT, "key": self.key}:
                return None
            content = json.loads(body, object_hook=_rebuilt)
            names = content["files"]
            cards: dict[str, plain.Card] = {}
            files: dict[str, str] = {}
            for index, card in content["cards"]:
                name = names[index]
                if not isinstance(card, plain.Card) or not isinstance(name, str):
                    return None
                cards[card.id] = card
                files[card.id] = name
        except (ValueError, KeyError, TypeError, IndexError, RecursionError):
            return None
        return cards, files

    def save(self, cards: Mapping[str, plain.Card], files: Mapping[str, str]) -> None:
        """Keep a clean load under this key; a cache that cannot be written
        is silently skipped (the load itself has succeeded)."""
        names = list(dict.fromkeys(files.values()))
        index = {name: i for i, name in enumerate(names)}
        content = {"files": names, "cards": [[index[files[k]], c] for k, c in cards.items()]}
        try:
            header = json.dumps({"format": _FORMAT, "key": self.key})
            # ASCII escapes carry any name, lone surrogates of undecodable
            # file names included, and read back the same.
            body = json.dumps(content, default=_tagged, separators=(",", ":"))
        except (TypeError, ValueError):
            return
        _write_private(self.path, (header + "\n" + body).encode("ascii"))


def _bytes_of(text: str) -> bytes:
    """Any text as bytes for hashing, even a name that is not valid Unicode."""
    return text.encode("utf-8", "surrogatepass")


def _tagged(value: Any) -> dict[str, Any]:
    """A plain object as JSON: its fields and its class name."""
    if isinstance(value, plain.Plain) and plain.CLASSES.get(type(value).__name__) is type(value):
        out: dict[str, Any] = {_TAG: type(value).__name__}
        for name in value.FIELDS:
            out[name] = getattr(value, name)
        return out
    raise TypeError(f"not a plain card object: {type(value).__name__}")


def _rebuilt(data: dict[str, Any]) -> Any:
    """A JSON object back as a plain object (through the fixed class map), or
    as a dict when it has no class tag (``Energy.value_for``)."""
    tag = data.pop(_TAG, None)
    if tag is None:
        return data
    return plain.CLASSES[tag](**data)


def _owned_by_user(info: os.stat_result) -> bool:
    getuid = getattr(os, "getuid", None)
    return getuid is None or info.st_uid == getuid()


def _read_private(path: Path) -> bytes | None:
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
            or not _owned_by_user(info)
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


def _private_folder(folder: Path) -> bool:
    """Make ``folder`` (0700 from its creation) or check an existing one: it
    must be ours, and no one else may write in it. A folder that fails is not
    written to (every load then validates), never chmodded into shape."""
    try:
        make_private_dir(folder)
        info = os.lstat(folder)
    except (OSError, ValueError):
        return False
    return stat.S_ISDIR(info.st_mode) and _owned_by_user(info) and not info.st_mode & 0o022


def _write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` (0600) by a temporary file and a rename, so
    a reader sees the old file or the new one, never half of one."""
    if not _private_folder(path.parent):
        return
    import tempfile

    try:
        fd, temporary = tempfile.mkstemp(prefix=".catalog-", suffix=".tmp", dir=path.parent)
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
