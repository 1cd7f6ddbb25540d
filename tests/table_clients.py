"""Protocol clients for the shared-table tests: they sit at a real server
over its Unix socket, keep every raw line they receive, and play with a
policy that sees only what a real client gets (the seat's ``TableView`` and
its offers), never the host's game.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.actions import Action
from dbdeck.games.deckbuilding.engine.game import Setup
from dbdeck.games.deckbuilding.engine.panels import Offer, TableView
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.net.client import TableClient
from dbdeck.net.protocol import (
    ActionMessage,
    EventsMessage,
    RefusalMessage,
    ViewMessage,
    encode,
)
from dbdeck.net.server import TableServer
from dbdeck.saves import Session

SETUP = Setup(characters=["goku", "krillin"], villain="freezer", difficulty="easy", seed=11)
"""The table most tests sit at: Goku (seat 0) and Krillin (seat 1) against
Freezer."""

STEP_CAP = 1500
"""The most actions one client sends in a game before the test gives up."""

READ_TIMEOUT = 20.0
"""Seconds a client waits for the next message before the test fails."""


class Users:
    """Who connects: the test names the OS user of each next connection
    (one machine user cannot be several users for real)."""

    def __init__(self) -> None:
        self.next: list[str] = []

    def __call__(self, writer: Any) -> str:
        return self.next.pop(0) if self.next else "alice"


async def start(
    catalog: Catalog,
    folder: Path,
    users: Users,
    *,
    resume: bool = False,
    setup: Setup = SETUP,
    **options: Any,
) -> TableServer:
    """A table served on ``folder/club.sock``, its save ``folder/game.json``;
    alice hosts, bob and carol may join."""
    session = (
        Session.resume(DeckbuildingRules(catalog), folder, "game")
        if resume
        else Session.start(DeckbuildingRules(catalog), setup, folder, save_id="game")
    )
    server = TableServer(
        session,
        "club",
        socket_path=folder / "club.sock",
        owner="alice",
        identify=users,
        admits=lambda user: user in ("alice", "bob", "carol"),
        bot_delay=0.0,
        announce=False,
        **options,
    )
    await server.start()
    return server


class RecordingClient(TableClient):
    """A table client that keeps every line the server sent, byte for byte,
    and the whole view each change to the view made."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        super().__init__(reader, writer)
        self.lines: list[bytes] = []
        self.rebuilt: dict[int, bytes] = {}
        """For each line that was a change to the view (by its place in
        ``lines``): the view it made, encoded as the server encodes one."""

    async def receive_line(self) -> bytes:
        """The next line, kept in ``lines`` as it came."""
        line = await super().receive_line()
        if line:
            self.lines.append(line)
        return line

    async def receive(self) -> Any:
        """The next message; a view made from a change is kept too."""
        message = await super().receive()
        if isinstance(message, ViewMessage) and self.lines and _is_change(self.lines[-1]):
            self.rebuilt[len(self.lines) - 1] = encode(message)
        return message

    def scanned(self) -> list[bytes]:
        """Every line received, each change to the view followed by the
        whole view it made: what a privacy scan reads."""
        out: list[bytes] = []
        for number, line in enumerate(self.lines):
            out.append(line)
            if number in self.rebuilt:
                out.append(self.rebuilt[number])
        return out


def _is_change(line: bytes) -> bool:
    data = json.loads(line)
    return isinstance(data, dict) and data.get("type") == "view-delta"


