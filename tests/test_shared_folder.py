"""The shared tables folder on a box with hostile users.

Other users are played by ``os.chown`` to a uid that has no account (root
may do that), by modes, and by symlinks: no real user is ever made. Every
refusal is one line that says what and why; nothing raises out of a
listing, and ``dbdeck tables`` never shows a traceback.
"""

from __future__ import annotations

import json
import os
import socket
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dbdeck.cli import main
from dbdeck.net import listing as tables
from dbdeck.net.listing import (
    TableEntry,
    UnsafeFolder,
    check_server,
    default_socket,
    list_tables,
    remove_entry,
    shared_folder,
    user_folder,
    user_name,
    write_entry,
)

STRANGER = 4242
"""A uid with no account on the box: "another user"."""

ME = user_name()


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tables, state and runtime folders in the test's own folder."""
    monkeypatch.setenv("DBDECK_TABLES", str(tmp_path / "tables"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))


@pytest.fixture
def top(tmp_path: Path) -> Path:
    """The shared tables folder's path (not made)."""
    return tmp_path / "tables"


@pytest.fixture
def listening(tmp_path: Path) -> Iterator[Path]:
    """A real listening Unix socket, for entries that must look alive."""
    path = tmp_path / "live.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen()
    try:
        yield path
    finally:
        server.close()


def entry(name: str = "club", **fields: Any) -> dict[str, Any]:
    """An entry of a live table of this user (this process's pid)."""
    data: dict[str, Any] = {
        "name": name,
        "socket": "",
        "owner": ME,
        "pid": os.getpid(),
        "group": "",
        "tcp": "",
        "villain": "Freezer",
        "characters": ["Goku"],
        "free_seats": 1,
    }
    data.update(fields)
    return data


