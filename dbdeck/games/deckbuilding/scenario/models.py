"""The deckbuilding game's scenario file, as checked models.

A scenario is checked whole before anything runs: known keys, value types
and ranges, card ids the catalog knows and of the kind each place holds (a
Villain's card must belong to the scenario's Villain). The runner then
reads these models, never the raw data. What only the game set up can tell
(its Characters, its turn-order cards) is checked by ``fits``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    ModelWrapValidatorHandler,
    PrivateAttr,
    Tag,
    ValidationInfo,
    model_validator,
)

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.cards.operations import Duration
from dbdeck.games.deckbuilding.engine import zones
from dbdeck.games.deckbuilding.engine.actions import ACTION_TYPES
from dbdeck.scenarios import MAX_STEPS

__all__ = [
    "ActionSpec",
    "BonusSpec",
    "CharacterSpec",
    "HalfSpec",
    "MarketDamageSpec",
    "ScenarioSpec",
    "SetupSpec",
    "Spec",
    "StepSpec",
    "TableSpec",
    "VillainSpec",
    "clip",
]


_PLAYER_KINDS = (
    "ally",
    "technique",
    "energy",
    "equipment",
    "training",
    "concentrated-energy",
    "capsule",
)
_VILLAIN_DECK_TYPES = ("attack", "minion", "split", "event", "transformation")


def clip(text: str, width: int = 64) -> str:
    """``text`` cut to ``width`` characters (a hostile id can be long)."""
    return text if len(text) <= width else text[: width - 1] + "…"


def _card(*kinds: str, empty: bool = False) -> AfterValidator:
    """A card id the catalog (in the validation context) knows, of one of
    ``kinds`` (any kind when none given); a Villain's card must belong to
    the game's Villain. With ``empty``, ``""`` and ``"-"`` (an empty Time
    Track slot) pass too."""

    def check(value: str, info: ValidationInfo) -> str:
        if empty and value in ("", "-"):
            return value
        context = info.context if isinstance(info.context, dict) else {}
        catalog = context.get("catalog")
        if not isinstance(catalog, Catalog):
            return value
        card = catalog.cards.get(value)
        if card is None:
            raise ValueError(f"unknown card {clip(value)!r}")
        kind = card.type if card.kind == "villain-card" else card.kind
        if kinds and kind not in kinds:
            raise ValueError(f"{value!r} is a {kind}, expected {' or '.join(kinds)}")
        villain = context.get("villain")
        if card.kind == "villain-card" and villain is not None and card.villain != villain:
            raise ValueError(f"{value!r} is a card of {card.villain!r}, not of {villain!r}")
        return value

    return AfterValidator(check)


def _one_of(what: str, allowed: Iterable[str]) -> AfterValidator:
    choices = tuple(allowed)

    def check(value: str) -> str:
        if value not in choices:
            raise ValueError(
                f"unknown {what} {clip(value)!r}; expected one of {', '.join(choices)}"
            )
        return value

    return AfterValidator(check)


def _tagger(**tags: type) -> Callable[[Any], str | None]:
    """A discriminator telling union members apart by the value's Python
    type, so a wrong value gets one clear error rather than one per member."""

    def tag(value: Any) -> str | None:
        for name, kind in tags.items():
            if isinstance(value, kind):
                return name
        return None

    return tag


_Count = Annotated[int, Field(ge=0, le=10_000)]
_Signed = Annotated[int, Field(ge=-10_000, le=10_000)]
_Balls = Annotated[int, Field(ge=0, le=7)]
_Uid = Annotated[int, Field(ge=0)]
_AnyCard = Annotated[str, _card()]
_PlayerCard = Annotated[str, _card(*_PLAYER_KINDS)]
_AttackCard = Annotated[str, _card("attack", "split")]
_EnemyCard = Annotated[str, _card("enemy")]
_Market = Annotated[str, _one_of("market", zones.MARKETS)]


def _allies_apart(rows: dict[str, list[str]], info: ValidationInfo) -> dict[str, list[str]]:
    """The Ally Market holds only Allies, and no other market an Ally: the
    engine reads every card of the Ally Market as an Ally (and a laid table
    must be one the game can reach)."""
    context = info.context if isinstance(info.context, dict) else {}
    catalog = context.get("catalog")
    if not isinstance(catalog, Catalog):
        return rows
    for market, cards in rows.items():
        for card in cards:
            kind = catalog.cards[card].kind
            if market == "allies" and kind != "ally":
                raise ValueError(
                    f"the allies market holds only Allies, not {clip(card)!r} ({kind})"
                )
            if market != "allies" and kind == "ally":
                raise ValueError(f"the {market} market holds no Ally, not {clip(card)!r}")
    return rows


_MarketRows = Annotated[dict[_Market, list[_PlayerCard]], AfterValidator(_allies_apart)]
_CardOrUid = Annotated[
    Annotated[_AnyCard, Tag("id")] | Annotated[_Uid, Tag("uid")],
    Discriminator(
        _tagger(id=str, uid=int),
        custom_error_type="card_ref",
        custom_error_message="expected a card id or a card instance number",
    ),
]


class Spec(BaseModel):
    """A part of a scenario file: strict (a value has exactly the TOML type
    named) and closed (an unknown key is refused)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class SetupSpec(Spec):
    """``[setup]``: a new game's setup, and the chance scripted from the table on."""

    villain: str
    characters: list[str]
    difficulty: str | None = None
    extreme: bool | None = None
    location: str | None = None
    seed: Annotated[int, Field(ge=-(2**63), lt=2**63)] | None = None
    seats: list[Annotated[int, Field(ge=0, le=64)]] | None = None
    starting_ally: str | None = None
    ignore_levels: bool | None = None
    variant: str | None = None
    rolls: list[_Signed] | None = None
    picks: list[_AnyCard] | None = None
    shuffles: list[list[str]] | None = None


