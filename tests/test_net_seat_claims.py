"""A seat claimed when the table cannot be saved (a full disk).

The claim is written to the ``.table`` file beside the save; when that
write fails, the player is seated all the same (the game cannot go on
without them), but never silently: they and the host are told that the seat
holds only while the table runs, and the claim is saved again after the
next action, when the whole table is told it is.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import random
from pathlib import Path
from typing import Any

import pytest
from table_clients import Seat, Users, start, view_player

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.panels import Offer, TableView
from dbdeck.net import server as server_module
from dbdeck.net.protocol import ChatMessage, EventsMessage, ViewMessage
from dbdeck.saves import SaveFailed

UNSAVED = "will not survive a restart until it is saved"


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("DBDECK_TABLES", str(tmp_path / "tables"))


def _full(kind: str) -> Any:
    def write(path: Path, text: str) -> None:
        if kind == "SaveFailed":
            raise SaveFailed("the disk is full", code=errno.ENOSPC)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    return write


@pytest.mark.parametrize("kind", ["SaveFailed", "OSError"])
async def test_an_unsaved_claim_is_told_to_the_player_and_the_host(
    catalog: Catalog,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    kind: str,
) -> None:
    users = Users()
    server = await start(catalog, tmp_path, users)
    try:
        alice = await Seat.join(server, users, "alice", seat=0)
        carol = await Seat.join(server, users, "carol", spectate=True)
        await alice.until(ViewMessage)
        await alice.settle()
        await carol.settle()

        with monkeypatch.context() as disk:
            disk.setattr(server_module, "write_private", _full(kind))
            with caplog.at_level(logging.WARNING, logger="dbdeck.server"):
                bob = await Seat.join(server, users, "bob", seat=1)
            assert bob.number == 1  # seated all the same
            told = await bob.until(ChatMessage)
            assert told.sender == "(table)" and UNSAVED in told.text
            assert "seat 1 (bob)" in told.text and "disk is full" in told.text
            host = await alice.until(ChatMessage)
            assert host.text == told.text
            assert any(UNSAVED in r.getMessage() for r in caplog.records)  # the console
            await carol.settle()
            assert not [m for m in carol.other if isinstance(m, ChatMessage)]
            saved = json.loads((tmp_path / "game.table").read_text(encoding="utf-8"))
            assert [s["user"] for s in saved["seats"]] == ["alice", ""]
            assert server.unsaved_seats

        # Room again: the next action saves the seats, and the table hears it.
        view = alice.views[-1]
        offers = [Offer.from_json(o) for o in view.legal]
        await alice.act(view_player(TableView.from_json(view.view), offers, random.Random(1)))
        for seat in (alice, bob, carol):
            notice = await seat.until(ChatMessage)
            assert notice.text == "the seats are saved now: they will survive a restart"
        await alice.until(EventsMessage)
        saved = json.loads((tmp_path / "game.table").read_text(encoding="utf-8"))
        assert [s["user"] for s in saved["seats"]] == ["alice", "bob"]
        assert not server.unsaved_seats
    finally:
        await server.close()


async def test_a_saved_claim_says_nothing(catalog: Catalog, tmp_path: Path) -> None:
    users = Users()
    server = await start(catalog, tmp_path, users)
    try:
        alice, bob = await Seat.pair(server, users)
        await alice.settle()
        await bob.settle()
        chat = [m for m in alice.other + bob.other if isinstance(m, ChatMessage)]
        assert chat == []
    finally:
        await server.close()
