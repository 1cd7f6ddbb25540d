"""The card schema: every kind of card, board and reference card in dbdeck.

A card file is a JSON object ``{"cards": [...]}``; each card is told apart by
its ``kind`` field (villain deck cards further by ``type``). Unknown fields are
errors. These models are used only at the edges (loading, the JSON Schema);
the engine works from plain objects built from them.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from dbdeck.games.deckbuilding.cards.kinds import MARKET_OF_KIND as MARKET_OF_KIND  # re-exported
from dbdeck.games.deckbuilding.cards.kinds import (
    CardKind as CardKind,  # re-exported: a card's kind field
)
from dbdeck.games.deckbuilding.cards.kinds import Cost as Cost  # re-exported
from dbdeck.games.deckbuilding.cards.kinds import Difficulty as Difficulty  # re-exported
from dbdeck.games.deckbuilding.cards.operations import (
    AttackType,
    Condition,
    DamageKind,
    EffectList,
    MarketKind,
    Race,
    Target,
    Words,
)

CardId = Annotated[str, Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=64)]
"""A card id: lower-case words joined by hyphens, e.g. ``punch-and-kick``."""

MAX_COPIES = 100
"""The most copies of one card a set may hold (the base game's largest pile
has 18): a pack cannot make a game build an enormous deck."""


class _Model(BaseModel):
    """Common configuration: unknown fields are errors, models are frozen and
    each field's docstring becomes its description in the JSON Schema."""

    # The schema is built once, on first use, for the whole card union: building
    # it class by class at import would cost several hundred milliseconds.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class _Card(_Model):
    """Fields every card has."""

    id: CardId
    """Unique id across the whole card set."""
    name: Words = Field(min_length=1)
    """The name printed on the card."""
    text: Words = ""
    """The card's rules text in plain words."""


# --- Characters -----------------------------------------------------------------


class CostModifiers(_Model):
    """What a Character adds to the printed cost in each market; ``-`` means
    the Character cannot buy that kind of card."""

    allies: int | Literal["-"] = 0
    """Ally market modifier."""
    techniques: int | Literal["-"] = 0
    """Technique market modifier."""
    energy: int | Literal["-"] = 0
    """Energy market modifier."""
    equipment: int | Literal["-"] = 0
    """Equipment market modifier."""
    training: int | Literal["-"] = 0
    """Training market modifier."""

    def for_market(self, market: MarketKind) -> int | Literal["-"]:
        """The modifier for one market."""
        value: int | Literal["-"] = getattr(self, market)
        return value


class SpecialAbility(_Model):
    """A Character's special ability."""

    name: Words
    """The ability's name (e.g. "Super Saiyan 1")."""
    text: Words
    """What it does, in words."""
    uses: Literal["passive"] | int = "passive"
    """``passive``, or how many special-ability tokens it starts with (each
    use discards one)."""
    trigger: Literal["passive", "action", "start-of-turn", "on-attacked"] = "action"
    """When it is used: always on, as an action in the Actions phase, at the
    start of the turn, or when the Character is attacked."""
    cost: EffectList = []
    """What using it costs (discard, destroy, pay Energy …)."""
    effects: EffectList = []
    """What it does."""


class CardCount(_Model):
    """A card id with a number of copies."""

    card: CardId
    """The card's id."""
    copies: int = Field(default=1, ge=1, le=MAX_COPIES)
    """How many copies."""


class Character(_Card):
    """A Character board."""

    kind: Literal["character"]
    race: Race
    """The Character's race."""
    level: int = Field(ge=0)
    """Power Level: the Characters' levels may add up to the Villain's level at most."""
    max_health: int = Field(ge=1)
    """Maximum Health."""
    armor: int = Field(default=0, ge=0)
    """Armor printed on the board."""
    cost_modifiers: CostModifiers
    """Cost modifier for each market."""
    dragon_ball_cost: int = Field(ge=0)
    """Energy to buy an unclaimed Dragon Ball."""
    special_ability: SpecialAbility | None = None
    """The board's special ability, if any."""
    starting_cards: list[CardCount] = Field(min_length=1)
    """The starting deck: the common cards and the Character's own. The
    Allies, Equipment and Training among them begin equipped."""
    ally_versions: list[CardId] = []
    """Ally cards that show this Character; setup removes them from the Ally
    Market when this Character plays."""
    hand_size: int = Field(default=5, ge=1)
    """Maximum hand size."""


# --- Market cards ---------------------------------------------------------------


class Exclusivity(_Model):
    """Who may buy and use a card. Empty lists mean no restriction."""

    races: list[Race] = []
    """Races the card is exclusive to."""
    characters: list[CardId] = []
    """Characters the card is exclusive to."""


