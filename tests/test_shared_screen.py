"""One table screen, two backends: a joined table draws exactly what the
local table draws for the same seat view."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from screen_text import plain
from textual.widgets import OptionList, Static

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.panels import TableView
from dbdeck.games.deckbuilding.engine.tally import CharacterTally, Tally
from dbdeck.games.deckbuilding.engine.view import seat_view
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.games.deckbuilding.tui.app import DbdeckApp
from dbdeck.games.deckbuilding.tui.play import TableScreen
from dbdeck.games.deckbuilding.tui.remote import JoinApp
from dbdeck.games.deckbuilding.tui.shared_table import shared_keys
from dbdeck.games.deckbuilding.tui.widgets import KeyBar
from dbdeck.net.server import TableServer
from dbdeck.saves import Session
from dbdeck.tui.backend import Seating
from dbdeck.tui.joined import RemoteBackend

SETUP = Setup(characters=["goku", "krillin"], villain="freezer", difficulty="easy", seed=11)

DRAWN = (
    "#villain",
    "#turn-order",
    "#hand",
    "#market-rows",
    "#prompt",
    "#char-goku",
    "#char-krillin",
)
"""The widgets compared: every board element, the prompt and the action list."""


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("DBDECK_TABLES", str(tmp_path / "tables"))


def drawn(screen: TableScreen) -> dict[str, str]:
    """What the table shows, widget by widget, as plain text."""
    texts = {key: plain(screen.query_one(key, Static).content) for key in DRAWN}
    listing = screen.query_one("#action-list", OptionList)
    texts["actions"] = "\n".join(
        plain(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)
    )
    return texts


async def _wait(condition: Any, pilot: Any, what: str) -> None:
    for _ in range(100):
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@contextlib.asynccontextmanager
async def served(catalog: Catalog, tmp_path: Path, user: str) -> AsyncIterator[TableServer]:
    """alice's table of ``SETUP`` on a socket, where every connection is
    ``user``'s (alice, the owner, or a guest seated by the test)."""
    session = Session.start(DeckbuildingRules(catalog), SETUP, tmp_path, save_id="game")
    server = TableServer(
        session,
        "club",
        socket_path=tmp_path / "club.sock",
        owner="alice",
        identify=lambda _writer: user,
        admits=lambda _user: True,
        bot_delay=0.0,
        announce=False,
    )
    await server.start()
    try:
        yield server
    finally:
        await server.close()
        await asyncio.sleep(0)


async def test_the_joined_table_draws_the_local_screen(catalog: Catalog, tmp_path: Path) -> None:
    session = Session.start(DeckbuildingRules(catalog), SETUP, tmp_path, save_id="game")
    server = TableServer(
        session,
        "club",
        socket_path=tmp_path / "club.sock",
        owner="alice",
        identify=lambda _writer: "alice",
        admits=lambda user: user == "alice",
        bot_delay=0.0,
        announce=False,
    )
    await server.start()
    try:
        joined = JoinApp(DeckbuildingRules(catalog), socket_path=server.socket_path, seat=0)
        # The local table of the same game, for the same seat, with the same
        # names the joined table gives the players.
        local_game = server.session.match.game.clone()
        local_game.events = list(server.session.match.game.events)
        seating = Seating(players={"goku": "alice", "krillin": "seat 1"}, pace=0)
        local = DbdeckApp(catalog, local_game, seating)
        async with (
            joined.run_test(size=(160, 50)) as remote,
            local.run_test(size=(160, 50)) as here,
        ):
            await _wait(
                lambda: joined.table is not None and joined.table.is_mounted, remote, "the view"
            )
            await remote.pause(0.2)
            await here.pause()
            assert joined.table is not None
            local_screen = next(s for s in local.screen_stack if isinstance(s, TableScreen))
            assert local_screen.view == joined.table.view
            assert drawn(joined.table) == drawn(local_screen)

            # One key on each, `p`, which plays every Energy card in every
            # mode: the same screens again.
            energy = len([o for o in joined.table.offers if o.action.type == "play-energy"])
            assert energy >= 2
            await remote.press("p")
            await _wait(lambda: server.version == energy, remote, "every Energy card")
            await remote.pause(0.3)
            assert server.version == energy
            await here.press("p")
            await here.pause()
            assert local_screen.view == joined.table.view
            assert drawn(joined.table) == drawn(local_screen)
            assert "Energy" in drawn(local_screen)["#hand"]
    finally:
        await server.close()
        await asyncio.sleep(0)


def test_a_joined_table_keeps_the_counts_the_server_sends(catalog: Catalog) -> None:
    """The summary of a joined table shows the server's counts, not "?"."""
    game = Game.new(catalog, Setup(characters=["goku"], villain="freezer", seed=1))
    backend = RemoteBackend(DeckbuildingRules(catalog), Seating(), join=None)  # type: ignore[arg-type]
    view = TableView.from_json(seat_view(game, 0).to_json())
    backend.update(3, view, [])
    assert backend.tally() is None
    sent = Tally({"goku": CharacterTally("Goku", dealt=12, taken=4, bought=5)}, 7, 30)
    backend.update(4, view, [], Tally.from_json(sent.to_json()))
    assert backend.tally() == sent
    backend.update(5, view, [])  # a later view without counts keeps them
    assert backend.tally() == sent


def test_the_key_bar_of_a_shared_table_shows_only_the_keys_that_work() -> None:
    seated = dict(shared_keys(TableScreen.KEYS, spectator=False))
    assert "u" in seated and "g" not in seated  # undo asks every seat; no coach there
    assert {"p", "b", "a", "e", "m", "w", "q"} <= set(seated)
    watching = dict(shared_keys(TableScreen.KEYS, spectator=True))
    assert not {"p", "b", "a", "e", "t", "s", "d", "u", "g"} & set(watching)
    assert {"Tab", "i", "r", "m", "w", "q"} <= set(watching)


async def test_a_spectators_key_bar_offers_no_move(catalog: Catalog, tmp_path: Path) -> None:
    async with served(catalog, tmp_path, "alice") as server:
        app = JoinApp(DeckbuildingRules(catalog), socket_path=server.socket_path, spectate=True)
        async with app.run_test(size=(160, 50)) as pilot:
            await _wait(lambda: app.table is not None and app.table.is_mounted, pilot, "the view")
            await pilot.pause(0.2)
            assert app.table is not None
            shown = plain(app.table.query_one(KeyBar).content)
            assert " p " not in shown and " e " not in shown and " u " not in shown
            assert " w " in shown and " i " in shown


async def test_a_seat_waiting_for_another_turn_is_shown_only_the_keys_that_look(
    catalog: Catalog, tmp_path: Path
) -> None:
    """Krillin's player while Goku plays: the play keys would only say "it is
    alice's turn", so the key bar leaves them out until Krillin's turn."""
    async with served(catalog, tmp_path, "bob") as server:
        app = JoinApp(DeckbuildingRules(catalog), socket_path=server.socket_path, seat=1)
        async with app.run_test(size=(160, 50)) as pilot:
            await _wait(lambda: app.table is not None and app.table.is_mounted, pilot, "the view")
            await pilot.pause(0.2)
            assert app.table is not None and server.session.match.game.state.active == "goku"
            shown = plain(app.table.query_one(KeyBar).content)
            assert " p " not in shown and " e " not in shown and " b " not in shown
            assert " i " in shown and " w " in shown
