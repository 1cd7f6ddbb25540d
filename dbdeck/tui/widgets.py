"""One widget per board element. Widgets render the game; they never rule.

Each widget draws itself from the ``Game`` it is given in ``show`` and only
repaints when what it shows changed.
"""

from __future__ import annotations

import os
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text
from textual.widgets import Static

from dbdeck.cards.render import MARKET_COLOURS
from dbdeck.engine import combat, rules
from dbdeck.engine.game import Game

__all__ = [
    "ASCII",
    "CharacterBoard",
    "HandPanel",
    "MarketPanel",
    "TurnOrderPanel",
    "VillainBoard",
]

ASCII = bool(os.environ.get("DBDECK_ASCII"))
"""Draw with ASCII only (no block or star glyphs)."""

MARKET_NAMES = {
    "allies": "Allies",
    "techniques": "Techniques",
    "energy": "Energy",
    "equipment": "Equipment",
    "training": "Training",
    "sixth": "Concentrated Energy",
}
"""Market names as the table shows them."""


def bar(done: int, total: int, width: int = 12) -> Text:
    """A health bar: damage taken out of the total."""
    total = max(total, 1)
    filled = min(width, round(width * done / total))
    full, empty = ("#", "-") if ASCII else ("█", "░")
    text = Text()
    text.append(full * filled, style="red")
    text.append(empty * (width - filled), style="green")
    text.append(f" {done}/{total}")
    return text


def ball() -> str:
    """The Dragon Ball glyph."""
    return "o" if ASCII else "●"


class Board(Static):
    """A widget that repaints only when its signature changes."""

    DEFAULT_CSS = "Board { height: auto; }"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._signature: Any = None

    def show(self, game: Game) -> None:
        """Draw from the game, if what this widget shows changed. The screen
        is laid out again only when the widget's height changes: a layout
        costs more than everything else of a redraw."""
        signature = self.signature(game)
        if signature == self._signature:
            return
        self._signature = signature
        picture = self.draw(game)
        width = self.content_region.width
        if width <= 0 or not self.is_mounted:
            self.update(picture)
            return
        console = self.app.console
        height = len(console.render_lines(picture, console.options.update_width(width), pad=False))
        self.update(picture, layout=height != self.content_region.height)

    def signature(self, game: Game) -> Any:
        """What this widget depends on."""
        return game.state.actions, len(game.events)

    def draw(self, game: Game) -> RenderableType:
        """The widget's picture."""
        raise NotImplementedError


def _card_name(game: Game, uid: int) -> str:
    return str(game.card(uid).name)


def _units(units: Any) -> tuple[Any, ...]:
    return tuple((u.uid, u.damage, u.exhausted) for u in units)


class VillainBoard(Board):
    """The Villain: health, Armor, Time Track, Minions, Dragon Balls, trackers."""

    def signature(self, game: Game) -> Any:
        v = game.state.villain
        return (
            v.damage,
            v.phase,
            v.arrived,
            len(v.deck),
            v.aggro,
            v.armor_bonus,
            v.damage_reduction_bonus,
            tuple(sorted(v.tokens.items())),
            tuple((k, tuple(d)) for k, d in v.side_decks.items()),
            tuple(sorted(v.enemy_damage.items())),
            tuple(v.defeated_enemies),
            tuple(tuple(p.uid for p in slot) for slot in v.time_track),
            _units(v.minions),
            tuple(game.state.balls),
        )

    def draw(self, game: Game) -> RenderableType:
        s = game.state
        v = s.villain
        board = game.card(s.villain_id)
        title = Text()
        title.append(board.name, style="bold red")
        title.append(
            f"  Level {board.level}  Phase {v.phase}  ({s.difficulty}"
            f"{', Extreme' if s.extreme else ''})"
        )
        if not v.arrived:
            title.append("  — not arrived yet", style="italic")
        lines: list[RenderableType] = [title]
        if board.enemies:
            for enemy in board.enemies:
                key = f"e:{enemy}"
                line = Text(f"{game.name(key):<12} ")
                line.append_text(bar(rules.damage_of(game, key), rules.max_health(game, key)))
                line.append(
                    f"  Armor {rules.armor(game, key)}  DR {rules.damage_reduction(game, key)}"
                )
                if enemy in v.defeated_enemies:
                    line.append("  DEFEATED", style="bold")
                lines.append(line)
        else:
            line = Text("Health ")
            line.append_text(bar(v.damage, rules.max_health(game, "v"), 20))
            line.append(
                f"   Armor {rules.armor(game, 'v')}   Damage Reduction "
                f"{rules.damage_reduction(game, 'v')}"
            )
            lines.append(line)
        track = Text("Time Track  ")
        for slot, attacks in enumerate(v.time_track, 1):
            names = ", ".join(_card_name(game, p.uid) for p in attacks) or "·"
            track.append(f"[{slot}] {names}  ")
        lines.append(track)
        minions = Text("Minions     ")
        if not v.minions:
            minions.append("none")
        for unit in v.minions:
            card = game.card(unit.uid)
            key = f"m:{unit.uid}"
            minions.append(card.name, style="bold")
            keywords = ",".join(k.capitalize() for k in card.keywords)
            minions.append(
                f" {rules.remaining(game, key)}/{card.health}hp A{card.armor}"
                + (f" {keywords}" if keywords else "")
                + (" exhausted" if unit.exhausted else "")
                + (f" {ball()}{combat.balls_of(game, key)}" if combat.balls_of(game, key) else "")
                + "   "
            )
        lines.append(minions)
        extra = Text(f"Dragon Balls {ball()} {combat.balls_of(game, 'v')}   Deck {len(v.deck)}   ")
        for counter, value in sorted(v.tokens.items()):
            extra.append(f"{counter.capitalize()} {value}   ")
        for name, pile in v.side_decks.items():
            card = game.catalog.cards.get(name)
            title = card.name if card is not None else name
            if getattr(card, "type", "") == "reference":
                # Cards laid on a tracker card (Raditz's Kidnapped Victim).
                held = ", ".join(_card_name(game, uid) for uid in pile) or "none"
                extra.append(f"{title}: {held}   ")
            else:
                extra.append(f"{title} deck {len(pile)}   ")
        if v.aggro:
            extra.append(f"Aggro: {game.name(v.aggro)}   ")
        location = game.location_card()
        if location is not None:
            extra.append(f"Location: {location.name}", style="italic")
        lines.append(extra)
        return Group(*lines)