class _MarketCard(_Card):
    """Fields every market and starting card has."""

    cost: Cost | None = None
    """Energy cost; ``null`` for starting cards, which are never bought."""
    copies: int = Field(default=1, ge=0, le=MAX_COPIES)
    """Copies in the market deck (starting cards: copies in the box)."""
    starting: bool = False
    """A starting card (common or a Character's own), not in any market."""
    exclusive: Exclusivity = Field(default_factory=Exclusivity)
    """Race or Character exclusivity."""


class Ally(_MarketCard):
    """An Ally card (pink border)."""

    kind: Literal["ally"]
    health: int | Literal["-"]
    """Health; ``-`` counts as 1."""
    armor: int = Field(default=0, ge=0)
    """Armor."""
    race: Race
    """The Ally's race."""
    power: int = Field(ge=0)
    """Power Level."""
    pay_with: Literal["energy", "dragon-balls"] = "energy"
    """What the cost is paid in: Energy, or Dragon Balls given up to the
    unclaimed area."""
    keywords: list[Literal["search"]] = []
    """Search: takes an unclaimed Dragon Ball each time it is exhausted."""
    effects: EffectList = []
    """Benefits while in play."""
    exhaust_effects: EffectList = []
    """Effect when exhausted (once per turn)."""
    destroy_effects: EffectList = []
    """Effect when destroyed (once per game; the card leaves the game)."""
    duo: bool = False
    """A Duo card: bought over several turns (solo) or with the other
    Characters' Energy cards (co-op)."""


class Technique(_MarketCard):
    """A Technique card (blue border), Energy or Physical."""

    kind: Literal["technique"]
    technique_type: AttackType
    """Energy Techniques go on the Time Track; Physical ones resolve at once."""
    damage: int = Field(default=0, ge=0)
    """Damage the technique inflicts."""
    damage_kind: DamageKind = "basic"
    """BASIC, PIERCING or UNAVOIDABLE."""
    healing: bool = False
    """A healing technique: its damage (boosters included) heals instead
    (glossary, "Healing")."""
    time: int | None = Field(default=None, ge=0, le=4)
    """Time Track position for Energy Techniques; ``null`` for Physical ones."""
    max_boosters: int = Field(default=0, ge=0)
    """How many boosters may be attached."""
    target: Target = "chosen-enemy"
    """Who the technique hits (or heals)."""
    effects: EffectList = []
    """Effects when the technique is used."""
    combo_effects: EffectList = []
    """Effects that fire only when the technique is part of a Combo."""


class Energy(_MarketCard):
    """An Energy card (green border)."""

    kind: Literal["energy"]
    value: int = Field(ge=0)
    """Energy it gives for a purchase."""
    value_for: dict[MarketKind, int] = {}
    """Special values for one market (Combat Energy: 3 for Training)."""
    booster: EffectList | None = None
    """Booster effect; ``null`` when it cannot be attached as a booster
    (Basic Energy)."""
    effects: EffectList = []
    """A special ability unrelated to boosting."""


class Equipment(_MarketCard):
    """An Equipment card (orange border)."""

    kind: Literal["equipment"]
    keywords: list[Literal["armor"]] = []
    """Armor: only one card granting Armor can be equipped at a time."""
    effects: EffectList = []
    """Benefits while in play."""
    start_of_turn_effects: EffectList = []
    """Effects at the start of the owner's turn."""
    exhaust_effects: EffectList = []
    """Effect when exhausted."""
    destroy_effects: EffectList = []
    """Effect when destroyed."""


class TrainingReward(_Model):
    """A reward of the Room of Spirit and Time for a number of turns inside."""

    turns: int = Field(ge=1, le=4)
    """Turns spent inside (tokens on the card)."""
    text: Words
    """The reward in words."""
    effects: EffectList
    """The reward."""


class Training(_MarketCard):
    """A Training card (yellow border)."""

    kind: Literal["training"]
    requirements: list[Condition] = []
    """What must hold to have the card equipped; every condition must hold."""
    rule: Literal["block", "power-clash", "room-of-spirit-and-time"] | None = None
    """A glossary procedure the card enables."""
    effects: EffectList = []
    """Benefits while in play."""
    start_of_turn_effects: EffectList = []
    """Effects at the start of the owner's turn."""
    exhaust_effects: EffectList = []
    """Effect when exhausted."""
    destroy_effects: EffectList = []
    """Effect when destroyed."""
    rewards: list[TrainingReward] = []
    """Room of Spirit and Time rewards, by turns inside."""


class ConcentratedEnergy(_MarketCard):
    """A card of the sixth market pile: Concentrated Energy."""

    kind: Literal["concentrated-energy"]
    value: int = Field(ge=0)
    """Energy it gives for a purchase."""
    booster: EffectList | None = None
    """Booster effect; ``null`` when it cannot be attached."""


