"""The CCG table on the real rules, drawn at 80×24, 120×40 and 160×50: Goku
against Raditz two attacks into the first Combat, Raditz's energy attack
waiting for Goku's answer (SVG snapshots; `--snapshot-update` records them
again after a deliberate change)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dbdeck.games.ccg.library import load_library
from dbdeck.games.ccg.match import CcgMatch, CcgRules
from dbdeck.games.ccg.table import actions as a
from dbdeck.tui.local import LocalBackend
from dbdeck.tui.shell import TableApp

DECKS = Path(__file__).resolve().parent.parent / "cards" / "ccg" / "decks"


def combat_table() -> CcgMatch:
    """Krillin and Earth Dragon Ball 3 in play; Raditz attacks."""
    rules = CcgRules(load_library(include_env_packs=False))
    decks = [(DECKS / n).read_text() for n in ("goku.txt", "raditz.txt")]
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
    match.apply(a.Attack(seat=1, attack="energy"))
    return match


class TableShot(TableApp):
    def __init__(self) -> None:
        super().__init__()
        self.backend = LocalBackend(combat_table())

    def on_mount(self) -> None:
        self.push_screen(self.table_screen("ccg", self.backend))


@pytest.mark.parametrize(
    "size", [(80, 24), (120, 40), (160, 50)], ids=["80x24", "120x40", "160x50"]
)
def test_snapshot_ccg_table(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(TableShot(), terminal_size=size)


def test_the_combat_table_is_as_described() -> None:
    match = combat_table()
    view = match.view(0, frozenset({"p1"}))
    assert view.combat is not None and view.combat.phase == "defender defends"
    assert [f.title for f in view.seats[0].allies] == ["Krillin Level 1"]
    assert view.seats[1].main.stages == 1
