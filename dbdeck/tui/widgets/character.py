"""A Character board: health, Armor, Damage Reduction and Dragon Balls, its
Time Track, the Allies, Equipment and Training beside it (with their
limits), its piles and ability, and its states (defeated, in the Room)."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual.reactive import reactive

from dbdeck.cards.catalog import Catalog
from dbdeck.engine.table_view import CharacterPanel, UnitView
from dbdeck.tui.widgets.board import Board, Items
from dbdeck.tui.widgets.glyphs import (
    TILE_COLOURS,
    ball,
    card_text,
    fit,
    health_bar,
    pack,
    sep,
    styled,
)
from dbdeck.tui.widgets.time_track import prepared_cells, track_line

__all__ = ["CharacterBoard"]

UNIT_ROWS = (
    ("Allies", "allies", "ally_limit", "allies"),
    ("Equipment", "equipment", "equipment_limit", "equipment"),
    ("Training", "training", "training_limit", "training"),
)
"""The cards in play beside a board: label, panel field, limit field, market."""


class CharacterBoard(Board):
    """One Character board. Its title names the Character, its player, race
    and level; the cursor visits the prepared Techniques and the cards in
    play."""

    panel: reactive[CharacterPanel | None] = reactive(None)
    """This Character's board of the view."""
    player: reactive[str] = reactive("")
    """The name of the Character's player, for the title."""
    aggro: reactive[bool] = reactive(False)
    """Whether this Character holds the Villain's aggro (Broly)."""
    away: reactive[bool] = reactive(False)
    """A shared table: whether this Character's player has left (the seat
    is held)."""

    def __init__(self, character: str, catalog: Catalog, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.character = character
        """The Character id this board shows."""
        self.catalog = catalog
        self.where = f"character:{character}"

    def watch_panel(self, panel: CharacterPanel | None) -> None:
        """Redraw from a new panel."""
        self._titles()
        self.redraw()

    def watch_player(self) -> None:
        """A new player name in the title."""
        self._titles()

    def watch_away(self) -> None:
        """The player left or came back: the title and the board say so."""
        self._titles()
        self.redraw()

    def show(self, panel: CharacterPanel, player: str, aggro: bool, *, away: bool = False) -> None:
        """A new panel, player, aggro and absence, drawn once (not once each)."""
        if (panel, player, aggro, away) == (self.panel, self.player, self.aggro, self.away):
            return
        self.set_reactive(CharacterBoard.panel, panel)
        self.set_reactive(CharacterBoard.player, player)
        self.set_reactive(CharacterBoard.aggro, aggro)
        self.set_reactive(CharacterBoard.away, away)
        self._titles()
        self.redraw()

    def _titles(self) -> None:
        ch = self.panel
        if ch is None:
            return
        parts = [f"#{ch.order} {ch.name}"]
        if self.player:
            parts[0] += f" ({self.player})"
        parts.append(f"{ch.race.capitalize()} L{ch.level}")
        if ch.active:
            parts.append("PLAYING, player AWAY" if self.away else "PLAYING")
        elif self.away:
            parts.append("player AWAY")
        self.border_title = Text(f" {f' {sep()} '.join(parts)} ")
        self.set_class(ch.active, "-active")
        self.set_class(ch.defeated, "-defeated")
        self.set_class(self.away, "-away")

    def picture(self, width: int, items: Items) -> RenderableType:
        """The board's picture."""
        ch = self.panel
        if ch is None:
            return Text()
        gauge = max(6, min(12, width // 6))
        # First on the line, where no width cuts it.
        line = styled("AWAY ", "bold yellow") if self.away else Text()
        line.append("Health ", style="dim")
        line.append_text(health_bar(ch.health, gauge))
        line.append(f"  Armor {ch.armor}  DR {ch.damage_reduction}")
        if ch.balls:
            line.append(f"  {ball()} {ch.balls}", style="bold yellow")
        if ch.defeated:
            line.append("  DEFEATED", style="bold red")
        elif ch.room_tokens >= 0:
            line.append(f"  in the Room of Spirit and Time ({ch.room_tokens}/4)", style="italic")
        if self.aggro:
            line.append("  Aggro", style="bold red")

        lines = [fit(line, width)]
        cells = prepared_cells(ch.time_track, self.catalog, items, self.where)
        lines.append(track_line(cells, width))
        units: list[Text] = []
        for label, field, limit_field, market in UNIT_ROWS:
            held: tuple[UnitView, ...] = getattr(ch, field)
            lead = styled(f"{label} {len(held)}/{getattr(ch, limit_field)}", "dim")
            units.append(lead)
            units += [self._unit(u, market, items) for u in held]
        lines.append(pack(units, width))
        piles = Text(
            f"Deck {ch.deck} {sep()} Discard {ch.discard} {sep()} Hand {ch.hand}", style="dim"
        )
        if ch.ability and ch.ability_tokens is not None:
            tokens = "1 token" if ch.ability_tokens == 1 else f"{ch.ability_tokens} tokens"
            piles.append(f" {sep()} {ch.ability}: {tokens}")
        elif ch.ability:
            piles.append(f" {sep()} {ch.ability}")
        lines.append(fit(piles, width))
        return Text("\n").join(lines)

    def _unit(self, unit: UnitView, market: str, items: Items) -> Text:
        colour = TILE_COLOURS.get(market, "white")
        tile = Text("[")
        tile.append_text(card_text(unit.card, self.where, colour))
        if unit.health is not None:
            tile.append(f" {unit.health.remaining}/{unit.health.maximum}")
        if unit.balls:
            tile.append(f" {ball()}{unit.balls}", style="bold yellow")
        for token, count in unit.tokens:
            tile.append(f" {token} {count}")
        if unit.exhausted:
            tile.append(" exhausted")
            tile.stylize("dim")
        tile.append("]")
        return items.add(tile, unit.card.uid, self.where, row=2)
