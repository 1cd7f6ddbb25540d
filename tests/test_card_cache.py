"""The validated-catalog cache: a hit is the fresh load, every change misses,
a bad or foreign cache file is ignored, and a warm ``cards validate`` loads
no pydantic."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from dbdeck.games.deckbuilding.cards import cache as card_cache
from dbdeck.games.deckbuilding.cards import catalog as card_catalog
from dbdeck.games.deckbuilding.cards.catalog import CardSetError, Catalog, load_catalog
from dbdeck.games.deckbuilding.cards.plain import data_of

SPOT = {"id": "test-spot", "name": "Test Spot", "kind": "location", "text": "A quiet place."}
"""A card that passes every check on its own: a Location."""


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The catalog folder of a fresh, empty cache folder for this test alone."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(card_cache.CACHE_ENV, str(folder))
    return folder / "catalog"


@pytest.fixture
def validations(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The card files validated with pydantic during the test (a hit validates none)."""
    seen: list[str] = []
    real = card_catalog._load_file

    def counting(path: Path, data: Any, problems: list[Any]) -> Any:
        seen.append(path.name)
        return real(path, data, problems)

    monkeypatch.setattr(card_catalog, "_load_file", counting)
    yield seen


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("catalog-*.json"))


def _same(one: Catalog, other: Catalog) -> None:
    """Every card equal, of the same class, with the same data, from the same file."""
    assert list(one.cards) == list(other.cards)
    for card_id, card in one.cards.items():
        twin = other.cards[card_id]
        assert type(twin) is type(card), card_id
        assert data_of(twin) == data_of(card), card_id
        assert twin == card, card_id
    assert dict(one.files) == dict(other.files)


def test_a_hit_is_the_fresh_load(cache_dir: Path, validations: list[str]) -> None:
    fresh = load_catalog(include_env_packs=False, use_cache=False)
    assert validations and not _entries(cache_dir)
    validations.clear()
    first = load_catalog(include_env_packs=False)  # misses, validates, keeps
    assert validations and len(_entries(cache_dir)) == 1
    validations.clear()
    hit = load_catalog(include_env_packs=False)
    assert validations == []
    _same(fresh, hit)
    _same(first, hit)


def test_a_changed_card_file_misses(
    cache_dir: Path, validations: list[str], write_pack: Callable[..., Path]
) -> None:
    pack = write_pack(spots=[SPOT])
    assert load_catalog([pack], include_shipped=False)["test-spot"].name == "Test Spot"
    write_pack(spots=[{**SPOT, "name": "Other Spot"}])
    validations.clear()
    assert load_catalog([pack], include_shipped=False)["test-spot"].name == "Other Spot"
    assert validations == ["spots.json"]
    assert len(_entries(cache_dir)) == 1  # the entry was replaced, not added to
    validations.clear()
    assert load_catalog([pack], include_shipped=False)["test-spot"].name == "Other Spot"
    assert validations == []


