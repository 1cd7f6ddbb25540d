"""The CCG table screen on a real table with a Sensei Deck of Fusion
personalities, played by keys: ``x`` fuses (the list of the fusion's ways),
the side shows the Fusion personality, its components and its timer's
count, the other seat never sees the timer cards, Defuse is asked first,
and the key bar, the help and How to play name the key."""

from __future__ import annotations

import io
from typing import Any

import pytest
from ccg_fusion_decks import DECKS, PACK, fusion_deck
from rich.console import Console
from screen_text import plain, widget_texts
from textual.pilot import Pilot
from textual.widgets import OptionList

from dbdeck.games.ccg.library import load_library
from dbdeck.games.ccg.match import CcgMatch, CcgRules
from dbdeck.games.ccg.table import actions as a
from dbdeck.games.ccg.table.state import TableState
from dbdeck.games.ccg.tui.dialogs import (
    ActionsDialog,
    ChoiceDialog,
    ConfirmDialog,
    HandoffScreen,
)
from dbdeck.games.ccg.tui.howto import PAGES
from dbdeck.games.ccg.tui.inspector import InspectorScreen
from dbdeck.games.ccg.tui.keys import HELP
from dbdeck.games.ccg.tui.screen import CcgTableScreen
from dbdeck.tui.local import LocalBackend
from dbdeck.tui.shell import TableApp

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

JOHN, SANDRA = 0, 1
SIZES = [(80, 24), (120, 40)]


class FusionApp(TableApp):
    """The CCG table on a local backend."""

    def __init__(self, backend: Any) -> None:
        super().__init__()
        self.backend = backend

    def on_mount(self) -> None:
        self.push_screen(self.table_screen("ccg", self.backend))