class Capsule(_MarketCard):
    """A card of the sixth market pile: the Single-Dose Capsule, used once from
    the hand and then destroyed."""

    kind: Literal["capsule"]
    effects: EffectList
    """What using it does."""


# --- Villains -------------------------------------------------------------------


class ByDifficulty(_Model):
    """A number that depends on the difficulty level."""

    easy: int = Field(ge=0)
    """Easy."""
    medium: int = Field(ge=0)
    """Medium."""
    hard: int = Field(ge=0)
    """Hard."""

    def at(self, difficulty: Difficulty) -> int:
        """The value for one difficulty."""
        value: int = getattr(self, difficulty)
        return value


class VictoryCondition(_Model):
    """One way the Villain wins."""

    condition: Literal[
        "controls-all-dragon-balls",
        "all-characters-defeated",
        "ally-market-empty",
        "card-revealed",
        "victim-killed",
    ]
    """The condition."""
    card: CardId | None = None
    """For ``card-revealed``: the card."""


class Villain(_Card):
    """A Villain board."""

    kind: Literal["villain"]
    level: int = Field(ge=0)
    """Villain Level."""
    max_health: ByDifficulty
    """Maximum Health by difficulty (for two-enemy Villains, see ``enemies``)."""
    armor: ByDifficulty
    """Armor by difficulty."""
    damage_reduction: ByDifficulty = Field(
        default_factory=lambda: ByDifficulty(easy=0, medium=0, hard=0)
    )
    """Damage Reduction by difficulty."""
    setup: Words
    """Setup steps in words."""
    victory_text: Words
    """Victory conditions in words."""
    victory: list[VictoryCondition] = Field(min_length=1)
    """Victory conditions."""
    death_effect_text: Words
    """What happens when a Character is defeated, in words."""
    death_effect: EffectList = []
    """The death effect."""
    extreme_mode: Words
    """The Extreme Mode variant in words."""
    extreme_cards: list[CardId] = []
    """Cards put into play in Extreme Mode."""
    turn_order_cards: int = Field(default=2, ge=1)
    """Turn-order cards the Villain adds to the turn-order deck."""
    deck: list[CardCount] = []
    """The Villain deck (attacks, Minions, transformations, events)."""
    side_decks: list[CardCount] = []
    """Side decks of summoned Minions (Saibamen)."""
    reference_cards: list[CardId] = []
    """Reference cards laid beside the board."""
    starting_minions: list[CardId] = []
    """Minions in play at the start (replaced by ``extreme_cards`` where the
    board says so)."""
    enemies: list[CardId] = []
    """For Villains of several enemies: the enemy cards tracking each one's
    Health."""
    starting_dragon_balls: int = Field(default=0, ge=0, le=7)
    """Dragon Balls the Villain controls at the start."""
    ally_market_size: ByDifficulty | None = None
    """Allies in the Ally Market deck by difficulty, when the Villain sets it."""
    phases: int = Field(default=1, ge=1)
    """Number of phases."""


class _VillainCard(_Card):
    """Fields every Villain deck and reference card has."""

    kind: Literal["villain-card"]
    villain: CardId
    """The Villain it belongs to."""
    phase: int | None = None
    """The Villain phase it belongs to, if the Villain has phases."""
    copies: int = Field(default=1, ge=1, le=MAX_COPIES)
    """Copies in the deck."""
    acts: list[CardId] = []
    """For Villains of several enemies: the enemy cards that use this card, in
    the order they act (Nappa before Vegeta). Empty: the Villain as a whole.
    Split cards name the enemy of each half instead."""


class Avoid(_Model):
    """The red text: what a Character may do on their turn to avoid an attack."""

    text: Words
    """The requirement in words."""
    cost: EffectList = Field(min_length=1)
    """What the Character pays (a card of that type must be in play)."""


class AttackBody(_Model):
    """What an attack does."""

    attack_type: AttackType
    """Energy attacks go on the Time Track; Physical ones resolve at once."""
    time: int | None = Field(default=None, ge=0, le=4)
    """Time Track position for Energy attacks."""
    damage: int = Field(default=0, ge=0)
    """Damage, before ``plus_power`` and ``plus_despair``."""
    damage_kind: DamageKind = "basic"
    """BASIC, PIERCING or UNAVOIDABLE."""
    plus_despair: bool = False
    """Add one damage per Despair token (+DES)."""
    plus_power: bool = False
    """Add Broly's phase base damage and Power."""
    target: Target = "chosen-enemy"
    """Who is hit; ``chosen-enemy`` means the players choose."""
    effects: EffectList = []
    """Further effects."""
    avoid: Avoid | None = None
    """The red text, if the attack can be avoided."""


class Attack(_VillainCard, AttackBody):
    """A Villain attack card."""

    type: Literal["attack"]


