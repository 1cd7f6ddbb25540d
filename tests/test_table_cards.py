"""Touching the cards, played by keys and checked on the engine's state.

Buying from a focused market tile; a Combo built by selecting hand cards,
its foreseen damage equal to the damage dealt; every key that cannot act
says why in the engine's words; a card's menu shows what the rules forbid
now, disabled, with the reason; a resumed game shows its log; a finished
game shows its summary.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from tables import app_for, quiet_table, table_of, turn_game
from textual.app import App
from textual.content import Content
from textual.widgets import OptionList

from dbdeck.games.deckbuilding.bots import greedy
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.holders import VILLAIN, CharacterRef, MinionRef
from dbdeck.games.deckbuilding.engine.view import seat_view
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.games.deckbuilding.scenario import lay_table
from dbdeck.games.deckbuilding.tui.app import DbdeckApp
from dbdeck.games.deckbuilding.tui.dialogs import ComboDialog, DecisionDialog
from dbdeck.games.deckbuilding.tui.play import Seating, TableScreen
from dbdeck.games.deckbuilding.tui.summary import SummaryScreen
from dbdeck.games.deckbuilding.tui.widgets import HandBoard, MarketRows, TableLog
from dbdeck.saves import Session

__all__ = ["quiet_table"]

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def notes_of(app: App[Any]) -> list[str]:
    """The messages the app has shown."""
    return [n.message for n in app._notifications]


async def test_buying_from_a_focused_market_tile(catalog: Catalog) -> None:
    game = turn_game(catalog)
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("p")  # two Energy: Energy Arm (2) is affordable
        await pilot.pause()
        goku = game.state.character("goku")
        assert goku.energy == 2
        await pilot.press("b")  # the markets, on the first card Goku can buy
        await pilot.pause()
        table = table_of(pilot.app)
        rows = table.query_one(MarketRows)
        assert table.focused is rows
        item = rows.current()
        assert item is not None and item.where.startswith("market:")
        bought = game.name(item.uid)
        await pilot.press("enter")  # the tile's menu: buy it, or read it
        await pilot.pause()
        menu = pilot.app.screen
        assert isinstance(menu, DecisionDialog)
        assert menu.options[0].startswith(f"Buy {bought}")
        await pilot.press("down", "enter")
        await pilot.pause()
        assert bought in [game.name(u) for u in goku.discard]
        assert goku.energy < 2


async def test_a_forbidden_tile_says_why_and_cannot_be_bought(catalog: Catalog) -> None:
    game = turn_game(catalog)
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        table = table_of(pilot.app)
        rows = table.query_one(MarketRows)
        rows.focus()
        await pilot.pause()
        offered = table.view.markets[0].row[0]  # an Ally: Goku has 0 Energy
        assert not offered.buyable and offered.why_not
        await pilot.press("enter")
        await pilot.pause()
        menu = pilot.app.screen
        assert isinstance(menu, DecisionDialog)
        assert any(offered.why_not in line for line in menu.forbidden)
        line = table.query_one("#card-line").render()
        assert isinstance(line, Content) and offered.why_not in line.plain
        listing = menu.query_one(OptionList)
        for index in range(listing.option_count):  # nothing enabled buys it
            option = listing.get_option_at_index(index)
            assert option.disabled or not str(option.prompt).startswith("Buy")
        await pilot.press("escape")
        await pilot.pause()
        assert game.state.actions == 0


async def test_a_combo_built_in_the_hand_deals_the_damage_it_foresaw(catalog: Catalog) -> None:
    game = turn_game(catalog)
    lay_table(game, {"villain": {"minions": ["freezer-guard"]}})
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        table = table_of(pilot.app)
        hand = table.query_one(HandBoard)
        assert table.focused is hand
        # Sokidan, Punch and Kick, Tear Apart, Energy, Energy: select the two
        # Physical Techniques with Space; Space on Energy is refused.
        await pilot.press("right", "space", "right", "space", "right", "space")
        await pilot.pause()
        punch, tear = (u for u in game.state.character("goku").hand[1:3])
        assert hand.selected == {punch, tear}
        assert any("not a Physical Technique" in n for n in notes_of(pilot.app))
        await pilot.press("a")
        await pilot.pause()
        picker = pilot.app.screen
        assert isinstance(picker, DecisionDialog)
        # The Guard is a Guardian: aimed at Freezer, it takes the Combo.
        freezer = next(o for o in picker.options if o.startswith("Attack Freezer"))
        assert "the Guardian takes what is aimed at Freezer" in freezer
        guard = next(o for o in picker.options if o.startswith("Attack Guard"))
        foreseen = int(guard.split(" — ")[1].split(" ")[0])
        listing = picker.query_one(OptionList)
        listing.highlighted = picker.options.index(guard)
        await pilot.press("enter")
        await pilot.pause()
        [unit] = game.state.villain.minions
        assert unit.damage == foreseen == 2  # Punch and Kick 1 + Tear Apart 1, Guard Armor 0
        assert hand.selected == frozenset()


async def test_the_combo_dialog_shows_each_targets_damage(catalog: Catalog) -> None:
    game = turn_game(catalog)
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        dialog = pilot.app.screen
        assert isinstance(dialog, ComboDialog)
        await pilot.press("down", "space", "down", "space")
        await pilot.pause()
        targets = dialog.query_one("#targets", OptionList)
        shown = [str(targets.get_option_at_index(i).prompt) for i in range(targets.option_count)]
        assert shown == [
            "Freezer 50/50 — 1 damage to Freezer (2 before Armor and Damage Reduction)"
        ]
        await pilot.press("tab", "enter")  # nothing highlighted: no attack yet
        await pilot.pause()
        assert game.state.villain.damage == 0
        await pilot.press("down", "enter")
        await pilot.pause()
        assert game.state.villain.damage == 1


KEYS = {
    "a": "attack",
    "t": "prepare",
    "o": "boost",
    "s": "steal",
    "d": "buy-dragon-ball",
    "x": "exhaust",
    "y": "ability",
    "b": "buy",
}
"""The keys of action kinds, and their kind."""


async def test_every_key_that_cannot_act_says_why(catalog: Catalog) -> None:
    """A fresh game: Freezer has not arrived, nobody holds a Dragon Ball, no
    Technique is prepared, Goku has no Energy played."""
    game = Game.new(catalog, Setup(characters=["goku", "krillin"], villain="freezer", seed=3))
    lay_table(game, {"characters": {"goku": {"hand": ["energy", "punch-and-kick"]}}})
    game.state.character("goku").ability_tokens = 0
    goku = game.state.character("goku")
    goku.equipment[0].exhausted = True  # Flying Nimbus
    view = seat_view(game, 0)
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for key, kind in KEYS.items():
            reason = view.why(kind)
            assert reason, kind
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(pilot.app.screen, TableScreen), key
            assert reason in notes_of(pilot.app), (key, reason)
        words = " ".join(notes_of(pilot.app))
        assert "Freezer has not arrived" in words
        assert "Neither Freezer nor the Minions control a Dragon Ball" in words
        assert "No Energy Technique is prepared" in words
        assert "the cheapest card Goku may buy costs" in words
        assert game.state.actions == 0
        # Kinds without a key of their own say why on the card they would use.
        assert view.why("give-ball").startswith("Neither Goku nor their Allies control")
        assert "exhausted" in view.why("exhaust")


async def test_during_the_villains_turn_keys_say_whose_turn_it_is(catalog: Catalog) -> None:
    game = turn_game(catalog)
    game.state.turn_deck = ["1", "V1"]  # after Goku: the Villain
    game.state.character("goku").hand = []
    async with app_for(game, pace=30).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        assert game.state.paused
        for key in ("p", "a", "b", "e"):
            await pilot.press(key)
            await pilot.pause()
        assert notes_of(pilot.app).count("It is Freezer's turn.") == 4
        assert game.state.paused


async def test_a_cards_menu_shows_what_it_cannot_do_and_why(catalog: Catalog) -> None:
    game = turn_game(catalog)
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        # The fourth card: an Energy card. It can be played, not used as a
        # booster (nothing is prepared; a Basic Energy has no booster icon).
        await pilot.press("right", "right", "right", "enter")
        await pilot.pause()
        menu = pilot.app.screen
        assert isinstance(menu, DecisionDialog)
        assert menu.options[0] == "Play Energy (+1 Energy)"
        assert any(line.startswith("Boost:") for line in menu.forbidden), menu.forbidden
        await pilot.press("down", "enter")
        await pilot.pause()
        assert game.state.character("goku").energy == 1


async def test_a_resumed_game_shows_its_log(catalog: Catalog, tmp_path: Path) -> None:
    setup = Setup(characters=["goku"], villain="freezer", seed=5)
    session = Session.start(DeckbuildingRules(catalog), setup, tmp_path, save_id="story")
    rng = random.Random(5)
    for _ in range(30):
        session.apply(greedy(session.match.game, rng))
    said = [e.text for e in session.match.game.events]
    session.close()
    resumed = Session.resume(DeckbuildingRules(catalog), tmp_path, "story")
    app = DbdeckApp(catalog, session=resumed, seating=Seating(pace=0), saves=tmp_path)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        log = table_of(app).query_one(TableLog)
        shown = "\n".join(t.plain for t in log.entries)
        assert "Goku draws 5 cards." in shown  # the first turn, long before the save
        assert "Goku's turn." in shown
        assert said and said[-1].rstrip(".") in shown  # the last action before the save
        assert "The game goes on from here." in shown
        assert shown.count("Goku plays before the Villain arrives.") == 1
    resumed.close()


async def test_a_finished_game_shows_its_summary(catalog: Catalog, tmp_path: Path) -> None:
    setup = Setup(characters=["goku", "krillin"], villain="freezer", difficulty="easy", seed=109)
    session = Session.start(
        DeckbuildingRules(catalog), setup, tmp_path, save_id="end", players={"goku": "Ann"}
    )
    rng = random.Random(109)
    while not session.match.game.over:
        session.apply(greedy(session.match.game, rng))
        while session.match.game.state.paused:
            session.resume_villain()
    session.close()
    resumed = Session.resume(DeckbuildingRules(catalog), tmp_path, "end")
    app = DbdeckApp(
        catalog, session=resumed, seating=Seating(players={"goku": "Ann"}, pace=0), saves=tmp_path
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        summary = app.screen
        assert isinstance(summary, SummaryScreen)
        state = resumed.match.game.state
        winner = "The Characters win!" if state.winner == "players" else "Freezer wins."
        assert summary.headline().startswith(winner)
        assert summary.tally is not None
        dealt = summary.tally.characters["goku"].dealt + summary.tally.characters["krillin"].dealt
        assert dealt > 0 and summary.tally.characters["goku"].bought > 0
        if state.winner == "players":
            assert dealt >= 40  # Freezer's easy health, all of it dealt by the Characters
        await pilot.press("escape")  # back to the finished table
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        await pilot.press("G")  # the summary again, then on to the main menu
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        listing = app.screen.query_one(OptionList)
        assert listing.highlighted is None  # an Enter meant for the last action does nothing
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        await pilot.press("down", "down", "down", "enter")  # Main menu
        await pilot.pause()
        from dbdeck.games.deckbuilding.tui.app import MainMenu

        assert isinstance(app.screen, MainMenu)


async def test_a_steal_names_whom_it_takes_from(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With Freezer and a Minion holding balls, the Steal dialog offers each
    of them; the one chosen loses its ball first."""
    game = turn_game(catalog)
    lay_table(
        game,
        {
            "villain": {"dragon_balls": 2, "minions": ["freezer-guldo"]},
            "dragon_balls": {"m:freezer-guldo": 1},
        },
    )
    guldo = MinionRef(game.state.villain.minions[0].uid)
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("p")  # two Energy
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        dialog = pilot.app.screen
        assert isinstance(dialog, DecisionDialog)
        listing = dialog.query_one(OptionList)
        labels = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        assert any(
            label.startswith("Steal attempt with 1 die (1 Energy) from Guldo") for label in labels
        )
        assert any("from Freezer" in label for label in labels)
        index = next(i for i, label in enumerate(labels) if "2 dice (2 Energy) from Guldo" in label)
        listing.highlighted = index
        monkeypatch.setattr(game.rng, "randint", lambda a, b: 2)  # every die shows a ball
        await pilot.press("enter")
        await pilot.pause()
        assert game.state.balls.count(guldo) == 0
        assert game.state.balls.count(CharacterRef("goku")) == 2
        assert game.state.balls.count(VILLAIN) == 1


async def test_a_technique_with_one_free_slot_is_prepared_once_chosen(catalog: Catalog) -> None:
    """Among several Energy Techniques, the one chosen goes to its one free
    Time slot: no second question with a single answer."""
    game = Game.new(catalog, Setup(characters=["goku", "krillin"], villain="freezer", seed=3))
    lay_table(
        game,
        {
            "villain": {"arrived": True},  # a Technique prepared now has a target
            "characters": {"goku": {"hand": ["goku-kamehameha", "dodon-ray", "energy"]}},
        },
    )
    goku = game.state.character("goku")
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("t")
        await pilot.pause()
        dialog = pilot.app.screen
        assert isinstance(dialog, DecisionDialog)
        listing = dialog.query_one(OptionList)
        names = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        assert len(names) == 2 and "Kamehameha" in names[0]
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(pilot.app.screen, TableScreen)
        prepared = [p for p in goku.time_track if p is not None]
        assert [game.state.card_ids[p.uid] for p in prepared] == ["goku-kamehameha"]
        assert goku.time_track[1] is not None  # Time 2, its printed Time