class MarketPanel(Board):
    """The five market rows and the sixth pile, with costs for the active
    Character."""

    def signature(self, game: Game) -> Any:
        s = game.state
        active = s.character(s.active) if s.active not in ("", "villain") else None
        rows = tuple((tuple(m.row), len(m.deck)) for m in s.markets.values())
        bonuses = (
            ()
            if active is None
            else (
                _units(active.units()),
                tuple((b.kind, b.amount) for b in active.bonuses),
                tuple((k, tuple(v)) for k, v in active.duo_energy.items()),
            )
        )
        hurt = tuple(rules.damage_of(game, f"market:{u}") for u in s.markets["allies"].row)
        return s.active, rows, tuple(s.sixth[-1:]), len(s.sixth), bonuses, hurt

    def draw(self, game: Game) -> RenderableType:
        s = game.state
        active = s.character(s.active) if s.active not in ("", "villain") else None
        lines: list[RenderableType] = []
        for market in ("allies", "techniques", "energy", "equipment", "training", "sixth"):
            name, colour = MARKET_NAMES[market], MARKET_COLOURS[market]
            row = s.sixth[-1:] if market == "sixth" else s.markets[market].row
            left = len(s.sixth) if market == "sixth" else len(s.markets[market].deck)
            line = Text(f"{name} ", style=f"bold {colour}")
            line.append(f"({left} left)  ", style="dim")
            for i, uid in enumerate(row):
                if i:
                    line.append(" | ", style="dim")
                line.append_text(self._chip(game, uid, market, active, colour))
            lines.append(line)
        return Group(*lines)

    @staticmethod
    def _chip(game: Game, uid: int, market: str, active: Any, colour: str) -> Text:
        card = game.card(uid)
        cost: Any = card.cost
        blocked = False
        if active is not None:
            paid = rules.buy_cost(game, active, uid, market)
            if paid is None:
                cost, blocked = "-", True
            else:
                cost = paid
                why = rules.can_buy_exclusive(
                    rules.race_of(game, f"c:{active.id}"), active.id, card, market
                )
                blocked = why is not None
        if getattr(card, "pay_with", "") == "dragon-balls":
            cost = f"{card.cost}{ball()}"
        exclusive = getattr(card, "exclusive", None)
        mark = "*" if exclusive is not None and (exclusive.races or exclusive.characters) else ""
        style = "dim strike" if blocked else colour
        chip = Text(f"{card.name}{mark} ({cost})", style=style)
        damage = rules.damage_of(game, f"market:{uid}") if market == "allies" else 0
        if damage:  # the Androids 17 and 18 attack the Allies of the market
            chip.append(f" {damage} dmg", style="bold red")
        return chip


