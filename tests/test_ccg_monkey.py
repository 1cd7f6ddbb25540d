"""The monkey test of the CCG table: seeded random keys typed in bursts at
the table and every dialog it opens, solo and against the sparring bot. No
key may crash the interface (no exception, no crash report), and the game
keeps going by the rules (each accepted key is an ordinary action)."""

from __future__ import annotations

import random
import string
from pathlib import Path

import pytest

from dbdeck.games.ccg.library import load_library
from dbdeck.games.ccg.match import CcgMatch, CcgRules
from dbdeck.games.ccg.sparring import BOT_NAME, SparringBackend
from dbdeck.games.ccg.tui.dialogs import HandoffScreen
from dbdeck.saves import Session
from dbdeck.seating import Seating
from dbdeck.tui.local import LocalBackend
from dbdeck.tui.shell import TableApp

DECKS = Path(__file__).resolve().parent.parent / "cards" / "ccg" / "decks"
KEYS = [
    *(c for c in string.ascii_lowercase if c != "q"),
    *"ATWFO",
    *string.digits,
    *"+-<>[]?",
    "up",
    "down",
    "left",
    "right",
    "tab",
    "shift+tab",
    "enter",
    "enter",
    "enter",
    "escape",
    "space",
    "backspace",
]


class MonkeyApp(TableApp):
    def __init__(self, backend: LocalBackend, folder: Path) -> None:
        super().__init__(saves=folder)
        self.backend = backend

    def on_mount(self) -> None:
        self.push_screen(self.table_screen("ccg", self.backend))


def _session(folder: Path, bot: bool, hide: bool) -> Session[CcgMatch]:
    rules = CcgRules(load_library(include_env_packs=False))
    players = ["Ann", BOT_NAME if bot else "Bob"]
    setup = rules.read_setup(
        {
            "players": players,
            "decks": [(DECKS / "goku.txt").read_text(), (DECKS / "raditz.txt").read_text()],
            "seed": 9,
        }
    )
    seating = Seating(players={"p1": players[0], "p2": players[1]}, hide_hands=hide)
    return Session.start(rules, setup, folder, seating=seating)


@pytest.mark.parametrize(
    ("seed", "size", "bot", "hide"),
    [(1, (80, 24), False, False), (2, (120, 40), True, False), (3, (100, 30), False, True)],
    ids=["solo-80x24", "bot-120x40", "hotseat-100x30"],
)
async def test_random_keys_at_the_ccg_table(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    seed: int,
    size: tuple[int, int],
    bot: bool,
    hide: bool,
) -> None:
    monkeypatch.setattr(HandoffScreen, "arm_seconds", 0)
    session = _session(tmp_path, bot, hide)
    backend: LocalBackend = SparringBackend(session, 1) if bot else LocalBackend(session)
    app = MonkeyApp(backend, tmp_path)
    rng = random.Random(seed)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for _ in range(30):
            await pilot.press(*(rng.choice(KEYS) for _ in range(8)))
            await pilot.pause()
            assert app.is_running, "a key closed the table"
    assert not list(tmp_path.glob("crash-*")), "a key made a crash report"
    assert session.match.version > 0, "the keys played something"
