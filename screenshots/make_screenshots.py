"""Draw the SVG screenshots of dbdeck's main screens from seeded games.

    python screenshots/make_screenshots.py

Writes, next to this script: table.svg (a game against Freezer at 120×40,
the size most terminals open at), table-80x24.svg and table-200x60.svg (the
same table at the smallest and a large size), card-menu.svg (a hand card's
actions, with what it cannot do and why), combo.svg (a Combo's targets with
the damage each would take), steal.svg (the Steal dice with their odds),
villain-turn.svg (the players choose who takes a Villain attack), turn.svg
(another player's turn announced), summary.svg (the end of a game),
handoff.svg (hot-seat: the keyboard passes, every hand hidden), wizard.svg
(Kame House chosen, with its effect), inspector.svg, rules.svg,
how-to-play.svg (its third page) and ascii.svg (``DBDECK_ASCII=1``).
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import tempfile
from pathlib import Path

os.environ.pop("NO_COLOR", None)
os.environ["TEXTUAL_ANIMATIONS"] = "none"

from dbdeck.games.deckbuilding.bots import greedy
from dbdeck.games.deckbuilding.cards.catalog import Catalog, load_catalog
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.games.deckbuilding.scenario import lay_table
from dbdeck.games.deckbuilding.tui.app import DbdeckApp, SetupWizard
from dbdeck.games.deckbuilding.tui.dialogs import HandoffScreen, TurnBanner
from dbdeck.games.deckbuilding.tui.howto import HowToPlay
from dbdeck.games.deckbuilding.tui.play import Seating
from dbdeck.games.deckbuilding.tui.widgets import glyphs
from dbdeck.saves import Session

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))  # the test tables the snapshots sit at

from tables import mid_game, villain_decision  # noqa: E402

SIZE = (120, 40)
PLAYERS = {"goku": "Ann", "krillin": "Bob"}

TurnBanner.arm_seconds = 0
HandoffScreen.arm_seconds = 0


async def shoot(
    app: DbdeckApp, name: str, keys: tuple[str, ...] = (), size: tuple[int, int] = SIZE
) -> None:
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        await pilot.pause(0.2)
        app.save_screenshot(f"{name}.svg", str(HERE))
    print(f"wrote {HERE / (name + '.svg')}")


def turn_game(catalog: Catalog) -> Game:
    """Goku's Actions phase against a Freezer who has landed with his Guard."""
    game = Game.new(catalog, Setup(characters=["goku", "krillin"], villain="freezer", seed=5))
    lay_table(
        game,
        {
            "active": "goku",
            "turn_deck": ["2", "1"],
            "villain": {"arrived": True, "minions": ["freezer-guard"], "dragon_balls": 3},
            "characters": {
                "goku": {
                    "hand": ["sokidan", "punch-and-kick", "tear-apart", "energy", "energy"],
                    "deck": ["energy"] * 8,
                }
            },
        },
    )
    return game


def app(game: Game, **seating: object) -> DbdeckApp:
    players = seating.pop("players", PLAYERS)
    return DbdeckApp(game.catalog, game, Seating(players=players, pace=0, **seating))  # type: ignore[arg-type]


async def main() -> None:
    catalog = load_catalog(include_env_packs=False)
    await shoot(app(mid_game(catalog)), "table")
    await shoot(app(mid_game(catalog)), "table-80x24", size=(80, 24))
    await shoot(app(mid_game(catalog)), "table-200x60", size=(200, 60))
    await shoot(app(turn_game(catalog)), "card-menu", ("right", "right", "right", "enter"))
    await shoot(app(turn_game(catalog)), "combo", ("right", "space", "right", "space", "a"))
    await shoot(app(turn_game(catalog)), "steal", ("p", "s"))
    await shoot(app(villain_decision(catalog), players={"krillin": "Ann"}), "villain-turn")
    await shoot(app(turn_game(catalog), confirm_end_turn=False), "turn", ("e",))
    # Kame House chosen by keys: the wizard says what it does.
    kame_house = ("tab", "tab", "tab", "enter", "down", "down", "down", "enter")
    await shoot(DbdeckApp(catalog, start=SetupWizard(catalog, seed=2024)), "wizard", kame_house)
    await shoot(app(mid_game(catalog)), "inspector", ("right", "i"))
    await shoot(app(mid_game(catalog)), "rules", ("r", *"wish"))
    # Its third page, turned to by the arrow.
    await shoot(DbdeckApp(catalog, start=HowToPlay()), "how-to-play", ("right", "right"))
    await shoot(app(mid_game(catalog), hide_hands=True), "handoff")
    with tempfile.TemporaryDirectory() as folder:
        setup = Setup(
            characters=["goku", "krillin"], villain="freezer", difficulty="easy", seed=109
        )
        session = Session.start(
            DeckbuildingRules(catalog), setup, Path(folder), save_id="end", players=PLAYERS
        )
        rng = random.Random(109)
        while not session.match.game.over:
            session.apply(greedy(session.match.game, rng))
            while session.match.game.state.paused:
                session.resume_villain()
        session.close()
        resumed = Session.resume(DeckbuildingRules(catalog), Path(folder), "end")
        seating = Seating(players=PLAYERS, pace=0)
        await shoot(
            DbdeckApp(catalog, session=resumed, seating=seating, saves=Path(folder)), "summary"
        )
        resumed.close()
    glyphs.set_ascii(True)
    await shoot(app(mid_game(catalog)), "ascii")
    glyphs.set_ascii(False)


if __name__ == "__main__":
    asyncio.run(main())
