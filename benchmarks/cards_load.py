"""How long loading the card set takes, with a cold and a warm catalog cache.

Every figure is a median over several runs, each in a fresh interpreter, with
its spread (min–max); whole-process times are also given as a ratio to a bare
interpreter start measured in the same run. Prints:

* the catalog load (``load_catalog()`` and the imports it needs, timed inside
  the process) with a cold cache (an empty cache folder: validates, with
  the kept validator of ``core_schema.json`` and so pydantic-core alone, and
  writes the cache) and a warm one (answers from the cache);
* ``dbdeck cards validate`` as a whole process, cold and warm;
* ``import dbdeck.games.deckbuilding.engine.game`` as a whole process;
* in one process, a fresh validation (``use_cache=False``) and a warm load,
  repeated.

Aims: ``cards validate`` at most 400 ms with a cold cache.

The runs use their own cache folders (``DBDECK_CACHE_DIR``), never the
user's, and write bytecode as an installed package would (a
``PYTHONDONTWRITEBYTECODE`` in the caller's environment is dropped; one
unmeasured run first compiles every module).

    python benchmarks/cards_load.py [--runs N] [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dbdeck.games.deckbuilding.cards.cache import CACHE_ENV
from dbdeck.games.deckbuilding.cards.catalog import load_catalog

_LOAD = (
    "import time, json\n"
    "start = time.perf_counter()\n"
    "from dbdeck.games.deckbuilding.cards.catalog import load_catalog\n"
    "catalog = load_catalog(include_env_packs=False)\n"
    "elapsed = time.perf_counter() - start\n"
    "import sys\n"
    "print(json.dumps([elapsed, len(catalog), 'pydantic' in sys.modules]))\n"
)


def _summary(label: str, samples: list[float], peer: float | None = None) -> str:
    ms = sorted(s * 1000 for s in samples)
    median = statistics.median(ms)
    spread = f"min {ms[0]:.1f}, max {ms[-1]:.1f}, n={len(ms)}"
    ratio = f"  {median / (peer * 1000):4.1f}× bare start" if peer else ""
    return f"{label:<44} median {median:7.1f} ms  ({spread}){ratio}"


def _env(cache: Path) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "DBDECK_PACKS")
    }
    env[CACHE_ENV] = str(cache)
    return env


def _wall(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, env=env)
    return time.perf_counter() - start


def _load(env: dict[str, str]) -> tuple[float, bool]:
    done = subprocess.run(
        [sys.executable, "-c", _LOAD], check=True, capture_output=True, text=True, env=env
    )
    elapsed, _, pydantic_loaded = json.loads(done.stdout)
    return float(elapsed), bool(pydantic_loaded)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="fresh interpreters per figure")
    parser.add_argument("--repeat", type=int, default=10, help="in-process repetitions")
    args = parser.parse_args()
    validate = [sys.executable, "-m", "dbdeck", "cards", "validate"]
    with tempfile.TemporaryDirectory(prefix="dbdeck-bench-") as scratch:
        root = Path(scratch)
        warm = _env(root / "warm")
        # Compiles and caches every module the runs import, and fills the warm cache.
        subprocess.run([*validate], check=True, capture_output=True, env=warm)
        _load(warm)

        def cold() -> dict[str, str]:
            shutil.rmtree(root / "cold", ignore_errors=True)
            return _env(root / "cold")

        bare = [_wall([sys.executable, "-c", "pass"], warm) for _ in range(args.runs)]
        peer = statistics.median(bare)
        cold_loads = [_load(cold()) for _ in range(args.runs)]
        warm_loads = [_load(warm) for _ in range(args.runs)]
        cold_validate = [_wall(validate, cold()) for _ in range(args.runs)]
        warm_validate = [_wall(validate, warm) for _ in range(args.runs)]
        importing = [sys.executable, "-c", "import dbdeck.games.deckbuilding.engine.game"]
        engine = [_wall(importing, warm) for _ in range(args.runs)]

    print(f"{len(load_catalog(include_env_packs=False, use_cache=False))} cards")
    print(_summary("bare interpreter start (the peer)", bare))
    print(_summary("catalog load, cold cache (in-process)", [t for t, _ in cold_loads]))
    print(_summary("catalog load, warm cache (in-process)", [t for t, _ in warm_loads]))
    print(
        "pydantic (not only pydantic-core) imported: cold "
        f"{'yes' if all(p for _, p in cold_loads) else 'no'}, "
        f"warm {'yes' if any(p for _, p in warm_loads) else 'no'}"
    )
    print(_summary("`dbdeck cards validate`, cold cache", cold_validate, peer))
    print(_summary("`dbdeck cards validate`, warm cache", warm_validate, peer))
    print(_summary("`import dbdeck.games.deckbuilding.engine.game` (whole process)", engine, peer))

    fresh = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        load_catalog(include_env_packs=False, use_cache=False)
        fresh.append(time.perf_counter() - start)
    print(_summary("validate + cross-check, in one process", fresh))
    with tempfile.TemporaryDirectory(prefix="dbdeck-bench-") as scratch:
        os.environ[CACHE_ENV] = scratch
        load_catalog(include_env_packs=False)
        hits = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            load_catalog(include_env_packs=False)
            hits.append(time.perf_counter() - start)
    print(_summary("warm cache hit, in one process", hits))


if __name__ == "__main__":
    main()
