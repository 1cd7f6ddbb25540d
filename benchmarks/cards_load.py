"""How long loading the card set takes.

Prints the in-process time to load, validate and cross-check the whole
shipped set, and the whole-process time of ``dbdeck cards validate``
(interpreter start-up included). Aims: under 10 ms in-process, under 400 ms
for the command.

    python benchmarks/cards_load.py [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from dbdeck.cards.catalog import load_catalog


def _summary(label: str, samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    spread = f"min {ms[0]:.1f}, max {ms[-1]:.1f}"
    return f"{label:<40} median {statistics.median(ms):7.1f} ms  ({spread}, n={len(ms)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30, help="in-process repetitions")
    args = parser.parse_args()

    first = time.perf_counter()
    catalog = load_catalog(include_env_packs=False)
    first = time.perf_counter() - first
    samples = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        load_catalog(include_env_packs=False)
        samples.append(time.perf_counter() - start)
    print(f"{len(catalog)} cards")
    print(_summary("first load (cold caches)", [first]))
    print(_summary("load + validate + cross-check", samples))

    command = [sys.executable, "-m", "dbdeck", "cards", "validate"]
    runs = []
    for _ in range(max(3, args.repeat // 6)):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        runs.append(time.perf_counter() - start)
    print(_summary("`dbdeck cards validate` (whole process)", runs))


if __name__ == "__main__":
    main()
