"""The card inspector (``i``) on a real table's views: what dbdeck knows of a
card the seat sees (its identity, its rulings under the table's rules
profile, a pack's text drawn as plain text), nothing of a card it may not
see (not even its id), and a long inspector scrolling at 80×24."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ccg_table_fixtures import FakeBackend, Table
from screen_text import widget_texts
from textual.containers import VerticalScroll
from textual.pilot import Pilot

from dbdeck.games.ccg.library import Library, load_library
from dbdeck.games.ccg.match import CcgMatch, CcgRules
from dbdeck.games.ccg.table import actions as a
from dbdeck.games.ccg.table.view import HIDDEN
from dbdeck.games.ccg.tui.inspector import InspectorScreen, card_facts
from dbdeck.games.ccg.tui.offers import every_card
from dbdeck.games.ccg.tui.screen import CcgTableScreen
from dbdeck.games.ccg.tui.widgets import SeatBoard
from dbdeck.tui.shell import TableApp

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

HERE = Path(__file__).resolve().parent
DECKS = HERE.parent / "cards" / "ccg" / "decks"
PACK = HERE / "ccg" / "pack-text"
"""A made-up text for the Orange Standing Fist Punch (with markup in it,
to be drawn literally) and Goku's ladder."""
SMALL = (80, 24)
JOHN, SANDRA = 0, 1
MOTHERS_TOUCH = "Mother's Touch"


@pytest.fixture(scope="module")
def library() -> Library:
    return load_library([PACK], include_env_packs=False)


def _match(library: Library, profile: str = "errata-2001") -> CcgMatch:
    """John has drawn the Standing Fist Punch, Mother's Touch and Earth
    Dragon Ball 3; Sandra holds the Lunge Punch, the Elbow Strike and a
    Vegeta, which John may not see."""
    rules = CcgRules(library)
    match = rules.new(
        rules.read_setup(
            {
                "players": ["John", "Sandra"],
                "decks": [(DECKS / "goku.txt").read_text(), (DECKS / "raditz.txt").read_text()],
                "seed": 1,
                "profile": profile,
            }
        )
    )
    state = match.state
    for seat, titles in (
        (JOHN, ["Orange Standing Fist Punch", "Mother's Touch", "Earth Dragon Ball 3"]),
        (SANDRA, ["Red Lunge Punch", "Black Elbow Strike", "Vegeta Level 1"]),
    ):
        deck = state.side(seat).life_deck
        top = [next(u for u in deck if state.cards[u].title == t) for t in titles]
        deck[:] = top + [u for u in deck if u not in top]
    for action in (a.DrawThree(seat=JOHN), a.EndNonCombat(seat=JOHN)):
        match.apply(action)
    match.apply(a.PowerUp(seat=JOHN, stages=2))
    match.apply(a.DeclareCombat(seat=JOHN))  # Sandra draws her three
    return match


def _table(match: CcgMatch) -> Table:
    plays = frozenset({"p1"})
    return Table(match.view(JOHN, plays), tuple(match.offers(plays)), "real table")


class InspectorApp(TableApp):
    def __init__(self, backend: FakeBackend) -> None:
        super().__init__()
        self.backend = backend

    def on_mount(self) -> None:
        self.push_screen(self.table_screen("ccg", self.backend))


def _screen(pilot: Pilot[Any]) -> CcgTableScreen:
    return next(s for s in pilot.app.screen_stack if isinstance(s, CcgTableScreen))


def _key(table: Table, title: str) -> str:
    """The screen's key of the card of John's hand of this title."""
    return f"card:{next(f.uid for f in table.view.seats[JOHN].hand if f.title == title)}"


async def _inspect(pilot: Pilot[Any], key: str) -> str:
    await pilot.pause()
    assert _screen(pilot).query_one("#own", SeatBoard).go_to(key)
    await pilot.press("i")
    await pilot.pause()
    assert isinstance(pilot.app.screen, InspectorScreen)
    return widget_texts(pilot.app)


