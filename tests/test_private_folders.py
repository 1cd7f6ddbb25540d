"""Every folder dbdeck makes, parents included, is 0700 whatever the umask.

The test runs under a umask of 000 with a fresh home and no XDG folders
named, so that ``~/.cache``, ``~/.config``, ``~/.local`` and
``~/.local/state`` are all made by dbdeck: the catalog cache, the
settings, a save, a seat token and a join token each make their folders.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from dbdeck.folders import make_private_dir
from dbdeck.games.deckbuilding.cards.cache import CACHE_ENV
from dbdeck.games.deckbuilding.cards.catalog import load_catalog
from dbdeck.games.deckbuilding.engine.game import Setup
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.net.listing import join_token_for, store_seat_token
from dbdeck.saves import Session, saves_dir
from dbdeck.saves.names import SAVES_ENV
from dbdeck.tui.settings import SETTINGS_ENV, Settings, save_settings

_NAMED = ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME")


@pytest.fixture
def bare_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A new home with nothing in it, no folder named by the environment,
    and a umask that masks nothing (restored after)."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in (*_NAMED, CACHE_ENV, SAVES_ENV, SETTINGS_ENV, "DBDECK_PACKS"):
        monkeypatch.delenv(name, raising=False)
    old = os.umask(0)
    try:
        yield home
    finally:
        os.umask(old)


def _folders(root: Path) -> dict[str, int]:
    """The mode of every folder under ``root``, by its path from ``root``."""
    found = {}
    for here, names, _ in os.walk(root):
        for name in names:
            path = Path(here) / name
            found[str(path.relative_to(root))] = stat.S_IMODE(os.lstat(path).st_mode)
    return found


def test_every_folder_made_is_private_under_an_open_umask(bare_home: Path) -> None:
    catalog = load_catalog(include_env_packs=False)
    assert save_settings(Settings())
    session = Session.start(
        DeckbuildingRules(catalog),
        Setup(characters=["goku"], villain="freezer", seed=1),
        saves_dir(),
    )
    session.close()
    store_seat_token("a table", 0, "a-token")
    join_token_for(session.id)

    folders = _folders(bare_home)
    for made in (
        ".cache",
        ".cache/dbdeck",
        ".config",
        ".config/dbdeck",
        ".local",
        ".local/state",
        ".local/state/dbdeck",
        ".local/state/dbdeck/saves",
        ".local/state/dbdeck/tables",
    ):
        assert made in folders, f"{made} was not made: {sorted(folders)}"
    assert {path: oct(mode) for path, mode in folders.items() if mode != 0o700} == {}
    files = [p for p in bare_home.rglob("*") if p.is_file()]
    assert files
    assert {str(p): oct(stat.S_IMODE(p.stat().st_mode) & 0o077) for p in files} == {
        str(p): "0o0" for p in files
    }


def test_a_folder_is_made_with_every_missing_parent_private(bare_home: Path) -> None:
    make_private_dir(bare_home / "a" / "b" / "c")
    assert _folders(bare_home) == {"a": 0o700, "a/b": 0o700, "a/b/c": 0o700}


def test_something_else_in_the_way_is_refused(bare_home: Path) -> None:
    (bare_home / "a").write_text("not a folder")
    with pytest.raises(NotADirectoryError):
        make_private_dir(bare_home / "a")
