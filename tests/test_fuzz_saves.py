"""Fuzzing the save readers: whatever a save file holds, every reader gives
a save that replays or one line naming the file, never a traceback or a hang.

Hypothesis writes save files (random JSON shapes, mutations of a real save:
wrong types, missing keys, huge numbers, deep nesting, odd text, non-UTF-8
bytes, truncations) and runs each reader on them: ``read_save``,
``Session.resume`` and the command line in-process (``play --resume``,
``continue``, ``saves``, ``log``, ``replay``). Files that are not regular
files (a FIFO, a symlink to ``/dev/zero``, a device, a folder) and files
over the size cap are refused too. ``DBDECK_FUZZ_EXAMPLES`` sets the number
of examples (the suite runs a modest number; 1000 for a long run).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import stat
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from fuzzing import deadline, fuzz_settings
from hypothesis import HealthCheck, given
from hypothesis import strategies as st
from hypothesis.control import event
from hypothesis.errors import InvalidArgument

from dbdeck import cli, opening, saves
from dbdeck.games.deckbuilding.bots import greedy
from dbdeck.games.deckbuilding.cards.catalog import Catalog, load_catalog
from dbdeck.games.deckbuilding.engine.game import Setup
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.games.deckbuilding.tui.app import DbdeckApp
from dbdeck.saves import SaveError, Session, read_save
from dbdeck.tabletop import registry

FUZZ = fuzz_settings(150, HealthCheck.function_scoped_fixture)

SAVE_ID = "game"
DEEP = "__deep__"
"""Stands for a deeply nested array, spliced into the JSON text."""


@cache
def shared_catalog() -> Catalog:
    return load_catalog(include_env_packs=False)


@cache
def real_save(folder: str) -> dict[str, Any]:
    """A real save of a few actions (with a backup), as JSON data."""
    where = Path(folder)
    session = Session.start(
        DeckbuildingRules(shared_catalog()),
        Setup(characters=["goku", "krillin"], villain="freezer", seed=11),
        where,
        players={"goku": "Ann"},
        save_id=SAVE_ID,
    )
    rng = random.Random(1)
    for _ in range(8):
        session.apply(greedy(session.match.game, rng))
    session.close()
    data: dict[str, Any] = json.loads((where / f"{SAVE_ID}.json").read_text())
    return data


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return real_save(str(tmp_path_factory.mktemp("real")))


@pytest.fixture(autouse=True)
def _quick_and_headless() -> Iterator[None]:
    """The command line gets the card set loaded once (the deckbuilding
    game's rules on it, from the registry), and opens no table (a save that
    reads fine would otherwise start the interface)."""
    registry.register("deckbuilding", lambda packs: DeckbuildingRules(shared_catalog()))
    try:
        with (
            mock.patch.object(opening, "card_set", shared_catalog),
            mock.patch.object(DbdeckApp, "run", lambda self, *a, **k: None),
        ):
            yield
    finally:
        registry.forget()


def watchdog(seconds: int = 20) -> contextlib.AbstractContextManager[None]:
    """Fail instead of hanging (a reader stuck on a FIFO or /dev/zero)."""
    return deadline(seconds, "a save reader hung")


# --- what a save file may hold -------------------------------------------------------------

leaves = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.sampled_from([10**50, -(10**50), 2**64, -1, 0, 625])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["", "\x1b[2J", "\ud800", "../../etc/passwd", "x" * 5000, DEEP])
)
json_values = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def paths(data: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON value (but inside the long RNG state)."""
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from paths(value, (*prefix, key))
    elif isinstance(data, list) and len(data) < 100:
        for index, value in enumerate(data):
            yield from paths(value, (*prefix, index))


def mutate(data: Any, where: tuple[Any, ...], how: str, value: Any) -> Any:
    """``data`` with the value at ``where`` replaced, removed, or wrapped."""
    if not where:
        return value if how != "wrap" else [data]
    copy = json.loads(json.dumps(data))
    parent = copy
    for step in where[:-1]:
        parent = parent[step]
    last = where[-1]
    if how == "delete":
        del parent[last]
    elif how == "wrap":
        parent[last] = {"value": parent[last]}
    elif how == "stringify":
        parent[last] = json.dumps(parent[last])
    else:
        parent[last] = value
    return copy


