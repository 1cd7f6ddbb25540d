"""Every byte a shared CCG table sends is scanned for what its client may
not see.

A whole game is played through the real host over its Unix socket by two
seats that see only their own views (choosing among the offers they were
sent) and a spectator; every client keeps every raw line. The host's truth
is replayed from the setup and the save's actions to the version each
message names, and each line is searched for the uid of a card its client
may not see (the other hand, both Life Decks outside one's own search, the
other Sensei Deck and fusion timer, a face-down card of the other side),
once with the shipped decks and once with fusions, for another seat's
private log words ("You drew …"), and for the seed. A view that came as a
change to the last one is scanned as it came and as the whole view it
made. The scanner is shown to catch a deliberately leaky view built from
the same truth.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from ccg_fusion_decks import PACK, fusion_deck
from table_clients import READ_TIMEOUT, RecordingClient, Users

from dbdeck.games.ccg.library import load_library
from dbdeck.games.ccg.match import CcgMatch, CcgRules
from dbdeck.games.ccg.table.seat_view import seat_view
from dbdeck.games.ccg.table.state import TableState
from dbdeck.net.protocol import ActionMessage, ViewMessage
from dbdeck.net.server import TableServer
from dbdeck.saves import Session

DECKS = Path(__file__).resolve().parent.parent / "cards" / "ccg" / "decks"
SEED = 58213907
"""A distinctive seed: no view holds these digits by chance."""


def _hidden(state: TableState, viewer: int | None) -> set[int]:
    hidden: set[int] = set()
    for side in state.sides:
        if side.seat == viewer and side.searching:
            pass
        else:
            hidden |= set(side.life_deck)
        if side.seat == viewer:
            continue
        hidden |= {u for u in side.hand if u not in side.shown}
        hidden |= set(side.sensei_deck) | set(side.timer)
        for zone in (side.non_combat, side.drills, side.allies, side.dragon_balls):
            hidden |= {u for u in zone if not state.cards[u].face_up}
    return hidden


def _uids(node: Any) -> list[int]:
    found: list[int] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if (
                key
                in (
                    "uid",
                    "card",
                    "source",
                    "discard",
                    "keep",
                    "ball",
                    "over",
                    "recipient",
                    "personality",
                    "fusion",
                    "ally",
                    "partner",
                )
                and isinstance(value, int)
                and not isinstance(value, bool)
            ):
                found.append(value)
            elif key == "cards" and isinstance(value, list):
                found += [v for v in value if isinstance(v, int)]
            else:
                found += _uids(value)
    elif isinstance(node, list):
        for value in node:
            found += _uids(value)
    return found


class Truth:
    """The host's game at every version, replayed from its save."""

    def __init__(self, rules: CcgRules, setup: Any, actions: list[dict[str, Any]]) -> None:
        match = rules.new(setup)
        self.states: list[TableState] = [match.clone().state]
        for data in actions:
            match.apply(rules.read_action(data))
            self.states.append(match.clone().state)

    def scan(self, line: bytes, seat: int | None, version: int) -> tuple[list[str], int]:
        hits: list[str] = []
        if str(SEED).encode() in line:
            hits.append("seed")
        data = json.loads(line)
        version = data.get("version", version) if isinstance(data, dict) else version
        state = self.states[min(version, len(self.states) - 1)]
        hidden = _hidden(state, seat)
        hits += [f"hidden uid {u}" for u in _uids(data) if u in hidden]
        text = line.decode()
        for entry in state.log:
            if entry.private and entry.seat != seat and entry.private in text:
                hits.append(f"private words of seat {entry.seat}: {entry.private}")
        return hits, version


async def _player(
    client: RecordingClient, rng: random.Random, done: asyncio.Event, fuse: bool = False
) -> None:
    """Answer each view that offers something, from the offers alone (with
    ``fuse``: placing Allies and fusing them whenever offered, mostly)."""
    rules = CcgRules(load_library(include_env_packs=False))
    while not done.is_set():
        try:
            message = await asyncio.wait_for(client.receive(), READ_TIMEOUT)
        except TimeoutError:
            return
        if message is None:
            return
        if not isinstance(message, ViewMessage):
            continue
        if message.view.get("winner") is not None:
            done.set()
            return
        offers = [rules.read_offer(o) for o in message.legal]
        if not offers:
            continue
        plain = [o for o in offers if o.group in ("turn", "combat")]
        choice = rng.choice(plain if plain and rng.random() < 0.93 else offers)
        eager = [
            o
            for o in offers
            if o.action.kind == "fuse"
            or (o.action.kind == "play-card" and "Level" in o.label and " over " not in o.label)
        ]
        if fuse and eager and rng.random() < 0.8:
            choice = rng.choice(eager)
        await client.send(
            ActionMessage(type="action", version=message.version, action=choice.action.to_json())
        )


