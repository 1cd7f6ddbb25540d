"""How long checking a deck of many repeated lines takes, against a normal deck.

The peer is the sample 75-card Goku deck (``tests/ccg/goku-75.txt``),
checked in the same run. Each other deck is that deck with about 480 lines
added, some 10 KB in all: the Main Personality's cards of two characters
repeated, two unknown titles repeated (each asks for the titles close to
it), one known card line repeated, and 480 distinct unknown titles. Prints,
for each, the median time of ``check_deck`` (parsing included, in one
process) and of ``dbdeck ccg check`` as a whole process, with its ratio to
the peer's.

Aim: checking a 480-line deck takes at most 0.2 s more than the normal deck,
in one process and as a whole command.

    python benchmarks/ccg_deck.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dbdeck.games.ccg.checker import check_deck
from dbdeck.games.ccg.deckfile import parse_deck
from dbdeck.games.ccg.library import load_library
from dbdeck.games.ccg.profiles import profile

SAMPLE = Path(__file__).resolve().parent.parent / "tests" / "ccg" / "goku-75.txt"
LINES = 480


def decks() -> dict[str, str]:
    """Deck texts by name, the peer first."""
    sample = SAMPLE.read_text(encoding="utf-8")
    half = LINES // 2
    personalities = "\n".join(["1 Goku Level 1", "1 Vegeta Level 1"] * half)
    return {
        "normal deck (the peer)": sample,
        f"{LINES} Main Personality lines": sample.replace(
            "[Life Deck]", personalities + "\n[Life Deck]"
        ),
        f"{LINES} unknown lines, 2 titles": sample
        + "\n".join(["1 Zorblax Thing", "1 Gokus Physical Atack"] * half)
        + "\n",
        f"{LINES} known lines, 1 title": sample
        + "\n".join(["1 T-Rex Offense (Saiyan #227)"] * LINES)
        + "\n",
        f"{LINES} unknown lines, all distinct": sample
        + "\n".join(f"1 Unknown Card {n}" for n in range(LINES))
        + "\n",
    }


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timings per figure")
    args = parser.parse_args()
    library = load_library()
    rules = profile("errata-2001")
    texts = decks()
    inside: dict[str, list[float]] = {name: [] for name in texts}
    whole: dict[str, list[float]] = {name: [] for name in texts}
    with tempfile.TemporaryDirectory(prefix="dbdeck-bench-") as scratch:
        paths = {}
        for index, (name, text) in enumerate(texts.items()):
            paths[name] = Path(scratch) / f"deck-{index}.txt"
            paths[name].write_text(text, encoding="utf-8")
        command = [sys.executable, "-m", "dbdeck", "ccg", "check"]
        subprocess.run([*command, str(paths["normal deck (the peer)"])], capture_output=True)
        for _ in range(args.runs):  # the decks in turn, so each sees the same machine
            for name, text in texts.items():
                start = time.perf_counter()
                check_deck(parse_deck(text), library, rules)
                inside[name].append(time.perf_counter() - start)
                start = time.perf_counter()
                subprocess.run([*command, str(paths[name])], capture_output=True)
                whole[name].append(time.perf_counter() - start)
    peer = next(iter(texts))
    print(f"median of {args.runs} runs each; ratios and differences against the normal deck")
    print(f"{'deck':<34} {'bytes':>6} {'check_deck':>11} {'extra':>9} {'command':>10} {'ratio':>6}")
    for name, text in texts.items():
        check, command_ms = _median_ms(inside[name]), _median_ms(whole[name])
        extra = check - _median_ms(inside[peer])
        ratio = command_ms / _median_ms(whole[peer])
        print(
            f"{name:<34} {len(text.encode()):>6} {check:8.1f} ms {extra:+6.1f} ms "
            f"{command_ms:7.0f} ms {ratio:5.2f}×"
        )


if __name__ == "__main__":
    main()
