"""Where the user waits: the quick commands and the first drawn table, each
beside its peer, measured in the same run.

Each command is started afresh, its runs alternated with its peer's so that
both meet the same machine, and the ratio is the median of the run-by-run
ratios. The package is compiled to bytecode first and the caches are warm
(one run of each, not counted), as on any start but the first.

Goals:

* ``dbdeck --help``: at most 50 ms (its peer, a bare interpreter, is shown);
* ``dbdeck ccg check`` of the two shipped sample decks: at most 1.5x
  ``python -c 'import pydantic'``;
* ``dbdeck cards validate``, warm cache: at most 1.0x ``import pydantic``;
* the first drawn table (``dbdeck play``, until its prompt is on screen in
  a 160x50 pseudo-terminal): at most 1.5x a hello-world Textual app.

    python benchmarks/startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tui import PEER_APP, first_frame  # benchmarks/tui.py, beside this script

import dbdeck

ROOT = Path(__file__).resolve().parent.parent
DBDECK = [sys.executable, "-m", "dbdeck"]
DECKS = [str(ROOT / "cards" / "ccg" / "decks" / name) for name in ("goku.txt", "raditz.txt")]


def _env(cache: Path) -> dict[str, str]:
    """This process's environment, with the cache in ``cache``, bytecode
    written and no packs of the developer's."""
    skip = ("PYTHONDONTWRITEBYTECODE", "DBDECK_PACKS")
    env = {k: v for k, v in os.environ.items() if k not in skip}
    env["DBDECK_CACHE_DIR"] = str(cache)
    return env


def _wall(command: list[str], env: dict[str, str]) -> Callable[[], float]:
    """A function timing one whole run of ``command``."""

    def run() -> float:
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, env=env)
        return time.perf_counter() - start

    return run


def _pairs(
    ours: Callable[[], float], peer: Callable[[], float], runs: int
) -> tuple[list[float], list[float]]:
    """Both timed ``runs`` times, alternated, after one run of each not counted."""
    ours(), peer()
    mine: list[float] = []
    theirs: list[float] = []
    for _ in range(runs):
        mine.append(ours())
        theirs.append(peer())
    return mine, theirs


def _line(label: str, mine: list[float], theirs: list[float], goal: str) -> str:
    """One result: both medians and the median of the run-by-run ratios."""
    ratio = statistics.median(a / b for a, b in zip(mine, theirs, strict=True))
    return (
        f"{label:<40} {statistics.median(mine) * 1e3:7.1f} ms  "
        f"peer {statistics.median(theirs) * 1e3:6.1f} ms  {ratio:5.2f}x  (goal {goal})"
    )


def main() -> None:
    """Time each command against its peer and print the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="runs of each command (default 9)")
    args = parser.parse_args()
    compileall.compile_dir(Path(dbdeck.__file__).parent, quiet=1)
    with tempfile.TemporaryDirectory(prefix="dbdeck-startup-") as scratch:
        env = _env(Path(scratch) / "cache")
        bare = _wall([sys.executable, "-c", "pass"], env)
        pydantic = _wall([sys.executable, "-c", "import pydantic"], env)
        lines = []
        mine, theirs = _pairs(_wall([*DBDECK, "--help"], env), bare, args.runs)
        lines.append(
            _line("dbdeck --help (peer: python -c pass)", mine, theirs, "<= 50 ms")
            + ("  met" if statistics.median(mine) <= 0.050 else "  NOT met")
        )
        check = _wall([*DBDECK, "ccg", "check", *DECKS], env)
        mine, theirs = _pairs(check, pydantic, args.runs)
        lines.append(_line("dbdeck ccg check, the two sample decks", mine, theirs, "<= 1.5x"))
        validate = _wall([*DBDECK, "cards", "validate"], env)
        mine, theirs = _pairs(validate, pydantic, args.runs)
        lines.append(_line("dbdeck cards validate, warm cache", mine, theirs, "<= 1.0x"))
        peer_file = Path(scratch, "peer.py")
        peer_file.write_text(PEER_APP)
        saves = str(Path(scratch, "saves"))
        # The table runs in this process's environment (``first_frame``):
        # the same one as the commands above.
        for name in ("PYTHONDONTWRITEBYTECODE", "DBDECK_PACKS"):
            os.environ.pop(name, None)
        os.environ["DBDECK_CACHE_DIR"] = str(Path(scratch) / "cache")
        play = [
            *DBDECK,
            *("play", "--villain", "freezer", "--characters", "goku,krillin"),
            *("--seed", "3", "--pace", "0"),
        ]
        mine, theirs = _pairs(
            lambda: first_frame(play, saves),
            lambda: first_frame([sys.executable, str(peer_file)], saves),
            args.runs,
        )
        lines.append(_line("first drawn table (peer: hello-world app)", mine, theirs, "<= 1.5x"))
    print(f"median of {args.runs} runs each; ratio: the median of the run-by-run ratios")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
