"""Bytes a shared table sends in a game: whole views against views sent as
what changed, for both games, in one run.

Each game is played twice through a real host (``TableServer`` over its
Unix socket, in a child process): once with every view sent whole, once
with views after a client's first sent as changes (``dbdeck.net.delta``).
Two seats and a spectator connect from this process; a driver plays the
seats from their own views and offers only, in lockstep (it waits until
every seat has the view of the version before choosing), with a seeded
random choice, so both runs play the same game. Counted: every byte the
clients received (views, changes, events, seats, welcome), the host's CPU
time (from ``/proc/PID/stat``) and the clients' (this process).

- the CCG: Goku against Raditz (the packaged decks), two random players
  that prefer turn and combat offers, as in ``tests/test_ccg_privacy.py``;
- the deckbuilding game: Goku and Krillin against Freezer, random offers.

    python benchmarks/wire_delta.py [--seed N] [--ccg-seed N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dbdeck.net.client import TableClient
from dbdeck.net.protocol import ActionMessage, ViewMessage

CAP = 3000
"""The most actions of one game."""

_HOST = """
import asyncio, itertools, json, sys
from pathlib import Path
from dbdeck.net.server import TableServer
from dbdeck.saves import Session

def session(game: str, folder: Path, seed: int) -> Session:
    if game == "ccg":
        from dbdeck.games.ccg.library import load_library
        from dbdeck.games.ccg.match import CcgRules
        decks = Path("cards/ccg/decks")
        rules = CcgRules(load_library(include_env_packs=False))
        setup = rules.read_setup({
            "players": ["alice", "bob"],
            "decks": [(decks / "goku.txt").read_text(), (decks / "raditz.txt").read_text()],
            "seed": seed,
        })
    else:
        from dbdeck.games.deckbuilding.cards.catalog import load_catalog
        from dbdeck.games.deckbuilding.engine.game import Setup
        from dbdeck.games.deckbuilding.match import DeckbuildingRules
        rules = DeckbuildingRules(load_catalog(include_env_packs=False))
        setup = Setup(characters=["goku", "krillin"], villain="freezer", seed=seed)
    return Session.start(rules, setup, folder, save_id="bench")

async def main(game: str, folder: Path, seed: int, deltas: bool) -> None:
    names = iter(["alice", "bob", "carol"])
    server = TableServer(
        session(game, folder, seed), "bench", socket_path=folder / "bench.sock",
        owner="alice", identify=lambda writer: next(names), admits=lambda user: True,
        bot_delay=0.0, announce=False, deltas=deltas,
    )
    await server.start()
    print(json.dumps({"ready": True}), flush=True)
    await server.serve_forever()

