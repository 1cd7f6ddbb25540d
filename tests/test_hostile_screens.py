"""A hostile card set on every screen: every name and text holds Rich
markup (a link, styles, an unclosed tag, a lone ``[``), the players' names
too, and every screen and listing command shows it as written, with no
``MarkupError``, on a local table and on a joined one."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hostile_pack import LINK, MARK, hostile_catalog
from rich.text import Text
from screen_text import plain
from tables import table_of
from textual.app import App
from textual.content import Content
from textual.widgets import Button, DataTable, OptionList, RichLog, Static

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.games.deckbuilding.tui.app import DbdeckApp, SetupWizard
from dbdeck.games.deckbuilding.tui.howto import HowToPlay
from dbdeck.games.deckbuilding.tui.reference import CardBrowser, RulesScreen
from dbdeck.games.deckbuilding.tui.remote import JoinApp
from dbdeck.net.server import TableServer
from dbdeck.saves import Session
from dbdeck.tui.backend import Seating

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PLAYERS = {"goku": f"{MARK} Ann", "krillin": f"{MARK} Bob"}
BOARDS = ("#villain", "#hand", "#market-rows", "#char-goku", "#char-krillin", "#turn-order")
"""The table's boards, each naming cards or players."""
SETUP = Setup(characters=["goku", "krillin"], villain="freezer", location="kame-house", seed=3)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    """The shipped cards, every text marked up."""
    return hostile_catalog(tmp_path_factory.mktemp("hostile"))


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("DBDECK_TABLES", str(tmp_path / "tables"))
    monkeypatch.setenv("DBDECK_SAVES", str(tmp_path / "saves"))
    yield


def _text(shown: Any) -> str:
    """What Textual draws of ``shown``: a ``str`` is read as markup, as
    Textual reads it."""
    if isinstance(shown, str):
        return Content.from_markup(shown).plain
    return plain(shown)


def shown(app: App[Any]) -> str:
    """Everything every open screen draws, as plain text."""
    parts: list[str] = []
    for screen in app.screen_stack:
        for widget in screen.query("*"):
            if isinstance(widget, Static):
                parts.append(plain(widget.render()))
            elif isinstance(widget, Button):
                parts.append(_text(widget.label))
            elif isinstance(widget, OptionList):
                for i in range(widget.option_count):
                    parts.append(_text(widget.get_option_at_index(i).prompt))
            elif isinstance(widget, DataTable):
                for key in widget.rows:
                    for cell in widget.get_row(key):
                        parts.append(
                            Text.from_markup(cell).plain if isinstance(cell, str) else plain(cell)
                        )
            elif isinstance(widget, RichLog):
                parts += [line.text for line in widget.lines]
    return "\n".join(parts)


def assert_literal(app: App[Any], where: str) -> None:
    assert LINK in shown(app), f"{where}: the markup is not shown as written"


async def _open(pilot: Any, key: str, where: str) -> None:
    await pilot.press(key)
    await pilot.pause()
    assert_literal(pilot.app, where)
    await pilot.press("escape")
    await pilot.pause()


async def test_the_menus_and_reference_screens(hostile: Catalog) -> None:
    for start, where in (
        (None, "main menu"),
        (SetupWizard(hostile, seed=1), "wizard"),
        (RulesScreen(hostile), "rules reference"),
        (CardBrowser(hostile), "card browser"),
        (HowToPlay(), "how to play"),
    ):
        app = DbdeckApp(hostile) if start is None else DbdeckApp(hostile, start=start)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            if where in ("wizard", "rules reference", "card browser"):
                assert_literal(app, where)
            else:  # no data on these: drawn without a crash
                assert shown(app)


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
async def test_the_local_table(hostile: Catalog, size: tuple[int, int]) -> None:
    game = Game.new(hostile, SETUP)
    app = DbdeckApp(hostile, game, Seating(players=PLAYERS, pace=0))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for _ in range(3):  # past the turn banner and any hand-off
            if table_of(app) is app.screen:
                break
            assert_literal(app, "banner")
            await pilot.press("enter")
            await pilot.pause()
        assert_literal(app, "table")
        screen = table_of(app)
        for board in BOARDS:
            widget = screen.query_one(board)
            # A narrow board cuts long names: their start is shown as written.
            drawn = plain(widget.render())
            assert "[link=" in drawn, f"{board} at {size}: the markup is not shown as written"
        for key, where in (("question_mark", "help"), ("i", "inspector"), ("G", "summary")):
            await _open(pilot, key, where)
        await pilot.press("r")
        await pilot.pause()
        assert_literal(app, "rules from the table")
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        assert_literal(app, "cards from the table")


async def test_the_joined_table(hostile: Catalog, tmp_path: Path) -> None:
    session = Session.start(DeckbuildingRules(hostile), SETUP, tmp_path, save_id="game")
    server = TableServer(
        session,
        f"{MARK} club",
        socket_path=tmp_path / "club.sock",
        owner="alice",
        identify=lambda _writer: "alice",
        admits=lambda user: user == "alice",
        bot_delay=0.0,
        announce=False,
    )
    await server.start()
    try:
        joined = JoinApp(DeckbuildingRules(hostile), socket_path=server.socket_path, seat=0)
        async with joined.run_test(size=(160, 50)) as pilot:
            for _ in range(100):
                if joined.table is not None and joined.table.is_mounted:
                    break
                await pilot.pause(0.05)
            await pilot.pause(0.2)
            assert_literal(joined, "joined table")
            await _open(pilot, "i", "joined inspector")
    finally:
        await server.close()
        await asyncio.sleep(0)


