"""Card effects as data: a closed set of typed operations.

Every effect a card can have is one of the operations below, told apart by
its ``op`` field. The engine has one handler per operation, reused by every
card. A card file that names an unknown operation, or gives an operation a
field it does not have, fails validation: nothing in a card file is ever
evaluated as code.

Words used throughout:

* a *target* says who an operation affects, seen from the side that owns the
  card (for a Character's card the enemies are the Villain and its Minions; for
  a Villain's card the enemies are the Characters and their Allies);
* a *duration* says how long a bonus lasts.
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

# The schema's plain words live in kinds.py, pydantic-free; re-exported here.
from dbdeck.games.deckbuilding.cards.kinds import (
    AttackType,
    CardKindFilter,
    Counter,
    DamageKind,
    Dice,
    Duration,
    HandSource,
    MarketKind,
    Race,
    Target,
)
from dbdeck.packs.printable import PRINTABLE_PATTERN

__all__ = [
    "AttackType",
    "CardKindFilter",
    "Condition",
    "Counter",
    "DamageKind",
    "Dice",
    "Duration",
    "Effect",
    "EffectList",
    "HandSource",
    "MarketKind",
    "Race",
    "Target",
    "Words",
]

Words = Annotated[str, Field(pattern=PRINTABLE_PATTERN)]
"""A text of a card file: anything printable (``dbdeck/packs/printable.py``)."""


class _Op(BaseModel):
    """Common configuration: unknown fields are an error, values are frozen."""

    # The schema is built once, on first use, for the whole card union: building
    # it class by class at import would cost several hundred milliseconds.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Damage(_Op):
    """Inflict damage outside a technique's own Damage value."""

    op: Literal["damage"]
    amount: int = Field(ge=0)
    """Damage points inflicted."""
    kind: DamageKind = "basic"
    """BASIC, PIERCING or UNAVOIDABLE."""
    target: Target = "chosen-enemy"
    """Who receives the damage."""
    attack: AttackType | None = None
    """Energy or Physical, when the damage is an attack (Block and Power Clash
    answer only attacks); ``null`` for damage from an effect or cost."""
    plus_despair: bool = False
    """Add one point per Despair token (the Androids' "+DES")."""
    character: Words | None = None
    """For the ``named-character`` target: the Character id."""


class Eliminate(_Op):
    """Eliminate the target: damage equal to Maximum Health plus Armor plus
    Damage Reduction, ignoring damage already taken (glossary, "Eliminate").
    Army Minions are immune when the target is a Minion."""

    op: Literal["eliminate"]
    target: Target
    """Who is eliminated."""
    avoidable: bool = False
    """For attacks on the Ally Market: a Character in play may step in and
    receive the damage instead (Androids 17 and 18, "Avoidable")."""


class Draw(_Op):
    """Draw cards from the deck (the discard pile is reshuffled when it runs out)."""

    op: Literal["draw"]
    count: int = Field(ge=1)
    """How many cards."""
    target: Target = "self"
    """Who draws."""


class Discard(_Op):
    """Discard cards to the owner's discard pile."""

    op: Literal["discard"]
    count: int = Field(default=1, ge=1)
    """How many cards."""
    source: HandSource = "hand"
    """Where the cards come from."""
    card_kind: CardKindFilter = "any"
    """Which kind of card may be picked."""
    target: Target = "self"
    """Whose cards are discarded."""


class Destroy(_Op):
    """Remove cards from the game ("Destroying Cards"). Starting cards are never
    picked by a mandatory destroy."""

    op: Literal["destroy"]
    count: int = Field(default=1, ge=1)
    """How many cards; several are destroyed in one single action."""
    source: HandSource = "hand"
    """Where the cards come from."""
    card_kind: CardKindFilter = "any"
    """Which kind of card may be picked."""
    target: Target = "self"
    """Whose cards are destroyed."""


class Heal(_Op):
    """Remove damage tokens. Androids cannot heal; Animals heal 1 more."""

    op: Literal["heal"]
    amount: int | Literal["all"]
    """Points of damage removed, or ``all``."""
    target: Target = "self"
    """Who heals."""


