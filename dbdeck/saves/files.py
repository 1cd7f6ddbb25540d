"""Private files and folders: created safely, written crash-safely, read
without surprises; and crash reports.

Saves are private: files are created 0600 in folders created 0700, since a
save holds the seed (every future shuffle) and a crash report the game's
insides.

Every write goes to a private temporary file with a random name in the same
folder, is flushed to disk, and replaces the file by an atomic rename; for a
save (``write_atomic``) the previous save is kept as ``<id>.bak``. A process
killed at any moment leaves either the old file or the new one, never a torn
file; a write that fails (a full disk) leaves the old one.

Reading (``_read_bytes``) takes only a regular file of at most
``MAX_SAVE_BYTES``, never through a symlink and never blocking.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
import traceback
from datetime import UTC, datetime
from pathlib import Path

from dbdeck.folders import PRIVATE_DIR, make_private_dir
from dbdeck.saves.errors import SaveFailed, _Unreadable

__all__ = [
    "MAX_SAVE_BYTES",
    "PRIVATE_DIR",
    "PRIVATE_FILE",
    "make_private_dir",
    "write_atomic",
    "write_crash_report",
    "write_private",
]

MAX_SAVE_BYTES = 64 * 1024 * 1024
"""The largest save file read (a long game's save is a few hundred KiB)."""


# On a shared box the saves hold the seed (and so every future shuffle), the
# players' names and the crash reports' tracebacks: nothing another user may
# read. Files are born 0600 and folders 0700 (no chmod afterwards, which would
# leave a window), and every file is created with O_EXCL|O_NOFOLLOW under a
# random name so that a symlink planted at a predictable name cannot redirect
# a write.

PRIVATE_FILE = 0o600
_CREATE = os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_WRONLY | os.O_CLOEXEC


def _create_private(path: Path) -> int:
    """A new file at ``path`` open for writing, mode 0600; fails if anything
    (a file, a symlink) is already there."""
    return os.open(path, _CREATE, PRIVATE_FILE)


def _write_fd(fd: int, data: bytes) -> None:
    """Write all of ``data`` to ``fd`` and force it to the disk."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    os.fsync(fd)


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _private_temp(path: Path, data: bytes) -> Path:
    """A complete, fsynced private copy of ``data`` beside ``path`` under a
    random name ``.<name>.<token>.tmp``; nothing is left behind on failure."""
    make_private_dir(path.parent)
    while True:
        pending = path.parent / f".{path.name}.{secrets.token_hex(8)}.tmp"
        try:
            fd = _create_private(pending)
        except FileExistsError:
            continue  # astronomically unlikely; never write through what is there
        break
    try:
        try:
            _write_fd(fd, data)
        finally:
            os.close(fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(pending)
        raise
    return pending


def write_private(path: Path, text: str) -> None:
    """Replace ``path`` atomically with ``text`` (UTF-8), readable by this
    user only.

    The text goes to a fresh 0600 temporary file with a random name in the
    same folder (created 0700 if missing), is flushed and fsynced, renamed
    over ``path``, and the folder is fsynced. On any ``OSError`` the
    temporary file is removed, ``path`` is as it was, and ``SaveFailed``
    says why in plain words.
    """
    pending: Path | None = None
    try:
        pending = _private_temp(path, text.encode("utf-8"))
        os.replace(pending, path)
        pending = None
        _fsync_dir(path.parent)
    except OSError as exc:
        if pending is not None:
            with contextlib.suppress(OSError):
                os.unlink(pending)
        raise SaveFailed.from_os_error(exc) from exc


def write_crash_report(folder: Path, error: BaseException, about: str = "") -> Path:
    """Write a crash report (the error and its traceback) into ``folder``,
    readable by this user only; raises ``OSError`` if it cannot."""
    make_private_dir(folder)
    text = "dbdeck crash report\n" + about + "\n" + "".join(traceback.format_exception(error))
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
    report = folder / f"crash-{stamp}.txt"
    while True:
        try:
            fd = _create_private(report)
        except FileExistsError:  # two reports in one microsecond, or a planted name
            report = folder / f"crash-{stamp}-{secrets.token_hex(3)}.txt"
            continue
        break
    try:
        try:
            _write_fd(fd, text.encode("utf-8", "backslashreplace"))
        finally:
            os.close(fd)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(report)  # half a report helps nobody
        raise
    return report


def _read_bytes(path: Path) -> bytes:
    """The bytes of a regular file of at most ``MAX_SAVE_BYTES``.

    Opened without following a symlink and without blocking, so a symlink to
    ``/dev/zero`` or a FIFO planted as a save is refused instead of hanging.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _Unreadable(f"{path}: is a symbolic link, not a save file") from None
        raise _Unreadable(f"{path}: cannot be read ({exc.strerror})", aside=False) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _Unreadable(
                f"{path}: is not a regular file", aside=not stat.S_ISDIR(info.st_mode)
            )
        too_big = f"{path}: is too large for a save (more than {MAX_SAVE_BYTES} bytes)"
        if info.st_size > MAX_SAVE_BYTES:
            raise _Unreadable(too_big)
        chunks: list[bytes] = []
        total = 0
        while chunk := os.read(fd, min(1 << 20, MAX_SAVE_BYTES + 1 - total)):
            chunks.append(chunk)
            total += len(chunk)
            if total > MAX_SAVE_BYTES:  # it grew while being read
                raise _Unreadable(too_big)
        return b"".join(chunks)
    except OSError as exc:
        raise _Unreadable(f"{path}: cannot be read ({exc.strerror})", aside=False) from None
    finally:
        os.close(fd)


# --- the files of one save ----------------------------------------------------------------

_TOKEN = re.compile(r"[0-9a-f]{16}")


def _temporary_of(save_id: str, name: str, kinds: tuple[str, ...] = ("json",)) -> bool:
    """Whether ``name`` is a temporary file of this save (``.<id>.json.<token>.tmp``,
    the old fixed ``.<id>.json.tmp``) and not of another game's id that
    happens to start the same way."""
    if name == f".{save_id}.json.tmp":
        return True
    for kind in kinds:
        start = f".{save_id}.{kind}."
        token = name[len(start) : -len(".tmp")]
        if name.startswith(start) and name.endswith(".tmp") and _TOKEN.fullmatch(token):
            return True
    return False


def _pending(folder: Path, save_id: str) -> list[Path]:
    """Temporary files of a save, newest first (the old fixed name too)."""
    try:
        found = [folder / n for n in os.listdir(folder) if _temporary_of(save_id, n)]
    except OSError:
        return []

    def age(path: Path) -> float:
        try:
            return path.lstat().st_mtime
        except OSError:
            return 0.0

    return sorted(found, key=age, reverse=True)


def _keep_backup(folder: Path, save_id: str, path: Path) -> None:
    """Make the current save (if any) the backup, leaving the save itself in
    place: a hard link under a random name, renamed over ``<id>.bak``."""
    if not os.path.lexists(path):
        return
    backup = folder / f"{save_id}.bak"
    linked = folder / f".{save_id}.bak.{secrets.token_hex(8)}.tmp"
    try:
        os.link(path, linked, follow_symlinks=False)
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
            raise
        # No hard links here: move the save; a crash before the next rename
        # leaves only the temporary file, which ``read_save`` recovers.
        os.replace(path, backup)
        return
    try:
        os.replace(linked, backup)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(linked)
        raise


def write_atomic(
    folder: Path,
    save_id: str,
    text: str,
    *,
    not_applied: str = "the last action was not applied",
) -> None:
    """Replace ``<id>.json`` with ``text`` so that a crash at any moment leaves
    a whole file; the replaced save becomes ``<id>.bak``.

    On any ``OSError`` the save and its backup are as they were (or the
    backup already equals the save), no temporary file is left, and
    ``SaveFailed`` says, with ``not_applied``, what did not happen.
    """
    path = folder / f"{save_id}.json"
    pending: Path | None = None
    try:
        pending = _private_temp(path, text.encode("utf-8"))
        _keep_backup(folder, save_id, path)
        os.replace(pending, path)
        pending = None
        _fsync_dir(folder)
    except OSError as exc:
        if pending is not None:
            with contextlib.suppress(OSError):
                os.unlink(pending)
        raise SaveFailed.from_os_error(exc, not_applied) from exc
