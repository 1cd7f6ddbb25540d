"""A busy table: host CPU per action and round trips, at 2 and 16 clients.

A real host (``TableServer``, its game saved after every action) runs in a
child process on loopback TCP; this process connects the clients over real
sockets: two seats (Goku and Krillin against Freezer) and, at 16 clients,
14 spectators. A driver plays the game from the seats' own views and
offers (a seeded random offer each time), one action at a time. Measured:

- the host's CPU time per action (user + system, from ``/proc/PID/stat``,
  over the whole run once every client has joined);
- the round trip of each action: from sending it to the acting seat
  receiving its next view (median and p99).

Runs at 2 and 16 clients alternate, so both see the same machine; the box's
load average is printed. Aims: host CPU per action at 16 clients at most
twice that at 2, and the p99 round trip at 16 clients at most 100 ms.

    python benchmarks/busy_table.py [--actions N] [--rounds R]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from dbdeck.games.deckbuilding.engine.panels import Offer
from dbdeck.net.client import TableClient
from dbdeck.net.protocol import ActionMessage, ViewMessage

SEATS = 2
"""Seats at the table (Goku and Krillin); the other clients watch."""

_HOST = """
import asyncio, itertools, json, sys
from pathlib import Path
from dbdeck.games.deckbuilding.cards.catalog import load_catalog
from dbdeck.games.deckbuilding.engine.game import Setup
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.net.server import TableServer
from dbdeck.saves import Session

async def main(folder: Path, seed: int) -> None:
    catalog = load_catalog(include_env_packs=False)
    setup = Setup(characters=["goku", "krillin"], villain="freezer", seed=seed)
    session = Session.start(DeckbuildingRules(catalog), setup, folder, save_id="busy")
    names = (f"user{i}" for i in itertools.count())
    server = TableServer(
        session, "busy", tcp=("127.0.0.1", 0), join_token="busy-table-benchmark-token",
        owner="user0", identify=lambda writer: next(names), admits=lambda user: True,
        announce=False, bot_delay=0.0,
    )
    await server.start()
    print(json.dumps({"port": server.tcp[1]}), flush=True)
    await server.serve_forever()

asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2])))
"""


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


@dataclass
class Run:
    """One game's figures."""

    clients: int
    actions: int = 0
    cpu: float = 0.0
    trips: list[float] = field(default_factory=list)


class Watcher:
    """A client that keeps the latest view it received (a seat), or only
    reads the lines (a spectator)."""

    def __init__(self, client: TableClient, seat: bool) -> None:
        self.client = client
        self.seat = seat
        self.view: ViewMessage | None = None
        self.changed = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        while True:
            if not self.seat:
                if not await self.client.receive_line():
                    return
                continue
            message = await self.client.receive()
            if message is None:
                return
            if isinstance(message, ViewMessage):
                self.view = message
                self.changed.set()

    async def view_at(self, version: int) -> ViewMessage:
        """The first view of at least ``version``."""
        while self.view is None or self.view.version < version:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 30)
        return self.view


async def play(port: int, pid: int, clients: int, actions: int, seed: int) -> Run:
    """Connect ``clients`` clients, play ``actions`` actions; the figures."""
    token = "busy-table-benchmark-token"
    watchers = []
    for i in range(clients):
        client = await TableClient.connect(tcp=("127.0.0.1", port))
        seat = i < SEATS
        hello = {"seat": i} if seat else {"spectate": True}
        await client.hello(join_token=token, **hello)
        watchers.append(Watcher(client, seat))
    seats = watchers[:SEATS]
    rng = random.Random(seed)
    run = Run(clients)
    version = 0
    await asyncio.sleep(0.3)  # every join's messages are out
    start = cpu_seconds(pid)
    while run.actions < actions:
        views = [await s.view_at(version) for s in seats]
        acting = next((i for i, v in enumerate(views) if v.legal), None)
        if acting is None:
            break  # the game is over
        view = views[acting]
        offers = [Offer.from_json(o) for o in view.legal]
        action = rng.choice(offers).action
        sent = time.perf_counter()
        await seats[acting].client.send(
            ActionMessage(type="action", version=view.version, action=action.to_json())
        )
        await seats[acting].view_at(view.version + 1)
        run.trips.append(time.perf_counter() - sent)
        version = view.version + 1
        run.actions += 1
    await asyncio.sleep(0.3)  # the host's last writes are done
    run.cpu = cpu_seconds(pid) - start
    for watcher in watchers:
        watcher.task.cancel()
        await watcher.client.close()
    return run


def one_run(clients: int, actions: int, seed: int) -> Run:
    """A fresh host, ``clients`` clients, one game."""
    with tempfile.TemporaryDirectory(prefix="dbdeck-busy-") as folder:
        env = dict(os.environ, XDG_STATE_HOME=folder, DBDECK_TABLES=f"{folder}/tables")
        host = subprocess.Popen(
            [sys.executable, "-c", _HOST, folder, str(seed)],
            stdout=subprocess.PIPE,
            env=env,
            text=True,
        )
        try:
            assert host.stdout is not None
            port = json.loads(host.stdout.readline())["port"]
            return asyncio.run(play(port, host.pid, clients, actions, seed))
        finally:
            host.terminate()
            host.wait(10)


def p99(values: list[float]) -> float:
    """The 99th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=160, help="actions a game")
    parser.add_argument("--rounds", type=int, default=3, help="games at each size, alternated")
    args = parser.parse_args()
    sizes = (2, 16)
    runs: dict[int, list[Run]] = {n: [] for n in sizes}
    load = os.getloadavg()
    for r in range(args.rounds):
        for n in sizes:
            runs[n].append(one_run(n, args.actions, seed=r + 1))
    load_after = os.getloadavg()
    print(
        f"load average {load[0]:.2f} before, {load_after[0]:.2f} after "
        f"({os.cpu_count()} cores); {args.rounds} games each, alternated"
    )
    print(f"{'clients':>7} {'actions':>7} {'host CPU/action':>16} {'RTT median':>11} {'p99':>9}")
    figures: dict[int, tuple[float, float]] = {}
    for n in sizes:
        actions = sum(r.actions for r in runs[n])
        cpu = sum(r.cpu for r in runs[n]) / actions
        trips = [t for r in runs[n] for t in r.trips]
        figures[n] = (cpu, p99(trips))
        print(
            f"{n:>7} {actions:>7} {cpu * 1e3:>13.2f} ms {statistics.median(trips) * 1e3:>8.2f} ms"
            f" {p99(trips) * 1e3:>6.1f} ms"
        )
    ratio = figures[16][0] / figures[2][0]
    print(f"host CPU per action, 16 / 2 clients: {ratio:.2f}x (aim: 2x or less)")
    print(f"p99 round trip at 16 clients: {figures[16][1] * 1e3:.1f} ms (aim: 100 ms or less)")


if __name__ == "__main__":
    main()
