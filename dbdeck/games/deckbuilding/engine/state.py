"""The game state: plain mutable objects with slots, and their JSON form.

Cards in play are *instances*: an integer uid whose card id is
``GameState.card_ids[uid]``. Piles are lists of uids, the top of a deck
being its end (``deck[-1]``) so drawing is a cheap ``pop()``.

Whoever can hold Dragon Balls or take damage is named by a *holder*
(``dbdeck.games.deckbuilding.engine.holders``); the JSON form writes its key (``c:goku``).
"""

from __future__ import annotations

import copy
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal

from dbdeck.games.deckbuilding.cards.kinds import Difficulty
from dbdeck.games.deckbuilding.engine.holders import HOLDER_TYPES, Holder, holder_or_none, to_key
from dbdeck.games.deckbuilding.engine.native import mypyc_attr
from dbdeck.games.deckbuilding.engine.tasks import (
    Asking,
    Task,
    TaskError,
    read_choice,
    read_holders,
)

_SHARED = (str, int, *HOLDER_TYPES)
"""Option values a copy can share."""

NO_HOLDER = "no-holder"
"""Field metadata: how the JSON form writes "no holder" (``None``) in the
field, or in each item of a list field."""
UNSAVED = "unsaved"
"""Field metadata: the field is left out of the JSON form (and so of the
fingerprint): what the table remembers, never what the rules play by."""


@dataclass(slots=True)
class Unit:
    """An Ally or Minion in play."""

    uid: int
    damage: int = 0
    exhausted: bool = False
    tokens: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class Prepared:
    """An Energy Technique (or Villain attack) on a Time Track."""

    uid: int
    boosters: list[int] = field(default_factory=list)
    owner: str = ""
    """For Villain attacks of several enemies: the enemy that prepared it."""


AttackStage = Literal["aim", "clash", "clash-offered"]
"""Where a Villain attack stands: its targets to be chosen (``aim``),
chosen with a Power Clash still to be offered if one can be (``clash``), or
the Power Clash offered (``clash-offered``)."""

AttackOrigin = Literal["played", "prepared", "chosen"]
"""How a Villain attack came to resolve: ``played`` from the Villain deck
now (a Physical attack, or one half of a split card), ``prepared`` on the
Time Track and fired, or ``chosen`` with its target already settled (Broly's
Furious Rage after its Controversy)."""


@mypyc_attr(native_class=False)  # the task VillainAttack, a Python class, extends it
@dataclass(slots=True)
class VillainAttackState(Asking):
    """A Villain attack as it resolves: the card, who makes it, where it
    stands and the answer it waits for. Its rules are the task
    ``attacks.VillainAttack``; the Villains' hooks take this, which sits
    below them, so the hooks' protocol (``engine/reach.py``) can name it."""

    uid: int
    """The attack card."""
    owner: str = ""
    """The enemy making it, for a several-enemy Villain (else empty)."""
    half: int | None = None
    """Which half of a split card attacks (``None``: found from ``owner``)."""
    origin: AttackOrigin = "played"
    stage: AttackStage = "aim"
    targets: list[Holder] | None = None
    """Who the attack hits, once chosen."""
    controversy: bool = False
    """Raditz's Choice: the players were asked which card decides the target."""
    precedence: str | None = None
    """Their answer: ``raditz-choice`` or ``card``."""
    choice: Any = None
    """The answer waited for: a target, the Controversy's, or the Power Clash's."""

    @staticmethod
    def read_answer(value: Any) -> Any:
        """Answers that may be holders, read back (``read_choice``); a
        method, not ``staticmethod(read_choice)``: compiled with mypyc, a
        value assigned in a dataclass's body becomes one of its fields."""
        return read_choice(value)

    def __post_init__(self) -> None:
        if self.stage != "aim" and self.targets is None:
            raise TaskError("a Villain attack past its aim has targets")

    def to_json(self) -> dict[str, Any]:
        """The form saves have always held: the stage shows as which keys
        are there (``targets``, ``clash_offered``), the origin as
        ``prepared`` or ``half``."""
        data: dict[str, Any] = {"t": self.tag, "uid": self.uid, "owner": self.owner}
        if self.origin == "prepared":
            data["prepared"] = True
        elif self.origin == "played":
            data["half"] = self.half
        if self.controversy:
            data["controversy"] = True
        if self.precedence is not None:
            data["precedence"] = self.precedence
        if self.stage != "aim":
            data["targets"] = [t.key for t in self.targets or []]
        if self.stage == "clash-offered":
            data["clash_offered"] = True
        if self.choice is not None:
            data["choice"] = to_data(self.choice)
        return data

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Task:
        """A Villain attack from the JSON ``to_json`` writes."""
        origin: AttackOrigin = (
            "prepared" if data.get("prepared") else "played" if "half" in data else "chosen"
        )
        targets = data.get("targets")
        stage: AttackStage = (
            "aim" if targets is None else "clash-offered" if data.get("clash_offered") else "clash"
        )
        return cls(
            int(data["uid"]),
            str(data.get("owner", "")),
            data.get("half"),
            origin,
            stage,
            None if targets is None else read_holders(targets),
            bool(data.get("controversy", False)),
            data.get("precedence"),
            read_choice(data.get("choice")),
        )


