"""Laying out a scenario's table by hand: every listed pile or value
replaces what the game held (on a clean table, nothing was there)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dbdeck.games.deckbuilding.engine import combat, rules
from dbdeck.games.deckbuilding.engine.game import Game
from dbdeck.games.deckbuilding.engine.holders import (
    VILLAIN,
    AllyRef,
    CharacterRef,
    Holder,
    MinionRef,
)
from dbdeck.games.deckbuilding.engine.state import (
    Bonus,
    CharacterState,
    GameState,
    MarketState,
    Prepared,
    Unit,
    VillainState,
    split_counters,
)
from dbdeck.games.deckbuilding.scenario.checking import checked
from dbdeck.games.deckbuilding.scenario.models import (
    CharacterSpec,
    HalfSpec,
    TableSpec,
    VillainSpec,
    clip,
)
from dbdeck.games.deckbuilding.scenario.naming import holder
from dbdeck.scenarios import ScenarioFailure

__all__ = ["clean_game", "lay_table"]

_ROOM_RULE = "room-of-spirit-and-time"


def lay_table(g: Game, table: TableSpec | Mapping[str, Any]) -> None:
    """Lay the scenario's table: every listed pile or value replaces what
    the game held (on a clean table, nothing was there). Plain data (as a
    test writes it) is checked as a scenario's ``[table]`` first.

    Raises ``ScenarioFailure`` for a value the table cannot hold, and
    ``KeyError`` for a Minion or Ally named by a key that is not in play."""
    if not isinstance(table, TableSpec):
        table = checked(TableSpec, dict(table), g.catalog, g.state.villain_id)
    s = g.state
    villain = table.villain
    if villain is not None and villain.dragon_balls is not None:
        # The Villain's balls first: a Villain that starts with some (Raditz's
        # six) leaves the Characters' balls unclaimed until it lets them go.
        _set_balls(g, VILLAIN, villain.dragon_balls)
    for character_id, spec in (table.characters or {}).items():
        _lay_character(g, s.character(character_id), spec)
    if villain is not None:
        _lay_villain(g, villain)
    if table.turn_deck is not None:
        s.turn_deck = list(reversed(table.turn_deck))
    if table.revealed is not None:
        s.revealed = table.revealed
    for market, cards in (table.market_decks or {}).items():
        s.markets[market].deck = [g.new_uid(c) for c in reversed(cards)]
    for market, cards in (table.markets or {}).items():
        s.markets[market].row = [g.new_uid(c) for c in cards]
    if table.sixth is not None:
        s.sixth = [g.new_uid(c) for c in reversed(table.sixth)]
    market_damage = table.market_damage.allies if table.market_damage else None
    for i, damage in enumerate(market_damage or []):
        if damage:
            s.markets["allies"].damage[s.markets["allies"].row[i]] = damage
    if table.box is not None:
        s.box = [g.new_uid(c) for c in table.box]
    if table.eliminated is not None:
        s.eliminated = [g.new_uid(c) for c in table.eliminated]
        s.box += s.eliminated
    for name, count in (table.dragon_balls or {}).items():
        key = holder(g, name)
        if not combat.alive(g, key) and key is not VILLAIN:
            raise ScenarioFailure(f"dragon_balls.{clip(name)}: not in play")
        if count > s.balls.count(None) + s.balls.count(key):
            raise ScenarioFailure(f"dragon_balls.{clip(name)}: more than seven Dragon Balls")
        _set_balls(g, key, count)
    if table.active is not None:
        s.prologue = []
        s.stack = []
        s.pending = None
        s.active = table.active
        if s.active == "villain":
            s.step = "villain_start"
            g._advance()
        else:
            s.step = "char_main"
    elif table.clean:
        g._advance()  # the first turn-order card is revealed


def _lay_character(g: Game, ch: CharacterState, spec: CharacterSpec) -> None:
    where = f"characters.{ch.id}"
    for pile in ("hand", "deck", "discard"):
        cards: list[str] | None = getattr(spec, pile)
        if cards is not None:
            setattr(ch, pile, [g.new_uid(c) for c in cards])
    for kind in ("allies", "equipment", "training"):
        cards = getattr(spec, kind)
        if cards is not None:
            setattr(ch, kind, [Unit(g.new_uid(c)) for c in cards])
    if spec.time_track is not None:
        ch.time_track = [
            None if c in ("", "-") else Prepared(g.new_uid(c)) for c in spec.time_track
        ]
    for field_name in ("damage", "energy", "ability_tokens", "training_energy"):
        value: int | None = getattr(spec, field_name)
        if value is not None:
            setattr(ch, field_name, value)
    for i, damage in enumerate(spec.ally_damage or []):
        if i >= len(ch.allies):
            raise ScenarioFailure(
                f"{where}.ally_damage: {i + 1} values for {len(ch.allies)} Allies"
            )
        _lay_damage(g, ch.allies[i], AllyRef(ch.allies[i].uid), damage, f"{where}.ally_damage.{i}")
    _exhaust(g, ch.units(), spec.exhausted or [], f"{where}.exhausted")
    if spec.room_tokens is not None:
        room = next(
            (u for u in ch.training if getattr(g.card(u.uid), "rule", None) == _ROOM_RULE), None
        )
        if room is None:
            raise ScenarioFailure(
                f"{where}.room_tokens: the Room of Spirit and Time is not among its Training"
            )
        ch.room_tokens, ch.room_card = spec.room_tokens, room.uid
    if spec.bonuses is not None:
        ch.bonuses = [Bonus(b.kind, b.amount, b.duration, b.attack, b.until) for b in spec.bonuses]
    if spec.defeated:
        _lay_defeat(g, ch, spec)
    if spec.dragon_balls is not None:
        if not ch.in_play() and ch.room_tokens < 0 and spec.dragon_balls:
            raise ScenarioFailure(f"{where}.dragon_balls: a defeated Character holds none")
        _set_balls(g, CharacterRef(ch.id), spec.dragon_balls)


def _lay_defeat(g: Game, ch: CharacterState, spec: CharacterSpec) -> None:
    """A defeated Character keeps nothing in play (Defeated Characters): what
    the table did not list goes where a defeat sends it."""
    where = f"characters.{ch.id}"
    for name in ("allies", "equipment", "training", "time_track"):
        listed: list[str] | None = getattr(spec, name)
        if listed and any(c not in ("", "-") for c in listed):
            raise ScenarioFailure(f"{where}.{name}: a defeated Character has no cards in play")
    g.state.box += [u.uid for u in ch.units()]
    ch.allies, ch.equipment, ch.training = [], [], []
    for prepared in ch.time_track:
        if prepared is not None:
            ch.discard += [prepared.uid, *prepared.boosters]
    ch.time_track = [None] * 4
    ch.defeated = True
    ch.room_tokens = -1
    key = CharacterRef(ch.id)
    g.state.balls = [None if held is key else held for held in g.state.balls]
    if spec.damage is None:
        ch.damage = rules.max_health(g, key)


def _lay_damage(g: Game, unit: Unit, key: Holder, damage: int, where: str) -> None:
    health = rules.max_health(g, key)
    if damage >= health:
        raise ScenarioFailure(
            f"{where}: {damage} damage would eliminate {g.name(unit.uid)} (Health {health})"
        )
    unit.damage = damage


def _exhaust(g: Game, units: list[Unit], cards: list[str], where: str) -> None:
    for i, card in enumerate(cards):
        unit = next((u for u in units if g.state.card_ids[u.uid] == card and not u.exhausted), None)
        if unit is None:
            raise ScenarioFailure(f"{where}.{i}: no ready {clip(card)!r} in play")
        unit.exhausted = True


_VILLAIN_VALUES = (
    "damage",
    "phase",
    "armor_bonus",
    "damage_bonus",
    "damage_reduction_bonus",
)
"""The Villain's values a table lays as they are."""