def plant(folder: Path, file: str, data: Any, uid: int | None = None) -> Path:
    """Write ``data`` (JSON unless text) as ``folder/file``, owned by ``uid``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    if uid is not None:
        os.chown(path, uid, -1)
    return path


def no_traceback(capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """What ``dbdeck tables`` printed, once sure it printed no traceback."""
    assert main(["tables"]) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return out, err


# --- the shared folder ------------------------------------------------------------------------


def test_a_missing_folder_is_made_sticky_and_the_host_gets_their_own(top: Path) -> None:
    mine = user_folder()
    assert mine == top / ME
    shared, own = top.stat(), mine.stat()
    assert stat.S_IMODE(shared.st_mode) == 0o1777
    assert (stat.S_IMODE(own.st_mode), own.st_uid) == (0o755, os.getuid())


def test_listing_makes_nothing(top: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert list_tables() == []
    out, err = no_traceback(capsys)
    assert "No table to join" in out and not err
    assert not top.exists()


def _symlinked(top: Path) -> str:
    real = top.with_name("elsewhere")
    real.mkdir(mode=0o755)
    real.chmod(0o1777)
    top.symlink_to(real)
    return "is a symlink"


def _open_to_all(top: Path) -> str:
    top.mkdir()
    top.chmod(0o777)  # `mkdir -m 777`: others may remove and replace anything
    return "may be written by other users and has no sticky bit"


def _a_strangers(top: Path) -> str:
    top.mkdir()
    top.chmod(0o1777)
    os.chown(top, STRANGER, -1)  # sticky, but its owner may still rename anything
    return f"belongs to uid {STRANGER}"


@pytest.mark.parametrize("make", [_symlinked, _open_to_all, _a_strangers])
def test_a_hostile_tables_folder_is_refused(
    make: Any, top: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    why = make(top)
    with pytest.raises(UnsafeFolder, match=why) as refused:
        shared_folder()
    message = str(refused.value)
    assert "\n" not in message and "not trusted" in message and str(top) in message

    # The listing says so in a note and lists nothing (a host still hosts,
    # unlisted: tests/test_shared_squatted.py).
    notes: list[str] = []
    assert list_tables(notes=notes) == [] and why in notes[0]
    out, err = no_traceback(capsys)
    assert "No table to join" in out and why in err


def test_a_hosts_folder_made_by_someone_else_is_refused(top: Path) -> None:
    shared_folder(create=True)
    squatted = top / ME
    squatted.mkdir()
    os.chown(squatted, STRANGER, -1)
    with pytest.raises(UnsafeFolder, match=f"belongs to uid {STRANGER}, not to"):
        user_folder()
    with pytest.raises(UnsafeFolder, match="belongs to uid"):
        write_entry(TableEntry(**entry()))

    os.chown(squatted, os.getuid(), -1)
    squatted.chmod(0o777)
    with pytest.raises(UnsafeFolder, match="may be written by other users"):
        default_socket("club", "gamers")


# --- entries ----------------------------------------------------------------------------------


def test_an_entry_is_written_under_a_random_name_never_through_a_symlink(
    top: Path, tmp_path: Path
) -> None:
    victim = tmp_path / "alice-private.json"
    victim.write_text("alice's", encoding="utf-8")
    mine = user_folder()
    # The old predictable temporary name, planted as a symlink.
    (mine / "club.json.tmp").symlink_to(victim)
    path = write_entry(TableEntry(**entry()))
    assert victim.read_text(encoding="utf-8") == "alice's"
    assert json.loads(path.read_text(encoding="utf-8"))["name"] == "club"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # host-only: the host's to see
    assert sorted(p.name for p in mine.iterdir()) == ["club.json", "club.json.tmp"]
    group = write_entry(TableEntry(**entry("gang", group="gamers")))
    assert stat.S_IMODE(group.stat().st_mode) == 0o644  # a group table's members read it


def _a_symlink(mine: Path, tmp_path: Path) -> None:
    target = tmp_path / "target.json"
    target.write_text("{}", encoding="utf-8")
    (mine / "club.json").symlink_to(target)


def _a_strangers_file(mine: Path, tmp_path: Path) -> None:
    plant(mine, "club.json", entry(), uid=STRANGER)


def _a_folder(mine: Path, tmp_path: Path) -> None:
    (mine / "club.json").mkdir()


@pytest.mark.parametrize("squat", [_a_symlink, _a_strangers_file, _a_folder])
def test_a_squatted_entry_name_is_refused(squat: Any, top: Path, tmp_path: Path) -> None:
    mine = user_folder()
    squat(mine, tmp_path)
    expected = f"a file named club.json already exists in {mine} and is not this user's table"
    with pytest.raises(UnsafeFolder, match=expected):
        tables.check_entry_free("club")
    with pytest.raises(UnsafeFolder, match=expected):
        write_entry(TableEntry(**entry()))
    if squat is _a_symlink:
        assert (tmp_path / "target.json").read_text(encoding="utf-8") == "{}"


def test_our_own_stale_entry_is_replaced_but_not_a_live_one(
    top: Path, listening: Path, tmp_path: Path
) -> None:
    mine = user_folder()
    plant(mine, "club.json", entry(pid=2**31 - 2))  # no such process
    assert tables.check_entry_free("club") == mine
    write_entry(TableEntry(**entry()))
    assert json.loads((mine / "club.json").read_text(encoding="utf-8"))["pid"] == os.getpid()

    plant(mine, "club.json", entry(pid=os.getppid(), socket=str(listening)))
    with pytest.raises(UnsafeFolder, match=f"already served here by process {os.getppid()}"):
        tables.check_entry_free("club")
    remove_entry("club")  # not this process's table: left alone
    assert (mine / "club.json").exists()
    plant(mine, "club.json", entry())
    remove_entry("club")
    assert not (mine / "club.json").exists()


def test_a_table_name_cannot_leave_the_folder() -> None:
    for bad in ("../club", ".hidden", "a/b", "", "x" * 81):
        with pytest.raises(UnsafeFolder, match="cannot name a table"):
            tables.check_entry_free(bad)


# --- the listing ----------------------------------------------------------------------------


def _loop(tmp_path: Path) -> str:
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    return str(loop / "x.sock")


BOGUS: list[tuple[str, Any, str]] = [
    ("socket-a-number", {"socket": 5}, "'socket' that is not text"),
    ("pid-as-text", {"pid": "1"}, "'pid' that is not a number"),
    ("pid-zero", {"pid": 0}, "'pid' that is not a process"),
    ("pid-huge", {"pid": 10**30}, "'pid' out of range"),
    ("pid-bool", {"pid": True}, "'pid' that is not a number"),
    ("no-owner", {"owner": None}, "'owner' that is not text"),
    ("no-pid", {"pid": None}, "'pid' that is not a number"),
    ("free-seats-as-text", {"free_seats": "2"}, "'free_seats' that is not a number"),
    ("free-seats-huge", {"free_seats": 10**6}, "'free_seats' out of range"),
    ("characters-as-text", {"characters": "Goku"}, "'characters' that are not a list"),
    ("characters-a-dict", {"characters": {"a": 1}}, "'characters' that are not a list"),
    ("too-many-characters", {"characters": ["Goku"] * 17}, "more than 16 'characters'"),
    ("villain-a-list", {"villain": ["Freezer"]}, "'villain' that is not text"),
    ("group-a-number", {"group": 7}, "'group' that is not text"),
    ("tcp-a-bool", {"tcp": True}, "'tcp' that is not text"),
    ("characters", {"characters": [1, 2]}, "a name in 'characters' that is not text"),
    ("relative-socket", {"socket": "club.sock"}, "not an absolute path"),
    ("null-in-socket", {"socket": "/tmp/a\x00b"}, "'socket' holding U+0000"),
    ("long-socket", {"socket": "/" + "a" * 5000}, "'socket' longer than 108 characters"),
    ("looping-socket", "loop", "socket cannot be reached"),
    ("not-a-socket", {"socket": "/etc/hostname"}, "is not a socket"),
    ("another-host", {"owner": "alice"}, "names 'alice' as host"),
    ("another-name", {"name": "other"}, "names the table 'other'"),
]


@pytest.mark.parametrize(("label", "change", "note"), BOGUS, ids=[b[0] for b in BOGUS])
def test_a_bogus_entry_is_skipped_with_a_note(
    label: str,
    change: Any,
    note: str,
    top: Path,
    tmp_path: Path,
    listening: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    mine = user_folder()
    write_entry(TableEntry(**entry("good", socket=str(listening))))
    fields = {"socket": _loop(tmp_path)} if change == "loop" else change
    data = entry("bad", socket=str(listening))
    data.update(fields)
    plant(mine, "bad.json", data)

    notes: list[str] = []
    assert [t.name for t in list_tables(notes=notes)] == ["good"]
    assert len(notes) == 1 and note in notes[0] and "\n" not in notes[0]
    out, err = no_traceback(capsys)
    assert "good: Freezer vs Goku" in out and "bad" not in out
    assert err.startswith("note: ") and note in err


def test_entries_that_are_not_files_of_their_host_are_skipped(
    top: Path, tmp_path: Path, listening: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = user_folder()
    good = entry(socket=str(listening))
    plant(mine, "forged.json", {**good, "name": "forged"}, uid=STRANGER)
    plant(mine, "junk.json", "not json {")
    plant(mine, "list.json", "[1, 2]")
    plant(mine, "big.json", " " * (tables.MAX_ENTRY + 10))
    (mine / "linked.json").symlink_to(mine / "junk.json")
    os.mkfifo(mine / "pipe.json")  # would block a plain open()
    plant(top, "fake.json", {**good, "name": "fake"})  # no host's folder
    # A stranger's folder named after this host: a fake "host root" table.
    os.chown(plant(top / "impostor", "club.json", good, uid=STRANGER).parent, STRANGER, -1)
    (top / ME / "club.json").unlink(missing_ok=True)

    notes: list[str] = []
    assert list_tables(notes=notes) == []
    said = "\n".join(notes)
    assert f"forged.json belongs to uid {STRANGER}, not to {ME}" in said
    for expected in (
        "junk.json is not JSON",
        "list.json is not a JSON object",
        "big.json is too large",
        "linked.json is a symlink",
        "pipe.json is not a regular file",
        "fake.json is not a folder, not a host's folder",
        "impostor is named after no user",
    ):
        assert expected in said
    no_traceback(capsys)


def test_a_strangers_folder_named_after_the_host_is_not_the_hosts(
    top: Path, listening: Path
) -> None:
    shared_folder(create=True)
    forged = top / ME
    plant(forged, "club.json", entry(socket=str(listening)), uid=STRANGER)
    os.chown(forged, STRANGER, -1)
    notes: list[str] = []
    assert list_tables(notes=notes) == []
    assert notes == [
        f"{forged} belongs to uid {STRANGER}, not to uid 0 (root): its tables are skipped"
    ]


def test_stale_entries_are_skipped_without_a_word(top: Path, tmp_path: Path) -> None:
    mine = user_folder()
    plant(mine, "gone.json", entry("gone", socket=str(tmp_path / "gone.sock")))
    plant(mine, "dead.json", entry("dead", pid=2**31 - 2))
    notes: list[str] = []
    assert list_tables(notes=notes) == [] and notes == []


def test_a_table_of_another_group_is_not_listed(top: Path, listening: Path) -> None:
    write_entry(TableEntry(**entry(socket=str(listening))))
    assert [t.name for t in list_tables()] == ["club"]
    assert list_tables(user="someone-else") == []


# --- the owner of the server -----------------------------------------------------------------


def test_the_server_must_be_the_hosts() -> None:
    sock = "/tmp/dbdeck-tables/alice/club.sock"
    assert check_server(sock, "alice", 1000, 1000) == ""
    refused = check_server(sock, "alice", 1000, STRANGER)
    assert refused == (
        f"the socket {sock} is served by uid {STRANGER}, not by alice: not sending your seat token"
    )
    assert "not sending your seat token" in check_server(sock, "alice", 1000, None)


# --- the runtime folder ----------------------------------------------------------------------


def test_the_runtime_folder_holds_a_host_only_socket(tmp_path: Path) -> None:
    notes: list[str] = []
    path = default_socket("club", "", notes)
    assert path == tmp_path / "run" / "dbdeck" / "club.sock" and notes == []
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def _run_a_strangers(run: Path) -> str:
    os.chown(run, STRANGER, -1)
    return f"belongs to uid {STRANGER}"


def _run_symlinked(run: Path) -> str:
    run.rmdir()
    real = run.with_name("real-run")
    real.mkdir(mode=0o700)
    run.symlink_to(real)
    return "is a symlink"


def _run_open_to_the_group(run: Path) -> str:
    run.chmod(0o750)
    return "may be read by other users"


def _app_folder_a_strangers(run: Path) -> str:
    (run / "dbdeck").mkdir(mode=0o700)
    os.chown(run / "dbdeck", STRANGER, -1)
    return f"dbdeck belongs to uid {STRANGER}"


@pytest.mark.parametrize(
    "make", [_run_a_strangers, _run_symlinked, _run_open_to_the_group, _app_folder_a_strangers]
)
def test_a_runtime_folder_that_is_not_ours_is_not_used(
    make: Any, tmp_path: Path, top: Path
) -> None:
    why = make(tmp_path / "run")
    notes: list[str] = []
    path = default_socket("club", "", notes)
    assert path == top / ME / "run" / "club.sock"
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert len(notes) == 1 and why in notes[0] and "not used" in notes[0]
    # The same place again, for a resumed table.
    assert default_socket("club", "") == path
    tables.prepare_socket_folder(path)


def test_with_nothing_to_trust_the_socket_goes_to_a_fresh_private_folder(
    tmp_path: Path, top: Path
) -> None:
    _run_a_strangers(tmp_path / "run")
    _open_to_all(top)
    notes: list[str] = []
    path = default_socket("club", "", notes)
    st = path.parent.stat()
    assert (stat.S_IMODE(st.st_mode), st.st_uid) == (0o700, os.getuid())
    assert path.parent.name.startswith("dbdeck-run-")
    assert any("fresh folder" in n for n in notes) and any("not used" in n for n in notes)
    path.parent.rmdir()


def test_no_runtime_folder_at_all_is_no_error(monkeypatch: pytest.MonkeyPatch, top: Path) -> None:
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    monkeypatch.setattr(tables, "_runtime_base", lambda: None)
    notes: list[str] = []
    assert default_socket("club", "", notes) == top / ME / "run" / "club.sock"
    assert notes == []


# --- the table's socket ------------------------------------------------------------------------


@pytest.mark.parametrize(("group", "mode"), [("", 0o600), ("root", 0o660)])
async def test_the_socket_is_made_with_its_mode_and_group(
    catalog: Any, tmp_path: Path, group: str, mode: int
) -> None:
    """Host-only: the host alone may connect; a group table: the group too.
    The mode comes from the umask at bind, and no chmod follows it."""
    from table_clients import Users, start

    chmods: list[Any] = []
    real_chmod = os.chmod

    def watched(*args: Any, **kwargs: Any) -> None:
        chmods.append(args)
        real_chmod(*args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "chmod", watched)
        patch.setattr(Path, "chmod", lambda self, *a, **k: watched(self, *a, **k))
        server = await start(catalog, tmp_path, Users(), group=group)
    try:
        assert server.socket_path is not None
        info = os.lstat(server.socket_path)
        assert stat.S_ISSOCK(info.st_mode)
        assert stat.S_IMODE(info.st_mode) == mode
        assert info.st_gid == 0
        assert not [c for c in chmods if str(c[0]) == str(server.socket_path)]
    finally:
        await server.close()


def test_a_host_is_told_when_others_will_not_trust_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A user who made the shared folder themselves (no admin made it) hears
    that other users will not trust it, and how to fix that."""
    folder = tables.tables_dir()
    folder.mkdir(mode=0o700, exist_ok=True)
    os.chown(folder, 4242, 4242)
    monkeypatch.setattr(os, "getuid", lambda: 4242)
    why = tables.untrusted_by_others()
    assert why is not None and "other users will not trust it" in why
    assert "sudo install -d -m 1777" in why
    os.chown(folder, 0, 0)
    assert tables.untrusted_by_others() is None
