"""Screenshots of the CCG table for the README.

Writes, next to this script: ccg-table.svg (Goku against Raditz at 120×40,
Raditz's attack waiting for Goku's answer, an Ally and a Dragon Ball in
play), ccg-table-80x24.svg (the same table at the smallest size) and
ccg-handoff.svg (hot-seat: the keyboard passes, both hands hidden).

    python screenshots/make_ccg_screenshots.py
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

from dbdeck.games.ccg.tui.dialogs import HandoffScreen
from dbdeck.seating import Seating
from dbdeck.tui.local import LocalBackend
from dbdeck.tui.shell import TableApp

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))  # the table the snapshots sit at

from test_ccg_table_snapshots import combat_table  # noqa: E402

HandoffScreen.arm_seconds = 0


class ShotApp(TableApp):
    def __init__(self, backend: Any) -> None:
        super().__init__()
        self.backend = backend

    def on_mount(self) -> None:
        self.push_screen(self.table_screen("ccg", self.backend))


async def shoot(backend: Any, name: str, size: tuple[int, int]) -> None:
    app = ShotApp(backend)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.pause(0.2)
        app.save_screenshot(f"{name}.svg", str(HERE))
    print(f"wrote {HERE / (name + '.svg')}")


async def main() -> None:
    await shoot(LocalBackend(combat_table()), "ccg-table", (120, 40))
    await shoot(LocalBackend(combat_table()), "ccg-table-80x24", (80, 24))
    hot = LocalBackend(
        combat_table(), Seating(players={"p1": "John", "p2": "Sandra"}, hide_hands=True)
    )
    await shoot(hot, "ccg-handoff", (120, 40))


if __name__ == "__main__":
    asyncio.run(main())
