"""A player who leaves a shared table, and a host who closes it, are told
plainly: the seat's board and the prompt say "away", the host's console
logs departures, and a closed table is said once, its state in the prompt."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import pytest
from screen_text import plain
from table_clients import Seat, Users, start
from textual.widgets import Static

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.games.deckbuilding.tui.dialogs import DecisionDialog
from dbdeck.games.deckbuilding.tui.remote import JoinApp
from dbdeck.games.deckbuilding.tui.shared_table import _seat_words
from dbdeck.games.deckbuilding.tui.widgets import CharacterBoard
from dbdeck.net.protocol import SeatInfo


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("DBDECK_TABLES", str(tmp_path / "tables"))


async def _until(condition: Any, pilot: Any, what: str, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.05)


def _prompt(app: JoinApp) -> str:
    assert app.table is not None
    return plain(app.table.query_one("#prompt", Static).content)


def _notes(app: JoinApp) -> list[str]:
    return [n.message for n in app._notifications]


async def test_a_player_who_leaves_is_shown_away_everywhere(
    catalog: Catalog, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="dbdeck.server")
    users = Users()
    server = await start(catalog, tmp_path, users)
    try:
        # bob plays Goku, whose turn comes first; alice (the host) Krillin.
        bob = await Seat.join(server, users, "bob", seat=0)
        users.next.append("alice")
        app = JoinApp(DeckbuildingRules(catalog), socket_path=server.socket_path, seat=1)
        async with app.run_test(size=(120, 40)) as pilot:
            await _until(lambda: app.table is not None and app.table.is_mounted, pilot, "the view")
            assert app.table is not None
            watcher = await Seat.join(server, users, "carol", spectate=True)
            await _until(lambda: "Waiting for bob — Goku" in _prompt(app), pilot, "Goku's turn")

            await bob.client.close()
            await _until(lambda: "(away)" in _prompt(app), pilot, "bob away")
            assert "Waiting for bob (away) — Goku" in _prompt(app)
            board = app.table.query_one("#char-goku", CharacterBoard)
            assert "AWAY" in str(board.border_title)
            assert "AWAY" in plain(board.render())
            assert any("bob (seat 0) left the table: Goku waits" in n for n in _notes(app))
            # The host's seat dialog says who is away.
            await pilot.press("H")
            await _until(lambda: isinstance(app.screen, DecisionDialog), pilot, "the dialog")
            dialog = app.screen
            assert isinstance(dialog, DecisionDialog)
            assert dialog.prompt.startswith("Away: bob (seat 0).")
            assert "Goku → seat 0 (bob, away)" in dialog.options
            await pilot.press("escape")

            back = await Seat.join(server, users, "bob", seat=0)
            await _until(lambda: "(away)" not in _prompt(app), pilot, "bob back")
            assert "AWAY" not in str(board.border_title)
            assert "bob (seat 0) is back." in _notes(app)
            await back.client.close()
            await watcher.client.close()
            await pilot.pause(0.3)
    finally:
        await server.close()
    lines = [r.getMessage() for r in caplog.records]
    assert "bob joined seat 0 (Goku)" in lines
    assert "bob left seat 0 (Goku): the seat is held" in lines
    assert "carol joined as a spectator" in lines
    assert "carol left as a spectator" in lines
    assert not any("seat None" in line for line in lines)


def test_a_seat_says_who_holds_it() -> None:
    assert _seat_words(SeatInfo(seat=1, characters=[], user="", present=False)) == "free"
    assert _seat_words(SeatInfo(seat=1, characters=[], user="bob", present=True)) == "bob"
    assert _seat_words(SeatInfo(seat=1, characters=[], user="bob", present=False)) == "bob, away"


async def test_a_closed_table_is_said_once_and_its_state_shows_in_the_prompt(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("dbdeck.games.deckbuilding.tui.remote.RETRY_SECONDS", 0.1)
    users = Users()
    server = await start(catalog, tmp_path, users)
    app = JoinApp(DeckbuildingRules(catalog), socket_path=server.socket_path, seat=0)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await _until(lambda: app.table is not None and app.table.is_mounted, pilot, "the view")
            assert app.table is not None and app.table.offers
            await server.close()
            await _until(lambda: "tried 5×" in _prompt(app), pilot, "five tries")
            assert "The host closed the table; waiting for it to come back" in _prompt(app)
            # One toast for the loss, none for each try.
            connection = [n for n in app._notifications if n.title == "Connection"]
            assert len(connection) == 1, [n.message for n in connection]
            # Nothing is offered meanwhile.
            assert app.table.offers == []
            # The host serves the table again: the players are back.
            server = await start(catalog, tmp_path, users, resume=True)
            # The table's first view and the reconnection's toast come in
            # either order: wait for both.
            await _until(
                lambda: "waiting" not in _prompt(app) and "Back at the table." in _notes(app),
                pilot,
                "the table again",
            )
            assert app.table.offers
    finally:
        await server.close()