_BONUS_KINDS = (
    "armor",
    "damage-reduction",
    "max-health",
    "damage",
    "hand-size",
    "extra-dragon-ball",
    *(f"cost:{m}" for m in (*zones.MARKETS, "dragon-ball", "sixth", "any")),
)


class BonusSpec(Spec):
    """A temporary bonus a Character holds."""

    kind: Annotated[str, _one_of("bonus", _BONUS_KINDS)]
    amount: _Signed
    duration: Duration
    attack: Annotated[str, _one_of("attack kind", ("physical", "energy"))] | None = None
    until: Annotated[str, Field(max_length=64)] | None = None
    """An ``until-your-next-turn`` bonus another Character gave: that
    Character, whose next turn ends it."""


_TimeSlots = Field(min_length=4, max_length=4)


class CharacterSpec(Spec):
    """``[table.characters.ID]``: what one Character holds; each pile listed
    replaces the one setup dealt."""

    hand: list[_PlayerCard] | None = None
    deck: list[_PlayerCard] | None = None
    discard: list[_PlayerCard] | None = None
    allies: list[Annotated[str, _card("ally")]] | None = None
    equipment: list[Annotated[str, _card("equipment")]] | None = None
    training: list[Annotated[str, _card("training")]] | None = None
    time_track: (
        Annotated[list[Annotated[str, _card("technique", empty=True)]], _TimeSlots] | None
    ) = None
    damage: _Count | None = None
    energy: _Count | None = None
    ability_tokens: _Count | None = None
    training_energy: _Count | None = None
    dragon_balls: _Balls | None = None
    bonuses: list[BonusSpec] | None = None
    defeated: bool | None = None
    ally_damage: list[_Count] | None = None
    exhausted: list[_PlayerCard] | None = None
    room_tokens: Annotated[int, Field(ge=1, le=4)] | None = None


class HalfSpec(Spec):
    """The half of a split card one enemy prepared."""

    card: _AttackCard
    owner: _EnemyCard


_Prepared = Annotated[
    Annotated[_AttackCard, Tag("id")] | Annotated[HalfSpec, Tag("half")],
    Discriminator(
        _tagger(id=str, half=dict),
        custom_error_type="prepared",
        custom_error_message="expected a card id or {card, owner}",
    ),
]
_SideDeck = Annotated[
    Annotated[list[Annotated[str, _card("minion", "ally")]], Tag("cards")]
    | Annotated[Annotated[int, Field(ge=0, le=100)], Tag("count")],
    Discriminator(
        _tagger(cards=list, count=int),
        custom_error_type="side_deck",
        custom_error_message="expected a list of card ids or a number of copies",
    ),
]


