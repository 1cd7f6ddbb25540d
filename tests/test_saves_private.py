"""Saves on a shared box: private files, no write through a planted symlink,
and a full disk that loses nothing and claims nothing.

Modes are checked under a umask of 0, so that 0600 and 0700 come from how
each file and folder is created, not from the caller's umask.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import random
import re
import shutil
import stat
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dbdeck import saves
from dbdeck.games.deckbuilding.bots import greedy
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.actions import PlayEnergy
from dbdeck.games.deckbuilding.engine.game import Setup
from dbdeck.games.deckbuilding.match import DeckbuildingMatch, DeckbuildingRules
from dbdeck.games.deckbuilding.tui.app import DbdeckApp
from dbdeck.games.deckbuilding.tui.play import Seating, TableScreen
from dbdeck.saves import SaveError, SaveFailed, Session, read_save, write_private

DISK_FULL = "the disk is full: the last action was not applied; free space and retry"


def setup(seed: int = 3, characters: tuple[str, ...] = ("goku", "krillin")) -> Setup:
    return Setup(characters=list(characters), villain="freezer", seed=seed)


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def play(session: Session[DeckbuildingMatch], count: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        session.apply(greedy(session.match.game, rng))


def snapshot_of(folder: Path) -> dict[str, bytes]:
    """Every file of ``folder`` (but the lock) and its bytes."""
    return {
        p.name: p.read_bytes()
        for p in sorted(folder.iterdir())
        if p.is_file() and not p.name.endswith(".lock")
    }


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.fixture
def open_umask() -> Iterator[None]:
    """A umask that masks nothing: any private mode seen was asked for."""
    old = os.umask(0)
    try:
        yield
    finally:
        os.umask(old)


@pytest.fixture
def no_chmod(monkeypatch: pytest.MonkeyPatch) -> None:
    """Modes are set at creation, never by a chmod afterwards (which would
    leave a moment where another user could open the file)."""

    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("chmod after creation")

    for name in ("chmod", "fchmod", "lchmod"):
        if hasattr(os, name):
            monkeypatch.setattr(os, name, refuse)
    monkeypatch.setattr(Path, "chmod", refuse)


def disk_full_after(monkeypatch: pytest.MonkeyPatch, written: int = 100) -> Callable[[], None]:
    """Make the saves' low-level writer fail with ENOSPC after ``written``
    bytes of each file (a torn temporary file); returns the undo."""
    real = saves.files._write_fd

    def torn(fd: int, data: bytes) -> None:
        if written:
            os.write(fd, data[:written])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    # Where it is looked up: ``_private_temp`` and ``write_crash_report`` use
    # the name in ``dbdeck.saves.files``.
    monkeypatch.setattr(saves.files, "_write_fd", torn)
    return lambda: monkeypatch.setattr(saves.files, "_write_fd", real)


# --- private by default ----------------------------------------------------------------


def test_saves_backups_locks_and_reports_are_private(
    catalog: Catalog, tmp_path: Path, open_umask: None, no_chmod: None
) -> None:
    folder = tmp_path / "state" / "dbdeck" / "saves"  # none of them exists yet
    session = Session.start(DeckbuildingRules(catalog), setup(), folder)
    play(session, 2)
    for made in (tmp_path / "state", tmp_path / "state" / "dbdeck", folder):
        assert mode(made) == 0o700, made
    for end in (".json", ".bak", ".lock"):
        assert mode(folder / f"{session.id}{end}") == 0o600, end
    report = session.crash_report(RuntimeError("a bug"))
    assert report.parent == folder and mode(report) == 0o600
    again = session.crash_report(RuntimeError("the same microsecond, maybe"))
    assert again != report and mode(again) == 0o600
    assert temporaries(folder) == []
    session.close()


def test_write_private_is_atomic_and_private(
    tmp_path: Path, open_umask: None, no_chmod: None
) -> None:
    target = tmp_path / "tables" / "run" / "game.table"
    write_private(target, "one")
    assert target.read_text() == "one" and mode(target) == 0o600
    assert mode(target.parent) == 0o700 and mode(target.parent.parent) == 0o700
    write_private(target, "two ✓")
    assert target.read_text(encoding="utf-8") == "two ✓" and mode(target) == 0o600
    assert temporaries(target.parent) == []


def test_an_existing_folder_keeps_its_mode(catalog: Catalog, tmp_path: Path) -> None:
    os.chmod(tmp_path, 0o755)  # the test sets it; dbdeck must not change it
    session = Session.start(DeckbuildingRules(catalog), setup(), tmp_path)
    assert mode(tmp_path) == 0o755 and mode(tmp_path / f"{session.id}.json") == 0o600
    session.close()


def test_temporary_files_get_random_names_created_exclusively(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = Session.start(DeckbuildingRules(catalog), setup(), tmp_path)
    opened: list[tuple[str, int]] = []
    real_open = os.open

    def spy(path: str | os.PathLike[str], flags: int, *args: int, **kw: int) -> int:
        opened.append((os.path.basename(os.fspath(path)), flags))
        return real_open(path, flags, *args, **kw)

    monkeypatch.setattr(os, "open", spy)
    play(session, 2)
    made = [(name, flags) for name, flags in opened if flags & os.O_CREAT]
    temps = [name for name, _ in made if name.endswith(".tmp")]
    assert len(temps) == 2 and len(set(temps)) == 2
    pattern = re.compile(re.escape(f".{session.id}.json.") + r"[0-9a-f]{16}\.tmp")
    assert all(pattern.fullmatch(name) for name in temps), temps
    for name, flags in made:
        if name.endswith(".tmp"):
            assert flags & os.O_EXCL and flags & os.O_NOFOLLOW, name
    session.close()


def test_a_planted_symlink_is_never_written_through(catalog: Catalog, tmp_path: Path) -> None:
    folder = tmp_path / "saves"
    session = Session.start(DeckbuildingRules(catalog), setup(), folder)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    elsewhere = tmp_path / "not-there-yet.txt"
    # The old predictable temporary name, the backup, and a crash report's name.
    (folder / f".{session.id}.json.tmp").symlink_to(victim)
    (folder / f"{session.id}.bak").symlink_to(elsewhere)
    play(session, 2)
    assert victim.read_text() == "precious" and not elsewhere.exists()
    assert not (folder / f"{session.id}.bak").is_symlink()  # replaced, not followed
    assert len(read_save(folder, session.id)["actions"]) == 2
    # write_private replaces a symlink at its target instead of following it.
    link = folder / "game.table"
    link.symlink_to(victim)
    write_private(link, "table")
    assert victim.read_text() == "precious" and link.read_text() == "table"
    assert not link.is_symlink()
    session.close()


def test_a_symlinked_lock_file_is_refused(catalog: Catalog, tmp_path: Path) -> None:
    session = Session.start(DeckbuildingRules(catalog), setup(), tmp_path)
    session.close()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    lock = tmp_path / f"{session.id}.lock"
    lock.unlink()
    lock.symlink_to(victim)
    with pytest.raises(SaveError, match="cannot be locked"):
        Session.resume(DeckbuildingRules(catalog), tmp_path, session.id)
    assert victim.read_text() == "precious"


# --- a full disk loses nothing and claims nothing ------------------------------------------


def test_a_full_disk_leaves_game_actions_and_files_as_they_were(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = Session.start(DeckbuildingRules(catalog), setup(), tmp_path)
    play(session, 3)
    before = (session.match.game.fingerprint(), list(session.actions), session.undo_floor)
    floor = (session.floor_snapshot, session.floor_reason)
    on_disk = snapshot_of(tmp_path)
    action = greedy(session.match.game, random.Random(9))
    healed = disk_full_after(monkeypatch)
    with pytest.raises(SaveFailed) as failed:
        session.apply(action)
    assert str(failed.value) == DISK_FULL and failed.value.errno == errno.ENOSPC
    assert (session.match.game.fingerprint(), session.actions, session.undo_floor) == before
    assert (session.floor_snapshot, session.floor_reason) == floor
    assert snapshot_of(tmp_path) == on_disk and temporaries(tmp_path) == []
    assert not list(tmp_path.glob("crash-*"))
    healed()
    session.apply(action)  # the disk works again: the same action applies
    assert len(session.actions) == 4
    assert read_save(tmp_path, session.id)["actions"] == session.actions
    session.close()


def test_undo_and_the_villains_step_commit_only_once_saved(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = Session.start(DeckbuildingRules(catalog), setup(characters=("goku",)), tmp_path)
    goku = session.match.game.state.character("goku")
    energy = next(u for u in goku.hand if session.match.game.state.card_ids[u] == "energy")
    session.apply(PlayEnergy(card=energy))
    assert session.undoable() == 1
    before = session.match.game.fingerprint()
    healed = disk_full_after(monkeypatch)
    with pytest.raises(SaveFailed, match="the disk is full: the undo was not applied"):
        session.undo()
    assert session.match.game.fingerprint() == before and len(session.actions) == 1
    healed()
    assert session.undo() and session.actions == []

    # Step mode: play on until the Villain pauses between two steps.
    session.match.game.step_mode = True
    rng = random.Random(1)
    for _ in range(300):
        if session.match.game.state.paused:
            break
        session.apply(greedy(session.match.game, rng))
    assert session.match.game.state.paused
    paused = session.match.game.fingerprint()
    on_disk = snapshot_of(tmp_path)
    healed = disk_full_after(monkeypatch)
    with pytest.raises(SaveFailed, match="the Villain's step was not applied"):
        session.resume_villain()
    assert session.match.game.fingerprint() == paused and snapshot_of(tmp_path) == on_disk
    healed()
    session.resume_villain()
    assert session.match.game.fingerprint() != paused
    # Saved mid-turn, it reopens at the very same step.
    assert session.match.game.state.paused
    session.close()
    again = Session.resume(DeckbuildingRules(catalog), tmp_path, session.id)
    assert again.match.game.state.paused
    assert again.match.game.fingerprint() == session.match.game.fingerprint()
    again.close()


def test_other_write_failures_say_why(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = Session.start(DeckbuildingRules(catalog), setup(), tmp_path)
    on_disk = snapshot_of(tmp_path)
    real_replace = os.replace

    def broken(src: object, dst: object) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(SaveFailed) as failed:
        session.apply(greedy(session.match.game, random.Random(1)))
    assert str(failed.value) == (
        f"the game could not be saved ({os.strerror(errno.EIO)}): the last action was not applied"
    )
    assert session.actions == [] and snapshot_of(tmp_path) == on_disk
    assert temporaries(tmp_path) == []
    monkeypatch.setattr(os, "replace", real_replace)
    session.close()


def test_a_new_game_that_cannot_be_saved_is_not_claimed(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    disk_full_after(monkeypatch, written=0)
    with pytest.raises(SaveFailed, match="the disk is full: the game was not started"):
        Session.start(DeckbuildingRules(catalog), setup(), tmp_path)
    assert list(tmp_path.iterdir()) == []  # no save, no lock, no temporary file


def test_write_private_fails_cleanly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "game.table"
    write_private(target, "before")
    disk_full_after(monkeypatch, written=2)
    with pytest.raises(SaveFailed, match=r"^the disk is full: "):
        write_private(target, "after, and longer")
    assert target.read_text() == "before" and temporaries(tmp_path) == []


async def test_the_table_says_the_disk_is_full_and_stays_open(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = Session.start(
        DeckbuildingRules(catalog), setup(characters=("goku",), seed=5), tmp_path
    )
    app = DbdeckApp(catalog, session=session, seating=Seating(pace=0), saves=tmp_path)
    path = tmp_path / f"{session.id}.json"
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen)
        energy = next(o.action for o in table.offers if o.action.type == "play-energy")
        healed = disk_full_after(monkeypatch)
        table.play(energy)
        await pilot.pause()
        messages = [n.message for n in app._notifications]
        assert any(DISK_FULL in m for m in messages), messages
        assert not any("saved after" in m for m in messages)
        assert id(app.screen) == id(table) and app.return_code is None  # still at the table
        assert table.view.character("goku").energy == 0  # type: ignore[union-attr]
        assert json.loads(path.read_text())["actions"] == []
        assert not list(tmp_path.glob("crash-*")) and temporaries(tmp_path) == []
        # Undo on a full disk says so too (nothing to undo here, though).
        healed()
        table.play(energy)  # the player retries once there is room
        await pilot.pause()
        assert table.view.character("goku").energy == 1  # type: ignore[union-attr]
        assert len(json.loads(path.read_text())["actions"]) == 1
        disk_full_after(monkeypatch)
        await pilot.press("u")
        await pilot.pause()
        assert any("the undo was not applied" in n.message for n in app._notifications)
        assert table.view.character("goku").energy == 1  # type: ignore[union-attr]
    session.close()


# --- a real full disk --------------------------------------------------------------------


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 512 KiB tmpfs, when this machine lets the tests mount one."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    if shutil.which("mount") is None:
        pytest.skip("no mount command: cannot make a real full disk")
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=512k,mode=0700", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
        check=False,
    )
    if made.returncode != 0:
        pytest.skip(f"mounting a tmpfs is not permitted here ({made.stderr.strip()})")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(folder: Path) -> Path:
    """Fill the disk of ``folder`` to the last byte."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as out:
        for size in (65536, 4096, 512, 1):
            with contextlib.suppress(OSError):
                while True:
                    out.write(b"\0" * size)
    return filler


