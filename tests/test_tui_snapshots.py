"""Snapshots of the table's main screens, at the sizes players use.

The table at 80×24, 120×40, 160×50 and 200×60; a Villain's decision; the
Steal dialog; the game's summary; ASCII mode; the wizard, the inspector and
the rules reference. Each is a seeded game, so each picture is the same on
every run: a change of the picture is a change of the table.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from tables import app_for, mid_game, quiet_table, turn_game, villain_decision

from dbdeck.games.deckbuilding.bots import greedy
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.game import Setup
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.games.deckbuilding.scenario import lay_table
from dbdeck.games.deckbuilding.tui.app import DbdeckApp, SetupWizard
from dbdeck.games.deckbuilding.tui.play import Seating
from dbdeck.games.deckbuilding.tui.widgets import glyphs
from dbdeck.saves import Session

__all__ = ["quiet_table"]

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TABLE_SIZES = [(80, 24), (120, 40), (160, 50), (200, 60)]
SIZES = [(80, 24), (160, 50)]


@pytest.mark.parametrize("size", TABLE_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_table(catalog: Catalog, snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(app_for(mid_game(catalog)), terminal_size=size)


def test_snapshot_table_ascii(
    catalog: Catalog, snap_compare: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(glyphs, "ASCII", True)
    assert snap_compare(app_for(mid_game(catalog)), terminal_size=(120, 40))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_villain_decision(
    catalog: Catalog, snap_compare: Any, size: tuple[int, int]
) -> None:
    assert snap_compare(app_for(villain_decision(catalog)), terminal_size=size)


def test_snapshot_steal_dialog(catalog: Catalog, snap_compare: Any) -> None:
    game = turn_game(catalog)
    lay_table(game, {"villain": {"dragon_balls": 3, "minions": ["freezer-guard"]}})
    assert snap_compare(app_for(game), terminal_size=(120, 40), press=["p", "s"])


def test_snapshot_summary(catalog: Catalog, snap_compare: Any, tmp_path: Path) -> None:
    setup = Setup(characters=["goku", "krillin"], villain="freezer", difficulty="easy", seed=109)
    session = Session.start(DeckbuildingRules(catalog), setup, tmp_path, save_id="end")
    rng = random.Random(109)
    while not session.match.game.over:
        session.apply(greedy(session.match.game, rng))
        while session.match.game.state.paused:
            session.resume_villain()
    session.close()
    resumed = Session.resume(DeckbuildingRules(catalog), tmp_path, "end")
    seating = Seating(players={"goku": "Ann", "krillin": "Bob"}, pace=0)
    app = DbdeckApp(catalog, session=resumed, seating=seating, saves=tmp_path)
    try:
        assert snap_compare(app, terminal_size=(120, 40))
    finally:
        resumed.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_wizard(catalog: Catalog, snap_compare: Any, size: tuple[int, int]) -> None:
    app = DbdeckApp(catalog, start=SetupWizard(catalog, seed=42))
    assert snap_compare(app, terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_inspector(catalog: Catalog, snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(app_for(turn_game(catalog)), terminal_size=size, press=["i"])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_rules(catalog: Catalog, snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(app_for(turn_game(catalog)), terminal_size=size, press=["r", *"armor"])
