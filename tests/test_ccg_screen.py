"""The deck screen played by keys: counts change and the problems follow,
cards are added, profiles switched, the deck saved, unsaved changes kept
from a stray Escape, and the screen reached from the main menu, at 80×24."""

from __future__ import annotations

import io
import shutil
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, OptionList, Static

from dbdeck.games.ccg.library import Library, load_library
from dbdeck.games.ccg.screen import AddCard, ConfirmDiscard, DeckApp, DeckScreen
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.tui.app import DbdeckApp

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GOKU = Path(__file__).resolve().parent.parent / "cards" / "ccg" / "decks" / "goku.txt"


@pytest.fixture(scope="module")
def library() -> Library:
    """The shipped CCG library."""
    return load_library(include_env_packs=False)


@pytest.fixture
def deck_file(tmp_path: Path) -> Path:
    """A copy of the sample Goku deck to edit."""
    path = tmp_path / "goku.txt"
    shutil.copy(GOKU, path)
    return path


def screen_of(pilot: Pilot[Any]) -> DeckScreen:
    screen = pilot.app.screen
    assert isinstance(screen, DeckScreen)
    return screen


def status(pilot: Pilot[Any]) -> str:
    return str(screen_of(pilot).query_one("#status", Static).render())


def findings(pilot: Pilot[Any]) -> list[str]:
    listing = screen_of(pilot).query_one("#findings", OptionList)
    return [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]


def visible(pilot: Pilot[Any]) -> str:
    """What the terminal shows now, as plain text (the screen in front, what
    shows behind it, and the notifications over it)."""
    width, height = pilot.app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        record=True,
        color_system=None,
        force_terminal=True,
        legacy_windows=False,
    )
    console.print(pilot.app.screen._compositor.render_update(full=True))
    return console.export_text(styles=False)


async def highlight(pilot: Pilot[Any], title: str, *, by_keys: bool = False) -> None:
    """Move the deck table's cursor to the first line of ``title`` (by the
    arrow keys, or at once)."""
    screen = screen_of(pilot)
    table = screen.query_one("#lines", DataTable)
    table.focus()
    target = next(i for i, c in enumerate(screen.deck.cards) if c.title == title)
    if by_keys:
        await pilot.press("home", *["down"] * target)
    else:
        table.move_cursor(row=target)
        await pilot.pause()
    assert screen.deck.cards[table.cursor_row].title == title


