"""The ``TableView``: what one seat may see of a game, as plain values.

One frozen, slotted dataclass per board element (the Villain board, each
Character board with its Time Track, the six markets, the hand, the turn
order, the Dragon Balls, the pending decision and the log), every number
already computed by the engine. These types import nothing of the rules:
a front end that draws them cannot reach the game. ``dbdeck.games.deckbuilding.engine.view``
builds them (``seat_view``); ``TableView.to_json`` / ``from_json`` carry
them across the wire.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, get_args

from dbdeck.games.deckbuilding.cards.kinds import MARKET_OF_KIND
from dbdeck.games.deckbuilding.engine.actions import Action, action_from_json
from dbdeck.tabletop.game import LogLine

if TYPE_CHECKING:
    from pydantic import TypeAdapter

__all__ = [
    "GROUPS",
    "HIDDEN",
    "MARKET_ORDER",
    "MARKET_TITLES",
    "BallView",
    "CardNote",
    "CardView",
    "CharacterPanel",
    "DecisionPanel",
    "EnemyView",
    "HandView",
    "Health",
    "LogLine",
    "MarketCard",
    "MarketName",
    "MarketPanel",
    "MinionView",
    "Offer",
    "OptionView",
    "PreparedView",
    "SideDeckView",
    "TableView",
    "TurnOrderPanel",
    "UnitView",
    "VillainPanel",
    "WhyNot",
    "market_of",
]

HIDDEN = -1
"""The uid a seat is given in place of a card it may not see."""

MarketName = Literal["allies", "techniques", "energy", "equipment", "training", "sixth"]
"""One of the six purchase markets (``sixth``: the sixth pile)."""

MARKET_ORDER: tuple[str, ...] = get_args(MarketName)
"""The six purchase markets, in the order the table shows them."""

MARKET_TITLES = {
    "allies": "Allies",
    "techniques": "Techniques",
    "energy": "Energy",
    "equipment": "Equipment",
    "training": "Training",
    "sixth": "Concentrated Energy",
}
"""Each market's name as the table shows it."""


GROUPS = (
    ("Attack", ("attack",)),
    ("Prepare", ("prepare", "boost")),
    ("Energy", ("play-energy",)),
    ("Buy", ("buy", "buy-dragon-ball", "duo-invest")),
    ("Play", ("play", "exhaust", "destroy", "ability")),
    ("Dragon Balls", ("steal", "give-ball")),
    ("Defend", ("avoid", "villain-action")),
    ("Before actions", ("market-discard",)),
    ("Room", ("enter-room",)),
    ("Turn", ("end-turn",)),
)
"""Action kinds by group, in the order the action list shows them."""


# --- the panels ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Health:
    """Remaining and Maximum Health, as the rules count them."""

    remaining: int
    maximum: int

    @property
    def damage(self) -> int:
        """Damage taken (never more than the Maximum Health)."""
        return self.maximum - self.remaining


@dataclass(frozen=True, slots=True)
class CardView:
    """A face-up card: its instance uid (what actions name), its card id
    (for the catalog's printed text), its name, and its printed facts in
    the few words a tile shows (from the card alone: a seat is given them
    only for a card it sees)."""

    uid: int
    card: str
    name: str
    kind: str = ""
    """The card's kind (``technique``, ``energy``, ``ally``,
    ``villain-card`` …): which market's colour it wears."""
    facts: str = ""
    """Its printed facts, short: ``P1``, ``E2 T1``, ``+1``, ``Ally``."""
    attack: str = ""
    """Its printed Damage and kind as a Time Track shows it: ``3E``, ``2P
    PIERCING``; empty for a card that deals no damage."""
    physical: bool = False
    """Whether it is a Physical Technique (one that may join a Combo)."""


@dataclass(frozen=True, slots=True)
class UnitView:
    """An Ally, Equipment or Training card in play beside a board."""

    card: CardView
    exhausted: bool = False
    health: Health | None = None
    """An Ally's health; ``None`` for Equipment and Training."""
    balls: int = 0
    tokens: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class PreparedView:
    """An Energy Technique on a Time Track, with its boosters beneath it."""

    card: CardView
    boosters: tuple[CardView, ...] = ()


@dataclass(frozen=True, slots=True)
class EnemyView:
    """One enemy of a Villain of several enemies (the Androids)."""

    key: str
    name: str
    health: Health
    armor: int
    damage_reduction: int
    defeated: bool
    balls: int = 0


@dataclass(frozen=True, slots=True)
class MinionView:
    """A Minion in play."""

    key: str
    card: CardView
    health: Health
    armor: int
    keywords: tuple[str, ...] = ()
    exhausted: bool = False
    balls: int = 0


