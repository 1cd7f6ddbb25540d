"""Effect operations in plain words, for the card inspector and ``cards show``.

Each operation has one phrase builder; a card's text is the authored rules
text, and these phrases show players exactly what the engine will do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from dbdeck.games.deckbuilding.cards import plain as fx

__all__ = ["describe", "describe_condition", "describe_effects"]

_TARGETS: dict[str, str] = {
    "self": "you",
    "this-card": "this card",
    "chosen-enemy": "an enemy of your choice",
    "each-enemy": "each enemy",
    "villain": "the Villain",
    "chosen-minion": "a Minion of your choice",
    "each-minion": "each Minion",
    "chosen-character": "a Character of your choice",
    "each-character": "each Character",
    "other-characters": "each other Character",
    "chosen-ally": "an Ally of your choice",
    "each-ally": "each Ally",
    "chosen-friend": "a Character or Ally of your choice",
    "active-character": "the active Character",
    "enemy-with-most-dragon-balls": "the enemy with the most Dragon Balls",
    "character-with-most-dragon-balls": "the Character with the most Dragon Balls",
    "enemy-with-least-health": "the enemy with the least Remaining Health",
    "chosen-enemy-with-dragon-balls": "an enemy of your choice that has Dragon Balls",
    "aggro-holder": "whoever holds the Aggro token",
    "attacker": "the attacker",
    "named-character": "the named Character",
    "ally-market-chosen": "an Ally in the Ally Market",
    "ally-market-highest-cost": "the costliest Ally in the Ally Market",
    "ally-market-lowest-cost": "the cheapest Ally in the Ally Market",
    "kidnapped-victim": "the Kidnapped Victim",
}

_DURATIONS: dict[str, str] = {
    "this-attack": "for this attack",
    "this-turn": "this turn",
    "until-next-actions-phase": "until your next Actions phase",
    "until-your-next-turn": "until your next turn",
    "while-in-play": "while this card is in play",
    "permanent": "for the rest of the game",
}

_SOURCES: dict[str, str] = {
    "hand": "from hand",
    "random-from-hand": "at random from hand",
    "this-card": "",
    "in-play": "in play",
    "discard-pile": "from the discard pile",
    "deck": "from the deck",
}


def target(name: str, character: str | None = None) -> str:
    """A target in words."""
    if name == "named-character" and character:
        return character
    return _TARGETS.get(name, name)


def _cards(count: int, kind: str) -> str:
    noun = "card" if kind == "any" else kind.replace("-", " ")
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _signed(amount: int) -> str:
    return f"+{amount}" if amount >= 0 else str(amount)


def _damage(op: fx.Damage) -> str:
    kind = "" if op.kind == "basic" else f"{op.kind.upper()} "
    attack = f" ({op.attack})" if op.attack else ""
    des = " +DES" if op.plus_despair else ""
    return f"deal {op.amount}{des} {kind}damage{attack} to {target(op.target, op.character)}"


def _pile_op(verb: str, op: fx.Discard | fx.Destroy) -> str:
    if op.source == "this-card":
        return f"{verb} this card"
    where = _SOURCES[op.source]
    whose = "" if op.target == "self" else f" of {target(op.target)}"
    return f"{verb} {_cards(op.count, op.card_kind)} {where}{whose}".replace("  ", " ")


def _amount(value: int | str) -> str:
    return "all damage" if value == "all" else f"{value}"


def _roll(op: fx.Roll) -> str:
    rows = "; ".join(
        f"{r.low}" + (f"-{r.high}" if r.high != r.low else "") + f": {r.text.rstrip('.')}"
        for r in op.rows
    )
    return f"roll {op.dice.upper()}: {rows}"


_PHRASES: dict[type[Any], Callable[[Any], str]] = {
    fx.Damage: _damage,
    fx.Eliminate: lambda op: (
        f"eliminate {target(op.target)}" + (" (a Character may step in)" if op.avoidable else "")
    ),
    fx.Draw: lambda op: (
        f"{target(op.target)} draw{'s' if op.target != 'self' else ''} {_cards(op.count, 'any')}"
    ),
    fx.Discard: lambda op: _pile_op("discard", op),
    fx.Destroy: lambda op: _pile_op("destroy", op),
    fx.Heal: lambda op: f"heal {_amount(op.amount)} on {target(op.target)}",
    fx.Repair: lambda op: f"repair {_amount(op.amount)} on {target(op.target)}",
    fx.GainEnergy: lambda op: (
        f"gain {op.amount} Energy" + (f" to buy {op.market}" if op.market else "")
    ),
    fx.PayEnergy: lambda op: f"pay {op.amount} Energy",
    fx.CostChange: lambda op: (
        f"{'Dragon Balls' if op.market == 'dragon-ball' else op.market}"
        f" cost {_signed(op.amount)} for {target(op.target)} {_DURATIONS[op.duration]}".replace(
            "any cost", "market cards cost"
        )
    ),
    fx.ArmorBonus: lambda op: (
        f"{target(op.target)}: Armor {_signed(op.amount)} {_DURATIONS[op.duration]}"
    ),
    fx.DamageReductionBonus: lambda op: (
        f"{target(op.target)}: Damage Reduction {_signed(op.amount)} {_DURATIONS[op.duration]}"
    ),
    fx.MaxHealthBonus: lambda op: (
        f"{target(op.target)}: Maximum Health {_signed(op.amount)} {_DURATIONS[op.duration]}"
    ),
    fx.DamageBonus: lambda op: (
        f"{target(op.target)}: {_signed(op.amount)} damage to "
        f"{op.attack + ' ' if op.attack else ''}attacks {_DURATIONS[op.duration]}"
    ),
    fx.HandSizeBonus: lambda op: (
        f"{target(op.target)}: hand size {_signed(op.amount)} {_DURATIONS[op.duration]}"
    ),
    fx.TakeDragonBall: lambda op: (
        f"{target(op.target)} take{'s' if op.target != 'self' else ''}"
        f" {op.count} unclaimed Dragon Ball{'s' if op.count > 1 else ''}"
        + ("; if none is left, steal one from an enemy" if op.steal_if_none else "")
    ),
    fx.ExtraDragonBallPurchase: lambda op: (
        f"{target(op.target)} may buy {op.amount} more "
        f"unclaimed Dragon Ball{'s' if op.amount > 1 else ''} each turn {_DURATIONS[op.duration]}"
    ),
    fx.DropDragonBall: lambda op: (
        f"{target(op.target)} drops {op.count} Dragon Ball{'s' if op.count > 1 else ''}"
    ),
    fx.StealDragonBall: lambda op: (
        f"steal {op.count} Dragon Ball{'s' if op.count > 1 else ''} from {target(op.target)}"
    ),
    fx.Search: lambda op: (
        f"search the {op.source.replace('-', ' ')} for "
        f"{_cards(op.count, op.card_kind)} and put it "
        f"{'into' if op.destination == 'hand' else 'in'} {op.destination.replace('-', ' ')}"
    ),
    fx.Ready: lambda op: f"ready {_cards(1, op.card_kind)} of {target(op.target)}",
    fx.Exhaust: lambda op: f"exhaust {target(op.target)}",
    fx.AddTokens: lambda op: (
        f"put {op.amount} {op.counter} token{'s' if op.amount > 1 else ''} on {target(op.target)}"
    ),
    fx.RemoveTokens: lambda op: (
        f"remove {op.amount} {op.counter} "
        f"token{'s' if op.amount > 1 else ''} from {target(op.target)}"
    ),
    fx.BreakArmor: lambda op: f"break an Armor token of {target(op.target)}",
    fx.Summon: lambda op: (
        f"summon {'one per Character' if op.per_character else op.count} × {op.card}"
    ),
    fx.ActivateCard: lambda op: f"prepare {op.card} on the Time Track",
    fx.RemoveFromMarket: lambda op: f"remove the top {op.count} cards of the {op.market} deck",
    fx.ExtraTurn: lambda op: "take another turn after this one",
    fx.Roll: _roll,
    fx.If: lambda op: (
        f"if {describe_condition(op.condition)}: {describe_effects(op.then)}"
        + (f"; otherwise {describe_effects(op.otherwise)}" if op.otherwise else "")
    ),
    fx.ChooseOne: lambda op: (
        "choose one: "
        + " / ".join(f"{o.label} ({describe_effects(o.effects)})" for o in op.options)
    ),
}

_CONDITIONS: dict[type[Any], Callable[[Any], str]] = {
    fx.InCombo: lambda c: "part of a Combo",
    fx.RaceIs: lambda c: (
        f"{'you are' if c.subject == 'self' else 'the target is'} "
        + " or ".join(r.capitalize() for r in c.races)
    ),
    fx.VillainPhase: lambda c: "the Villain is in phase " + " or ".join(map(str, c.phases)),
    fx.ControlsDragonBalls: lambda c: (
        ("you control" if c.subject == "self" else "the target controls")
        + f" at least {c.at_least} Dragon Ball{'s' if c.at_least > 1 else ''}"
    ),
    fx.IsDamaged: lambda c: (
        f"{'you have' if c.subject == 'self' else 'the target has'} at least {c.at_least} damage"
    ),
    fx.CharacterIs: lambda c: (
        f"{'you are' if c.subject == 'self' else 'the target is'} " + " or ".join(c.characters)
    ),
    fx.LevelAtLeast: lambda c: f"your Level is {c.level} or more",
    fx.HasInPlay: lambda c: f"you have {_cards(c.count, c.card_kind)} in play",
    fx.UnclaimedDragonBalls: lambda c: (
        f"at least {c.at_least} Dragon Ball{'s are' if c.at_least > 1 else ' is'} unclaimed"
    ),
    fx.AlliedEnemyAlive: lambda c: f"{c.enemy} is in play",
}


def describe(op: Any) -> str:
    """One operation in plain words."""
    return _PHRASES[type(op)](op)


def describe_condition(condition: Any) -> str:
    """One condition in plain words."""
    return _CONDITIONS[type(condition)](condition)


def describe_effects(ops: Sequence[Any]) -> str:
    """A list of operations in plain words, joined with "then"."""
    if not ops:
        return "nothing"
    return ", then ".join(describe(op) for op in ops)
