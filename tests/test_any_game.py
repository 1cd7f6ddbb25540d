"""A second game on the one table layer: the toy (``tests/toy_game``),
listed in ``dbdeck.games`` for these tests only, is continued, listed,
logged, replayed, hosted and joined by the very commands and app the
deckbuilding game uses, which never name it. A save of a game this dbdeck
does not know is refused in words and left where it is.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from toy_game import GAME_ID, OPENER, SCREEN
from toy_game.match import ROLES, Draw, Play, ToyMatch, ToyRules, ToySetup
from toy_game.screen import ToyTable

import dbdeck.games
from dbdeck.cli import build_parser, main
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.game import Setup
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.games.deckbuilding.tui.app import DbdeckApp, MainMenu
from dbdeck.games.deckbuilding.tui.remote import JoinApp
from dbdeck.net.server import TableServer
from dbdeck.saves import Session
from dbdeck.tabletop import registry
from dbdeck.tabletop.game import GameRules, IllegalMove, Match
from dbdeck.tui.local import LocalBackend, ReplayBackend

SETUP = {"seed": 7, "players": ["Ann", "Bob"], "deck": 8, "hand": 2}

Script = Callable[[DbdeckApp, Any], Awaitable[None]]


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[ToyRules]:
    """The toy listed in ``dbdeck.games`` (its rules and its table screen)
    for one test; the registry forgets what it learnt of it afterwards."""
    monkeypatch.setitem(dbdeck.games.GAMES, GAME_ID, OPENER)
    monkeypatch.setitem(dbdeck.games.TABLE_SCREENS, GAME_ID, SCREEN)
    registry.forget()
    yield ToyRules()
    registry.forget()


def _rules() -> GameRules[Match]:
    return ToyRules()  # mypy checks that the toy is a ``GameRules``


def _toy_save(folder: Path, save_id: str = "toy-game", moves: int = 4) -> Session[ToyMatch]:
    """A toy game saved in ``folder`` after ``moves`` random legal moves."""
    rules = ToyRules()
    session = Session.start(
        rules,
        rules.read_setup(SETUP),
        folder,
        save_id=save_id,
        players={"a": "Ann", "b": "Bob"},
    )
    rng = random.Random(3)
    for _ in range(moves):
        session.apply(session.match.bot_move(rng))
    session.close()
    return session


def _headless(monkeypatch: pytest.MonkeyPatch, script: Script) -> list[DbdeckApp]:
    """Every app a command opens runs headless, driven by ``script``
    (``App.run_test``); the apps run are listed."""
    ran: list[DbdeckApp] = []

    def run(app: DbdeckApp, **_: Any) -> None:
        async def drive() -> None:
            async with app.run_test(size=(100, 30)) as pilot:
                await pilot.pause()
                await script(app, pilot)

        ran.append(app)
        asyncio.run(drive())

    monkeypatch.setattr(DbdeckApp, "run", run)
    return ran


# --- the toy on the protocol -----------------------------------------------------------------


def test_the_toy_plays_through_the_protocol_alone() -> None:
    """Random games from the offers alone: what is offered is accepted, an
    illegal move changes nothing, a clone and a JSON round trip go on
    identically, and a seat sees the other hand as a count."""
    rules = _rules()
    rng = random.Random(2)
    for seed in range(5):
        match = rules.new(rules.read_setup({**SETUP, "seed": seed}))
        while not match.over:
            [acting] = match.asked().roles
            seat = next(r.seat for r in match.roles() if r.id == acting)
            other = next(r for r in match.roles() if r.id != acting)
            assert match.offers(frozenset({other.id})) == []
            view = match.view(seat, frozenset({acting})).to_json()
            hidden = next(h for h in view["hands"] if h["role"] == other.id)
            assert hidden["cards"] is None and hidden["count"] >= 0
            offers = match.offers(frozenset({acting}))
            offer = rng.choice(offers)
            assert match.check(offer.action) is None, offer.label
            before = match.fingerprint()
            with pytest.raises(IllegalMove):
                match.apply(Play(card=60))  # no such card in a deck of 8
            assert match.fingerprint() == before
            twin, text = match.clone(), json.dumps(match.to_json())
            events = match.apply(offer.action)
            if isinstance(offer.action, Draw):
                assert match.reveals(events) is not None
            twin.apply(offer.action)
            reread = rules.match_from_json(json.loads(text))
            reread.apply(offer.action)
            assert twin.fingerprint() == reread.fingerprint() == match.fingerprint()
            assert rules.read_action(rules.action_json(offer.action)) == offer.action
        assert match.result() is not None


def test_a_toy_action_has_exactly_its_kinds_fields() -> None:
    rules = ToyRules()
    assert rules.read_action({"type": "play", "card": 3}) == Play(card=3)
    for wrong in ({"type": "draw", "card": 3}, {"type": "play"}, {"type": "play", "card": "3"}):
        with pytest.raises(ValueError):
            rules.read_action(wrong)


# --- saves, continue, log, replay --------------------------------------------------------------


def test_saves_lists_every_game_with_its_title(
    toy: ToyRules, catalog: Catalog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deckbuilding = Session.start(
        DeckbuildingRules(catalog),
        Setup(characters=["goku"], villain="freezer", seed=3),
        tmp_path,
        save_id="freezer",
    )
    deckbuilding.close()
    _toy_save(tmp_path)
    assert main(["--saves", str(tmp_path), "saves"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert len(rows) == 2
    [toy_row] = [r for r in rows if r.startswith("toy-game  ")]
    [other] = [r for r in rows if r.startswith("freezer  ")]
    assert toy_row.startswith("toy-game  Ann vs Bob  turn ")
    assert toy_row.endswith("(Toy: Number Cards)")
    assert other.startswith("freezer  Freezer vs Goku  turn 0")
    assert other.endswith("(Dragon Ball: Deckbuilding Game)")


def test_log_prints_the_toy_log_in_its_own_words(
    toy: ToyRules, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = _toy_save(tmp_path, moves=6)
    assert main(["--saves", str(tmp_path), "log", "toy-game"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "dbdeck game toy-game (seed 7)"
    # The deal is before the first turn; each "Turn N" line begins turn N.
    assert lines[1] == "[setup   ] The deck of 8 cards is shuffled; Ann and Bob draw 2 each."
    assert lines[2] == "[turn   1] Turn 1: Ann plays."
    for line in lines[2:]:
        if "Turn " in line and ": " in line:
            number = int(line.split("Turn ")[1].split(":")[0])
            assert line.startswith(f"[turn {number:>3}]")
    # The owner's log is the whole table's: no drawn card is named.
    assert any("draws a card." in line for line in lines)
    assert main(["--saves", str(tmp_path), "log", "toy-game", "--format", "json"]) == 0
    log = json.loads(capsys.readouterr().out)
    assert log["game"] == GAME_ID and log["setup"]["seed"] == 7
    assert len(log["log"]) == len(session.actions) + 1
    assert log["log"][0]["action"] is None
    assert [e["action"] for e in log["log"][1:]] == session.actions


def test_continue_opens_the_toy_in_its_own_screen(
    toy: ToyRules, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = _toy_save(tmp_path)
    played: list[int] = []

    async def play_one(app: DbdeckApp, pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, ToyTable)
        backend = screen.backend
        assert isinstance(backend, LocalBackend) and backend.session is not None
        # The log of the game so far is rebuilt from its save.
        assert any("Turn 1: Ann plays." in line for line in screen.lines)
        await pilot.press("down", "enter")  # the first offer
        await pilot.pause()
        played.append(len(backend.session.actions))
        await pilot.press("q")

    ran = _headless(monkeypatch, play_one)
    assert main(["--saves", str(tmp_path), "continue"]) == 0
    assert len(ran) == 1 and played == [len(session.actions) + 1]
    # Every action is saved: the game goes on from there.
    again = Session.resume(ToyRules(), tmp_path, "toy-game")
    assert len(again.actions) == played[0]
    again.close()


def test_play_resume_opens_a_save_of_any_game(
    toy: ToyRules, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _toy_save(tmp_path)
    screens: list[type] = []

    async def look(app: DbdeckApp, pilot: Any) -> None:
        screens.append(type(app.screen))
        await pilot.press("q")

    _headless(monkeypatch, look)
    assert main(["--saves", str(tmp_path), "play", "--resume", "toy-game"]) == 0
    assert screens == [ToyTable]


async def test_the_menus_continue_names_the_game_and_opens_its_screen(
    toy: ToyRules, catalog: Catalog, tmp_path: Path
) -> None:
    _toy_save(tmp_path)
    app = DbdeckApp(catalog, saves=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MainMenu)
        menu = app.screen.query_one("#menu-options")
        prompt = str(menu.get_option("continue").prompt)  # type: ignore[attr-defined]
        assert prompt.startswith("Continue: Ann vs Bob, turn ")
        assert prompt.endswith("(Toy: Number Cards)")
        await pilot.press("down", "down", "enter")  # Continue (nothing highlighted at first)
        await pilot.pause()
        assert isinstance(app.screen, ToyTable)
        assert app.session is not None and app.session.rules.game_id == GAME_ID
    assert app.session is None or app.session._lock is None


def test_replay_steps_through_a_toy_game(
    toy: ToyRules, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _toy_save(tmp_path, moves=8)
    seen: list[tuple[int, int]] = []

    async def step(app: DbdeckApp, pilot: Any) -> None:
        screen = app.screen
        assert isinstance(screen, ToyTable)
        replay = screen.backend
        assert isinstance(replay, ReplayBackend) and len(replay.frames) > 2
        assert screen.offers == []  # nothing is played in a replay
        seen.append((replay.index, screen.view.turn))
        await pilot.press("right")
        seen.append((replay.index, screen.view.turn))
        await pilot.press("right", "left")
        seen.append((replay.index, screen.view.turn))
        await pilot.press("q")

    _headless(monkeypatch, step)
    assert main(["--saves", str(tmp_path), "replay", "toy-game"]) == 0
    assert [index for index, _ in seen] == [0, 1, 1]
    assert seen[0][1] < seen[1][1]
    # A replay is its owner's record: every hand shows.
    frame = ReplayBackend(ToyRules(), json.loads((tmp_path / "toy-game.json").read_text()))
    assert all(hand.cards is not None for hand in frame.view().hands)


# --- a game this dbdeck does not know -----------------------------------------------------------


def test_a_save_of_an_unknown_game_is_refused_in_words_and_left_in_place(
    toy: ToyRules, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _toy_save(tmp_path)
    path = tmp_path / "toy-game.json"
    data = json.loads(path.read_text())
    data["game"] = "chess"
    text = json.dumps(data)
    path.write_text(text)
    for argv in (
        ["log", "toy-game"],
        ["replay", "toy-game"],
        ["play", "--resume", "toy-game"],
        ["host", "--resume", "toy-game"],
    ):
        assert main(["--saves", str(tmp_path), *argv]) in (1, 2), argv
        said = capsys.readouterr().err
        assert "'chess', which this dbdeck does not know" in said, (argv, said)
        assert "Traceback" not in said and len(said.strip().splitlines()) == 1, said
    assert main(["--saves", str(tmp_path), "continue"]) == 1
    said = capsys.readouterr().err
    assert "'chess', which this dbdeck does not know" in said and "No game to continue" in said
    assert main(["--saves", str(tmp_path), "saves"]) == 0
    assert "(chess: not a game this dbdeck plays)" in capsys.readouterr().out
    # Left as it was: never moved aside, never rewritten.
    assert path.read_text() == text
    assert not list(tmp_path.glob("*.corrupt-*"))
    # Only its backup left: the words name the backup, the file that was read.
    path.rename(tmp_path / "toy-game.bak")
    argv = ["--saves", str(tmp_path), "play", "--resume", "toy-game", "--from-backup"]
    assert main(argv) == 1
    said = capsys.readouterr().err
    assert f"{tmp_path / 'toy-game.bak'} is a save of the game 'chess'" in said, said


def test_a_game_without_a_table_screen_is_said_to_have_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game on its rules alone (served, logged) but with no table screen
    listed yet: its saves are listed and logged, and a table of it is not
    opened, in words."""
    monkeypatch.setitem(dbdeck.games.GAMES, GAME_ID, OPENER)
    registry.forget()
    _toy_save(tmp_path)
    assert main(["--saves", str(tmp_path), "log", "toy-game"]) == 0
    assert main(["--saves", str(tmp_path), "saves"]) == 0
    assert "(Toy: Number Cards)" in capsys.readouterr().out
    for argv in (["play", "--resume", "toy-game"], ["replay", "toy-game"], ["continue"]):
        assert main(["--saves", str(tmp_path), *argv]) == 1
        said = capsys.readouterr().err
        assert "no table screen for the game 'toy'" in said, (argv, said)
    registry.forget()


