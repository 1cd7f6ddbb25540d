"""The pydantic edge of the CCG: shipped card identities, characters,
reference lists and rulings, and the user's CCG card packs.

Every CCG data file ends with ``.ccg.json`` and is a JSON object whose list
field holds the records; unknown fields are errors. The shipped identities
hold only what the source documents say of a card (title, saga, number, type,
personality and level, alignment, whether it is a Dragon Ball): no card text,
power ladder or PUR. A user's pack adds those (``PackCard``). The checker
never sees these models: ``dbdeck.games.ccg.library`` turns them into plain records.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from dbdeck.games.ccg.attack_table import MAX_BANDS, MAX_POWER, MAX_STAGE_DAMAGE
from dbdeck.games.ccg.kinds import Alignment, CardType
from dbdeck.games.ccg.titles import Style
from dbdeck.packs.printable import PRINTABLE_PATTERN

__all__ = [
    "Alignment",
    "AnyPersonality",
    "CardType",
    "CharacterFact",
    "CharacterFile",
    "DragonBallId",
    "Identity",
    "IdentityFile",
    "LimitOne",
    "ListFile",
    "NotDragonBall",
    "NotDrill",
    "Only",
    "PackCard",
    "PackFile",
    "PhysicalAttackTableFile",
    "PlayRuling",
    "ReferenceList",
    "RestrictedDrill",
    "Ruling",
    "RulingFact",
    "RulingFile",
    "TypeCorrection",
]

CardId = Annotated[str, Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=80)]
"""A card id: lower-case words joined by hyphens, e.g. ``earth-dragon-ball-3``."""

Title = Annotated[str, Field(min_length=1, max_length=120, pattern=PRINTABLE_PATTERN)]
"""A card title as printed (or as a source document writes it)."""

Name = Annotated[str, Field(min_length=1, max_length=60, pattern=PRINTABLE_PATTERN)]
"""A personality's name, e.g. ``Goku`` or ``Cell Jr. 1``."""

Saga = Annotated[str, Field(pattern=r"^[A-Z][A-Za-z'. -]{0,39}$")]
"""A saga, without the word "Saga": ``Saiyan``, ``Frieza``, ``Trunks``, ``Android`` …"""

Number = Annotated[str, Field(pattern=r"^(?:[0-9]{1,4}|Promo [0-9]{1,3}|Preview [0-9]{1,3})$")]
"""A card's number in its saga: ``75``, ``Promo 1`` or ``Preview 1``."""

Note = Annotated[str, Field(min_length=1, max_length=400, pattern=PRINTABLE_PATTERN)]
"""A short note in dbdeck's own words."""

Citation = Annotated[str, Field(min_length=1, max_length=200, pattern=PRINTABLE_PATTERN)]
"""Where a fact comes from, e.g. ``Errata 7 June 2001, Saiyan #43``."""


class _Model(BaseModel):
    """Unknown fields are errors; records are frozen; a field's docstring is
    its description in the JSON Schema."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class DragonBallId(_Model):
    """Which Dragon Ball a card is."""

    set: Literal["Earth", "Namek"]
    """Earth's seven balls, or Namek's (an expansion)."""
    number: int = Field(ge=1, le=7)
    """The ball's number, 1 to 7."""


class _CardFacts(_Model):
    """What identifies a card, shipped or from a pack."""

    id: CardId
    """Unique id across the shipped identities and every pack."""
    title: Title
    """The title as printed. Personality cards read ``NAME Level N`` (or the
    printed title, e.g. ``Trunks, the Hero Level 4``)."""
    saga: Saga | None = None
    """The saga (set) the card belongs to, when known."""
    number: Number | None = None
    """The card's number in its saga, when known."""
    type: CardType | None = None
    """The card's type, when known."""
    personality: Name | None = None
    """For a personality card: whose (``Goku``)."""
    level: int | None = Field(default=None, ge=1, le=9)
    """For a personality card: its level (the lowest one of a multi-level card)."""
    alignment: Alignment | None = None
    """For a personality card: hero or villain, when the card itself says;
    otherwise the character's alignment applies."""
    style: Style | None = None
    """The martial arts style, which is always the title's first word; given
    or not, it must agree with the title."""
    dragon_ball: DragonBallId | None = None
    """For a Dragon Ball: which one. Absent: the card is no Dragon Ball,
    whatever its title says."""
    also_written: list[Title] = Field(default=[], max_length=20)
    """Other spellings of the title that deck files may use."""


