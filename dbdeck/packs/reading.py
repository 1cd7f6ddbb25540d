"""Reading untrusted card files, for every game: bounded, one line per problem.

Card packs are untrusted input (a shared box loads other people's folders),
so every step is bounded: only regular files are opened, and never in a way
that can block; sizes, nesting depth, number lengths and value counts are
checked on the raw bytes before any parser sees them; every problem is one
printable line. Each game's loader (its card catalog, its packs) and the
scenario files read through these guards.
"""

from __future__ import annotations

import json
import os
import re
import stat
from array import array
from collections.abc import Mapping, Sequence
from itertools import accumulate
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dbdeck.packs.printable import PRINTABLE_PATTERN, unprintable_in

if TYPE_CHECKING:
    from pydantic_core import ValidationError

__all__ = [
    "MAX_CARD_FILE_BYTES",
    "PACKS_ENV",
    "CardSetError",
    "InputRefused",
    "Problem",
    "decode_utf8",
    "files_below",
    "json_limits_problem",
    "one_line",
    "pack_dirs_from_env",
    "read_regular_file",
    "shipped_cards_dir",
    "validation_problems",
]

PACKS_ENV = "DBDECK_PACKS"
"""Environment variable listing extra pack folders, separated by the OS path
separator (``:`` on Unix)."""


MAX_CARD_FILE_BYTES = 4 * 1024 * 1024
"""The largest card file read: the biggest shipped file is about 45 KB."""
_MAX_JSON_DEPTH = 64
"""Nesting allowed in a card file (the shipped set nests 9 deep). Far below
what ``json`` and pydantic can recurse through, so neither ever can hit a
RecursionError on a pack."""
_MAX_JSON_VALUES = 100_000
"""JSON values allowed in one card file (the biggest shipped file has about
1,500). Bounds pydantic's error list: two million bad values would cost
gigabytes of error records."""
_MAX_NUMBER_DIGITS = 9
"""Digits allowed in one number (the shipped set uses at most 3). Keeps
Python's ``int`` conversion limit (4300 digits) out of reach."""
_MAX_PROBLEMS_PER_FILE = 50
"""Problems listed per file; the rest are counted in one more line."""


class Problem:
    """One thing wrong with the card set. Immutable; equal by its fields.

    A plain slotted class rather than a dataclass: every quick command that
    reads a card set imports it, and ``dataclasses`` (with ``inspect``)
    would cost a seventh of their start."""

    __slots__ = ("card", "file", "message", "path")

    file: str
    """The file, as given to the loader."""
    message: str
    """What is wrong."""
    card: str | None
    """The card's id, when the problem belongs to one card."""
    path: str | None
    """The field path inside the card (or the file), when known."""

    def __init__(
        self, file: str, message: str, card: str | None = None, path: str | None = None
    ) -> None:
        for name, value in (("file", file), ("message", message), ("card", card), ("path", path)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Problem is immutable: cannot set {name!r}")

    def __reduce__(self) -> tuple[type[Problem], tuple[str, str, str | None, str | None]]:
        # Copied and pickled through its constructor, as it refuses setattr.
        return (Problem, self._fields())

    def _fields(self) -> tuple[str, str, str | None, str | None]:
        return (self.file, self.message, self.card, self.path)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Problem):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        file, message, card, path = self._fields()
        return f"Problem(file={file!r}, message={message!r}, card={card!r}, path={path!r})"

    def __str__(self) -> str:
        # Every part may come from a hostile file (a key, an id, a file
        # name): clipped and escaped, a problem always prints as one line.
        parts = [self.file]
        if self.card is not None:
            parts.append(f"card {_clip(self.card, 80)!r}")
        if self.path:
            parts.append(_clip(self.path, 200))
        parts.append(_clip(self.message, 500))
        return one_line(": ".join(parts))


class CardSetError(Exception):
    """The card set has problems; ``problems`` lists them all."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = tuple(problems)

    def __reduce__(self) -> tuple[type[CardSetError], tuple[tuple[Problem, ...]]]:
        # Rebuilt from its problems, not from its message.
        return (CardSetError, (self.problems,))


def shipped_cards_dir() -> Path:
    """The folder of the shipped card set.

    An installed wheel carries it inside the package (``dbdeck/data/cards``);
    a source checkout or editable install reads the repository's ``cards/``.
    """
    package = Path(__file__).resolve().parent.parent
    installed = package / "data" / "cards"
    if installed.is_dir():
        return installed
    return package.parent / "cards"


def pack_dirs_from_env(environ: Mapping[str, str] | None = None) -> list[Path]:
    """Pack folders named by ``DBDECK_PACKS``."""
    value = (os.environ if environ is None else environ).get(PACKS_ENV, "")
    return [Path(p) for p in value.split(os.pathsep) if p.strip()]


class InputRefused(ValueError):
    """An untrusted file refused before (or instead of) parsing it; the
    message says why in a few words, without the file's name."""