# --- a new table from a setup file ---------------------------------------------------------------


def test_host_sets_up_any_game_from_a_file(
    toy: ToyRules, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from dbdeck.cli import _host_setup

    saves = tmp_path / "saves"
    bad = tmp_path / "bad.json"
    for content, problem in (
        ('{"seed": 1, "colour": "red"}', "colour: not a toy setup's key"),
        ('{"seed": "1"}', "seed: a whole number"),
        ("[1, 2]", "a setup is a JSON object"),
        ('{"seed": 1,', "not JSON"),
    ):
        bad.write_text(content)
        argv = ["--saves", str(saves), "host", "--game", "toy", "--setup", str(bad)]
        assert main(argv) == 2, content
        said = capsys.readouterr().err
        assert said.startswith(f"cannot host this game: --setup {bad}: "), said
        assert problem in said and "Traceback" not in said
        assert len(said.strip().splitlines()) == 1
    assert main(["--saves", str(saves), "host", "--game", "toy"]) == 2
    assert "give --setup FILE" in capsys.readouterr().err
    missing = tmp_path / "missing.json"
    assert main(["--saves", str(saves), "host", "--game", "toy", "--setup", str(missing)]) == 2
    assert f"--setup {missing}: cannot be read" in capsys.readouterr().err
    # No save was started by any of these.
    assert not saves.exists() or not list(saves.iterdir())
    good = tmp_path / "good.json"
    good.write_text(json.dumps(SETUP))
    args = build_parser().parse_args(["host", "--game", "toy", "--setup", str(good)])
    assert _host_setup(args, ToyRules()) == ToySetup(7, ("Ann", "Bob"), 8, 2, (0, 1))


def test_host_setup_of_the_deckbuilding_game_from_a_file(catalog: Catalog, tmp_path: Path) -> None:
    from dbdeck.cli import _host_setup

    rules = DeckbuildingRules(catalog)
    good = tmp_path / "setup.json"
    good.write_text(json.dumps({"villain": "raditz", "characters": ["goku"], "seed": 4}))
    args = build_parser().parse_args(["host", "--setup", str(good)])
    assert _host_setup(args, rules).villain == "raditz"
    both = build_parser().parse_args(["host", "--setup", str(good), "--villain", "freezer"])
    with pytest.raises(ValueError, match="without --villain"):
        _host_setup(both, rules)


# --- a shared table of the toy -------------------------------------------------------------------


async def _until(condition: Callable[[], bool], pilot: Any, what: str, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.05)


@pytest.mark.parametrize("by_entry", [False, True])
async def test_a_toy_table_is_hosted_and_joined_end_to_end(
    toy: ToyRules, tmp_path: Path, by_entry: bool
) -> None:
    """Joined by its socket alone, the app opens the game the welcome
    names; by its entry, the game the entry names. Either way the toy's
    own screen shows the seat's view and its moves reach the host."""
    rules = ToyRules()
    session = Session.start(rules, rules.read_setup(SETUP), tmp_path, save_id="toy-table")
    server = TableServer(session, "toys", socket_path=tmp_path / "toys.sock", bot_delay=0)
    await server.start()
    try:
        app = JoinApp(rules if by_entry else None, socket_path=tmp_path / "toys.sock", seat=0)
        async with app.run_test(size=(100, 30)) as pilot:
            await _until(lambda: isinstance(app.table, ToyTable), pilot, "the toy's table")
            table = app.table
            assert isinstance(table, ToyTable) and app.rules is not None
            assert app.rules.game_id == GAME_ID and app.seat == 0
            await _until(lambda: bool(table.offers), pilot, "the first offers")
            view = table.view
            mine, theirs = view.hands
            assert mine.cards is not None and len(mine.cards) == 2
            assert theirs.cards is None and theirs.count == 2  # Bob's hand: a count
            play = next(o for o in table.offers if isinstance(o.action, Play))
            assert table.take(play)
            await _until(lambda: len(server.session.actions) == 1, pilot, "the move at the host")
            await _until(lambda: table.view.active == ROLES[1], pilot, "Bob's turn")
            assert table.offers == []  # not Ann's turn
            assert any("Ann plays" in line for line in table.lines)
    finally:
        await server.close()
    assert server.session.actions == [rules.action_json(play.action)]


async def test_a_client_of_another_game_is_still_refused_at_hello(
    toy: ToyRules, catalog: Catalog, tmp_path: Path
) -> None:
    rules = ToyRules()
    session = Session.start(rules, rules.read_setup(SETUP), tmp_path, save_id="toy-table")
    server = TableServer(session, "toys", socket_path=tmp_path / "toys.sock", bot_delay=0)
    await server.start()
    try:
        app = JoinApp(DeckbuildingRules(catalog), socket_path=tmp_path / "toys.sock", seat=0)
        async with app.run_test(size=(100, 30)) as pilot:
            await _until(lambda: bool(app.failure), pilot, "the refusal")
        assert "this table plays Toy: Number Cards (toy), not deckbuilding" in app.failure
    finally:
        await server.close()


class _Terminal:
    """A stdin that is a terminal, for ``dbdeck join`` (which needs one)."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("game", "opened"), [("toy", "toy"), ("chess", None)])
def test_join_opens_the_game_its_tables_entry_names(
    toy: ToyRules,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    game: str,
    opened: str | None,
) -> None:
    import os

    from dbdeck.cli import _join_rules
    from dbdeck.net import commands
    from dbdeck.net.listing import TableEntry, user_name, write_entry

    monkeypatch.setenv("DBDECK_TABLES", str(tmp_path / "tables"))
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))
    monkeypatch.setattr("sys.stdin", _Terminal())
    listening = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)  # a table to reach
    listening.bind(str(tmp_path / "toys.sock"))
    listening.listen()
    entry = TableEntry("toys", str(tmp_path / "toys.sock"), user_name(), os.getpid(), game=game)
    write_entry(entry)
    made: list[GameRules[Any] | None] = []

    class App:
        failure = ""

        def run(self) -> None:
            pass

    def joined_app(rules: GameRules[Any] | None, **where: Any) -> App:
        made.append(rules)
        return App()

    args = build_parser().parse_args(["join", "--table", "toys"])
    code = commands.cmd_join(args, _join_rules, joined_app)
    if opened is None:
        assert code == 1 and made == []
        said = capsys.readouterr().err
        assert said.startswith("cannot join this table: the game 'chess', which this dbdeck")
    else:
        assert code == 0 and [r.game_id if r else None for r in made] == [opened]
    # By its socket alone, the game is the one the welcome will name.
    made.clear()
    args = build_parser().parse_args(["join", "--socket", str(tmp_path / "toys.sock")])
    monkeypatch.setattr(commands, "socket_refusal", lambda path: "")
    assert commands.cmd_join(args, _join_rules, joined_app) == 0
    assert made == [None]
    listening.close()


def test_undo_takes_back_the_bots_moves_with_the_players_move_before_them(
    toy: ToyRules, tmp_path: Path
) -> None:
    """At a table where the bot plays one seat, an undo goes back past the
    bot's moves to the player's last move (the bot would otherwise make
    them again at once); nothing revealed stands in the way here."""
    from dbdeck.seating import Seating
    from dbdeck.tui.local import LocalBackend

    setup = toy.read_setup({"seed": 5, "players": ["Ann", "Bob"], "deck": 10, "hand": 3})
    session = Session.start(toy, setup, tmp_path, seating=Seating(bots=frozenset({"b"})))
    table = LocalBackend(session)
    before = session.match.fingerprint()
    card = session.match.hands[0][0]
    assert table.send(Play(card=card)).accepted  # a play ends Ann's turn: no draw, no reveal
    assert table.bot_turn() is not None and table.legal_actions() == []
    table.play_bots()  # Bob's hand is full: the bot plays, revealing nothing
    assert len(session.actions) == 2 and table.bot_turn() is None
    outcome = table.undo()
    assert outcome.accepted, outcome.message
    assert session.match.fingerprint() == before
    assert table.bot_turn() is None and table.legal_actions()