class Repair(_Op):
    """Remove damage tokens from an Android (the Android form of healing)."""

    op: Literal["repair"]
    amount: int | Literal["all"]
    """Points of damage removed, or ``all``."""
    target: Target = "self"
    """Who is repaired."""


class GainEnergy(_Op):
    """Add Energy to spend this turn, as if an Energy card had been played."""

    op: Literal["gain-energy"]
    amount: int = Field(ge=1)
    """Energy points gained."""
    market: MarketKind | None = None
    """Only for buying in this market, when set."""


class PayEnergy(_Op):
    """Spend Energy as a cost (mostly in the red text that avoids an attack)."""

    op: Literal["pay-energy"]
    amount: int = Field(ge=1)
    """Energy points to pay."""


class CostChange(_Op):
    """Change what the target pays for market cards."""

    op: Literal["cost-change"]
    amount: int
    """Added to the cost (negative makes cards cheaper)."""
    market: MarketKind | Literal["any", "dragon-ball"] = "any"
    """Which market's cards, or the price of an unclaimed Dragon Ball."""
    duration: Duration = "this-turn"
    """How long it lasts."""
    target: Target = "self"
    """Whose costs change."""


class ArmorBonus(_Op):
    """Raise (or lower, if negative) the target's Armor."""

    op: Literal["armor-bonus"]
    amount: int
    """Armor points."""
    duration: Duration = "while-in-play"
    """How long it lasts."""
    target: Target = "self"
    """Who gains it."""


class DamageReductionBonus(_Op):
    """Give Damage Reduction, which also reduces PIERCING damage."""

    op: Literal["damage-reduction"]
    amount: int
    """Points of Damage Reduction."""
    duration: Duration = "while-in-play"
    """How long it lasts."""
    target: Target = "self"
    """Who gains it."""


class MaxHealthBonus(_Op):
    """Raise Maximum Health. A bonus tied to a card vanishes with it."""

    op: Literal["max-health-bonus"]
    amount: int
    """Points of Maximum Health."""
    duration: Duration = "while-in-play"
    """How long it lasts."""
    target: Target = "self"
    """Who gains it."""


class DamageBonus(_Op):
    """Add damage to the target's attacks."""

    op: Literal["damage-bonus"]
    amount: int
    """Damage points added to each attack."""
    duration: Duration = "this-attack"
    """How long it lasts."""
    attack: AttackType | None = None
    """Only Energy or only Physical attacks, when set."""
    target: Target = "self"
    """Whose attacks gain it."""


class HandSizeBonus(_Op):
    """Change the maximum hand size (5 by default)."""

    op: Literal["hand-size-bonus"]
    amount: int
    """Cards added to the hand size."""
    duration: Duration = "while-in-play"
    """How long it lasts."""
    target: Target = "self"
    """Whose hand size changes."""


class TakeDragonBall(_Op):
    """The target takes control of unclaimed Dragon Balls: as many as are
    unclaimed, up to ``count``. With ``steal_if_none``, when none is unclaimed
    it steals one instead from the enemy with most Dragon Balls (Freezer's
    Army). The Search keyword does this by itself; cards with Search do not
    repeat it in their effects."""

    op: Literal["take-dragon-ball"]
    count: int = Field(default=1, ge=1)
    """How many balls."""
    target: Target = "self"
    """Who takes them."""
    steal_if_none: bool = False
    """Steal from an enemy when no ball is unclaimed."""


class ExtraDragonBallPurchase(_Op):
    """Allow buying more unclaimed Dragon Balls per turn than the usual one
    (the Dragon Radar)."""

    op: Literal["extra-dragon-ball-purchase"]
    amount: int = Field(default=1, ge=1)
    """Extra purchases per turn."""
    duration: Duration = "while-in-play"
    """How long it lasts."""
    target: Target = "self"
    """Who gains it."""