def _lay_villain(g: Game, spec: VillainSpec) -> None:
    v = g.state.villain
    for field_name in _VILLAIN_VALUES:
        value: int | bool | None = getattr(spec, field_name)
        if value is not None:
            setattr(v, field_name, value)
    if spec.minions is not None:
        v.minions = [Unit(g.new_uid(c)) for c in spec.minions]
    for i, damage in enumerate(spec.minion_damage or []):
        if i >= len(v.minions):
            raise ScenarioFailure(
                f"villain.minion_damage: {i + 1} values for {len(v.minions)} Minions"
            )
        _lay_damage(
            g, v.minions[i], MinionRef(v.minions[i].uid), damage, f"villain.minion_damage.{i}"
        )
    _exhaust(g, v.minions, spec.exhausted_minions or [], "villain.exhausted_minions")
    if spec.deck is not None:
        v.deck = [g.new_uid(c) for c in reversed(spec.deck)]
    if spec.discard is not None:
        v.discard = [g.new_uid(c) for c in spec.discard]
    if spec.time_track is not None:
        halves: list[Prepared] = []
        v.time_track = [[_prepared(g, c, halves) for c in slot] for slot in spec.time_track]
    if spec.enemy_damage is not None:
        v.enemy_damage = dict(spec.enemy_damage)
    if spec.defeated_enemies is not None:
        v.defeated_enemies = list(spec.defeated_enemies)
    if spec.tokens is not None:
        # A scenario names an enemy's own counters ``armor:<enemy>``.
        v.tokens, v.enemy_tokens = split_counters(dict(spec.tokens))
    for name, cards in (spec.side_decks or {}).items():
        # a list names the cards top first; a number is that many copies of the named card
        listed = [name] * cards if isinstance(cards, int) else cards
        v.side_decks[name] = [g.new_uid(c) for c in reversed(listed)]
    if spec.dragon_balls is not None:
        _set_balls(g, VILLAIN, spec.dragon_balls)
    # What the Villain's own module keeps (Freezer's arrival, Broly's Aggro).
    own: dict[str, Any] = {}
    if spec.arrived is not None:
        own["arrived"] = spec.arrived
    if spec.aggro is not None:
        own["aggro"] = holder(g, spec.aggro) if spec.aggro else None
    if own:
        try:
            v.own = v.own.laid(own)
        except ValueError as exc:
            raise ScenarioFailure(f"villain: {exc}") from None


