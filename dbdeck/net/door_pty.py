"""One SSH session's app, on a pseudo-terminal of its own.

The door runs each session's app as a child process whose standard input,
output and error are the slave side of a fresh pty; the door holds the
master side and moves bytes between it and the SSH channel. The child is
the leader of a session of its own and takes the pty as its controlling
terminal (``take_terminal``), so that a window change reaches it as
``SIGWINCH`` and the pty's end as ``SIGHUP``.

Sizes are bounded (``bounded_size``): a client's ``0x0`` means "unknown"
and gets ``DEFAULT_SIZE``, and anything outside ``MIN_SIZE``..``MAX_SIZE``
is clamped, so that no client makes the app lay out a 65535x65535 screen.

The app ends with its session: ``hang_up`` sends ``SIGHUP`` to its process
group, then ``SIGKILL`` after a grace period, and waits for it. A child
whose door dies without a word still ends: the kernel hangs up its
terminal when the master side closes, and the child asked to be killed
when its parent dies (``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import os
import signal
import struct
import sys
import termios
from collections.abc import Callable, Mapping, Sequence

__all__ = [
    "DEFAULT_SIZE",
    "HANGUP_GRACE",
    "MAX_SIZE",
    "MIN_SIZE",
    "SeatTerminal",
    "bounded_size",
    "take_terminal",
]

DEFAULT_SIZE = (80, 24)
"""Columns and rows of a terminal whose size the client did not give."""

MIN_SIZE = (20, 8)
"""The fewest columns and rows a session's terminal is given."""

MAX_SIZE = (500, 200)
"""The most columns and rows a session's terminal is given (a large
monitor's terminal in a small font is some 400x120)."""

HANGUP_GRACE = 2.0
"""Seconds an app has to end after ``SIGHUP`` before it is killed."""

READ_SIZE = 65536
"""The most bytes read from the pty at once."""


def bounded_size(columns: int, rows: int) -> tuple[int, int]:
    """A client's terminal size within bounds: ``0`` (unknown) for either
    gives the default size, and each is clamped to ``MIN_SIZE``..``MAX_SIZE``."""
    if columns <= 0 or rows <= 0:
        return DEFAULT_SIZE
    return (
        max(MIN_SIZE[0], min(MAX_SIZE[0], columns)),
        max(MIN_SIZE[1], min(MAX_SIZE[1], rows)),
    )


def _set_size(fd: int, columns: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def take_terminal(fd: int = 0) -> None:
    """In a child of the door: make the pty on ``fd`` this session's
    controlling terminal, and ask to be killed when the door dies.

    The child was started as the leader of a new session
    (``start_new_session``), with no controlling terminal yet."""
    with contextlib.suppress(OSError):
        fcntl.ioctl(fd, termios.TIOCSCTTY, 0)
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
        if os.getppid() == 1:  # the door died before the request was made
            os._exit(1)


class SeatTerminal:
    """A child process on a pty, its output handed to ``on_output``."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        env: Mapping[str, str],
        cwd: str,
        size: tuple[int, int],
        pass_fds: Sequence[int],
        on_output: Callable[[bytes], None],
    ) -> None:
        self.argv = list(argv)
        self.env = dict(env)
        self.cwd = cwd
        self.size = size
        self.pass_fds = tuple(pass_fds)
        self.on_output = on_output
        self.process: asyncio.subprocess.Process | None = None
        self._master = -1
        self._pending = b""
        """Input the app has not taken yet."""
        self._reading = False
        self.output_done = asyncio.get_running_loop().create_future()
        """Done once the pty has no writer left (the app and its children
        closed it): all the output has been handed on."""
        self.on_input_blocked: Callable[[bool], None] = lambda blocked: None
        """Told when input backs up (``True``) and when it flows again."""

    @property
    def pid(self) -> int | None:
        """The app's process id, once it is started."""
        return self.process.pid if self.process is not None else None

    async def start(self) -> None:
        """Start the app on a fresh pty of the session's size."""
        master, slave = os.openpty()
        try:
            _set_size(slave, *self.size)
            os.set_blocking(master, False)
            self.process = await asyncio.create_subprocess_exec(
                *self.argv,
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=self.env,
                cwd=self.cwd,
                pass_fds=self.pass_fds,
                start_new_session=True,
            )
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        self._master = master
        self._reading = True
        asyncio.get_running_loop().add_reader(master, self._readable)

    def _readable(self) -> None:
        try:
            data = os.read(self._master, READ_SIZE)
        except BlockingIOError:
            return
        except OSError as exc:
            # EIO: the slave side has no one left (the app ended).
            if exc.errno not in (errno.EIO, errno.EBADF):
                raise
            data = b""
        if not data:
            self.pause_output()
            if not self.output_done.done():
                self.output_done.set_result(None)
            return
        self.on_output(data)

    def pause_output(self) -> None:
        """Stop reading the app's output (the client reads too slowly): the
        pty fills and the app waits."""
        if self._reading and self._master >= 0:
            asyncio.get_running_loop().remove_reader(self._master)
            self._reading = False

    def resume_output(self) -> None:
        """Read the app's output again."""
        if not self._reading and self._master >= 0 and not self.output_done.done():
            asyncio.get_running_loop().add_reader(self._master, self._readable)
            self._reading = True

    def write(self, data: bytes) -> None:
        """Type ``data`` into the app's terminal (kept while the app does not read)."""
        if self._master < 0:
            return
        if self._pending:
            self._pending += data
            return
        self._pending = data
        self._flush()

    def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._pending:
                sent = os.write(self._master, self._pending)
                self._pending = self._pending[sent:]
        except BlockingIOError:
            loop.add_writer(self._master, self._flush)
            self.on_input_blocked(True)
            return
        except OSError:
            self._pending = b""  # the app is gone: nobody will read it
        loop.remove_writer(self._master)
        self.on_input_blocked(False)

    def resize(self, columns: int, rows: int) -> None:
        """Give the app's terminal a new size (it gets ``SIGWINCH``)."""
        self.size = bounded_size(columns, rows)
        if self._master >= 0:
            with contextlib.suppress(OSError):
                _set_size(self._master, *self.size)

    def running(self) -> bool:
        """Whether the app has not ended yet."""
        return self.process is not None and self.process.returncode is None

    async def wait(self) -> int:
        """Wait for the app to end; its exit status (a signal's number, negative)."""
        assert self.process is not None
        return await self.process.wait()

    def _signal(self, sig: signal.Signals) -> None:
        if self.process is None or self.process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            # The app leads its own process group: whatever it started ends too.
            os.killpg(self.process.pid, sig)

    async def hang_up(self, grace: float = HANGUP_GRACE) -> None:
        """End the app: ``SIGHUP``, then ``SIGKILL`` after ``grace`` seconds;
        return once it is gone and the pty is closed."""
        if self.process is not None:
            self._signal(signal.SIGHUP)
            try:
                await asyncio.wait_for(asyncio.shield(self.process.wait()), grace)
            except TimeoutError:
                self._signal(signal.SIGKILL)
                await self.process.wait()
        self.close()

    def close(self) -> None:
        """Close the door's side of the pty."""
        if self._master < 0:
            return
        loop = asyncio.get_running_loop()
        loop.remove_reader(self._master)
        loop.remove_writer(self._master)
        os.close(self._master)
        self._master = -1
        self._reading = False
        if not self.output_done.done():
            self.output_done.set_result(None)
