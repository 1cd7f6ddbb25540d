"""How many one-line changes to the rules the tests notice: a mutation run.

Runs mutmut (its settings are ``[tool.mutmut]`` in pyproject.toml: the
engine's rule modules and the CCG checks, against the scenario files and the
engine's own tests, no TUI test) at the lowest CPU priority, then prints the
kill rate and each surviving mutant with its diff. A survivor is a rule no
test pins, or a change that cannot be told apart from the original (an
equivalent mutant): read each one and write a scenario for the first kind.

Not in CI: it is slow (minutes per module on two cores). Run it over a few
modules at a time:

    python benchmarks/mutation.py                      # every module in the settings
    python benchmarks/mutation.py combat villains.freezer ccg.checks.size
    python benchmarks/mutation.py --report             # the last run's results only

A module is named below ``dbdeck.games.deckbuilding.engine`` (``combat``, ``villains.freezer``)
or from ``dbdeck`` (``ccg.checks.size``). Results stay in ``mutants/`` (git
ignores it); mutmut reruns only what changed since.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULT = re.compile(r"^\s+(?P<name>\S+): (?P<status>.+)$")
KILLED = {"killed", "timeout", "caught by type check"}
"""What counts as noticed: a timeout is a mutant that made the game loop."""


def mutmut() -> list[str]:
    """The mutmut command, niced where ``nice`` exists (the cores are shared)."""
    found = shutil.which("mutmut")
    if found is None:
        sys.exit("mutmut is not installed: pip install -e '.[dev]'")
    nice = shutil.which("nice")
    return ([nice, "-n", "19"] if nice else []) + [found]


def pattern(module: str) -> str:
    """The mutant-name pattern of one module (``combat`` →
    ``dbdeck.games.deckbuilding.engine.combat.*``)."""
    module = module.removesuffix(".py").replace("/", ".")
    if module.startswith("dbdeck."):
        return module + ".*"
    if module.startswith("ccg."):
        return f"dbdeck.{module}.*"
    return f"dbdeck.games.deckbuilding.engine.{module}.*"


def results() -> dict[str, str]:
    """Every mutant of the last runs and its status."""
    out = subprocess.run(
        [*mutmut(), "results", "--all", "true"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    found = {}
    for line in out.splitlines():
        if m := RESULT.match(line):
            found[m["name"]] = m["status"].strip()
    return found


def diff(name: str) -> str:
    """The change one mutant makes."""
    return subprocess.run(
        [*mutmut(), "show", name], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout


def report(modules: list[str]) -> int:
    """Print the kill rate and the survivors; 1 when a mutant survived."""
    everything = results()
    if modules:
        prefixes = [pattern(m).removesuffix("*") for m in modules]
        everything = {k: v for k, v in everything.items() if k.startswith(tuple(prefixes))}
    tried = {k: v for k, v in everything.items() if v != "not checked"}
    if not tried:
        print("No mutant was tried: run without --report first.")
        return 1
    counts = Counter(tried.values())
    killed = sum(n for status, n in counts.items() if status in KILLED)
    survived = [k for k, v in sorted(tried.items()) if v == "survived"]
    judged = killed + len(survived)
    rate = 100 * killed / judged if judged else 100.0
    print(f"mutants tried: {len(tried)} ({', '.join(f'{n} {s}' for s, n in counts.most_common())})")
    print(f"kill rate: {killed}/{judged} = {rate:.1f}% (mutants that no test runs left out)")
    for name in survived:
        print()
        print(diff(name).rstrip())
    return 1 if survived else 0


def main(argv: list[str] | None = None) -> int:
    """Run the mutants of the named modules (all of them by default) and report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "modules", nargs="*", help="modules to mutate (default: all in the settings)"
    )
    parser.add_argument("--report", action="store_true", help="only report the last run")
    parser.add_argument("--max-children", type=int, default=1, help="parallel mutants (default 1)")
    args = parser.parse_args(argv)
    if not args.report:
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        command = [*mutmut(), "run", "--max-children", str(args.max_children)]
        run = subprocess.run(command + [pattern(m) for m in args.modules], cwd=ROOT, env=env)
        if run.returncode not in (0, 1):
            return run.returncode
    return report(args.modules)


if __name__ == "__main__":
    sys.exit(main())
