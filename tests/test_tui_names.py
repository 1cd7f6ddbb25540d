"""What the screens call things: Locations by name and text, the card
browser's rows, the cost words, the status line, the summary, the menus and
the glyphs that stand in for colour."""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

import pytest
from rich.console import Console
from screen_text import plain, widget_texts
from tables import app_for, quiet_table, table_of, turn_game
from textual.widgets import DataTable, Input, OptionList, Select, Static

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.cards.rows import DETAILS_WIDTH, card_rows
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.panels import BallView
from dbdeck.games.deckbuilding.engine.tally import CharacterTally, Tally
from dbdeck.games.deckbuilding.engine.view import seat_view
from dbdeck.games.deckbuilding.scenario import lay_table
from dbdeck.games.deckbuilding.tui.app import DbdeckApp, MainMenu, SetupWizard
from dbdeck.games.deckbuilding.tui.howto import HOW_TO_PLAY, HowToPlay
from dbdeck.games.deckbuilding.tui.reference import CardBrowser, RulesScreen
from dbdeck.games.deckbuilding.tui.summary import SummaryScreen
from dbdeck.games.deckbuilding.tui.widgets import MarketRows, StatusBar, VillainBoard, glyphs
from dbdeck.games.deckbuilding.tui.widgets.status import status_line
from dbdeck.games.deckbuilding.tui.widgets.tickbox import TickBox
from dbdeck.tui.backend import Seating

__all__ = ["quiet_table"]

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def at_kame_house(catalog: Catalog) -> Game:
    """Goku and Krillin against Freezer at Kame House."""
    return Game.new(
        catalog,
        Setup(characters=["goku", "krillin"], villain="freezer", location="kame-house", seed=3),
    )


def test_the_view_names_the_location_and_carries_its_text(catalog: Catalog) -> None:
    villain = seat_view(at_kame_house(catalog), 0).villain
    assert villain.location == "Kame House"
    assert "pays 1 less Energy for Ally cards" in villain.location_text


async def test_the_villain_board_names_the_location(catalog: Catalog) -> None:
    app = app_for(at_kame_house(catalog))
    async with app.run_test(size=(200, 60)) as pilot:
        await pilot.pause()
        board = plain(table_of(app).query_one(VillainBoard).render())
        assert "Location: Kame House" in board
        assert "kame-house" not in board
        assert "pays 1 less Energy for Ally cards" in board  # room for its text at 200


