"""The command palette closed in a burst: typed into and closed (Escape,
Enter on a command, Ctrl+Q) before its search ends, it never stops the app
on an error (a key of the burst may start a search on the palette already
closed)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tables import app_for, quiet_table, turn_game
from textual import events
from textual.pilot import Pilot

from dbdeck.games.deckbuilding.cards.catalog import Catalog

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

__all__ = ["quiet_table"]  # the fixture, used by every test here

ENDS = ("escape", "enter", "ctrl+q", "escape")
"""How a burst closes the palette."""


async def burst(pilot: Pilot[Any], keys: list[str]) -> None:
    """Type ``keys`` at once, as a terminal delivers a burst (every key is
    queued before the first is handled), then let the screen take them."""
    app = pilot.app
    for key in keys:
        event = events.Key(key, key if len(key) == 1 else None)
        event.set_sender(app)
        app.post_message(event)
    for _ in range(3):
        await pilot._wait_for_screen()


@pytest.mark.parametrize("seed", [5, 24, 31])
async def test_a_palette_closed_while_it_searches_stops_nothing(
    catalog: Catalog, seed: int
) -> None:
    rng = random.Random(seed)
    app = app_for(turn_game(catalog))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for _ in range(6):
            typed = [rng.choice("playkzbu") for _ in range(rng.randint(0, 3))]
            await burst(pilot, ["ctrl+p", *typed, rng.choice(ENDS)])
            if app.return_code is not None:
                break
    assert app._exception is None, app._exception
