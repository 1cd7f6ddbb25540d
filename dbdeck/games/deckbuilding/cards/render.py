"""A card drawn as a rich panel: stats, rules text and effects in plain words.

Used by ``dbdeck cards show`` and by the table's card inspector.
"""

from __future__ import annotations

from collections.abc import Iterator

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.cards.describe import describe_condition, describe_effects
from dbdeck.games.deckbuilding.cards.kinds import MARKET_OF_KIND
from dbdeck.games.deckbuilding.cards.plain import (
    Ally,
    AttackBody,
    ByDifficulty,
    Card,
    Character,
    Enemy,
    Minion,
    MinionBody,
    Villain,
    data_of,
)

__all__ = ["MARKET_COLOURS", "card_panel", "card_stats"]

MARKET_COLOURS = {
    "allies": "hot_pink",
    "techniques": "dodger_blue1",
    "energy": "green3",
    "equipment": "dark_orange",
    "training": "yellow1",
    "sixth": "cyan",
}
"""Colours of the markets, after the cards' border colours in the rulebook
(Allies pink, Techniques blue, Energy green, Equipment orange, Training
yellow); the sixth pile gets cyan."""

EFFECT_FIELDS = (
    ("effects", "Effect"),
    ("start_of_turn_effects", "Start of turn"),
    ("exhaust_effects", "Exhaust"),
    ("destroy_effects", "Destroy"),
    ("combo_effects", "Combo"),
    ("booster", "Booster"),
    ("setup_effects", "Setup"),
    ("character_turn_start", "Character turn start"),
    ("villain_turn_start", "Villain turn start"),
    ("death_effect", "Death effect"),
    ("roll_table", "Table"),
)
"""The card fields that hold effects, and how a card's picture heads each."""


def _cost(value: object) -> str:
    return "-" if value is None else str(value)


def card_stats(card: Card, catalog: Catalog | None = None) -> list[tuple[str, str]]:
    """The card's numbers and keywords as (label, value) pairs."""
    rows: list[tuple[str, str]] = []
    if isinstance(card, Character):
        mods = card.cost_modifiers
        rows += [
            ("Race", card.race.capitalize()),
            ("Level", str(card.level)),
            ("Maximum Health", str(card.max_health)),
            ("Armor", str(card.armor)),
            ("Dragon Ball cost", f"{card.dragon_ball_cost} Energy"),
            (
                "Cost modifiers",
                ", ".join(f"{m} {v if v == '-' else f'{v:+d}'}" for m, v in data_of(mods).items()),
            ),
            ("Hand size", str(card.hand_size)),
            (
                "Starting cards",
                ", ".join(f"{e.copies}× {e.card}" for e in card.starting_cards),
            ),
        ]
        if catalog is not None:
            equipped = catalog.equipped_at_start(card)
            rows.append(("Begins equipped", ", ".join(equipped) or "nothing"))
        if card.special_ability is not None:
            ability = card.special_ability
            uses = "passive" if ability.uses == "passive" else f"{ability.uses} token(s)"
            rows.append((f"Ability: {ability.name}", f"{ability.text} [{uses}]"))
            if ability.cost:
                rows.append(("  cost", describe_effects(ability.cost)))
            if ability.effects:
                rows.append(("  does", describe_effects(ability.effects)))
        return rows
    if isinstance(card, Villain):
        rows += [
            ("Level", str(card.level)),
            ("Maximum Health", _by_difficulty(card.max_health)),
            ("Armor", _by_difficulty(card.armor)),
            ("Damage Reduction", _by_difficulty(card.damage_reduction)),
            ("Turn-order cards", str(card.turn_order_cards)),
            ("Deck", f"{sum(e.copies for e in card.deck)} cards"),
            ("Setup", card.setup),
            ("Victory", card.victory_text),
            ("Death effect", card.death_effect_text),
            ("Extreme Mode", card.extreme_mode),
        ]
        return rows
    if card.kind in MARKET_OF_KIND:
        starting = getattr(card, "starting", False)
        rows.append(("Cost", "starting card" if starting else _cost(getattr(card, "cost", None))))
        if isinstance(card, Ally) and card.pay_with == "dragon-balls":
            rows[-1] = ("Cost", f"{card.cost} Dragon Balls")
    if isinstance(card, Ally):
        rows += [
            ("Health", str(card.health)),
            ("Armor", str(card.armor)),
            ("Race", card.race.capitalize()),
            ("Power", str(card.power)),
        ]
        if card.duo:
            rows.append(("Duo", "yes"))
    for name in ("technique_type", "damage", "damage_kind", "time", "max_boosters", "value"):
        value = getattr(card, name, None)
        if value is not None and card.kind != "villain-card":
            rows.append((name.replace("_", " ").capitalize(), str(value)))
    if getattr(card, "healing", False):
        rows.append(("Healing", "its damage heals instead"))
    for market, value in getattr(card, "value_for", {}).items():
        rows.append((f"Value for {market}", str(value)))
    keywords = getattr(card, "keywords", [])
    if keywords:
        rows.append(("Keywords", ", ".join(k.capitalize() for k in keywords)))
    exclusive = getattr(card, "exclusive", None)
    if exclusive is not None and (exclusive.races or exclusive.characters):
        rows.append(("Exclusive to", ", ".join([*exclusive.races, *exclusive.characters])))
    for condition in getattr(card, "requirements", []):
        rows.append(("Requires", describe_condition(condition)))
    if card.kind == "villain-card":
        rows += list(_villain_card_stats(card))
    return rows


