"""The Textual table: a whole turn played by keys, dialogs, compact layout,
snapshots of the main screens, and the installed command in a real pty."""

from __future__ import annotations

import json
import os
import pty
import random
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tables import app_for, choose, quiet_table, table_of, turn_game
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Input, OptionList, Select

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.panels import Offer
from dbdeck.games.deckbuilding.engine.view import seat_view
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.games.deckbuilding.scenario import lay_table
from dbdeck.games.deckbuilding.tui.app import DbdeckApp, SetupWizard
from dbdeck.games.deckbuilding.tui.dialogs import DecisionDialog, InspectorScreen, TurnBanner
from dbdeck.games.deckbuilding.tui.play import Seating, TableScreen
from dbdeck.games.deckbuilding.tui.widgets import ActionPanel, TableLog

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

__all__ = ["quiet_table"]  # the fixture, used by every test here


async def test_a_whole_turn_by_keys(catalog: Catalog) -> None:
    game = turn_game(catalog)
    async with app_for(game).run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        goku = game.state.character("goku")
        await pilot.press("p")  # play every Energy card
        await pilot.pause()
        assert goku.energy == 2 and len(goku.hand) == 3
        await choose(pilot, "Buy Energy Arm")
        assert "energy-arm" in [game.state.card_ids[u] for u in goku.discard]
        assert goku.energy == 0
        await pilot.press("t")  # one Technique, one free slot: prepared without a question
        await pilot.pause()
        assert isinstance(pilot.app.screen, TableScreen)
        assert goku.time_track[1] is not None
        # The Combo dialog: tick both Physical Techniques, then the target.
        await pilot.press("a")
        await pilot.pause()
        await pilot.press("down", "space", "down", "space", "tab", "down", "enter")
        await pilot.pause()
        assert game.state.villain.damage == 1  # 1 + 1 against Armor 1
        await pilot.press("s")  # no Steal possible: refused with a reason, nothing opens
        await pilot.pause()
        assert isinstance(pilot.app.screen, TableScreen)
        await pilot.press("e")
        await pilot.pause()
        assert game.state.active == "krillin"
        log = table_of(pilot.app).query_one("#log", TableLog)
        assert any("Combo" in str(line) for line in log.lines)


async def test_refused_keys_say_why(catalog: Catalog) -> None:
    game = turn_game(catalog)
    async with app_for(game).run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        await pilot.press("a")  # no Physical attack possible? There is: the dialog opens.
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        game.state.character("goku").hand = []
        pilot.app.screen.refresh_table()  # type: ignore[attr-defined]
        await pilot.press("p")
        await pilot.pause()
        notes = [n.message for n in pilot.app._notifications]
        assert "There is no Energy card in Goku's hand." in notes


async def test_villain_decision_opens_a_dialog(catalog: Catalog) -> None:
    game = Game.new(catalog, Setup(characters=["krillin"], villain="freezer", seed=11))
    lay_table(
        game,
        {
            "active": "villain",
            "turn_deck": ["1"],
            "villain": {"arrived": True, "minions": [], "deck": ["freezer-crushing-grip"]},
            "characters": {"krillin": {"allies": ["mai-ally"]}},
        },
    )
    async with app_for(game).run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        assert isinstance(pilot.app.screen, DecisionDialog)
        await pilot.press("down", "down", "enter")  # nothing highlighted first; Mai takes it
        await pilot.pause()
        assert game.state.character("krillin").allies == []
        assert game.state.pending is None


async def test_inspector_and_compact_layout(catalog: Catalog) -> None:
    game = turn_game(catalog)
    async with app_for(game).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, TableScreen)
        assert screen.has_class("compact") and screen.layout_size == "narrow"
        await pilot.press("2")
        assert screen.query_one("#markets").has_class("shown")
        assert screen.focused is screen.query_one("#market-rows")
        await pilot.press("i")  # the card under the markets' cursor: Allies' first
        await pilot.pause()
        inspector = pilot.app.screen
        assert isinstance(inspector, InspectorScreen)
        assert inspector.card.id == screen.view.markets[0].row[0].card.card
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("1", "right", "i")  # the hand's second card: Punch and Kick
        await pilot.pause()
        inspector = pilot.app.screen
        assert isinstance(inspector, InspectorScreen) and inspector.card.id == "punch-and-kick"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.resize_terminal(160, 50)
        await pilot.pause()
        assert not screen.has_class("compact")
        await pilot.resize_terminal(40, 12)  # tiny terminals never crash
        await pilot.pause()


