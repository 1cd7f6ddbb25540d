"""Where tables live on this box: sockets, the table list, seat and join tokens.

The layout
----------
The shared tables folder (``/tmp/dbdeck-tables``, or ``DBDECK_TABLES``) is
only a meeting point: it holds one folder per host, and each host writes in
their own folder only::

    /tmp/dbdeck-tables/        01777, owned by root (or by you: then trusted by you only)
        alice/                 0755, owned by alice: only alice writes here
            club.json          the entry of alice's table "club" (0644; 0600 when host-only)
            club.sock          its socket when it admits a group (0660, group G)
            run/               0700: alice's runtime folder when she has no good one

A table that admits only its host puts its socket in the host's runtime
folder (``$XDG_RUNTIME_DIR/dbdeck``, else ``/run/user/UID/dbdeck``, 0700), or
in ``run/`` above when that folder is missing or cannot be trusted; a table
that admits a group puts it in the host's folder, where the group can reach
it. An entry is written with a random name (``O_CREAT|O_EXCL|O_NOFOLLOW``)
and renamed into place, so a planted symlink is never written through.

Why one folder per host: in a shared folder anyone can squat a table's name
or plant a file claiming to be someone's table; in ``alice/`` only alice can
write, so an entry there is alice's, and nobody can take the name of
another's table. (The user folder is 0755, not 0750: a group table's members
must reach its socket whatever group the host chose; the entries name no
secret, and a host-only table's entry is 0600.)

What is trusted
---------------
The shared folder is refused (``UnsafeFolder``, one line saying why and what
to do) when it is a symlink or not a folder, when it belongs to anyone but
root or the current user (its owner may rename or delete anything in it), or
when others may write in it and it has no sticky bit. It is created only
when missing, 01777: by root, for everyone; by another user, it is trusted
by that user only (``dbdeck tables`` of everyone else refuses it), so on a
box shared by several users the admin creates it once (``sudo install -d -m
1777 /tmp/dbdeck-tables``).

A host's folder is trusted when it is a real folder (not a symlink) owned by
the user it is named after and writable by that user only; an entry in it
when it is a regular file owned by that user and names that user as the
host. Anything else is skipped by ``list_tables`` with a one-line note; a
listing never raises. Before ``dbdeck join`` sends a seat token it checks
that the server's uid (the Unix socket's peer credentials) is the host's
(``check_server``), so even a socket swapped behind our back gets nothing.

Folders are made by ``os.mkdir`` with a private mode; a mode that must be
wider is set through an open descriptor (``fchmod``), never by path, so a
symlink swapped in meanwhile cannot redirect it.
"""

from __future__ import annotations

import contextlib
import errno
import grp
import json
import os
import pwd
import re
import secrets
import stat
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Annotated, Any

import platformdirs
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from dbdeck.packs.printable import PRINTABLE_PATTERN, unprintable_in
from dbdeck.tabletop.registry import DEFAULT_GAME

__all__ = [
    "TABLES_ENV",
    "TableEntry",
    "UnsafeFolder",
    "check_entry_free",
    "check_server",
    "default_socket",
    "host_uid",
    "join_token_for",
    "list_tables",
    "may_join",
    "prepare_socket_folder",
    "read_seat_token",
    "read_token_file",
    "refusal",
    "refused_tables",
    "remove_entry",
    "shared_folder",
    "shown",
    "socket_refusal",
    "store_seat_token",
    "table_name_problem",
    "tables_dir",
    "unlisted_socket",
    "untrusted_by_others",
    "user_folder",
    "user_name",
    "write_entry",
]

TABLES_ENV = "DBDECK_TABLES"
DEFAULT_TABLES = "/tmp/dbdeck-tables"

MAX_ENTRY = 64 * 1024
"""The largest entry file read; a bigger one is not an entry."""

_ADMIN_HINT = (
    "ask the box's admin to create it (sudo install -d -m 1777 {path}), "
    "or set DBDECK_TABLES to a folder you trust"
)

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
_READ_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,79}")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,200}")


class UnsafeFolder(OSError):
    """A folder or file of the tables that cannot be trusted (or made); the
    message says which, why, and what to do, in one line.

    An ``OSError``, so that what catches a failed socket or file catches it
    too."""


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
    """The side played against (the first game's word for it)."""
    characters: list[str] | None = None
    """The roles in play (the Characters)."""
    free_seats: int = 0
    game: str = DEFAULT_GAME
    """The id of the game played at the table."""