class DropDragonBall(_Op):
    """The target gives up Dragon Balls; they become unclaimed."""

    op: Literal["drop-dragon-ball"]
    count: int = Field(default=1, ge=1)
    """How many balls."""
    target: Target = "chosen-enemy"
    """Who drops them."""


class StealDragonBall(_Op):
    """Move Dragon Balls from the target to the card's owner."""

    op: Literal["steal-dragon-ball"]
    count: int = Field(default=1, ge=1)
    """How many balls."""
    target: Target = "chosen-enemy"
    """Who loses them."""


class Search(_Op):
    """Look through a pile for a card of a kind and take it."""

    op: Literal["search"]
    source: Literal["deck", "discard-pile", "market"] = "deck"
    """Where to look. The deck is shuffled afterwards."""
    card_kind: CardKindFilter = "any"
    """Which kind of card may be taken."""
    count: int = Field(default=1, ge=1)
    """How many cards."""
    destination: Literal["hand", "discard-pile", "in-play"] = "hand"
    """Where the found card goes."""


class Ready(_Op):
    """Ready an exhausted card."""

    op: Literal["ready"]
    card_kind: CardKindFilter = "any"
    """Which kind of card."""
    target: Target = "self"
    """Whose card."""


class Exhaust(_Op):
    """Exhaust a ready card (it cannot be exhausted again until readied)."""

    op: Literal["exhaust"]
    card_kind: CardKindFilter = "any"
    """Which kind of card."""
    target: Target = "chosen-minion"
    """Whose card (a Minion for Character cards)."""


class AddTokens(_Op):
    """Place tokens on a card or board."""

    op: Literal["add-tokens"]
    counter: Counter
    """Which tokens."""
    amount: int = Field(default=1, ge=1)
    """How many."""
    target: Target = "self"
    """Where they go."""


class RemoveTokens(_Op):
    """Discard tokens from a card or board ("Discarding Tokens")."""

    op: Literal["remove-tokens"]
    counter: Counter
    """Which tokens."""
    amount: int = Field(default=1, ge=1)
    """How many."""
    target: Target = "self"
    """From where."""


class BreakArmor(_Op):
    """Remove one Armor token from the target (Vegeta and Nappa)."""

    op: Literal["break-armor"]
    target: Target = "chosen-enemy"
    """Whose Armor token is removed."""


class Summon(_Op):
    """Put Minions into play from a Villain's side deck (Saibamen)."""

    op: Literal["summon"]
    card: Words
    """The Minion card's id."""
    count: int = Field(default=1, ge=1)
    """How many; never more than the side deck holds."""
    per_character: bool = False
    """One for each Character in play instead of ``count``."""


class ActivateCard(_Op):
    """Prepare the named Villain attack on the Time Track (Broly's table)."""

    op: Literal["activate-card"]
    card: Words
    """The attack card's id."""


class RemoveFromMarket(_Op):
    """Remove face-down cards from the top of a market deck (Ruined City)."""

    op: Literal["remove-from-market"]
    market: MarketKind
    """Which market deck."""
    count: int = Field(ge=1)
    """How many cards."""


class ExtraTurn(_Op):
    """The owner plays another turn after this one."""

    op: Literal["extra-turn"]


class Roll(_Op):
    """Roll dice and apply the row of a table that the total falls in."""

    op: Literal["roll"]
    dice: Dice
    """Which dice."""
    rows: list[RollRow]
    """The table, each row with the totals it covers."""


class RollRow(_Op):
    """One row of a dice table."""

    low: int = Field(ge=1)
    """Lowest total of the row."""
    high: int = Field(ge=1)
    """Highest total of the row."""
    text: Words
    """What happens, in words."""
    effects: list[Effect] = []
    """What happens, as operations."""


class If(_Op):
    """Apply ``then`` when the condition holds, else ``otherwise``."""

    op: Literal["if"]
    condition: Condition
    """What must hold."""
    then: list[Effect]
    """Operations applied when it holds."""
    otherwise: list[Effect] = []
    """Operations applied when it does not."""


class Option(_Op):
    """One choice of a choose-one operation."""

    label: Words
    """The choice in words."""
    effects: list[Effect]
    """What choosing it does."""