@st.composite
def mutated_saves(draw: st.DrawFn, base: dict[str, Any]) -> bytes:
    """A real save with one to three of its values changed."""
    data: Any = base
    for _ in range(draw(st.integers(1, 3))):
        places = list(paths(data))
        where = draw(st.sampled_from(places))
        how = draw(st.sampled_from(["replace", "replace", "delete", "wrap", "stringify"]))
        if how == "delete" and not where:
            how = "replace"
        data = mutate(data, where, how, draw(json_values))
    return encode(data)


def encode(data: Any) -> bytes:
    text = json.dumps(data)
    # Nesting too deep for ``json.dumps`` to write is spliced in as text.
    text = text.replace(json.dumps(DEEP), "[" * 100_000 + "]" * 100_000, 1)
    return text.encode("utf-8", "surrogatepass")


@st.composite
def damaged_bytes(draw: st.DrawFn, base: dict[str, Any]) -> bytes:
    """A real save's bytes cut short, with bytes changed or inserted."""
    raw = bytearray(json.dumps(base).encode())
    kind = draw(st.sampled_from(["truncate", "flip", "insert"]))
    at = draw(st.integers(0, len(raw) - 1))
    if kind == "truncate":
        return bytes(raw[:at])
    if kind == "flip":
        raw[at] = draw(st.integers(0, 255))
        return bytes(raw)
    return bytes(raw[:at]) + draw(st.binary(min_size=1, max_size=8)) + bytes(raw[at:])


def save_files(base: dict[str, Any]) -> st.SearchStrategy[bytes]:
    return st.one_of(
        mutated_saves(base),
        mutated_saves(base),
        damaged_bytes(base),
        json_values.map(encode),
        st.fixed_dictionaries(
            {"format": st.just("dbdeck-save"), "version": st.just(1)},
            optional={
                k: json_values
                for k in ("id", "setup", "actions", "snapshot", "summary", "undo_floor")
            },
        ).map(encode),
        st.binary(max_size=64),
        st.sampled_from([b"", b"\xff\xfe\x00", b"\xc3\x28", b"null", b"[]", b'"\\ud800"']),
    )


# --- the readers ------------------------------------------------------------------------------


def run_cli(*argv: str) -> tuple[int, str]:
    """``dbdeck ARGV`` in-process: its exit code and what it said on stderr."""
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        code = cli.main(list(argv))
    return code, err.getvalue()


def one_line_naming(said: str, name: str) -> None:
    lines = said.strip("\n").split("\n")
    assert len(lines) == 1, said
    assert name in lines[0], (name, said)
    assert "Traceback" not in said


def note(what: str) -> None:
    """Count an outcome in hypothesis' statistics (when under hypothesis)."""
    with contextlib.suppress(InvalidArgument):  # outside hypothesis: nothing to count
        event(what)


