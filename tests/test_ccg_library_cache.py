"""The CCG library cache: a hit is the validated library, a changed or broken
shipped file misses (and its problems are still reported), a foreign or
damaged cache file is ignored, and a warm ``ccg check`` loads no pydantic."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from dbdeck.games.ccg import library as ccg_library
from dbdeck.games.ccg.library import Library, load_library, shipped_ccg_dir
from dbdeck.packs.cache_files import CACHE_ENV
from dbdeck.packs.reading import CardSetError

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The library folder of a fresh cache folder for this test alone."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    ccg_library._shipped.cache_clear()
    yield folder / "ccg-library"
    ccg_library._shipped.cache_clear()


@pytest.fixture
def validations(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The shipped folders validated with pydantic during the test."""
    seen: list[Path] = []
    real = ccg_library._validated

    def counting(folder: Path, read: Mapping[str, bytes] | None = None) -> Library:
        seen.append(folder)
        return real(folder, read)

    monkeypatch.setattr(ccg_library, "_validated", counting)
    return seen


@pytest.fixture
def shipped(tmp_path: Path) -> Path:
    """A copy of the shipped CCG files that a test may change."""
    copy = tmp_path / "ccg"
    shutil.copytree(shipped_ccg_dir(), copy, ignore=shutil.ignore_patterns("decks"))
    return copy


def _load(folder: Path) -> Library:
    ccg_library._shipped.cache_clear()  # a new process, as far as the cache is concerned
    return load_library(include_env_packs=False, shipped=folder)


def _same(one: Library, other: Library) -> None:
    """Every record equal, in the same order, and the same title index."""
    assert list(one.cards.items()) == list(other.cards.items())
    assert list(one.characters.items()) == list(other.characters.items())
    assert list(one.lists.items()) == list(other.lists.items())
    assert list(one.rulings.items()) == list(other.rulings.items())
    assert dict(one.titles) == dict(other.titles)
    for card in one.cards.values():
        twin = other.cards[card.id]
        for name in ("also_written", "seen_in", "notes", "power_stages", "levels"):
            assert type(getattr(twin, name)) is tuple, (card.id, name)
        assert twin.dragon_ball is None or type(twin.dragon_ball) is tuple


def test_a_hit_is_the_validated_library(
    cache_dir: Path, validations: list[Path], shipped: Path
) -> None:
    cold = _load(shipped)
    assert validations == [shipped]
    kept = list(cache_dir.glob("library-*.json"))
    assert len(kept) == 1
    assert kept[0].stat().st_mode & 0o777 == 0o600
    assert cache_dir.stat().st_mode & 0o777 == 0o700
    warm = _load(shipped)
    assert validations == [shipped]  # answered by the cache
    _same(cold, warm)
    assert warm.find("Goku Level 1") == cold.find("Goku Level 1")
    assert warm.rulings_on(next(iter(cold.rulings))) == cold.rulings_on(next(iter(cold.rulings)))


def test_a_changed_file_misses(cache_dir: Path, validations: list[Path], shipped: Path) -> None:
    _load(shipped)
    identities = shipped / "identities.ccg.json"
    identities.write_bytes(identities.read_bytes() + b"\n")
    _load(shipped)
    assert validations == [shipped, shipped]
    assert len(list(cache_dir.glob("library-*.json"))) == 1  # the entry was replaced


def test_a_broken_file_is_reported_though_a_good_load_was_kept(
    cache_dir: Path, shipped: Path
) -> None:
    _load(shipped)
    (shipped / "rulings.ccg.json").write_text('{"rulings": [{"card": 7}]}', encoding="utf-8")
    with pytest.raises(CardSetError) as err:
        _load(shipped)
    assert any("rulings.ccg.json" in str(p) for p in err.value.problems)


@pytest.mark.parametrize(
    "damage",
    [
        b"not json at all",
        b'{"format": 1, "key": "another"}\n{}',
        None,  # the right header over a body of the wrong shape
    ],
)
def test_a_damaged_cache_file_is_ignored(
    cache_dir: Path, validations: list[Path], shipped: Path, damage: bytes | None
) -> None:
    cold = _load(shipped)
    (kept,) = cache_dir.glob("library-*.json")
    if damage is None:
        header = kept.read_bytes().partition(b"\n")[0]
        damage = header + b'\n{"cards": [[1, 2]], "characters": [], "lists": [], "rulings": []}'
    kept.write_bytes(damage)
    again = _load(shipped)
    assert validations == [shipped, shipped]
    _same(cold, again)


def test_a_cache_file_others_may_write_is_ignored(
    cache_dir: Path, validations: list[Path], shipped: Path
) -> None:
    _load(shipped)
    (kept,) = cache_dir.glob("library-*.json")
    kept.chmod(0o666)
    _load(shipped)
    assert validations == [shipped, shipped]


def _check(env: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    decks = [str(REPO / "cards" / "ccg" / "decks" / name) for name in ("goku.txt", "raditz.txt")]
    command = [sys.executable, "-X", "importtime", "-m", "dbdeck", "ccg", "check", *decks]
    return subprocess.run(command, capture_output=True, text=True, env=env, check=True)


def test_a_warm_check_imports_no_pydantic(tmp_path: Path) -> None:
    env = {**os.environ, CACHE_ENV: str(tmp_path / "cache")}
    env.pop("DBDECK_PACKS", None)
    cold = _check(env)
    assert "pydantic" in cold.stderr  # nothing kept yet: validated
    warm = _check(env)

    def said(run: subprocess.CompletedProcess[str]) -> list[str]:
        """The verdicts (the summary lines go to standard error, beside the import times)."""
        return [line for line in run.stderr.splitlines() if not line.startswith("import time:")]

    assert said(warm) == said(cold) and "legal under errata-2001" in said(warm)[0]
    imported = [line.rsplit("|", 1)[-1].strip() for line in warm.stderr.splitlines()]
    assert imported and not [name for name in imported if name.startswith("pydantic")]


def test_a_pack_on_top_is_validated_every_time(tmp_path: Path) -> None:
    """Only the shipped data is kept: a pack's problems come from validating it."""
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "mine.ccg.json").write_text('{"cards": [{"id": "x"}]}', encoding="utf-8")
    env = {**os.environ, CACHE_ENV: str(tmp_path / "cache")}
    env.pop("DBDECK_PACKS", None)
    decks = [str(REPO / "cards" / "ccg" / "decks" / "goku.txt")]
    for _ in range(2):
        run = subprocess.run(
            [sys.executable, "-m", "dbdeck", "ccg", "check", "--pack", str(pack), *decks],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        assert run.returncode != 0
        assert "mine.ccg.json" in run.stderr + run.stdout
        assert "Traceback" not in run.stderr