class ChooseOne(_Op):
    """The card's owner (the players, for a Villain's card) picks one option."""

    op: Literal["choose-one"]
    options: list[Option] = Field(min_length=2)
    """The options."""


# --- conditions -------------------------------------------------------------


class InCombo(_Op):
    """The card is part of a Combo."""

    when: Literal["combo"]


class RaceIs(_Op):
    """The subject belongs to one of the races."""

    when: Literal["race"]
    races: list[Race] = Field(min_length=1)
    """Accepted races."""
    subject: Literal["self", "target"] = "self"
    """Whose race: the card's owner or the operation's target."""


class VillainPhase(_Op):
    """The Villain is in one of the phases."""

    when: Literal["villain-phase"]
    phases: list[int] = Field(min_length=1)
    """Accepted phases."""


class ControlsDragonBalls(_Op):
    """The subject controls at least this many Dragon Balls."""

    when: Literal["controls-dragon-balls"]
    at_least: int = Field(default=1, ge=1)
    """Minimum number of balls."""
    subject: Literal["self", "target"] = "self"
    """Whose balls are counted."""


class IsDamaged(_Op):
    """The subject has at least this much damage on it."""

    when: Literal["damaged"]
    at_least: int = Field(default=1, ge=1)
    """Minimum damage."""
    subject: Literal["self", "target"] = "self"
    """Who is checked."""


class CharacterIs(_Op):
    """The subject is one of the named Characters."""

    when: Literal["character"]
    characters: list[Words] = Field(min_length=1)
    """Accepted Character ids."""
    subject: Literal["self", "target"] = "self"
    """Who is checked."""


class LevelAtLeast(_Op):
    """The owner's Character Level is at least this."""

    when: Literal["level-at-least"]
    level: int = Field(ge=0)
    """Minimum level."""


class HasInPlay(_Op):
    """The owner has a card of this kind in play."""

    when: Literal["has-in-play"]
    card_kind: CardKindFilter
    """The kind of card."""
    count: int = Field(default=1, ge=1)
    """How many at least."""


class UnclaimedDragonBalls(_Op):
    """At least this many Dragon Balls are unclaimed."""

    when: Literal["unclaimed-dragon-balls"]
    at_least: int = Field(default=1, ge=1)
    """Minimum number of unclaimed balls."""


class AlliedEnemyAlive(_Op):
    """The named enemy of a two-enemy Villain is still in play."""

    when: Literal["enemy-alive"]
    enemy: Words
    """The enemy card's id (``android-17``, ``nappa`` …)."""


Condition = Annotated[
    InCombo
    | RaceIs
    | VillainPhase
    | ControlsDragonBalls
    | IsDamaged
    | CharacterIs
    | LevelAtLeast
    | HasInPlay
    | UnclaimedDragonBalls
    | AlliedEnemyAlive,
    Field(discriminator="when"),
]
"""A test an ``if`` operation or a requirement makes, told apart by ``when``."""

Effect = Annotated[
    Damage
    | Eliminate
    | Draw
    | Discard
    | Destroy
    | Heal
    | Repair
    | GainEnergy
    | PayEnergy
    | CostChange
    | ArmorBonus
    | DamageReductionBonus
    | MaxHealthBonus
    | DamageBonus
    | HandSizeBonus
    | TakeDragonBall
    | ExtraDragonBallPurchase
    | DropDragonBall
    | StealDragonBall
    | Search
    | Ready
    | Exhaust
    | AddTokens
    | RemoveTokens
    | BreakArmor
    | Summon
    | ActivateCard
    | RemoveFromMarket
    | ExtraTurn
    | Roll
    | If
    | ChooseOne,
    Field(discriminator="op"),
]
"""One operation, told apart by its ``op`` field."""

EffectList = list[Effect]
"""A list of operations applied in order."""

OPERATIONS: tuple[str, ...] = tuple(
    get_args(model.model_fields["op"].annotation)[0] for model in get_args(get_args(Effect)[0])
)
"""Every operation name, in schema order."""
