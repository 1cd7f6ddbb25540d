"""The CCG table screen played by keys over hand-made seat views: every
fixture drawn at 80×24, 120×40 and 160×50 with its key facts in sight, the other
seat's hand never drawn face up, offers taken by their keys sending exactly
their action, a card's menu holding only the offers that name it, the
hand-off hiding both hands, undo, the questions before what cannot be taken
back, and the manual moves."""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from ccg_table_fixtures import (
    ALICE_HAND,
    BOB_SECRETS,
    FakeBackend,
    SoloBackend,
    Table,
    combat_attacker,
    combat_defender,
    early_turn,
    game_over,
    leaky_early_turn,
    search_other,
    search_own,
)
from rich.console import Console
from rich.text import Text
from screen_text import plain, widget_texts
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, SelectionList

from dbdeck.games.ccg.table import actions as act
from dbdeck.games.ccg.table.view import Offer
from dbdeck.games.ccg.tui import glyphs
from dbdeck.games.ccg.tui.dialogs import (
    ActionsDialog,
    ChoiceDialog,
    ConfirmDialog,
    GameOverDialog,
    HandoffScreen,
    NumberDialog,
    TickDialog,
)
from dbdeck.games.ccg.tui.draw import Items, SeatShown, seat_picture
from dbdeck.games.ccg.tui.inspector import InspectorScreen
from dbdeck.games.ccg.tui.offers import CARD_FIELDS
from dbdeck.games.ccg.tui.screen import CcgTableScreen
from dbdeck.games.ccg.tui.widgets import SeatBoard
from dbdeck.tabletop.registry import table_screen
from dbdeck.tui.backend import Handoff
from dbdeck.tui.shell import TableApp

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SMALL = (80, 24)
LARGE = (160, 50)
SHOTS = os.environ.get("CCG_SHOTS", "")
"""A folder to save each fixture's screenshots in (``CCG_SHOTS=/tmp/ccg-shots``)."""


class TableTestApp(TableApp):
    """An app that opens the CCG table on a backend."""

    def __init__(self, backend: FakeBackend, *, ascii: bool = False) -> None:
        super().__init__(ascii=ascii)
        self.backend = backend

    def on_mount(self) -> None:
        self.push_screen(self.table_screen("ccg", self.backend))


