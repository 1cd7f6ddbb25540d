"""The CCG table's state: plain, mutable, slotted records.

Every card at the table is a ``TableCard`` with a uid, kept in one dict; a
zone is a list of uids (a Life Deck's top is index 0, a discard pile's top
is its last). What the rules read of a card (its type, level, PUR, power
ladder) is copied onto it at setup from the facts the setup recorded of the
library and the user's packs (rules notes, T10), so the rules never look a
card up again. No pydantic and no I/O here: the
edge models read and write this state as JSON.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from dbdeck.games.ccg.attack_table import PhysicalAttackTable

__all__ = [
    "DEFAULT_MAX_STAGES",
    "STAGES_ABOVE_ZERO_AT_START",
    "Check",
    "Combat",
    "Entry",
    "PendingAttack",
    "Perform",
    "Side",
    "Step",
    "TableCard",
    "TableState",
]

Step = Literal[
    "draw", "non-combat", "power-up", "combat?", "combat", "discard", "pass-bonus", "end", "over"
]
"""The steps of a turn in the rulebook's order, and ``over``."""

DEFAULT_MAX_STAGES = 10
"""A personality's most stages above 0 when no pack gives its power ladder
(rules notes, T2)."""

STAGES_ABOVE_ZERO_AT_START = 5
"""Seed 002, Example of Play: "We put the Scouters 5 stages higher than 0"."""


@dataclass(slots=True)
class TableCard:
    """One card at the table, and what the rules read of it."""

    uid: int
    title: str
    type: str
    """The card's type (``personality``, ``drill`` …), ``""`` when unknown."""
    owner: int
    """The seat that brought it (seed 003, Owner); never changes."""
    card_id: str = ""
    """The library's id, ``""`` for a title the library does not know."""
    personality: str | None = None
    level: int | None = None
    alignment: str | None = None
    dragon_ball: tuple[str, int] | None = None
    style: str | None = None
    pur: int | None = None
    ladder: tuple[int, ...] = ()
    """Power ratings of the stages from 0, when a pack gives them."""
    face_up: bool = True
    used: bool = False
    turned: bool = False
    stages: int | None = None
    """An Ally's stages above 0 while in play."""
    beneath: list[int] = field(default_factory=list)
    attached_to: int | None = None
    fusion: bool | None = None
    """Whether the card is a Fusion personality, as its pack says (``None``:
    no pack says)."""

    @property
    def max_stages(self) -> int:
        """The most stages above 0 of this personality card."""
        return len(self.ladder) - 1 if self.ladder else DEFAULT_MAX_STAGES


@dataclass(slots=True)
class Side:
    """One player's side of the table: zones are lists of uids."""

    seat: int
    player: str
    main_name: str
    alignment: str
    tokui_waza: str | None = None
    levels: list[int] = field(default_factory=list)
    """The Main Personality's cards, lowest level first."""
    level_index: int = 0
    """Which of ``levels`` is the current level."""
    stages: int = 0
    anger: int = 0
    power_used: bool = False
    life_deck: list[int] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    non_combat: list[int] = field(default_factory=list)
    drills: list[int] = field(default_factory=list)
    allies: list[int] = field(default_factory=list)
    dragon_balls: list[int] = field(default_factory=list)
    set_aside: list[int] = field(default_factory=list)
    sensei_deck: list[int] = field(default_factory=list)
    mastery: int | None = None
    sensei: int | None = None
    in_control: int | None = None
    searching: bool = False
    shown: set[int] = field(default_factory=set)
    """Cards of the hand shown to the other player (a reveal) until they move."""
    counters: dict[str, int] = field(default_factory=dict)
    final_physical_attack_used: bool = False
    ally_powers_used: list[int] = field(default_factory=list)
    """The Allies whose power was used this Combat (seed 003, Allies in Combat 3)."""
    attacked: bool = False
    """Whether the player attacked (or used a card in place of one) in this
    turn's Combat: a player who passed it all has the pass bonus."""
    cut_offered: bool = False
    """A search ended: the other player may cut this Life Deck (seed 001)."""
    anger_wins_at_top: bool = False
    """Five anger at the top level wins (the rulebook's Vegeta and Nappa
    rule, for a stack without level 4)."""
    seven_captured_on: int | None = None
    """The turn on which a capture completed this player's seven Dragon
    Balls: the victory waits for the start of their next turn."""
    fusion: int | None = None
    """The Fusion personality in play, taken from the Sensei Deck: the Main
    Personality, or one of ``allies`` (seed 001; one at a time: rules
    notes, T9)."""
    fused: list[int] = field(default_factory=list)
    """The fusion's two components, kept until it defuses: the Main
    Personality's card (which stays in the stack) and the Allies, stored
    beneath the Fusion personality's card."""
    timer: list[int] = field(default_factory=list)
    """The fusion's timer: Life Deck cards face down beneath the anger
    counter, one at the start of each of the owner's turns (seed 001)."""

    @property
    def fused_main(self) -> bool:
        """Whether the Main Personality is a Fusion personality now."""
        return self.fusion is not None and self.fusion not in self.allies

    @property
    def main(self) -> int:
        """The Main Personality's card: the current level's, or the Fusion
        personality's while the Main Personality is fused."""
        if self.fusion is not None and self.fused_main:
            return self.fusion
        return self.levels[self.level_index]


