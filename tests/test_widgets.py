"""The board widgets draw their panel of a seat's view and nothing else.

Every Villain is played by the greedy bot; at several points of each game the
panels of ``seat_view(game, 0)`` are set on mounted widgets, and what the
widgets show is read back off the screen: health as left/maximum with its
bar, the Time Tracks as four slots on one line, every card of the hand and
the markets as tiles, the note of a hidden hand, and a click or Enter on a
card posting ``CardChosen``. The pictures are checked too: a tile is never
cut across two lines, unaffordable tiles are dimmed and forbidden ones
struck, and ASCII mode draws no glyph outside ASCII.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import re
from collections import Counter
from collections.abc import Iterator

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widget import Widget

from dbdeck.games.deckbuilding import bots
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.panels import Health, MarketCard, TableView, VillainPanel
from dbdeck.games.deckbuilding.engine.view import seat_view
from dbdeck.games.deckbuilding.tui.widgets import (
    CardChosen,
    CardFocused,
    CharacterBoard,
    CharacterShown,
    DragonBallTracker,
    HandBoard,
    HandShown,
    MarketRows,
    MarketsShown,
    TurnOrderBoard,
    TurnOrderShown,
    VillainBoard,
    glyphs,
    health_bar,
)
from dbdeck.games.deckbuilding.tui.widgets.board import Board, Items
from dbdeck.games.deckbuilding.tui.widgets.glyphs import pack
from dbdeck.games.deckbuilding.tui.widgets.time_track import slot_widths, track_line

CHARACTERS = ("goku", "krillin")
"""Two Level 0 Characters: a legal party against every Villain."""

STOPS = (0, 12, 40, None)
"""Where each bot game is looked at: after so many actions; ``None``: its end."""

LONGEST = 600
"""No test game runs longer than this many actions."""

NOTE = "Bob's hand is hidden until Bob takes the keyboard."


def points_of(catalog: Catalog, villain: str) -> Iterator[Game]:
    """One greedy game against ``villain``, stopped at each of ``STOPS``."""
    game = Game.new(catalog, Setup(characters=list(CHARACTERS), villain=villain, seed=7))
    rng = random.Random(7)
    played = 0
    for stop in STOPS:
        while not game.over and played < (LONGEST if stop is None else stop):
            game.apply(bots.greedy(game, rng))
            played += 1
        yield game


class Boards(App[None]):
    """A bare table: one of each board, and the cards chosen on them."""

    def __init__(self) -> None:
        super().__init__()
        self.chosen: list[CardChosen] = []
        self.focused_cards: list[CardFocused] = []

    def compose(self) -> ComposeResult:
        yield VillainBoard(id="villain")
        yield TurnOrderBoard(id="turn-order")
        yield DragonBallTracker(id="balls")
        yield MarketRows(id="market-rows")
        for character in CHARACTERS:
            yield CharacterBoard(character, id=f"char-{character}")
        yield HandBoard(id="hand")

    def show(self, view: TableView) -> None:
        """Give every board its panel, as the table screen does."""
        self.query_one(VillainBoard).panel = view.villain
        self.query_one(TurnOrderBoard).shown = TurnOrderShown.of(view.turn_order, view.characters)
        self.query_one(DragonBallTracker).balls = view.balls
        self.query_one(MarketRows).shown = MarketsShown(view.markets)
        for panel in view.characters:
            self.query_one(f"#char-{panel.id}", CharacterBoard).shown = CharacterShown(panel)
        self.query_one(HandBoard).shown = HandShown(view.hands[0] if view.hands else None)

    def on_card_chosen(self, message: CardChosen) -> None:
        self.chosen.append(message)

    def on_card_focused(self, message: CardFocused) -> None:
        self.focused_cards.append(message)


def lines_of(widget: Widget) -> list[str]:
    """What a widget shows, line by line."""
    width, height = widget.size
    return [strip.text for strip in widget.render_lines(Region(0, 0, width, height))]


def text_of(widget: Widget) -> str:
    """What a widget shows, as one line with single spaces."""
    return " ".join(" ".join(lines_of(widget)).split())


def where_is(widget: Widget, words: str) -> tuple[int, int]:
    """The cell of the first letter of ``words`` on the widget's screen."""
    for y, line in enumerate(lines_of(widget)):
        x = line.find(words)
        if x >= 0:
            return x, y
    raise AssertionError(f"{words!r} is not shown: {lines_of(widget)}")


def reads(health: Health) -> str:
    return f"{health.remaining}/{health.maximum}"