@dataclass(slots=True)
class Bonus:
    """A temporary bonus from an effect (card-bound bonuses are computed from
    the cards in play instead, so they vanish with their card)."""

    kind: str
    """``armor``, ``damage-reduction``, ``max-health``, ``damage``,
    ``hand-size``, ``cost:<market>`` or ``extra-dragon-ball``."""
    amount: int
    duration: str
    attack: str | None = None
    until: str | None = None
    """An ``until-your-next-turn`` bonus another Character's card gave:
    that Character, whose next turn ends it (rules note N53). ``None``: the
    holder's own next turn."""

    def to_json(self) -> dict[str, Any]:
        """The bonus as saves have always held it, ``until`` only when set."""
        data: dict[str, Any] = {
            "kind": self.kind,
            "amount": self.amount,
            "duration": self.duration,
            "attack": self.attack,
        }
        if self.until is not None:
            data["until"] = self.until
        return data


@dataclass(slots=True)
class CharacterState:
    """One Character at the table."""

    id: str
    order: int
    seat: int
    damage: int = 0
    deck: list[int] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    played: list[int] = field(default_factory=list)
    """Cards used this turn (Energy, Physical Techniques): discarded at the end."""
    allies: list[Unit] = field(default_factory=list)
    equipment: list[Unit] = field(default_factory=list)
    training: list[Unit] = field(default_factory=list)
    time_track: list[Prepared | None] = field(default_factory=lambda: [None] * 4)
    ability_tokens: int = 0
    bonuses: list[Bonus] = field(default_factory=list)
    defeated: bool = False
    room_tokens: int = -1
    """Tokens on the Room of Spirit and Time while inside; -1 when outside."""
    room_card: int = -1
    energy: int = 0
    """Energy available to spend this turn."""
    training_energy: int = 0
    """Extra Energy that only buys Training (Combat Energy)."""
    dragon_balls_bought: int = 0
    acted: bool = False
    """Whether an Actions-phase action was taken this turn (ends the market
    discard and Dragon Ball giving steps)."""
    market_discarded: bool = False
    balls_given: bool = False
    """Whether a Dragon Ball was given this turn (phase 4): the Market
    discard of phase 3 is then over."""
    ability_used: bool = False
    duo_invested: bool = False
    duo_energy: dict[int, list[int]] = field(default_factory=dict)
    """Energy cards set aside beside Duo cards in the Ally Market (solo Duo
    purchase), by the Duo card's uid."""

    def in_play(self) -> bool:
        """Whether the Character is in play (not defeated, not in the Room)."""
        return not self.defeated and self.room_tokens < 0

    def units(self) -> list[Unit]:
        """Every card in play beside the board."""
        return [*self.allies, *self.equipment, *self.training]


