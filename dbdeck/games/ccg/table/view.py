"""What one seat may see of the CCG table: frozen values, private by
construction.

``seat_view`` (in the rules) builds a ``TableView`` for a seat (or a
spectator) holding only what that seat may see: the other player's hand,
Life Deck order and Sensei Deck are counts; a search's cards are the
searcher's alone; a face-down card of the other player is ``HIDDEN``. Every
number is worked out by the rules (stages left, the level's most stages,
the PUR with Tokui-Waza), so a screen only draws.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

__all__ = [
    "HIDDEN",
    "CardFace",
    "CombatPanel",
    "LogLine",
    "Offer",
    "PersonalityPanel",
    "SeatPanel",
    "TableView",
]

HIDDEN = -1
"""The uid shown for a card the seat may not see."""


def _json(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class CardFace:
    """One card as the seat sees it."""

    uid: int
    """The card's table uid, or ``HIDDEN``."""
    title: str
    """The title, or ``face-down card`` when the seat may not see it."""
    type: str
    """The card's type (``personality``, ``drill``, ``dragon-ball`` …), or
    ``""`` when unknown or hidden."""
    owner: int
    """The seat that brought the card to the table (seed 003, Owner)."""
    face_up: bool = True
    used: bool = False
    """Marked used, as a reminder (seed 001)."""
    turned: bool = False
    """Turned sideways (a captured Dragon Ball, seed 002)."""
    stages: int | None = None
    """An Ally's power stages above 0."""
    max_stages: int | None = None
    """An Ally's most stages."""
    beneath: tuple[CardFace, ...] = ()
    """Cards attached to it or stored beneath it."""
    card_id: str = ""
    """The card library's id of a card the seat sees (what the inspector
    looks up); ``""`` for a hidden card, or a title the library does not
    know."""

    def to_json(self) -> dict[str, Any]:
        """The card as JSON data."""
        return dict(_json(self))


@dataclass(frozen=True, slots=True)
class PersonalityPanel:
    """The Main Personality: the stack, the scouter and the Warrior Sword."""

    name: str
    """Whose deck it is (``Goku``)."""
    title: str
    """The current level's card (``Goku Level 2``)."""
    level: int
    levels: tuple[int, ...]
    """Every level in the stack, lowest first."""
    stages: int
    """Power stages above 0."""
    max_stages: int
    """The current level's most stages."""
    stage_values: tuple[int, ...]
    """The power rating of each stage from 0, when a pack gives the ladder
    (empty otherwise: the scouter shows stages only)."""
    anger: int
    """0 to 5 (seed 003, Anger and Levels)."""
    pur: int | None
    """The Power Up Rating with a declared Tokui-Waza's +1, when a pack
    gives the PUR (``None``: the player says how many stages)."""
    power_used: bool
    """Whether the personality power was used this turn (seed 001)."""
    alignment: str
    """``hero`` or ``villain``."""
    card_id: str = ""
    """The card library's id of the current level's card (``""``: a title
    the library does not know)."""


@dataclass(frozen=True, slots=True)
class SeatPanel:
    """One player's side of the table."""

    seat: int
    player: str
    """The player's name."""
    main: PersonalityPanel
    life_deck: int
    """Cards left in the Life Deck (its order is never shown)."""
    hand: tuple[CardFace, ...]
    """The hand: the seat's own cards face up; another seat's as hidden
    faces (their number only), unless shown (a reveal)."""
    discard: tuple[CardFace, ...]
    """The discard pile, top card last (public)."""
    removed: tuple[CardFace, ...]
    """Cards removed from the game (public)."""
    non_combat: tuple[CardFace, ...]
    drills: tuple[CardFace, ...]
    allies: tuple[CardFace, ...]
    dragon_balls: tuple[CardFace, ...]
    """The balls this seat controls (``owner`` says whose; a captured ball
    is turned)."""
    mastery: CardFace | None
    sensei: CardFace | None
    sensei_deck: tuple[CardFace, ...]
    """Its owner sees it; the other seat sees hidden faces (seed 001)."""
    set_aside: tuple[CardFace, ...]
    """Cards set aside for a moment (a search's chosen cards, shown)."""
    tokui_waza: str | None
    """The declared style, or ``None``."""
    in_control: int | None
    """The Ally in control of Combat, or ``None`` for the Main Personality."""
    searching: bool
    """Searching the Life Deck (the other seat sees only this)."""
    search: tuple[CardFace, ...]
    """The Life Deck's cards during the seat's own search (empty otherwise,
    and always empty in another seat's view)."""
    counters: tuple[tuple[str, int], ...]
    """Custom counters, by name."""
    final_physical_attack_used: bool
    """Whether this Combat's Final Physical Attack was made (seed 001)."""
    fusion: CardFace | None = None
    """The Fusion personality in play (seed 001): the Main Personality when
    ``fusion_is_main``, else one of ``allies``; ``None`` when not fused."""
    fusion_is_main: bool = False
    """Whether the Fusion personality is the Main Personality."""
    fused: tuple[CardFace, ...] = ()
    """The fusion's two components, which return when it defuses."""
    timer: tuple[CardFace, ...] = ()
    """The fusion's timer beneath the anger counter: face down, its owner
    sees the cards and the other seat hidden faces (their number only). At
    five it defuses (seed 001)."""


@dataclass(frozen=True, slots=True)
class CombatPanel:
    """Combat in progress."""

    attacker: int
    defender: int
    phase: str
    """``attacker attacks``, ``defender defends``, ``damage`` …, in words."""
    acting: int
    """The seat that acts now in Combat."""
    passes: int
    """Passes back to back: Combat ends at 2 (seed 003, Combat 5)."""
    attack: str
    """The attack being answered, in words (``""`` when none)."""


@dataclass(frozen=True, slots=True)
class LogLine:
    """One thing that happened, as this seat may read it."""

    kind: str
    text: str
    seat: int | None = None
    """The seat it is about, if one."""


@dataclass(frozen=True, slots=True)
class Offer:
    """A legal action as a seat receives it, with the rules' words."""

    action: Any
    """The action (``dbdeck.games.ccg.table.actions``)."""
    label: str
    group: str
    """Which family it belongs to (``turn``, ``combat``, ``manual`` …)."""

    def to_json(self) -> dict[str, Any]:
        """The offer as JSON data."""
        return {"action": self.action.to_json(), "label": self.label, "group": self.group}


@dataclass(frozen=True, slots=True)
class TableView:
    """The whole table as one seat may see it."""

    viewer: int | None
    """The seat this view is for (``None``: a spectator)."""
    turn: int
    """The turn, from 1."""
    active: int
    """The seat whose turn it is."""
    step: str
    """The turn's step (``draw``, ``non-combat``, ``power-up``, ``combat?``,
    ``combat``, ``discard``, ``pass-bonus``, ``end``, ``over``)."""
    step_words: str
    """The step and what it asks, in words."""
    seats: tuple[SeatPanel, SeatPanel]
    location: CardFace | None
    """The one Location or Battleground in play across the table."""
    combat: CombatPanel | None
    adjudication: str
    """``off``, ``suggest`` or ``apply``."""
    profile: str
    """The rules profile (``errata-2001`` …)."""
    prompt: str
    """What the seat asked now may do, in words."""
    suggestion: str
    """What the rules suggest now (``suggest``), in words, or ``""``."""
    winner: int | None
    result: str
    """How the game ended, in the rulebook's words; ``""`` while it goes on."""
    log: tuple[LogLine, ...]
    """The recent log as this seat may read it."""

    def to_json(self) -> dict[str, Any]:
        """The view as JSON data, as the wire sends it."""
        return dict(_json(self))
