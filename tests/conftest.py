"""Shared fixtures: the shipped catalog (loaded once) and helpers for packs."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dbdeck.games.deckbuilding.cards.catalog import Catalog, load_catalog

# Snapshot tests compare colours: a NO_COLOR from the caller's environment
# would strip them, and a DBDECK_ASCII (or a locale or terminal without
# Unicode, which chooses ASCII by itself) would change the glyphs.
os.environ.pop("NO_COLOR", None)
os.environ["DBDECK_ASCII"] = "0"
os.environ["TEXTUAL_ANIMATIONS"] = "none"

# The tests (and every dbdeck they start) keep their validated-catalog cache
# in a folder of their own, never in the user's; set before any module loads
# a catalog at import.
_CACHE = tempfile.mkdtemp(prefix="dbdeck-test-cache-")
os.environ["DBDECK_CACHE_DIR"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)


@pytest.fixture(autouse=True)
def _no_env_packs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A developer's own DBDECK_PACKS must not change what the tests see."""
    monkeypatch.delenv("DBDECK_PACKS", raising=False)


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    """The shipped card set, loaded and checked once per test session."""
    return load_catalog(include_env_packs=False)


@pytest.fixture
def write_pack(tmp_path: Path) -> Callable[..., Path]:
    """Write card files into a fresh pack folder and return the folder.

    Call it with ``name=cards`` pairs, where ``cards`` is a list of card
    dicts (written as ``{"cards": [...]}``) or a raw string written as is.
    """

    def write(**files: list[dict[str, Any]] | str) -> Path:
        pack = tmp_path / "pack"
        pack.mkdir(exist_ok=True)
        for name, content in files.items():
            text = content if isinstance(content, str) else json.dumps({"cards": content}, indent=1)
            (pack / f"{name}.json").write_text(text, encoding="utf-8")
        return pack

    return write