@dataclass(frozen=True, slots=True)
class SideDeckView:
    """A pile beside the Villain board: a face-down deck (a count) or a
    tracker card whose cards lie face up on it."""

    card: str
    name: str
    count: int
    cards: tuple[CardView, ...] = ()
    """The face-up cards of a tracker card; empty for a deck."""
    tracker: bool = False
    """A tracker card (its cards lie face up on it), not a deck."""


@dataclass(frozen=True, slots=True)
class VillainPanel:
    """The Villain board."""

    card: str
    name: str
    level: int
    phase: int
    difficulty: str
    extreme: bool
    arrived: bool
    health: Health | None
    """``None`` for a Villain of several enemies: see ``enemies``."""
    armor: int
    damage_reduction: int
    enemies: tuple[EnemyView, ...]
    time_track: tuple[tuple[CardView, ...], ...]
    """Four Time slots, each with the attacks prepared there."""
    minions: tuple[MinionView, ...]
    balls: int
    deck: int
    discard: int
    tokens: tuple[tuple[str, int], ...]
    """The board's counters in words, with their count (``Power``, ``Armor
    (Nappa)`` …)."""
    side_decks: tuple[SideDeckView, ...]
    aggro: str
    """The name of who holds Broly's aggro, or empty."""
    location: str
    """The Location's name, or empty."""
    location_text: str = ""
    """The Location's text: what it does for the whole game (empty without
    one)."""
    turn_cards: tuple[str, ...] = ()
    """The names of the Villain's turn-order cards (V1, V2 …)."""


@dataclass(frozen=True, slots=True)
class CharacterPanel:
    """One Character board, with its Time Track and the cards beside it."""

    id: str
    name: str
    order: int
    seat: int
    race: str
    level: int
    active: bool
    defeated: bool
    room_tokens: int
    """Tokens on the Room of Spirit and Time while inside; -1 outside."""
    health: Health
    armor: int
    damage_reduction: int
    balls: int
    time_track: tuple[PreparedView | None, ...]
    allies: tuple[UnitView, ...]
    equipment: tuple[UnitView, ...]
    training: tuple[UnitView, ...]
    ally_limit: int
    equipment_limit: int
    training_limit: int
    deck: int
    discard: int
    discard_top: CardView | None
    hand: int
    """How many cards the hand holds (its cards are in ``HandView``)."""
    played: tuple[CardView, ...]
    """Cards used this turn, face up until the end of the turn."""
    energy: int
    training_energy: int
    ability: str
    """The special ability's name, or empty."""
    ability_tokens: int | None
    """Tokens left for an ability with uses; ``None`` for a passive one."""
    ball_cost: int = 0
    """The Energy this Character pays for an unclaimed Dragon Ball (its
    board's cost, with any change from cards in play)."""


@dataclass(frozen=True, slots=True)
class MarketCard:
    """A face-up market card with what it costs the active Character."""

    card: CardView
    kind: str
    cost: int | None
    """What it costs the active Character (modifiers included), or its
    printed cost while no Character plays; ``None`` when the active
    Character cannot buy from this market."""
    pay_with: str
    """``energy``, or ``dragon-balls`` for an Ally bought with Dragon Balls."""
    price: str
    """The cost in words: ``3 Energy``, ``2 Dragon Balls``, or who may not
    buy it at all (``Vegeta SS1 cannot buy Allies``)."""
    buyable: bool
    """Whether the active Character may buy it now."""
    why_not: str
    """Why the active Character cannot buy it now, in the engine's words."""
    forbidden: bool
    """Whether the active Character may not buy it whatever their Energy: a
    market their board forbids, a card exclusive to other races or
    Characters."""
    exclusive: bool
    damage: int = 0
    """Damage on an Ally of the market (the Androids 17 and 18)."""


@dataclass(frozen=True, slots=True)
class MarketPanel:
    """One purchase market: its face-up row and the cards left in its deck."""

    market: str
    title: str
    deck: int
    row: tuple[MarketCard, ...]
    closed: str = ""
    """Why the active Character may buy nothing here, whatever the card (its
    board's cost modifier is "-"): ``Vegeta SS1 cannot buy Allies``; empty
    when it may."""


@dataclass(frozen=True, slots=True)
class BallView:
    """One of the seven Dragon Balls."""

    star: int
    holder: str
    """The holder key, or empty when unclaimed."""
    name: str
    """Who holds it, in words (``unclaimed``)."""


