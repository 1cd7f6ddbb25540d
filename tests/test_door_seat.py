"""The app of a session at the SSH door (``door_seat.DoorApp``), headless
and in this process: the joined table over the door's connection, and no
way out of it (no menu, no new game, no screenshot on the host, no link in
the host's browser, no second connection).
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from table_clients import SETUP, Users

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.games.deckbuilding.tui.app import MainMenu
from dbdeck.games.deckbuilding.tui.door_seat import NOT_HERE, DoorApp
from dbdeck.games.deckbuilding.tui.summary import SummaryScreen
from dbdeck.games.deckbuilding.tui.widgets.choices import ChoiceList
from dbdeck.net.door_identity import DoorIdentities, DoorPlayer
from dbdeck.net.protocol import decode_server
from dbdeck.net.server import TableServer
from dbdeck.saves import Session


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("DBDECK_TABLES", str(tmp_path / "tables"))
    monkeypatch.chdir(tmp_path)


@pytest.fixture
async def door_app(catalog: Catalog, tmp_path: Path) -> AsyncIterator[tuple[TableServer, DoorApp]]:
    """Alice's table, and ann's app on a connection made as the door makes it."""
    session = Session.start(DeckbuildingRules(catalog), SETUP, tmp_path, save_id="game")
    identities = DoorIdentities(Users(), lambda user: user == "alice")
    server = TableServer(
        session,
        "club",
        socket_path=tmp_path / "club.sock",
        owner="alice",
        identify=identities.identify,
        admits=identities.admits,
        may_sit=identities.may_sit,
        announce=False,
    )
    await server.start()
    door_end, app_end = socket.socketpair()
    reader, writer = await asyncio.open_unix_connection(sock=door_end)
    identities.enter(writer, DoorPlayer("ann", "SHA256:abc"))
    serving = asyncio.get_running_loop().create_task(server.serve_door(reader, writer))
    app = DoorApp(app_end, name="ann", fingerprint="SHA256:abc", host="alice")
    yield server, app
    await server.close()
    serving.cancel()


async def _seated(app: DoorApp, pilot: object) -> None:
    for _ in range(200):
        if app.table is not None and app.table.is_mounted:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the table never opened")


async def test_the_door_app_sits_at_its_seat_and_greets_its_player(
    door_app: tuple[TableServer, DoorApp],
) -> None:
    server, app = door_app
    async with app.run_test(size=(120, 40)) as pilot:
        await _seated(app, pilot)
        assert app.greeting() == "You are ann (SSH key SHA256:abc) at alice's table club, seat 0."
        assert any(app.greeting() in n.message for n in app._notifications)
        assert app.where() == "ann · club · seat 0"
        assert [s.user for s in server.table.seats] == ["ssh:ann", ""]
        with pytest.raises(OSError, match="closed"):
            await app._connect()  # no second way to the table
        # The table closes: the app ends with its connection, no retry.
        await server.close()
        for _ in range(200):
            if app.failure:
                break
            await asyncio.sleep(0.02)
        assert app.failure == "the table closed the connection"
    assert app.farewell() == "the table closed the connection\n"


async def test_no_way_out_of_the_table(
    door_app: tuple[TableServer, DoorApp], tmp_path: Path
) -> None:
    _server, app = door_app
    async with app.run_test(size=(120, 40)) as pilot:
        await _seated(app, pilot)
        for choice in ("menu", "new", "replay"):
            app.after_game(choice)
            await pilot.pause()
            assert not any(isinstance(s, MainMenu) for s in app.screen_stack)
        assert sum(NOT_HERE in n.message for n in app._notifications) == 3
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Screenshot" not in titles and "Quit" in titles
        assert app.deliver_screenshot() is None
        app.open_url("https://example.org")
        await pilot.pause()
        assert list(tmp_path.glob("*.svg")) == []
        # The game's summary offers the table again, or leaving: nothing else.
        view = app.backend.view() if app.backend is not None else None
        assert view is not None
        app.push_screen(SummaryScreen(view, None, app.backend.seating))  # type: ignore[union-attr]
        await pilot.pause()
        options = app.screen.query_one(ChoiceList)
        ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
        assert ids == ["table", "quit"]
        app.after_game("quit")
        await pilot.pause()
    assert app.farewell() == (
        "You left alice's table club, seat 0: the seat is held. ssh again to come back.\n"
    )


async def test_seats_that_come_before_the_table_is_shown_wait_for_it(
    door_app: tuple[TableServer, DoorApp],
) -> None:
    """Three terminals joining at once: the seats arrive between the first
    view, which makes the table's screen, and the screen being shown."""
    server, app = door_app
    async with app.run_test(size=(120, 40)) as pilot:
        await _seated(app, pilot)
        view = decode_server(server._view_line(0))
        seats = server.seat_infos()
        away = [s.model_copy(update={"present": False}) if s.seat == 0 else s for s in seats]
        app.seats = away
        app.table = None
        app._view(view)  # a new table screen, not shown yet
        assert app.table is not None and not app.table.is_mounted
        app._seats(seats)  # ann "is back": said once the table is up
        await pilot.pause()
        assert app.is_running and app.return_code is None