async def test_the_inspector_shows_the_identity_rulings_and_a_packs_text(
    library: Library,
) -> None:
    table = _table(_match(library))
    backend = FakeBackend(table, catalog=library)
    async with InspectorApp(backend).run_test(size=(120, 40)) as pilot:
        text = await _inspect(pilot, _key(table, MOTHERS_TOUCH))
        assert "What dbdeck knows" in text and "mothers-touch" in text
        assert "Saiyan #90" in text
        assert "Errata 7 June 2001, Saiyan #90" in text  # where the sources name it
        assert "calls it a Combat card" in text  # dbdeck's note
        assert "Rulings under errata-2001" in text
        ruling = library.rulings_on("mothers-touch")[0]
        assert f"{ruling.source}: {ruling.summary}" in " ".join(text.split())
        assert "No pack gives this card's text" in text
        await pilot.press("escape")
        text = await _inspect(pilot, _key(table, "Orange Standing Fist Punch"))
        assert "Style         Orange" in text and "Saiyan #1" in text
        # The pack's text, markup and all, drawn as it is written.
        assert "[bold]not markup[/bold]" in text and "texts.ccg.json" in text
        assert "Rulings under errata-2001" in text and "None on this card." in text
        await pilot.press("escape")
        text = await _inspect(pilot, _key(table, "Earth Dragon Ball 3"))
        assert "Dragon Ball   Earth 3" in text and "Saiyan #75" in text
        await pilot.press("escape")
        await pilot.pause()
        _screen(pilot).inspect("main:0")
        await pilot.pause()
        text = widget_texts(pilot.app)
        assert "goku-level-1" in text and "Power stages  0, 500, 600" in text
        assert "Personality   Goku, level 1" in text and "Alignment     hero" in text


async def test_the_rulings_are_those_of_the_tables_profile(library: Library) -> None:
    table = _table(_match(library, "saiyan-2000"))
    backend = FakeBackend(table, catalog=library)
    async with InspectorApp(backend).run_test(size=(120, 40)) as pilot:
        text = " ".join((await _inspect(pilot, _key(table, MOTHERS_TOUCH))).split())
        assert "Rulings under saiyan-2000" in text
        assert "do not apply under saiyan-2000 (rules note R20)" in text


async def test_without_a_library_the_inspector_says_so(library: Library) -> None:
    table = _table(_match(library))
    async with InspectorApp(FakeBackend(table)).run_test(size=(120, 40)) as pilot:
        text = await _inspect(pilot, _key(table, MOTHERS_TOUCH))
        assert "The card library is not at hand at this screen." in text
        assert "Errata 7 June 2001" not in text


def test_a_card_the_seat_may_not_see_reveals_nothing(library: Library) -> None:
    match = _match(library)
    view = _table(match).view
    hidden = view.seats[SANDRA].hand
    assert len(hidden) == 3 and all(f.uid == HIDDEN and f.card_id == "" for f in hidden)
    secrets = [match.state.cards[u] for u in match.state.side(SANDRA).hand]
    for face in hidden:
        text = card_facts(face, view, "Sandra's hand", catalog=library).plain
        assert "You may not see this card." in text and "What dbdeck knows" not in text
        for card in secrets:
            assert card.card_id not in text and card.title not in text
    # Nothing the inspector can be opened on is one of them.
    shown = {f.uid for f in every_card(view)}
    assert not shown & set(match.state.side(SANDRA).hand)


def test_a_view_gives_ids_only_of_the_cards_it_shows(library: Library) -> None:
    """Every face in the view's JSON: a hidden one has no id; a shown one
    has its own card's id."""
    match = _match(library)
    state = match.state
    for seat, plays in ((JOHN, {"p1"}), (SANDRA, {"p2"}), (None, set())):
        data = match.view(seat, frozenset(plays)).to_json()
        faces: list[dict[str, Any]] = []

        def walk(node: Any, faces: list[dict[str, Any]] = faces) -> None:
            if isinstance(node, dict):
                if "uid" in node and "card_id" in node:
                    faces.append(node)
                for value in node.values():
                    walk(value)
            elif isinstance(node, list):
                for value in node:
                    walk(value)

        walk(data)
        assert faces
        for face in faces:
            if face["uid"] == HIDDEN:
                assert face["card_id"] == ""
            else:
                assert face["card_id"] == state.cards[face["uid"]].card_id
        for panel in data["seats"]:
            assert panel["main"]["card_id"] == state.cards[state.side(panel["seat"]).main].card_id
        json.dumps(data)


async def test_a_long_inspector_scrolls_at_80x24(library: Library) -> None:
    table = _table(_match(library))
    backend = FakeBackend(table, catalog=library)
    async with InspectorApp(backend).run_test(size=SMALL) as pilot:
        await _inspect(pilot, _key(table, MOTHERS_TOUCH))
        scroll = pilot.app.screen.query_one(VerticalScroll)
        assert scroll.max_scroll_y > 0, "the card's facts are longer than the screen"
        assert scroll.scroll_y == 0
        await pilot.press("end")
        await pilot.pause()
        assert scroll.scroll_y == scroll.max_scroll_y
        await pilot.press("home")
        await pilot.pause()
        assert scroll.scroll_y == 0
        await pilot.press("pagedown")
        await pilot.pause()
        assert scroll.scroll_y > 0
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(pilot.app.screen, CcgTableScreen)
