"""The privacy scan of the shared table, with the SSH door in between: no
byte reaches an SSH seat that its view would not show.

Ann plays Goku through the door by keys, in the real ``door_seat`` app on
its own pty; Bob plays Krillin from the box over the table's socket, from
his view alone. Two things are scanned, against the host's truth replayed
version by version (``test_privacy.Truth``):

- every line the table sent down the door's connection for ann, as the
  table's own scan reads the lines of any seat (so the door's connection
  is seat 0's, and only seat 0's);
- every byte the door sent ann's SSH client, its escape sequences taken
  out: no name of a card she never could see (another hand, a deck, a
  market's pile) and not the seed, while the names she does see are there
  to be found.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import re
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from door_clients import ESCAPES, SETUP, SshTerminal, keys_line, open_table, until
from table_clients import Seat, view_player
from test_privacy import Truth, _leaves

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.panels import Offer, TableView
from dbdeck.net.protocol import ViewMessage
from dbdeck.net.server import TableServer

TURNS = 2
"""Goku's turns ann plays by keys."""

SEED = 73915624
"""A seed whose digits no screen holds by chance."""


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for kind in ("STATE", "DATA", "CONFIG"):
        monkeypatch.setenv(f"XDG_{kind}_HOME", str(tmp_path / kind.lower()))
    monkeypatch.setenv("DBDECK_TABLES", str(tmp_path / "tables"))


async def _bob_plays(bob: Seat, stop: asyncio.Event) -> None:
    """Krillin's player, from his view and offers alone."""
    rng = random.Random(5)
    while not stop.is_set():
        try:
            message = await asyncio.wait_for(bob.client.receive(), 0.2)
        except TimeoutError:
            continue
        if message is None:
            return
        bob._keep(message)
        if isinstance(message, ViewMessage) and message.legal:
            view = TableView.from_json(message.view)
            if view.over:
                return
            offers = [Offer.from_json(o) for o in message.legal]
            await bob.act(view_player(view, offers, rng), message.version)


async def _ann_plays(ann: SshTerminal, server: TableServer) -> int:
    """Goku's turns by keys: play the Energy (``p``), end the turn (``e``);
    a decision put to Goku alone is answered with its first option (one
    for the players together is Bob's). Returns the turns ended."""
    ended = 0
    for _ in range(60):
        await until(lambda: server.may_act(0) or server.session.match.over, "Goku's turn", 60)
        match = server.session.match
        if match.over or ended >= TURNS:
            return ended
        before = server.version
        if match.asked().together:
            await _moved(server, before, 10)
            continue
        offers = match.offers(server.plays(0))
        if any(getattr(o.action, "type", "") == "choose" for o in offers):
            await ann.shows("Down, then Enter")
            ann.type("\x1b[B")
            ann.type("\r")
        else:
            ann.type("p")
            await _moved(server, before, 3)
            ann.type("e")
        if not await _moved(server, before, 10):
            ann.type("\x1b")  # a dialog in the way: closed, and try again
            await until(lambda: "Close the dialog" not in ann.text(), "the dialog to close", 10)
            continue
        if server.session.actions[-1].get("type") == "end-turn" and not server.may_act(0):
            ended += 1
    return ended


async def _moved(server: TableServer, before: int, timeout: float) -> bool:
    try:
        await until(lambda: server.version > before, "an action", timeout)
    except AssertionError:
        return False
    return True


async def test_no_byte_reaching_an_ssh_seat_shows_what_it_may_not_see(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup = dataclasses.replace(SETUP, seed=SEED)
    keys = {"ann": asyncssh.generate_private_key("ssh-ed25519")}
    table = await open_table(
        catalog, tmp_path, keys, lines=[keys_line(keys["ann"], "ann")], setup=setup
    )
    table.settings("ann", confirm_end_turn=False)
    sent: list[tuple[str, bytes]] = []
    send_line = TableServer._send_line

    def recorded(self: TableServer, client: Any, line: bytes) -> None:
        sent.append((client.user, line))
        send_line(self, client, line)

    monkeypatch.setattr(TableServer, "_send_line", recorded)
    stop = asyncio.Event()
    try:
        ann = await SshTerminal.open(table, "ann", size=(120, 40))
        await ann.shows("Goku's hand")
        bob = await Seat.join(table.server, table.users, "bob", seat=1)
        playing = asyncio.get_running_loop().create_task(_bob_plays(bob, stop))
        ended = await _ann_plays(ann, table.server)
        stop.set()
        await playing
        await ann.shows("Goku's hand")
    finally:
        stop.set()
        await table.close()
    server = table.server
    assert ended == TURNS or server.session.match.over
    truth = Truth(catalog, setup, server.session.actions)

    # What the table sent down the door's connection: seat 0's lines only.
    door_lines = [line for user, line in sent if user == "ssh:ann"]
    assert len(door_lines) > 20
    version = 0
    found: list[str] = []
    for line in door_lines:
        hits, version = truth.scan(line, 0, version)
        found += hits
    assert not found, found[:20]

    # What the door sent ann's terminal: no card she never could see.
    names = {cid: str(catalog[cid].name) for cid in catalog.cards}
    seen: set[str] = set()
    hidden: set[str] = set()
    for v in range(len(truth.games)):
        uids, visible, _own = truth.secrets(v, 0)
        seen |= visible
        state = truth.games[v].state
        hidden |= {state.card_ids[uid] for uid in uids}
    seen_names = {names[c] for c in seen}
    never = {names[c] for c in hidden - seen} - seen_names
    # A word of ann's own views may name what no card of hers is (Goku's
    # ability is called Kaio-ken, as a card of a deck is): those views were
    # scanned above, and a name they hold is one her view shows.
    said = "\n".join(str(value) for line in door_lines for _key, value in _leaves(json.loads(line)))
    never = {name for name in never if name not in said}
    assert len(never) > 10, never  # a scan with something to find
    shown = ann.plain()

    def named(text: str) -> list[str]:
        return sorted(n for n in never if re.search(rf"(?<![\w']){re.escape(n)}(?![\w'])", text))

    leaks = named(shown)
    print(
        f"\n{len(door_lines)} lines to the door, {len(ann.raw)} bytes to the terminal; "
        f"{len(never)} names never visible to seat 0, {len(leaks)} shown"
    )
    assert not leaks, leaks
    # A name drawn in colours is still found once the escapes are out.
    probe = sorted(never)[0]
    drawn = ESCAPES.sub(b"", f"\x1b[38;2;255;0;0m{probe}\x1b[0m ".encode()).decode()
    assert named(drawn) == [probe]
    assert str(SEED) not in shown
    # The scan reads names where they are: Goku's hand is drawn.
    final = truth.games[-1].state
    in_hand = {names[final.card_ids[uid]] for uid in final.character("goku").hand}
    assert any(name in shown for name in in_hand), in_hand
