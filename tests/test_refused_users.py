"""A user the table does not admit is told why, and a host whose saves
folder cannot be written is told where else to save.

The tests run as one OS user: "carol" is a name with no account (so in no
group), and the table's entry is written as this user, as the host's own
dbdeck would write it.
"""

from __future__ import annotations

import errno
import grp
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from dbdeck.cli import main
from dbdeck.games.deckbuilding.match import DeckbuildingMatch
from dbdeck.net import commands
from dbdeck.net import listing as tables
from dbdeck.net.listing import (
    TableEntry,
    list_tables,
    refusal,
    refused_tables,
    socket_refusal,
    user_name,
    write_entry,
)
from dbdeck.saves import SaveFailed, Session

STRANGER = 4242
"""A uid with no account on the box: "another user"."""


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DBDECK_TABLES", str(tmp_path / "tables"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("DBDECK_SAVES", str(tmp_path / "saves"))
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))


@pytest.fixture
def club(tmp_path: Path) -> Iterator[TableEntry]:
    """This user's running table ``club`` for group ``gamers``, its socket
    listening."""
    path = tmp_path / "club.sock"
    listening = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listening.bind(str(path))
    listening.listen(1)
    entry = TableEntry("club", str(path), user_name(), os.getpid(), group="gamers")
    write_entry(entry)
    try:
        yield entry
    finally:
        listening.close()


def test_the_refusal_names_the_host_and_the_group() -> None:
    entry = TableEntry("club", "/s", "alice", 1, group="gamers")
    assert refusal(entry) == "club is alice's table for group gamers; you are not in gamers"
    assert refusal(TableEntry("club", "/s", "alice", 1)) == "club is alice's table, for alice only"


def test_a_refusal_never_prints_what_an_entry_smuggles() -> None:
    hostile = TableEntry(
        "club\x1b[2J", "/s", "alice", 1, group="g\x1b]0;owned\x07\u202e" + "x" * 500
    )
    said = refusal(hostile)
    assert said.isprintable()
    assert "\x1b" not in said and "\u202e" not in said
    assert "\\x1b" in said
    assert len(said) < 200


def test_tables_tells_a_user_outside_the_group_why(
    club: TableEntry, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(tables, "user_name", lambda uid=None: "carol")
    assert list_tables() == []
    assert [t.name for t in refused_tables()] == ["club"]
    assert main(["tables"]) == 0
    out = capsys.readouterr().out
    assert "No table to join on this box" in out
    assert f"club is {club.owner}'s table for group gamers; you are not in gamers" in out


def test_the_host_sees_no_refusal(club: TableEntry, capsys: pytest.CaptureFixture[str]) -> None:
    assert refused_tables() == []
    assert main(["tables"]) == 0
    assert "Not for you" not in capsys.readouterr().out


def test_join_by_name_tells_a_user_outside_the_group_why(
    club: TableEntry, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(tables, "user_name", lambda uid=None: "carol")
    assert main(["join", "--table", "club"]) == 2
    err = capsys.readouterr().err
    assert f"club is {club.owner}'s table for group gamers; you are not in gamers" in err
    # A name that no table has is still "no table named".
    assert "no table named 'other'" in str(commands._choose([], "other", refused_tables()))


def test_join_by_socket_tells_a_user_outside_the_group_why(tmp_path: Path) -> None:
    """The socket's own owner, group and mode say whose table it is."""
    path = tmp_path / "club.sock"
    listening = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listening.bind(str(path))
    try:
        os.chmod(path, 0o660)
        group = grp.getgrgid(os.stat(path).st_gid).gr_name
        owner = user_name()
        said = socket_refusal(path, user="carol", uid=STRANGER)
        assert said == f"{path} is {owner}'s table for group {group}; you are not in {group}"
        os.chmod(path, 0o600)
        assert socket_refusal(path, user="carol", uid=STRANGER) == (
            f"{path} is {owner}'s table, for {owner} only"
        )
        # Its owner, and anyone when it is open to all, may connect.
        assert socket_refusal(path, user=owner, uid=os.stat(path).st_uid) == ""
        os.chmod(path, 0o666)
        assert socket_refusal(path, user="carol", uid=STRANGER) == ""
    finally:
        listening.close()


def test_a_socket_in_a_closed_folder_is_said_to_be_anothers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def closed(path: object) -> os.stat_result:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr("dbdeck.net.listing.os.stat", closed)
    said = socket_refusal(tmp_path / "club.sock", user="carol", uid=STRANGER)
    assert "its folder is another user's, closed to you" in said


def test_an_unwritable_saves_folder_names_the_way_out(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def refused(self: Session[DeckbuildingMatch]) -> None:
        raise SaveFailed(f"{self.folder}/x.lock: cannot be locked (Permission denied)", code=13)

    monkeypatch.setattr(Session[DeckbuildingMatch], "lock", refused)
    args = ["host", "--villain", "freezer", "--characters", "goku,krillin", "--name", "club"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "cannot host this game" in err
    assert "--saves DIR or DBDECK_SAVES=DIR" in err
    assert str(tmp_path / "saves") in err


def test_a_full_disk_is_not_blamed_on_the_folder() -> None:
    full = SaveFailed("the disk is full", code=errno.ENOSPC)
    assert commands._saves_hint(full, Path("/x")) == ""