def check_every_reader(folder: Path, content: bytes) -> None:
    """Run every reader on ``content`` as the save (and as its backup)."""
    path = folder / f"{SAVE_ID}.json"
    catalog = shared_catalog()

    def lay() -> None:
        for old in folder.iterdir():
            old.unlink()
        path.write_bytes(content)

    lay()
    try:
        read_save(folder, SAVE_ID)
    except SaveError as exc:
        one_line_naming(str(exc), str(path))
    lay()
    try:
        read_save(folder, SAVE_ID, rules=DeckbuildingRules(catalog))
        note("the save replays")
    except SaveError as exc:
        one_line_naming(str(exc), str(path))
        # Where it was refused, to see that the fuzzing reaches the replay.
        said = str(exc)
        note("refused: " + ("replay" if "replay" in said else "shape" if ": " in said else "other"))
    lay()
    try:
        Session.resume(DeckbuildingRules(catalog), folder, SAVE_ID).close()
    except SaveError as exc:
        one_line_naming(str(exc), str(path))
    where = ["--saves", str(folder)]
    for argv in (
        ["play", "--resume", SAVE_ID],
        ["log", SAVE_ID],
        ["log", SAVE_ID, "--format", "json"],
        ["replay", SAVE_ID],
        ["log", str(path)],
    ):
        lay()
        code, said = run_cli(*where, *argv)
        assert code in (0, 1), (argv, code, said)
        if code:
            one_line_naming(said, str(path))
    lay()
    code, said = run_cli(*where, "continue")
    assert code in (0, 1), said
    if code:
        # A save of a game this dbdeck does not play is passed over with a
        # note of its own, naming it; then one line says there is nothing to
        # continue.
        *notes, last = said.strip("\n").split("\n")
        for passed_over in notes:
            assert passed_over.startswith("note: ") and passed_over.endswith(": passed over")
            one_line_naming(passed_over, str(path))
        one_line_naming(last, str(folder))
    lay()
    code, said = run_cli(*where, "saves")
    assert code == 0, said
    if said:
        one_line_naming(said, str(path))
    # The same bytes as the backup, loaded on purpose.
    for old in folder.iterdir():
        old.unlink()
    (folder / f"{SAVE_ID}.bak").write_bytes(content)
    code, said = run_cli(*where, "play", "--resume", SAVE_ID, "--from-backup")
    assert code in (0, 1), said
    if code:
        one_line_naming(said, f"{SAVE_ID}.bak")


@FUZZ
@given(data=st.data())
def test_any_save_file_gives_a_save_or_one_line(
    base: dict[str, Any], tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    content = data.draw(save_files(base), label="save file")
    folder = tmp_path_factory.mktemp("fuzz")
    with watchdog():
        check_every_reader(folder, content)


def test_the_real_save_reads_and_each_known_crasher_is_one_line(
    base: dict[str, Any], tmp_path: Path
) -> None:
    """The crashers found before the readers were total, and the real save
    itself (so the fuzzing starts from a save that loads)."""
    check_every_reader(tmp_path, json.dumps(base).encode())
    path = tmp_path / f"{SAVE_ID}.json"
    crashers = [
        mutate(base, ("setup",), "replace", {}),
        mutate(base, ("snapshot",), "replace", {}),
        mutate(base, ("snapshot", "rng"), "replace", []),
        mutate(base, ("summary", "characters"), "replace", 5),
        mutate(base, ("actions",), "replace", ["x"]),
        mutate(base, ("actions", 2), "replace", {"type": "buy", "card": 10**40}),
        mutate(base, ("undo_floor",), "replace", 10**6),
        mutate(base, ("version",), "replace", True),
    ]
    for crasher in crashers:
        check_every_reader(tmp_path, encode(crasher))
        for old in tmp_path.iterdir():
            old.unlink()
        path.write_bytes(encode(crasher))
        with pytest.raises(SaveError):
            Session.resume(DeckbuildingRules(shared_catalog()), tmp_path, SAVE_ID)


def test_a_snapshot_that_is_not_the_replay_opens_as_saved(
    base: dict[str, Any], tmp_path: Path
) -> None:
    """A save whose actions no longer replay to its snapshot (written by rules
    that played differently) opens at its snapshot, the table the players
    last saw: the game is not lost."""
    edited = json.loads(json.dumps(base))
    edited["snapshot"]["state"]["turn"] = 99
    (tmp_path / f"{SAVE_ID}.json").write_text(json.dumps(edited))
    session = Session.resume(DeckbuildingRules(shared_catalog()), tmp_path, SAVE_ID)
    try:
        assert session.match.game.state.turn == 99
        assert session.match.game.legal_actions() is not None
    finally:
        session.close()
    # Its record no longer replays: the log and the replay say so in one line.
    for command in ("log", "replay"):
        code, said = run_cli("--saves", str(tmp_path), command, SAVE_ID)
        assert code == 1
        one_line_naming(said, str(tmp_path / f"{SAVE_ID}.json"))
        assert "play differently" in said


def test_a_save_that_neither_replays_nor_loads_is_refused(
    base: dict[str, Any], tmp_path: Path
) -> None:
    """Actions that do not replay and a snapshot the engine cannot open: the
    save is unreadable, with the replay's reason."""
    edited = json.loads(json.dumps(base))
    edited["snapshot"]["state"]["turn"] = 99
    edited["snapshot"]["state"]["characters"] = []
    (tmp_path / f"{SAVE_ID}.json").write_text(json.dumps(edited))
    with pytest.raises(SaveError, match="its snapshot is not the game its actions replay to"):
        Session.resume(DeckbuildingRules(shared_catalog()), tmp_path, SAVE_ID)


# --- files that are not save files ------------------------------------------------------------


def not_regular(kind: str, path: Path) -> None:
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "symlink-to-zero":
        path.symlink_to("/dev/zero")
    elif kind == "symlink-to-fifo":
        os.mkfifo(path.with_name("pipe"))
        path.symlink_to(path.with_name("pipe"))
    elif kind == "folder":
        path.mkdir()
    elif kind == "device":
        try:
            os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 5))  # /dev/zero
        except OSError as exc:
            pytest.skip(f"cannot make a device node here ({exc.strerror})")