@dataclass(slots=True)
class MarketState:
    """A market deck and its face-up row."""

    deck: list[int] = field(default_factory=list)
    row: list[int] = field(default_factory=list)
    damage: dict[int, int] = field(default_factory=dict)
    """Damage on face-up cards, by uid: an Ally of the Ally Market attacked
    by Androids 17 and 18 keeps it while it stays in the row (rules note A5)."""


@mypyc_attr(allow_interpreted_subclasses=True)  # the Villain modules (Python) extend it
@dataclass(slots=True)
class VillainOwnState:
    """What one Villain's module keeps on the board beyond what every Villain
    has: a slotted dataclass of this, the ``OWN_STATE`` of the module's rules
    (``villains/base.py``), so the shared ``VillainState`` names no Villain.

    A Villain's own fields are written among the ``VillainState``'s in the
    JSON form (``{"id": "freezer", …, "arrived": false}``), as snapshots have
    always held them. Holder fields say how "no holder" is written with the
    ``NO_HOLDER`` metadata. The general rules keep nothing of their own.

    A subclass whose fields every snapshot holds says so with the class
    constant ``IN_EVERY_SNAPSHOT: ClassVar[bool] = True``
    (``in_every_snapshot``). The base declares no constant: compiled with
    mypyc (``tools/build_accelerated.py``), a class constant of a dataclass
    becomes a read-only field."""

    def clone(self) -> VillainOwnState:
        """An independent copy: plain values and holders are shared, anything
        else (a list, a dict) copied."""
        own = _fields_of_own(type(self))
        if not own:
            return self  # the general rules' nothing, shared
        # Through __init__ (not copy.copy): a Villain module's class, plain
        # Python, extends this one, which the accelerated build compiles,
        # and copy.copy would drop its fields.
        new = replace(self)
        for f in own:
            value = getattr(self, f.name)
            if value.__class__ not in _SHARED_OWN:
                setattr(new, f.name, copy.deepcopy(value))
        return new

    def to_json(self) -> dict[str, Any]:
        """The fields, as the Villain's JSON form holds them."""
        out: dict[str, Any] = {}
        for f in _fields_of_own(type(self)):
            value = getattr(self, f.name)
            if NO_HOLDER in f.metadata:
                value = _holders(value)
            out[f.name] = to_data(value)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> VillainOwnState:
        """The state ``to_json`` wrote; fields not there keep their defaults."""
        values: dict[str, Any] = {}
        for f in _fields_of_own(cls):
            if f.name in data:
                value = data[f.name]
                if NO_HOLDER in f.metadata:
                    value = holder_or_none(value)
                values[f.name] = copy.deepcopy(value)
        return cls(**values)

    def laid(self, values: Mapping[str, Any]) -> VillainOwnState:
        """A copy with some fields set (a scenario's table): ``ValueError``
        for a field this Villain does not keep."""
        names = {f.name for f in _fields_of_own(type(self))}
        unknown = sorted(set(values) - names)
        if unknown:
            raise ValueError(f"this Villain keeps no {unknown[0]!r}")
        return replace(self, **values)  # as clone does


_SHARED_OWN = frozenset({bool, int, str, type(None), *HOLDER_TYPES})
"""Values of an own state a copy can share."""
_OWN_STATES: dict[str, type[VillainOwnState]] = {}
_OWN_FIELDS: dict[type, tuple[Any, ...]] = {}
_NO_OWN_STATE = VillainOwnState()
"""The general rules' own state: nothing, shared by every game."""


