"""Rule queries: Armor, Maximum Health, costs, limits, races. Read-only.

Bonuses granted "while in play" are not stored in the state: they are summed
from the cards in play, so a bonus always vanishes with its card ("Health
Bonuses"). The sums are kept per Character in the game's ``state.DerivedState``
and summed again only when what they come from changed (see there).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from dbdeck.games.deckbuilding.cards import plain as fx
from dbdeck.games.deckbuilding.cards.plain import Ally, Minion
from dbdeck.games.deckbuilding.engine.holders import (
    AllyRef,
    CharacterRef,
    EnemyRef,
    Holder,
    MarketAllyRef,
    MinionRef,
    VillainRef,
)
from dbdeck.games.deckbuilding.engine.state import CharacterState, Unit

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.reach import Reach

__all__ = [
    "BASE_LIMIT",
    "armor",
    "buy_cost",
    "can_buy_exclusive",
    "damage_reduction",
    "is_character",
    "limit",
    "max_health",
    "side_of",
]

BASE_LIMIT = 3
"""Allies, Equipment and Training a Character may have in play ("Allies")."""

_BONUS_OPS: dict[str, type[Any]] = {
    "armor": fx.ArmorBonus,
    "damage-reduction": fx.DamageReductionBonus,
    "max-health": fx.MaxHealthBonus,
    "damage": fx.DamageBonus,
    "hand-size": fx.HandSizeBonus,
    "extra-dragon-ball": fx.ExtraDragonBallPurchase,
}


def is_character(key: Holder | None) -> bool:
    """Whether a holder is a Character."""
    return key.__class__ is CharacterRef


def side_of(key: Holder) -> str:
    """``players`` for Characters and Allies, ``villain`` for the rest."""
    return "players" if key.__class__ is CharacterRef or key.__class__ is AllyRef else "villain"


def on_players_side(key: Holder | None) -> bool:
    """Whether a holder is a Character or an Ally in play (the players' side)."""
    return key.__class__ is CharacterRef or key.__class__ is AllyRef


def limit(character_race: str, kind: str) -> int:
    """How many Allies, Equipment or Training a race may have in play ("Races")."""
    n = BASE_LIMIT
    if character_race == "animal":
        n -= 1
    if kind == "ally":
        n += {"human": 1, "demon": -1}.get(character_race, 0)
    elif kind == "equipment":
        n += 1 if character_race == "konatsu" else 0
    elif kind == "training":
        n += 1 if character_race == "saiyan" else 0
    return n


def _lasting_ops(g: Reach, ch: CharacterState, op_type: type) -> Iterator[Any]:
    """Every lasting ("while in play" or permanent) operation of one type on
    the Character's cards in play, and the Location's lasting effects of that
    type that reach every Character."""
    # Bonuses do not depend on a card being ready: exhausted cards still count.
    for units in (ch.allies, ch.equipment, ch.training):
        for unit in units:
            yield from g.lasting_ops(unit.uid, op_type)
    yield from g.location_lasting_ops(op_type)


def card_bonus(g: Reach, ch: CharacterState, kind: str, attack: str | None = None) -> int:
    """Bonus of one kind from the cards in play, the Location and effects."""
    values = g.derived.of(g.state, ch)
    key = (kind, attack)
    found = values.get(key)
    if found is None:
        found = values[key] = _card_bonus(g, ch, kind, attack)
    return int(found)


def _card_bonus(g: Reach, ch: CharacterState, kind: str, attack: str | None) -> int:
    op_type = _BONUS_OPS[kind]
    total = 0
    for units in (ch.allies, ch.equipment, ch.training):
        for unit in units:
            for op in g.lasting_ops(unit.uid, op_type):
                if kind != "damage" or op.attack in (None, attack):
                    total += op.amount
    for op in g.location_lasting_ops(op_type):
        if kind != "damage" or op.attack in (None, attack):
            total += op.amount
    for bonus in ch.bonuses:
        if bonus.kind == kind and (kind != "damage" or bonus.attack in (None, attack)):
            total += bonus.amount
    return total


def armor(g: Reach, key: Holder) -> int:
    """Armor of whoever the holder is."""
    match key:
        case CharacterRef(character_id):
            ch = g.state.character(character_id)
            return int(max(0, g.character_card(ch.id).armor + card_bonus(g, ch, "armor")))
        case AllyRef(uid) | MarketAllyRef(uid):
            return int(g.card_as(uid, Ally).armor)
        case MinionRef(uid):
            unit = g.minion(uid)
            return int(g.card_as(unit.uid, Minion).armor) + unit.tokens.get("armor", 0)
        case EnemyRef(enemy_id):
            enemy = g.enemy_card(enemy_id)
            armor_tokens = g.state.villain.enemy_tokens.get(enemy_id, {}).get("armor")
            if armor_tokens is not None:
                return armor_tokens + g.location_bonus(fx.ArmorBonus)
            return int(
                enemy.armor.at(g.state.difficulty)
                + g.state.villain.armor_bonus
                + g.location_bonus(fx.ArmorBonus)
            )
    v = g.villain_card()
    return int(
        max(
            0,
            v.armor.at(g.state.difficulty)
            + g.state.villain.armor_bonus
            + g.location_bonus(fx.ArmorBonus),
        )
    )


def damage_reduction(g: Reach, key: Holder) -> int:
    """Damage Reduction of whoever the holder is."""
    if key.__class__ is CharacterRef:
        ch = g.state.character(key.id)
        return max(0, card_bonus(g, ch, "damage-reduction"))
    if key.__class__ is VillainRef or key.__class__ is EnemyRef:
        base = g.villain_card().damage_reduction.at(g.state.difficulty)
        if key.__class__ is EnemyRef:
            base = g.enemy_card(key.id).damage_reduction
        extra = g.hooks.damage_reduction(g, key)
        return int(
            base
            + g.state.villain.damage_reduction_bonus
            + extra
            + g.location_bonus(fx.DamageReductionBonus)
        )
    return 0


def character_max_health(g: Reach, ch: CharacterState) -> int:
    """A Character's Maximum Health, bonuses included."""
    # Asked after every task (a bonus that left play may defeat): kept.
    values = g.derived.of(g.state, ch)
    found = values.get("max-health")
    if found is None:
        bonus = _card_bonus(g, ch, "max-health", None)
        found = values["max-health"] = int(max(1, g.character_card(ch.id).max_health + bonus))
    return int(found)


def max_health(g: Reach, key: Holder) -> int:
    """Maximum Health of whoever the holder is (bonuses included)."""
    match key:
        case CharacterRef(character_id):
            return character_max_health(g, g.state.character(character_id))
        case AllyRef(uid) | MarketAllyRef(uid):
            health = g.card_as(uid, Ally).health
            return 1 if health == "-" else int(health)
        case MinionRef(uid):
            return int(g.card_as(g.minion(uid).uid, Minion).health)
        case EnemyRef(enemy_id):
            base = int(g.enemy_card(enemy_id).max_health.at(g.state.difficulty))
            bonus = g.location_bonus(fx.MaxHealthBonus) + int(g.hooks.max_health_bonus(g, key))
            return base + bonus
    v = g.villain_card()
    return int(v.max_health.at(g.state.difficulty)) + g.location_bonus(fx.MaxHealthBonus)


def damage_of(g: Reach, key: Holder) -> int:
    """Damage tokens on whoever the holder is."""
    match key:
        case CharacterRef(character_id):
            return g.state.character(character_id).damage
        case AllyRef(uid):
            return g.ally(uid)[1].damage
        case MinionRef(uid):
            return g.minion(uid).damage
        case EnemyRef(enemy_id):
            return g.state.villain.enemy_damage.get(enemy_id, 0)
        case MarketAllyRef(uid):
            return g.state.markets["allies"].damage.get(uid, 0)
    return g.state.villain.damage


def remaining(g: Reach, key: Holder) -> int:
    """Remaining Health."""
    return max_health(g, key) - damage_of(g, key)


def race_of(g: Reach, key: Holder) -> str:
    """The race of a Character or Ally ('' for the Villain's side)."""
    if key.__class__ is CharacterRef:
        return str(g.character_card(key.id).race)
    if key.__class__ is AllyRef:
        return str(g.card_as(key.uid, Ally).race)
    return ""


def can_buy_exclusive(race: str, character: str, card: Any, market: str) -> str | None:
    """Why a Character may not buy an exclusive card, or ``None`` when it may
    (the Alien and Triclops exceptions included)."""
    exclusive = getattr(card, "exclusive", None)
    if exclusive is None:
        return None
    if exclusive.characters and character not in exclusive.characters:
        return f"{card.name} is exclusive to {', '.join(exclusive.characters)}"
    if exclusive.races and race not in exclusive.races:
        if race == "alien" and "saiyan" not in exclusive.races:
            return None
        if race == "triclops" and market == "techniques":
            return None
        return f"{card.name} is exclusive to {', '.join(r.capitalize() for r in exclusive.races)}"
    return None


def can_use_exclusive(race: str, character: str, card: Any) -> str | None:
    """Why a Character may not use (play) an exclusive card; ``None`` if it may.
    Buying rights of Aliens and Triclops extend to using what they bought."""
    return can_buy_exclusive(
        race, character, card, "techniques" if card.kind == "technique" else card.kind
    )


def buy_cost(g: Reach, ch: CharacterState, uid: int, market: str) -> int | None:
    """What the Character pays for a market card, or ``None`` if it may not buy
    that kind ("-" modifier)."""
    card = g.card(uid)
    if market == "sixth":
        return priced(card, 0)
    change = price_change(g, ch, market)
    if change is None:
        return None
    if card.kind == "ally" and card.duo:
        change -= sum(g.energy_value(e) for e in ch.duo_energy.get(uid, ()))
    return priced(card, change)


def priced(card: Any, change: int) -> int:
    """A card's printed cost (a "-" or none counts 0) changed by ``change``,
    never below 0 (rules note N28)."""
    # ``printed_cost`` is worked out once per card, "-" and none already 0.
    total: int = card.printed_cost + change
    return max(0, total)


def price_change(g: Reach, ch: CharacterState, market: str) -> int | None:
    """What the Character adds to every printed cost in a market: its board's
    modifier and its cost bonuses; ``None`` when its board says "-" (it may
    not buy there)."""
    values = g.derived.of(g.state, ch)
    key = ("price", market)
    if key in values:
        change: int | None = values[key]
        return change
    change = values[key] = _price_change(g, ch, market)
    return change


def _price_change(g: Reach, ch: CharacterState, market: str) -> int | None:
    modifier = g.character_card(ch.id).cost_modifiers.for_market(market)  # type: ignore[arg-type]
    if modifier == "-":
        return None
    return int(modifier) + cost_bonus(g, ch, market)


def cost_bonus(g: Reach, ch: CharacterState, market: str) -> int:
    """Cost changes from cards in play, the Location and effects."""
    values = g.derived.of(g.state, ch)
    key = ("cost", market)
    found = values.get(key)
    if found is None:
        found = values[key] = _cost_bonus(g, ch, market)
    return int(found)


def _cost_bonus(g: Reach, ch: CharacterState, market: str) -> int:
    total = 0
    for op in _lasting_ops(g, ch, fx.CostChange):
        if op.market in (market, "any"):
            if market == "dragon-ball" and op.market == "any":
                continue
            total += op.amount
    for bonus in ch.bonuses:
        if bonus.kind in (f"cost:{market}", "cost:any") and not (
            market == "dragon-ball" and bonus.kind == "cost:any"
        ):
            total += bonus.amount
    return total


def hand_size(g: Reach, ch: CharacterState) -> int:
    """Maximum hand size."""
    return int(max(1, g.character_card(ch.id).hand_size + card_bonus(g, ch, "hand-size")))


def units_of(ch: CharacterState, kind: str) -> list[Unit]:
    """A Character's Allies, Equipment or Training in play."""
    return {"ally": ch.allies, "equipment": ch.equipment, "training": ch.training}[kind]
