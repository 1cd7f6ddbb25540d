"""Shared tables: the server with seat clients and spectators in one process.

Clients here are protocol clients driven by the greedy bot on their own
views (a ``ShadowGame``), so each plays only from what its seat may see.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from dbdeck import bots
from dbdeck.cards.catalog import Catalog
from dbdeck.engine.actions import Action
from dbdeck.engine.game import Game, Setup
from dbdeck.net.client import JoinRefused, TableClient, parse_tcp
from dbdeck.net.protocol import (
    MAX_LINE,
    ActionMessage,
    ChatMessage,
    EventsMessage,
    HostMessage,
    ProtocolError,
    RefusalMessage,
    SeatsMessage,
    ViewMessage,
    decode_client,
)
from dbdeck.net.server import BOT, TableServer
from dbdeck.net.views import ShadowGame
from dbdeck.saves import Session

SETUP = Setup(characters=["goku", "krillin"], villain="freezer", difficulty="easy", seed=11)


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat tokens and the table list in the test's own folders."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("DBDECK_TABLES", str(tmp_path / "tables"))


class Users:
    """Who connects: the test names the OS user of each next connection
    (one machine user cannot be several users for real)."""

    def __init__(self) -> None:
        self.next: list[str] = []

    def __call__(self, writer: Any) -> str:
        return self.next.pop(0) if self.next else "alice"


async def start(
    catalog: Catalog, folder: Path, users: Users, *, resume: bool = False, **options: Any
) -> TableServer:
    session = (
        Session.resume(catalog, folder, "game")
        if resume
        else Session.start(catalog, SETUP, folder, save_id="game")
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


@pytest.fixture
async def table(catalog: Catalog, tmp_path: Path) -> AsyncIterator[tuple[TableServer, Users]]:
    users = Users()
    server = await start(catalog, tmp_path, users)
    yield server, users
    await server.close()


class Seat:
    """A connected client and what it received."""

    def __init__(self, client: TableClient) -> None:
        self.client = client
        welcome = client.welcome
        self.number = welcome.seat if welcome is not None else None
        self.views: list[ViewMessage] = []
        self.events: list[dict[str, Any]] = []
        self.refusals: list[str] = []
        self.other: list[Any] = []

    @classmethod
    async def join(cls, server: TableServer, users: Users, user: str, **hello: Any) -> Seat:
        users.next.append(user)
        client = await TableClient.connect(socket_path=server.socket_path)
        await client.hello(**hello)
        return cls(client)

    @classmethod
    async def pair(cls, server: TableServer, users: Users) -> tuple[Seat, Seat]:
        """Alice at seat 0 (Goku) and Bob at seat 1 (Krillin)."""
        return (
            await cls.join(server, users, "alice", seat=0),
            await cls.join(server, users, "bob", seat=1),
        )

    async def until(self, kind: type, timeout: float = 10) -> Any:
        """Read messages until one of ``kind``."""
        while True:
            message = await asyncio.wait_for(self.client.receive(), timeout)
            assert message is not None, "the connection closed"
            self._keep(message)
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
        latest = self.views[-1].version if version is None else version
        await self.client.send(
            ActionMessage(type="action", version=latest, action=action.to_json())
        )


async def play_to_the_end(catalog: Catalog, seats: list[Seat], seed: int = 1) -> str:
    """Each seat plays with the greedy bot on its own view until the game ends."""

    async def run(seat: Seat, rng: random.Random) -> str:
        # A view already read (and not answered) comes first.
        unanswered = seat.views[-1] if seat.views else None
        while True:
            if unanswered is not None:
                message, unanswered = unanswered, None
            else:
                message = await asyncio.wait_for(seat.client.receive(), 30)
                assert message is not None
                seat._keep(message)
            if not isinstance(message, ViewMessage):
                continue
            if message.view["winner"]:
                return str(message.view["winner"])
            voted = str(seat.number) in message.votes
            if message.legal and not voted:
                shadow = ShadowGame.from_view(catalog, message.view, message.legal)
                await seat.act(bots.greedy(shadow, rng), message.version)

    results = await asyncio.gather(
        *(run(seat, random.Random(seed + i)) for i, seat in enumerate(seats))
    )
    assert len(set(results)) == 1
    return results[0]


def _truth_at(catalog: Catalog, actions: list[dict[str, Any]]) -> list[Game]:
    """The real game after each number of actions (replayed from the seed)."""
    game = Game.new(catalog, SETUP)
    games = [game.clone()]
    for data in actions:
        game.apply(Action.from_json(data))
        games.append(game.clone())
    return games


# --- a whole game ---------------------------------------------------------------------------


async def test_two_seats_and_a_spectator_play_a_whole_game_privately(
    catalog: Catalog, table: tuple[TableServer, Users]
) -> None:
    server, users = table
    goku, krillin = await Seat.pair(server, users)
    watcher = await Seat.join(server, users, "carol", spectate=True)

    async def watch() -> None:
        while True:
            message = await asyncio.wait_for(watcher.client.receive(), 30)
            assert message is not None
            watcher._keep(message)
            if isinstance(message, ViewMessage) and message.view["winner"]:
                return

    winner, _ = await asyncio.gather(play_to_the_end(catalog, [goku, krillin]), watch())
    assert winner in ("players", "villain")
    assert server.session.game.over
    assert server.session.game.state.winner == winner
    assert watcher.views[-1].legal == []

    # Privacy: replay the real game and compare every view with the truth.
    truth = _truth_at(catalog, server.session.actions)
    checked = 0
    for seat_no, seat in ((0, goku), (1, krillin), (None, watcher)):
        own = {"goku"} if seat_no == 0 else {"krillin"} if seat_no == 1 else set()
        for view_message in seat.views:
            view = view_message.view
            real = truth[view_message.version].state
            hidden: set[int] = set(real.villain.deck)
            for ch in real.characters:
                hidden.update(ch.deck)
                if ch.id not in own:
                    hidden.update(ch.hand)
            for market in real.markets.values():
                hidden.update(market.deck)
            assert view["seed"] == 0
            assert all(view["card_ids"][uid] == "" for uid in hidden)
            for ch in view["characters"]:
                assert isinstance(ch["deck"], int)
                assert isinstance(ch["hand"], list) == (ch["id"] in own)
            assert isinstance(view["villain"]["deck"], int)
            text = json.dumps(view)
            assert '"rng"' not in text
            checked += 1
        for event in seat.events:
            if event["type"] == "draw" and event["data"]:
                assert event["data"]["character"] in own
    assert checked > 100
    assert any(e["type"] == "draw" and not e["data"] for e in krillin.events)


async def test_vote_mode_waits_for_every_seat(catalog: Catalog, tmp_path: Path) -> None:
    users = Users()
    server = await start(catalog, tmp_path, users, decide="vote")
    try:
        goku, krillin = await Seat.pair(server, users)
        winner = await play_to_the_end(catalog, [goku, krillin], seed=5)
        assert winner
        voted = [v for v in goku.views + krillin.views if v.votes]
        assert voted, "no players' decision was put to the vote"
        assert all(v.decide == "vote" for v in goku.views[1:])
    finally:
        await server.close()


# --- refusals ------------------------------------------------------------------------------


async def test_refusals_leave_the_game_as_it_was(
    catalog: Catalog, table: tuple[TableServer, Users]
) -> None:
    server, users = table
    goku, krillin = await Seat.pair(server, users)
    watcher = await Seat.join(server, users, "carol", spectate=True)
    for seat in (goku, krillin, watcher):
        await seat.until(ViewMessage)
    game = server.session.game
    assert game.actor() == "goku"
    before = game.fingerprint()
    some = game.legal_actions()[0]

    await krillin.act(some)
    assert "not your turn" in (await krillin.until(RefusalMessage)).reason
    await watcher.act(some)
    assert "spectators cannot act" in (await watcher.until(RefusalMessage)).reason
    await goku.act(some, version=server.version + 7)
    assert "changed since your view" in (await goku.until(RefusalMessage)).reason
    await goku.client.send_raw(b"{not json\n")
    assert "not JSON" in (await goku.until(RefusalMessage)).reason
    await goku.client.send_raw(b'{"type": "action", "version": "x"}\n')
    assert "bad 'action' message" in (await goku.until(RefusalMessage)).reason
    await goku.client.send_raw(b'{"type": "action", "version": 0, "action": {"type": "fly"}}\n')
    assert "not an action" in (await goku.until(RefusalMessage)).reason
    illegal = Action("buy-dragon-ball")
    await goku.act(illegal, version=server.version)
    refusal = await goku.until(RefusalMessage)
    assert refusal.reason == game.check(illegal)
    assert server.session.game.fingerprint() == before
    assert server.version == 0

    # The same client is still served: a legal action goes through.
    await goku.act(some, version=server.version)
    await goku.until(EventsMessage)
    assert server.version == 1


async def test_an_oversized_message_is_refused_and_the_table_goes_on(
    catalog: Catalog, table: tuple[TableServer, Users]
) -> None:
    server, users = table
    goku, krillin = await Seat.pair(server, users)
    await krillin.settle()
    await krillin.client.send_raw(b'{"type": "chat", "text": "' + b"x" * (MAX_LINE + 10) + b'"}\n')
    refusal = await krillin.until(RefusalMessage)
    assert refusal.fatal and "too long" in refusal.reason
    assert await asyncio.wait_for(krillin.client.receive(), 5) is None
    await goku.settle()
    await goku.client.send(ChatMessage(type="chat", text="still here?"))
    said = await goku.until(ChatMessage)
    assert said.sender == "alice" and said.text == "still here?"


async def test_hello_refusals(catalog: Catalog, table: tuple[TableServer, Users]) -> None:
    server, users = table
    await Seat.join(server, users, "alice", seat=0)
    with pytest.raises(JoinRefused, match="held by alice"):
        await Seat.join(server, users, "bob", seat=0)
    with pytest.raises(JoinRefused, match="admits alice only"):
        await Seat.join(server, users, "mallory", seat=1)
    with pytest.raises(JoinRefused, match="no seat 5"):
        await Seat.join(server, users, "bob", seat=5)
    with pytest.raises(JoinRefused, match="speaks protocol"):
        users.next.append("bob")
        client = await TableClient.connect(socket_path=server.socket_path)
        await client.hello(protocol=99)
    await Seat.join(server, users, "bob")  # the first free seat
    with pytest.raises(JoinRefused, match="every seat is taken"):
        await Seat.join(server, users, "carol")
    assert [s.user for s in server.table.seats] == ["alice", "bob"]


def test_bad_lines_are_protocol_errors() -> None:
    for line, why in [
        (b"[1, 2]\n", "not a message"),
        (b'{"type": "dance"}\n', "bad 'dance' message"),
        (b'{"type": "chat"}\n', "text"),
        (b"\xff\xfe\n", "not JSON"),
        (b'{"type": "hello", "protocol": 1, "admin": true}\n', "admin"),
    ]:
        with pytest.raises(ProtocolError, match=why):
            decode_client(line)
    with pytest.raises(ValueError, match="loopback"):
        parse_tcp("0.0.0.0:8000")
    assert parse_tcp("127.0.0.1:9") == ("127.0.0.1", 9)


# --- dropped connections, restarts -----------------------------------------------------------


async def test_a_dropped_client_keeps_its_seat_and_rejoins(
    catalog: Catalog, table: tuple[TableServer, Users]
) -> None:
    server, users = table
    goku, krillin = await Seat.pair(server, users)
    token = krillin.client.welcome.seat_token if krillin.client.welcome else None
    assert token
    await goku.settle()
    krillin.client.writer.transport.abort()  # the SSH session drops
    seats = await goku.until(SeatsMessage)
    away = next(s for s in seats.seats if s.seat == 1)
    assert away.user == "bob" and not away.present

    # Nobody else can take the held seat; bob can, with his token.
    with pytest.raises(JoinRefused, match="held by bob"):
        await Seat.join(server, users, "carol", seat=1)
    again = await Seat.join(server, users, "bob", seat_token=token)
    assert again.client.welcome is not None and again.client.welcome.seat == 1
    view = await again.until(ViewMessage)
    assert isinstance(view.view["characters"][1]["hand"], list)
    seats = await goku.until(SeatsMessage)
    assert next(s for s in seats.seats if s.seat == 1).present


async def test_the_host_hands_an_away_seat_to_the_bot(
    catalog: Catalog, table: tuple[TableServer, Users]
) -> None:
    server, users = table
    goku, krillin = await Seat.pair(server, users)
    await krillin.settle()
    await krillin.client.send(HostMessage(type="host", character="goku", to_seat=None))
    assert "only the host" in (await krillin.until(RefusalMessage)).reason
    await krillin.client.close()
    await goku.settle()
    await goku.client.send(HostMessage(type="host", character="krillin", to_seat=None))
    seats = await goku.until(SeatsMessage)
    assert next(s for s in seats.seats if s.seat == BOT).characters == ["krillin"]
    winner = await play_to_the_end(catalog, [goku])
    assert winner
    krillin_turns = [a for a in server.session.actions if a["type"] == "end-turn"]
    assert len(krillin_turns) > 2


async def test_the_server_restarts_and_the_table_resumes(catalog: Catalog, tmp_path: Path) -> None:
    users = Users()
    server = await start(catalog, tmp_path, users)
    goku, krillin = await Seat.pair(server, users)
    token = krillin.client.welcome.seat_token if krillin.client.welcome else None
    view = await goku.until(ViewMessage)
    rng = random.Random(3)
    for _ in range(5):
        shadow = ShadowGame.from_view(catalog, view.view, view.legal)
        await goku.act(bots.greedy(shadow, rng), view.version)
        view = await goku.until(ViewMessage)
        if not view.legal:
            break
    played = server.version
    fingerprint = server.session.game.fingerprint()
    await server.close()
    assert await asyncio.wait_for(goku.client.receive(), 5) is None

    server = await start(catalog, tmp_path, users, resume=True)
    try:
        assert server.version == played
        assert server.session.game.fingerprint() == fingerprint
        assert [s.user for s in server.table.seats] == ["alice", "bob"]
        with pytest.raises(JoinRefused, match="held by bob"):
            await Seat.join(server, users, "carol", seat=1)
        goku = await Seat.join(server, users, "alice", seat=0)
        krillin = await Seat.join(server, users, "bob", seat_token=token)
        assert krillin.client.welcome is not None and krillin.client.welcome.seat == 1
        assert (await goku.until(ViewMessage)).version == played
        assert await play_to_the_end(catalog, [goku, krillin])
    finally:
        await server.close()


# --- loopback TCP ------------------------------------------------------------------------------


async def test_tcp_needs_the_join_token_and_the_seat_token(
    catalog: Catalog, tmp_path: Path
) -> None:
    session = Session.start(catalog, SETUP, tmp_path, save_id="game")
    server = TableServer(session, "club", tcp=("127.0.0.1", 0), join_token="sesame", announce=False)
    await server.start()
    try:
        assert server.tcp is not None
        address = server.tcp

        async def hello(**fields: Any) -> TableClient:
            client = await TableClient.connect(tcp=address)
            await client.hello(**fields)
            return client

        with pytest.raises(JoinRefused, match="join token"):
            await hello(user="bob", seat=1)
        with pytest.raises(JoinRefused, match="join token"):
            await hello(user="bob", seat=1, join_token="wrong")
        bob = await hello(user="bob", seat=1, join_token="sesame")
        assert bob.welcome is not None and bob.welcome.seat == 1 and not bob.welcome.host
        token = bob.welcome.seat_token
        await bob.close()
        with pytest.raises(JoinRefused, match="seat token"):
            await hello(user="bob", seat=1, join_token="sesame")
        again = await hello(user="bob", seat=1, join_token="sesame", seat_token=token)
        assert again.welcome is not None and again.welcome.seat == 1
        await again.close()
    finally:
        await server.close()


# --- the shared list and the command line ------------------------------------------------------


async def test_tables_lists_a_running_table(
    catalog: Catalog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from dbdeck.cli import main
    from dbdeck.net.tables import list_tables, user_name

    session = Session.start(catalog, SETUP, tmp_path / "saves", save_id="game")
    server = TableServer(session, "club", socket_path=tmp_path / "club.sock")
    await server.start()
    try:
        listed = list_tables()
        assert [t.name for t in listed] == ["club"]
        assert listed[0].owner == user_name() and listed[0].free_seats == 2
        assert main(["tables"]) == 0
        out = capsys.readouterr().out
        assert "club: Freezer vs Goku, Krillin" in out and "dbdeck join --table club" in out
        assert (tmp_path / "club.sock").stat().st_mode & 0o777 == 0o600
    finally:
        await server.close()
    assert list_tables() == []
    assert main(["join"]) == 2
    assert "no table to join" in capsys.readouterr().err


# --- the table in a terminal ------------------------------------------------------------------


async def test_join_app_plays_its_seat_and_sees_only_its_hand(
    catalog: Catalog, table: tuple[TableServer, Users]
) -> None:
    from dbdeck.tui.remote import JoinApp
    from dbdeck.tui.widgets import HandPanel

    server, users = table
    users.next += ["alice", "bob"]
    goku_app = JoinApp(catalog, socket_path=server.socket_path, seat=0)
    krillin_app = JoinApp(catalog, socket_path=server.socket_path, seat=1)
    async with (
        goku_app.run_test(size=(160, 50)) as goku,
        krillin_app.run_test(size=(160, 50)) as krillin,
    ):
        for _ in range(50):
            await goku.pause(0.05)
            if goku_app.table is not None and krillin_app.table is not None:
                break
        assert goku_app.table is not None and krillin_app.table is not None
        await goku.pause(0.2)
        await krillin.pause(0.2)
        goku_hand = str(goku_app.table.query_one(HandPanel).render())
        krillin_hand = str(krillin_app.table.query_one(HandPanel).render())
        assert goku_hand.startswith("Goku's hand") and "Face-down" not in goku_hand
        assert krillin_hand.startswith("Krillin's hand") and "Face-down" not in krillin_hand
        assert "Waiting for alice — Goku" in str(krillin_app.table.query_one("#prompt").render())

        # Goku plays an Energy card by key; both tables follow the server.
        energy_before = server.session.game.state.character("goku").energy
        await goku.press("p")
        for _ in range(50):
            await goku.pause(0.05)
            if server.version == 1:
                break
        assert server.version == 1
        assert server.session.game.state.character("goku").energy > energy_before
        await krillin.pause(0.3)
        assert krillin_app.table.version == 1

        # Krillin may not end Goku's turn: nothing is offered, nothing sent.
        await krillin.press("e")
        await krillin.pause(0.2)
        assert server.version == 1

        # Chat reaches the other table's log.
        await krillin.press("m")
        await krillin.pause(0.1)
        for key in "hi":
            await krillin.press(key)
        await krillin.press("enter")
        for _ in range(40):
            await goku.pause(0.05)
            lines = [str(line.text) for line in goku_app.table.query_one("#log").lines]
            if any("<bob> hi" in line for line in lines):
                break
        assert any("<bob> hi" in line for line in lines)


@pytest.mark.parametrize(
    "villain", ["freezer", "raditz", "androids-17-18", "broly", "androids-19-20", "vegeta-nappa"]
)
def test_every_villains_table_is_drawn_from_a_seat_view(catalog: Catalog, villain: str) -> None:
    """A client's table of any Villain is drawn from its view: side decks stay
    face down, a tracker card's cards (Raditz's Kidnapped Victim) face up."""
    from rich.console import Console

    from dbdeck.net.views import seat_view
    from dbdeck.tui.widgets import MarketPanel, TurnOrderPanel, VillainBoard

    game = Game.new(catalog, Setup(characters=["goku", "krillin"], villain=villain, seed=9))
    game.state.revealed = "V1"
    view = json.loads(json.dumps(seat_view(game, 0)))
    shadow = ShadowGame.from_view(catalog, view, [])
    console = Console(width=200, record=True, color_system=None)
    for panel in (VillainBoard, MarketPanel, TurnOrderPanel):
        console.print(panel.draw(panel(), shadow))  # type: ignore[attr-defined]
    text = console.export_text()
    assert game.card(game.state.villain_id).name in text
    for name, pile in game.state.villain.side_decks.items():
        face_up = getattr(catalog.cards[name], "type", "") == "reference"
        for uid in pile:
            assert (view["card_ids"][uid] == game.state.card_ids[uid]) is face_up
    if villain == "raditz":
        (victim,) = game.state.villain.side_decks["raditz-kidnapped-victim"]
        assert f"Kidnapped Victim: {game.name(victim)}" in text