def _hostile_pack(folder: Path, hostile_folder: Path) -> Path:
    """A pack of the hostile Allies under ids of their own (a pack adds to
    the shipped set, whose ids it may not take)."""
    import json

    allies = json.loads((hostile_folder / "market" / "allies.json").read_text("utf-8"))
    cards = allies["cards"] if isinstance(allies, dict) else allies
    for card in cards:
        card["id"] = f"{card['id']}-marked"
    (folder / "allies.json").write_text(json.dumps(allies), "utf-8")
    return folder


def test_every_listing_command_prints_the_markup_as_written(
    hostile: Catalog,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from hostile_pack import hostile_cards

    monkeypatch.setenv("COLUMNS", "400")  # a table's cells in one line each

    from dbdeck.cli import main

    marked = hostile_cards(tmp_path / "marked")
    (tmp_path / "pack").mkdir()
    pack = _hostile_pack(tmp_path / "pack", marked)
    printed: dict[str, str] = {}
    first = next(iter(json_ids(pack)))
    for name, argv in (
        ("cards validate", ["cards", "validate", "--pack", str(pack)]),
        ("cards list", ["cards", "list", "--pack", str(pack)]),
        ("cards show", ["cards", "show", "--pack", str(pack), first]),
    ):
        code = main(argv)
        out = capsys.readouterr()
        assert code == 0, f"{name}: {out.err}"
        printed[name] = out.out + out.err
    session = Session.start(DeckbuildingRules(hostile), SETUP, tmp_path / "saves", save_id="game")
    session.close()
    for name, argv in (
        ("saves", ["--saves", str(tmp_path / "saves"), "saves"]),
        ("log", ["--saves", str(tmp_path / "saves"), "log", "game"]),
    ):
        code = main(argv)
        out = capsys.readouterr()
        assert code == 0, f"{name}: {out.err}"
        printed[name] = out.out
    for name, text in printed.items():
        assert "\x1b" not in text, name
    assert LINK in printed["cards list"] and LINK in printed["cards show"]
    assert "Goku draws 5 cards" in printed["log"]


def json_ids(pack: Path) -> list[str]:
    """The ids of the pack's cards."""
    import json

    data = json.loads((pack / "allies.json").read_text("utf-8"))
    cards = data["cards"] if isinstance(data, dict) else data
    return [card["id"] for card in cards]


async def test_the_attack_dialog_and_a_decision(hostile: Catalog) -> None:
    from dbdeck.games.deckbuilding.scenario import lay_table

    game = Game.new(hostile, Setup(characters=["goku", "krillin"], villain="freezer", seed=5))
    lay_table(
        game,
        {
            "active": "goku",
            "turn_deck": ["2", "1"],
            "villain": {"arrived": True, "minions": []},
            "characters": {
                "goku": {"hand": ["sokidan", "punch-and-kick", "energy", "energy", "energy"]}
            },
        },
    )
    app = DbdeckApp(hostile, game, Seating(players=PLAYERS, pace=0))
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        assert app.screen is not table_of(app), "the attack dialog did not open"
        assert_literal(app, "attack dialog")
    decision = Game.new(hostile, Setup(characters=["krillin"], villain="freezer", seed=11))
    lay_table(
        decision,
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
    app = DbdeckApp(hostile, decision, Seating(players={"krillin": f"{MARK} Cy"}, pace=0))
    async with app.run_test(size=(160, 50)) as pilot:
        for _ in range(20):
            await pilot.pause(0.05)
            if app.screen is not table_of(app):
                break
        assert app.screen is not table_of(app), "no decision was asked"
        assert_literal(app, "decision")


async def test_the_hand_off_screen(hostile: Catalog) -> None:
    game = Game.new(hostile, SETUP)
    seating = Seating(players=PLAYERS, pace=0, hide_hands=True)
    app = DbdeckApp(hostile, game, seating)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        from dbdeck.games.deckbuilding.tui.dialogs import HandoffScreen

        assert isinstance(app.screen, HandoffScreen)
        assert_literal(app, "hand-off")


async def test_the_replay(hostile: Catalog, tmp_path: Path) -> None:
    import random

    from dbdeck.games.deckbuilding.bots import greedy
    from dbdeck.games.deckbuilding.tui.replay import ReplayScreen
    from dbdeck.saves import read_save
    from dbdeck.tui.local import ReplayBackend

    session = Session.start(DeckbuildingRules(hostile), SETUP, tmp_path)
    rng = random.Random(5)
    for _ in range(30):
        session.apply(greedy(session.match.game, rng))
    session.close()
    screen = ReplayScreen(
        ReplayBackend(DeckbuildingRules(hostile), read_save(tmp_path, session.id))
    )
    async with DbdeckApp(hostile, start=screen).run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        await pilot.press("end")
        await pilot.pause()
        assert_literal(pilot.app, "replay")
