"""The seating belongs to the game: a resumed hidden-hands game stays hidden,
the Wildcard's chosen Character is handed the keyboard, and the hand-off
screen has its own keys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from screen_text import widget_texts
from tables import quiet_table, table_of
from textual.widgets import OptionList

from dbdeck.cli import build_parser
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.actions import Choose, EndTurn
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.match import DeckbuildingMatch, DeckbuildingRules
from dbdeck.games.deckbuilding.scenario import lay_table
from dbdeck.games.deckbuilding.tui.app import DbdeckApp, MainMenu
from dbdeck.games.deckbuilding.tui.dialogs import DecisionDialog, HandoffScreen, HelpScreen
from dbdeck.games.deckbuilding.tui.play import TableScreen
from dbdeck.games.deckbuilding.tui.widgets import KeyBar
from dbdeck.saves import SaveError, Session
from dbdeck.seating import MAX_PACE, Seating
from dbdeck.tui.local import LocalBackend

__all__ = ["quiet_table"]  # the fixture, used by every test here

ANN_BOB = {"goku": "Ann", "krillin": "Bob"}


def hidden_session(catalog: Catalog, folder: Path) -> Session[DeckbuildingMatch]:
    """Ann (Goku) and Bob (Krillin) with hidden hands, slow Villain."""
    seating = Seating(players=dict(ANN_BOB), hide_hands=True, pace=1.5, confirm_end_turn=False)
    setup = Setup(characters=["goku", "krillin"], villain="freezer", seed=11, seats=[0, 1])
    return Session.start(DeckbuildingRules(catalog), setup, folder, seating=seating)


def test_a_save_keeps_the_seating_and_a_resume_brings_it_back(
    catalog: Catalog, tmp_path: Path
) -> None:
    session = hidden_session(catalog, tmp_path)
    session.close()
    data = json.loads((tmp_path / f"{session.id}.json").read_text())
    assert data["players"] == ANN_BOB
    assert data["seating"] == {"hide_hands": True, "pace": 1.5, "confirm_end_turn": False}
    resumed = Session.resume(DeckbuildingRules(catalog), tmp_path, session.id)
    assert resumed.seating == Seating(
        players=dict(ANN_BOB), hide_hands=True, pace=1.5, confirm_end_turn=False
    )
    resumed.close()


def test_a_save_from_before_seatings_were_kept_opens_as_it_was_played(
    catalog: Catalog, tmp_path: Path
) -> None:
    session = hidden_session(catalog, tmp_path)
    session.close()
    path = tmp_path / f"{session.id}.json"
    data = json.loads(path.read_text())
    del data["seating"]
    path.write_text(json.dumps(data))
    resumed = Session.resume(DeckbuildingRules(catalog), tmp_path, session.id)
    assert resumed.seating == Seating(players=dict(ANN_BOB))
    resumed.close()


@pytest.mark.parametrize(
    "seating",
    [
        {"hide_hands": "yes"},
        {"pace": 1e9},
        {"pace": -1},
        {"confirm_end_turn": 1},
        {"hide_hands": True, "spy": True},
        [],
    ],
)
def test_a_save_whose_seating_is_not_a_seating_is_refused(
    catalog: Catalog, tmp_path: Path, seating: object
) -> None:
    session = hidden_session(catalog, tmp_path)
    session.close()
    path = tmp_path / f"{session.id}.json"
    data = json.loads(path.read_text())
    data["seating"] = seating
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError, match="seating"):
        Session.resume(DeckbuildingRules(catalog), tmp_path, session.id)


def test_a_command_line_changes_the_seating_only_when_it_says_so() -> None:
    kept = Seating(players=dict(ANN_BOB), hide_hands=True, pace=0.8)
    parser = build_parser()
    plain = parser.parse_args(["play", "--resume", "x"])
    assert plain.hide_hands is None and plain.pace is None
    assert kept.changed(hide_hands=plain.hide_hands, pace=plain.pace) == kept
    shown = parser.parse_args(["continue", "--show-hands"])
    assert kept.changed(hide_hands=shown.hide_hands).hide_hands is False
    assert parser.parse_args(["continue", "--hide-hands"]).hide_hands is True
    with pytest.raises(SystemExit):
        parser.parse_args(["play", "--resume", "x", "--hide-hands", "--show-hands"])
    assert kept.changed(pace=1e6).pace == MAX_PACE


async def test_a_resumed_hidden_game_opens_on_a_hand_off(catalog: Catalog, tmp_path: Path) -> None:
    """`dbdeck continue`, `play --resume` and the menu's Continue all open
    the session with the seating it holds."""
    session = hidden_session(catalog, tmp_path)
    game = session.match.game
    active = game.state.active
    secrets = {game.name(u) for u in game.state.character(active).hand} - {"Energy"}
    session.close()
    resumed = Session.resume(DeckbuildingRules(catalog), tmp_path, session.id)
    app = DbdeckApp(catalog, session=resumed, seating=resumed.seating, saves=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        text = widget_texts(app)
        assert not [name for name in secrets if name in text and name not in _market(app)]
    resumed.close()


async def test_the_menus_continue_keeps_hands_hidden(catalog: Catalog, tmp_path: Path) -> None:
    session = hidden_session(catalog, tmp_path)
    session.close()
    app = DbdeckApp(catalog, saves=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MainMenu)
        await pilot.press("down", "down", "enter")  # Continue (nothing highlighted at first)
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen), app.screen
        backend = table_of(app).backend
        assert isinstance(backend, LocalBackend) and backend.keyboard is None
        if app.session is not None:
            app.session.close()


def _market(app: DbdeckApp) -> str:
    """The names face up in the markets (a name there is no secret)."""
    view = table_of(app).view
    return " ".join(m.card.name for market in view.markets for m in market.row)


def wildcard_game(catalog: Catalog) -> Game:
    """Ann's Goku has Ki Wave on his Time Track's first slot and ends his
    turn; the Wildcard comes next, and then Bob's and Cat's turns."""
    game = Game.new(
        catalog,
        Setup(characters=["goku", "krillin", "yamcha"], villain="freezer", seed=3, seats=[0, 1, 2]),
    )
    lay_table(
        game,
        {
            "active": "goku",
            "turn_deck": ["W", "2", "3"],
            "villain": {"arrived": True, "minions": ["freezer-guldo"]},
            "characters": {
                "goku": {
                    "hand": ["kikoho", "energy", "energy"],
                    "time_track": ["ki-wave", "", "", ""],
                }
            },
        },
    )
    return game


def test_after_the_wildcard_the_chosen_players_hand_waits_for_the_hand_off(
    catalog: Catalog,
) -> None:
    """The players choose Goku for the Wildcard: Ki Wave then asks for its
    target, and Goku's hand waits for Ann's hand-off (the whole table chose,
    so anyone may be at the keyboard)."""
    game = wildcard_game(catalog)
    seating = Seating(
        players={"goku": "Ann", "krillin": "Bob", "yamcha": "Cat"},
        hide_hands=True,
        pace=0,
        confirm_end_turn=False,
    )
    backend = LocalBackend(DeckbuildingMatch(game), seating)
    assert backend.handoff() is not None
    backend.take_keyboard()
    assert backend.keyboard == 0 and backend.view().hand("goku") is not None
    assert backend.send(EndTurn()).accepted
    assert game.actor() == "players"  # the Wildcard: the whole table chooses
    assert backend.keyboard is None and backend.view().hands == ()
    decision = backend.view().decision
    assert decision is not None
    goku = [o.label for o in decision.options].index("Goku")
    assert backend.send(Choose(option=goku)).accepted
    assert game.state.pending is not None and "Ki Wave" in game.state.pending.prompt
    handoff = backend.handoff()
    assert handoff is not None and handoff.player == "Ann"
    assert backend.view().hands == () and backend.legal_actions() == []
    backend.take_keyboard()
    assert backend.view().hand("goku") is not None and backend.legal_actions()


async def test_the_hand_off_screen_shows_its_own_keys_helps_and_quits(catalog: Catalog) -> None:
    game = wildcard_game(catalog)
    seating = Seating(
        players={"goku": "Ann", "krillin": "Bob", "yamcha": "Cat"}, hide_hands=True, pace=0
    )
    app = DbdeckApp(catalog, game, seating)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        keys = table_of(app).query_one(KeyBar).keys
        assert keys == HandoffScreen.KEYS
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)  # Escape does not pass it
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0 and not app.is_running
    assert game.state.actions == 0


async def test_showing_hidden_hands_is_asked_and_kept(catalog: Catalog, tmp_path: Path) -> None:
    session = hidden_session(catalog, tmp_path)
    app = DbdeckApp(catalog, session=session, seating=session.seating, saves=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # the first player takes the keyboard
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app.screen, DecisionDialog)
        await pilot.press("escape")  # a stray h changes nothing
        await pilot.pause()
        assert session.seating.hide_hands
        await pilot.press("h")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, DecisionDialog) and dialog.options[0] == "Keep them hidden"
        dialog.query_one(OptionList).highlighted = dialog.options.index("Show the hands")
        await pilot.press("enter")
        await pilot.pause()
        assert not session.seating.hide_hands
    kept = json.loads((tmp_path / f"{session.id}.json").read_text())["seating"]
    session.close()
    assert kept["hide_hands"] is False