def files_below(folder: Path, suffix: str) -> tuple[list[Path], list[tuple[Path, str]]]:
    """Every file under ``folder`` whose name ends with ``suffix``, sorted,
    and the sub-folders that could not be read, each with the reason.

    Walks with an explicit stack and never follows a symlinked folder, so
    neither a deep tree nor a symlink loop can exhaust the stack or spin.
    Whatever is listed (a FIFO, a device, a symlink) is only a name here:
    ``read_regular_file`` decides whether it may be read.
    """
    found: list[Path] = []
    unreadable: list[tuple[Path, str]] = []
    stack = [folder]
    while stack:
        current = stack.pop()
        try:
            with os.scandir(current) as entries:
                for entry in entries:
                    try:
                        is_dir = entry.is_dir(follow_symlinks=False)
                    except OSError:
                        is_dir = False
                    if is_dir:
                        stack.append(current / entry.name)
                    elif entry.name.endswith(suffix):
                        found.append(current / entry.name)
        except OSError as exc:
            unreadable.append((current, f"cannot read folder: {exc.strerror or exc}"))
    return sorted(found), sorted(unreadable)


_FILE_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def read_regular_file(path: Path, limit: int) -> bytes:
    """The bytes of ``path`` when it is a regular file of at most ``limit``
    bytes (a symlink to one is fine); raises ``InputRefused`` otherwise.

    A FIFO, a device or a socket is refused from ``stat`` alone; the open is
    non-blocking and the opened file checked again, so a file swapped for a
    FIFO in between cannot hang the reader either. At most ``limit + 1``
    bytes are read, whatever the file claims its size is (``/proc`` files
    say 0).
    """
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise InputRefused(f"not a regular file ({_kind_of_file(info.st_mode)})")
        if info.st_size > limit:
            raise InputRefused(f"too large: {info.st_size} bytes, at most {limit}")
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    except InputRefused:
        raise
    except OSError as exc:
        raise InputRefused(f"cannot read: {exc.strerror or exc}") from None
    except ValueError as exc:  # a NUL in the name
        raise InputRefused(f"cannot read: {exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputRefused("not a regular file (it changed while being opened)")
        chunks: list[bytes] = []
        size = 0
        while chunk := os.read(fd, min(1 << 20, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise InputRefused(f"too large: more than {limit} bytes")
        return b"".join(chunks)
    except OSError as exc:
        raise InputRefused(f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def _kind_of_file(mode: int) -> str:
    return next((name for test, name in _FILE_KINDS if test(mode)), "not a plain file")


def decode_utf8(data: bytes) -> str:
    """``data`` as text; raises ``InputRefused`` naming the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputRefused(f"not UTF-8 text (invalid byte at offset {exc.start})") from None


# A JSON string, escapes included, or an unterminated one running to the end:
# matching from every quote keeps the scan linear on hostile input.
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.?)*+(?:"|\Z)', re.DOTALL)
_LONG_NUMBER = re.compile(rb"[0-9]{%d,}" % (_MAX_NUMBER_DIGITS + 1))
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_DEPTH_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")


def json_limits_problem(data: bytes) -> str | None:
    """Why the JSON text ``data`` is too deep, too big or has too long a
    number to hand to a parser, or ``None`` when it is within the limits.

    Works on the bytes with strings blanked out, in C-speed passes: no
    parser, so nothing here can recurse. For any valid prefix of a document
    the count matches what a parser would nest, so a malformed file cannot
    slip a deep prefix past it.
    """
    bare = _JSON_STRING.sub(b'""', data)
    if _LONG_NUMBER.search(bare):
        return f"a number of more than {_MAX_NUMBER_DIGITS} digits"
    brackets = bare.translate(None, _NOT_BRACKETS)
    values = bare.count(b",") + len(brackets)
    if values > _MAX_JSON_VALUES:
        return f"too many values (about {values}, at most {_MAX_JSON_VALUES})"
    depth = max(accumulate(array("b", brackets.translate(_DEPTH_STEPS))), default=0)
    if depth > _MAX_JSON_DEPTH:
        return f"nested more than {_MAX_JSON_DEPTH} deep"
    return None


def one_line(text: str) -> str:
    """``text`` with every character ``str.isprintable`` refuses escaped
    (control characters, line and paragraph separators, bidirectional
    overrides, lone surrogates from undecodable file names): safe to print
    as one line on any terminal and in any encoding."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def validation_problems(name: str, text: str, exc: ValidationError) -> list[Problem]:
    """Turn a pydantic error on a file ``{"cards": [...]}`` into problems
    naming the file, the card (by its ``id``) and the field.

    ``text`` has passed ``json_limits_problem``, so ``json`` parses it
    without deep recursion or an over-long integer.
    """
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as err:
        return [Problem(name, f"invalid JSON at line {err.lineno} column {err.colno}: {err.msg}")]
    out = []
    # Neither the input nor the docs URL is needed: leaving them out keeps
    # the error records small.
    errors = exc.errors(include_url=False, include_input=False)
    for error in errors[:_MAX_PROBLEMS_PER_FILE]:
        if error["type"] == "json_invalid":
            # pydantic's parser refuses what ``json`` took (a lone surrogate escape)
            detail = str(error["msg"]).removeprefix("Invalid JSON: ")
            out.append(Problem(name, f"invalid JSON: {detail}"))
            continue
        loc = list(error["loc"])
        card_id = None
        node: Any = raw
        if len(loc) >= 2 and loc[0] == "cards" and isinstance(loc[1], int):
            cards = raw.get("cards") if isinstance(raw, dict) else None
            if isinstance(cards, list) and loc[1] < len(cards):
                node = cards[loc[1]]
                ident = node.get("id") if isinstance(node, dict) else None
                card_id = ident if isinstance(ident, str) else f"#{loc[1]}"
            loc = loc[2:]
        path = _field_path(node, loc)
        if error["type"] in ("union_tag_invalid", "union_tag_not_found"):
            tag = str(error.get("ctx", {}).get("discriminator", "")).strip("'")
            path = tag if path == "(file)" else f"{path}.{tag}"
        if error["type"] == "string_pattern_mismatch":
            error = {**error, "input": _value_at(node, loc)}
        out.append(Problem(name, _message(error), card_id, path))
    if len(errors) > _MAX_PROBLEMS_PER_FILE:
        out.append(Problem(name, f"{len(errors) - _MAX_PROBLEMS_PER_FILE} more not shown"))
    return out


def _value_at(node: Any, loc: list[int | str]) -> Any:
    """The value an error's location names (pydantic's union tags skipped)."""
    for step in loc:
        if isinstance(node, dict) and step in node:
            node = node[step]
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            node = node[step]
    return node


def _field_path(node: Any, loc: list[int | str]) -> str:
    """The error's location as a dotted path, without pydantic's union tags."""
    parts: list[str] = []
    for step in loc:
        if isinstance(node, dict) and step in node:
            node = node[step]
        elif isinstance(node, list) and isinstance(step, int) and step < len(node):
            node = node[step]
        elif isinstance(node, dict) and isinstance(step, str) and not _is_tag(node, step):
            node = None  # a missing or unknown field: name it, nothing to descend into
        else:
            continue  # a union tag pydantic adds to the path
        parts.append(str(step))
    return ".".join(parts) or "(file)"


def _is_tag(node: dict[str, Any], step: str) -> bool:
    """Whether ``step`` is the discriminator value pydantic puts in the path."""
    # Only string values can be tags: a hostile ``"type": {}`` is just a
    # wrong value (and unhashable, so no set of them).
    tags = [node.get(key) for key in ("kind", "type", "op", "when")]
    return any(isinstance(tag, str) and tag and step.startswith(tag) for tag in tags)


def _message(error: Any) -> str:
    kind = error["type"]
    ctx = error.get("ctx", {})
    if kind == "union_tag_invalid":
        return (
            f"unknown {ctx.get('discriminator', 'tag').strip(chr(39))} {ctx.get('tag')!r}; "
            f"expected one of {ctx.get('expected_tags')}"
        )
    if kind == "union_tag_not_found":
        return f"missing field {ctx.get('discriminator', '').strip(chr(39))}"
    if kind == "extra_forbidden":
        return "unknown field"
    if kind == "missing":
        return "missing field"
    if kind == "string_pattern_mismatch" and ctx.get("pattern") == PRINTABLE_PATTERN:
        found = unprintable_in(str(error.get("input", "")))
        return (
            f"holds {found or 'a character that cannot be printed'}: a card's text may hold "
            "no control character, escape sequence or bidirectional mark"
        )
    return str(error["msg"])