# --- users ---------------------------------------------------------------------------------


def user_name(uid: int | None = None) -> str:
    """The login name of ``uid`` (this process's user by default).

    From the password database, not from ``$USER``: the name decides whose
    folder and whose tables these are, and the environment is anyone's to
    set."""
    if uid is None:
        uid = os.getuid()
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def host_uid(user: str) -> int | None:
    """The uid of the login name ``user`` (``None`` if there is no such user)."""
    try:
        return pwd.getpwnam(user).pw_uid
    except (KeyError, ValueError):
        return None


def _who(uid: int) -> str:
    name = user_name(uid)
    return f"uid {uid}" if name == str(uid) else f"uid {uid} ({name})"


def in_group(user: str, group: str) -> bool:
    """Whether ``user`` is a member of ``group`` (primary or supplementary)."""
    try:
        gid = grp.getgrnam(group).gr_gid
        entry = pwd.getpwnam(user)
        return gid in os.getgrouplist(user, entry.pw_gid)
    except (KeyError, ValueError, OSError):
        return False


def may_join(user: str, owner: str, group: str) -> bool:
    """Whether ``user`` may sit at a table of ``owner`` admitting ``group``."""
    return user == owner or (bool(group) and in_group(user, group))


def table_name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a table (``None`` when it can): it names
    files in the host's folder, so letters, digits, ``_ . -`` only."""
    if _NAME.fullmatch(name):
        return None
    return (
        f"{name!r} cannot name a table: use up to 80 letters, digits, '_', '.' or '-', "
        "starting with a letter or digit"
    )


# --- folders ---------------------------------------------------------------------------------


def tables_dir() -> Path:
    """The shared tables folder's path (nothing is checked or made)."""
    return Path(os.environ.get(TABLES_ENV) or DEFAULT_TABLES)


def _folder_problem(st: os.stat_result, owners: set[int], *, shared: bool) -> str | None:
    """Why a folder with status ``st`` is not to be trusted, if it is not."""
    if stat.S_ISLNK(st.st_mode):
        return "is a symlink"
    if not stat.S_ISDIR(st.st_mode):
        return "is not a folder"
    if st.st_uid not in owners:
        wanted = " or ".join(_who(uid) for uid in sorted(owners))
        return f"belongs to {_who(st.st_uid)}, not to {wanted}"
    others_write = st.st_mode & 0o022
    if shared:
        if others_write and not st.st_mode & stat.S_ISVTX:
            return f"may be written by other users and has no sticky bit (mode {_mode(st)})"
    elif others_write:
        return f"may be written by other users (mode {_mode(st)})"
    return None


def _private_problem(st: os.stat_result) -> str | None:
    """Why a folder is not this user's private folder (0700), if it is not."""
    problem = _folder_problem(st, {os.getuid()}, shared=False)
    if problem is None and st.st_mode & 0o077:
        problem = f"may be read by other users (mode {_mode(st)})"
    return problem


def _mode(st: os.stat_result) -> str:
    return f"{stat.S_IMODE(st.st_mode):04o}"


def _make_folder(path: Path, mode: int) -> None:
    """Create ``path`` owner-only, then give it ``mode`` through a descriptor.

    ``FileExistsError`` when something is already there (the caller checks
    what)."""
    os.mkdir(path, 0o700)
    fd = os.open(path, _DIR_FLAGS)
    try:
        st = os.fstat(fd)
        if st.st_uid != os.getuid():
            raise UnsafeFolder(f"{path} was replaced while it was being made: not trusted")
        os.fchmod(fd, mode)
    finally:
        os.close(fd)


def _make_parents(folder: Path) -> None:
    """Make ``folder`` and its missing parents, each 0755 whatever the umask
    (``os.makedirs`` would give them the umask's mode: 0777 under umask
    000, where anyone could rename the tables folder away). Not 0700 like
    dbdeck's private folders: every user must reach the tables folder
    through them. Folders already there are left as they are."""
    missing: list[Path] = []
    here = folder
    while not os.path.lexists(here) and here != here.parent:
        missing.append(here)
        here = here.parent
    for path in reversed(missing):
        with contextlib.suppress(FileExistsError):
            _make_folder(path, 0o755)