def test_a_changed_pack_misses(
    cache_dir: Path,
    validations: list[str],
    write_pack: Callable[..., Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pack = write_pack(spots=[SPOT])
    load_catalog([pack], include_shipped=False)
    write_pack(more=[{**SPOT, "id": "test-spot-2"}])  # a new file in the pack
    validations.clear()
    assert "test-spot-2" in load_catalog([pack], include_shipped=False)
    assert validations == ["more.json", "spots.json"]
    # Another pack from DBDECK_PACKS is another folder list: its own entry.
    other = tmp_path / "other"
    other.mkdir()
    (other / "far.json").write_text(json.dumps({"cards": [{**SPOT, "id": "far-spot"}]}))
    monkeypatch.setenv("DBDECK_PACKS", str(other))
    validations.clear()
    both = load_catalog([pack], include_shipped=False)
    assert "far-spot" in both and "far.json" in validations
    assert len(_entries(cache_dir)) == 2


def test_a_changed_model_code_misses(
    cache_dir: Path, validations: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    load_catalog(include_env_packs=False)
    validations.clear()
    load_catalog(include_env_packs=False)
    assert validations == []
    monkeypatch.setattr(card_cache, "_code_digest", lambda: b"other card code or pydantic")
    load_catalog(include_env_packs=False)
    assert validations  # validated afresh under the new key


def test_the_key_covers_the_code_and_pydantic() -> None:
    import pydantic

    version = card_cache.pydantic_version()
    assert version is not None and pydantic.VERSION.encode() in version
    digest = card_cache._code_digest()
    assert digest is not None
    one = card_cache.CatalogCache.for_files([Path("a")], [("a/x.json", b"{}")], Path("c"))
    two = card_cache.CatalogCache.for_files([Path("a")], [("a/x.json", b"{ }")], Path("c"))
    three = card_cache.CatalogCache.for_files([Path("a")], [("a/y.json", b"{}")], Path("c"))
    assert one is not None and two is not None and three is not None
    assert len({one.key, two.key, three.key}) == 3
    assert one.path == two.path == three.path  # one entry per folder list
    assert one.path.parent == Path("c") / "catalog"


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: "not json at all",
        lambda text: text[: len(text) // 2],  # cut short
        lambda text: text.replace('"@":"Location"', '"@":"Exploit"', 1),  # unknown class
        lambda text: text.replace('"@":"Location"', '"@":"Location","x":1', 1),  # unknown field
        lambda text: text.replace('"format":', '"format":0,"was":', 1),  # other format
        lambda text: text.split("\n", 1)[1],  # no header
        lambda text: "",
    ],
)
def test_a_corrupt_cache_is_ignored_and_replaced(
    cache_dir: Path,
    validations: list[str],
    write_pack: Callable[..., Path],
    damage: Callable[[str], str],
) -> None:
    pack = write_pack(spots=[SPOT])
    fresh = load_catalog([pack], include_shipped=False)
    [entry] = _entries(cache_dir)
    entry.write_text(damage(entry.read_text()))
    validations.clear()
    _same(fresh, load_catalog([pack], include_shipped=False))
    assert validations == ["spots.json"]
    validations.clear()
    _same(fresh, load_catalog([pack], include_shipped=False))
    assert validations == []  # rewritten whole


def test_cache_files_are_private(cache_dir: Path) -> None:
    load_catalog(include_env_packs=False)
    assert stat.S_IMODE(cache_dir.stat().st_mode) == 0o700
    [entry] = _entries(cache_dir)
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600
    assert [p.name for p in cache_dir.iterdir()] == [entry.name]  # no temporary left


def test_a_folder_others_may_write_is_not_written_to(
    cache_dir: Path, validations: list[str], write_pack: Callable[..., Path]
) -> None:
    cache_dir.mkdir(parents=True)
    os.chmod(cache_dir, 0o777)
    pack = write_pack(spots=[SPOT])
    for _ in range(2):
        validations.clear()
        assert "test-spot" in load_catalog([pack], include_shipped=False)
        assert validations == ["spots.json"]
    assert _entries(cache_dir) == []
    assert stat.S_IMODE(cache_dir.stat().st_mode) == 0o777  # left as it was found


def test_a_writable_cache_file_is_ignored(
    cache_dir: Path, validations: list[str], write_pack: Callable[..., Path]
) -> None:
    pack = write_pack(spots=[SPOT])
    load_catalog([pack], include_shipped=False)
    [entry] = _entries(cache_dir)
    os.chmod(entry, 0o666)
    validations.clear()
    load_catalog([pack], include_shipped=False)
    assert validations == ["spots.json"]
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600  # replaced by a private one


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="file owners are a POSIX notion")
def test_a_foreign_cache_file_is_ignored(
    cache_dir: Path,
    validations: list[str],
    write_pack: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pack = write_pack(spots=[SPOT])
    load_catalog([pack], include_shipped=False)
    [entry] = _entries(cache_dir)
    kept = entry.read_bytes()
    # Seen by another user, the folder and the file are someone else's.
    other = os.getuid() + 1
    monkeypatch.setattr(os, "getuid", lambda: other)
    validations.clear()
    assert load_catalog([pack], include_shipped=False)["test-spot"].name == "Test Spot"
    assert validations == ["spots.json"]
    assert entry.read_bytes() == kept  # nor written into someone else's folder


def test_a_symlinked_cache_file_is_ignored(
    cache_dir: Path, validations: list[str], write_pack: Callable[..., Path], tmp_path: Path
) -> None:
    pack = write_pack(spots=[SPOT])
    load_catalog([pack], include_shipped=False)
    [entry] = _entries(cache_dir)
    planted = tmp_path / "planted.json"
    entry.rename(planted)
    entry.symlink_to(planted)
    validations.clear()
    load_catalog([pack], include_shipped=False)
    assert validations == ["spots.json"]


def test_an_unwritable_cache_still_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write_pack: Callable[..., Path]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(card_cache.CACHE_ENV, str(blocker / "cache"))
    pack = write_pack(spots=[SPOT])
    assert "test-spot" in load_catalog([pack], include_shipped=False)
    assert "test-spot" in load_catalog([pack], include_shipped=False)


def test_problems_are_the_same_every_time(
    cache_dir: Path, validations: list[str], write_pack: Callable[..., Path]
) -> None:
    """Only clean loads are kept: a set with problems validates afresh and
    reports the same problems each time."""
    pack = write_pack(spots=[SPOT, {**SPOT, "id": "Bad Id"}], broken="{")
    reports = []
    for _ in range(2):
        validations.clear()
        with pytest.raises(CardSetError) as err:
            load_catalog([pack], include_shipped=False)
        reports.append([str(p) for p in err.value.problems])
        assert validations == ["broken.json", "spots.json"]
    assert reports[0] == reports[1]
    assert any("card 'Bad Id': id" in line for line in reports[0])
    assert not cache_dir.exists() or _entries(cache_dir) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG is the Linux convention")
def test_the_cache_lives_in_the_user_cache_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(card_cache.CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert card_cache.cache_dir() == tmp_path / "xdg" / "dbdeck"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG is the Linux convention")
@pytest.mark.parametrize("xdg", [None, "", "   ", "relative/cache", "ABSOLUTE"])
def test_the_cache_folder_is_the_one_platformdirs_names(
    xdg: str | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The quick start's own reading of the XDG rule agrees with the library's."""
    from platformdirs import user_cache_dir

    monkeypatch.delenv(card_cache.CACHE_ENV)
    if xdg is None:
        monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path) if xdg == "ABSOLUTE" else xdg)
    assert card_cache.cache_dir() == Path(user_cache_dir("dbdeck", appauthor=False))


def test_validate_from_the_cache_imports_no_pydantic(cache_dir: Path) -> None:
    command = [sys.executable, "-X", "importtime", "-m", "dbdeck", "cards", "validate"]
    env = {**os.environ, card_cache.CACHE_ENV: str(cache_dir.parent)}
    env.pop("DBDECK_PACKS", None)
    cold = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    assert "pydantic" in cold.stderr  # nothing kept yet: validated
    warm = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    assert warm.stdout == cold.stdout and warm.stdout.startswith("ok: ")
    imported = [line.rsplit("|", 1)[-1].strip() for line in warm.stderr.splitlines()]
    assert imported and not [name for name in imported if name.startswith("pydantic")]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs byte file names")
def test_an_undecodable_file_name_is_cached(
    cache_dir: Path, validations: list[str], tmp_path: Path
) -> None:
    pack = tmp_path / os.fsdecode(b"pack-\xff")
    pack.mkdir()
    (pack / "spots.json").write_text(json.dumps({"cards": [SPOT]}))
    fresh = load_catalog([pack], include_shipped=False)
    validations.clear()
    hit = load_catalog([pack], include_shipped=False)
    assert validations == []
    _same(fresh, hit)
    assert hit.files["test-spot"] == str(pack / "spots.json")