@dataclass(slots=True)
class PendingAttack:
    """An attack waiting for the defender's answer."""

    seat: int
    """The attacking player."""
    attack: Literal["physical", "energy"]
    source: int | None
    """The card used, or ``None`` for a personality power."""
    by: int | None
    """The Ally in control that attacks, or ``None`` for the Main Personality."""
    stages: int
    life: int
    final: bool = False
    """A Final Physical Attack."""
    words: str = ""


@dataclass(slots=True)
class Combat:
    """Combat in progress."""

    attacker: int
    defender: int
    acting: int
    phase: Literal["attack", "defend", "capture"] = "attack"
    passes: int = 0
    attack: PendingAttack | None = None
    capture_from: int | None = None
    """With phase ``capture``: the seat whose Dragon Balls may be captured."""
    held_life: int = 0
    """A capturing Ally's attack: the life cards of damage its capture would
    replace (seed 003, Capturing Dragon Balls 2)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the log: words for every seat, and words for one."""

    kind: str
    text: str
    seat: int | None = None
    """The seat it is about."""
    private: str = ""
    """Words only ``seat`` may read (what it drew, what it saw)."""

    @property
    def type(self) -> str:
        """The kind of event (the game protocol's name for it)."""
        return self.kind


@dataclass(slots=True)
class TableState:
    """The whole table."""

    cards: dict[int, TableCard]
    sides: tuple[Side, Side]
    profile: str
    adjudication: Literal["off", "suggest", "apply"]
    rng: random.Random
    turn: int = 1
    active: int = 0
    step: Step = "draw"
    location: int | None = None
    combat: Combat | None = None
    skip_combat: bool = False
    """A Location or Battleground was played this turn (seed 001: skip Combat)."""
    discarding: int | None = None
    """At the end of the turn, the seat discarding down now."""
    winner: int | None = None
    result: str = ""
    suggestion: str = ""
    log: list[Entry] = field(default_factory=list)
    version: int = 0
    last_auto: str = ""
    """The last action in words (what an overrule would take back)."""
    previous: TableState | None = None
    """The table before the last action (without its own ``previous`` or
    log), for an agreed overrule; ``None`` once taken back."""
    proposal: tuple[int, str] | None = None
    """An overrule waiting for the other player: who asked, and why."""
    attack_table: PhysicalAttackTable | None = None
    """The user's Physical Attack Table (rules notes, T1), if the setup
    gave one; it never changes."""

    def before_action(self) -> TableState:
        """A copy of the table as it stands, for taking the next action back:
        every card, zone and counter copied, the log and ``previous`` left
        out (cheaper than a snapshot: no JSON on each action)."""
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        cards = {
            uid: dataclasses.replace(card, beneath=list(card.beneath))
            for uid, card in self.cards.items()
        }
        sides = tuple(_copy_side(side) for side in self.sides)
        combat = self.combat
        if combat is not None:
            attack = dataclasses.replace(combat.attack) if combat.attack is not None else None
            combat = dataclasses.replace(combat, attack=attack)
        return dataclasses.replace(
            self,
            cards=cards,
            sides=(sides[0], sides[1]),
            rng=rng,
            combat=combat,
            log=[],
            previous=None,
            proposal=None,
        )

    def side(self, seat: int) -> Side:
        """The side of ``seat``."""
        return self.sides[seat]

    def mp_name(self, seat: int) -> str:
        """The Main Personality of ``seat`` in words: the Fusion
        personality's name while it is fused, else the deck's."""
        side = self.sides[seat]
        if side.fusion is not None and side.fused_main:
            card = self.cards[side.fusion]
            return card.personality or card.title
        return side.main_name

    def other(self, seat: int) -> int:
        """The other seat."""
        return 1 - seat


def _copy_side(side: Side) -> Side:
    """A side with its own zones, shown cards and counters."""
    copied: dict[str, Any] = {}
    for f in _SIDE_CONTAINERS:
        value = getattr(side, f)
        copied[f] = type(value)(value)
    return dataclasses.replace(side, **copied)


_SIDE_CONTAINERS = tuple(
    f.name for f in dataclasses.fields(Side) if f.default_factory is not dataclasses.MISSING
)
"""The fields of a side that hold a list, a set or a dict."""

Check = Callable[[TableState, Any, bool], "str | None"]
"""An action kind's check: the table, the action, whether the rules refuse."""

Perform = Callable[[TableState, Any], None]
"""An action kind's performance, once its check passed."""
