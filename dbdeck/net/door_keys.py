"""The SSH door's keys: who may come in, by the key they hold.

The file is in OpenSSH's ``authorized_keys`` format, one key a line::

    ssh-ed25519 AAAAC3Nza… ann
    name="bob" ssh-ed25519 AAAAC3Nza… bob@laptop
    watch-only ssh-ed25519 AAAAC3Nza… carol

A key's player is named by its ``name="NAME"`` option, else by its comment.
A name is 1 to 32 letters, digits, ``.``, ``_``, ``-`` or ``@``, starting
with a letter or a digit; two keys of one name are one player (a laptop's
and a desktop's), and must agree on ``watch-only``. The option
``watch-only`` lets a key watch and never sit. OpenSSH's restricting options
(``restrict``, ``no-port-forwarding``, ``no-agent-forwarding``,
``no-X11-forwarding``, ``no-user-rc``) are taken and change nothing: the
door grants none of that to anyone. Any other option is refused, so that a
line copied from a real ``authorized_keys`` never seems to keep a
``command=`` or a ``from=`` the door would not apply.

The file is typed and bounded here: at most ``MAX_KEYS_BYTES`` bytes and
``MAX_KEYS`` keys, each problem told with the file's name and the line's
number. It must be the host's own file, written by no one else (as sshd's
``StrictModes`` asks): whoever may write it may let anyone in.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, StringConstraints, ValidationError

from dbdeck.net.protocol import printable

__all__ = [
    "MAX_KEYS",
    "MAX_KEYS_BYTES",
    "NAME_PATTERN",
    "DoorKey",
    "DoorKeys",
    "KeysProblem",
    "parse_door_keys",
    "read_door_keys",
]

MAX_KEYS_BYTES = 1024 * 1024
"""The largest keys file the door reads."""

MAX_KEYS = 1000
"""The most keys one file may hold."""

MAX_LINE = 16 * 1024
"""The longest line of a keys file (a 16384-bit RSA key is some 2.8 KB)."""

NAME_PATTERN = r"[A-Za-z0-9][A-Za-z0-9._@-]{0,31}"
"""A player's name at the door."""

IGNORED_OPTIONS = frozenset(
    {"restrict", "no-port-forwarding", "no-agent-forwarding", "no-x11-forwarding", "no-user-rc"}
)
"""OpenSSH's options that only take away what the door never gives."""

KEY_TYPE = re.compile(r"(?:ssh|ecdsa|sk)-[A-Za-z0-9@.+-]+")
"""The first word of a key (``ssh-ed25519``, ``ecdsa-sha2-nistp256``,
``sk-ssh-ed25519@openssh.com``): no option starts so."""

OPTION = re.compile(r'([A-Za-z0-9-]+)(?:="((?:[^"\\]|\\.)*)")?')
"""One option: a word, and maybe a quoted value (``\\"`` inside)."""


class KeysProblem(ValueError):
    """The keys file cannot be used; the message names the file, and the
    line when one is at fault."""


class _Player(BaseModel):
    """What a line says of its player, checked."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Annotated[str, StringConstraints(pattern=f"^{NAME_PATTERN}$")]
    """The player's name (its identity at the table is ``ssh:NAME``)."""
    watch_only: bool = False
    """Whether the key may only watch."""


@dataclass(frozen=True)
class DoorKey:
    """One key of the file, and the player it names."""

    name: str
    """The player's name."""
    watch_only: bool
    """Whether this key may only watch."""
    fingerprint: str
    """The key's SHA256 fingerprint, as ``ssh-keygen -l`` prints it."""
    public_data: bytes
    """The key in SSH's wire form (what a client offers)."""
    line: int
    """The line of the file it is on."""


class DoorKeys:
    """The keys of a file, found by the key a client offers."""

    def __init__(self, keys: list[DoorKey]) -> None:
        self.keys = keys
        self._by_data = {key.public_data: key for key in keys}

    def find(self, public_data: bytes) -> DoorKey | None:
        """The entry of a key, or ``None`` when the file does not hold it."""
        return self._by_data.get(public_data)

    def names(self) -> list[str]:
        """The players' names, in the file's order, each once."""
        return list(dict.fromkeys(key.name for key in self.keys))

    def watchers(self) -> list[str]:
        """The names that may only watch."""
        return list(dict.fromkeys(key.name for key in self.keys if key.watch_only))