def bars_agree(text: str) -> None:
    """Each bar is filled by the Health left."""
    bars = re.findall(r"([█░]+) (\d+)/(\d+)", text)
    assert bars, text
    for bar, remaining, maximum in bars:
        width = len(bar)
        assert bar.count("█") == round(width * int(remaining) / max(int(maximum), 1)), bar


def tile(offered: MarketCard) -> str:
    """A market card's tile as the markets draw it."""
    price = "" if offered.cost is None else f" {offered.cost}"  # no price: the row says why
    if offered.pay_with == "dragon-balls" and offered.cost is not None:
        price += glyphs.ball()
    mark = glyphs.exclusive_mark() if offered.exclusive else ""
    return f"[{offered.card.name}{mark}{price}"


async def test_every_board_reads_its_panel_of_the_view(catalog: Catalog) -> None:
    app = Boards()
    async with app.run_test(size=(120, 80)) as pilot:
        for villain in catalog.villains():
            for game in points_of(catalog, villain.id):
                view = seat_view(game, 0)
                app.show(view)
                await pilot.pause()
                where = f"{villain.id} after {game.state.actions} actions"

                v = view.villain
                board = app.query_one(VillainBoard)
                shown = text_of(board)
                title = str(board.border_title)
                assert v.name in title and f"Level {v.level}" in title, where
                assert ("not arrived yet" in title) == (not v.arrived), where
                if v.health is not None:
                    assert f"Health {health_bar(v.health, 24)}" in shown, where
                for enemy in v.enemies:
                    assert f"{enemy.name} {reads(enemy.health)}" in re.sub(r"[█░]+ ", "", shown)
                    assert (f"{reads(enemy.health)} DEFEATED" in shown) == enemy.defeated, where
                for minion in v.minions:
                    assert f"[{minion.card.name} {reads(minion.health)} A{minion.armor}" in shown
                track = next(line for line in lines_of(board) if "Time 1 " in line)
                for slot, attacks in enumerate(v.time_track, 1):
                    assert f"{slot} " in track, where
                    for attack in attacks:
                        assert attack.name[:6] in track, where  # a long name is cut, never wrapped

                for panel in view.characters:
                    character = app.query_one(f"#char-{panel.id}", CharacterBoard)
                    shown = text_of(character)
                    assert panel.name in str(character.border_title), where
                    bars_agree(shown)
                    assert f"Health {health_bar(panel.health, 12)}" in shown, where
                    assert (f"{reads(panel.health)} Armor" in shown) or panel.defeated
                    assert ("DEFEATED" in shown) == panel.defeated, where
                    for ally in panel.allies:
                        assert ally.health is not None
                        assert f"[{ally.card.name} {reads(ally.health)}" in shown, where
                    assert f"Hand {panel.hand}" in shown, where
                    assert f"Allies {len(panel.allies)}/{panel.ally_limit}" in shown, where

                shown = text_of(app.query_one(MarketRows))
                for market in view.markets:
                    for offered in market.row:
                        assert tile(offered) in shown, where

                order = app.query_one(TurnOrderBoard)
                assert f"Round {view.turn_order.round}" in str(order.border_title), where
                shown = text_of(order)
                assert f"{view.turn_order.left} card" in shown, where
                if view.turn_order.revealed:
                    assert f"last: {view.turn_order.revealed[-1]}" in shown, where
                shown = text_of(app.query_one(DragonBallTracker))
                for held in view.balls:
                    assert f"{held.star}★ {held.name}" in shown

                shown = text_of(app.query_one(HandBoard))
                [hand] = view.hands
                assert f"{hand.name}'s hand · Energy {hand.energy}" in shown, where
                for number, card in enumerate(hand.cards, 1):
                    assert f"[{number} {card.name}" in shown, where


def test_health_reads_left_of_maximum() -> None:
    assert health_bar(Health(10, 10), 10).plain == "██████████ 10/10"
    assert health_bar(Health(0, 10), 10).plain == "░░░░░░░░░░ 0/10"
    assert health_bar(Health(7, 10), 10).plain == "███████░░░ 7/10"
    assert health_bar(Health(0, 0), 5).plain == "░░░░░ 0/0"


async def test_a_defeated_character_reads_defeated(catalog: Catalog) -> None:
    game = Game.new(catalog, Setup(characters=list(CHARACTERS), villain="freezer", seed=7))
    goku = seat_view(game, 0).character("goku")
    assert goku is not None
    app = Boards()
    async with app.run_test(size=(100, 70)) as pilot:
        board = app.query_one("#char-goku", CharacterBoard)
        board.shown = CharacterShown(goku)
        await pilot.pause()
        assert "Health ████████████ 10/10 " in text_of(board)
        board.shown = CharacterShown(dataclasses.replace(goku, defeated=True, health=Health(0, 10)))
        await pilot.pause()
        shown = text_of(board)
        assert "Health ░░░░░░░░░░░░ 0/10" in shown and "DEFEATED" in shown


