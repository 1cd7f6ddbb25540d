"""The board widgets draw their panel of a seat's view and nothing else.

Every Villain is played by the greedy bot; at several points of each game the
panels of ``seat_view(game, 0)`` are set on mounted widgets, and what the
widgets show is read back off the screen: health as remaining/maximum with
its bar, every card of the hand and the markets, the note of a hidden hand,
and a click on a card's name posting ``CardChosen``.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Iterator

import pytest
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widget import Widget

from dbdeck import bots
from dbdeck.cards.catalog import Catalog
from dbdeck.engine.game import Game, Setup
from dbdeck.engine.table_view import Health, TableView, VillainPanel
from dbdeck.engine.view import seat_view
from dbdeck.tui.widgets import (
    CardChosen,
    CharacterBoard,
    HandBoard,
    MarketRows,
    TurnOrderBoard,
    VillainBoard,
    ball,
    health_bar,
)

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

    def __init__(self, catalog: Catalog) -> None:
        super().__init__()
        self.catalog = catalog
        self.chosen: list[CardChosen] = []

    def compose(self) -> ComposeResult:
        yield VillainBoard(id="villain")
        yield TurnOrderBoard(id="turn-order")
        yield MarketRows(id="market-rows")
        for character in CHARACTERS:
            yield CharacterBoard(character, id=f"char-{character}")
        yield HandBoard(self.catalog, id="hand")

    def show(self, view: TableView) -> None:
        """Give every board its panel, as the table screen does."""
        self.query_one(VillainBoard).panel = view.villain
        order = self.query_one(TurnOrderBoard)
        order.order = view.turn_order
        order.balls = view.balls
        self.query_one(MarketRows).markets = view.markets
        for panel in view.characters:
            self.query_one(f"#char-{panel.id}", CharacterBoard).panel = panel
        self.query_one(HandBoard).hand = view.hands[0] if view.hands else None

    def on_card_chosen(self, message: CardChosen) -> None:
        self.chosen.append(message)


def lines_of(widget: Widget) -> list[str]:
    """What a widget shows, line by line."""
    width, height = widget.size
    return [strip.text for strip in widget.render_lines(Region(0, 0, width, height))]


def text_of(widget: Widget) -> str:
    """What a widget shows, as one line with single spaces (a name wrapped
    over two lines reads whole)."""
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


def bars_agree(text: str, width: int) -> None:
    """Each bar of ``width`` cells is filled by the Health remaining."""
    bars = re.findall(rf"([█░]{{{width}}}) (\d+)/(\d+)", text)
    assert bars, text
    for bar, remaining, maximum in bars:
        assert bar.count("█") == round(width * int(remaining) / max(int(maximum), 1)), bar


async def test_every_board_reads_its_panel_of_the_view(catalog: Catalog) -> None:
    app = Boards(catalog)
    async with app.run_test(size=(100, 70)) as pilot:
        for villain in catalog.villains():
            for game in points_of(catalog, villain.id):
                view = seat_view(game, 0)
                app.show(view)
                await pilot.pause()
                where = f"{villain.id} after {game.state.actions} actions"

                v = view.villain
                shown = text_of(app.query_one(VillainBoard))
                assert v.name in shown and f"Level {v.level}" in shown, where
                assert ("not arrived yet" in shown) == (not v.arrived), where
                if v.health is not None:
                    assert f"Health {health_bar(v.health, 20)}" in shown, where
                for enemy in v.enemies:
                    assert f"{enemy.name} {health_bar(enemy.health, 12)}" in shown, where
                    assert (f"{reads(enemy.health)} DEFEATED" in shown) == enemy.defeated, where
                for minion in v.minions:
                    assert f"{minion.card.name} {health_bar(minion.health, 5)}" in shown, where
                for slot in v.time_track:
                    for attack in slot:
                        assert attack.name in shown, where

                for panel in view.characters:
                    board = app.query_one(f"#char-{panel.id}", CharacterBoard)
                    shown = text_of(board)
                    assert f"HP {health_bar(panel.health, 10)}" in shown, where
                    bars_agree(shown, 10)
                    assert (f"{reads(panel.health)} DEFEATED" in shown) == panel.defeated
                    for ally in panel.allies:
                        assert ally.health is not None
                        assert f"{ally.card.name} {health_bar(ally.health, 5)}" in shown, where
                    assert f"Hand {panel.hand}" in shown, where

                shown = text_of(app.query_one(MarketRows))
                for market in view.markets:
                    assert f"{market.title} ({market.deck} left)" in shown, where
                    for offered in market.row:
                        assert f"{offered.card.name}" in shown, where
                        price = "-" if offered.cost is None else str(offered.cost)
                        if offered.pay_with == "dragon-balls" and offered.cost is not None:
                            price += ball()
                        assert (
                            f"{offered.card.name}{'*' if offered.exclusive else ''} ({price})"
                            in shown
                        ), where

                shown = text_of(app.query_one(TurnOrderBoard))
                assert f"Round {view.turn_order.round}" in shown, where
                for held in view.balls:
                    assert f"{held.star}★ {held.name}" in shown, where

                shown = text_of(app.query_one(HandBoard))
                [hand] = view.hands
                assert f"{hand.name}'s hand Energy {hand.energy}" in shown, where
                for number, card in enumerate(hand.cards, 1):
                    assert f"{number}. {card.name}" in shown, where


def test_health_reads_remaining_of_maximum() -> None:
    assert health_bar(Health(10, 10), 10).plain == "██████████ 10/10"
    assert health_bar(Health(0, 10), 10).plain == "░░░░░░░░░░ 0/10"
    assert health_bar(Health(7, 10), 10).plain == "███████░░░ 7/10"
    assert health_bar(Health(0, 0), 5).plain == "░░░░░ 0/0"


async def test_a_defeated_character_reads_defeated(catalog: Catalog) -> None:
    game = Game.new(catalog, Setup(characters=list(CHARACTERS), villain="freezer", seed=7))
    goku = seat_view(game, 0).character("goku")
    assert goku is not None
    app = Boards(catalog)
    async with app.run_test(size=(100, 70)) as pilot:
        board = app.query_one("#char-goku", CharacterBoard)
        board.panel = goku
        await pilot.pause()
        assert "HP ██████████ 10/10 " in text_of(board)
        board.panel = dataclasses.replace(goku, defeated=True, health=Health(0, 10))
        await pilot.pause()
        assert "HP ░░░░░░░░░░ 0/10 DEFEATED" in text_of(board)


async def test_a_hidden_hand_shows_the_note_and_no_card(catalog: Catalog) -> None:
    game = next(points_of(catalog, "freezer"))
    every = seat_view(game, 0, every_hand=True)
    app = Boards(catalog)
    async with app.run_test(size=(100, 70)) as pilot:
        hand = app.query_one(HandBoard)
        hand.hand = every.hands[0]
        hand.note = NOTE
        await pilot.pause()
        assert NOTE not in text_of(hand)
        hand.hand = None
        await pilot.pause()
        shown = text_of(hand)
        assert shown == NOTE
        for other in every.hands:
            for card in other.cards:
                assert card.name not in shown


async def test_an_equal_panel_draws_nothing(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = next(points_of(catalog, "freezer"))
    app = Boards(catalog)
    async with app.run_test(size=(100, 70)) as pilot:
        board = app.query_one(VillainBoard)
        board.panel = seat_view(game, 0).villain
        await pilot.pause()
        drawn: list[VillainPanel] = []

        def draw(panel: VillainPanel) -> str:
            drawn.append(panel)
            return ""

        monkeypatch.setattr(board, "draw", draw)
        board.panel = seat_view(game, 0).villain  # a new value, equal to the one shown
        assert drawn == []
        shown = board.panel
        assert shown is not None
        changed = dataclasses.replace(shown, deck=shown.deck - 1)
        board.panel = changed
        assert drawn == [changed]


async def test_clicking_a_card_chooses_it(catalog: Catalog) -> None:
    # Freezer's Guard is in play from his first activation.
    game = next(g for g in points_of(catalog, "freezer") if g.state.villain.minions)
    view = seat_view(game, 0)
    app = Boards(catalog)
    async with app.run_test(size=(100, 70)) as pilot:
        app.show(view)
        await pilot.pause()

        [hand] = view.hands
        card = hand.cards[0]
        x, y = where_is(app.query_one(HandBoard), f"1. {card.name}")
        assert await pilot.click(HandBoard, offset=(x + 3, y))
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
        x, y = where_is(app.query_one(VillainBoard), "Time Track")
        assert await pilot.click(VillainBoard, offset=(x, y))
        await pilot.pause()
        assert len(app.chosen) == before
