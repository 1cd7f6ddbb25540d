"""Build the optional accelerated engine: the rules engine's hot modules
compiled to C extensions with mypyc, in place beside their sources.

Python imports an extension module (``rules.cpython-311-x86_64-linux-gnu.so``)
before the ``rules.py`` beside it, so after a build the compiled modules are
used and every other module stays plain Python; ``--clean`` removes the
extensions again and the pure-Python engine is back. Nothing in the normal
install needs this: it is an opt-in speed-up for simulations and searches.

Needs the development extras (mypy, which brings mypyc) and a C compiler:

    python tools/build_accelerated.py            # build (a few minutes)
    python tools/build_accelerated.py --list     # the modules it compiles
    python tools/build_accelerated.py --clean    # back to pure Python

Rebuild after changing a compiled module: an extension does not see later
edits to its ``.py`` file.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "dbdeck" / "games" / "deckbuilding"
BUILD = ROOT / "build"

COMPILED_DIRS = ("engine", "engine/actions")
"""The folders whose modules are compiled (not their sub-folders)."""
COMPILED_EXTRA = ("bots.py",)
"""Modules beside the engine compiled too."""
STAY_PYTHON = {
    # The task kinds' base classes: every task class is registered by a class
    # decorator, which mypyc cannot compile as a native class, and a
    # non-native class cannot inherit from a native one.
    "engine/tasks.py": "task classes are decorated (non-native)",
    # Class keywords (prefix=...) and __match_args__ on the interned holders.
    "engine/holders.py": "interned holders need __match_args__ and class keywords",
    # The action kinds' metaclass builds their slots; subclasses elsewhere
    # are non-native anyway, but the metaclass itself must stay Python.
    "engine/actions/kind.py": "ActionKind has a metaclass",
    "engine/chance.py": "TableRandom (a random.Random subclass) crashes in seed()",
    "engine/actions/play.py": "a starred tuple expression crashes mypyc",
    "engine/native.py": "the compile-time marks: nothing to gain",
}
"""Modules left in Python, and why. The Villain modules (``engine/villains/``)
stay Python too: their state classes override class constants that compiled
classes read as final."""


def modules() -> list[Path]:
    """The source files compiled, in a stable order."""
    found: list[Path] = []
    for folder in COMPILED_DIRS:
        for path in sorted((PACKAGE / folder).glob("*.py")):
            rel = path.relative_to(PACKAGE).as_posix()
            if path.name != "__init__.py" and rel not in STAY_PYTHON:
                found.append(path)
    found.extend(PACKAGE / name for name in COMPILED_EXTRA)
    return found


def compiled_files() -> list[Path]:
    """Extension modules (and mypyc's shared library) inside the tree."""
    return sorted(
        p for pattern in ("*.so", "*.pyd") for p in (ROOT / "dbdeck").rglob(pattern)
    ) + sorted(p for pattern in ("*.so", "*.pyd") for p in ROOT.glob(pattern))


def clean() -> None:
    for path in compiled_files():
        path.unlink()
        print(f"removed {path.relative_to(ROOT)}")
    if BUILD.exists():
        shutil.rmtree(BUILD)
        print("removed build/")


def build(opt_level: str) -> None:
    from mypyc.build import mypycify  # the development extras
    from setuptools import setup  # type: ignore[import-untyped]

    paths = [str(p.relative_to(ROOT)) for p in modules()]
    extensions = mypycify(
        paths, opt_level=opt_level, target_dir=str(BUILD / "mypyc"), group_name="dbdeck_engine"
    )
    setup(
        name="dbdeck-accelerated",
        packages=[],  # only the extensions: the sources stay where they are
        py_modules=[],
        ext_modules=extensions,
        script_args=["--quiet", "build_ext", "--inplace", "--build-temp", str(BUILD / "temp")],
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    parser.add_argument("--list", action="store_true", help="print the modules compiled")
    parser.add_argument("--opt-level", default="3", help="the C compiler's -O level")
    args = parser.parse_args()
    if args.list:
        for path in modules():
            print(path.relative_to(ROOT))
        for rel, why in STAY_PYTHON.items():
            print(f"stays Python: {rel} ({why})")
        return
    clean()
    if not args.clean:
        import os

        os.chdir(ROOT)
        build(args.opt_level)


if __name__ == "__main__":
    main()