def _prepared(g: Game, spec: str | HalfSpec, halves: list[Prepared]) -> Prepared:
    """A Villain attack on the Time Track: a card id, or ``{card, owner}``
    for the half of a split card one enemy prepared. Two halves of the same
    card prepared by different enemies are one card."""
    if isinstance(spec, str):
        return Prepared(g.new_uid(spec))
    for other in halves:
        if g.state.card_ids[other.uid] == spec.card and other.owner != spec.owner:
            halves.remove(other)
            return Prepared(other.uid, owner=spec.owner)
    prepared = Prepared(g.new_uid(spec.card), owner=spec.owner)
    halves.append(prepared)
    return prepared


def _set_balls(g: Game, key: Holder, count: int) -> None:
    s = g.state
    s.balls = [None if held is key else held for held in s.balls]
    for i in range(7):
        if count and s.balls[i] is None:
            s.balls[i] = key
            count -= 1


def clean_game(g: Game) -> Game:
    """The game's setup with an empty table: its Villain, Characters (with
    their seats and turn order), Location and turn-order cards, but no card
    anywhere, no damage, no token, no Dragon Ball held, and no turn played.
    A scenario with ``clean = true`` lays everything else itself."""
    s = g.state
    fresh = GameState(
        villain_id=s.villain_id,
        difficulty=s.difficulty,
        extreme=s.extreme,
        location=s.location,
        seed=s.seed,
        variant=s.variant,
    )
    fresh.characters = [CharacterState(c.id, c.order, c.seat) for c in s.characters]
    fresh.villain = VillainState(id=s.villain.id)
    fresh.villain.side_decks = {name: [] for name in s.villain.side_decks}
    fresh.markets = {name: MarketState() for name in s.markets}
    fresh.turn_cards = list(s.turn_cards)
    fresh.turn_deck = list(s.turn_cards)
    g.rng.shuffle(fresh.turn_deck)
    return Game(g.catalog, fresh, g.rng)
