"""How fast the table appears and answers.

Prints median and spread of:

* launch to first drawn table: ``dbdeck play`` started in a pseudo-terminal,
  until the prompt naming the next steps is on screen (interpreter start-up included);
* key press to redrawn table: in a headless Textual app, from a key that
  applies an action (play an Energy card) until the screen is idle again.

Aims: first frame under 600 ms, redraw under 50 ms.

    python benchmarks/tui.py [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import os
import pty
import select
import statistics
import struct
import subprocess
import sys
import termios
import time

from dbdeck.cards.catalog import load_catalog
from dbdeck.engine.game import Game, Setup
from dbdeck.tui.app import DbdeckApp
from dbdeck.tui.table import Seating


def first_frame() -> float:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["TERM"] = "xterm-256color"
    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 160, 0, 0))
    start = time.perf_counter()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "dbdeck",
            "play",
            "--villain",
            "freezer",
            "--characters",
            "goku,krillin",
            "--seed",
            "3",
            "--pace",
            "0",
        ],
        stdin=child,
        stdout=child,
        stderr=child,
        env=env,
        close_fds=True,
    )
    os.close(child)
    seen = b""
    elapsed = float("nan")
    while time.perf_counter() - start < 30:
        if select.select([main], [], [], 0.01)[0]:
            seen += os.read(main, 65536)
            if b"end the turn (e)" in seen:
                elapsed = time.perf_counter() - start
                break
    os.write(main, b"q")
    end = time.perf_counter() + 10
    while process.poll() is None and time.perf_counter() < end:
        if select.select([main], [], [], 0.05)[0]:
            try:
                os.read(main, 65536)
            except OSError:
                break
    if process.poll() is None:
        process.kill()
    os.close(main)
    return elapsed


async def redraws(runs: int) -> list[float]:
    catalog = load_catalog(include_env_packs=False)
    samples = []
    for seed in range(runs):
        game = Game.new(
            catalog, Setup(characters=["goku", "krillin"], villain="freezer", seed=seed)
        )
        app = DbdeckApp(catalog, game, Seating(pace=0))
        async with app.run_test(size=(160, 50)) as pilot:
            await pilot.pause()
            screen = app.screen
            for _ in range(3):
                offers = screen.offers  # type: ignore[attr-defined]
                action = next((o.action for o in offers if o.action.type == "play-energy"), None)
                if action is None:
                    break
                start = time.perf_counter()
                screen.play(action)  # type: ignore[attr-defined]
                await pilot.pause()
                samples.append(time.perf_counter() - start)
    return samples


def _line(label: str, samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    return (
        f"{label:<36} median {statistics.median(ms):7.1f} ms  "
        f"(min {ms[0]:.1f}, max {ms[-1]:.1f}, n={len(ms)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(_line("launch to first drawn table (pty)", [first_frame() for _ in range(args.runs)]))
    print(_line("action key to redrawn table", asyncio.run(redraws(args.runs))))


if __name__ == "__main__":
    main()
