"""A squatted tables folder never stops anyone hosting.

Another user may pre-make ``<tables>/<you>/`` (or plant a symlink there, or
own the shared folder itself): then nothing of yours can be listed there,
but ``dbdeck host`` still serves the table, unlisted, on a socket of the
host's own, says what is wrong, and prints how others join (by the
socket's path). A group table's socket goes to a fresh folder of the
host's, 0750 and of the table's group, so its members reach it and nobody
else does. The shared folder's missing parents are made 0755 whatever the
umask.
"""

from __future__ import annotations

import asyncio
import grp
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from dbdeck.net.client import TableClient
from dbdeck.net.listing import shared_folder, user_name

STRANGER = 4242
"""A uid with no account on the box: "another user"."""

ME = user_name()
GROUP = grp.getgrgid(os.getgid()).gr_name


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DBDECK_TABLES", str(tmp_path / "tables"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("DBDECK_SAVES", str(tmp_path / "saves"))
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))


def _strangers_folder(top: Path) -> str:
    shared_folder(create=True)
    (top / ME).mkdir()
    os.chown(top / ME, STRANGER, -1)
    return f"belongs to uid {STRANGER}"


def _a_symlink(top: Path) -> str:
    shared_folder(create=True)
    elsewhere = top.with_name("elsewhere")
    elsewhere.mkdir()
    (top / ME).symlink_to(elsewhere)
    return "is a symlink"


def _open_to_all(top: Path) -> str:
    shared_folder(create=True)
    (top / ME).mkdir()
    (top / ME).chmod(0o777)
    return "may be written by other users"


def _strangers_tables_folder(top: Path) -> str:
    top.mkdir()
    top.chmod(0o1777)
    os.chown(top, STRANGER, -1)
    return f"the tables folder {top} belongs to uid {STRANGER}"


SQUATS: list[Callable[[Path], str]] = [
    _strangers_folder,
    _a_symlink,
    _open_to_all,
    _strangers_tables_folder,
]


def _dbdeck() -> str:
    command = shutil.which("dbdeck", path=str(Path(sys.executable).parent))
    assert command, "the dbdeck command is installed next to the interpreter"
    return command


async def _watch(path: Path) -> int | None:
    """Join the table at ``path`` as a spectator; the seat it gave (None)."""
    client = await TableClient.connect(socket_path=path)
    try:
        welcome = await client.hello(spectate=True)
        return welcome.seat
    finally:
        await client.close()


def _host_and_watch(args: list[str], tmp_path: Path) -> tuple[str, Path, os.stat_result]:
    """Run ``dbdeck host ARGS`` until it serves, watch its table over the
    socket it printed, stop it; what it printed, the socket's path and its
    folder's status while it served."""
    process = subprocess.Popen(
        [_dbdeck(), "host", "--villain", "freezer", "--characters", "goku,krillin", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=dict(os.environ),
        cwd=tmp_path,
    )
    assert process.stdout is not None
    printed = ""
    deadline = time.monotonic() + 30
    try:
        while "Ctrl+C" not in printed and time.monotonic() < deadline:
            line = process.stdout.readline().decode()
            if not line:
                break
            printed += line
        assert "Ctrl+C" in printed, printed
        join = next(line for line in printed.splitlines() if "dbdeck join --socket" in line)
        path = Path(join.split("--socket ", 1)[1].split()[0])
        assert asyncio.run(_watch(path)) is None
        folder = os.stat(path.parent)
        process.send_signal(signal.SIGINT)
        printed += process.communicate(timeout=20)[0].decode()
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, printed
    return printed, path, folder


@pytest.mark.parametrize("squat", SQUATS, ids=[s.__name__.strip("_") for s in SQUATS])
def test_a_squatted_folder_does_not_stop_a_host_only_table(
    squat: Callable[[Path], str], tmp_path: Path
) -> None:
    top = tmp_path / "tables"
    why = squat(top)
    printed, path, _ = _host_and_watch(["--name", "club"], tmp_path)
    assert "Traceback" not in printed
    assert why in printed and "served but not listed by dbdeck tables" in printed
    assert "a table for you only" in printed
    # On the host's own private runtime folder, never in the squatted one.
    assert path == tmp_path / "run" / "dbdeck" / "club.sock"
    assert not list(top.glob("**/*.json"))


@pytest.mark.parametrize("squat", SQUATS, ids=[s.__name__.strip("_") for s in SQUATS])
def test_a_squatted_folder_does_not_stop_a_group_table(
    squat: Callable[[Path], str], tmp_path: Path
) -> None:
    top = tmp_path / "tables"
    why = squat(top)
    printed, path, st = _host_and_watch(["--name", "club", "--group", GROUP], tmp_path)
    assert why in printed and "Traceback" not in printed
    assert f"Admits: {ME} and group {GROUP}" in printed
    folder = path.parent
    assert folder.name.startswith("dbdeck-club-") and top not in folder.parents
    assert (stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid) == (0o750, os.getuid(), os.getgid())
    assert not folder.exists()  # removed once the table closed


def test_the_shared_folders_parents_are_0755_under_any_umask(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    top = tmp_path / "a" / "b" / "tables"
    monkeypatch.setenv("DBDECK_TABLES", str(top))
    old = os.umask(0)
    try:
        assert shared_folder(create=True) == top
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "a").st_mode) == 0o755
    assert stat.S_IMODE(os.stat(tmp_path / "a" / "b").st_mode) == 0o755
    assert stat.S_IMODE(os.stat(top).st_mode) == 0o1777
