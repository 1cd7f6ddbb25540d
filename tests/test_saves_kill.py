"""Kill -9 at any moment loses no acknowledged action.

A child process plays a bot game through ``Session.apply`` and prints each
action's number once ``apply`` has returned (the action is acknowledged).
The test kills it with SIGKILL at a different moment each round; the save
on disk then opens, whole, with at least every acknowledged action, and goes
on identically to a game that was never interrupted.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.actions import action_from_json
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.saves import Session

CHILD = textwrap.dedent(
    """
    import random, sys
    from pathlib import Path
    from dbdeck.games.deckbuilding import bots
    from dbdeck.games.deckbuilding.cards.catalog import load_catalog
    from dbdeck.games.deckbuilding.engine.game import Setup
    from dbdeck.games.deckbuilding.match import DeckbuildingRules
    from dbdeck.saves import Session

    folder = Path(sys.argv[1])
    catalog = load_catalog(include_env_packs=False)
    setup = Setup(characters=["goku", "krillin"], villain="freezer", seed=21)
    session = Session.start(DeckbuildingRules(catalog), setup, folder, save_id="game")
    print("started", flush=True)
    rng = random.Random(21)
    done = 0
    while not session.match.game.over:
        session.apply(bots.greedy(session.match.game, rng))
        done += 1
        print(done, flush=True)
    """
)


def _run_and_kill(folder: Path, after: float) -> int:
    """Start the child, kill it ``after`` seconds into its game; the number of
    actions it acknowledged."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(folder)],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert child.stdout is not None
    acked, started, seen = 0, None, b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if started is not None and time.monotonic() - started >= after:
            break
        ready, _, _ = select.select([child.stdout], [], [], 0.005)
        if not ready:
            if child.poll() is not None:
                break
            continue
        chunk = os.read(child.stdout.fileno(), 4096)
        if not chunk:
            break
        seen += chunk
        *lines, rest = seen.split(b"\n")
        seen = rest
        for line in lines:
            if line == b"started":
                started = time.monotonic()
            elif line.isdigit():
                acked = int(line)
    child.send_signal(signal.SIGKILL)
    child.wait()
    # What was printed before the kill is acknowledged too.
    for line in (seen + child.stdout.read()).split(b"\n"):
        if line.isdigit():
            acked = max(acked, int(line))
    child.stdout.close()
    return acked


def test_kill_9_loses_no_acknowledged_action(catalog: Catalog, tmp_path: Path) -> None:
    truth = Game.new(catalog, Setup(characters=["goku", "krillin"], villain="freezer", seed=21))
    rounds = 0
    for index, after in enumerate((0.05, 0.15, 0.3, 0.5, 0.8)):
        folder = tmp_path / f"round-{index}"
        acked = _run_and_kill(folder, after)
        if not (folder / "game.json").exists():
            continue  # killed before the first save: nothing was acknowledged
        session = Session.resume(DeckbuildingRules(catalog), folder, "game")
        try:
            assert len(session.actions) >= acked, (after, acked, len(session.actions))
            # The save is the uninterrupted game after that many actions.
            replayed = truth.clone()
            for data in session.actions:
                replayed.apply(action_from_json(data))
            assert replayed.fingerprint() == session.match.game.fingerprint()
            assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]
        finally:
            session.close()
        rounds += 1
    assert rounds >= 3