class Seat:
    """A connected client and what it received."""

    def __init__(self, client: RecordingClient) -> None:
        self.client = client
        welcome = client.welcome
        self.number = welcome.seat if welcome is not None else None
        self.views: list[ViewMessage] = []
        self.events: list[dict[str, Any]] = []
        self.refusals: list[str] = []
        self.other: list[Any] = []
        self.sent = 0

    @classmethod
    async def join(cls, server: TableServer, users: Users, user: str, **hello: Any) -> Seat:
        """Connect as ``user`` and say hello (``JoinRefused`` if refused)."""
        users.next.append(user)
        client = await RecordingClient.connect(socket_path=server.socket_path)
        assert isinstance(client, RecordingClient)
        await client.hello(**hello)
        return cls(client)

    @classmethod
    async def pair(cls, server: TableServer, users: Users) -> tuple[Seat, Seat]:
        """Alice at seat 0 (Goku) and Bob at seat 1 (Krillin)."""
        return (
            await cls.join(server, users, "alice", seat=0),
            await cls.join(server, users, "bob", seat=1),
        )

    async def receive(self, timeout: float = READ_TIMEOUT) -> Any:
        """The next message (kept); fails the test when the line closes."""
        message = await asyncio.wait_for(self.client.receive(), timeout)
        assert message is not None, "the connection closed"
        self._keep(message)
        return message

    async def until(self, kind: type, timeout: float = 10) -> Any:
        """Read messages until one of ``kind``."""
        while True:
            message = await self.receive(timeout)
            if isinstance(message, kind):
                return message

    async def settle(self, pause: float = 0.1) -> None:
        """Read whatever arrives until the line is quiet."""
        while True:
            try:
                message = await asyncio.wait_for(self.client.receive(), pause)
            except TimeoutError:
                return
            if message is None:
                return
            self._keep(message)

    def _keep(self, message: Any) -> None:
        if isinstance(message, ViewMessage):
            self.views.append(message)
        elif isinstance(message, EventsMessage):
            self.events += message.events
        elif isinstance(message, RefusalMessage):
            self.refusals.append(message.reason)
        else:
            self.other.append(message)

    async def act(self, action: Action, version: int | None = None) -> None:
        """Send an action against ``version`` (by default the last view's)."""
        latest = self.views[-1].version if version is None else version
        self.sent += 1
        await self.client.send(
            ActionMessage(type="action", version=latest, action=action.to_json())
        )


# --- a player who sees only its view -----------------------------------------------------------

_PREFERENCE = ("attack", "play-energy", "play", "prepare", "buy")
"""What the view-only player does first; anything else only when nothing of
these (nor ending the turn) is offered."""


def view_player(view: TableView, offers: list[Offer], rng: random.Random) -> Action:
    """A simple player that decides from the seat's view and offers only.

    A pending decision: the option the Grim Rule marks, else the first.
    Otherwise attack, then play Energy, put cards into play, prepare Energy
    Techniques, buy the dearest card offered (by the view's cost), and end
    the turn; ties are broken by ``rng``.
    """
    assert offers, "nothing is offered"
    choices = [o for o in offers if o.action.type == "choose"]
    if choices:
        options = view.decision.options if view.decision is not None else ()
        marked = [i for i, option in enumerate(options) if option.grim]
        wanted = marked[0] if marked else min(o.action.option or 0 for o in choices)
        return next((o.action for o in choices if o.action.option == wanted), choices[0].action)
    for kind in _PREFERENCE:
        # Playing a card that destroys another to make room only churns.
        these = [
            o for o in offers if o.action.type == kind and not (kind == "play" and o.action.cards)
        ]
        if not these:
            continue
        if kind == "buy":
            best = max(_cost(view, o.action) for o in these)
            these = [o for o in these if _cost(view, o.action) == best]
        return rng.choice(these).action
    ending = [o for o in offers if o.action.type == "end-turn"]
    return (ending or [rng.choice(offers)])[0].action


def _cost(view: TableView, action: Action) -> int:
    market = view.market(action.market or "")
    if market is None:
        return 0
    card = next((c for c in market.row if c.card.uid == action.card), None)
    return (card.cost or 0) if card is not None else 0


async def play_to_the_end(seats: list[Seat], seed: int = 1) -> str:
    """Each seat plays with ``view_player`` on its own views until the game
    ends; returns the winner. Fails the test past ``STEP_CAP`` actions."""

    async def run(seat: Seat, rng: random.Random) -> str:
        # A view already read (and not answered) comes first.
        unanswered = seat.views[-1] if seat.views else None
        while True:
            if unanswered is not None:
                message, unanswered = unanswered, None
            else:
                message = await seat.receive()
            if not isinstance(message, ViewMessage):
                continue
            view = TableView.from_json(message.view)
            if view.over:
                return view.winner
            voted = str(seat.number) in message.votes
            if message.legal and not voted:
                if seat.sent >= STEP_CAP:
                    pytest.fail(f"seat {seat.number}: no end after {STEP_CAP} actions")
                offers = [Offer.from_json(o) for o in message.legal]
                await seat.act(view_player(view, offers, rng), message.version)

    results = await asyncio.gather(
        *(run(seat, random.Random(seed * 100 + i)) for i, seat in enumerate(seats))
    )
    assert len(set(results)) == 1, results
    return results[0]


async def watch_to_the_end(seat: Seat) -> str:
    """A spectator reads until the game ends; returns the winner."""
    while True:
        message = await seat.receive()
        if isinstance(message, ViewMessage):
            view = TableView.from_json(message.view)
            if view.over:
                return view.winner
