"""One widget per board element. Widgets render the table; they never rule.

Each widget holds its panel of the seat's ``TableView`` (``dbdeck.engine.view``)
in a reactive and redraws in the reactive's watcher. A panel is a frozen value,
so setting an equal panel again draws nothing. No widget sees a ``Game``: every
number shown (health left and maximum, Armor, costs, whether a card can be
bought) was worked out by the engine when it built the view; the only other
source is the card catalog, for printed facts such as a Technique's Damage.

Every card drawn is touchable: a click on its name posts ``CardChosen`` with
the card's uid and where it lies, and the screen turns that into an action.
"""

from __future__ import annotations

import os
from typing import Any

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

from dbdeck.cards.catalog import Catalog
from dbdeck.cards.render import MARKET_COLOURS
from dbdeck.engine.table_view import (
    BallView,
    CardView,
    CharacterPanel,
    HandView,
    Health,
    MarketCard,
    MarketPanel,
    TurnOrderPanel,
    UnitView,
    VillainPanel,
    market_of,
)

__all__ = [
    "ASCII",
    "CardChosen",
    "CharacterBoard",
    "HandBoard",
    "MarketRows",
    "TurnOrderBoard",
    "VillainBoard",
    "ball",
    "health_bar",
]

ASCII = bool(os.environ.get("DBDECK_ASCII"))
"""Draw with ASCII only (no block or star glyphs)."""

UNIT_BAR = 5
"""The width of the health bar of an Ally or a Minion: several share a line."""


def ball() -> str:
    """The Dragon Ball glyph."""
    return "o" if ASCII else "●"


def _star() -> str:
    return "*" if ASCII else "★"


def health_bar(health: Health, width: int) -> Text:
    """Health as the table reads it everywhere: a bar filled by the Health
    remaining, then ``remaining/maximum`` (a fresh Goku: ``██████████ 10/10``)."""
    maximum = max(health.maximum, 1)
    filled = max(0, min(width, round(width * health.remaining / maximum)))
    full, empty = ("#", "-") if ASCII else ("█", "░")
    text = Text()
    text.append(full * filled, style="green")
    text.append(empty * (width - filled), style="red")
    text.append(f" {health.remaining}/{health.maximum}")
    return text


class CardChosen(Message):
    """A card on the table was clicked: the screen decides what it means."""

    def __init__(self, uid: int, where: str) -> None:
        super().__init__()
        self.uid = uid
        """The card's instance uid, as actions name it."""
        self.where = where
        """Where the card lies: ``hand``, ``market:<market>``, ``villain`` or
        ``character:<id>``."""


def _card(card: CardView, where: str, style: str = "") -> Text:
    """A card's name carrying its uid, so that a click can say which card."""
    return Text(card.name, style=Style.parse(style) + Style(meta={"uid": card.uid, "where": where}))


class _Board(Static):
    """A widget drawn from a panel of the view, touchable card by card."""

    where = ""
    """What ``CardChosen`` says about where this widget's cards lie."""

    def _show(self, picture: RenderableType) -> None:
        """Draw ``picture``. The screen is laid out again only when the
        widget's height changes: a layout costs more than the rest of a
        redraw."""
        width = self.content_region.width
        if width <= 0 or not self.is_mounted:
            self.update(picture)
            return
        self.update(picture, layout=False)
        # Measured as Textual lays it out (it wraps a Text its own way).
        if self.get_content_height(self.size, self.app.size, width) != self.content_region.height:
            self.refresh(layout=True)

    def on_click(self, event: events.Click) -> None:
        """A click on a card's name chooses that card."""
        meta: dict[str, Any] = event.style.meta
        uid = meta.get("uid")
        if isinstance(uid, int) and uid >= 0:
            event.stop()
            self.post_message(CardChosen(uid, str(meta.get("where") or self.where)))


