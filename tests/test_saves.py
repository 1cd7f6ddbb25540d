"""Saved games: autosave, resume, backups, corrupt files, versions, locks,
undo that respects hidden information, log and replay, and kill -9."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dbdeck import saves
from dbdeck.cli import main
from dbdeck.games.deckbuilding.bots import greedy
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.actions import Choose, Exhaust, PlayEnergy, action_from_json
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.match import DeckbuildingMatch, DeckbuildingRules
from dbdeck.saves import SaveError, SaveInUse, Session, read_save


def setup(seed: int = 3) -> Setup:
    return Setup(characters=["goku", "krillin"], villain="freezer", seed=seed)


def play(session: Session[DeckbuildingMatch], count: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        if session.match.game.over:
            return
        session.apply(greedy(session.match.game, rng))


def test_every_action_is_saved_and_resumes_identically(catalog: Catalog, tmp_path: Path) -> None:
    session = Session.start(DeckbuildingRules(catalog), setup(), tmp_path, players={"goku": "Ann"})
    play(session, 40)
    session.close()
    resumed = Session.resume(DeckbuildingRules(catalog), tmp_path, session.id)
    assert resumed.match.game.fingerprint() == session.match.game.fingerprint()
    assert resumed.actions == session.actions and resumed.players == {"goku": "Ann"}
    rng = random.Random(5)
    while not session.match.game.over:  # both continue the same way
        action = greedy(session.match.game, rng)
        session.match.game.apply(action)
        resumed.match.game.apply(action)
    assert resumed.match.game.fingerprint() == session.match.game.fingerprint()
    resumed.close()


def test_previous_save_is_kept_as_backup(catalog: Catalog, tmp_path: Path) -> None:
    session = Session.start(DeckbuildingRules(catalog), setup(), tmp_path)
    play(session, 5)
    current = json.loads((tmp_path / f"{session.id}.json").read_text())
    backup = json.loads((tmp_path / f"{session.id}.bak").read_text())
    assert len(current["actions"]) == 5 and len(backup["actions"]) == 4
    assert not list(tmp_path.glob(".*.tmp"))
    session.close()


@pytest.mark.parametrize("damage", ["truncate", "garbage", "not-a-save"])
def test_corrupt_save_is_moved_aside_and_backup_offered(
    catalog: Catalog, tmp_path: Path, damage: str
) -> None:
    session = Session.start(DeckbuildingRules(catalog), setup(), tmp_path)
    play(session, 6)
    session.close()
    path = tmp_path / f"{session.id}.json"
    text = path.read_text()
    path.write_text(
        {
            "truncate": text[: len(text) // 2],
            "garbage": "\x00\x01junk",
            "not-a-save": json.dumps({"hello": 1}),
        }[damage]
    )
    with pytest.raises(SaveError) as err:
        Session.resume(DeckbuildingRules(catalog), tmp_path, session.id)
    assert "moved to" in str(err.value) and err.value.backup is not None
    aside = list(tmp_path.glob(f"{session.id}.corrupt-*.json"))
    assert len(aside) == 1 and not path.exists()  # kept aside, never overwritten
    restored = Session.resume(DeckbuildingRules(catalog), tmp_path, session.id, from_backup=True)
    assert len(restored.actions) == 5  # the backup is one action older
    assert path.exists()  # and it becomes the save again
    restored.close()


def test_newer_version_is_refused_and_older_is_migrated(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = Session.start(DeckbuildingRules(catalog), setup(), tmp_path)
    play(session, 3)
    session.close()
    path = tmp_path / f"{session.id}.json"
    data = json.loads(path.read_text())
    data["version"] = saves.SAVE_VERSION + 1
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError, match="saved by a newer dbdeck"):
        read_save(tmp_path, session.id)
    # An older version goes through the migrations in order.
    data["version"] = saves.SAVE_VERSION - 1
    data["renamed_players"] = data.pop("players")
    (tmp_path / f"{session.id}.json").write_text(json.dumps(data))

    def migrate(old: dict[str, object]) -> dict[str, object]:
        old["players"] = old.pop("renamed_players")
        return old

    monkeypatch.setitem(saves.MIGRATIONS, saves.SAVE_VERSION - 1, migrate)
    migrated = read_save(tmp_path, session.id)
    assert migrated["version"] == saves.SAVE_VERSION and "players" in migrated


def test_a_second_process_cannot_open_a_save_in_use(catalog: Catalog, tmp_path: Path) -> None:
    session = Session.start(DeckbuildingRules(catalog), setup(), tmp_path)
    code = (
        "import sys; from dbdeck.games.deckbuilding.match import open_rules; "
        "from dbdeck.saves import Session, SaveInUse\n"
        "try:\n    Session.resume(open_rules([]), __import__('pathlib').Path(sys.argv[1]), "
        "sys.argv[2])\nexcept SaveInUse as e:\n    print('IN USE', e)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path), session.id],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.startswith("IN USE") and f"pid {os.getpid()}" in out
    session.close()
    again = Session.resume(DeckbuildingRules(catalog), tmp_path, session.id)  # free once closed
    again.close()
    with pytest.raises(SaveInUse):
        first = Session.resume(DeckbuildingRules(catalog), tmp_path, session.id)
        try:
            Session.resume(DeckbuildingRules(catalog), tmp_path, session.id)
        finally:
            first.close()


def test_undo_stops_at_revealed_information(catalog: Catalog, tmp_path: Path) -> None:
    session = Session.start(DeckbuildingRules(catalog), setup(), tmp_path)
    goku = session.match.game.state.character("goku")
    before = session.match.game.fingerprint()
    energy = next(u for u in goku.hand if session.match.game.state.card_ids[u] == "energy")
    session.apply(PlayEnergy(card=energy))
    assert session.undoable() == 1
    assert session.undo()
    assert session.match.game.fingerprint() == before
    # Flying Nimbus draws a card when exhausted: that reveals hidden information.
    nimbus = next(u.uid for u in goku.equipment)
    session.apply(Exhaust(card=nimbus))
    while session.match.game.state.pending is not None:
        session.apply(Choose(option=0))  # after the draw: may be undone
    while session.undoable():
        assert session.undo()
    assert not session.undo()
    assert "draws" in session.floor_reason
    goku = session.match.game.state.character("goku")
    assert next(u for u in goku.equipment if u.uid == nimbus).exhausted  # the draw stays
    session.close()


def test_undo_then_redo_gives_the_same_game(catalog: Catalog, tmp_path: Path) -> None:
    session = Session.start(DeckbuildingRules(catalog), setup(), tmp_path)
    rng = random.Random(2)
    checked = 0
    for _ in range(150):
        if session.match.game.over:
            break
        action = greedy(session.match.game, rng)
        before = session.match.game.fingerprint()
        session.apply(action)
        after = session.match.game.fingerprint()
        if session.undoable():
            assert session.undo() and session.match.game.fingerprint() == before
            session.apply(action)
            assert session.match.game.fingerprint() == after
            checked += 1
    assert checked > 20
    session.close()


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 10_000),
    steps=st.lists(st.sampled_from(["act", "save", "undo"]), min_size=5, max_size=60),
)
def test_random_saves_restores_and_undos(
    catalog: Catalog, tmp_path_factory: pytest.TempPathFactory, seed: int, steps: list[str]
) -> None:
    folder = tmp_path_factory.mktemp("saves")
    session = Session.start(DeckbuildingRules(catalog), setup(seed), folder)
    rng = random.Random(seed)
    for step in steps:
        if session.match.game.over:
            break
        if step == "act":
            session.apply(rng.choice(session.match.game.legal_actions()))
        elif step == "save":
            session.close()
            resumed = Session.resume(DeckbuildingRules(catalog), folder, session.id)
            assert resumed.match.game.fingerprint() == session.match.game.fingerprint()
            session = resumed
        else:
            session.undo()
        # The save always replays to the game on the table.
        replayed = Game.new(catalog, setup(seed))
        for data in session.actions:
            replayed.apply(action_from_json(data))
        assert replayed.fingerprint() == session.match.game.fingerprint()
    session.close()


def test_cli_saves_log_and_continue(
    catalog: Catalog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--saves", str(tmp_path), "continue"]) == 1
    assert "No game to continue" in capsys.readouterr().err
    session = Session.start(DeckbuildingRules(catalog), setup(), tmp_path)
    play(session, 30)
    session.close()
    assert main(["--saves", str(tmp_path), "saves"]) == 0
    assert session.id in capsys.readouterr().out
    assert main(["--saves", str(tmp_path), "log", session.id, "--format", "json"]) == 0
    log = json.loads(capsys.readouterr().out)
    assert len(log["log"]) == 31 and log["setup"]["seed"] == 3
    assert main(["log", str(tmp_path / f"{session.id}.json")]) == 0
    text = capsys.readouterr().out
    assert "Turn-order card" in text and text.startswith(f"dbdeck game {session.id}")


KILLER = """
import random, sys
from pathlib import Path
from dbdeck.games.deckbuilding.bots import greedy
from dbdeck.games.deckbuilding.cards.catalog import load_catalog
from dbdeck.games.deckbuilding.engine.game import Setup
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.saves import Session
catalog = load_catalog()
folder = Path(sys.argv[1])
if (folder / "game.json").exists():
    session = Session.resume(DeckbuildingRules(catalog), folder, "game")