class Identity(_CardFacts):
    """A card the source documents name: what they say of it, nothing printed."""

    seen_in: list[Citation] = Field(min_length=1, max_length=20)
    """Where the source documents name the card."""
    other_numbers: list[Number] = Field(default=[], max_length=5)
    """Numbers another source gives for the same card (deck files may use them)."""
    notes: list[Note] = Field(default=[], max_length=10)
    """What else the sources say or imply, and which facts are implied."""


class PackCard(_CardFacts):
    """A card of a user's pack: a new card, or more facts for a shipped
    identity of the same ``id`` (same title). What a pack gives overrides the
    shipped identity; the rulings of 7 June 2001 still apply over both."""

    pur: int | None = Field(default=None, ge=0, le=20)
    """A personality's Power Up Rating."""
    power_stages: list[Annotated[int, Field(ge=0, le=MAX_POWER)]] = Field(default=[], max_length=30)
    """A personality's power stage ladder, lowest to highest (each power 0
    or more)."""
    endurance: int | None = Field(default=None, ge=0, le=20)
    """Endurance printed on the card."""
    text: str = Field(default="", max_length=2000, pattern=PRINTABLE_PATTERN)
    """The card's rules text as printed. From the Frieza Saga on, a
    personality named anywhere in it makes the card named for that
    personality; "limit 1 per deck" in it limits the copies."""
    levels: list[int] = Field(default=[], max_length=9)
    """Every level printed on a multi-level High-Tech personality card."""
    high_tech: bool = False
    """A High-Tech version of a personality card."""
    fusion: bool = False
    """A Fusion personality (may start in a Sensei Deck)."""
    sensei_capacity: int | None = Field(default=None, ge=0, le=60)
    """For a Sensei card: how many cards its Sensei Deck may hold."""
    for_sensei_deck: bool = False
    """The card is marked for use in a Sensei Deck."""
    only: list[Name] = Field(default=[], max_length=10)
    """Who may use the card: personality names, ``Heroes``, ``Villains``,
    ``Saiyan Heritage`` or ``Namekian Heritage`` (its "… only" text)."""
    limit_one_per_deck: bool = False
    """The card says "limit 1 per deck"."""
    unless_main_personality: Name | None = None
    """With ``limit_one_per_deck``: the Main Personality the limit spares."""
    battle_simulator: bool = False
    """"Battle Simulator" is printed on the card in block text."""
    starter_kid_trunks_ally: bool = False
    """The Kid Trunks Ally of a starter deck (removed by the digest's rule)."""


class IdentityFile(_Model):
    """A file of shipped card identities."""

    schema_: str | None = Field(default=None, alias="$schema")
    """Optional path or URL of the JSON Schema, for editors."""
    cards: list[Identity]
    """The identities."""


class PackFile(_Model):
    """A CCG card pack file (``*.ccg.json``): ``{"cards": [...]}``."""

    schema_: str | None = Field(default=None, alias="$schema")
    """Optional path or URL of the JSON Schema, for editors."""
    cards: list[PackCard] = Field(max_length=5000)
    """The cards."""


Bound = Annotated[int, Field(ge=0, le=MAX_POWER)]
"""The highest power rating a band of the Physical Attack Table holds."""


class PhysicalAttackTableFile(_Model):
    """A Physical Attack Table (``physical-attack-table.ccg.json`` in a pack
    folder, or the file ``--attack-table`` names): bands of the attacker's
    power against bands of the defender's power, giving the stages of
    damage. Band ``i`` holds the powers above bound ``i - 1`` (from 0 for
    the first) up to and including bound ``i``. The rulebook's "attacking
    with a power stage of 1000 … defending with 1500. That's a 1" is an
    entry 1 in the row of the band holding 1000 and the column of the band
    holding 1500."""

    schema_: str | None = Field(default=None, alias="$schema")
    """Optional path or URL of the JSON Schema, for editors."""
    title: str = Field(default="", max_length=120, pattern=PRINTABLE_PATTERN)
    """What the table is (which printing, whose), shown with it."""
    attacker_up_to: list[Bound | None] = Field(min_length=1, max_length=MAX_BANDS)
    """The attacker's bands, lowest first, each by the highest power it
    holds, rising; ``null`` as the last makes the last band hold every
    higher power. A power above every bound is off the table."""
    defender_up_to: list[Bound | None] = Field(min_length=1, max_length=MAX_BANDS)
    """The defender's bands, lowest first, as ``attacker_up_to``."""
    damage: list[
        Annotated[
            list[Annotated[int, Field(ge=0, le=MAX_STAGE_DAMAGE)]],
            Field(min_length=1, max_length=MAX_BANDS),
        ]
    ] = Field(min_length=1, max_length=MAX_BANDS)
    """The stages of damage: one row per attacker band (in the order of
    ``attacker_up_to``), each with one entry per defender band (in the order
    of ``defender_up_to``)."""