async def test_the_wizard_shows_the_chosen_locations_effect(catalog: Catalog) -> None:
    app = DbdeckApp(catalog, start=SetupWizard(catalog, seed=1))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        shown = app.screen.query_one("#location-text", Static)
        assert not shown.display  # no Location
        listed = app.screen.query_one("#location", Select).query_one(OptionList)
        prompts = [plain(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
        kame = next(p for p in prompts if p.startswith("Kame House"))
        assert "pays 1 less Energy for Ally cards" in kame  # the list gives each effect
        app.screen.query_one("#location", Select).value = "korin-tower"
        await pilot.pause()
        assert shown.display
        text = plain(shown.content)
        assert text.startswith("Korin Tower: ") and "heals 1 point of Damage" in text


async def test_the_rules_search_finds_a_location_by_name_and_by_its_text(
    catalog: Catalog,
) -> None:
    app = DbdeckApp(catalog, start=RulesScreen(catalog))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press(*"kame house")
        await pilot.pause()
        shown = plain(app.screen.query_one("#rules-text", Static).content)
        assert "Location: Kame House" in shown and "1 less Energy for Ally cards" in shown
        app.screen.query_one(Input).value = "senzu"
        await pilot.pause()
        shown = plain(app.screen.query_one("#rules-text", Static).content)
        assert "Location: Korin Tower" in shown
        assert widget_texts(app)  # the screen drew


async def test_the_main_menu_opens_on_nothing_and_never_wraps(catalog: Catalog) -> None:
    app = DbdeckApp(catalog)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MainMenu)
        listing = app.screen.query_one("#menu-options", OptionList)
        assert listing.highlighted is None  # like every list: nothing at first
        await pilot.press("enter")  # nothing highlighted: nothing opens, and it says so
        await pilot.pause()
        assert isinstance(app.screen, MainMenu)
        assert any("Nothing is highlighted" in n.message for n in app._notifications)
        await pilot.press("down")  # Down highlights the first item
        await pilot.pause()
        assert listing.get_option_at_index(listing.highlighted or 0).id == "new"
        await pilot.press("up")
        await pilot.pause()
        assert listing.get_option_at_index(listing.highlighted or 0).id == "new"  # not Quit
        last = listing.option_count - 1
        await pilot.press(*["down"] * (last + 3))
        await pilot.pause()
        assert listing.get_option_at_index(listing.highlighted or 0).id == "quit"
        await pilot.press("up")
        await pilot.pause()
        assert listing.get_option_at_index(listing.highlighted or 0).id == "ccg-howto"


def test_the_summary_figures_stand_under_their_headings(catalog: Catalog) -> None:
    game = Game.new(
        catalog,
        Setup(
            characters=["master-roshi", "tien", "goku-ss3", "vegeta-ss1"],
            villain="broly",
            seed=2,
            ignore_levels=True,
        ),
    )
    game.state.characters[0].defeated = True
    tally = Tally(
        {
            ch.id: CharacterTally(ch.id, dealt=100 + i, taken=i, bought=10 * i)
            for i, ch in enumerate(game.state.characters)
        },
        villain_dealt=37,
    )
    players = {ch.id: f"Player number {i}" for i, ch in enumerate(game.state.characters)}
    screen = SummaryScreen(seat_view(game, None), tally, Seating(players=players))
    console = Console(file=io.StringIO(), width=66, record=True, color_system=None)
    console.print(screen._table())
    lines = console.export_text().rstrip("\n").split("\n")
    assert "…" not in "".join(lines)  # nothing cut
    assert len(lines) == 2 + len(game.state.characters) + 1  # two heading lines, no row wraps
    heading = lines[1]
    for word, column in (("dealt", 3), ("taken", 4), ("bought", 5)):
        right = heading.index(word) + len(word)
        for line in lines[2 : 2 + len(game.state.characters)]:
            figures = line[: right + 1].split()
            assert line[right - 1] != " " and line[right : right + 1] in ("", " "), (word, line)
            assert figures[-1].isdigit(), (word, column, line)
    assert "defeated" in lines[2]
    assert lines[-1].split()[-1] == "37"  # the Villain's damage dealt


async def test_the_summary_line_is_plain_text(catalog: Catalog) -> None:
    view = replace(seat_view(at_kame_house(catalog), None), title="[red]Freezer[/red] vs Goku")
    screen = SummaryScreen(view, Tally(), Seating(players={}))
    app = DbdeckApp(catalog)
    async with app.run_test(size=(100, 30)) as pilot:
        await app.push_screen(screen)
        await pilot.pause()
        # What is drawn: markup in the title would be parsed away.
        shown = [getattr(w.render(), "plain", "") for w in screen.query(Static)]
        assert any(line.startswith("[red]Freezer[/red] vs Goku: ") for line in shown)


def seven(*held: tuple[str, str]) -> tuple[BallView, ...]:
    """The seven Dragon Balls, the first ones held as given."""
    balls = [BallView(i + 1, key, name) for i, (key, name) in enumerate(held)]
    balls += [BallView(i + 1, "", "unclaimed") for i in range(len(held), 7)]
    return tuple(balls)


BROLY_AND_PARAGUS = seven(("villain", "Broly"), ("e:paragus", "Paragus"))


@pytest.mark.parametrize(
    ("width", "said"),
    [
        (
            160,
            "Round 2 (3 turn cards left) · Goku's turn (Ann) · "
            "Dragon Balls ●●○○○○○ Broly 1 · Paragus 1 · 5 unclaimed",
        ),
        (
            90,
            "Round 2 · Goku's turn (Ann) · Dragon Balls ●●○○○○○ Broly 1 · Paragus 1 · 5 unclaimed",
        ),
        (76, "Round 2 · Goku's turn (Ann) · Balls ●●○○○○○ Broly 1 · Paragus 1 · 5 free"),
        (66, "Round 2 · Goku's turn (Ann) · Balls: Broly 1 · Paragus 1 · 5 free"),
    ],
)
def test_the_status_line_shortens_its_words_before_it_cuts(width: int, said: str) -> None:
    line = status_line(2, 3, "Goku's turn (Ann)", BROLY_AND_PARAGUS, width).plain
    assert line == said
    assert len(line) <= width


def test_the_status_line_is_cut_only_when_nothing_else_fits() -> None:
    line = status_line(2, 3, "Goku's turn (Ann)", BROLY_AND_PARAGUS, 40).plain
    assert len(line) == 40 and line.endswith("…")


async def test_the_status_line_at_80_columns_is_whole(catalog: Catalog) -> None:
    game = Game.new(catalog, Setup(characters=["goku"], villain="broly", seed=4))
    lay_table(game, {"villain": {"dragon_balls": 2}})
    app = app_for(game, players={"goku": "Annabelle the Brave"})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        shown = getattr(table_of(app).query_one(StatusBar).render(), "plain", "")
        assert "…" not in shown
        assert (
            shown == "Round 1 · Goku's turn (Annabelle the Brave) · Balls ●●○○○○○ Broly 2 · 5 free"
        )


def vegeta_buys(catalog: Catalog) -> Game:
    """Vegeta SS1's Actions phase, with Future Trunks in the Ally market."""
    game = Game.new(catalog, Setup(characters=["vegeta-ss1"], villain="broly", seed=3))
    lay_table(game, {"active": "vegeta-ss1", "markets": {"allies": ["future-trunks-ally"]}})
    return game


def test_a_market_the_board_forbids_is_said_in_words(catalog: Catalog) -> None:
    view = seat_view(vegeta_buys(catalog), 0)
    allies = next(m for m in view.markets if m.market == "allies")
    assert allies.closed == "Vegeta SS1 cannot buy Allies"
    trunks = allies.row[0]
    assert trunks.cost is None and trunks.price == "Vegeta SS1 cannot buy Allies"
    assert all(not m.closed for m in view.markets if m.market != "allies")


async def test_the_forbidden_market_row_and_its_card_say_why(catalog: Catalog) -> None:
    app = app_for(vegeta_buys(catalog), players={"vegeta-ss1": "Ann"})
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        table = table_of(app)
        rows = plain(table.query_one(MarketRows).render())
        allies = rows.split("Techniques")[0]  # the Allies row, on one line or more
        assert "[Future Trunks]" in allies and "Vegeta SS1 cannot buy Allies." in allies
        assert " - x]" not in rows and " -]" not in rows
        allies_uid = next(
            o.card.uid for m in table.view.markets if m.market == "allies" for o in m.row
        )
        said = table.describe(allies_uid, "market:allies")
        assert "Vegeta SS1 cannot buy Allies." in said and ". -." not in said
        assert said.count("cannot buy Allies") == 1


def browser_rows(table: DataTable[Any]) -> list[list[str]]:
    """The card browser's rows as plain text, cell by cell."""
    return [[plain(cell).strip() for cell in table.get_row_at(i)] for i in range(table.row_count)]


async def test_the_card_browser_shows_one_row_per_card_with_its_copies(
    catalog: Catalog,
) -> None:
    app = DbdeckApp(catalog, start=CardBrowser(catalog))
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        every = browser_rows(table)
        assert all(row[4] for row in every)  # every card has its details
        assert len(every) == len({(r[0], r[1], r[3], r[4]) for r in every})  # no twin rows
        combat = next(row for row in every if row[0] == "Combat Energy")
        assert combat[1:4] == ["Energy", "4", "3"] and "2 Energy" in combat[4]
        app.screen.query_one("#name", Input).value = "kamehameha"
        await pilot.pause()
        rows = browser_rows(table)
        assert [row[2] for row in rows] == ["2", "1", "2"]  # five cards, three printings
        assert all(row[3] == "starting" for row in rows)
        assert rows[0][4] == "Energy, 4 damage, Time 2; starting card of Goku, Goku SS1"
        assert "3 damage" in rows[1][4] and "Master Roshi" in rows[1][4]
        table.focus()
        await pilot.press("down")
        await pilot.pause()
        below = plain(app.screen.query_one("#card-details", Static).content)
        assert below.startswith("Kamehameha · Technique, 1 copy")
        assert "starting card of Master Roshi" in below  # the highlighted row, whole


def test_every_market_card_has_a_cost_in_the_browser(catalog: Catalog) -> None:
    for row in card_rows(catalog):
        if row.kind in ("ally", "technique", "energy", "equipment", "training"):
            assert row.cost, row
        assert row.copies >= 1 and row.details.strip(), row
        facts = row.details.split("; starting card of")[0].split("; only for")[0]
        assert len(facts) <= DETAILS_WIDTH, row  # long texts are shortened


async def test_how_to_play_turns_its_pages_by_keys(catalog: Catalog) -> None:
    app = DbdeckApp(catalog)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(HowToPlay())
        await pilot.pause()

        def shown() -> tuple[str, str]:
            page = plain(app.screen.query_one("#howto-page", Static).content)
            keys = plain(app.screen.query_one("#howto-keys", Static).content)
            return page, keys

        page, keys = shown()
        first, second = HOW_TO_PLAY[0][0], HOW_TO_PLAY[1][0]
        assert page.startswith(first) and second not in page.split("\n")[0]
        assert f"Page 1 of {len(HOW_TO_PLAY)}" in keys and f"→ or n: {second}" in keys
        assert "Escape: back" in keys and "←" not in keys
        await pilot.press("left")  # the first page stays
        await pilot.pause()
        assert shown()[0].startswith(first)
        await pilot.press("n")
        await pilot.pause()
        page, keys = shown()
        assert page.startswith(second) and f"← or p: {first}" in keys
        await pilot.press("p")
        await pilot.pause()
        assert shown()[0].startswith(first)
        await pilot.press("end")
        await pilot.pause()
        page, keys = shown()
        assert page.startswith(HOW_TO_PLAY[-1][0]) and "→" not in keys
        await pilot.press("right")
        await pilot.pause()
        assert shown()[0].startswith(HOW_TO_PLAY[-1][0])
        every = "".join(body for _title, body in HOW_TO_PLAY)
        assert "dbdeck continue resumes" in every  # the content is all kept
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MainMenu)