async def test_wizard_starts_a_game(catalog: Catalog) -> None:
    app = DbdeckApp(catalog)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")  # New game (the menu opens on nothing)
        await pilot.pause()
        assert isinstance(pilot.app.screen, SetupWizard)
        pilot.app.screen.query_one("#seed").value = "77"  # type: ignore[attr-defined]
        await pilot.click("#start")
        await pilot.pause()
        table = pilot.app.screen
        assert isinstance(table, TableScreen)
        game = table.backend.match.game  # type: ignore[attr-defined]
        assert game.state.seed == 77
        assert [c.id for c in game.state.characters] == ["goku", "krillin"]


async def test_wizard_plays_a_villains_scenario_card(catalog: Catalog) -> None:
    """Choosing A Different Future seats its Characters, whatever their levels."""
    app = DbdeckApp(catalog)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")  # New game (the menu opens on nothing)
        await pilot.pause()
        wizard = pilot.app.screen
        assert isinstance(wizard, SetupWizard)
        wizard.query_one("#villain", Select).value = "androids-17-18"
        await pilot.pause()
        variant = wizard.query_one("#variant", Select)
        # Setting a value that is not among the options raises: the list followed the Villain.
        variant.value = "androids-17-18-a-different-future"
        await pilot.pause()
        seated = [wizard.query_one(f"#char-{seat}", Select).value for seat in range(1, 5)]
        assert seated[:2] == ["gohan-ss2", "master-roshi"] and seated[2:] == [Select.NULL] * 2
        assert "whatever their levels" in str(wizard.query_one("#levels").render())
        wizard.query_one("#seed", Input).value = "77"
        await pilot.click("#start")
        await pilot.pause()
        # The table opens; a first decision of the game may open above it.
        (table,) = [s for s in pilot.app.screen_stack if isinstance(s, TableScreen)]
        game = table.backend.match.game  # type: ignore[attr-defined]
        assert game.state.seed == 77
        assert game.state.variant == "androids-17-18-a-different-future"
        assert game.state.villain.tokens.get("despair") == 2


# --- the installed command in a pseudo-terminal ----------------------------------------------


def test_installed_play_command_draws_the_table(tmp_path: Path) -> None:
    command = shutil.which("dbdeck", path=str(Path(sys.executable).parent))
    assert command, "the dbdeck command is installed next to the interpreter"
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env.update(TERM="xterm-256color", COLUMNS="160", LINES="50")
    main, child = pty.openpty()
    import fcntl
    import struct
    import termios

    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 160, 0, 0))
    process = subprocess.Popen(
        [
            command,
            "play",
            "--villain",
            "freezer",
            "--characters",
            "goku,krillin",
            "--seed",
            "3",
            "--pace",
            "0",
        ],
        stdin=child,
        stdout=child,
        stderr=child,
        env=env,
        cwd=tmp_path,
        close_fds=True,
    )
    os.close(child)
    seen = b""
    deadline = time.monotonic() + 30
    try:
        while time.monotonic() < deadline and b"end the turn (e)" not in seen:
            ready, _, _ = select.select([main], [], [], 0.5)
            if ready:
                try:
                    seen += os.read(main, 65536)
                except OSError:
                    break
        assert b"Freezer" in seen and b"end the turn (e)" in seen
        os.write(main, b"q")
        # Keep draining the terminal: a full pty buffer would block the app.
        deadline = time.monotonic() + 20
        while process.poll() is None and time.monotonic() < deadline:
            if select.select([main], [], [], 0.2)[0]:
                try:
                    os.read(main, 65536)
                except OSError:
                    break
        assert process.wait(timeout=5) == 0
    finally:
        if process.poll() is None:
            process.kill()
        os.close(main)


async def test_villain_turn_unfolds_step_by_step(catalog: Catalog) -> None:
    game = turn_game(catalog)
    game.state.turn_deck = ["1", "V1"]  # after Goku: the Villain, then Goku
    # A long first pause, so that a loaded machine still sees it; then short ones.
    async with app_for(game, pace=2, confirm_end_turn=False).run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        assert game.state.paused  # the Villain's turn stops after a step that showed something
        prompt = str(pilot.app.screen.query_one("#prompt").render())
        assert "is playing" in prompt
        pilot.app.screen.seating.pace = 0.05  # type: ignore[attr-defined]
        for _ in range(100):
            if not game.state.paused:
                break
            await pilot.pause(0.1)
        assert not game.state.paused and game.state.active == "goku"


async def test_space_shows_the_rest_of_the_villain_turn(catalog: Catalog) -> None:
    game = turn_game(catalog)
    game.state.turn_deck = ["1", "V1"]
    async with app_for(game, pace=30, confirm_end_turn=False).run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        assert game.state.paused
        await pilot.press("space")
        await pilot.pause()
        assert not game.state.paused and game.state.active == "goku"