@pytest.fixture(autouse=True)
def _quick_handoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hand-off takes Enter at once (no pause to read it)."""
    monkeypatch.setattr(HandoffScreen, "arm_seconds", 0)


def table_of(pilot: Pilot[Any]) -> CcgTableScreen:
    """The table screen (under any dialog)."""
    for screen in pilot.app.screen_stack:
        if isinstance(screen, CcgTableScreen):
            return screen
    raise AssertionError("no CCG table open")


def visible(app: TableApp) -> str:
    """What the terminal shows now, as plain text (the screen in front and
    what shows behind it)."""
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
    """The lines of the option list of the dialog in front."""
    listing = pilot.app.screen.query_one(OptionList)
    return [
        plain(listing.get_option_at_index(i).prompt).strip() for i in range(listing.option_count)
    ]


def opened(backend: FakeBackend, size: tuple[int, int] = SMALL) -> Any:
    """Run the app on ``backend`` (used as ``async with``)."""
    return TableTestApp(backend).run_test(size=size)


def naming(offers: tuple[Offer, ...], uid: int) -> list[Offer]:
    """The offers whose action names ``uid``, worked out here on its own."""
    out = []
    for offer in offers:
        fields = [getattr(offer.action, name, None) for name in CARD_FIELDS]
        cards = getattr(offer.action, "cards", ())
        if uid in [f for f in fields if type(f) is int] or uid in cards:
            out.append(offer)
    return out


FIXTURES: list[tuple[Callable[[], Table], list[str]]] = [
    (early_turn, ["[5]", "Anger", "1/5", "3/5", "Life Deck 44", "Life Deck 38", "Hand 3"]),
    (lambda: early_turn(1), ["[5]", "1/5", "3/5", "Life Deck 44", "Hand 5"]),
    (
        combat_defender,
        ["[4]", "[5]", "3/5", "Life Deck 38", "passes 1/2", "COMBAT", "Kamehameha Drive"],
    ),
    (combat_attacker, ["passes 1/2", "attacker attacks", "[5]", "Life Deck 44"]),
    (search_own, ["SEARCHING", "Life Deck 41", "[5]"]),
    (search_other, ["searching the Life Deck", "Life Deck 41", "Hand 5"]),
    (game_over, ["GAME OVER", "Alice wins", "Personality victory"]),
]


@pytest.mark.parametrize("size", [SMALL, (120, 40), LARGE], ids=["80x24", "120x40", "160x50"])
@pytest.mark.parametrize("make,facts", FIXTURES, ids=[f[0]().name for f in FIXTURES])
async def test_every_fixture_draws_its_key_facts(
    make: Callable[[], Table], facts: list[str], size: tuple[int, int]
) -> None:
    table = make()
    app = TableTestApp(FakeBackend(table))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        if isinstance(app.screen, GameOverDialog):
            await pilot.press("enter")
            await pilot.pause()
        shown = visible(app)
        for fact in facts:
            assert fact in shown, f"{fact!r} is not in sight at {size}:\n{shown}"
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            app.save_screenshot(f"{table.name}-{size[0]}x{size[1]}.svg", SHOTS)


@pytest.mark.parametrize(
    "make", [early_turn, leaky_early_turn, combat_attacker, search_own, game_over]
)
async def test_the_other_seats_hand_is_never_drawn_face_up(make: Callable[[], Table]) -> None:
    app = TableTestApp(FakeBackend(make()))
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        everything = widget_texts(app) + visible(app)
        for title in BOB_SECRETS:
            assert title not in everything
        assert "Hand 3" in everything  # its size is public


async def test_a_seat_sees_its_own_hand() -> None:
    app = TableTestApp(FakeBackend(combat_defender()))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        shown = visible(app)
        assert all(title in shown for title in BOB_SECRETS)
        # The attack being answered is public; the rest of Alice's hand is not.
        assert not any(title in widget_texts(app) for title in ALICE_HAND[1:])


async def test_the_other_seat_sees_only_that_a_search_goes_on() -> None:
    app = TableTestApp(FakeBackend(search_other()))
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        everything = widget_texts(app)
        assert "searching the Life Deck" in everything
        for title in ("Earth Dragon Ball 2", "Goku Level 2", "Krillin's Guard", "Gotenks Level 1"):
            assert title not in everything


async def test_a_number_key_sends_exactly_that_offer() -> None:
    backend = FakeBackend(early_turn())
    async with opened(backend) as pilot:
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        assert backend.sent == [act.PlayCard(seat=0, card=104)]
        await pilot.press("3")
        await pilot.pause()
        assert backend.sent[-1] == act.EndNonCombat(seat=0)


async def test_ending_the_turn_with_cards_still_playable_is_asked_first() -> None:
    backend = FakeBackend(early_turn())
    async with opened(backend) as pilot:
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmDialog)
        assert "Play Four Star Ball" in widget_texts(pilot.app)
        await pilot.press("n")
        await pilot.pause()
        assert backend.sent == []
        await pilot.press("4")  # the numbered line asks the same
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmDialog)
        await pilot.press("y")
        await pilot.pause()
        assert backend.sent == [act.EndTurn(seat=0)]


async def test_the_final_physical_attack_is_asked_first() -> None:
    backend = FakeBackend(combat_attacker())
    async with opened(backend) as pilot:
        await pilot.pause()
        await pilot.press("F")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ActionsDialog)
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmDialog)
        assert backend.sent == []
        await pilot.press("y")
        await pilot.pause()
        assert backend.sent == [act.FinalPhysicalAttack(seat=0, discard=102)]


async def test_the_action_list_filters_and_sends_the_chosen_offer() -> None:
    backend = FakeBackend(early_turn())
    async with opened(backend) as pilot:
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ActionsDialog)
        await pilot.press(*"shuffle discard")
        await pilot.press("enter")
        await pilot.pause()
        assert backend.sent == [act.Shuffle(seat=0, pile="discard")]


async def test_a_cards_menu_lists_only_the_offers_that_name_it() -> None:
    table = early_turn()
    backend = FakeBackend(table)
    async with opened(backend) as pilot:
        await pilot.pause()
        screen = table_of(pilot)
        own = screen.query_one("#own", SeatBoard)
        # By keys: Down moves from group to group, to the hand's first card.
        for _ in range(8):
            if screen.focus_key == "card:101":
                break
            await pilot.press("down")
        assert screen.focus_key == "card:101"
        assert own.has_focus
        expected = naming(table.offers, 101)
        assert {id(o) for o in screen.item_offers("card:101")} == {id(o) for o in expected}
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ChoiceDialog)
        lines = options(pilot)
        assert lines[-1] == "Inspect (i)"
        assert lines[:-1]
        for line in lines[:-1]:
            assert "Kamehameha Drive" in line, line
        # Moves to every zone are one line, chosen among next.
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ChoiceDialog)
        assert all("Kamehameha Drive" in line for line in options(pilot))
        await pilot.press("down", "enter")
        await pilot.pause()
        assert backend.sent == [act.MoveCard(seat=0, card=101, to="discard")]


async def test_a_card_without_offers_says_so() -> None:
    backend = FakeBackend(combat_defender())
    async with opened(backend) as pilot:
        await pilot.pause()
        screen = table_of(pilot)
        screen.query_one("#other", SeatBoard).focus()
        await pilot.pause()
        assert screen.query_one("#other", SeatBoard).go_to("card:402")
        await pilot.press("enter")
        await pilot.pause()
        assert options(pilot) == ["Inspect (i)", "✗ Nothing is offered for it now."]


async def test_the_focused_personalitys_offers_come_first() -> None:
    backend = FakeBackend(combat_defender())
    async with opened(backend) as pilot:
        await pilot.pause()
        assert table_of(pilot).focus_key == "main:1"
        assert "For Vegeta Level 2" in visible(pilot.app)
        await pilot.press("2")
        await pilot.pause()
        assert backend.sent == [act.AllowAttack(seat=1)]


async def test_the_hand_off_hides_both_hands_until_the_next_player_is_ready() -> None:
    backend = FakeBackend(early_turn(), pending_handoff=Handoff(0, "Alice", "Goku"))
    async with opened(backend, LARGE) as pilot:
        await pilot.pause()
        assert isinstance(pilot.app.screen, HandoffScreen)
        everything = widget_texts(pilot.app) + visible(pilot.app)
        for title in (*ALICE_HAND, *BOB_SECRETS):
            assert title not in everything
        await pilot.press("1")  # nothing can be played meanwhile
        await pilot.pause()
        assert backend.sent == []
        await pilot.press("enter")
        await pilot.pause()
        assert backend.keyboard_taken == 1
        assert not isinstance(pilot.app.screen, HandoffScreen)
        assert "Kamehameha Drive" in visible(pilot.app)


async def test_undo_asks_the_backend_and_says_what_it_did() -> None:
    backend = FakeBackend(early_turn())
    async with opened(backend) as pilot:
        await pilot.pause()
        await pilot.press("u")
        await pilot.pause()
        assert backend.undone == 1
        assert "Undone: the last action was taken back." in visible(pilot.app)


async def test_a_refused_action_shows_the_rules_reason() -> None:
    backend = FakeBackend(early_turn(), refuse="Only one Dragon Ball Four may be in play.")
    async with opened(backend) as pilot:
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        assert "Only one Dragon Ball Four may be in play." in visible(pilot.app)


async def test_counters_change_by_keys_when_offered() -> None:
    backend = FakeBackend(early_turn())
    async with opened(backend) as pilot:
        await pilot.pause()
        screen = table_of(pilot)
        assert screen.focus_key == "main:0"
        await pilot.press("plus", "greater_than_sign", "less_than_sign", "minus")
        await pilot.pause()
        assert backend.sent == [
            act.Counter(seat=0, counter="stages", delta=1),
            act.Counter(seat=0, counter="anger", delta=1),
            act.Counter(seat=0, counter="anger", delta=-1),
            act.Counter(seat=0, counter="stages", delta=-1),
        ]
        assert screen.query_one("#own", SeatBoard).go_to("card:403")
        await pilot.press("plus")
        await pilot.pause()
        assert backend.sent[-1] == act.Counter(seat=0, counter="ally-stages", delta=1, card=403)
        await pilot.press("right_square_bracket")  # the level is not offered here
        await pilot.pause()
        assert len(backend.sent) == 5


async def test_manual_moves_are_reached_by_keys() -> None:
    backend = FakeBackend(early_turn())
    async with opened(backend) as pilot:
        await pilot.pause()
        screen = table_of(pilot)
        own = screen.query_one("#own", SeatBoard)
        assert own.go_to("card:401")
        await pilot.press("f")
        await pilot.pause()
        assert backend.sent[-1] == act.Flip(seat=0, card=401)
        await pilot.press("k")
        await pilot.pause()
        assert backend.sent[-1] == act.MarkUsed(seat=0, card=401)
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ChoiceDialog)
        await pilot.press("down", "down", "down", "down", "enter")
        await pilot.pause()
        assert backend.sent[-1] == act.MoveCard(seat=0, card=401, to="life-deck", bottom=True)
        assert own.go_to("card:402")
        await pilot.press("A")
        await pilot.pause()
        assert backend.sent[-1] == act.Attach(seat=0, card=402, to=403)
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("down", "enter")
        await pilot.pause()
        assert backend.sent[-1] == act.Shuffle(seat=0)


async def test_drawing_three_one_or_a_number() -> None:
    backend = FakeBackend(early_turn())
    async with opened(backend) as pilot:
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        assert options(pilot) == ["Draw 1 card", "Draw 3 cards", "Draw a number of cards …"]
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        assert backend.sent[-1] == act.DrawCards(seat=0, count=3)
        await pilot.press("d", "down", "down", "down", "enter")
        await pilot.pause()
        assert isinstance(pilot.app.screen, NumberDialog)
        await pilot.press("5", "enter")
        await pilot.pause()
        assert backend.sent[-1] == act.DrawCards(seat=0, count=5)


async def test_a_search_takes_the_ticked_cards_then_finishes() -> None:
    backend = FakeBackend(search_own())
    async with opened(backend) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        dialog = pilot.app.screen
        assert isinstance(dialog, TickDialog)
        assert dialog.query_one(SelectionList).has_focus
        await pilot.press("space")  # nothing is highlighted yet: nothing ticked
        await pilot.pause()
        assert dialog.ticked() == ()
        await pilot.press("down", "space")
        assert dialog.ticked() == (201,)
        await pilot.press("tab", "down", "enter")
        await pilot.pause()
        assert backend.sent == [act.SearchTake(seat=0, cards=(201,))]
        await pilot.press("s")
        await pilot.pause()
        await pilot.press("tab", "down", "down", "enter")
        await pilot.pause()
        assert backend.sent[-1] == act.FinishSearch(seat=0)


async def test_revealing_ticked_cards() -> None:
    backend = FakeBackend(early_turn())
    async with opened(backend) as pilot:
        await pilot.pause()
        await pilot.press("v")
        await pilot.pause()
        dialog = pilot.app.screen
        assert isinstance(dialog, TickDialog)
        await pilot.press("down", "space", "tab", "down", "enter")
        await pilot.pause()
        assert backend.sent == [act.Reveal(seat=0, cards=(101,))]


async def test_the_inspector_shows_what_the_view_shows() -> None:
    backend = FakeBackend(combat_defender())
    async with opened(backend) as pilot:
        await pilot.pause()
        await pilot.press("i")
        await pilot.pause()
        assert isinstance(pilot.app.screen, InspectorScreen)
        text = widget_texts(pilot.app)
        assert "Warrior Sword" in text and "3/5" in text and "Saiyan style" in text
        await pilot.press("escape")
        screen = table_of(pilot)
        assert screen.query_one("#own", SeatBoard).go_to("card:607")
        await pilot.press("i")
        await pilot.pause()
        text = widget_texts(pilot.app)
        assert "Earth Dragon Ball 6" in text
        rows = {line.split()[0]: line.split()[-1] for line in text.splitlines() if line.strip()}
        assert rows["Turned"] == "yes" and rows["Owner"] == "Alice"


async def test_solo_practice_switches_seats_and_a_table_without_it_hides_the_key() -> None:
    backend = SoloBackend(early_turn(), other=combat_defender())
    async with opened(backend, LARGE) as pilot:
        await pilot.pause()
        assert " w  Switch seat" in visible(pilot.app)
        await pilot.press("w")
        await pilot.pause()
        assert backend.switched == 1
        assert "you: Bob" in visible(pilot.app)
    plain_backend = FakeBackend(early_turn())
    async with opened(plain_backend, LARGE) as pilot:
        await pilot.pause()
        assert "Switch seat" not in visible(pilot.app)
        await pilot.press("w")
        await pilot.pause()
        assert plain_backend.sent == []


async def test_the_end_of_the_game_is_told_once() -> None:
    backend = FakeBackend(game_over())
    async with opened(backend) as pilot:
        await pilot.pause()
        assert isinstance(pilot.app.screen, GameOverDialog)
        await pilot.press("enter")
        await pilot.pause()
        table_of(pilot).refresh_table()
        await pilot.pause()
        assert not isinstance(pilot.app.screen, GameOverDialog)


async def test_waiting_for_the_other_seat_offers_nothing_and_says_who_acts() -> None:
    backend = FakeBackend(early_turn(1))
    async with opened(backend) as pilot:
        await pilot.pause()
        assert "Alice acts now" in visible(pilot.app)
        await pilot.press("1", "e", "p")
        await pilot.pause()
        assert backend.sent == []


def test_the_registry_names_the_ccg_table_screen() -> None:
    assert table_screen("ccg") is CcgTableScreen


@pytest.mark.parametrize("make", [early_turn, combat_defender, search_own])
async def test_an_ascii_table_draws_ascii_only(make: Callable[[], Table]) -> None:
    app = TableTestApp(FakeBackend(make()), ascii=True)
    try:
        async with app.run_test(size=SMALL) as pilot:
            await pilot.pause()
            shown = visible(app)
            assert shown.isascii()
            # No glyph without an ASCII twin (drawn as "?").
            words = shown.replace("Combat?", "").replace("PUR ?", "").replace(" ?  Help", "")
            assert "?" not in words
            assert "[5]" in shown and "Anger ##" in shown
    finally:
        glyphs.set_ascii(False)


def test_ascii_drawing_has_ascii_twins() -> None:
    table = combat_defender()
    glyphs.set_ascii(True)
    try:
        for seat in (0, 1):
            shown = SeatShown(table.view, seat, own=seat == 1)
            picture = seat_picture(shown, 80, Items(None))
            assert picture.plain.isascii(), picture.plain
    finally:
        glyphs.set_ascii(False)


def test_titles_are_drawn_as_plain_text() -> None:
    table = early_turn()
    alice = table.view.seats[0]
    marked = replace(alice.allies[0], title="[bold red]Krillin[/]")
    seats = (replace(alice, allies=(marked,)), table.view.seats[1])
    view = replace(table.view, seats=seats)
    picture = seat_picture(SeatShown(view, 0, own=True), 120, Items(None))
    assert isinstance(picture, Text)
    assert "[bold red]Krillin[/]" in picture.plain


async def test_input_in_the_action_filter_is_typed_not_taken_as_keys() -> None:
    backend = FakeBackend(early_turn())
    async with opened(backend) as pilot:
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        await pilot.press(*"end")
        await pilot.pause()
        assert pilot.app.screen.query_one(Input).value == "end"
        assert backend.sent == []


async def test_the_command_palette_lists_the_offers() -> None:
    backend = FakeBackend(combat_attacker())
    async with opened(backend, LARGE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Pass")
        for _ in range(40):  # the palette searches in the background
            await pilot.pause(0.05)
            if "combat action" in widget_texts(pilot.app):
                break
        assert "Pass\ncombat action" in widget_texts(pilot.app)
        await pilot.press("enter")  # the best match is highlighted
        await pilot.pause(0.1)
        assert backend.sent == [act.Pass(seat=0)]