asyncio.run(main(sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"))
"""


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class CountingClient(TableClient):
    """A client that counts the bytes it receives and keeps its latest view."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        super().__init__(reader, writer)
        self.received = 0
        self.changes = 0
        self.view: ViewMessage | None = None
        self.changed = asyncio.Event()

    async def receive_line(self) -> bytes:
        line = await super().receive_line()
        self.received += len(line)
        self.changes += line.startswith(b'{"type":"view-delta"')
        return line

    async def read(self) -> None:
        """Read until the connection ends, keeping the latest view."""
        while (message := await self.receive()) is not None:
            if isinstance(message, ViewMessage):
                self.view = message
                self.changed.set()

    async def view_at(self, version: int) -> ViewMessage:
        """The latest view, once it is of at least ``version``."""
        while self.view is None or self.view.version < version:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 60)
        return self.view


@dataclass
class Run:
    """One game's figures."""

    actions: int
    sent: int
    changes: int
    host_cpu: float
    clients_cpu: float


Choose = Callable[[list[dict[str, Any]], random.Random], dict[str, Any]]


def any_offer(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random offer."""
    return rng.choice(legal)


def ccg_offer(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random offer, mostly of the turn or of combat."""
    plain = [o for o in legal if o.get("group") in ("turn", "combat")]
    return rng.choice(plain if plain and rng.random() < 0.93 else legal)


async def play(game: str, choose: Choose, seed: int, deltas: bool) -> Run:
    """Host a game in a child process, seat two players and a spectator,
    play to the end."""
    with tempfile.TemporaryDirectory() as folder:
        host = subprocess.Popen(
            [sys.executable, "-c", _HOST, game, folder, str(seed), "1" if deltas else "0"],
            stdout=subprocess.PIPE,
            cwd=Path(__file__).resolve().parent.parent,
        )
        try:
            assert host.stdout is not None
            json.loads(host.stdout.readline())
            return await _drive(Path(folder) / "bench.sock", host.pid, game, choose, seed)
        finally:
            host.terminate()
            host.wait()


async def _drive(socket_path: Path, pid: int, game: str, choose: Choose, seed: int) -> Run:
    clients: list[CountingClient] = []
    for hello in ({"seat": 0}, {"seat": 1}, {"spectate": True}):
        client = await CountingClient.connect(socket_path=socket_path)
        assert isinstance(client, CountingClient)
        await client.hello(game=game, **hello)
        clients.append(client)
    readers = [asyncio.get_running_loop().create_task(c.read()) for c in clients]
    host_start, clients_start = cpu_seconds(pid), time.process_time()
    seats, rng, version = clients[:2], random.Random(seed), 0
    while version < CAP:
        views = [await seat.view_at(version) for seat in seats]
        acting = next((i for i, v in enumerate(views) if v.legal), None)
        if acting is None:
            break  # the game is over
        offer = choose(views[acting].legal, rng)
        await seats[acting].send(
            ActionMessage(type="action", version=version, action=offer["action"])
        )
        version = (await seats[acting].view_at(version + 1)).version
    for seat in clients:
        await seat.view_at(version)
    await asyncio.sleep(0.2)  # the last lines are read
    host_cpu, clients_cpu = cpu_seconds(pid) - host_start, time.process_time() - clients_start
    for client in clients:
        await client.close()
    for reader in readers:
        reader.cancel()
    return Run(
        version,
        sum(c.received for c in clients),
        sum(c.changes for c in clients),
        host_cpu,
        clients_cpu,
    )


def _mb(size: int) -> str:
    return f"{size / 1e6:.2f} MB"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=11, help="the deckbuilding game's seed")
    parser.add_argument("--ccg-seed", type=int, default=58213907, help="the CCG game's seed")
    args = parser.parse_args()
    games: list[tuple[str, str, Choose, int]] = [
        ("ccg", "CCG, Goku v Raditz", ccg_offer, args.ccg_seed),
        ("deckbuilding", "deckbuilding, Goku and Krillin v Freezer", any_offer, args.seed),
    ]
    print(f"load average {os.getloadavg()[0]:.1f}")
    for game, title, choose, seed in games:
        whole = await play(game, choose, seed, deltas=False)
        changed = await play(game, choose, seed, deltas=True)
        same = "the same game" if whole.actions == changed.actions else "GAMES DIFFER"
        print(
            f"{title}: {changed.actions} actions ({same}), 2 seats and a spectator\n"
            f"  views whole:   {_mb(whole.sent)} sent; CPU {_ms(whole.host_cpu, whole)} "
            f"host, {_ms(whole.clients_cpu, whole)} clients\n"
            f"  views changed: {_mb(changed.sent)} sent ({changed.changes} views as "
            f"changes); CPU {_ms(changed.host_cpu, changed)} host, "
            f"{_ms(changed.clients_cpu, changed)} clients\n"
            f"  ratio:         {whole.sent / changed.sent:.1f}x fewer bytes "
            f"({whole.sent / whole.actions / 1e3:.1f} kB an action, now "
            f"{changed.sent / changed.actions / 1e3:.1f} kB)"
        )


def _ms(seconds: float, run: Run) -> str:
    return f"{seconds / run.actions * 1e3:.1f} ms an action"


if __name__ == "__main__":
    asyncio.run(main())
