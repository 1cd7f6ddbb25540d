"""A terminal without Unicode gets ASCII and a plain terminal 16 colours,
chosen from the locale and ``TERM``; ``DBDECK_ASCII`` overrides both ways."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import shutil
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from dbdeck.tui.terminal import colour_system, wants_ascii

UTF8 = {"TERM": "xterm-256color", "LANG": "en_GB.UTF-8"}


@pytest.mark.parametrize(
    ("environ", "ascii"),
    [
        (UTF8, False),
        ({"TERM": "xterm", "LANG": "C.UTF-8"}, False),
        ({"TERM": "xterm", "LC_ALL": "de_DE.utf8", "LANG": "C"}, False),
        ({"TERM": "xterm", "LANG": "C"}, True),
        ({"TERM": "xterm", "LANG": "POSIX"}, True),
        ({"TERM": "xterm", "LC_ALL": "C", "LANG": "en_GB.UTF-8"}, True),
        ({"TERM": "xterm", "LC_ALL": "POSIX"}, True),
        ({"TERM": "xterm", "LANG": "en_US.ISO-8859-1"}, True),
        ({"TERM": "xterm"}, True),  # no locale at all: the C locale
        # Python's own coercion of a C locale (PEP 538) is still C.
        ({"TERM": "xterm", "LANG": "C", "LC_CTYPE": "C.UTF-8"}, True),
        ({"TERM": "xterm", "LANG": "C", "LC_CTYPE": "en_GB.UTF-8"}, False),
        ({"TERM": "dumb", "LANG": "en_GB.UTF-8"}, True),
        ({"TERM": "vt100", "LANG": "en_GB.UTF-8"}, True),
        ({"LANG": "en_GB.UTF-8"}, True),  # no TERM
        ({**UTF8, "DBDECK_ASCII": "1"}, True),
        ({"TERM": "dumb", "LANG": "C", "DBDECK_ASCII": "0"}, False),
        ({"TERM": "vt100", "DBDECK_ASCII": "no"}, False),
    ],
)
def test_ascii_is_chosen_from_the_locale_and_the_terminal(
    environ: dict[str, str], ascii: bool
) -> None:
    assert wants_ascii(environ) is ascii


def test_a_plain_terminal_gets_the_sixteen_colours() -> None:
    assert colour_system({"TERM": "dumb"}) == "standard"
    assert colour_system({"TERM": "vt100"}) == "standard"
    assert colour_system({"TERM": "xterm-256color"}) is None  # Textual chooses
    assert colour_system({"TERM": "dumb", "TEXTUAL_COLOR_SYSTEM": "truecolor"}) is None


def _bytes_written(environ: dict[str, str], tmp_path: Path) -> bytes:
    """What ``dbdeck play`` writes to an 80×24 terminal under ``environ``
    until its key bar is drawn (then Ctrl+Q)."""
    command = shutil.which("dbdeck", path=str(Path(sys.executable).parent))
    assert command
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), **environ}
    env["DBDECK_SAVES"] = str(tmp_path / "saves")
    env["DBDECK_CACHE_DIR"] = os.environ["DBDECK_CACHE_DIR"]
    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    args = ["play", "--villain", "freezer", "--characters", "goku", "--seed", "3"]
    process = subprocess.Popen(
        [command, *args], stdin=child, stdout=child, stderr=child, env=env, close_fds=True
    )
    os.close(child)
    out = b""
    deadline = time.monotonic() + 30
    try:
        while time.monotonic() < deadline and b"Help" not in out:
            if select.select([main], [], [], 0.2)[0]:
                try:
                    out += os.read(main, 1 << 20)
                except OSError:
                    break
        time.sleep(0.5)  # the rest of the first frame
        while select.select([main], [], [], 0.2)[0]:
            try:
                out += os.read(main, 1 << 20)
            except OSError:
                break
        os.write(main, b"\x11")
        process.wait(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(main)
    assert b"Help" in out, out[-300:]
    return out


TRUECOLOR = re.compile(rb"\x1b\[[0-9;]*[34]8;2;")
EIGHT_BIT = re.compile(rb"\x1b\[[0-9;]*[34]8;5;")


@pytest.mark.parametrize(
    "environ",
    [{"TERM": "dumb", "LANG": "C.UTF-8"}, {"TERM": "xterm-256color", "LANG": "C"}],
    ids=["dumb", "C-locale"],
)
def test_the_table_sends_only_ascii_where_unicode_cannot_show(
    environ: dict[str, str], tmp_path: Path
) -> None:
    out = _bytes_written(environ, tmp_path)
    assert out.isascii(), [hex(b) for b in out if b > 127][:10]
    if environ["TERM"] == "dumb":
        assert not TRUECOLOR.search(out) and not EIGHT_BIT.search(out)


def test_dbdeck_ascii_zero_keeps_unicode(tmp_path: Path) -> None:
    out = _bytes_written({"TERM": "xterm-256color", "LANG": "C", "DBDECK_ASCII": "0"}, tmp_path)
    assert not out.isascii()
    assert "─".encode() in out or "╭".encode() in out