def read_door_keys(path: Path) -> DoorKeys:
    """The keys of the file at ``path`` (``KeysProblem`` saying why not)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise KeysProblem(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise KeysProblem(f"{path}: not a regular file")
        if st.st_uid != os.getuid():
            raise KeysProblem(
                f"{path}: belongs to uid {st.st_uid}, not to you: whoever may write it may "
                "let anyone in"
            )
        if st.st_mode & 0o022:
            raise KeysProblem(
                f"{path}: others may write it (mode {stat.S_IMODE(st.st_mode):04o}): "
                f"chmod go-w {path}"
            )
        raw = b""
        while len(raw) <= MAX_KEYS_BYTES:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            raw += chunk
    except OSError as exc:
        raise KeysProblem(f"{path}: cannot be read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    if len(raw) > MAX_KEYS_BYTES:
        raise KeysProblem(f"{path}: too large for a keys file (over {MAX_KEYS_BYTES} bytes)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise KeysProblem(f"{path}, line {line}: not UTF-8 text") from None
    return parse_door_keys(text, str(path))


def parse_door_keys(text: str, where: str) -> DoorKeys:
    """The keys of a file's ``text`` (``where`` names it in problems)."""
    import asyncssh

    keys: list[DoorKey] = []
    seen: dict[bytes, int] = {}
    watching: dict[str, tuple[bool, int]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        at = f"{where}, line {number}"
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if len(line) > MAX_LINE:
            raise KeysProblem(f"{at}: longer than {MAX_LINE} characters")
        if len(keys) >= MAX_KEYS:
            raise KeysProblem(f"{at}: more than {MAX_KEYS} keys")
        options, rest = _split_options(line, at)
        parts = rest.split(None, 2)
        if len(parts) < 2:
            raise KeysProblem(f"{at}: expected a key type and the key (ssh-ed25519 AAAA… NAME)")
        try:
            key = asyncssh.import_public_key(f"{parts[0]} {parts[1]}")
        except (asyncssh.KeyImportError, ValueError) as exc:
            raise KeysProblem(f"{at}: not a public key this door reads ({exc})") from None
        comment = parts[2].strip() if len(parts) > 2 else ""
        player = _player(options, comment, at)
        data = key.public_data
        if data in seen:
            raise KeysProblem(f"{at}: the same key as line {seen[data]}")
        seen[data] = number
        was = watching.setdefault(player.name, (player.watch_only, number))
        if was[0] != player.watch_only:
            raise KeysProblem(
                f"{at}: {player.name} is watch-only on line {was[1] if was[0] else number} and "
                "not on the other: a player either sits or watches (give one key another name)"
            )
        keys.append(
            DoorKey(player.name, player.watch_only, key.get_fingerprint("sha256"), data, number)
        )
    return DoorKeys(keys)


def _split_options(line: str, at: str) -> tuple[dict[str, str | None], str]:
    """A line's options (by their lower-case names) and what follows them."""
    first = line.split(None, 1)[0]
    if KEY_TYPE.fullmatch(first):
        return {}, line
    options: dict[str, str | None] = {}
    place = 0
    while True:
        found = OPTION.match(line, place)
        if found is None:
            raise KeysProblem(f"{at}: cannot read the options before the key")
        name = found.group(1).lower()
        value = found.group(2)
        options[name] = None if value is None else value.replace('\\"', '"')
        place = found.end()
        if line[place : place + 1] == ",":
            place += 1
            continue
        if line[place : place + 1].isspace():
            return options, line[place:].strip()
        raise KeysProblem(f"{at}: cannot read the options before the key")


def _player(options: dict[str, str | None], comment: str, at: str) -> _Player:
    """The player a line names, from its options and its comment."""
    for option, value in options.items():
        if option in IGNORED_OPTIONS and value is None:
            continue
        if option == "name" and value is not None:
            continue
        if option == "watch-only" and value is None:
            continue
        raise KeysProblem(
            f'{at}: the option {option!r} is not for the door: it takes name="NAME" and '
            "watch-only (and OpenSSH's restrict and no-…-forwarding, which change nothing)"
        )
    name = options.get("name") or comment
    if not name:
        raise KeysProblem(f'{at}: name the player: name="NAME" before the key, or a comment')
    try:
        return _Player(name=name, watch_only="watch-only" in options)
    except ValidationError:
        source = "name" if options.get("name") else "comment"
        raise KeysProblem(
            f"{at}: the {source} {printable(name, 40, spaces=True)!r} is no player's name: "
            '1 to 32 letters, digits, ".", "_", "-" or "@", starting with a letter or a digit '
            '(or give name="NAME")'
        ) from None