def drawn_text(widget: Any) -> str:
    """What a widget draws, as plain text."""
    return str(getattr(widget.render(), "plain", ""))


@pytest.mark.parametrize("ascii_mode", [False, True], ids=["unicode", "ascii"])
async def test_without_colour_the_shown_tab_is_bracketed(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch, ascii_mode: bool
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(glyphs, "ASCII", ascii_mode)
    app = app_for(turn_game(catalog))
    assert app.no_color
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        tabs = table_of(app).query_one("#panel-tabs", Static)
        before = drawn_text(tabs)
        assert before.count("[") == 1 and before.count("]") == 1
        await pilot.press("6")
        await pilot.pause()
        after = drawn_text(tabs)
        assert "[6 Log]" in after and after.count("[") == 1
        assert after != before


@pytest.mark.parametrize("ascii_mode", [False, True], ids=["unicode", "ascii"])
async def test_without_colour_a_checked_box_differs_from_an_unchecked_one(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch, ascii_mode: bool
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(glyphs, "ASCII", ascii_mode)
    app = DbdeckApp(catalog, start=SetupWizard(catalog, seed=1))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        box = app.screen.query_one("#extreme", TickBox)
        assert not box.value and "X" not in drawn_text(box)
        box.focus()
        await pilot.press("space")
        await pilot.pause()
        assert box.value and "X" in drawn_text(box)