@dataclass(frozen=True, slots=True)
class TurnOrderPanel:
    """The round and the turn-order deck."""

    round: int
    left: int
    """Turn-order cards still face down."""
    revealed: tuple[str, ...]
    """The cards revealed this round, in words, the last one last."""
    unrevealed: tuple[str, ...] = ()
    """The cards still face down, in words and in no particular order (what
    the deck holds is known; only its order is secret)."""


@dataclass(frozen=True, slots=True)
class HandView:
    """The hand of one of the seat's Characters."""

    character: str
    name: str
    cards: tuple[CardView, ...]
    energy: int
    training_energy: int


@dataclass(frozen=True, slots=True)
class OptionView:
    """One answer of a pending decision."""

    label: str
    grim: bool = False
    """The option the Grim Rule takes when the players cannot agree."""
    preview: str = ""
    """What this answer would do (the damage a target would take), worked
    out by the engine on a copy of the game; empty when not known."""


@dataclass(frozen=True, slots=True)
class DecisionPanel:
    """The decision the engine waits for."""

    kind: str
    decider: str
    """``players`` or a Character id."""
    decider_name: str
    prompt: str
    options: tuple[OptionView, ...]
    """The answers, for a seat that may answer; empty for the others."""
    count: int
    """How many answers there are."""
    about: str = ""
    """What is decided, in words: a Villain attack's name, damage, kind and
    effect. Empty when the prompt says it all."""
    moot: int | None = None
    """The answer to give without asking, for a seat that may answer: the
    only option, or one of options that all leave the game the same."""
    about_card: str = ""
    """The card id of the attack decided about (for the inspector), or empty."""


@dataclass(frozen=True, slots=True)
class WhyNot:
    """Why no action of one kind can be taken now, in the rulebook's words."""

    kind: str
    """The action kind (``attack``, ``buy``, ``steal`` …)."""
    reason: str


@dataclass(frozen=True, slots=True)
class CardNote:
    """Why a card the seat can touch cannot take part in one kind of action
    now (the disabled entries of its card menu)."""

    uid: int
    kind: str
    reason: str


@dataclass(frozen=True, slots=True)
class Offer:
    """A legal action as a seat receives it, with the engine's label."""

    action: Action
    label: str
    group: str
    preview: str = ""
    """What the action would do, worked out by the engine on a copy of the
    game: an attack's damage on its target after Armor, Damage Reduction and
    a Guardian; a Steal's odds. Empty when there is nothing to foresee."""
    waste: str = ""
    """Why the action would waste something, in words, when the engine can
    tell: an attack that deals no damage, a Technique prepared that can have
    no target when it is used (it would be lost). The table asks first."""

    def to_json(self) -> dict[str, Any]:
        """The offer as JSON data."""
        data = {"action": self.action.to_json(), "label": self.label, "group": self.group}
        if self.preview:
            data["preview"] = self.preview
        if self.waste:
            data["waste"] = self.waste
        return data

    @classmethod
    def from_json(cls, data: Any) -> Offer:
        """Read an offer back; raises ``ValueError`` on bad data."""
        if not isinstance(data, dict):
            raise ValueError(f"not an offer: {data!r}")
        label, group = data.get("label"), data.get("group")
        if not isinstance(label, str) or not isinstance(group, str):
            raise ValueError("an offer has a label and a group")
        action = data.get("action")
        if not isinstance(action, dict):
            raise ValueError("an offer holds an action")
        preview, waste = data.get("preview", ""), data.get("waste", "")
        if not isinstance(preview, str) or not isinstance(waste, str):
            raise ValueError("an offer's preview and waste are text")
        return cls(action_from_json(action), label, group, preview, waste)