class VillainBoard(_Board):
    """The Villain board: health (or each enemy's), Armor, Damage Reduction,
    the Time Track, the Minions, Dragon Balls, the deck, tokens, side decks,
    Broly's aggro and the Location."""

    where = "villain"
    panel: reactive[VillainPanel | None] = reactive(None)
    """The Villain board of the view."""

    def watch_panel(self, panel: VillainPanel | None) -> None:
        """Redraw from a new panel."""
        self._show(Text() if panel is None else self.draw(panel))

    def draw(self, v: VillainPanel) -> RenderableType:
        """The board's picture."""
        title = Text()
        title.append(v.name, style="bold red")
        title.append(
            f"  Level {v.level}  Phase {v.phase}  ({v.difficulty}"
            f"{', Extreme' if v.extreme else ''})"
        )
        if not v.arrived:
            title.append("  — not arrived yet", style="italic")
        lines: list[RenderableType] = [title]
        for enemy in v.enemies:
            line = Text(f"{enemy.name:<12} ")
            line.append_text(health_bar(enemy.health, 12))
            if enemy.defeated:
                line.append(" DEFEATED", style="bold")
            line.append(f"  Armor {enemy.armor}  DR {enemy.damage_reduction}")
            lines.append(line)
        if v.health is not None:
            line = Text("Health ")
            line.append_text(health_bar(v.health, 20))
            line.append(f"   Armor {v.armor}   Damage Reduction {v.damage_reduction}")
            lines.append(line)
        lines.append(self._time_track(v))
        lines.append(self._minions(v))
        lines.append(self._extra(v))
        return Group(*lines)

    def _time_track(self, v: VillainPanel) -> Text:
        track = Text("Time Track  ")
        for slot, attacks in enumerate(v.time_track, 1):
            track.append(f"[{slot}] ")
            if not attacks:
                track.append("·")
            for i, attack in enumerate(attacks):
                if i:
                    track.append(", ")
                track.append_text(_card(attack, self.where))
            track.append("  ")
        return track

    def _minions(self, v: VillainPanel) -> Text:
        minions = Text("Minions     ")
        if not v.minions:
            minions.append("none")
        for minion in v.minions:
            minions.append_text(_card(minion.card, self.where, "bold"))
            minions.append(" ")
            minions.append_text(health_bar(minion.health, UNIT_BAR))
            keywords = ",".join(k.capitalize() for k in minion.keywords)
            minions.append(
                f" A{minion.armor}"
                + (f" {keywords}" if keywords else "")
                + (" exhausted" if minion.exhausted else "")
                + (f" {ball()}{minion.balls}" if minion.balls else "")
                + "   "
            )
        return minions

    def _extra(self, v: VillainPanel) -> Text:
        extra = Text(f"Dragon Balls {ball()} {v.balls}   Deck {v.deck}   ")
        for counter, value in v.tokens:
            extra.append(f"{counter} {value}   ")
        for pile in v.side_decks:
            if pile.cards:
                # Cards laid face up on a tracker card (Raditz's Kidnapped Victim).
                extra.append(f"{pile.name}: ")
                for i, card in enumerate(pile.cards):
                    if i:
                        extra.append(", ")
                    extra.append_text(_card(card, self.where))
                extra.append("   ")
            elif pile.tracker:
                extra.append(f"{pile.name}: none   ")
            else:
                extra.append(f"{pile.name} deck {pile.count}   ")
        if v.aggro:
            extra.append(f"Aggro: {v.aggro}   ")
        if v.location:
            extra.append(f"Location: {v.location}", style="italic")
        return extra


class TurnOrderBoard(_Board):
    """The round, the turn-order deck and the seven Dragon Balls."""

    order: reactive[TurnOrderPanel | None] = reactive(None)
    """The round and the turn-order deck."""
    balls: reactive[tuple[BallView, ...]] = reactive(())
    """The seven Dragon Balls and who holds each."""

    def watch_order(self) -> None:
        """Redraw from a new turn-order panel."""
        self._show(self.draw(self.order, self.balls))

    def watch_balls(self) -> None:
        """Redraw from new Dragon Balls."""
        self._show(self.draw(self.order, self.balls))

    @staticmethod
    def draw(order: TurnOrderPanel | None, balls: tuple[BallView, ...]) -> Text:
        """The board's picture."""
        text = Text()
        if order is not None:
            text.append(f"Round {order.round}", style="bold")
            text.append(f"   turn-order cards left {order.left}")
            if order.revealed:
                text.append("   revealed: ")
                for i, card in enumerate(order.revealed):
                    last = i == len(order.revealed) - 1
                    if i:
                        text.append(", ")
                    text.append(card, style="bold reverse" if last else "")
        if balls:
            if order is not None:
                text.append("\n")
            text.append("Dragon Balls: ")
            for held in balls:
                text.append(f"{held.star}{_star()} {held.name}  ")
        return text


class MarketRows(_Board):
    """The five market rows and the sixth pile, with each card's price for
    the active Character."""

    markets: reactive[tuple[MarketPanel, ...]] = reactive(())
    """The six markets, in the order the table shows them."""

    def watch_markets(self, markets: tuple[MarketPanel, ...]) -> None:
        """Redraw from new markets."""
        self._show(self.draw(markets))

    @staticmethod
    def draw(markets: tuple[MarketPanel, ...]) -> RenderableType:
        """The rows' picture."""
        lines: list[RenderableType] = []
        for market in markets:
            colour = MARKET_COLOURS.get(market.market, "white")
            line = Text(f"{market.title} ", style=f"bold {colour}")
            line.append(f"({market.deck} left)  ", style="dim")
            for i, offered in enumerate(market.row):
                if i:
                    line.append(" | ", style="dim")
                line.append_text(MarketRows._chip(offered, market.market, colour))
            lines.append(line)
        return Group(*lines)

    @staticmethod
    def _chip(offered: MarketCard, market: str, colour: str) -> Text:
        # Struck through: the active Character may never buy it (whether the
        # Energy suffices now reads from the hand panel's Energy).
        style = "dim strike" if offered.forbidden else colour
        chip = _card(offered.card, f"market:{market}", style)
        if offered.cost is None:
            price = "-"
        elif offered.pay_with == "dragon-balls":
            price = f"{offered.cost}{ball()}"
        else:
            price = str(offered.cost)
        chip.append(f"{'*' if offered.exclusive else ''} ({price})", style=style)
        if offered.damage:  # the Androids 17 and 18 attack the Allies of the market
            chip.append(f" {offered.damage} dmg", style="bold red")
        return chip


