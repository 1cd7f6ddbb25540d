"""Learning the game inside the app: How to play, the rules reference with
each Villain's rules and the coach's, the inspector's words (names, never
ids), the wizard's starting Ally, and the log's wording."""

from __future__ import annotations

import io
import random
import re
from typing import Any, cast

import pytest
from rich.console import Console
from tables import quiet_table
from textual.widgets import Input, OptionList, Select, Static

from dbdeck.games.deckbuilding import bots
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.view import log_lines
from dbdeck.games.deckbuilding.tui.app import DbdeckApp, MainMenu, SetupWizard
from dbdeck.games.deckbuilding.tui.howto import HOW_TO_PLAY, HowToPlay
from dbdeck.games.deckbuilding.tui.reference import RulesScreen
from dbdeck.games.deckbuilding.tui.widgets.card import card_picture

__all__ = ["quiet_table"]

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def drawn(renderable: object) -> str:
    # Drawn into memory: never onto the terminal running the tests.
    console = Console(file=io.StringIO(), width=200, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_the_log_reads_as_english(catalog: Catalog) -> None:
    """Seeded games against every Villain: no "(s)", no "1 dice", no full stop
    after "!!", and verbs that agree with the plural Villains."""
    seen: set[str] = set()
    for villain in ("freezer", "androids-17-18", "androids-19-20", "vegeta-nappa", "raditz"):
        for seed in range(3):
            game = Game.new(
                catalog, Setup(villain=villain, characters=["goku", "krillin"], seed=seed)
            )
            rng = random.Random(seed)
            while not game.over and game.state.actions < 400:
                events = game.apply(bots.greedy(game, rng))
                seen |= {line.text for line in log_lines(events, game, None)}
    assert seen
    for text in seen:
        assert "(s)" not in text and not re.search(r"\b1 dice\b", text), text
        assert "!!." not in text, text
        for plural in ("Androids 17 and 18", "Androids 19 and 20", "Vegeta and Nappa"):
            for verb in ("takes", "deals", "reveals", "attacks", "controls", "steals", "wins"):
                assert f"{plural} {verb} " not in text, text
    assert any(re.search(r"\bdraws \d+ cards\.", text) for text in seen)


def test_the_inspector_names_cards_never_by_id(catalog: Catalog) -> None:
    exclusive = next(
        c
        for c in catalog.cards.values()
        if getattr(getattr(c, "exclusive", None), "characters", None)
    )
    owner = cast(Any, exclusive).exclusive.characters[0]
    shown = drawn(card_picture(exclusive, catalog))
    assert re.search(rf"Exclusive to\s+{catalog.cards[owner].name}", shown), shown
    assert owner not in shown.replace(str(catalog.cards[owner].name), "")
    goku = drawn(card_picture(catalog.cards["goku"], catalog))
    assert "Punch and Kick" in goku and "punch-and-kick" not in goku
    assert "(goku)" not in goku


async def test_how_to_play_opens_from_the_menu_and_from_help(catalog: Catalog) -> None:
    app = DbdeckApp(catalog)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MainMenu)
        listing = app.screen.query_one(OptionList)
        listing.highlighted = next(
            i for i in range(listing.option_count) if listing.get_option_at_index(i).id == "howto"
        )
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HowToPlay)
        pages = []
        for _ in HOW_TO_PLAY:  # one section a page, turned with the arrow
            pages.append(drawn(app.screen.query_one("#howto-page", Static).content))
            await pilot.press("right")
            await pilot.pause()
        for (title, _body), page in zip(HOW_TO_PLAY, pages, strict=True):
            assert page.startswith(title)
        text = "".join(pages)
        for topic in ("Time Track", "PIERCING", "Villain's turn", "Steal", "Tab"):
            assert topic in text


async def test_the_rules_reference_finds_villain_rules(catalog: Catalog) -> None:
    app = DbdeckApp(catalog, start=RulesScreen(catalog))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press(*"freezer")
        await pilot.pause()
        shown = drawn(app.screen.query_one("#rules-text", Static).content)
        assert "Villain: Freezer (level 1)" in shown
        assert "Freezer Arrives!!" in shown and "Death effect:" in shown and "Victory:" in shown
        app.screen.query_one(Input).value = "coach"
        await pilot.pause()
        shown = drawn(app.screen.query_one("#rules-text", Static).content)
        assert "The coach (suggest key g)" in shown and "greedy bot" in shown


async def test_the_wizard_offers_a_starting_ally_only_where_the_rules_allow(
    catalog: Catalog,
) -> None:
    app = DbdeckApp(catalog, start=SetupWizard(catalog, seed=1))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        wizard = app.screen
        ally = wizard.query_one("#starting-ally", Select)
        assert not ally.display  # two Characters against Freezer
        wizard.query_one("#villain", Select).value = "broly"
        wizard.query_one("#char-2", Select).clear()
        await pilot.pause()
        assert ally.display  # solo against Broly, level 6
        ally.value = (
            "bulma-ally"
            if "bulma-ally" in catalog.cards
            else next(a.id for a in catalog.of_kind("ally"))
        )
        await pilot.pause()
        power = cast(Any, catalog.cards[str(ally.value)]).power
        levels = drawn(wizard.query_one("#levels", Static).content)
        assert f"power {power}" in levels  # the level line counts the Ally's power
        wizard.query_one("#char-2", Select).value = "krillin"
        await pilot.pause()
        assert not ally.display and ally.value == "none"