def shared_folder(*, create: bool = False) -> Path | None:
    """The shared tables folder, checked (``UnsafeFolder`` if it cannot be
    trusted); made 01777 when missing and ``create``, else ``None``."""
    path = tables_dir()
    hint = _ADMIN_HINT.format(path=path)
    for _ in range(2):
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            if not create:
                return None
            try:
                _make_parents(path.parent)
                # Sticky and open to all, like /tmp: everyone makes their own folder in it.
                _make_folder(path, 0o1777)
            except FileExistsError:
                continue  # made meanwhile by someone: check what it is
            except UnsafeFolder:
                raise
            except OSError as exc:
                raise UnsafeFolder(
                    f"cannot make the tables folder {path}: {exc.strerror or exc}"
                ) from exc
            return path
        except OSError as exc:
            raise UnsafeFolder(
                f"cannot look at the tables folder {path}: {exc.strerror or exc}"
            ) from exc
        problem = _folder_problem(st, {0, os.getuid()}, shared=True)
        if problem:
            raise UnsafeFolder(f"the tables folder {path} {problem}: not trusted; {hint}")
        return path
    raise UnsafeFolder(f"the tables folder {path} keeps changing: not trusted; {hint}")


def untrusted_by_others() -> str | None:
    """Why other users will not trust the shared tables folder (it belongs
    to this user, not to root), in words; ``None`` when they will."""
    path = tables_dir()
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if st.st_uid == 0 or os.getuid() == 0:
        return None
    return (
        f"the tables folder {path} belongs to you, so other users will not trust it and "
        f"cannot see this table; {_ADMIN_HINT.format(path=path)}"
    )


def user_folder(*, create: bool = True) -> Path:
    """This user's folder in the shared tables folder (made 0755 when
    missing): their entries and group tables' sockets. ``UnsafeFolder``
    when it, or the shared folder, cannot be trusted."""
    top = shared_folder(create=create)
    if top is None:
        raise UnsafeFolder(f"there is no tables folder {tables_dir()}")
    me = user_name()
    path = top / me
    for _ in range(2):
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            if not create:
                raise UnsafeFolder(f"there is no folder {path}") from None
            try:
                # Others must reach a group table's socket and read its entry.
                _make_folder(path, 0o755)
            except FileExistsError:
                continue
            except UnsafeFolder:
                raise
            except OSError as exc:
                raise UnsafeFolder(f"cannot make {path}: {exc.strerror or exc}") from exc
            return path
        except OSError as exc:
            raise UnsafeFolder(f"cannot look at {path}: {exc.strerror or exc}") from exc
        problem = _folder_problem(st, {os.getuid()}, shared=False)
        if problem:
            raise UnsafeFolder(
                f"your tables folder {path} {problem}: not trusted; "
                "ask whoever made it (or the admin) to remove it"
            )
        return path
    raise UnsafeFolder(f"your tables folder {path} keeps changing: not trusted")


def _private_folder(path: Path) -> str | None:
    """Make (0700) or check the private folder ``path``; why it cannot be
    used, or ``None``."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        try:
            _make_folder(path, 0o700)
        except UnsafeFolder as exc:
            return str(exc)
        except FileExistsError:
            return f"{path} appeared while it was being made"
        except OSError as exc:
            return f"{path} cannot be made ({exc.strerror or exc})"
        return None
    except OSError as exc:
        return f"{path} cannot be looked at ({exc.strerror or exc})"
    problem = _private_problem(st)
    return f"{path} {problem}" if problem else None


def _runtime_base() -> Path | None:
    """The user's runtime folder (``$XDG_RUNTIME_DIR``, else
    ``/run/user/UID``), unchecked, or ``None`` when there is none."""
    env = os.environ.get("XDG_RUNTIME_DIR", "")
    if env and os.path.isabs(env):
        return Path(env)
    default = Path(f"/run/user/{os.getuid()}")
    return default if os.path.lexists(default) else None


def _runtime_folder() -> tuple[Path | None, str]:
    """``<runtime>/dbdeck`` checked (and made 0700), or ``None`` and why not
    (``""`` when there is simply no runtime folder)."""
    base = _runtime_base()
    if base is None:
        return None, ""
    try:
        st = os.lstat(base)
    except OSError as exc:
        return None, f"the runtime folder {base} cannot be used ({exc.strerror or exc})"
    problem = _private_problem(st)
    if problem:
        return None, f"the runtime folder {base} {problem}"
    folder = base / "dbdeck"
    problem = _private_folder(folder)
    if problem:
        return None, f"the runtime folder {problem}"
    return folder, ""


def _fallback_run_folder(notes: list[str] | None) -> Path:
    """A private folder for a host-only socket when the runtime folder
    cannot be used: ``run/`` in the user's tables folder (the same each
    time, so a resumed table keeps its socket), else a fresh temporary one."""
    try:
        folder = user_folder() / "run"
        problem = _private_folder(folder)
    except UnsafeFolder as exc:
        problem = str(exc)
    if problem is None:
        return folder
    fresh = Path(tempfile.mkdtemp(prefix="dbdeck-run-"))
    if notes is not None:
        notes.append(f"{problem}: the socket goes to the fresh folder {fresh}")
    return fresh


def default_socket(name: str, group: str, notes: list[str] | None = None) -> Path:
    """Where a table's socket goes when ``--socket`` is not given (its folder
    made and checked): the host's tables folder for a group table, else the
    runtime folder. A runtime folder that cannot be trusted is not used; a
    one-line note saying so is added to ``notes``. ``UnsafeFolder`` when a
    group table's folder cannot be trusted."""
    if group:
        return user_folder() / f"{name}.sock"
    runtime, why = _runtime_folder()
    if runtime is not None:
        return runtime / f"{name}.sock"
    fallback = _fallback_run_folder(notes)
    if why and notes is not None:
        notes.append(f"{why}: not used; the socket goes to {fallback}")
    return fallback / f"{name}.sock"