class CharacterFact(_Model):
    """A personality the sources name, with its alignment when they state or
    imply it."""

    name: Name
    """The personality's name as its cards give it."""
    alignment: Alignment | None
    """Hero or villain (``None``: the sources do not say)."""
    source: Citation
    """Why the alignment is what it is."""
    named_in: list[Citation] = Field(min_length=1)
    """Where the sources name the personality."""


class CharacterFile(_Model):
    """The file of personalities."""

    characters: list[CharacterFact]
    """The personalities."""


class ReferenceList(_Model):
    """A list one of the rule profiles reads: banned cards, Heritage, Rogues …"""

    id: CardId
    """The list's id, which the profiles name."""
    title: str = Field(min_length=1, max_length=100, pattern=PRINTABLE_PATTERN)
    """What the list is, in words."""
    source: Citation
    """Where the list comes from."""
    of: Literal["cards", "characters"]
    """Whether the entries are card ids or personality names."""
    entries: list[Annotated[str, Field(max_length=120, pattern=PRINTABLE_PATTERN)]] = Field(
        max_length=100
    )
    """The members."""
    pairs: list[tuple[Name, Name]] = []
    """For the separate-characters list: pairs of characters kept apart."""
    notes: list[Note] = []
    """How dbdeck reads the list."""


class ListFile(_Model):
    """The file of reference lists."""

    lists: list[ReferenceList]
    """The lists."""


class TypeCorrection(_Model):
    """The ruling gives the card another type than the one printed."""

    fact: Literal["type"]
    type: CardType
    """The card's type under the ruling."""
    was: CardType | None = None
    """The type printed, when the ruling says."""


class LimitOne(_Model):
    """The ruling makes the card "limit 1 per deck"."""

    fact: Literal["limit-one"]
    unless_main_personality: Name | None = None
    """The Main Personality for whom the limit does not hold."""


class Only(_Model):
    """The ruling says who may use the card."""

    fact: Literal["only"]
    who: list[Name] = Field(min_length=1)
    """Personality names, ``Heroes``, ``Villains``, ``Saiyan Heritage`` or
    ``Namekian Heritage``."""


class NotDragonBall(_Model):
    """The ruling says the card is no Dragon Ball, whatever its title."""

    fact: Literal["not-dragon-ball"]


class NotDrill(_Model):
    """The ruling says the card is no Drill, whatever its title."""

    fact: Literal["not-drill"]


class RestrictedDrill(_Model):
    """A restricted Drill: it cannot be used with other Drills of its style in
    play ("Drill Cards 5")."""

    fact: Literal["restricted-drill"]


class AnyPersonality(_Model):
    """The ruling says any personality may use the card (and get its effects)."""

    fact: Literal["any-personality"]


class PlayRuling(_Model):
    """How the card plays; nothing for building a deck."""

    fact: Literal["play"]


RulingFact = Annotated[
    TypeCorrection
    | LimitOne
    | Only
    | NotDragonBall
    | NotDrill
    | RestrictedDrill
    | AnyPersonality
    | PlayRuling,
    Field(discriminator="fact"),
]
"""One fact a ruling establishes."""


class Ruling(_Model):
    """A ruling of 7 June 2001 on one card, summarised in dbdeck's words."""

    card: CardId
    """The card it rules on."""
    source: Citation
    """``Errata 7 June 2001, Saiyan #43`` and the like."""
    summary: Note
    """What the ruling does, in dbdeck's words (no card text)."""
    facts: list[RulingFact] = Field(min_length=1)
    """What it establishes."""


class RulingFile(_Model):
    """The file of rulings."""

    rulings: list[Ruling]
    """The rulings."""