async def test_a_whole_game_against_freezer_by_keys(catalog: Catalog) -> None:
    """Two Characters hot-seat, every move made at the table until the game
    ends. The moves are the greedy bot's, highlighted in the action list (or
    a dialog) and applied by Enter's own action (``select``): the same path
    a key takes, without the pilot's per-key pause, which would make this
    test last minutes (the turn test above presses real keys)."""
    from dbdeck.games.deckbuilding.bots import greedy

    game = Game.new(
        catalog,
        Setup(characters=["goku", "krillin"], villain="freezer", difficulty="easy", seed=109),
    )
    rng = random.Random(109)
    app = DbdeckApp(catalog, game, Seating(players={"goku": "Ann", "krillin": "Bob"}, pace=0))
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        picking: Offer | None = None
        for _ in range(6000):
            if game.over:
                break
            screen = app.screen
            if isinstance(screen, TurnBanner):  # another player's turn: read, then Enter
                screen.action_ready()
                await pilot.pause()
                continue
            if isinstance(screen, DecisionDialog) and not screen.for_decision:
                if screen.title_text.startswith("End ") or screen.options[-1].endswith(
                    " all the same"
                ):
                    # Confirmed: the end of a turn with something left, a wasted move.
                    screen.dismiss(1)
                else:  # a line of several actions: the wanted one is chosen
                    assert picking is not None
                    listing = screen.query_one(OptionList)
                    listing.highlighted = next(
                        i
                        for i in range(listing.option_count)
                        if str(listing.get_option_at_index(i).prompt).startswith(picking.label)
                    )
                    listing.action_select()
                    picking = None
                await pilot.pause()
                continue
            wanted = greedy(game, rng)
            if game.state.pending is not None:
                assert isinstance(screen, DecisionDialog) and screen.for_decision
                listing = screen.query_one(OptionList)
                listing.highlighted = wanted.option
                listing.action_select()
            else:
                assert isinstance(screen, TableScreen)
                actions = screen.query_one(ActionPanel)
                offer = next(o for o in screen.offers if o.action == wanted)
                index = actions.index_of(offer)
                assert index is not None, offer.label
                picking = offer
                actions.focus()
                actions.highlighted = index
                actions.action_select()
            await pilot.pause()
        assert game.over, "the game did not end"
        await pilot.pause()
        prompt = str(table_of(app).query_one("#prompt").render())
        assert "win" in prompt
        from dbdeck.games.deckbuilding.tui.summary import SummaryScreen

        summary = app.screen
        assert isinstance(summary, SummaryScreen)  # the game ends on its summary
        assert summary.headline().startswith(
            "The Characters win!" if game.state.winner == "players" else "Freezer wins."
        )
        assert summary.tally is not None
        assert sum(c.bought for c in summary.tally.characters.values()) > 0


async def test_table_saves_every_action_and_undoes(catalog: Catalog, tmp_path: Path) -> None:
    from dbdeck.saves import Session

    session = Session.start(
        DeckbuildingRules(catalog), Setup(characters=["goku"], villain="freezer", seed=5), tmp_path
    )
    app = DbdeckApp(catalog, session=session, seating=Seating(pace=0), saves=tmp_path)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen)
        energy = next(o.action for o in table.offers if o.action.type == "play-energy")
        table.play(energy)
        await pilot.pause()
        saved = json.loads((tmp_path / f"{session.id}.json").read_text())
        assert len(saved["actions"]) == 1
        assert table.view.character("goku").energy == 1  # type: ignore[union-attr]
        await pilot.press("u")
        await pilot.pause()
        assert table.view.character("goku").energy == 0  # type: ignore[union-attr]
        assert json.loads((tmp_path / f"{session.id}.json").read_text())["actions"] == []
        await pilot.press("u")  # nothing left: the reason is shown, nothing changes
        await pilot.pause()
        assert any("Nothing to undo" in n.message for n in app._notifications)
    session.close()


async def test_an_unexpected_error_never_shows_a_traceback(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dbdeck.games.deckbuilding.engine.actions import play_energy
    from dbdeck.saves import Session

    session = Session.start(
        DeckbuildingRules(catalog), Setup(characters=["goku"], villain="freezer", seed=5), tmp_path
    )
    before = session.match.game.fingerprint()
    app = DbdeckApp(catalog, session=session, seating=Seating(pace=0), saves=tmp_path)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()

        def broken(*_: object) -> None:
            raise RuntimeError("a bug in the rules")

        monkeypatch.setattr(play_energy, "perform", broken)
        await pilot.press("p")
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen)
        assert any("reloaded from its save" in n.message for n in app._notifications)
        reports = list(tmp_path.glob("crash-*.txt"))
        assert len(reports) == 1 and "a bug in the rules" in reports[0].read_text()
        backend = table.backend
        assert backend.match.game.fingerprint() == before  # type: ignore[attr-defined]
        assert app.session is backend.session  # type: ignore[attr-defined]
    app.session.close()