def unlisted_socket(name: str, group: str, notes: list[str] | None = None) -> Path:
    """Where a table's socket goes when the host's tables folder cannot be
    trusted (another user made it, or the shared folder): the table is then
    not listed, and is joined by its socket's path. A host-only table's
    socket goes to the runtime folder (or a fresh private folder); a group
    table's to a fresh folder of the host's made 0750 and given the group,
    so its members, and nobody else, reach the socket."""
    if not group:
        runtime, why = _runtime_folder()
        if runtime is not None:
            return runtime / f"{name}.sock"
        fresh = Path(tempfile.mkdtemp(prefix="dbdeck-run-"))
        if why and notes is not None:
            notes.append(f"{why}: not used; the socket goes to {fresh}")
        return fresh / f"{name}.sock"
    fresh = Path(tempfile.mkdtemp(prefix=f"dbdeck-{name[:20]}-"))
    fd = os.open(fresh, _DIR_FLAGS)
    try:
        os.fchown(fd, -1, grp.getgrnam(group).gr_gid)
        os.fchmod(fd, 0o750)
    finally:
        os.close(fd)
    return fresh / f"{name}.sock"


def prepare_socket_folder(path: Path) -> None:
    """Make and check the folder of a socket path that ``default_socket``
    once gave (a resumed table: the folder may have gone with a reboot).
    Other folders are left as they are. ``UnsafeFolder`` if it cannot be
    trusted."""
    parent = path.parent
    mine = tables_dir() / user_name()
    if parent == mine:
        user_folder()
        return
    if parent == mine / "run":
        problem = _private_folder(user_folder() / "run")
    elif (base := _runtime_base()) is not None and parent == base / "dbdeck":
        runtime, problem = _runtime_folder()
        if runtime is not None:
            return
    else:
        return
    if problem:
        raise UnsafeFolder(f"{problem}: not trusted for the table's socket")


# --- entries ---------------------------------------------------------------------------------


def _read_at(dir_fd: int, name: str) -> tuple[os.stat_result, bytes]:
    """The status and contents (at most ``MAX_ENTRY + 1`` bytes) of the file
    ``name`` in the folder open as ``dir_fd``, never through a symlink."""
    fd = os.open(name, _READ_FILE, dir_fd=dir_fd)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return st, b""
        return st, os.read(fd, MAX_ENTRY + 1)
    finally:
        os.close(fd)


