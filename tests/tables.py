"""Tables the TUI tests sit at, and the keys they press.

``quiet_table`` (autouse where imported) keeps the player's settings in the
test's own folder and lets turn banners and hand-offs take Enter at once
(one test checks the delay itself).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot

from dbdeck.games.deckbuilding.bots import greedy
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.scenario import lay_table
from dbdeck.games.deckbuilding.tui.app import DbdeckApp
from dbdeck.games.deckbuilding.tui.dialogs import HandoffScreen, TurnBanner
from dbdeck.games.deckbuilding.tui.play import Seating, TableScreen
from dbdeck.games.deckbuilding.tui.widgets import ActionPanel
from dbdeck.tui.settings import SETTINGS_ENV

__all__ = [
    "app_for",
    "choose",
    "mid_game",
    "quiet_table",
    "table_of",
    "turn_game",
    "villain_decision",
]


@pytest.fixture(autouse=True)
def quiet_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Settings in the test's folder; banners that take Enter at once."""
    monkeypatch.setenv(SETTINGS_ENV, str(tmp_path / "settings.json"))
    monkeypatch.setattr(TurnBanner, "arm_seconds", 0)
    monkeypatch.setattr(HandoffScreen, "arm_seconds", 0)
    yield


def turn_game(catalog: Catalog) -> Game:
    """Goku's Actions phase: Freezer has landed, no Guard, a known hand."""
    game = Game.new(catalog, Setup(characters=["goku", "krillin"], villain="freezer", seed=5))
    lay_table(
        game,
        {
            "active": "goku",
            "turn_deck": ["2", "1"],
            "villain": {"arrived": True, "minions": []},
            "markets": {"techniques": ["energy-arm", "sokidan", "kikoho", "ki-barrage"]},
            "characters": {
                "goku": {
                    "hand": ["sokidan", "punch-and-kick", "tear-apart", "energy", "energy"],
                    "deck": ["energy"] * 8,
                }
            },
        },
    )
    # Kaio-ken used already: the turn's questions are about its cards alone.
    game.state.character("goku").ability_used = True
    return game


def app_for(game: Game, pace: float = 0.0, **seating: Any) -> DbdeckApp:
    """The app on ``game``: Ann plays Goku, Bob plays Krillin."""
    seating.setdefault("players", {"goku": "Ann", "krillin": "Bob"})
    return DbdeckApp(game.catalog, game, Seating(pace=pace, **seating))


def table_of(app: App[Any]) -> TableScreen:
    """The table screen, whatever dialog is open above it."""
    return next(s for s in app.screen_stack if isinstance(s, TableScreen))


async def choose(pilot: Pilot[Any], label: str) -> None:
    """Highlight the action whose label starts with ``label`` and press Enter."""
    screen = table_of(pilot.app)
    listing = screen.query_one(ActionPanel)
    listing.focus()
    for index in range(listing.option_count):
        option = listing.get_option_at_index(index)
        if option.id is not None and listing.lines[int(option.id)].label.startswith(label):
            listing.highlighted = index
            await pilot.press("enter")
            await pilot.pause()
            return
    raise AssertionError(f"no action {label!r}")


def mid_game(catalog: Catalog) -> Game:
    """Two Characters against Freezer, at a Character's turn after round 2
    (the snapshot tests' table and the README's picture)."""
    game = Game.new(catalog, Setup(characters=["goku", "krillin"], villain="freezer", seed=8))
    rng = random.Random(8)
    while (
        game.state.turn < 14
        or game.state.pending is not None
        or game.state.active in ("", "villain")
    ):
        game.apply(greedy(game, rng))
    return game


def villain_decision(catalog: Catalog) -> Game:
    """Freezer's Crushing Grip: the players choose who takes it."""
    game = Game.new(catalog, Setup(characters=["krillin"], villain="freezer", seed=11))
    lay_table(
        game,
        {
            "active": "villain",
            "turn_deck": ["1"],
            "villain": {
                "arrived": True,
                "minions": ["freezer-guldo"],
                "deck": ["freezer-crushing-grip"],
            },
            "characters": {"krillin": {"allies": ["mai-ally"]}},
        },
    )
    return game
