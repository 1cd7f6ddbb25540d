"""The Villain board: health, Armor, Damage Reduction, the Time Track, the
Minions, the Dragon Balls, the Villain's trackers and the Location."""

from __future__ import annotations

import textwrap

from rich.console import RenderableType
from rich.text import Text
from textual.reactive import reactive

from dbdeck.games.deckbuilding.engine.panels import MinionView, VillainPanel
from dbdeck.games.deckbuilding.tui.widgets.board import Board, Items
from dbdeck.games.deckbuilding.tui.widgets.glyphs import (
    ball,
    card_text,
    fit,
    health_bar,
    pack,
    sep,
    styled,
)
from dbdeck.games.deckbuilding.tui.widgets.time_track import track_line, villain_cells

__all__ = ["VillainBoard"]

WIDE_BOARD = 90
"""Cells from which the board also prints the Location's text."""


class VillainBoard(Board):
    """The Villain board. Its title names the Villain, level, phase and
    difficulty; the cursor visits the prepared attacks and the Minions."""

    where = "villain"
    panel: reactive[VillainPanel | None] = reactive(None)
    """The Villain board of the view."""

    def watch_panel(self, panel: VillainPanel | None) -> None:
        """Redraw from a new panel."""
        if panel is not None:
            self.border_title = Text(self.title_of(panel))
            self.border_subtitle = f"deck {panel.deck} {sep()} discard {panel.discard}"
        self.redraw()

    @staticmethod
    def title_of(v: VillainPanel) -> str:
        """The board's title: ``Freezer · Level 1 · Phase 2 · Medium``."""
        parts = [v.name, f"Level {v.level}", f"Phase {v.phase}", v.difficulty.capitalize()]
        if v.extreme:
            parts.append("Extreme")
        if not v.arrived:
            parts.append("not arrived yet")
        return f" {f' {sep()} '.join(parts)} "

    def picture(self, width: int, items: Items) -> RenderableType:
        """The board's picture."""
        v = self.panel
        if v is None:
            return Text()
        lines: list[Text] = []
        gauge = max(8, min(24, width // 4))
        if v.health is not None:
            line = styled("Health ", "dim")
            line.append_text(health_bar(v.health, gauge))
            line.append_text(self._defence(v.armor, v.damage_reduction, v.balls))
            lines.append(fit(line, width))
        for enemy in v.enemies:
            line = styled(f"{enemy.name} ", "bold")
            line.append_text(health_bar(enemy.health, max(6, gauge - 6)))
            if enemy.defeated:
                line.append(" DEFEATED", style="bold red")
            line.append_text(self._defence(enemy.armor, enemy.damage_reduction, enemy.balls))
            lines.append(fit(line, width))
        if not v.enemies and v.health is None:
            lines.append(styled("Health unknown", "dim"))
        lines.append(track_line(villain_cells(v.time_track, items, self.where), width))
        minions = [self._minion(m, items) for m in v.minions]
        lead = styled("Minions ", "dim")
        if minions and not v.arrived:
            # They come with the Villain: nothing of them can be attacked yet.
            lead = styled(f"Minions, arriving with {v.name}: ", "dim")
            for tile in minions:
                tile.stylize("dim")
        if minions:
            lines.append(pack(minions, width, lead=lead, indent=8))
        else:
            lead.append("none", style="dim")
            lines.append(lead)
        extra = self._trackers(v, items, width)
        if extra.plain:
            lines.append(extra)
        if v.location_text and width >= WIDE_BOARD:
            # What the Location does, where the board has room; narrower,
            # the inspector (i) reads it.
            lines += [styled(row, "italic dim") for row in textwrap.wrap(v.location_text, width)]
        return Text("\n").join(lines)

    @staticmethod
    def _defence(armor: int, reduction: int, balls: int) -> Text:
        text = Text(f"  Armor {armor}  DR {reduction}")
        if balls:
            text.append(f"  {ball()} {balls}", style="bold yellow")
        return text

    def _minion(self, minion: MinionView, items: Items) -> Text:
        tile = Text("[")
        tile.append_text(card_text(minion.card, self.where, "bold"))
        tile.append(f" {minion.health.remaining}/{minion.health.maximum}")
        tile.append(f" A{minion.armor}")
        for keyword in minion.keywords:
            tile.append(f" {keyword.capitalize()}", style="italic")
        if minion.balls:
            tile.append(f" {ball()}{minion.balls}", style="bold yellow")
        if minion.exhausted:
            tile.append(" exhausted", style="dim")
            tile.stylize("dim")
        tile.append("]")
        return items.add(tile, minion.card.uid, self.where, row=2)

    def _trackers(self, v: VillainPanel, items: Items, width: int) -> Text:
        parts: list[Text] = []
        for counter, value in v.tokens:
            parts.append(Text(f"{counter} {value}"))
        for pile in v.side_decks:
            if pile.cards:
                # Cards laid face up on a tracker card (Raditz's Kidnapped Victim).
                part = Text(f"{pile.name}: ")
                for i, card in enumerate(pile.cards):
                    if i:
                        part.append(", ")
                    part.append_text(
                        items.add(card_text(card, self.where), card.uid, self.where, 3)
                    )
                parts.append(part)
            elif pile.tracker:
                parts.append(Text(f"{pile.name}: none"))
            else:
                parts.append(Text(f"{pile.name} deck {pile.count}"))
        if v.aggro:
            parts.append(styled(f"Aggro: {v.aggro}", "bold"))
        if v.location:
            parts.append(styled(f"Location: {v.location}", "italic"))
        separated: list[Text] = []
        for i, part in enumerate(parts):
            if i < len(parts) - 1:
                part.append(f" {sep()}")
            separated.append(part)
        return pack(separated, width) if separated else Text()