def test_a_real_full_disk(catalog: Catalog, tiny_disk: Path) -> None:
    session = Session.start(DeckbuildingRules(catalog), setup(), tiny_disk)
    play(session, 2)
    filler = fill(tiny_disk)
    before = (session.match.game.fingerprint(), list(session.actions))
    on_disk = {n: b for n, b in snapshot_of(tiny_disk).items() if n != "filler"}
    action = greedy(session.match.game, random.Random(4))
    with pytest.raises(SaveFailed, match=r"^the disk is full: the last action was not applied"):
        session.apply(action)
    assert (session.match.game.fingerprint(), session.actions) == before
    assert {n: b for n, b in snapshot_of(tiny_disk).items() if n != "filler"} == on_disk
    assert temporaries(tiny_disk) == []
    filler.unlink()
    session.apply(action)
    assert len(read_save(tiny_disk, session.id)["actions"]) == 3
    session.close()


def test_temporary_files_of_a_killed_process_are_swept(catalog: Catalog, tmp_path: Path) -> None:
    session = Session.start(DeckbuildingRules(catalog), setup(), tmp_path)
    session.close()
    stale = [
        tmp_path / f".{session.id}.json.0123456789abcdef.tmp",
        tmp_path / f".{session.id}.bak.0123456789abcdef.tmp",
    ]
    for path in stale:
        path.write_text("torn")
    other = tmp_path / ".another-game.json.0123456789abcdef.tmp"
    other.write_text("not this game's")
    again = Session.resume(DeckbuildingRules(catalog), tmp_path, session.id)
    assert not any(p.exists() for p in stale) and other.exists()
    again.close()


def test_without_hard_links_a_kill_between_renames_loses_nothing(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where hard links are refused, the save is renamed to the backup first:
    killed right then, the complete temporary file is the save."""

    def no_links(*_: object, **__: object) -> None:
        raise OSError(errno.EPERM, os.strerror(errno.EPERM))

    monkeypatch.setattr(os, "link", no_links)
    session = Session.start(DeckbuildingRules(catalog), setup(), tmp_path)
    play(session, 2)
    assert len(read_save(tmp_path, session.id)["actions"]) == 2
    assert len(json.loads((tmp_path / f"{session.id}.bak").read_text())["actions"]) == 1
    # The moment between the two renames: the save is gone, its successor waits.
    path = tmp_path / f"{session.id}.json"
    pending = tmp_path / f".{session.id}.json.00112233445566ff.tmp"
    os.replace(path, pending)
    session.close()
    resumed = Session.resume(DeckbuildingRules(catalog), tmp_path, session.id)
    assert len(resumed.actions) == 2 and path.exists() and not pending.exists()
    resumed.close()
