"""What goes wrong with a save, and messages of one line.

``SaveError`` is a save that could not be read (its message says why and
what was done), ``SaveInUse`` one another process holds, ``SaveFailed`` a
write that failed (nothing was changed). Every message is one line, naming
the file.
"""

from __future__ import annotations

import errno
from pathlib import Path

__all__ = ["SaveError", "SaveFailed", "SaveInUse"]


class SaveError(Exception):
    """A save could not be read; the message says why and what was done."""

    def __init__(self, message: str, *, backup: Path | None = None) -> None:
        super().__init__(message)
        self.backup = backup


class SaveInUse(SaveError):
    """Another dbdeck process holds the save."""


class SaveFailed(SaveError):
    """A file could not be written (full disk, lost permission, ...): what
    was on disk before is still there, and the change was not applied.

    Not a bug, so no crash report: the message says what to do.
    """

    def __init__(self, message: str, *, code: int | None = None) -> None:
        super().__init__(message)
        self.errno = code
        """The ``errno`` of the failed write, if any."""

    @classmethod
    def from_os_error(
        cls, exc: OSError, not_applied: str = "the last action was not applied"
    ) -> SaveFailed:
        """The plain-words failure for an ``OSError`` met while writing;
        ``not_applied`` says what did not happen."""
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return cls(f"the disk is full: {not_applied}; free space and retry", code=exc.errno)
        reason = exc.strerror or str(exc) or type(exc).__name__
        return cls(f"the game could not be saved ({reason}): {not_applied}", code=exc.errno)


class _Unreadable(SaveError):
    """A file that holds no usable save; ``aside`` says whether moving it
    aside helps (bad content does; a permission problem does not)."""

    def __init__(self, message: str, *, aside: bool = True) -> None:
        super().__init__(_one_line(message))
        self.aside = aside


def _one_line(text: str) -> str:
    """``text`` without line breaks or control characters, for a message."""
    return "".join(c if c.isprintable() else " " for c in text)


def _brief(said: object, limit: int = 200) -> str:
    """An error's text, short enough for one line of a message."""
    text = str(said)
    return text if len(text) <= limit else text[: limit - 1] + "…"
