"""``dbdeck host … --ssh [ADDRESS:]PORT --authorized-keys FILE``: what the
command line refuses before anything starts, and the real command serving
a player through its door until Ctrl+C closes the table and its apps.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

import asyncssh
import pytest
from door_clients import gone, keys_line, until, write_keys
from table_clients import READ_TIMEOUT

from dbdeck.cli import main


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for kind in ("STATE", "DATA", "CONFIG"):
        monkeypatch.setenv(f"XDG_{kind}_HOME", str(tmp_path / kind.lower()))
    monkeypatch.setenv("DBDECK_TABLES", str(tmp_path / "tables"))


def _children(parent: int) -> list[int]:
    """The processes whose parent is ``parent``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text(encoding="ascii").rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == parent:
            found.append(int(stat.parent.name))
    return found


HOST = ["host", "--villain", "freezer", "--characters", "goku,krillin", "--name", "club"]


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--ssh", "2222"], "--ssh needs the players' keys: give --authorized-keys FILE"),
        (["--authorized-keys", "KEYS"], "give --ssh [ADDRESS:]PORT too"),
        (["--ssh", "host:port", "--authorized-keys", "KEYS"], "--ssh: expected [ADDRESS:]PORT"),
        (["--ssh", "0", "--authorized-keys", "OPEN"], "others may write it"),
        (["--ssh", "0", "--authorized-keys", "BAD"], "BAD, line 1: name the player"),
    ],
)
def test_the_door_is_refused_before_anything_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], said: str
) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    files = {
        "KEYS": write_keys(tmp_path / "keys", [keys_line(key, "ann")]),
        "OPEN": write_keys(tmp_path / "open", [keys_line(key, "ann")]),
        "BAD": write_keys(tmp_path / "bad", [keys_line(key, "")]),
    }
    files["OPEN"].chmod(0o666)
    argv = [str(files.get(arg, arg)) for arg in extra]
    saves = tmp_path / "saves"
    assert main(["--saves", str(saves), *HOST, *argv]) == 2
    assert said.replace("BAD", str(files["BAD"])) in capsys.readouterr().err
    assert not list(saves.glob("*.json")) if saves.exists() else True  # no game was started


async def test_the_host_serves_a_player_through_its_door_until_ctrl_c(tmp_path: Path) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    keys = write_keys(tmp_path / "keys", [keys_line(key, "ann")])
    host = await _start_host(
        tmp_path, *HOST, "--ssh", "127.0.0.1:0", "--authorized-keys", str(keys)
    )
    assert host.stdout is not None
    printed = ""
    try:
        printed = await _until_serving(host)
        door = re.search(
            r"SSH door on 127\.0\.0\.1:(\d+): host key (SHA256:\S+) \(made now\)", printed
        )
        assert door is not None, printed
        port, fingerprint = int(door.group(1)), door.group(2)
        assert f"Players: ssh -t -p {port} 127.0.0.1   (ann)" in printed
        assert f"Watch:   ssh -t -p {port} watch@127.0.0.1" in printed

        async with asyncssh.connect(
            "127.0.0.1", port, username="ann", client_keys=[key], known_hosts=None, agent_path=None
        ) as conn:
            assert conn.get_server_host_key().get_fingerprint() == fingerprint  # type: ignore[union-attr]
            process = await conn.create_process(
                term_type="xterm", term_size=(100, 30), encoding=None
            )
            seen = b""
            while b"Goku" not in seen:
                seen += await asyncio.wait_for(process.stdout.read(65536), READ_TIMEOUT)
            while "ssh:ann joined seat 0 (Goku)" not in printed:
                line = await asyncio.wait_for(host.stdout.readline(), READ_TIMEOUT)
                assert line, printed
                printed += line.decode()
            pids = _children(host.pid)
            assert len(pids) == 1, pids
            host.send_signal(signal.SIGINT)
            rest, _ = await asyncio.wait_for(host.communicate(), READ_TIMEOUT)
            printed += rest.decode()
            await asyncio.wait_for(process.wait(), READ_TIMEOUT)
        await until(lambda: gone(pids[0]), "the player's app to end")
        assert host.returncode == 0, printed
        assert "The table is closed; the game is saved" in printed
    finally:
        if host.returncode is None:
            host.kill()
            await host.wait()


async def _start_host(tmp_path: Path, *args: str) -> asyncio.subprocess.Process:
    """``dbdeck --saves SAVES ARGS`` started, its output piped."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "dbdeck",
        "--saves",
        str(tmp_path / "saves"),
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        cwd=tmp_path,
        env=dict(os.environ),
    )


async def _until_serving(host: asyncio.subprocess.Process) -> str:
    """What the host printed until it said how to stop it (it serves)."""
    assert host.stdout is not None
    printed = ""
    while "Ctrl+C" not in printed:
        line = await asyncio.wait_for(host.stdout.readline(), READ_TIMEOUT)
        assert line, printed
        printed += line.decode()
    return printed


async def _host_until_serving(tmp_path: Path, *args: str) -> str:
    """Run ``dbdeck host ARGS`` until it serves, then Ctrl+C; what it printed."""
    host = await _start_host(tmp_path, "host", *args)
    assert host.stdout is not None
    printed = ""
    try:
        printed = await _until_serving(host)
        host.send_signal(signal.SIGINT)
        rest, _ = await asyncio.wait_for(host.communicate(), READ_TIMEOUT)
        printed += rest.decode()
    finally:
        if host.returncode is None:
            host.kill()
            await host.wait()
    assert host.returncode == 0, printed
    return printed


async def test_a_resumed_table_opens_its_door_again(tmp_path: Path) -> None:
    """``dbdeck host --resume ID`` alone opens the SSH door the table had:
    the same port (the one ``:0`` picked), the same keys, the same host key."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    keys = write_keys(tmp_path / "keys", [keys_line(key, "ann")])
    first = await _host_until_serving(
        tmp_path, *HOST[1:], "--ssh", "127.0.0.1:0", "--authorized-keys", str(keys)
    )
    door = re.search(r"SSH door on (127\.0\.0\.1:\d+): host key (SHA256:\S+)", first)
    assert door is not None, first
    save_id = first.rsplit("dbdeck host --resume ", 1)[1].split()[0]
    again = await _host_until_serving(tmp_path, "--resume", save_id)
    assert f"SSH door on {door.group(1)}: host key {door.group(2)}\n" in again, again
    assert f"the keys of {keys} at the SSH door" in again