def in_every_snapshot(cls: type[VillainOwnState]) -> bool:
    """Whether snapshots have held this state's fields for every Villain
    (their defaults for the others), from before each Villain owned its
    state: they still do, so older and newer versions read each other's
    saves and the golden fingerprint holds. A new Villain's state leaves it
    off (its class sets no ``IN_EVERY_SNAPSHOT``)."""
    return bool(getattr(cls, "IN_EVERY_SNAPSHOT", False))


def _fields_of_own(cls: type[VillainOwnState]) -> tuple[Any, ...]:
    found = _OWN_FIELDS.get(cls)
    if found is None:
        found = _OWN_FIELDS[cls] = fields(cls)
    return found


def register_own_state(villain_id: str, cls: type[VillainOwnState]) -> None:
    """Say which class holds a Villain's own state (the Villains' registry,
    ``villains/__init__.py``, does it for each Villain's module)."""
    if _OWN_STATES.get(villain_id, cls) is not cls:
        raise ValueError(f"two own states for the Villain {villain_id!r}")
    _OWN_STATES[villain_id] = cls


def own_state_for(villain_id: str) -> VillainOwnState:
    """A fresh own state of a Villain (nothing for one of the general rules)."""
    cls = _OWN_STATES.get(villain_id)
    return _NO_OWN_STATE if cls is None else cls()


@dataclass(slots=True)
class VillainState:
    """The Villain's board."""

    id: str
    damage: int = 0
    enemy_damage: dict[str, int] = field(default_factory=dict)
    defeated_enemies: list[str] = field(default_factory=list)
    phase: int = 1
    deck: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    side_decks: dict[str, list[int]] = field(default_factory=dict)
    time_track: list[list[Prepared]] = field(default_factory=lambda: [[], [], [], []])
    minions: list[Unit] = field(default_factory=list)
    tokens: dict[str, int] = field(default_factory=dict)
    """The Villain's token counters (Coldness, Power, …), by counter."""
    enemy_tokens: dict[str, dict[str, int]] = field(default_factory=dict)
    """Each enemy's own counters, by enemy id: Vegeta and Nappa each have
    their Armor tokens (``armor``), and the one wearing the Ozaru Form card
    an ``ozaru`` token."""
    armor_bonus: int = 0
    damage_bonus: int = 0
    damage_reduction_bonus: int = 0
    last_form: int = -1
    """The transformation card whose attack repeats when the deck is empty."""
    extra_turns: int = 0
    own: VillainOwnState = field(default_factory=lambda: _NO_OWN_STATE)
    """What the Villain's own module keeps (Freezer's arrival, Broly's Aggro
    token …): its class is the module's, found by the Villain's id."""

    def __post_init__(self) -> None:
        if self.own is _NO_OWN_STATE and self.id:
            self.own = own_state_for(self.id)


@dataclass(slots=True, frozen=True)
class HiddenPile:
    """A face-down pile of the Villain's whose order no player knows, as the
    Villain's module declares it (``VillainRules.hidden_piles``), and how it
    may be dealt again in a world a player cannot tell from the real one
    (``determinize``)."""

    cards: list[int]
    """The pile itself (the state's own list, its top last): dealt again in
    place."""
    groups: tuple[Hashable, ...] | None = None
    """For each card of ``cards``, the group whose places it may take (the
    cards of one Phase of Freezer's deck), or ``None`` for a card whose place
    every player knows ("Call for Help" at the bottom). ``None`` for the
    whole field: one group, any card may take any place."""


