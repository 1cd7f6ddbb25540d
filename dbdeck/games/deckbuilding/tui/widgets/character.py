"""A Character board: health, Armor, Damage Reduction and Dragon Balls, its
Time Track, the Allies, Equipment and Training beside it (with their
limits), its piles and ability, and its states (defeated, in the Room)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual.reactive import reactive

from dbdeck.games.deckbuilding.engine.panels import CharacterPanel, UnitView
from dbdeck.games.deckbuilding.tui.widgets.board import Board, Items
from dbdeck.games.deckbuilding.tui.widgets.glyphs import (
    TILE_COLOURS,
    ball,
    card_text,
    fit,
    health_bar,
    pack,
    sep,
    styled,
)
from dbdeck.games.deckbuilding.tui.widgets.time_track import prepared_cells, track_line

__all__ = ["CharacterBoard", "CharacterShown"]


@dataclass(frozen=True, slots=True)
class CharacterShown:
    """What a Character board shows: its panel of the view, and what the
    table knows of its player."""

    panel: CharacterPanel
    """This Character's board of the view."""
    player: str = ""
    """The name of the Character's player, for the title."""
    aggro: bool = False
    """Whether this Character holds the Villain's aggro (Broly)."""
    away: bool = False
    """A shared table: whether this Character's player has left (the seat
    is held)."""


class CharacterBoard(Board):
    """One Character board. Its title names the Character, its player, race
    and level; the cursor visits the prepared Techniques and the cards in
    play."""

    shown: reactive[CharacterShown | None] = reactive(None)
    """The board shown, with its player."""

    def __init__(self, character: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.character = character
        """The Character id this board shows."""
        self.where = f"character:{character}"

    @property
    def panel(self) -> CharacterPanel | None:
        """This Character's board of the view, once shown."""
        return self.shown.panel if self.shown is not None else None

    def watch_shown(self) -> None:
        """Redraw from a new board, player or absence."""
        self._titles()
        self.redraw()

    def _titles(self) -> None:
        shown = self.shown
        if shown is None:
            return
        ch = shown.panel
        parts = [f"#{ch.order} {ch.name}"]
        if shown.player:
            parts[0] += f" ({shown.player})"
        parts.append(f"{ch.race.capitalize()} L{ch.level}")
        if ch.active:
            parts.append("PLAYING, player AWAY" if shown.away else "PLAYING")
        elif shown.away:
            parts.append("player AWAY")
        self.border_title = Text(f" {f' {sep()} '.join(parts)} ")
        self.set_class(ch.active, "-active")
        self.set_class(ch.defeated, "-defeated")
        self.set_class(shown.away, "-away")

    def picture(self, width: int, items: Items) -> RenderableType:
        """The board's picture."""
        shown = self.shown
        if shown is None:
            return Text()
        ch = shown.panel
        gauge = max(6, min(12, width // 6))
        # First on the line, where no width cuts it.
        line = styled("AWAY ", "bold yellow") if shown.away else Text()
        line.append("Health ", style="dim")
        line.append_text(health_bar(ch.health, gauge))
        line.append(f"  Armor {ch.armor}  DR {ch.damage_reduction}")
        if ch.balls:
            line.append(f"  {ball()} {ch.balls}", style="bold yellow")
        if ch.defeated:
            line.append("  DEFEATED", style="bold red")
        elif ch.room_tokens >= 0:
            line.append(f"  in the Room of Spirit and Time ({ch.room_tokens}/4)", style="italic")
        if shown.aggro:
            line.append("  Aggro", style="bold red")

        lines = [fit(line, width)]
        cells = prepared_cells(ch.time_track, items, self.where)
        lines.append(track_line(cells, width))
        units: list[Text] = []
        # The cards in play beside the board, each row with its limit.
        rows: tuple[tuple[str, tuple[UnitView, ...], int, str], ...] = (
            ("Allies", ch.allies, ch.ally_limit, "allies"),
            ("Equipment", ch.equipment, ch.equipment_limit, "equipment"),
            ("Training", ch.training, ch.training_limit, "training"),
        )
        for label, held, limit, market in rows:
            units.append(styled(f"{label} {len(held)}/{limit}", "dim"))
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
