"""A saved CCG game replayed turn by turn: the replay screen steps its
frames forward and back, and the CCG table plays a saved game back through
the shared replay backend."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from dbdeck.games.ccg.library import load_library
from dbdeck.games.ccg.match import CcgMatch, CcgRules
from dbdeck.games.ccg.tui.replay import CcgReplayScreen
from dbdeck.saves import Session
from dbdeck.seating import Seating
from dbdeck.tui.local import ReplayBackend
from dbdeck.tui.shell import TableApp

DECKS = Path(__file__).resolve().parent.parent / "cards" / "ccg" / "decks"


def _saved_game(tmp_path: Path) -> tuple[CcgRules, dict[str, object]]:
    rules = CcgRules(load_library(include_env_packs=False))
    setup = rules.read_setup(
        {
            "players": ["Ann", "Bob"],
            "decks": [(DECKS / "goku.txt").read_text(), (DECKS / "raditz.txt").read_text()],
            "seed": 6,
        }
    )
    session: Session[CcgMatch] = Session.start(
        rules, setup, tmp_path, seating=Seating(players={"p1": "Ann", "p2": "Bob"})
    )
    rng = random.Random(2)
    for _ in range(90):
        if session.match.over:
            break
        session.apply(session.match.bot_move(rng))
    session.close()
    data = json.loads((tmp_path / f"{session.id}.json").read_text())
    return rules, data


class ReplayApp(TableApp):
    def __init__(self, backend: ReplayBackend) -> None:
        super().__init__()
        self.backend = backend

    def on_mount(self) -> None:
        self.push_screen(self.table_screen("ccg", self.backend, "replay"))


async def test_the_replay_steps_through_the_turns(tmp_path: Path) -> None:
    rules, data = _saved_game(tmp_path)
    backend = ReplayBackend(rules, data)
    assert len(backend.frames) >= 3, "a game of several turns"
    app = ReplayApp(backend)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CcgReplayScreen)
        assert backend.index == 0
        first_turn = screen.view.turn
        await pilot.press("right")
        await pilot.press("right")
        await pilot.pause()
        assert backend.index == 2 and screen.view.turn > first_turn
        await pilot.press("left")
        await pilot.pause()
        assert backend.index == 1
        await pilot.press("end")
        await pilot.pause()
        assert backend.index == len(backend.frames) - 1
        assert screen.offers == [], "a replay offers nothing"
        # The owner's record: both hands are face up.
        assert all(face.uid != -1 for seat in screen.view.seats for face in seat.hand)


def test_a_replay_from_one_seat_shows_only_its_hand(tmp_path: Path) -> None:
    rules, data = _saved_game(tmp_path)
    backend = ReplayBackend(rules, data, seat=1)
    assert "seat 1 saw" in backend.hand_rule
    for index in range(len(backend.frames)):
        backend.go(index)
        view = backend.view()
        assert view.viewer == 1
        assert all(face.uid == -1 for face in view.seats[0].hand), "seat 0's hand stays hidden"
    lines = [line.text for frame in backend.frames for line in frame[1]]
    assert any("You drew" in text for text in lines), "seat 1 reads its own draws"
    with pytest.raises(ValueError, match="no seat 5 at this game"):
        ReplayBackend(rules, data, seat=5)


def test_the_log_counts_the_turns_from_the_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``dbdeck log`` of a CCG game: the setup's lines are the setup's, the
    first player's Draw step is turn 1, and "Turn 2" is turn 2."""
    from dbdeck.cli import main

    _rules, data = _saved_game(tmp_path)
    capsys.readouterr()
    assert main(["--saves", str(tmp_path), "log", str(data["id"])]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("[setup   ]") and "goes first" in line for line in lines)
    first_draw = next(line for line in lines if "draws 3 cards (the Draw step)" in line)
    assert first_draw.startswith("[turn   1]")
    second = next(line for line in lines if "Turn 2:" in line)
    assert second.startswith("[turn   2]")