def _by_difficulty(value: ByDifficulty) -> str:
    return f"{value.easy} / {value.medium} / {value.hard}"


def _villain_card_stats(card: Card) -> Iterator[tuple[str, str]]:
    yield ("Villain", card.villain)  # type: ignore[union-attr]
    yield ("Type", card.type.capitalize())  # type: ignore[union-attr]
    if card.phase is not None:  # type: ignore[union-attr]
        yield ("Phase", str(card.phase))  # type: ignore[union-attr]
    if isinstance(card, AttackBody):
        yield from _attack_stats(card)
    if isinstance(card, MinionBody):
        yield ("Health", str(card.health))
        yield ("Armor", str(card.armor))
    if isinstance(card, Enemy):
        yield ("Maximum Health", _by_difficulty(card.max_health))
        yield ("Armor", _by_difficulty(card.armor))
    for half in getattr(card, "halves", []):
        what = half.text
        if half.attack is not None:
            what = "; ".join(f"{k}: {v}" for k, v in _attack_stats(half.attack))
        yield (f"{half.enemy}: {half.name}", what)
    if isinstance(card, Minion) and card.permanent:
        yield ("Returns", "to its side deck when defeated")


def _attack_stats(attack: AttackBody) -> Iterator[tuple[str, str]]:
    yield ("Attack", attack.attack_type.capitalize())
    if attack.time is not None:
        yield ("Time", str(attack.time))
    bonus = " +DES" if attack.plus_despair else ""
    bonus += " + phase base + Power" if attack.plus_power else ""
    kind = "" if attack.damage_kind == "basic" else f" {attack.damage_kind.upper()}"
    yield ("Damage", f"{attack.damage}{bonus}{kind}")
    yield ("Target", attack.target.replace("-", " "))
    if attack.effects:
        yield ("Effect", describe_effects(attack.effects))
    if attack.avoid is not None:
        yield ("Avoid (red text)", attack.avoid.text)


def card_panel(card: Card, catalog: Catalog | None = None) -> Panel:
    """The card drawn as a bordered panel in its market colour."""
    colour = MARKET_COLOURS.get(MARKET_OF_KIND.get(card.kind, ""), "white")
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    # Every text of a card is drawn as it is written: markup in a pack's
    # words is shown, never run.
    for label, value in card_stats(card, catalog):
        table.add_row(Text(label), Text(value))
    parts: list[Table | Text] = [table]
    if card.text:
        parts.append(Text(""))
        parts.append(Text(card.text, style="italic"))
    effects = Table.grid(padding=(0, 2))
    effects.add_column(style="bold")
    effects.add_column()
    for field, label in EFFECT_FIELDS:
        ops = getattr(card, field, None)
        if ops:
            effects.add_row(Text(label), Text(describe_effects(ops)))
    for reward in getattr(card, "rewards", []):
        effects.add_row(
            Text(f"After {reward.turns} turn(s)"), Text(describe_effects(reward.effects))
        )
    if effects.row_count:
        parts += [Text(""), effects]
    subtitle = card.kind if card.kind != "villain-card" else f"{card.type} · {card.villain}"
    return Panel(
        Group(*parts),
        title=Text.assemble((card.name, "bold"), " ", (f"({card.id})", "dim")),
        subtitle=Text(subtitle),
        border_style=colour,
        expand=False,
    )
