"""What ``dbdeck play`` loads on its way to the first drawn table: with the
card set's cache warm, neither pydantic (the card checker), nor the other
game's package, nor the shared tables' network code, nor the table's
dialogs (none is open yet)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PLAYED = """
import sys
from textual.app import App

run = App.run


async def leave(pilot):
    await pilot.pause()
    pilot.app.exit()


# The same start, drawn headless; the app leaves once its first table is up.
App.run = lambda self, **options: run(self, headless=True, size=(160, 50), auto_pilot=leave)
from dbdeck.cli import main

main(["play", "--villain", "freezer", "--characters", "goku,krillin", "--seed", "3"])
unwanted = ("pydantic", "dbdeck.games.ccg", "dbdeck.net", "dbdeck.games.deckbuilding.tui.dialogs")
print(sorted(m for m in sys.modules if m.startswith(unwanted)))
"""
"""A ``dbdeck play`` that prints the modules it should not have loaded."""


def test_the_first_table_loads_only_what_it_draws(tmp_path: Path) -> None:
    env = {**os.environ, "DBDECK_CACHE_DIR": str(tmp_path / "cache")}
    env["DBDECK_SAVES"] = str(tmp_path / "saves")
    env.pop("DBDECK_PACKS", None)
    command = [sys.executable, "-c", PLAYED]
    cold = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    assert "pydantic" in cold.stdout.splitlines()[-1]  # nothing kept yet: validated
    warm = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    assert warm.stdout.splitlines()[-1] == "[]"