@dataclass(frozen=True, slots=True)
class TableView:
    """Everything one seat may see of a game."""

    version: int
    """The number of actions applied so far."""
    seat: int | None
    """The seat this view is for; ``None`` for a spectator."""
    title: str
    villain: VillainPanel
    characters: tuple[CharacterPanel, ...]
    markets: tuple[MarketPanel, ...]
    turn_order: TurnOrderPanel
    balls: tuple[BallView, ...]
    hands: tuple[HandView, ...]
    """The hands this seat may see: its own Characters' (every hand in a
    replay)."""
    decision: DecisionPanel | None
    log: tuple[LogLine, ...]
    """What the last action did, as this seat may read it."""
    active: str
    """The Character id whose turn it is, ``villain``, or empty."""
    actor: str
    """Who must act now: a Character id, ``players``, or empty."""
    paused: bool
    """The Villain's turn stopped between two steps (a table's step mode)."""
    winner: str
    reason: str
    location: str = ""
    """The Location's card id, or empty."""
    why_not: tuple[WhyNot, ...] = ()
    """For each kind of action the seat cannot take now, why; filled only
    for the seat that must act (the reasons read its hand)."""
    card_notes: tuple[CardNote, ...] = ()
    """For the cards the acting seat can touch, what each cannot do now and
    why; empty for the other seats."""
    left_undone: tuple[str, ...] = ()
    """What the active Character could still do before ending the turn, in
    words (``2 Energy unspent``, ``prepare Kamehameha``): what the end-turn
    question lists. Moves that would waste something are left out. Filled
    only for the seat that plays the active Character while it may end its
    turn (the words name cards of its hand)."""

    def why(self, kind: str) -> str:
        """Why no action of ``kind`` can be taken now; empty if one can (or
        the view does not say)."""
        return next((w.reason for w in self.why_not if w.kind == kind), "")

    def notes_for(self, uid: int) -> tuple[CardNote, ...]:
        """What one card cannot do now, and why."""
        return tuple(n for n in self.card_notes if n.uid == uid)

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return bool(self.winner)

    def character(self, character_id: str) -> CharacterPanel | None:
        """The board of one Character."""
        return next((c for c in self.characters if c.id == character_id), None)

    def hand(self, character_id: str) -> HandView | None:
        """A hand this seat may see."""
        return next((h for h in self.hands if h.character == character_id), None)

    def market(self, market: str) -> MarketPanel | None:
        """One market."""
        return next((m for m in self.markets if m.market == market), None)

    def cards(self) -> Iterator[CardView]:
        """Every face-up card of the view."""
        v = self.villain
        for slot in v.time_track:
            yield from slot
        for minion in v.minions:
            yield minion.card
        for pile in v.side_decks:
            yield from pile.cards
        for ch in self.characters:
            for prepared in ch.time_track:
                if prepared is not None:
                    yield prepared.card
                    yield from prepared.boosters
            for unit in (*ch.allies, *ch.equipment, *ch.training):
                yield unit.card
            if ch.discard_top is not None:
                yield ch.discard_top
            yield from ch.played
        for market in self.markets:
            for offered in market.row:
                yield offered.card
        for hand in self.hands:
            yield from hand.cards

    def card(self, uid: int) -> CardView | None:
        """The face-up card with this uid."""
        return next((c for c in self.cards() if c.uid == uid), None)

    def name_of(self, key: str) -> str:
        """A holder key (``c:goku``, ``m:12``, ``v`` …) in words."""
        if key == "v":
            return self.villain.name
        if key.startswith("c:"):
            ch = self.character(key[2:])
            return ch.name if ch is not None else key
        if key.startswith("e:"):
            return next((e.name for e in self.villain.enemies if e.key == key), key)
        if key.startswith("m:"):
            return next((m.card.name for m in self.villain.minions if m.key == key), key)
        if key[:2] == "a:" or key.startswith("market:"):
            card = self.card(int(key.split(":")[1]))
            return card.name if card is not None else key
        return key

    def target_name(self, key: str) -> str:
        """A target in words, told apart from any other of the same name:
        a Minion sharing its name with another has its place among them
        (``Guard 2``), and every target with health shows what is left
        (``Guard 2 3/5``)."""
        name = self.name_of(key)
        health: Health | None = None
        if key.startswith("m:"):
            same = [m for m in self.villain.minions if m.card.name == name]
            if len(same) > 1:
                place = next((i for i, m in enumerate(same, 1) if m.key == key), 0)
                name = f"{name} {place}"
            health = next((m.health for m in same if m.key == key), None)
        elif key.startswith("e:"):
            health = next((e.health for e in self.villain.enemies if e.key == key), None)
        elif key == "v":
            health = self.villain.health
        elif key.startswith("c:"):
            board = self.character(key[2:])
            health = board.health if board is not None else None
        if health is None:
            return name
        return f"{name} {health.remaining}/{health.maximum}"

    def to_json(self) -> dict[str, Any]:
        """The view as JSON data (what the server sends)."""
        data: dict[str, Any] = _adapter().dump_python(self, mode="json")
        return data

    @classmethod
    def from_json(cls, data: Any) -> TableView:
        """Read a view back; raises ``pydantic.ValidationError`` on bad data."""
        view: TableView = _adapter().validate_python(data)
        return view


@functools.cache
def _adapter() -> TypeAdapter[TableView]:
    """The view's JSON schema, built once and only when a view crosses the
    wire (a local table never pays for it, nor for importing pydantic)."""
    from pydantic import TypeAdapter

    return TypeAdapter(TableView)


def market_of(kind: str) -> str:
    """The market a card kind is sold in (``sixth``: the sixth pile)."""
    return MARKET_OF_KIND.get(kind, "energy")
