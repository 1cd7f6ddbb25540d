"""The six purchase markets as rows of tiles, and the Dragon Ball purchase.

Each row is a market's face-up cards as tiles (name, cost for the active
Character, a mark for an exclusive card), then the cards left in its deck.
A tile the active Character cannot afford now is dimmed; one it may never
buy is struck through: a card exclusive to others is marked ``x``; a market
the Character's board forbids shows no prices, and its row says so in words
(``Vegeta SS1 cannot buy Allies``). The last row is the Dragon Ball
purchase, with its cost: a tile like the others, so that its reason shows
when it is focused.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import RenderableType
from rich.style import Style
from rich.text import Text
from textual.reactive import reactive

from dbdeck.games.deckbuilding.engine.panels import MarketCard, MarketPanel
from dbdeck.games.deckbuilding.tui.widgets.board import BUY_BALL, Board, Items
from dbdeck.games.deckbuilding.tui.widgets.glyphs import (
    TILE_COLOURS,
    ball,
    card_text,
    exclusive_mark,
    pack,
    styled,
)

__all__ = ["BallPurchase", "MarketRows", "MarketsShown"]

TITLE_WIDTH = 16
"""Cells of a row's title (``Techniques 61``): tiles line up after it."""

SHORT_TITLES = {"sixth": "Concentrated"}


@dataclass(frozen=True, slots=True)
class BallPurchase:
    """The Dragon Ball purchase of the active Character."""

    cost: int
    """The Energy it costs (the Character board's cost)."""
    possible: bool
    """Whether it can be bought now."""
    why_not: str
    """Why not, in the engine's words."""


@dataclass(frozen=True, slots=True)
class MarketsShown:
    """What the market rows show."""

    markets: tuple[MarketPanel, ...] = ()
    """The six markets, in the order the table shows them."""
    ball_purchase: BallPurchase | None = None
    """The Dragon Ball purchase of the active Character; ``None`` hides it."""


class MarketRows(Board):
    """The five market rows, the sixth pile and the Dragon Ball purchase."""

    shown: reactive[MarketsShown] = reactive(MarketsShown)
    """The markets and the Dragon Ball purchase shown."""

    def watch_shown(self) -> None:
        """Redraw from new markets or a new Dragon Ball purchase."""
        self.redraw()

    def picture(self, width: int, items: Items) -> RenderableType:
        """The rows' picture."""
        lines: list[Text] = []
        markets = self.shown.markets
        for row, market in enumerate(markets):
            colour = TILE_COLOURS.get(market.market, "white")
            title = SHORT_TITLES.get(market.market, market.title)
            lead = styled(f"{title} ", f"bold {colour}")
            lead.append(f"{market.deck}", style="dim")
            lead.pad_right(TITLE_WIDTH - lead.cell_len)
            tiles = [self.tile(o, market.market, colour, items, row) for o in market.row]
            if not tiles:
                tiles = [styled("(empty)", "dim")]
            if market.closed:
                tiles.append(styled(f"{market.closed}.", "italic"))
            lines.append(pack(tiles, width, lead=lead, indent=TITLE_WIDTH))
        buy = self.shown.ball_purchase
        if buy is not None:
            lead = styled("Dragon Ball", "bold yellow")
            lead.pad_right(TITLE_WIDTH - lead.cell_len)
            tile = Text(
                f"[Buy an unclaimed one {buy.cost}]",
                style=Style(meta={"uid": BUY_BALL, "where": "balls"}, dim=not buy.possible),
            )
            tile = items.add(tile, BUY_BALL, "balls", row=len(markets))
            lines.append(pack([tile], width, lead=lead, indent=TITLE_WIDTH))
        return Text("\n").join(lines)

    @staticmethod
    def tile(offered: MarketCard, market: str, colour: str, items: Items, row: int) -> Text:
        """One market card as a tile: ``[Sokidan 3]``; dimmed when the
        active Character cannot afford it, struck when it may never buy it."""
        where = f"market:{market}"
        tile = Text("[")
        tile.append_text(card_text(offered.card, where, colour))
        if offered.exclusive:
            tile.append(exclusive_mark(), style=colour)
        if offered.cost is None:
            pass  # no price at all for this Character: the row says why
        elif offered.pay_with == "dragon-balls":
            tile.append(f" {offered.cost}{ball()}")
        else:
            tile.append(f" {offered.cost}")
        if offered.forbidden and offered.cost is not None:
            tile.append(" x")
        if offered.damage:  # the Androids 17 and 18 attack the Allies of the market
            tile.append(f" -{offered.damage}", style="bold red")
        tile.append("]")
        if offered.forbidden:
            tile.stylize("strike dim")
        elif not offered.buyable:
            tile.stylize("dim")
        return items.add(tile, offered.card.uid, where, row)