@dataclass(slots=True, frozen=True)
class Option:
    """One answer a decision offers."""

    label: str
    """The answer in words."""
    value: Any
    """What the answer gives the task that asked (a holder key, a card uid,
    an index, a wish …): JSON data."""
    grim: bool | None = None
    """Whether the Grim Rule takes this answer (rules note N43): ``True``
    for the harshest one, ``False`` for one weighed and not taken, ``None``
    where the decision marks nothing."""
    damage: int | None = None
    """The damage this answer makes its Character take, when the question
    says it (a Character stepping in front of an Ally of the market)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Option:
        # The generic copy of a slotted object is slow; only the value may
        # nest, and an option holding a plain value can be shared.
        if isinstance(self.value, _SHARED):
            return self
        return Option(self.label, copy.deepcopy(self.value, memo), self.grim, self.damage)

    def to_json(self) -> dict[str, Any]:
        """``{"label", "value"}``, with ``grim`` and ``damage`` when set."""
        data: dict[str, Any] = {"label": self.label, "value": to_data(self.value)}
        if self.grim is not None:
            data["grim"] = self.grim
        if self.damage is not None:
            data["damage"] = self.damage
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Option:
        """The option ``to_json`` wrote."""
        return cls(data["label"], data["value"], data.get("grim"), data.get("damage"))


@dataclass(slots=True)
class Decision:
    """A question the engine waits for, and the task waiting for its answer."""

    kind: str
    decider: str
    """``players`` or a Character id."""
    prompt: str
    options: list[Option]
    task: Task | None = field(default=None, compare=False, repr=False)
    """The task the answer goes to. It waits on top of the stack (``ask``
    pushes it last), which is how a saved game finds it again: the JSON
    form leaves this field out."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Decision:
        # Through ``memo``, a copy made with the stack's points at the copied task.
        return Decision(
            self.kind,
            self.decider,
            self.prompt,
            [copy.deepcopy(o, memo) for o in self.options],
            copy.deepcopy(self.task, memo),
        )

    def to_json(self) -> dict[str, Any]:
        """The decision as JSON data (without ``task``: see there)."""
        return {
            "kind": self.kind,
            "decider": self.decider,
            "prompt": self.prompt,
            "options": [o.to_json() for o in self.options],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], task: Task | None) -> Decision:
        """The decision ``to_json`` wrote, answered to ``task``."""
        options = [Option.from_json(o) for o in data["options"]]
        if isinstance(task, Asking):  # answers that are holders are read back as such
            read = task.read_answer
            options = [Option(o.label, read(o.value), o.grim, o.damage) for o in options]
        return cls(data["kind"], data["decider"], data["prompt"], options, task)


