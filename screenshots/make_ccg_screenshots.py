"""Screenshots of the CCG table for the README.

Writes, next to this script: ccg-table.svg (Goku against Raditz at 120×40,
Raditz's attack waiting for Goku's answer, an Ally and a Dragon Ball in
play), ccg-table-80x24.svg (the same table at the smallest size) and
ccg-handoff.svg (hot-seat: the keyboard passes, both hands hidden).

    python screenshots/make_ccg_screenshots.py
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from dbdeck.games.ccg.library import load_library, shipped_ccg_dir
from dbdeck.games.ccg.match import CcgMatch, CcgRules
from dbdeck.games.ccg.table import actions as a
from dbdeck.games.ccg.tui.dialogs import HandoffScreen
from dbdeck.seating import Seating
from dbdeck.tui.local import LocalBackend
from dbdeck.tui.shell import TableApp

HERE = Path(__file__).resolve().parent
HandoffScreen.arm_seconds = 0


class ShotApp(TableApp):
    def __init__(self, backend: Any) -> None:
        super().__init__()
        self.backend = backend

    def on_mount(self) -> None:
        self.push_screen(self.table_screen("ccg", self.backend))


def _table() -> CcgMatch:
    """Two turns in: Krillin and a Dragon Ball in play, Raditz attacking."""
    rules = CcgRules(load_library(include_env_packs=False))
    decks = [(shipped_ccg_dir() / "decks" / n).read_text() for n in ("goku.txt", "raditz.txt")]
    match = rules.new(rules.read_setup({"players": ["John", "Sandra"], "decks": decks, "seed": 4}))
    state = match.state
    john = state.side(0)
    wanted = ["Krillin Level 1", "Earth Dragon Ball 3", "Orange Standing Fist Punch"]
    chosen = [next(u for u in john.life_deck if state.cards[u].title == t) for t in wanted]
    john.life_deck[:] = chosen + [u for u in john.life_deck if u not in chosen]
    match.apply(a.DrawThree(seat=0))
    for uid in chosen[:2]:
        match.apply(a.PlayCard(seat=0, card=uid))
    match.apply(a.EndNonCombat(seat=0))
    match.apply(a.PowerUp(seat=0, stages=2))
    match.apply(a.DeclareCombat(seat=0))
    match.apply(a.Attack(seat=0, source=chosen[2], attack="physical", stages=2))
    match.apply(a.AllowAttack(seat=1))
    rng = random.Random(1)
    sandra = state.side(1)
    attack = next((u for u in sandra.hand if state.cards[u].type == "physical-combat"), None)
    if attack is not None:
        match.apply(a.Attack(seat=1, source=attack, attack="physical", stages=3))
    else:
        match.apply(a.Attack(seat=1, attack="energy"))
    del rng
    return match


async def shoot(backend: Any, name: str, size: tuple[int, int]) -> None:
    app = ShotApp(backend)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.pause(0.2)
        app.save_screenshot(f"{name}.svg", str(HERE))
    print(f"wrote {HERE / (name + '.svg')}")


async def main() -> None:
    await shoot(LocalBackend(_table()), "ccg-table", (120, 40))
    await shoot(LocalBackend(_table()), "ccg-table-80x24", (80, 24))
    hot = LocalBackend(_table(), Seating(players={"p1": "John", "p2": "Sandra"}, hide_hands=True))
    await shoot(hot, "ccg-handoff", (120, 40))


if __name__ == "__main__":
    asyncio.run(main())
