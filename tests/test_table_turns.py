"""No turn is lost by accident: played by keys, checked on the engine's state.

Ending a turn with something left asks first (and can stop asking); after a
dialog nothing is highlighted, so a stray Enter plays nothing; another
player's turn announces itself and takes no key until read; a question
whose answer cannot matter is not asked.
"""

from __future__ import annotations

import random

import pytest
from tables import app_for, quiet_table, table_of, turn_game
from textual.widgets import OptionList

from dbdeck.games.deckbuilding.bots import greedy
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.actions import Action
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.preview import moot_answer
from dbdeck.games.deckbuilding.scenario import lay_table
from dbdeck.games.deckbuilding.tui.dialogs import DecisionDialog, TurnBanner
from dbdeck.games.deckbuilding.tui.play import TableScreen
from dbdeck.tui.settings import load_settings

__all__ = ["quiet_table"]

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def test_ending_a_turn_with_energy_left_asks_first(catalog: Catalog) -> None:
    game = turn_game(catalog)
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("p")  # two Energy played, nothing bought
        await pilot.pause()
        goku = game.state.character("goku")
        assert goku.energy == 2
        played = game.state.actions
        await pilot.press("e")
        await pilot.pause()
        dialog = pilot.app.screen
        assert isinstance(dialog, DecisionDialog) and not dialog.for_decision
        assert "2 Energy unspent" in dialog.prompt and "Sokidan" in dialog.prompt
        await pilot.press("enter")  # nothing highlighted: Enter answers nothing
        await pilot.pause()
        assert isinstance(pilot.app.screen, DecisionDialog)
        await pilot.press("down", "enter")  # the first answer keeps playing
        await pilot.pause()
        assert isinstance(pilot.app.screen, TableScreen)
        assert game.state.actions == played and game.state.active == "goku"
        await pilot.press("e", "escape")  # Escape keeps playing too
        await pilot.pause()
        assert game.state.actions == played and game.state.active == "goku"
        await pilot.press("e")
        await pilot.pause()
        await pilot.press("down", "down", "enter")  # End the turn
        await pilot.pause()
        assert game.state.active == "krillin"
        assert load_settings().confirm_end_turn  # still asked next time


async def test_energy_that_nothing_could_spend_is_not_worth_asking(catalog: Catalog) -> None:
    """With every market row empty and no Dragon Ball to steal or buy, the
    Energy left would buy nothing: the turn ends without the question."""
    game = turn_game(catalog)
    empty: dict[str, list[str]] = {
        m: [] for m in ("allies", "techniques", "energy", "equipment", "training")
    }
    lay_table(game, {"markets": empty, "sixth": [], "characters": {"goku": {"hand": ["energy"]}}})
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        goku = game.state.character("goku")
        assert goku.energy >= 1
        assert not any(a.type in ("buy", "buy-dragon-ball", "steal") for a in game.legal_actions())
        await pilot.press("e")
        await pilot.pause()
        assert not isinstance(pilot.app.screen, DecisionDialog)
        assert game.state.active == "krillin"


async def test_the_question_can_be_turned_off(catalog: Catalog) -> None:
    game = turn_game(catalog)
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        await pilot.press("down", "down", "down", "enter")  # End the turn, and stop asking
        await pilot.pause()
        assert game.state.active == "krillin"
    assert not load_settings().confirm_end_turn
    game = turn_game(catalog)  # a new table remembers
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        assert game.state.active == "krillin"


async def test_with_nothing_left_the_turn_ends_at_once(catalog: Catalog) -> None:
    game = turn_game(catalog)
    game.state.character("goku").hand = []
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        assert game.state.active == "krillin"