@dataclass(slots=True)
class GameState:
    """Everything about one game. Plain data: copyable and JSON-serialisable."""

    villain_id: str
    difficulty: Difficulty
    extreme: bool
    location: str | None
    seed: int
    card_ids: list[str] = field(default_factory=list)
    characters: list[CharacterState] = field(default_factory=list)
    villain: VillainState = field(default_factory=lambda: VillainState(id=""))
    markets: dict[str, MarketState] = field(default_factory=dict)
    sixth: list[int] = field(default_factory=list)
    balls: list[Holder | None] = field(default_factory=lambda: [None] * 7, metadata={NO_HOLDER: ""})
    """Who controls each of the seven Dragon Balls; ``None`` when unclaimed
    (the JSON form writes ``""``)."""
    turn_deck: list[str] = field(default_factory=list)
    turn_discard: list[str] = field(default_factory=list)
    turn_cards: list[str] = field(default_factory=list)
    """The whole turn-order deck, to rebuild it each round."""
    round: int = 1
    turn: int = 0
    revealed: str = ""
    active: str = ""
    """The Character id whose turn it is, ``villain``, or empty between turns."""
    step: str = "reveal"
    paused: bool = False
    """In step mode, the engine stopped between two steps of the Villain's
    turn so a table can show it; ``Game.resume`` goes on."""
    prologue: list[str] = field(default_factory=list)
    """Characters still to play their turn before the turn-order deck starts."""
    stack: list[Task] = field(default_factory=list)
    """Work queued by the rules; the top (the end) runs next."""
    pending: Decision | None = None
    winner: str = ""
    reason: str = ""
    actions: int = 0
    box: list[int] = field(default_factory=list)
    """Destroyed and eliminated cards, returned to the game box."""
    eliminated: list[int] = field(default_factory=list)
    """Allies eliminated during the game (a wish may bring them back)."""
    variant: str = ""
    """The Villain's scenario card played instead of the usual game (A
    Different Future), or empty."""
    known: dict[int, str] = field(default_factory=dict, metadata={UNSAVED: True})
    """Cards of a hidden pile whose place a player knows (rules note N51):
    by uid, who knows it (``""``: every player; a Character id: the player
    of that Character). A card seen going to the bottom of a market deck,
    put back on top of its deck, or shown in a hand. An entry holds while
    the card lies where it was seen; a deck rebuilt by a shuffle forgets
    its cards. Never read by the rules, only by ``determinize``; not in
    the JSON form, so a replayed save knows it again and older saves still
    replay to their snapshots."""

    def character(self, character_id: str) -> CharacterState:
        """The Character with this id."""
        for character in self.characters:
            if character.id == character_id:
                return character
        raise KeyError(character_id)

    def clone(self) -> GameState:
        """An independent copy, built field by field (several times faster
        than ``copy.deepcopy``, which bots and searches rely on)."""
        new = copy.copy(self)
        new.card_ids = list(self.card_ids)
        new.characters = [_clone_character(c) for c in self.characters]
        new.villain = _clone_villain(self.villain)
        new.markets = {
            k: MarketState(list(m.deck), list(m.row), dict(m.damage))
            for k, m in self.markets.items()
        }
        new.sixth = list(self.sixth)
        new.balls = list(self.balls)
        new.turn_deck = list(self.turn_deck)
        new.turn_discard = list(self.turn_discard)
        new.turn_cards = list(self.turn_cards)
        new.prologue = list(self.prologue)
        # One memo for both, so the copied decision points at the copied task.
        memo: dict[int, Any] = {}
        new.stack = copy.deepcopy(self.stack, memo) if self.stack else []
        new.pending = copy.deepcopy(self.pending, memo)
        new.box = list(self.box)
        new.eliminated = list(self.eliminated)
        new.known = dict(self.known)
        return new

    def forget(self, uids: list[int]) -> None:
        """The players no longer know where these cards lie (a deck they
        went into was shuffled)."""
        known = self.known
        if known:
            for uid in uids:
                known.pop(uid, None)


def _clone_unit(u: Unit) -> Unit:
    return Unit(u.uid, u.damage, u.exhausted, dict(u.tokens))


def _clone_prepared(p: Prepared | None) -> Prepared | None:
    return None if p is None else Prepared(p.uid, list(p.boosters), p.owner)


def _clone_character(c: CharacterState) -> CharacterState:
    new = copy.copy(c)
    new.deck, new.hand, new.discard, new.played = (
        list(c.deck),
        list(c.hand),
        list(c.discard),
        list(c.played),
    )
    new.allies = [_clone_unit(u) for u in c.allies]
    new.equipment = [_clone_unit(u) for u in c.equipment]
    new.training = [_clone_unit(u) for u in c.training]
    new.time_track = [_clone_prepared(p) for p in c.time_track]
    new.bonuses = [Bonus(b.kind, b.amount, b.duration, b.attack, b.until) for b in c.bonuses]
    new.duo_energy = {k: list(v) for k, v in c.duo_energy.items()}
    return new


def _clone_villain(v: VillainState) -> VillainState:
    new = copy.copy(v)
    new.own = v.own.clone()
    new.enemy_damage = dict(v.enemy_damage)
    new.defeated_enemies = list(v.defeated_enemies)
    new.deck, new.discard = list(v.deck), list(v.discard)
    new.side_decks = {k: list(d) for k, d in v.side_decks.items()}
    new.time_track = [
        [Prepared(p.uid, list(p.boosters), p.owner) for p in slot] for slot in v.time_track
    ]
    new.minions = [_clone_unit(u) for u in v.minions]
    new.tokens = dict(v.tokens)
    new.enemy_tokens = {k: dict(t) for k, t in v.enemy_tokens.items()}
    return new