async def _watch(client: RecordingClient, done: asyncio.Event) -> None:
    while not done.is_set():
        try:
            message = await asyncio.wait_for(client.receive(), 2)
        except TimeoutError:
            continue
        if message is None:
            return


@pytest.mark.parametrize("fusion", [False, True], ids=["shipped", "fusion"])
async def test_no_byte_sent_to_a_ccg_seat_shows_what_it_may_not_see(
    tmp_path: Path, fusion: bool
) -> None:
    """The shipped decks, and a Sensei Deck's fusions (whose timer cards
    lie face down beneath the anger counter)."""
    packs = [PACK] if fusion else []
    rules = CcgRules(load_library(packs, include_env_packs=False))
    goku = fusion_deck() if fusion else (DECKS / "goku.txt").read_text()
    setup = rules.read_setup(
        {
            "players": ["alice", "bob"],
            "decks": [goku, (DECKS / "raditz.txt").read_text()],
            "seed": SEED,
            "profile": "digest" if fusion else "errata-2001",
        }
    )
    session: Session[CcgMatch] = Session.start(rules, setup, tmp_path, save_id="ccg")
    users = Users()
    server = TableServer(
        session,
        "club",
        socket_path=tmp_path / "club.sock",
        owner="alice",
        identify=users,
        admits=lambda user: user in ("alice", "bob", "carol"),
        bot_delay=0.0,
        announce=False,
    )
    await server.start()
    clients: list[tuple[RecordingClient, int | None]] = []
    try:
        for user, hello in (
            ("alice", {"seat": 0}),
            ("bob", {"seat": 1}),
            ("carol", {"spectate": True}),
        ):
            users.next.append(user)
            client = await RecordingClient.connect(socket_path=server.socket_path)
            assert isinstance(client, RecordingClient)
            await client.hello(game="ccg", **hello)
            seat = client.welcome.seat if client.welcome is not None else None
            clients.append((client, seat))
        done = asyncio.Event()
        await asyncio.wait_for(
            asyncio.gather(
                _player(clients[0][0], random.Random(1), done, fusion),
                _player(clients[1][0], random.Random(2), done, fusion),
                _watch(clients[2][0], done),
            ),
            timeout=240,
        )
    finally:
        await server.close()
    assert server.session.match.over, "the game was played to its end"
    truth = Truth(rules, setup, server.session.actions)
    found: dict[str, list[str]] = {}
    scanned = 0
    changes = 0
    for client, seat in clients:
        version = 0
        for number, line in enumerate(client.scanned()):
            hits, version = truth.scan(line, seat, version)
            scanned += len(line)
            if hits:
                found.setdefault(f"seat {seat} line {number}", hits)
        changes += len(client.rebuilt)
    sent = sum(len(line) for client, _ in clients for line in client.lines)
    print(
        f"\n{len(server.session.actions)} actions, {sent} bytes sent, {changes} views as "
        f"changes, {scanned} bytes scanned"
    )
    assert not found, json.dumps(found, indent=1)[:3000]
    assert len(server.session.actions) > 30
    if fusion:
        kinds = [entry.kind for entry in truth.states[-1].log]
        assert "fuse" in kinds and "timer" in kinds, "the game fused and kept a timer"
    # Every seat got most of its views as changes, each scanned with its view.
    assert changes > len(server.session.actions)

    # The scanner catches a leak built from the same truth.
    state = truth.states[len(truth.states) // 2]
    leaky = json.dumps(
        {
            "type": "view",
            "version": len(truth.states) // 2,
            "view": seat_view(state, 0, every_hand=True).to_json(),
        }
    ).encode()
    assert truth.scan(leaky, 0, len(truth.states) // 2)[0]
    honest = json.dumps(
        {"type": "view", "version": len(truth.states) // 2, "view": seat_view(state, 0).to_json()}
    ).encode()
    assert truth.scan(honest, 0, len(truth.states) // 2)[0] == []
