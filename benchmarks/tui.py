"""How fast the table appears and answers, beside a bare Textual app.

Prints median and interquartile range of:

* launch to first drawn table: ``dbdeck play`` started in a pseudo-terminal,
  until the prompt naming the next steps is on screen (interpreter start-up
  included);
* the same for the peer, measured in the same run: a Textual app of a
  header, one line of text and a footer, which is as fast as a Textual
  program can appear on this machine; the ratio says what the table adds;
* key press to redrawn table: in a headless Textual app, from an action
  taken (play an Energy card) until the first frame showing it is composed;
* key press to idle: until every follow-up frame (the log scrolling to its
  end) is drawn too.

Aims: first table under 600 ms, redraw under 50 ms.

The package is compiled to bytecode first, as an installed program is:
otherwise every launch would also time the compiler.

    python benchmarks/tui.py [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path
from typing import Any

from engine import figure_line  # benchmarks/engine.py, beside this script
from textual.screen import Screen

import dbdeck
from dbdeck.games.deckbuilding.cards.catalog import load_catalog
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.tui.app import DbdeckApp
from dbdeck.games.deckbuilding.tui.play import Seating

PEER_APP = """
from textual.app import App
from textual.widgets import Footer, Header, Static

class Peer(App):
    def compose(self):
        yield Header()
        yield Static("end the turn (e)")
        yield Footer()

Peer().run()
"""
"""The peer: the smallest Textual app that draws what the measure waits for."""

READY = b"end the turn (e)"
"""What both programs draw once their first screen is up."""


def first_frame(command: list[str], saves: str) -> float:
    """Seconds from starting ``command`` in a 160×50 pseudo-terminal until
    ``READY`` is on its screen."""
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["TERM"] = "xterm-256color"
    env["DBDECK_SAVES"] = saves
    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 160, 0, 0))
    start = time.perf_counter()
    process = subprocess.Popen(
        command, stdin=child, stdout=child, stderr=child, env=env, close_fds=True
    )
    os.close(child)
    seen = b""
    elapsed = float("nan")
    while time.perf_counter() - start < 30:
        if select.select([main], [], [], 0.005)[0]:
            try:
                seen += os.read(main, 65536)
            except OSError:  # the program ended before drawing
                break
            if READY in seen:
                elapsed = time.perf_counter() - start
                break
    process.kill()
    process.wait()
    os.close(main)
    return elapsed


def launches(runs: int) -> tuple[list[float], list[float]]:
    """The table's and the peer's launch times, alternated run by run so
    that both meet the same machine."""
    play = [
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
    ]
    with tempfile.TemporaryDirectory() as folder:
        peer_file = Path(folder, "peer.py")
        peer_file.write_text(PEER_APP)
        saves = str(Path(folder, "saves"))
        # One launch each first, not counted: it fills the validated-catalog
        # cache (as any first start does) and the system's file cache.
        first_frame(play, saves)
        first_frame([sys.executable, str(peer_file)], saves)
        ours, peer = [], []
        for _ in range(runs):
            ours.append(first_frame(play, saves))
            peer.append(first_frame([sys.executable, str(peer_file)], saves))
    return ours, peer


async def redraws(runs: int) -> tuple[list[float], list[float]]:
    """Per action taken: seconds to the first composed frame, and to idle."""
    catalog = load_catalog(include_env_packs=False)
    frames: list[float] = []
    composed = Screen._compositor_refresh

    def timed(screen: Screen[Any]) -> None:
        composed(screen)
        frames.append(time.perf_counter())

    Screen._compositor_refresh = timed  # type: ignore[method-assign,assignment]
    first, idle = [], []
    try:
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
                    action = next(
                        (o.action for o in offers if o.action.type == "play-energy"), None
                    )
                    if action is None:
                        break
                    frames.clear()
                    start = time.perf_counter()
                    screen.play(action)  # type: ignore[attr-defined]
                    await pilot.pause()
                    idle.append(time.perf_counter() - start)
                    if frames:
                        first.append(frames[0] - start)
    finally:
        Screen._compositor_refresh = composed  # type: ignore[method-assign]
    return first, idle


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    compileall.compile_dir(Path(dbdeck.__file__).parent, quiet=1)
    ours, peer = launches(args.runs)
    print(figure_line("launch to first drawn table (pty)", ours, "ms", 1e3))
    print(figure_line("launch of a bare Textual app", peer, "ms", 1e3))
    ratio = sorted(a / b for a, b in zip(ours, peer, strict=True))[len(ours) // 2]
    print(f"{'first table / peer':<34} median {ratio:9.2f} x")
    first, idle = asyncio.run(redraws(args.runs))
    print(figure_line("action to first redrawn frame", first, "ms", 1e3))
    print(figure_line("action to idle (follow-up frames)", idle, "ms", 1e3))


if __name__ == "__main__":
    main()