async def test_counts_change_and_the_problems_follow(library: Library, deck_file: Path) -> None:
    async with DeckApp(library, deck_file).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "50 cards · LEGAL" in status(pilot)
        assert findings(pilot) == ["No problem and no warning under errata-2001."]
        await highlight(pilot, "Senzu Bean", by_keys=True)
        await pilot.press("minus")
        assert "goku.txt * · errata-2001 · 49 cards · 1 problem" in status(pilot)
        [said] = findings(pilot)
        assert said.startswith("deck SIZE-MIN: 49 cards; a deck holds at least 50")
        assert said.endswith("(Errata 7 June 2001, Deck Size 1)")
        await pilot.press("plus", "plus")
        assert "51 cards · 1 problem" in status(pilot)
        assert findings(pilot)[0].startswith("L39 COPIES: 4 copies of 'Senzu Bean'; 3 at most")
        await pilot.press("minus")
        assert "50 cards · LEGAL" in status(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert deck_file.read_text() == GOKU.read_text()
        assert "goku.txt · errata-2001" in status(pilot)  # saved: no star


async def test_the_status_counts_in_words(library: Library, tmp_path: Path) -> None:
    deck = tmp_path / "one.txt"
    deck.write_text("[Main Personality]\n1 Goku Level 1\n")
    async with DeckApp(library, deck).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "one.txt · errata-2001 · 1 card · 2 problems" in status(pilot)


async def test_a_saved_edit_keeps_every_other_line(library: Library, deck_file: Path) -> None:
    async with DeckApp(library, deck_file).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await highlight(pilot, "King Kai Training")
        await pilot.press("minus", "ctrl+s")
        await pilot.pause()
    before, after = GOKU.read_text().splitlines(), deck_file.read_text().splitlines()
    changed = [(b, a) for b, a in zip(before, after, strict=True) if b != a]
    assert changed == [("2 King Kai Training (Saiyan #79)", "1 King Kai Training (Saiyan #79)")]


async def test_add_a_card_and_switch_the_rules(library: Library, deck_file: Path) -> None:
    async with DeckApp(library, deck_file).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await highlight(pilot, "Senzu Bean")
        await pilot.press("a")
        assert isinstance(pilot.app.screen, AddCard)
        await pilot.press(*"1 Dream Machine Battle", "enter")
        await pilot.pause()
        screen = screen_of(pilot)
        table = screen.query_one("#lines", DataTable)
        assert screen.deck.cards[table.cursor_row].title == "Dream Machine Battle"
        assert any(
            f.startswith("L52 BANNED: 'Dream Machine Battle' is banned") for f in findings(pilot)
        )
        await pilot.press("r")
        assert "saiyan-2000 · 51 cards · LEGAL" in status(pilot)  # no banned list in 2000
        await pilot.press("r", "r")
        assert "errata-2001" in status(pilot)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_the_add_dialog_names_its_section_in_full(
    library: Library, deck_file: Path, size: tuple[int, int]
) -> None:
    async with DeckApp(library, deck_file).run_test(size=size) as pilot:
        await pilot.pause()
        await highlight(pilot, "Goku Level 2")
        await pilot.press("a")
        await pilot.pause()
        shown = visible(pilot)
        assert "Add a card to [Main Personality]" in shown
        assert "QUANTITY TITLE · Enter adds · Escape cancels" in shown  # not cut
        await pilot.press("escape")
        await highlight(pilot, "Senzu Bean")
        await pilot.press("a")
        await pilot.pause()
        assert "Add a card to [Life Deck]" in visible(pilot)


async def test_switching_the_rules_replaces_the_last_rules_notice(
    library: Library, deck_file: Path
) -> None:
    async with DeckApp(library, deck_file).run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        assert "Rules: saiyan-2000" in visible(pilot)
        await pilot.press("r")
        await pilot.pause()
        shown = visible(pilot)
        assert "Rules: digest" in shown and "Rules: saiyan-2000" not in shown
        assert "digest · 50 cards" in status(pilot)


async def test_escape_with_unsaved_changes_asks_first(library: Library, deck_file: Path) -> None:
    app = DeckApp(library, deck_file)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await highlight(pilot, "Senzu Bean")
        await pilot.press("minus", "escape")
        assert isinstance(app.screen, ConfirmDiscard)
        await pilot.press("n")
        assert isinstance(app.screen, DeckScreen) and app.screen.dirty
        await pilot.press("escape", "y")
        await pilot.pause()
    assert deck_file.read_text() == GOKU.read_text()  # nothing was saved


async def test_a_problem_jumps_to_its_line(library: Library, deck_file: Path) -> None:
    deck_file.write_text(GOKU.read_text().replace("1 Earth Dragon Ball 2", "2 Earth Dragon Ball 2"))
    async with DeckApp(library, deck_file).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        assert findings(pilot)[0].startswith("L46 DRAGON-BALL-COPIES")
        screen.query_one("#findings", OptionList).focus()
        await pilot.press("down", "enter")
        table = screen.query_one("#lines", DataTable)
        assert table.has_focus
        assert screen.deck.cards[table.cursor_row].line == 46


def counts(screen: DeckScreen) -> dict[int, int]:
    """Each card line's count, by its file line."""
    return {c.line: c.count for c in screen.deck.cards}


async def test_plus_after_a_jump_changes_the_problems_line(
    library: Library, deck_file: Path
) -> None:
    deck_file.write_text(GOKU.read_text().replace("3 Orange Standing", "4 Orange Standing"))
    async with DeckApp(library, deck_file).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        before = counts(screen)
        await pilot.press("tab", "down", "enter", "plus")
        await pilot.pause()
        assert counts(screen) == before | {23: 5}  # line 23, not Goku Level 1


async def test_a_problem_with_no_card_line_changes_no_other_line(
    library: Library, deck_file: Path
) -> None:
    # Line 23 is one the format cannot read; the deck is 3 cards short.
    deck_file.write_text(
        GOKU.read_text().replace("3 Orange Standing Fist Punch (Saiyan #1)", "Orange x3")
    )
    async with DeckApp(library, deck_file).run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        before = counts(screen)
        assert [f.line for f in screen._findings()] == [0, 23]
        findings_list = screen.query_one("#findings", OptionList)
        for keys, said in (
            (("tab", "down"), "a problem of the deck as a whole"),
            (("down",), "L23 is no card line"),
        ):
            await pilot.press(*keys, "enter")
            await pilot.pause()
            assert findings_list.has_focus  # no line to jump to: the list stays
            assert said in visible(pilot)
            await pilot.press("plus", "minus")
            await pilot.pause()
            assert counts(screen) == before and not screen.dirty
            assert findings_list.has_focus
        assert "deck as a whole" not in visible(pilot)  # the earlier notice is replaced


async def test_a_sections_problem_jumps_into_the_section(library: Library, deck_file: Path) -> None:
    deck_file.write_text(GOKU.read_text().replace("1 Goku Level 3\n", ""))
    async with DeckApp(library, deck_file).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        await highlight(pilot, "Senzu Bean")
        assert findings(pilot)[1].startswith("L9 MP-LEVELS")  # the [Main Personality] header
        await pilot.press("tab", "down", "down", "enter")
        await pilot.pause()
        table = screen.query_one("#lines", DataTable)
        assert table.has_focus and screen.deck.cards[table.cursor_row].title == "Goku Level 1"
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(pilot.app.screen, AddCard)
        assert pilot.app.screen.section == "Main Personality"


async def test_open_and_save_as_by_the_path_box(
    library: Library, deck_file: Path, tmp_path: Path
) -> None:
    async with DeckApp(library, None).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        assert screen.path == GOKU  # the sample deck is offered first
        await highlight(pilot, "Senzu Bean")
        await pilot.press("minus", "ctrl+s")
        await pilot.pause()
        assert GOKU.read_text().count("3 Senzu Bean") == 1  # the shipped deck is kept
        path_box = screen.query_one("#path", Input)
        await pilot.press("o")
        assert path_box.has_focus
        copy = tmp_path / "copy.txt"
        path_box.value = str(copy)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "2 Senzu Bean (Saiyan #43)" in copy.read_text() and screen.path == copy
        path_box.value = str(tmp_path)  # a folder: refused, the deck stays
        await pilot.press("enter")
        await pilot.pause()
        assert screen.path == copy
        path_box.value = str(deck_file)
        await pilot.press("enter")
        await pilot.pause()
        assert screen.path == deck_file and "50 cards · LEGAL" in status(pilot)


async def test_everything_fits_at_80_by_24(library: Library, deck_file: Path) -> None:
    async with DeckApp(library, deck_file).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        for selector in ("#path", "#status", "#lines", "#findings"):
            region = screen.query_one(selector).region
            assert region.height > 0 and region.bottom <= 23 and region.right <= 80, selector
        assert screen.query_one("#lines").region.height >= 8
        assert not screen.has_class("wide")
    async with DeckApp(library, deck_file).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = screen_of(pilot)
        assert screen.has_class("wide")
        lines, found = screen.query_one("#lines").region, screen.query_one("#findings").region
        assert found.x >= lines.right and found.height > 20


def deck_rows_shown(screen: DeckScreen) -> int:
    """How many of the deck's lines the table shows at once (its height less
    its header row)."""
    return screen.query_one("#lines", DataTable).scrollable_content_region.height - 1


async def test_the_deck_gets_the_room_at_80_by_24(library: Library, deck_file: Path) -> None:
    problems = (
        GOKU.parent.parent.parent.parent / "tests" / "ccg" / "screens" / "raditz-problems.txt"
    )
    for path, at_least in ((deck_file, 16), (problems, 12)):
        async with DeckApp(library, path).run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = screen_of(pilot)
            assert deck_rows_shown(screen) >= at_least, path.name
            # What matters stays: the path box, the verdict, the problems (the
            # first ones shown, the others a scroll away), the keys.
            shown = visible(pilot)
            assert "Deck file" in shown and f"{path.name} · errata-2001 ·" in shown
            assert "^s Save" in shown
            listed = screen.query_one("#findings", OptionList)
            assert listed.scrollable_content_region.height >= min(6, listed.virtual_size.height)
            for finding in screen._findings()[:2]:
                assert f"L{finding.line} {finding.rule}" in shown, finding


async def test_the_main_menu_opens_the_deck_screen(catalog: Catalog, tmp_path: Path) -> None:
    app = DbdeckApp(catalog, saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        menu = app.screen.query_one("#menu-options", OptionList)
        index = next(
            i for i in range(menu.option_count) if menu.get_option_at_index(i).id == "ccg-decks"
        )
        menu.highlighted = index
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, DeckScreen)
        assert "goku.txt · errata-2001 · 50 cards · LEGAL" in status(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.query_one("#menu-options", OptionList) is not None


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_snapshot_deck_screen(
    library: Library, snap_compare: Any, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A path relative to the repository, so that the path box reads the same anywhere.
    monkeypatch.chdir(GOKU.parent.parent.parent.parent)
    deck = Path("tests/ccg/screens/raditz-problems.txt")
    assert snap_compare(DeckApp(library, deck), terminal_size=size)


async def test_the_main_menu_starts_a_ccg_game(catalog: Catalog, tmp_path: Path) -> None:
    from dbdeck.games.ccg.tui.screen import CcgTableScreen

    app = DbdeckApp(catalog, saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        menu = app.screen.query_one("#menu-options", OptionList)
        index = next(
            i for i in range(menu.option_count) if menu.get_option_at_index(i).id == "ccg-play"
        )
        menu.highlighted = index
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, CcgTableScreen)
        assert app.screen.view.step == "draw"
        await pilot.press("1")
        await pilot.pause()
        assert app.screen.view.step == "non-combat"
    assert list(tmp_path.glob("*-ccg-*.json")), "the game is saved"


async def test_the_main_menu_teaches_the_ccg(catalog: Catalog, tmp_path: Path) -> None:
    from dbdeck.games.ccg.tui.howto import PAGES, HowToPlay

    app = DbdeckApp(catalog, saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        menu = app.screen.query_one("#menu-options", OptionList)
        index = next(
            i for i in range(menu.option_count) if menu.get_option_at_index(i).id == "ccg-howto"
        )
        menu.highlighted = index
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HowToPlay)
        await pilot.press(*["right"] * (len(PAGES) + 2))
        await pilot.pause()
        assert app.screen.page == len(PAGES) - 1
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HowToPlay)