@pytest.mark.parametrize("kind", ["fifo", "symlink-to-zero", "symlink-to-fifo", "folder", "device"])
def test_what_is_not_a_regular_file_is_refused_without_hanging(kind: str, tmp_path: Path) -> None:
    path = tmp_path / f"{SAVE_ID}.json"
    where = ["--saves", str(tmp_path)]
    with watchdog():
        for reader in ("read", "resume", "play", "log", "saves", "continue"):
            for old in tmp_path.iterdir():
                if old.is_dir() and not old.is_symlink():
                    old.rmdir()
                else:
                    old.unlink()
            not_regular(kind, path)
            if reader == "read":
                with pytest.raises(SaveError, match=r"not a regular file|symbolic link") as err:
                    read_save(tmp_path, SAVE_ID)
                one_line_naming(str(err.value), str(path))
            elif reader == "resume":
                with pytest.raises(SaveError):
                    Session.resume(DeckbuildingRules(shared_catalog()), tmp_path, SAVE_ID)
            elif reader == "saves":
                code, said = run_cli(*where, "saves")
                assert code == 0
                one_line_naming(said, str(path))
            elif reader == "continue":
                code, said = run_cli(*where, "continue")
                assert code == 1
                one_line_naming(said, str(path))
            else:
                args = ["play", "--resume", SAVE_ID] if reader == "play" else ["log", SAVE_ID]
                code, said = run_cli(*where, *args)
                assert code == 1
                one_line_naming(said, str(path))


def test_a_save_over_the_size_cap_is_refused_before_reading(
    base: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = json.dumps(base)
    # ``_read_bytes`` looks the cap up in ``dbdeck.saves.files``.
    monkeypatch.setattr(saves.files, "MAX_SAVE_BYTES", len(text) - 1)
    (tmp_path / f"{SAVE_ID}.json").write_text(text)
    with pytest.raises(SaveError, match="too large for a save") as err:
        read_save(tmp_path, SAVE_ID)
    one_line_naming(str(err.value), str(tmp_path / f"{SAVE_ID}.json"))


def test_saves_lists_the_good_and_notes_the_bad(base: dict[str, Any], tmp_path: Path) -> None:
    (tmp_path / "good.json").write_text(json.dumps(base))
    (tmp_path / "bad.json").write_text(json.dumps({**base, "summary": {"characters": 5}}))
    (tmp_path / "worse.json").write_bytes(b"\xff\x00")
    code, said = run_cli("--saves", str(tmp_path), "saves")
    assert code == 0
    notes = said.strip().split("\n")
    assert len(notes) == 2 and all(n.startswith("note: ") for n in notes)
    assert any("bad.json" in n for n in notes) and any("worse.json" in n for n in notes)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        cli.main(["--saves", str(tmp_path), "saves"])
    assert out.getvalue().startswith("good  Freezer vs Goku, Krillin")


@pytest.mark.parametrize("save_id", ["../escape", ".hidden", "a/b", "x\ny"])
def test_a_save_id_is_a_file_name(save_id: str, tmp_path: Path) -> None:
    code, said = run_cli("--saves", str(tmp_path), "play", "--resume", save_id)
    assert code == 1 and len(said.strip().split("\n")) == 1 and "not a save id" in said
