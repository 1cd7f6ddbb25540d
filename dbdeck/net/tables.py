"""Where tables live on this box: sockets, the table list, seat tokens.

A table that admits only its owner puts its socket in the owner's runtime
folder. A table that admits a group puts it in the shared tables folder
(``/tmp/dbdeck-tables``, or ``DBDECK_TABLES``), sticky and open to all like
``/tmp``; the socket itself is readable and writable by the owner and the
group only. Every running table writes a small entry file there, so
``dbdeck tables`` can list the tables a user may join.
"""

from __future__ import annotations

import contextlib
import getpass
import grp
import json
import os
import pwd
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import platformdirs

__all__ = [
    "TableEntry",
    "default_socket",
    "list_tables",
    "may_join",
    "read_seat_token",
    "remove_entry",
    "store_seat_token",
    "tables_dir",
    "user_name",
    "write_entry",
]

TABLES_ENV = "DBDECK_TABLES"


@dataclass
class TableEntry:
    """One running table, as ``dbdeck tables`` lists it."""

    name: str
    socket: str
    owner: str
    pid: int
    group: str = ""
    tcp: str = ""
    villain: str = ""
    characters: list[str] | None = None
    free_seats: int = 0


def user_name(uid: int | None = None) -> str:
    """The login name of ``uid`` (this process's user by default)."""
    if uid is None:
        return getpass.getuser()
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def in_group(user: str, group: str) -> bool:
    """Whether ``user`` is a member of ``group`` (primary or supplementary)."""
    try:
        gid = grp.getgrnam(group).gr_gid
        entry = pwd.getpwnam(user)
    except KeyError:
        return False
    return gid in os.getgrouplist(user, entry.pw_gid)


def may_join(user: str, owner: str, group: str) -> bool:
    """Whether ``user`` may sit at a table of ``owner`` admitting ``group``."""
    return user == owner or (bool(group) and in_group(user, group))


def tables_dir() -> Path:
    """The shared folder of table entries (and group tables' sockets)."""
    folder = Path(os.environ.get(TABLES_ENV) or "/tmp/dbdeck-tables")
    if not folder.exists():
        folder.mkdir(parents=True, exist_ok=True)
        # Every user writes their tables' entries here, as in /tmp.
        with contextlib.suppress(OSError):
            folder.chmod(0o1777)
    return folder


def default_socket(name: str, group: str) -> Path:
    """Where a table's socket goes when ``--socket`` is not given."""
    if group:
        return tables_dir() / f"{name}.sock"
    with warnings.catch_warnings():
        # Without XDG_RUNTIME_DIR platformdirs warns and uses /tmp/runtime-UID.
        warnings.simplefilter("ignore")
        runtime = Path(platformdirs.user_runtime_dir("dbdeck"))
    try:
        runtime.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError:
        # No runtime folder for this user (no login session): the shared
        # folder, the socket itself still owner-only.
        return tables_dir() / f"{name}.sock"
    return runtime / f"{name}.sock"


def write_entry(entry: TableEntry) -> Path:
    """Announce a running table."""
    path = tables_dir() / f"{entry.name}.json"
    pending = path.with_suffix(".json.tmp")
    pending.write_text(json.dumps(asdict(entry)), encoding="utf-8")
    os.replace(pending, path)
    return path


def remove_entry(name: str) -> None:
    """Forget a table that stopped."""
    with contextlib.suppress(OSError):
        (tables_dir() / f"{name}.json").unlink()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def list_tables(user: str | None = None) -> list[TableEntry]:
    """Running tables that ``user`` may join (stale entries are skipped)."""
    user = user or user_name()
    found = []
    for path in sorted(tables_dir().glob("*.json")):
        try:
            data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
            entry = TableEntry(**data)
        except (OSError, ValueError, TypeError):
            continue
        if not _alive(entry.pid) or (not Path(entry.socket).exists() and not entry.tcp):
            continue
        if may_join(user, entry.owner, entry.group):
            found.append(entry)
    return found


def _tokens_file() -> Path:
    return Path(platformdirs.user_state_dir("dbdeck")) / "seats.json"


def _read_tokens() -> dict[str, Any]:
    try:
        data = json.loads(_tokens_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def read_seat_token(table: str) -> tuple[int | None, str | None]:
    """The seat and token this user holds at ``table``, if any."""
    held = _read_tokens().get(table)
    if not isinstance(held, dict):
        return None, None
    return held.get("seat"), held.get("token")


def store_seat_token(table: str, seat: int, token: str) -> None:
    """Keep a seat's token (owner-only file) to reconnect later."""
    path = _tokens_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    tokens = _read_tokens()
    tokens[table] = {"seat": seat, "token": token}
    pending = path.with_suffix(".tmp")
    fd = os.open(pending, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(tokens, handle)
    os.replace(pending, path)
