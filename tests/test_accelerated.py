"""The accelerated engine (``tools/build_accelerated.py``) is optional: with
only the source files, as a plain install has them, the engine imports and
plays every Villain; and the build's list of modules names files that exist."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SOURCE_ONLY = r"""
import sys
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, SourceFileLoader

class SourceOnly:
    # Finds dbdeck's modules as source files only: compiled extensions
    # built beside them are not seen, as in a plain install.
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name.split(".")[0] not in ("dbdeck", "dbdeck_engine__mypyc"):
            return None
        for entry in path or sys.path:
            spec = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES)).find_spec(name)
            if spec is not None:
                return spec
        return None

sys.meta_path.insert(0, SourceOnly)

from dbdeck.games.deckbuilding.cards.catalog import load_catalog
from dbdeck.games.deckbuilding.engine.game import Setup
from dbdeck.games.deckbuilding.sim import play

catalog = load_catalog()
for villain in ("freezer", "broly", "raditz", "vegeta-nappa", "androids-17-18", "androids-19-20"):
    result = play(catalog, Setup(villain=villain, characters=["goku", "krillin"], seed=1))
    assert not result.error, (villain, result.error)
    assert result.winner, villain
compiled = [
    name for name, module in sys.modules.items()
    if name.startswith("dbdeck") and not str(getattr(module, "__file__", ".py")).endswith(".py")
]
assert not compiled, compiled
print("ok")
"""


def test_the_engine_runs_from_its_source_files_alone() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SOURCE_ONLY],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_the_build_compiles_existing_modules_and_keeps_the_listed_ones_python() -> None:
    spec = importlib.util.spec_from_file_location(
        "build_accelerated", ROOT / "tools" / "build_accelerated.py"
    )
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    compiled = {path.relative_to(build.PACKAGE).as_posix() for path in build.modules()}
    assert compiled, "nothing to compile"
    assert all((build.PACKAGE / rel).is_file() for rel in compiled)
    assert all((build.PACKAGE / rel).is_file() for rel in build.STAY_PYTHON)
    assert not compiled & set(build.STAY_PYTHON)
    assert not any(rel.startswith("engine/villains/") for rel in compiled)