async def test_a_hidden_hand_shows_the_note_and_no_card(catalog: Catalog) -> None:
    game = next(points_of(catalog, "freezer"))
    every = seat_view(game, 0, every_hand=True)
    app = Boards()
    async with app.run_test(size=(100, 70)) as pilot:
        hand = app.query_one(HandBoard)
        hand.shown = HandShown(every.hands[0], NOTE)
        await pilot.pause()
        assert NOTE not in text_of(hand)
        hand.shown = HandShown(None, NOTE)
        await pilot.pause()
        shown = text_of(hand)
        assert shown.replace("╭", "").replace("╰", "").strip("─│╮╯ ") == NOTE or NOTE in shown
        for other in every.hands:
            for card in other.cards:
                assert card.name not in shown


async def test_each_board_draws_once_for_each_new_value(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A board changes in one way, its one reactive: a new value draws it
    once (not once for each of its parts), an equal one not at all."""
    games = points_of(catalog, "freezer")
    first, later = seat_view(next(games), 0), seat_view(next(games), 0)
    app = Boards()
    async with app.run_test(size=(100, 70)) as pilot:
        app.show(first)
        await pilot.pause()
        drawn: Counter[str] = Counter()
        for board in app.query(Board):

            def counted(focused: bool | None = None, board: Board = board) -> None:
                drawn[board.id or ""] += 1
                Board.redraw(board, focused)

            monkeypatch.setattr(board, "redraw", counted)
        app.show(first)
        assert drawn == Counter()
        app.show(later)
        assert drawn and set(drawn.values()) == {1}, drawn
        # A new hand that lost the card selected for a Combo: the selection
        # follows the hand in the same drawing.
        hand = app.query_one(HandBoard)
        shown = hand.shown.hand
        assert shown is not None and len(shown.cards) > 1
        hand.selected = frozenset({shown.cards[0].uid})
        drawn.clear()
        hand.shown = HandShown(dataclasses.replace(shown, cards=shown.cards[1:]))
        assert drawn == Counter({"hand": 1}) and hand.selected == frozenset()


async def test_an_equal_panel_draws_nothing(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = next(points_of(catalog, "freezer"))
    app = Boards()
    async with app.run_test(size=(100, 70)) as pilot:
        board = app.query_one(VillainBoard)
        board.panel = seat_view(game, 0).villain
        await pilot.pause()
        drawn: list[VillainPanel | None] = []

        def picture(width: int, items: Items) -> Text:
            drawn.append(board.panel)
            return Text()

        monkeypatch.setattr(board, "picture", picture)
        board.panel = seat_view(game, 0).villain  # a new value, equal to the one shown
        assert drawn == []
        shown = board.panel
        assert shown is not None
        changed = dataclasses.replace(shown, deck=shown.deck - 1)
        board.panel = changed
        assert drawn and drawn[-1] == changed


async def test_clicking_or_entering_a_card_chooses_it(catalog: Catalog) -> None:
    # Freezer's Guard is in play from his first activation.
    game = next(g for g in points_of(catalog, "freezer") if g.state.villain.minions)
    view = seat_view(game, 0)
    app = Boards()
    async with app.run_test(size=(100, 70)) as pilot:
        app.show(view)
        await pilot.pause()

        [hand] = view.hands
        card = hand.cards[0]
        x, y = where_is(app.query_one(HandBoard), f"[1 {card.name}")
        assert await pilot.click(HandBoard, offset=(x + 4, y))
        await pilot.pause()
        assert [(c.uid, c.where) for c in app.chosen] == [(card.uid, "hand")]

        offered = view.markets[0].row[0]
        x, y = where_is(app.query_one(MarketRows), offered.card.name)
        assert await pilot.click(MarketRows, offset=(x, y))
        await pilot.pause()
        assert (app.chosen[-1].uid, app.chosen[-1].where) == (offered.card.uid, "market:allies")

        minion = view.villain.minions[0]
        x, y = where_is(app.query_one(VillainBoard), minion.card.name)
        assert await pilot.click(VillainBoard, offset=(x, y))
        await pilot.pause()
        assert (app.chosen[-1].uid, app.chosen[-1].where) == (minion.card.uid, "villain")

        # Words that are no card choose nothing.
        before = len(app.chosen)
        x, y = where_is(app.query_one(VillainBoard), "Health")
        assert await pilot.click(VillainBoard, offset=(x, y))
        await pilot.pause()
        assert len(app.chosen) == before

        # The keys: focus the hand, move right, Enter chooses the second card.
        app.query_one(HandBoard).focus()
        await pilot.press("right", "enter")
        await pilot.pause()
        assert (app.chosen[-1].uid, app.chosen[-1].where) == (hand.cards[1].uid, "hand")
        assert app.focused_cards[-1].uid == hand.cards[1].uid
        # Down from the first market row lands on the second row's first card.
        app.query_one(MarketRows).focus()
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.chosen[-1].uid == view.markets[1].row[0].card.uid


def test_tiles_are_never_cut_across_lines() -> None:
    tiles = [Text(f"[Card number {i} {'x' * (i % 7)}]") for i in range(12)]
    for width in (30, 47, 80):
        picture = pack(tiles, width, lead=Text("Hand: "), indent=2)
        lines = picture.plain.split("\n")
        assert all(len(line) <= width for line in lines), (width, lines)
        for line in lines:
            assert line.count("[") == line.count("]"), line  # whole tiles only


def test_a_time_track_is_four_slots_on_one_line() -> None:
    cells = [Text("Super Explosive Wave 5E +2 boosters"), Text(""), Text("Kikoho 4E"), Text("")]
    for width in (40, 76, 150):
        line = track_line(cells, width)
        assert "\n" not in line.plain and line.cell_len <= width
        for slot in "1234":
            assert f"{slot} " in line.plain


def test_empty_time_slots_give_their_room_to_long_names() -> None:
    """On a narrow board (a Character's at 160 columns) two prepared
    Techniques keep their whole names when the other slots are empty; with
    every slot short, the four columns stay even."""
    cells = [Text("Ki Wave 2E"), Text("Kamehameha 3E"), Text(""), Text("")]
    line = track_line(cells, 55).plain
    assert "Ki Wave 2E" in line and "Kamehameha 3E" in line and "…" not in line
    even = track_line([Text("Kikoho"), Text(""), Text("Sokidan"), Text("")], 55).plain
    starts = [even.index(f"{slot} ") for slot in "1234"]
    assert len({b - a for a, b in itertools.pairwise(starts)}) == 1
    assert slot_widths([12, 13, 3, 3], 45) == [12, 13, 3, 3]
    assert slot_widths([30, 30, 30, 30], 45) == [12, 11, 11, 11]


async def test_unaffordable_tiles_are_dimmed_and_forbidden_ones_struck(catalog: Catalog) -> None:
    game = Game.new(catalog, Setup(characters=["vegeta-ss1"], villain="broly", seed=3))
    view = seat_view(game, 0)
    items = Items(None)
    styles = {}
    for market in view.markets:
        for offered in market.row:
            picture = MarketRows.tile(offered, market.market, "white", items, 0)
            styles[offered.card.uid] = {str(span.style) for span in picture.spans}
    forbidden = [o for m in view.markets for o in m.row if o.forbidden]
    short = [o for m in view.markets for o in m.row if not o.buyable and not o.forbidden]
    # Vegeta SS1 may not buy Allies; with no Energy, nothing is affordable.
    assert forbidden and short
    for offered in forbidden:
        assert any("strike" in s for s in styles[offered.card.uid]), offered.card.name
    for offered in short:
        assert any("dim" in s for s in styles[offered.card.uid]), offered.card.name
        assert not any("strike" in s for s in styles[offered.card.uid]), offered.card.name


async def test_ascii_mode_draws_only_ascii(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(glyphs, "ASCII", True)
    app = Boards()
    async with app.run_test(size=(120, 80)) as pilot:
        for game in points_of(catalog, "freezer"):
            app.show(seat_view(game, 0))
            await pilot.pause()
            for widget in app.query("*"):
                content = getattr(widget, "content", None)
                if isinstance(content, Text):
                    odd = {c for c in content.plain if ord(c) > 127}
                    assert not odd, (widget, odd)
                assert all(ord(c) < 128 for c in str(getattr(widget, "border_title", "") or ""))


def test_every_market_keeps_its_own_colour_at_16_colours() -> None:
    from rich.color import Color, ColorSystem

    standard = {
        market: Color.parse(colour).downgrade(ColorSystem.STANDARD).number
        for market, colour in glyphs.TILE_COLOURS.items()
    }
    assert len(set(standard.values())) == len(standard), standard
