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
JSON, rebuilt through the fixed class map ``plain.CLASSES`` (no pickle),
read and written by ``dbdeck.packs.cache_files`` (private folder and files,
atomic writes). A file that fails to parse or whose key differs is ignored.
Nothing here ever raises: the worst a cache can do is miss.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dbdeck.games.deckbuilding.cards import plain
from dbdeck.packs.cache_files import (
    CACHE_ENV,
    cache_dir,
    code_digest,
    entry_key,
    pydantic_version,
    read_private,
    write_private,
)

__all__ = ["CACHE_ENV", "CatalogCache", "cache_dir", "pydantic_version"]

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
    "../../../packs/cache_files.py",
    "../../../packs/reading.py",
    "../../../packs/printable.py",
)
"""The modules of ``dbdeck.games.deckbuilding.cards`` (and of the shared
readers in ``dbdeck.packs``) whose code decides what a loaded card is.
The kept validator's ``core_schema.json`` is not read: it is what its
generator makes of the models, both listed (and hashing it would cost a
warm start more than all of these)."""

_TAG = "@"
"""The key naming a plain object's class in the cache's JSON."""


@functools.cache
def _code_digest() -> bytes | None:
    """A hash of the cache format, pydantic's version and the card code;
    ``None`` (no caching) when any of them cannot be read."""
    title = b"dbdeck catalog cache %d\0" % _FORMAT
    return code_digest(title, Path(__file__).parent, _CODE_FILES)


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
        # One file per list of folders: a changed card replaces its entry
        # instead of piling up new ones.
        where = hashlib.sha256(_bytes_of("\0".join(map(str, folders))))
        # A folder of its own, made 0700 by dbdeck, whoever made the one above.
        folder = (cache_dir() if directory is None else directory) / "catalog"
        return cls(folder / f"catalog-{where.hexdigest()[:24]}.json", entry_key(code, files))

    def load(self) -> tuple[dict[str, plain.Card], dict[str, str]] | None:
        """The cards and their files kept under this key, or ``None``."""
        data = read_private(self.path)
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
        write_private(self.path, (header + "\n" + body).encode("ascii"))


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