def _claim(dir_fd: int, folder: Path, name: str) -> None:
    """Refuse to announce ``name`` when its entry file is there and is not a
    stale (or this process's own) entry of this user."""
    file = f"{name}.json"
    try:
        st = os.stat(file, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return
    foreign = UnsafeFolder(
        f"a file named {file} already exists in {folder} and is not this user's table: "
        "remove it, or choose another --name"
    )
    if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid():
        raise foreign
    try:
        _, raw = _read_at(dir_fd, file)
        data = json.loads(raw)
    except (OSError, ValueError):
        return  # our own unreadable leftover: replaced
    entry, _ = _entry_from(data)
    if entry is None or entry.pid == os.getpid() or not _alive(entry.pid):
        return
    if entry.socket and not os.path.lexists(entry.socket) and not entry.tcp:
        return
    raise UnsafeFolder(
        f"a table named {name} is already served here by process {entry.pid}: "
        "stop it, or choose another --name"
    )


def check_entry_free(name: str) -> Path:
    """The host's folder, once it is sure that ``name`` may be announced
    there (``UnsafeFolder`` with the reason otherwise)."""
    problem = table_name_problem(name)
    if problem:
        raise UnsafeFolder(problem)
    folder = user_folder()
    dir_fd = _open_own(folder)
    try:
        _claim(dir_fd, folder, name)
    finally:
        os.close(dir_fd)
    return folder


def _open_own(folder: Path) -> int:
    """``folder`` open as a descriptor, checked again to be this user's own."""
    try:
        fd = os.open(folder, _DIR_FLAGS)
    except OSError as exc:
        raise UnsafeFolder(f"cannot open {folder}: {exc.strerror or exc}") from exc
    problem = _folder_problem(os.fstat(fd), {os.getuid()}, shared=False)
    if problem:
        os.close(fd)
        raise UnsafeFolder(f"your tables folder {folder} {problem}: not trusted")
    return fd


def write_entry(entry: TableEntry) -> Path:
    """Announce a running table in the host's folder; ``UnsafeFolder`` when
    a file of that name is there and is not the host's own stale entry."""
    problem = table_name_problem(entry.name)
    if problem:
        raise UnsafeFolder(problem)
    folder = user_folder()
    dir_fd = _open_own(folder)
    target = f"{entry.name}.json"
    pending = ""
    try:
        _claim(dir_fd, folder, entry.name)
        while True:
            pending = f".{target}.{secrets.token_hex(8)}.tmp"
            try:
                fd = os.open(pending, _NEW_FILE, 0o600, dir_fd=dir_fd)
            except FileExistsError:
                continue  # never write through what is there
            break
        try:
            # Who may join reads the entry: the group's table is everyone's
            # to see (it says whom it admits), a host-only one the host's.
            os.fchmod(fd, 0o644 if entry.group else 0o600)
            data = memoryview(json.dumps(asdict(entry)).encode("utf-8"))
            while data:
                data = data[os.write(fd, data) :]
        finally:
            os.close(fd)
        os.replace(pending, target, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        pending = ""
    finally:
        if pending:
            with contextlib.suppress(OSError):
                os.unlink(pending, dir_fd=dir_fd)
        os.close(dir_fd)
    return folder / target


def remove_entry(name: str) -> None:
    """Forget a table that stopped (only this process's own entry)."""
    with contextlib.suppress(OSError, ValueError):
        top = shared_folder(create=False)
        if top is None or table_name_problem(name):
            return
        dir_fd = _open_own(top / user_name())
        try:
            file = f"{name}.json"
            st, raw = _read_at(dir_fd, file)
            entry, _ = _entry_from(json.loads(raw) if raw else None)
            if st.st_uid == os.getuid() and (entry is None or entry.pid == os.getpid()):
                os.unlink(file, dir_fd=dir_fd)
        finally:
            os.close(dir_fd)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except (OSError, OverflowError):
        return False
    return True


MAX_SOCKET = 108
"""The longest socket path (``sun_path`` holds 108 bytes)."""

MAX_LOGIN = 32
"""The longest login or group name (Linux's own limit)."""

MAX_WORDS = 80
"""The longest Villain or Character name an entry may carry."""

MAX_CHARACTERS = 16
"""The most Characters one entry may list."""

MAX_SEATS = 64
"""The most free seats an entry may claim."""

_SocketPath = Annotated[str, StringConstraints(max_length=MAX_SOCKET, pattern=PRINTABLE_PATTERN)]
_Login = Annotated[str, StringConstraints(max_length=MAX_LOGIN, pattern=PRINTABLE_PATTERN)]
_Words = Annotated[str, StringConstraints(max_length=MAX_WORDS, pattern=PRINTABLE_PATTERN)]


class _EntryFields(BaseModel):
    """An entry file as another user wrote it, typed at the boundary:
    strict types (no ``"1"`` for 1, no ``true`` for 1), every string
    bounded and printable, so nothing in it can drive the terminal of
    whoever lists the tables. Unknown fields are ignored (a newer dbdeck
    may add some)."""

    model_config = ConfigDict(strict=True, extra="ignore")

    name: Annotated[str, StringConstraints(pattern=f"^{_NAME.pattern}$")]
    socket: _SocketPath
    owner: _Login
    pid: Annotated[int, Field(gt=0, lt=2**31)]
    group: _Login = ""
    tcp: _Words = ""
    villain: _Words = ""
    characters: Annotated[list[_Words], Field(max_length=MAX_CHARACTERS)] | None = None
    free_seats: Annotated[int, Field(ge=0, le=MAX_SEATS)] = 0
    game: Annotated[str, StringConstraints(max_length=40, pattern=r"^[a-z0-9-]+$")] = DEFAULT_GAME


def _field_problem(error: Any) -> str:
    """One pydantic error about an entry, in words (``has no 'pid'``)."""
    loc = [part for part in error["loc"] if isinstance(part, str)]
    key = loc[0] if loc else "?"
    kind = error["type"]
    article = "an" if key[:1] in "aeiou" else "a"
    what = (
        f"a name in {key!r}"
        if key == "characters" and len(error["loc"]) > 1
        else f"{article} {key!r}"
    )
    ctx = error.get("ctx") or {}
    if kind == "missing":
        return f"has no {key!r}"
    if kind == "string_type":
        return f"has {what} that is not text"
    if kind in ("int_type", "int_parsing"):
        return f"has {what} that is not a number"
    if kind == "list_type" or (key == "characters" and kind != "too_long" and "name" not in what):
        return "has 'characters' that are not a list of names"
    if kind == "too_long":
        return f"has more than {MAX_CHARACTERS} 'characters'"
    if kind == "string_too_long":
        return f"has {what} longer than {ctx.get('max_length')} characters"
    if kind == "greater_than" and key == "pid":
        return "has a 'pid' that is not a process"
    if kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal"):
        return f"has {what} out of range"
    if kind == "string_pattern_mismatch":
        if key == "name":
            return "has a 'name' that cannot name a table"
        value = error.get("input")
        where = unprintable_in(value) if isinstance(value, str) else ""
        return f"has {what} holding {where or 'a character it may not hold'}"
    return f"has {what} that is not valid"


def _entry_from(data: Any) -> tuple[TableEntry | None, str]:
    """The entry that ``data`` (parsed JSON) describes, each field typed,
    bounded and printable, or ``None`` and what is wrong with it (the first
    problem, in words)."""
    if not isinstance(data, dict):
        return None, "is not a JSON object"
    try:
        fields = _EntryFields.model_validate(data)
    except ValidationError as exc:
        return None, _field_problem(exc.errors()[0])
    if fields.socket and not os.path.isabs(fields.socket):
        return None, "has a 'socket' that is not an absolute path"
    return TableEntry(**fields.model_dump()), ""


def _read_entry(
    dir_fd: int, folder: Path, file: str, owner: str, uid: int
) -> tuple[TableEntry | None, str]:
    """The entry in ``folder/file`` of ``owner``'s folder, or ``None`` and a
    note (``""``: not an entry for this user to see, nothing to say)."""
    # Another user chose the file's and the folder's names: shown escaped.
    path = shown(str(folder / file), 200)
    try:
        st, raw = _read_at(dir_fd, file)
    except PermissionError:
        return None, ""  # a host-only table of another user: not ours to see
    except OSError as exc:
        why = "is a symlink" if exc.errno == errno.ELOOP else f"cannot be read ({exc.strerror})"
        return None, f"{path} {why}: skipped"
    if not stat.S_ISREG(st.st_mode):
        return None, f"{path} is not a regular file: skipped"
    if st.st_uid != uid:
        return None, f"{path} belongs to {_who(st.st_uid)}, not to {owner}: skipped"
    if len(raw) > MAX_ENTRY:
        return None, f"{path} is too large for an entry: skipped"
    try:
        data = json.loads(raw)
    except ValueError:
        return None, f"{path} is not JSON: skipped"
    entry, problem = _entry_from(data)
    if entry is None:
        return None, f"{path} {problem}: skipped"
    if entry.owner != owner:
        return None, f"{path} names {entry.owner!r} as host but is {shown(owner)}'s: skipped"
    if f"{entry.name}.json" != file:
        return None, f"{path} names the table {entry.name!r}: skipped"
    return entry, ""


def _host_entries(top: Path, owner: str, notes: list[str]) -> list[TableEntry]:
    """The well-formed entries in the folder of ``owner``."""
    folder = top / owner
    where = shown(str(folder), 200)  # any user may make a folder of any name here
    uid = host_uid(owner)
    try:
        st = os.lstat(folder)
    except OSError:
        return []
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        what = "a symlink" if stat.S_ISLNK(st.st_mode) else "not a folder"
        notes.append(f"{where} is {what}, not a host's folder: skipped")
        return []
    if uid is None:
        notes.append(f"{where} is named after no user of this box: skipped")
        return []
    try:
        dir_fd = os.open(folder, _DIR_FLAGS)
    except OSError as exc:
        notes.append(f"{where} cannot be opened ({exc.strerror}): skipped")
        return []
    try:
        problem = _folder_problem(os.fstat(dir_fd), {uid}, shared=False)
        if problem:
            notes.append(f"{where} {problem}: its tables are skipped")
            return []
        found = []
        for file in sorted(os.listdir(dir_fd)):
            if file.startswith(".") or not file.endswith(".json"):
                continue  # sockets, run/, a table being announced
            entry, note = _read_entry(dir_fd, folder, file, owner, uid)
            if note:
                notes.append(note)
            if entry is not None:
                found.append(entry)
        return found
    except OSError as exc:
        notes.append(f"{where} cannot be listed ({exc.strerror}): skipped")
        return []
    finally:
        os.close(dir_fd)


def _reachable(entry: TableEntry, notes: list[str]) -> bool:
    """Whether a running entry's table can be reached (its socket is there,
    or it serves TCP); a socket that cannot even be looked at is noted."""
    if not entry.socket:
        return bool(entry.tcp)
    try:
        st = os.stat(entry.socket)
    except (FileNotFoundError, NotADirectoryError):
        return bool(entry.tcp)  # the table stopped without removing its entry
    except (OSError, ValueError) as exc:
        why = getattr(exc, "strerror", None) or exc
        notes.append(f"table {entry.name} of {entry.owner}: its socket cannot be reached ({why})")
        return False
    if not stat.S_ISSOCK(st.st_mode):
        notes.append(
            f"table {entry.name} of {entry.owner}: {shown(entry.socket, 200)} is not a socket"
        )
        return False
    return True


def _running_tables(notes: list[str]) -> list[tuple[TableEntry, bool]]:
    """Every running, well-formed table entry on this box this user can
    read, each with whether its table can be reached."""
    try:
        top = shared_folder(create=False)
    except UnsafeFolder as exc:
        notes.append(str(exc))
        return []
    if top is None:
        return []
    try:
        hosts = sorted(os.listdir(top))
    except OSError as exc:
        notes.append(f"the tables folder {shown(str(top), 200)} cannot be listed ({exc.strerror})")
        return []
    found = []
    for owner in hosts:
        if owner.startswith("."):
            continue
        for entry in _host_entries(top, owner, notes):
            if _alive(entry.pid):
                found.append((entry, _reachable(entry, notes)))
    return found


def list_tables(user: str | None = None, notes: list[str] | None = None) -> list[TableEntry]:
    """Running tables that ``user`` may join, by host and name.

    Stale entries are skipped silently; entries or folders that cannot be
    trusted or read are skipped with a one-line note added to ``notes``.
    Never raises."""
    said: list[str] = [] if notes is None else notes
    user = user or user_name()
    return [
        entry
        for entry, reachable in _running_tables(said)
        if reachable and may_join(user, entry.owner, entry.group)
    ]


def refused_tables(user: str | None = None) -> list[TableEntry]:
    """Running tables of others that ``user`` may see listed but not join
    (a group table of a group they are not in). A host-only table of
    another user is not among them: its entry is not theirs to read."""
    user = user or user_name()
    return [
        entry
        for entry, _reachable in _running_tables([])
        if not may_join(user, entry.owner, entry.group)
    ]


def shown(text: str, limit: int = 40) -> str:
    """``text`` from a file of another user, fit to print: every character
    that is not plainly visible (control and format characters, escape
    sequences, bidi overrides, line breaks) written as an escape, and at
    most ``limit`` characters, ending in ``…`` when cut."""
    out = "".join(
        char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
        for char in str(text)[: limit + 1]
    )
    return out if len(out) <= limit else out[: limit - 1] + "…"


def refusal(entry: TableEntry) -> str:
    """Why the user, who may not join the table of ``entry``, may not, in one line
    (``club is alice's table for group gamers; you are not in gamers``)."""
    name, owner = shown(entry.name), shown(entry.owner)
    if not entry.group:
        return f"{name} is {owner}'s table, for {owner} only"
    group = shown(entry.group)
    return f"{name} is {owner}'s table for group {group}; you are not in {group}"


def socket_refusal(path: Path, user: str | None = None, uid: int | None = None) -> str:
    """Why ``user`` (of ``uid``, this process's by default) may not connect
    to the table socket at ``path``, in one line, from the socket's own
    owner, group and mode; ``""`` when nothing stands in the way that its
    mode tells (or it cannot be looked at)."""
    user = user or user_name()
    uid = os.getuid() if uid is None else uid
    where = shown(str(path), 200)
    try:
        st = os.stat(path)
    except PermissionError:
        return f"{where} cannot be reached: its folder is another user's, closed to you"
    except (OSError, ValueError):
        return ""
    if uid == 0 or not stat.S_ISSOCK(st.st_mode):
        return ""
    owner = user_name(st.st_uid)
    try:
        group = grp.getgrgid(st.st_gid).gr_name
    except KeyError:
        group = str(st.st_gid)
    if st.st_uid == uid or st.st_mode & stat.S_IWOTH:
        return ""
    if st.st_mode & stat.S_IWGRP:
        if in_group(user, group):
            return ""
        return (
            f"{where} is {shown(owner)}'s table for group {shown(group)}; "
            f"you are not in {shown(group)}"
        )
    return f"{where} is {shown(owner)}'s table, for {shown(owner)} only"


def check_server(
    socket_path: Path | str, owner: str, owner_uid: int, server_uid: int | None
) -> str:
    """Why a connection to ``socket_path`` must not get a seat token: the
    server's uid (its peer credentials) is not the host's. ``""`` when it is.

    Checked after connecting and before the hello, which carries the token."""
    if server_uid is None:
        return f"cannot tell who serves the socket {socket_path}: not sending your seat token"
    if server_uid != owner_uid:
        return (
            f"the socket {socket_path} is served by {_who(server_uid)}, not by {owner}: "
            "not sending your seat token"
        )
    return ""


# --- tokens ----------------------------------------------------------------------------------


def _state_dir() -> Path:
    return Path(platformdirs.user_state_dir("dbdeck"))


def _tokens_file() -> Path:
    return _state_dir() / "seats.json"


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
    seat, token = held.get("seat"), held.get("token")
    if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(token, str):
        return None, None
    return seat, token


def store_seat_token(table: str, seat: int, token: str) -> None:
    """Keep a seat's token (owner-only file) to reconnect later;
    ``dbdeck.saves.SaveFailed`` when it cannot be written."""
    from dbdeck.saves import write_private

    tokens = _read_tokens()
    tokens[table] = {"seat": seat, "token": token}
    write_private(_tokens_file(), json.dumps(tokens))


def read_token_file(path: Path) -> str:
    """The join token kept in ``path``: a regular file of this user that no
    one else may read (``ValueError`` with the reason otherwise)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise ValueError(f"cannot read the token file {path}: {exc.strerror or exc}") from exc
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ValueError(f"the token file {path} is not a regular file")
        if st.st_uid != os.getuid():
            raise ValueError(f"the token file {path} belongs to {_who(st.st_uid)}, not to you")
        if st.st_mode & 0o077:
            raise ValueError(
                f"the token file {path} may be read by others (mode {_mode(st)}): "
                f"chmod 600 {path} (and ask the host for a new token if others read it)"
            )
        text = os.read(fd, 4096).decode("utf-8", "replace").strip()
    finally:
        os.close(fd)
    if not text:
        raise ValueError(f"the token file {path} is empty")
    return text


def join_token_for(save_id: str) -> tuple[str, Path]:
    """The join token of the table of save ``save_id`` and the owner-only
    file that holds it, in the host's state folder: made once, kept for
    the resumed table, so TCP players keep theirs. ``SaveFailed`` when the
    file cannot be written."""
    from dbdeck.saves import write_private

    path = _state_dir() / "tables" / f"{save_id}.join-token"
    try:
        token = read_token_file(path)
    except ValueError:
        token = ""
    if not _TOKEN.fullmatch(token):
        token = secrets.token_urlsafe(18)
        write_private(path, token + "\n")
    return token, path
