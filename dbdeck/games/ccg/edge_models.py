"""The CCG table's pydantic edge: a setup, an action, a view and an offer
read from JSON (a save, the wire, a scenario), typed and bounded.

An action is exactly its kind's fields: a field its kind does not use is
refused, as is a value out of bounds. Imported only when something is read.
"""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

from dbdeck.games.ccg.attack_table import MAX_POWER
from dbdeck.games.ccg.deckfile import MAX_LINE
from dbdeck.games.ccg.models import (
    Alignment,
    CardId,
    CardType,
    DragonBallId,
    Name,
    PhysicalAttackTableFile,
    Title,
)
from dbdeck.games.ccg.table.actions import ACTION_KINDS, Action
from dbdeck.games.ccg.table.card_facts import MAX_LADDER, MAX_RECORDED_CARDS
from dbdeck.games.ccg.table.view import Offer, TableView
from dbdeck.games.ccg.titles import fold
from dbdeck.packs.printable import PRINTABLE_PATTERN

__all__ = ["CardFactsModel", "SetupModel", "read_action", "read_offer", "read_view"]

MAX_DECK_TEXT = 256 * 1024
"""The largest deck file a setup carries (as the deck reader allows)."""

PlayerName = Annotated[str, Field(min_length=1, max_length=40, pattern=PRINTABLE_PATTERN)]

Power = Annotated[int, Field(ge=0, le=MAX_POWER)]


class CardFactsModel(BaseModel):
    """What the table reads of one card, recorded when the table was set up
    (rules notes, T10). No card text: the packs keep it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    written: str = Field(min_length=1, max_length=MAX_LINE, pattern=PRINTABLE_PATTERN)
    """The title as a deck file writes it."""
    title: Title
    """The card's title."""
    card_id: CardId | Literal[""] = ""
    """The library's id of the card."""
    type: CardType | None = None
    """The card's type, when known."""
    personality: Name | None = None
    """For a personality card: whose."""
    level: int | None = Field(default=None, ge=1, le=9)
    """For a personality card: its (highest) level."""
    alignment: Alignment | None = None
    """For a personality card: its alignment under the setup's profile."""
    dragon_ball: DragonBallId | None = None
    """For a Dragon Ball: which one."""
    pur: int | None = Field(default=None, ge=0, le=20)
    """A personality's Power Up Rating."""
    ladder: list[Power] = Field(default=[], max_length=MAX_LADDER)
    """A personality's power ratings from stage 0 (empty: none given)."""
    fusion: bool | None = None
    """Whether a pack says the card is a Fusion personality (absent: no pack
    says)."""

    @model_validator(mode="after")
    def _from_stage_0(self) -> CardFactsModel:
        if self.ladder and self.ladder[0] != 0:
            raise ValueError(
                f"the ladder starts at stage 0, whose power is 0, not {self.ladder[0]}"
            )
        return self


class SetupModel(BaseModel):
    """A CCG table's setup."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    players: tuple[PlayerName, PlayerName]
    """The two players' names, seat 0 first."""
    decks: tuple[
        Annotated[str, Field(max_length=MAX_DECK_TEXT)],
        Annotated[str, Field(max_length=MAX_DECK_TEXT)],
    ]
    """Each player's deck file, as text."""
    profile: Literal["errata-2001", "saiyan-2000", "digest"] = "errata-2001"
    """The rules profile."""
    adjudication: Literal["off", "suggest", "apply"] = "apply"
    """How far the table applies the rules."""
    seed: int = Field(default=0, ge=0, le=2**63 - 1)
    """The seed of the table's chance (shuffles, cuts)."""
    allow_illegal: bool = False
    """Seat a deck the checker finds illegal."""
    attack_table: PhysicalAttackTableFile | None = None
    """The user's Physical Attack Table (absent: the players give each
    physical attack's stage damage)."""
    card_facts: list[CardFactsModel] | None = Field(default=None, max_length=MAX_RECORDED_CARDS)
    """What the table reads of each card of both decks, recorded when the
    table was set up (absent, in a setup written before: the packs give it)."""

    @field_validator("card_facts")
    @classmethod
    def _one_record_per_title(
        cls, cards: list[CardFactsModel] | None
    ) -> list[CardFactsModel] | None:
        seen: set[str] = set()
        for card in cards or ():
            key = fold(card.written)
            if key in seen:
                raise ValueError(f"a second record of the title {card.written!r}")
            seen.add(key)
        return cards


_INT = Annotated[int, Field(ge=-1_000_000, le=1_000_000)]


@cache
def _adapter(kind: str) -> TypeAdapter[Any]:
    return TypeAdapter(ACTION_KINDS[kind])


def read_action(data: Any) -> Action:
    """An action from JSON data; ``ValueError`` saying what is wrong."""
    if not isinstance(data, dict):
        raise ValueError("not an action: an action is a JSON object")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in ACTION_KINDS:
        raise ValueError(
            f"not an action: kind {kind!r} is none of {', '.join(sorted(ACTION_KINDS))}"
        )
    cls = ACTION_KINDS[kind]
    names = {f.name for f in dataclasses.fields(cls)}
    extra = sorted(set(data) - names - {"kind"})
    if extra:
        raise ValueError(f"not an action: {kind} has no field {extra[0]!r}")
    fields = {k: v for k, v in data.items() if k != "kind"}
    for name, value in fields.items():
        values = value if isinstance(value, list | tuple) else [value]
        if isinstance(value, list | tuple) and len(value) > 60:
            raise ValueError(f"not an action: {kind}.{name} holds more than 60 values")
        for item in values:
            if isinstance(item, int) and not isinstance(item, bool):
                _check_int(kind, name, item)
            if isinstance(item, str) and len(item) > 200:
                raise ValueError(f"not an action: {kind}.{name} is longer than 200 characters")
    try:
        action: Action = _adapter(kind).validate_python(fields, strict=False)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ValueError(f"not an action: {kind}.{where}: {first['msg']}") from None
    if isinstance(data.get("cards"), list):
        action = dataclasses.replace(action, cards=tuple(data["cards"]))  # type: ignore[call-arg]
    return action


def _check_int(kind: str, name: str, value: int) -> None:
    try:
        TypeAdapter(_INT).validate_python(value)
    except ValidationError:
        raise ValueError(f"not an action: {kind}.{name} is out of bounds") from None


@cache
def _view_adapter() -> TypeAdapter[TableView]:
    return TypeAdapter(TableView)


def read_view(data: Any) -> TableView:
    """A seat's view as the wire sent it; ``ValueError`` when it is not one."""
    try:
        return _view_adapter().validate_python(data)
    except ValidationError as exc:
        raise ValueError(f"not a CCG table view: {exc.errors()[0]['msg']}") from None


def read_offer(data: Any) -> Offer:
    """An offer as the wire sent it; ``ValueError`` when it is not one."""
    if not isinstance(data, dict) or set(data) != {"action", "label", "group"}:
        raise ValueError("not an offer: an offer has an action, a label and a group")
    label, group = data["label"], data["group"]
    if not isinstance(label, str) or not isinstance(group, str) or len(label) > 300:
        raise ValueError("not an offer: its label and group are short texts")
    return Offer(action=read_action(data["action"]), label=label, group=group)
