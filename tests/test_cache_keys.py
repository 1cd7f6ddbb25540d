"""The card caches' keys hold every module whose code decides what a load
holds: each module that the loading and validating code imports (at any
depth, within dbdeck) is hashed into its cache's key, so a change to any of
them is never answered from a cache made by the old code."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from dbdeck.games.ccg import library_cache
from dbdeck.games.deckbuilding.cards import cache as catalog_cache

REPO = Path(__file__).resolve().parent.parent

NOT_CONTENT = {"dbdeck.folders"}
"""Modules the loaders import that only say where folders are."""


def _path(module: str) -> Path | None:
    plain = REPO / (module.replace(".", "/") + ".py")
    if plain.exists():
        return plain
    package = REPO / module.replace(".", "/") / "__init__.py"
    return package if package.exists() else None


def _imported(module: str, path: Path) -> set[str]:
    """Every module ``module`` imports, anywhere in its code (inside
    functions and ``TYPE_CHECKING`` blocks too)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def _closure(roots: list[str]) -> set[Path]:
    """The files of the dbdeck modules the roots import, at any depth."""
    seen: set[str] = set()
    files: set[Path] = set()
    todo = list(roots)
    while todo:
        module = todo.pop()
        if module in seen or not module.startswith("dbdeck.") or module in NOT_CONTENT:
            continue
        seen.add(module)
        path = _path(module)
        if path is None:
            continue
        if path.name != "__init__.py":
            files.add(path.resolve())
        todo += sorted(_imported(module, path))
    return files


@pytest.mark.parametrize(
    ("roots", "where", "listed"),
    [
        (
            ["dbdeck.games.ccg.library", "dbdeck.games.ccg.models"],
            Path(library_cache.__file__).parent,
            library_cache._CODE_FILES,
        ),
        (
            ["dbdeck.games.deckbuilding.cards.catalog"],
            Path(catalog_cache.__file__).parent,
            catalog_cache._CODE_FILES,
        ),
    ],
    ids=["ccg-library", "catalog"],
)
def test_a_cache_key_hashes_every_module_its_loader_imports(
    roots: list[str], where: Path, listed: tuple[str, ...]
) -> None:
    hashed = {(where / name).resolve() for name in listed}
    assert all(path.exists() for path in hashed), "a hashed file does not exist"
    missing = sorted(str(p.relative_to(REPO)) for p in _closure(roots) - hashed)
    assert not missing, f"imported by the loader but not in its cache key: {missing}"