class CharacterBoard(_Board):
    """One Character board: health, Armor, Damage Reduction, Dragon Balls, the
    Time Track, the cards in play beside it, its piles and its ability."""

    panel: reactive[CharacterPanel | None] = reactive(None)
    """This Character's board of the view."""

    def __init__(self, character: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.character = character
        """The Character id this board shows."""
        self.where = f"character:{character}"

    def watch_panel(self, panel: CharacterPanel | None) -> None:
        """Redraw from a new panel."""
        self._show(Text() if panel is None else self.draw(panel))

    def draw(self, ch: CharacterPanel) -> RenderableType:
        """The board's picture."""
        title = Text()
        title.append(f"#{ch.order} ", style="bold")
        title.append(ch.name, style="bold reverse" if ch.active else "bold")
        title.append(f"  {ch.race.capitalize()} L{ch.level}")
        if ch.defeated:
            title.append("  DEFEATED", style="bold red")
        elif ch.room_tokens >= 0:
            title.append(f"  in the Room of Spirit and Time ({ch.room_tokens})", style="italic")
        health = Text("HP ")
        health.append_text(health_bar(ch.health, 10))
        if ch.defeated:
            health.append(" DEFEATED", style="bold red")
        health.append(f"  Armor {ch.armor}")
        if ch.damage_reduction:
            health.append(f"  DR {ch.damage_reduction}")
        if ch.balls:
            health.append(f"  {ball()}{ch.balls}")
        track = Text("Time ")
        for slot, prepared in enumerate(ch.time_track, 1):
            track.append(f"[{slot}] ")
            if prepared is None:
                track.append("·")
            else:
                track.append_text(_card(prepared.card, self.where))
                if prepared.boosters:
                    track.append(f"+{len(prepared.boosters)}")
            track.append("  ")
        lines: list[RenderableType] = [title, health, track]
        for label, units, limit in (
            ("Allies", ch.allies, ch.ally_limit),
            ("Equipment", ch.equipment, ch.equipment_limit),
            ("Training", ch.training, ch.training_limit),
        ):
            lines.append(self._units(label, units, limit))
        footer = Text(f"Deck {ch.deck}  Discard {ch.discard}  Hand {ch.hand}")
        if ch.ability and ch.ability_tokens is not None:
            footer.append(f"  {ch.ability}: {ch.ability_tokens} token(s)")
        lines.append(footer)
        return Group(*lines)

    def _units(self, label: str, units: tuple[UnitView, ...], limit: int) -> Text:
        row = Text(f"{label} {len(units)}/{limit}: ")
        for unit in units:
            row.append_text(_card(unit.card, self.where, "dim" if unit.exhausted else ""))
            if unit.health is not None:
                row.append(" ")
                row.append_text(health_bar(unit.health, UNIT_BAR))
            if unit.balls:
                row.append(f" {ball()}{unit.balls}")
            row.append("  ")
        return row


class HandBoard(_Board):
    """A hand, its cards numbered and coloured by market, and the Energy
    available this turn; or, while the hand is not to be shown, a note."""

    where = "hand"
    hand: reactive[HandView | None] = reactive(None)
    """The hand shown; ``None`` shows ``note`` instead."""
    note: reactive[str] = reactive("")
    """What to say while no hand is shown (``Bob's hand is hidden until Bob
    takes the keyboard.``)."""

    def __init__(self, catalog: Catalog, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.catalog = catalog
        """For the printed facts of a card: a Technique's Damage and Time, an
        Energy card's value."""

    def watch_hand(self) -> None:
        """Redraw from a new hand."""
        self._show(self.draw(self.hand, self.note))

    def watch_note(self) -> None:
        """Redraw with a new note."""
        self._show(self.draw(self.hand, self.note))

    def draw(self, hand: HandView | None, note: str) -> Text:
        """The hand's picture."""
        if hand is None:
            return Text(note, style="italic")
        text = Text()
        text.append(f"{hand.name}'s hand", style="bold")
        text.append(
            f"   Energy {hand.energy}"
            + (f" (+{hand.training_energy} for Training)" if hand.training_energy else "")
        )
        text.append("\n")
        for i, card in enumerate(hand.cards, 1):
            printed = self.catalog.cards.get(card.card)
            kind = str(getattr(printed, "kind", ""))
            text.append(f"{i}. ", style="bold")
            text.append_text(_card(card, self.where, MARKET_COLOURS[market_of(kind)]))
            if kind == "technique":
                form = "E" if getattr(printed, "technique_type", "") == "energy" else "P"
                damage, time = getattr(printed, "damage", 0), getattr(printed, "time", 0)
                text.append(f" [{form} {damage}" + (f" T{time}" if time else "") + "]")
            elif kind in ("energy", "concentrated-energy"):
                text.append(f" [{getattr(printed, 'value', 0)}]")
            text.append("  ")
        return text