async def test_replay_steps_through_turns(catalog: Catalog, tmp_path: Path) -> None:
    from dbdeck.games.deckbuilding.bots import greedy
    from dbdeck.games.deckbuilding.tui.replay import ReplayScreen
    from dbdeck.saves import Session, read_save
    from dbdeck.tui.local import ReplayBackend

    session = Session.start(
        DeckbuildingRules(catalog), Setup(characters=["goku"], villain="freezer", seed=5), tmp_path
    )
    rng = random.Random(5)
    for _ in range(40):
        session.apply(greedy(session.match.game, rng))
    session.close()
    screen = ReplayScreen(
        ReplayBackend(DeckbuildingRules(catalog), read_save(tmp_path, session.id))
    )
    async with DbdeckApp(catalog, start=screen).run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        frames = [view for view, _ in screen.replay.frames]
        versions = [view.version for view in frames]
        assert versions == sorted(versions) and len(frames) > 3
        assert screen.view == frames[0]
        await pilot.press("right", "right")
        await pilot.pause()
        assert screen.view == frames[2]
        await pilot.press("left")
        await pilot.pause()
        assert screen.view == frames[1]
        await pilot.press("end")
        await pilot.pause()
        assert screen.view == seat_view(session.match.game, None, every_hand=True)
        assert len(screen.view.hands) == 1  # a replay is its owner's: every hand shows


async def test_continue_offers_the_backup_of_a_corrupt_save(
    catalog: Catalog, tmp_path: Path
) -> None:
    from dbdeck.games.deckbuilding.bots import greedy
    from dbdeck.saves import Session

    session = Session.start(
        DeckbuildingRules(catalog), Setup(characters=["goku"], villain="freezer", seed=5), tmp_path
    )
    rng = random.Random(1)
    for _ in range(3):
        session.apply(greedy(session.match.game, rng))
    session.close()
    (tmp_path / f"{session.id}.json").write_text('{"format": "dbdeck-save", "vers')
    app = DbdeckApp(catalog, saves=tmp_path)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        await pilot.press("down", "down", "enter")  # Continue (nothing highlighted at first)
        await pilot.pause()
        assert isinstance(app.screen, DecisionDialog)
        assert list(tmp_path.glob("*.corrupt-*.json"))  # moved aside, not overwritten
        await pilot.press("down", "enter")  # load the backup
        await pilot.pause()
        assert any(isinstance(s, TableScreen) for s in app.screen_stack)
        assert app.session is not None and len(app.session.actions) == 2
    app.session.close()


class Broken(Screen[None]):
    """A screen that fails as it is drawn: an error of the interface itself."""

    def compose(self) -> ComposeResult:
        raise RuntimeError("a widget broke")
        yield


def test_fatal_errors_write_a_report_not_a_traceback(
    catalog: Catalog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    app = DbdeckApp(catalog, saves=tmp_path, start=Broken())
    app.run(headless=True)
    assert app.return_code == 1
    [report] = tmp_path.glob("crash-*.txt")
    assert "a widget broke" in report.read_text()
    said = capsys.readouterr().err
    assert "Crash report" in said and str(report) in said and "Traceback" not in said
    assert "saved" not in said  # nothing is claimed that is not known


def test_several_enemy_boards_name_their_turn_cards_and_market_damage(catalog: Catalog) -> None:
    """The Androids' turn-order cards read as the Android they activate, and an
    Ally of the market shows the damage the Androids dealt it."""
    game = Game.new(catalog, Setup(characters=["goku"], villain="androids-17-18", seed=4))
    game.state.turn_discard = ["V3"]
    assert seat_view(game, 0).turn_order.revealed == ("Android 17 and Android 18",)
    ally = game.state.markets["allies"].row[0]
    game.state.markets["allies"].damage[ally] = 2
    allies = seat_view(game, 0).market("allies")
    assert allies is not None and allies.row[0].damage == 2

    game = Game.new(catalog, Setup(characters=["goku"], villain="androids-19-20", seed=4))
    game.state.turn_discard = ["V2"]
    assert seat_view(game, 0).turn_order.revealed == ("Android 20",)