class MinionBody(_Model):
    """What a Minion is."""

    health: int = Field(ge=1)
    """Health."""
    armor: int = Field(default=0, ge=0)
    """Armor."""
    keywords: list[Literal["guardian", "search", "army"]] = []
    """Guardian, Search, Army."""
    effects: EffectList = []
    """Activation effect (each Villain turn, then exhausted)."""
    permanent: bool = False
    """Returns to its side deck instead of the box when eliminated (Saibamen)
    or is never removed by the deck running out."""


class Minion(_VillainCard, MinionBody):
    """A Villain Minion card."""

    type: Literal["minion"]


class SplitHalf(_Model):
    """One Android's half of a split card."""

    enemy: CardId
    """The enemy card of the Android this half belongs to."""
    name: Words
    """The half's name."""
    text: Words = ""
    """The half's text."""
    attack: AttackBody | None = None
    """The half's attack, if it is an attack."""
    minion: MinionBody | None = None
    """The half's Minion, if it brings one."""


class SplitCard(_VillainCard):
    """A card divided between two enemies (Androids 17 and 18): only the
    active enemy's half is used, or both when both are active."""

    type: Literal["split"]
    halves: list[SplitHalf] = Field(min_length=2, max_length=2)
    """The two halves."""


class Event(_VillainCard):
    """A Villain card that does something when revealed but is neither an
    attack nor a Minion (Freezer Arrives!!, Call for Help …)."""

    type: Literal["event"]
    effects: EffectList = []
    """What happens when revealed."""


class Transformation(_VillainCard):
    """A transformation: the Villain changes phase when it is revealed."""

    type: Literal["transformation"]
    to_phase: int = Field(ge=1)
    """The phase the Villain moves to."""
    armor_bonus: int = 0
    """Armor added from then on."""
    damage_bonus: int = 0
    """Damage added to each attack from then on."""
    damage_reduction_bonus: int = 0
    """Damage Reduction added from then on."""
    effects: EffectList = []
    """What happens when revealed."""


class PhaseInfo(_Model):
    """A row of a phase summary (Broly)."""

    phase: int = Field(ge=1)
    """The phase."""
    damage_above: int | None = None
    """Damage taken beyond which the Villain moves to the next phase."""
    power_at: int | None = None
    """Power at which the Villain moves to the next phase."""
    base_damage: int = 0
    """Base damage of attacks in this phase."""
    calm_cost: int | None = None
    """Energy to calm the Villain in this phase."""


class Enemy(_VillainCard):
    """A separate enemy of a several-enemy Villain (Android 17, Nappa …)."""

    type: Literal["enemy"]
    max_health: ByDifficulty
    """Maximum Health by difficulty."""
    armor: ByDifficulty
    """Armor (or Armor tokens) by difficulty."""
    damage_reduction: int = 0
    """Damage Reduction."""
    defeat_by_single_hit: ByDifficulty | None = None
    """Defeated outright by one hit of at least this much damage after Armor."""


class Reference(_VillainCard):
    """A reference or tracker card laid beside the board."""

    type: Literal["reference"]
    effects: EffectList = []
    """Effects the card applies, when it has any."""
    roll_table: EffectList = []
    """A dice table (one ``roll`` operation), when the card has one."""
    phases: list[PhaseInfo] = []
    """A phase summary, when the card has one."""
    wishes: list[Words] = []
    """Wishes in order of priority (Android 18's Wishes)."""
    characters: list[CardId] = []
    """Characters a scenario card asks for (A Different Future)."""


VillainCard = Annotated[
    (Attack | Minion | SplitCard | Event | Transformation | Enemy | Reference),
    Field(discriminator="type"),
]
"""A Villain deck, enemy or reference card, told apart by ``type``."""


# --- Locations ------------------------------------------------------------------


class Location(_Card):
    """A Location card."""

    kind: Literal["location"]
    setup_effects: EffectList = []
    """Applied once during setup."""
    effects: EffectList = []
    """Applied while the game lasts."""
    character_turn_start: EffectList = []
    """Applied at the start of every Character turn, to the active Character."""
    villain_turn_start: EffectList = []
    """Applied at the start of every Villain turn."""


Card = Annotated[
    Character
    | Ally
    | Technique
    | Energy
    | Equipment
    | Training
    | ConcentratedEnergy
    | Capsule
    | Villain
    | VillainCard
    | Location,
    Field(discriminator="kind"),
]
"""Any card of the set, told apart by ``kind``."""

MarketCard = Ally | Technique | Energy | Equipment | Training | ConcentratedEnergy | Capsule
"""Cards that can sit in a market or a starting deck."""


class CardFile(_Model):
    """A card file: a list of cards."""

    schema_: str | None = Field(default=None, alias="$schema")
    """Optional path or URL of the JSON Schema, for editors."""
    cards: list[Card]
    """The cards."""
