"""Files generated from the card models and kept in the repository
(``plain.py``, ``core_schema.json``): the command that rewrites one, or
with ``--check`` says whether it is stale."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

__all__ = ["generator_main"]


def generator_main(
    argv: list[str] | None, description: str, path: Path, make: Callable[[], str], module: str
) -> int:
    """Rewrite ``path`` with ``make()``'s text when it differs; with
    ``--check``, exit 1 when it is stale, naming ``python -m module``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help=f"exit 1 when {path.name} is stale")
    args = parser.parse_args(argv)
    text = make()
    current = path.read_text(encoding="utf-8") if path.exists() else ""
    if args.check:
        if text != current:
            print(f"{path} is stale: run python -m {module}")
            return 1
        return 0
    if text != current:
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0