@pytest.fixture(autouse=True)
def _quick_handoff(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(HandoffScreen, "arm_seconds", 0)


def _match() -> CcgMatch:
    rules = CcgRules(load_library([PACK], include_env_packs=False))
    setup = {
        "players": ["John", "Sandra"],
        "decks": [fusion_deck(), (DECKS / "raditz.txt").read_text()],
        "profile": "digest",
        "seed": 11,
    }
    return rules.new(rules.read_setup(setup))


def _with_allies(match: CcgMatch, *titles: str) -> list[int]:
    """John draws these Allies (put on top) and places them in play."""
    state = match.state
    deck = state.side(JOHN).life_deck
    chosen = [next(u for u in deck if state.cards[u].title == t) for t in titles]
    deck[:] = chosen + [u for u in deck if u not in chosen]
    match.apply(a.DrawThree(seat=JOHN))
    for uid in chosen:
        match.apply(a.PlayCard(seat=JOHN, card=uid))
    return chosen


def _sensei(state: TableState, title: str) -> int:
    side = state.side(JOHN)
    return next(u for u in side.sensei_deck if state.cards[u].title == title)


def _turn(match: CcgMatch, seat: int) -> None:
    state = match.state
    match.apply(a.DrawThree(seat=seat))
    match.apply(a.EndNonCombat(seat=seat))
    match.apply(a.PowerUp(seat=seat, stages=0))
    match.apply(a.SkipCombat(seat=seat))
    while state.step == "discard" and state.discarding is not None:
        match.apply(a.DiscardDown(seat=state.discarding))
    if state.step == "pass-bonus":
        match.apply(a.PassBonus(seat=seat, take=False))
    match.apply(a.EndTurn(seat=seat))


def visible(app: TableApp) -> str:
    """What the terminal shows now, as plain text."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        record=True,
        color_system=None,
        force_terminal=True,
        legacy_windows=False,
    )
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text(styles=False)


def options(pilot: Pilot[Any]) -> list[str]:
    listing = pilot.app.screen.query_one(OptionList)
    return [
        plain(listing.get_option_at_index(i).prompt).strip() for i in range(listing.option_count)
    ]


def table_of(pilot: Pilot[Any]) -> CcgTableScreen:
    for screen in pilot.app.screen_stack:
        if isinstance(screen, CcgTableScreen):
            return screen
    raise AssertionError("no CCG table open")


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
async def test_x_fuses_the_main_personality_and_the_side_shows_it(size: tuple[int, int]) -> None:
    match = _match()
    state = match.state
    gohan, krillin = _with_allies(match, "Gohan Level 1", "Krillin Level 1")
    app = FusionApp(LocalBackend(match))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = table_of(pilot)
        assert ("x", "Fusion") in screen.keys_now()
        assert " x " in visible(app), "the key bar names x"
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, ActionsDialog)
        lines = options(pilot)
        assert any(line.startswith("Fuse Test Gokuhan Level 1 (") for line in lines)
        assert not any("Test Loner" in line for line in lines), "its pack says: no Fusion"
        await pilot.press(*"gokuhan")
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)
        ways = options(pilot)
        wanted = (
            "Fuse Goku Level 1 and Gohan Level 1 into Test Gokuhan Level 1 (the Main Personality)"
        )
        assert wanted in ways
        await pilot.press(*["down"] * (ways.index(wanted) + 1), "enter")
        await pilot.pause()
        john = state.side(JOHN)
        assert john.fusion == _sensei_taken(state, "Test Gokuhan Level 1")
        assert john.fused == [john.levels[0], gohan] and john.allies == [krillin]
        shown = visible(app)
        for fact in ("Fused: Test Gokuhan Level 1", "Fusion, Lv 1", "Timer 0/5", "[14]"):
            assert fact in shown, f"{fact!r} not in sight at {size}:\n{shown}"
        assert "fuses Goku Level 1 and Gohan Level 1" in shown


def _sensei_taken(state: TableState, title: str) -> int:
    return next(u for u, c in state.cards.items() if c.title == title)


async def test_the_other_seat_sees_the_timers_count_never_its_cards() -> None:
    match = _match()
    state = match.state
    (gohan,) = _with_allies(match, "Gohan Level 1")
    match.apply(a.Fuse(seat=JOHN, fusion=_sensei(state, "Test Gokuhan Level 1"), ally=gohan))
    match.apply(a.EndNonCombat(seat=JOHN))
    match.apply(a.PowerUp(seat=JOHN, stages=0))
    match.apply(a.SkipCombat(seat=JOHN))
    while state.step == "discard" and state.discarding is not None:
        match.apply(a.DiscardDown(seat=state.discarding))
    if state.step == "pass-bonus":
        match.apply(a.PassBonus(seat=JOHN, take=False))
    match.apply(a.EndTurn(seat=JOHN))
    _turn(match, SANDRA)
    _turn(match, JOHN)
    _turn(match, SANDRA)
    timer = state.side(JOHN).timer
    assert len(timer) == 2
    for n, uid in enumerate(timer):  # titles no other card has: a scan finds them
        state.cards[uid].title = f"Timer Secret {n}"
    # Sandra at the screen: it is her Draw step after John's turn.
    _turn(match, JOHN)
    assert state.active == SANDRA and len(timer) == 2
    app = FusionApp(LocalBackend(match))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert table_of(pilot).view.viewer == SANDRA
        assert "Timer 2/5" in visible(app)
        await pilot.press("i")
        await pilot.pause()
        everything = widget_texts(app) + visible(app)
        assert "Timer Secret" not in everything
        for entry in state.log:
            if entry.private and entry.seat == JOHN:
                assert entry.private not in everything


async def test_the_owner_inspects_the_fusion_and_its_timer() -> None:
    match = _match()
    state = match.state
    krillin, tien = _with_allies(match, "Krillin Level 1", "Tien Level 1")
    match.apply(
        a.Fuse(
            seat=JOHN, fusion=_sensei(state, "Test Krilltien Level 1"), ally=krillin, partner=tien
        )
    )
    app = FusionApp(LocalBackend(match))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = table_of(pilot)
        screen.inspect("main:0")
        await pilot.pause()
        assert isinstance(app.screen, InspectorScreen)
        facts = widget_texts(app)
        assert "Test Krilltien Level 1 (an Ally)" in facts
        assert "Krillin Level 1, Tien Level 1" in facts
        assert "0 of 5 cards, face down beneath the anger counter" in facts
        await pilot.press("escape")
        await pilot.pause()
        shown = visible(app)
        assert "[Test Krilltien Level 1 12/12 +2 beneath]" in shown
        assert "(an Ally)" in shown


async def test_defuse_is_asked_first() -> None:
    match = _match()
    state = match.state
    (gohan,) = _with_allies(match, "Gohan Level 1")
    match.apply(a.Fuse(seat=JOHN, fusion=_sensei(state, "Test Gokuhan Level 1"), ally=gohan))
    app = FusionApp(LocalBackend(match))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("x")
        await pilot.pause()
        # Under apply the timer is the table's: Defuse is the one way, asked first.
        assert isinstance(app.screen, ConfirmDialog)
        assert "Defuse Test Gokuhan Level 1" in widget_texts(app)
        await pilot.press("n")
        await pilot.pause()
        assert state.side(JOHN).fusion is not None
        await pilot.press("x")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        john = state.side(JOHN)
        assert john.fusion is None and john.allies == [gohan] and john.stages == 10
        assert "Fused:" not in visible(app)


async def test_without_a_fusion_to_make_x_is_not_in_the_bar_and_says_why() -> None:
    rules = CcgRules(load_library(include_env_packs=False))
    match = rules.new(
        rules.read_setup(
            {
                "players": ["John", "Sandra"],
                "decks": [(DECKS / "goku.txt").read_text(), (DECKS / "raditz.txt").read_text()],
            }
        )
    )
    app = FusionApp(LocalBackend(match))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert ("x", "Fusion") not in table_of(pilot).keys_now()
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, CcgTableScreen)
        assert match.version == 0


def test_the_help_and_how_to_play_name_the_fusion() -> None:
    assert "  x          fusion" in HELP
    assert all(len(line) <= 72 for line in HELP.splitlines())
    words = " ".join(text for _, text in PAGES)
    assert "Fusion personality" in words and "(x)" in words