class CharacterBoard(Board):
    """One Character: health, Armor, Time Track, cards in play, balls."""

    def __init__(self, character: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.character = character

    def signature(self, game: Game) -> Any:
        s = game.state
        ch = s.character(self.character)
        track = tuple(None if p is None else (p.uid, tuple(p.boosters)) for p in ch.time_track)
        return (
            s.active == ch.id,
            ch.damage,
            ch.defeated,
            ch.room_tokens,
            ch.ability_tokens,
            len(ch.deck),
            len(ch.discard),
            len(ch.hand),
            track,
            _units(ch.units()),
            tuple((b.kind, b.amount) for b in ch.bonuses),
            tuple(s.balls),
        )

    def draw(self, game: Game) -> RenderableType:
        s = game.state
        ch = s.character(self.character)
        key = f"c:{ch.id}"
        board = game.card(ch.id)
        title = Text()
        title.append(f"#{ch.order} ", style="bold")
        title.append(board.name, style="bold reverse" if s.active == ch.id else "bold")
        title.append(f"  {board.race.capitalize()} L{board.level}")
        if ch.defeated:
            title.append("  DEFEATED", style="bold red")
        elif ch.room_tokens >= 0:
            title.append(f"  in the Room of Spirit and Time ({ch.room_tokens})", style="italic")
        health = Text("HP ")
        health.append_text(bar(ch.damage, rules.max_health(game, key), 10))
        health.append(f"  Armor {rules.armor(game, key)}")
        dr = rules.damage_reduction(game, key)
        if dr:
            health.append(f"  DR {dr}")
        balls = combat.balls_of(game, key)
        if balls:
            health.append(f"  {ball()}{balls}")
        track = Text("Time ")
        for slot, prepared in enumerate(ch.time_track, 1):
            if prepared is None:
                track.append(f"[{slot}] ·  ")
            else:
                boost = f"+{len(prepared.boosters)}" if prepared.boosters else ""
                track.append(f"[{slot}] {_card_name(game, prepared.uid)}{boost}  ")
        lines: list[RenderableType] = [title, health, track]
        race = board.race
        for kind, label in (
            ("ally", "Allies"),
            ("equipment", "Equipment"),
            ("training", "Training"),
        ):
            units = rules.units_of(ch, kind)
            row = Text(f"{label} {len(units)}/{rules.limit(race, kind)}: ")
            for unit in units:
                held = combat.balls_of(game, f"a:{unit.uid}") if kind == "ally" else 0
                row.append(_card_name(game, unit.uid), style="dim" if unit.exhausted else "")
                if kind == "ally":
                    left = rules.remaining(game, f"a:{unit.uid}")
                    row.append(f" {left}hp")
                if held:
                    row.append(f" {ball()}{held}")
                row.append("  ")
            lines.append(row)
        footer = Text(f"Deck {len(ch.deck)}  Discard {len(ch.discard)}  Hand {len(ch.hand)}")
        ability = board.special_ability
        if ability is not None and ability.uses != "passive":
            footer.append(f"  {ability.name}: {ch.ability_tokens} token(s)")
        lines.append(footer)
        return Group(*lines)


class HandPanel(Board):
    """The active Character's hand and the Energy available this turn."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.hidden = False
        self.own: tuple[str, ...] = ()
        """At a shared table: this terminal's Characters, whose hand is shown
        while another seat or the Villain plays."""

    def _shown(self, game: Game) -> str:
        active = game.state.active
        if self.own and active not in self.own:
            return self.own[0]
        return active

    def signature(self, game: Game) -> Any:
        shown = self._shown(game)
        if shown in ("", "villain"):
            return shown, self.hidden
        ch = game.state.character(shown)
        return shown, tuple(ch.hand), ch.energy, ch.training_energy, self.hidden

    def draw(self, game: Game) -> RenderableType:
        shown = self._shown(game)
        if shown in ("", "villain"):
            return Text("The Villain is playing.", style="italic")
        ch = game.state.character(shown)
        if self.hidden:
            return Text(f"{game.name('c:' + ch.id)}'s hand is hidden.", style="italic")
        text = Text()
        text.append(f"{game.name('c:' + ch.id)}'s hand", style="bold")
        text.append(
            f"   Energy {ch.energy}"
            + (f" (+{ch.training_energy} for Training)" if ch.training_energy else "")
        )
        text.append("\n")
        for i, uid in enumerate(ch.hand, 1):
            card = game.card(uid)
            market = {
                "ally": "allies",
                "technique": "techniques",
                "equipment": "equipment",
                "training": "training",
            }.get(card.kind, "energy")
            text.append(f"{i}. ", style="bold")
            text.append(card.name, style=MARKET_COLOURS[market])
            if card.kind == "technique":
                kind = "E" if card.technique_type == "energy" else "P"
                text.append(
                    f" [{kind} {card.damage}" + (f" T{card.time}" if card.time else "") + "]"
                )
            elif card.kind in ("energy", "concentrated-energy"):
                text.append(f" [{card.value}]")
            text.append("  ")
        return text


class TurnOrderPanel(Board):
    """The turn-order deck, the round, and the seven Dragon Balls."""

    def signature(self, game: Game) -> Any:
        s = game.state
        return s.round, len(s.turn_deck), s.revealed, tuple(s.balls)

    def draw(self, game: Game) -> RenderableType:
        s = game.state
        text = Text()
        text.append(f"Round {s.round}", style="bold")
        text.append(f"   turn-order cards left {len(s.turn_deck)}")
        if s.revealed:
            text.append(f"   last: {self._card(game, s.revealed)}")
        text.append("\nDragon Balls: ")
        for star, holder in enumerate(s.balls, 1):
            who = "free" if not holder else game.name(holder)
            text.append(f"{star}{'*' if ASCII else '★'} {who}  ")
        return text

    @staticmethod
    def _card(game: Game, card: str) -> str:
        if card.startswith("V"):
            return game.hooks.turn_card_name(game, card)
        if card == "W":
            return "Wildcard"
        ch = next(c for c in game.state.characters if c.order == int(card))
        return game.name("c:" + ch.id)