async def test_after_a_dialog_a_stray_enter_plays_nothing(catalog: Catalog) -> None:
    game = turn_game(catalog)
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        table = table_of(pilot.app)
        listing = table.query_one("#action-list", OptionList)
        await pilot.press("t")  # prepare Sokidan: one Technique, one slot, no question
        await pilot.pause()
        assert game.state.actions == 1
        assert listing.highlighted is None
        listing.focus()
        await pilot.press("enter", "enter")  # one Enter too many, then another
        await pilot.pause()
        assert game.state.actions == 1
        await pilot.press("a", "escape")  # a dialog opened and closed
        await pilot.pause()
        listing.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert game.state.actions == 1 and listing.highlighted is None


async def test_another_players_turn_announces_itself(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Far longer than the keys below take, however slow the machine: the
    # moment passing is then simulated (the banner's timer is checked below).
    monkeypatch.setattr(TurnBanner, "arm_seconds", 60)
    game = turn_game(catalog)
    async with app_for(game, confirm_end_turn=False).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        assert game.state.active == "krillin"
        banner = pilot.app.screen
        assert isinstance(banner, TurnBanner)
        assert "Krillin" in banner.title_text
        played = game.state.actions
        await pilot.press("e", "p", "enter")  # keys meant for the last turn: none acts
        await pilot.pause()
        assert pilot.app.screen is banner and game.state.actions == played
        assert isinstance(banner, TurnBanner) and not banner.armed
        banner.armed = True  # its moment has passed
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(pilot.app.screen, TableScreen)
        await pilot.press("p")
        await pilot.pause()
        assert game.state.actions > played  # now the keys play Krillin's turn


async def test_the_same_players_next_turn_is_not_held_up(catalog: Catalog) -> None:
    game = turn_game(catalog)
    async with app_for(game, confirm_end_turn=False, players={}).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        assert game.state.active == "krillin"
        assert isinstance(pilot.app.screen, TableScreen)


def _to_a_moot_question(catalog: Catalog) -> tuple[Game, Action]:
    """A greedy game against Freezer up to the action after which the engine
    asks "Who drops a Dragon Ball?" of two enemies holding none; that action."""
    setup = Setup(characters=["goku", "krillin"], villain="freezer", seed=0)
    game = Game.new(catalog, setup)
    rng = random.Random(0)
    played: list[Action] = []
    while not game.over and len(played) < 400:
        action = greedy(game, rng)
        twin = game.clone()
        twin.apply(action)
        pending = twin.state.pending
        if pending is not None and "drops a Dragon Ball" in pending.prompt:
            assert moot_answer(twin) is not None
            return game, action
        game.apply(action)
        played.append(action)
    raise AssertionError("no moot question in this game")


async def test_a_question_whose_answer_cannot_matter_is_not_asked(catalog: Catalog) -> None:
    game, action = _to_a_moot_question(catalog)
    actor = game.actor()
    players = {c.id: "Ann" for c in game.state.characters}
    async with app_for(game, players=players).run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        table = table_of(pilot.app)
        assert actor is not None
        before = game.state.actions
        if game.state.pending is not None:  # the action answers a dialog already open
            dialog = pilot.app.screen
            assert isinstance(dialog, DecisionDialog) and action.option is not None
            listing = dialog.query_one(OptionList)
            listing.highlighted = action.option
            await pilot.press("enter")
        else:
            table.play(action)
        await pilot.pause()
        assert not isinstance(pilot.app.screen, DecisionDialog)
        assert game.state.actions == before + 2  # the action and its unasked answer
        assert game.state.pending is None or "drops" not in game.state.pending.prompt
        lines = table.query_one("#log").lines  # type: ignore[attr-defined]
        log = " ".join(" ".join(line.text for line in lines).split())
        assert "Not asked, as only one answer matters: Who drops a Dragon Ball?" in log


async def test_a_turn_banner_takes_enter_once_its_moment_has_passed(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(TurnBanner, "arm_seconds", 0.05)
    game = turn_game(catalog)
    async with app_for(game, confirm_end_turn=False).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause(1.0)  # well past the moment
        banner = pilot.app.screen
        assert isinstance(banner, TurnBanner) and banner.armed
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(pilot.app.screen, TableScreen)
