"""Draw the SVG screenshots of dbdeck's main screens from seeded games.

    python screenshots/make_screenshots.py

Writes table.svg (mid-game), wizard.svg, inspector.svg, villain-turn.svg,
handoff.svg (hot-seat: the keyboard passes, every hand hidden) and rules.svg
next to this script, at 160×50.
"""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path

os.environ.pop("NO_COLOR", None)
os.environ["TEXTUAL_ANIMATIONS"] = "none"

from dbdeck.bots import greedy
from dbdeck.cards.catalog import load_catalog
from dbdeck.engine.game import Game, Setup
from dbdeck.scenario import lay_table
from dbdeck.tui.app import DbdeckApp, SetupWizard
from dbdeck.tui.table import Seating

HERE = Path(__file__).resolve().parent
SIZE = (160, 50)


async def shoot(app: DbdeckApp, name: str, keys: tuple[str, ...] = ()) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        app.save_screenshot(f"{name}.svg", str(HERE))
    print(f"wrote {HERE / (name + '.svg')}")


def mid_game(catalog: object) -> Game:
    game = Game.new(
        catalog,
        Setup(
            characters=["goku", "krillin"],
            villain="freezer",  # type: ignore[arg-type]
            seed=8,
        ),
    )
    rng = random.Random(8)
    while (
        game.state.turn < 14
        or game.state.pending is not None
        or game.state.active in ("", "villain")
    ):
        game.apply(greedy(game, rng))
    return game


async def main() -> None:
    catalog = load_catalog(include_env_packs=False)
    seating = Seating(players={"goku": "Ann", "krillin": "Bob"}, pace=0)
    await shoot(DbdeckApp(catalog, mid_game(catalog), seating), "table")
    await shoot(DbdeckApp(catalog, start=SetupWizard(catalog, seed=2024)), "wizard")
    await shoot(DbdeckApp(catalog, mid_game(catalog), seating), "inspector", ("i", "enter"))
    villain = Game.new(catalog, Setup(characters=["krillin"], villain="freezer", seed=11))
    lay_table(
        villain,
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
    await shoot(
        DbdeckApp(catalog, villain, Seating(players={"krillin": "Ann"}, pace=0)), "villain-turn"
    )
    await shoot(DbdeckApp(catalog, mid_game(catalog), seating), "rules", ("r", *"wish"))
    hidden = Seating(players={"goku": "Ann", "krillin": "Bob"}, hide_hands=True, pace=0)
    await shoot(DbdeckApp(catalog, mid_game(catalog), hidden), "handoff")


if __name__ == "__main__":
    asyncio.run(main())