else:
    setup = Setup(characters=["goku", "krillin"], villain="freezer", seed=21)
    session = Session.start(DeckbuildingRules(catalog), setup, folder, save_id="game")
rng = random.Random(len(session.actions))
print("ready", len(session.actions), flush=True)
while not session.match.game.over:
    session.apply(greedy(session.match.game, rng))
print("over", flush=True)
"""


def test_killed_at_random_moments_always_resumes(catalog: Catalog, tmp_path: Path) -> None:
    """kill -9 a game in play again and again: the save always loads, at the
    last completed action, and replays exactly."""
    rng = random.Random(7)
    kills = 0
    for _ in range(25):
        process = subprocess.Popen(
            [sys.executable, "-c", KILLER, str(tmp_path)], stdout=subprocess.PIPE, text=True
        )
        assert process.stdout is not None
        first = process.stdout.readline()
        if first.startswith("over") or not first:
            process.wait()
            break
        time.sleep(rng.uniform(0.0, 0.15))
        process.send_signal(signal.SIGKILL)
        process.wait()
        kills += 1
        data = read_save(tmp_path, "game")  # never torn
        game = Game.new(catalog, Setup(**data["setup"]))
        for action in data["actions"]:
            game.apply(action_from_json(action))
        assert json.dumps(game.to_json(), sort_keys=True) == json.dumps(
            data["snapshot"], sort_keys=True
        )
    assert kills >= 10