class VillainSpec(Spec):
    """``[table.villain]``: the Villain's board, Minions, piles and tokens."""

    damage: _Count | None = None
    phase: Annotated[int, Field(ge=1, le=9)] | None = None
    arrived: bool | None = None
    minions: list[Annotated[str, _card("minion")]] | None = None
    deck: list[Annotated[str, _card(*_VILLAIN_DECK_TYPES)]] | None = None
    time_track: Annotated[list[list[_Prepared]], _TimeSlots] | None = None
    enemy_damage: dict[_EnemyCard, _Count] | None = None
    defeated_enemies: list[_EnemyCard] | None = None
    tokens: dict[str, _Signed] | None = None
    side_decks: dict[Annotated[str, _card("minion", "reference")], _SideDeck] | None = None
    dragon_balls: _Balls | None = None
    aggro: str | None = None
    minion_damage: list[_Count] | None = None
    exhausted_minions: list[Annotated[str, _card("minion")]] | None = None
    discard: list[Annotated[str, _card(*_VILLAIN_DECK_TYPES)]] | None = None
    armor_bonus: _Signed | None = None
    damage_bonus: _Signed | None = None
    damage_reduction_bonus: _Signed | None = None


class MarketDamageSpec(Spec):
    """Damage on the face-up cards of a market row."""

    allies: list[_Count] | None = None


class TableSpec(Spec):
    """``[table]``: the table laid out by hand after setup."""

    clean: bool | None = None
    active: str | None = None
    turn_deck: list[str] | None = None
    revealed: str | None = None
    characters: dict[str, CharacterSpec] | None = None
    villain: VillainSpec | None = None
    markets: _MarketRows | None = None
    market_decks: _MarketRows | None = None
    market_damage: MarketDamageSpec | None = None
    sixth: list[Annotated[str, _card("concentrated-energy")]] | None = None
    box: list[_AnyCard] | None = None
    eliminated: list[Annotated[str, _card("ally")]] | None = None
    dragon_balls: dict[str, _Balls] | None = None


class ActionSpec(Spec):
    """An engine action whose cards may be named by id (``naming`` finds
    the instances)."""

    type: Annotated[str, _one_of("action type", ACTION_TYPES)]
    card: _CardOrUid | None = None
    cards: list[_CardOrUid] | None = None
    on: _CardOrUid | None = None
    target: str | None = None
    source: str | None = None
    market: str | None = None
    slot: _Signed | None = None
    amount: _Signed | None = None
    option: _Signed | None = None
    label: str | None = None
    _written: tuple[str, ...] = PrivateAttr(default=())

    @model_validator(mode="wrap")
    @classmethod
    def _keep_order(cls, data: Any, handler: ModelWrapValidatorHandler[ActionSpec]) -> ActionSpec:
        spec = handler(data)
        if isinstance(data, dict):
            spec._written = tuple(data)
        return spec

    def as_written(self) -> dict[str, Any]:
        """The fields the file gave, in its order: the engine reads an
        action's fields in order, and names the first that does not fit."""
        return {name: getattr(self, name) for name in self._written}


class StepSpec(Spec):
    """``[[steps]]``: scripted chance, an action, and what must hold after it."""

    rolls: list[_Signed] | None = None
    picks: list[_AnyCard] | None = None
    shuffles: list[list[str]] | None = None
    action: ActionSpec | None = None
    expect_error: str | None = None
    expect_log: list[str] | None = None
    expect_log_order: list[str] | None = None
    expect: dict[str, Any] | None = None
    contains: dict[str, list[Any]] | None = None
    lacks: dict[str, list[Any]] | None = None
    equals_set: dict[str, list[Any]] | None = None


class ScenarioSpec(Spec):
    """A whole scenario file of the deckbuilding game (its ``game`` key aside)."""

    name: str | None = None
    rulebook: str | None = None
    expect_setup_error: str | None = None
    setup: SetupSpec
    table: TableSpec | None = None
    steps: Annotated[list[StepSpec], Field(max_length=MAX_STEPS)] | None = None