# --- JSON -------------------------------------------------------------------------


def to_data(obj: Any) -> Any:
    """Plain JSON data for a state object (dataclasses become dicts; tasks
    and decisions write their own form)."""
    if isinstance(obj, Task | Decision | Option | Bonus):
        return obj.to_json()
    if obj.__class__ is VillainState:
        return _villain_data(obj)
    if hasattr(obj, "__dataclass_fields__"):
        out = {}
        for f in fields(obj):
            if UNSAVED in f.metadata:
                continue
            value = getattr(obj, f.name)
            if NO_HOLDER in f.metadata:
                value = _holders(value)
            out[f.name] = to_data(value)
        return out
    if isinstance(obj, list):
        return [to_data(x) for x in obj]
    if isinstance(obj, tuple):
        return [to_data(x) for x in obj]
    if isinstance(obj, dict):
        return {str(k): to_data(v) for k, v in obj.items()}
    if obj is None:
        return None
    to_json = getattr(obj, "to_json", None)  # a holder writes its key
    return obj if to_json is None else to_json()


SNAPSHOT_VERSION = 2
"""The version of a game's JSON form (``Game.to_json``). Version 1 wrote an
enemy's own counters among the Villain's tokens (``armor:<enemy>``) and the
damage on Allies of the Ally Market among the enemies' (``market:<uid>``)."""


def split_counters(
    named: dict[str, int],
) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    """Counters named as version 1 and scenario files name them, an enemy's
    own as ``<counter>:<enemy>``: the Villain's, and each enemy's
    (``VillainState.tokens`` and ``enemy_tokens``)."""
    tokens: dict[str, int] = {}
    own: dict[str, dict[str, int]] = {}
    for name, n in named.items():
        counter, _, enemy = name.partition(":")
        if enemy:
            own.setdefault(enemy, {})[counter] = n
        else:
            tokens[name] = n
    return tokens, own


def joined_counters(tokens: dict[str, int], own: dict[str, dict[str, int]]) -> dict[str, int]:
    """The Villain's counters and each enemy's in one dict, named as
    ``split_counters`` reads them."""
    found = dict(tokens)
    for enemy, counters in own.items():
        for counter, n in counters.items():
            found[f"{counter}:{enemy}"] = n
    return found


def upgrade_snapshot(data: dict[str, Any]) -> dict[str, Any]:
    """A game's JSON form (``Game.to_json``) of an older version in this
    version's form (a copy); the current form as it is."""
    if data.get("version", SNAPSHOT_VERSION) >= SNAPSHOT_VERSION:
        return data
    state = copy.deepcopy(data["state"])
    villain = state["villain"]
    villain["tokens"], villain["enemy_tokens"] = split_counters(villain.get("tokens", {}))
    market_damage: dict[str, int] = {}
    enemy_damage: dict[str, int] = {}
    for key, n in villain.get("enemy_damage", {}).items():
        if key.startswith("market:"):
            market_damage[key.removeprefix("market:")] = n
        else:
            enemy_damage[key] = n
    villain["enemy_damage"] = enemy_damage
    for name, market in state.get("markets", {}).items():
        market["damage"] = market_damage if name == "allies" else {}
    return {**data, "version": SNAPSHOT_VERSION, "state": state}


def _holders(value: Any) -> Any:
    """A holder field's JSON form: keys, and ``""`` for no holder."""
    if isinstance(value, list):
        return [to_key(h) for h in value]
    return to_key(value)


def state_from_data(data: dict[str, Any]) -> GameState:
    """Rebuild a ``GameState`` from ``to_data`` output (the data is copied:
    the state never shares a list with it)."""
    d = copy.deepcopy(data)
    d["characters"] = [_character(c) for c in d["characters"]]
    d["villain"] = _villain(d["villain"])
    d["markets"] = {k: _market(v) for k, v in d["markets"].items()}
    d["balls"] = [holder_or_none(h) for h in d["balls"]]
    d["stack"] = [Task.from_json(t) for t in d["stack"]]
    # The task waiting for the pending decision is the top of the stack.
    if d.get("pending"):
        if not d["stack"] or not isinstance(d["stack"][-1], Asking):
            raise ValueError("a pending decision without the task waiting for it")
        d["pending"] = Decision.from_json(d["pending"], d["stack"][-1])
    else:
        d["pending"] = None
    return GameState(**d)


def _market(m: dict[str, Any]) -> MarketState:
    damage = {int(uid): n for uid, n in m.get("damage", {}).items()}
    return MarketState(m["deck"], m["row"], damage)


def _units(items: list[dict[str, Any]]) -> list[Unit]:
    return [Unit(**u) for u in items]


def _prepared(p: dict[str, Any] | None) -> Prepared | None:
    return None if p is None else Prepared(**p)


def _character(c: dict[str, Any]) -> CharacterState:
    c = dict(c)
    for name in ("allies", "equipment", "training"):
        c[name] = _units(c[name])
    c["time_track"] = [_prepared(p) for p in c["time_track"]]
    c["bonuses"] = [Bonus(**b) for b in c["bonuses"]]
    c["duo_energy"] = {int(k): v for k, v in c["duo_energy"].items()}
    return CharacterState(**c)


def _villain_data(v: VillainState) -> dict[str, Any]:
    """The Villain's JSON form: the shared fields, then the Villain's own
    among them (and the older Villains' own with their defaults, which every
    snapshot has held: ``in_every_snapshot``)."""
    out: dict[str, Any] = {}
    for f in fields(v):
        if f.name != "own":
            out[f.name] = to_data(getattr(v, f.name))
    own = v.own
    for cls in _OWN_STATES.values():
        if in_every_snapshot(cls) and cls is not type(own):
            out.update(cls().to_json())
    out.update(own.to_json())
    return out


def _villain(v: dict[str, Any]) -> VillainState:
    v = dict(v)
    v["minions"] = _units(v["minions"])
    v["time_track"] = [[Prepared(**p) for p in slot] for slot in v["time_track"]]
    own_cls = _OWN_STATES.get(v.get("id", ""), VillainOwnState)
    own: dict[str, Any] = {}
    for cls in {*_OWN_STATES.values(), own_cls}:
        for f in _fields_of_own(cls):
            if f.name in v:
                own[f.name] = v.pop(f.name)
    v["own"] = own_cls.from_json(own)
    return VillainState(**v)


class DerivedState:
    """What the rules derive from a Character's cards in play, its bonuses and
    the Location (bonus sums, cost changes), kept between queries.

    A Character's entry remembers what it was derived from: the Location, the
    Allies, Equipment and Training in play (their ``Unit`` objects) and the
    effect bonuses (their ``Bonus`` objects). A query first compares that
    with the table — a short tuple compared mostly by identity, far cheaper
    than summing again — and starts the entry afresh when anything differs.
    So no place that moves a card into or out of play, grants a bonus or ends
    one needs to remember to invalidate it, and a hand-built table in a test
    is never answered from a stale entry. ``Game.clone`` starts an empty one.
    """

    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: dict[str, tuple[tuple[Any, ...], dict[Any, Any]]] = {}

    def of(self, state: GameState, ch: CharacterState) -> dict[Any, Any]:
        """The Character's derived values, by query key, still valid now."""
        # A bonus depends only on which cards are in play (a Unit's uid never
        # changes), which bonuses hold and the Location.
        basis = (state.location, *ch.allies, *ch.equipment, *ch.training, *ch.bonuses)
        entry = self._entries.get(ch.id)
        if entry is not None and entry[0] == basis:
            return entry[1]
        values: dict[Any, Any] = {}
        self._entries[ch.id] = (basis, values)
        return values
