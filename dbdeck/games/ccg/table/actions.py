"""Every action of the CCG table, one frozen record per kind.

A kind declares exactly the fields it uses; ``seat`` (0 or 1) is the player
who acts. Cards are named by their table uid (``TableCard.uid``); a card of
a zone the acting seat cannot see is never named (the rules refuse it
before saying anything else about it).

Three families:

- **the turn** (``DrawThree`` … ``EndTurn``): the steps of a turn in the
  rulebook's order, Combat's attacks, defences and passes, and the
  consequences the rules leave to a player's choice (where damage goes, a
  capture, the pass bonus);
- **manual moves** (``MoveCard`` … ``Counter``): what a player does by hand
  at a real table (move a card, flip it, shuffle, search, change a counter),
  the way through for whatever needs a card's text;
- **fusion** (``Fuse``, ``FusionTimer``, ``Defuse``): a card's effect fuses
  two personalities (by hand: its text decides), the timer beneath the anger
  counter, and the end of the fusion (seed 001);
- **corrections** (``Overrule``): a player undoes an automatic consequence
  or corrects a counter, and the log says who.

``to_json`` writes ``{"kind": …, fields…}``; the edge models read it back
(``dbdeck.games.ccg.edge_models``), refusing a field a kind does not use.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

__all__ = [
    "ACTION_KINDS",
    "Action",
    "Adjudication",
    "AllowAttack",
    "AnswerOverrule",
    "Attach",
    "Attack",
    "AttackKind",
    "Capture",
    "Counter",
    "CounterName",
    "Cut",
    "DeclareCombat",
    "Defend",
    "Defuse",
    "DiscardDown",
    "DrawCards",
    "DrawThree",
    "EndNonCombat",
    "EndTurn",
    "FinalPhysicalAttack",
    "FinishSearch",
    "Flip",
    "Fuse",
    "FusionTimer",
    "MarkUsed",
    "MoveCard",
    "Overrule",
    "Pass",
    "PassBonus",
    "PlayCard",
    "PowerUp",
    "Reveal",
    "SearchTake",
    "Shuffle",
    "SkipCombat",
    "StartSearch",
    "Stops",
    "TakeControl",
    "TurnCard",
    "UseInstead",
    "Zone",
]

Zone = Literal[
    "life-deck",
    "hand",
    "discard",
    "removed",
    "non-combat",
    "drills",
    "allies",
    "dragon-balls",
    "location",
    "sensei-deck",
    "set-aside",
]
"""Where a card can be moved by hand. The Main Personality stack, the
Mastery and the Sensei card are not zones one moves cards to: the level
counter changes the stack, and a Mastery "cannot be discarded or removed
from play by any means" (seed 003, Mastery Cards 1)."""

AttackKind = Literal["physical", "energy"]
"""An attack is a physical attack or an energy attack (seed 003, Combat 1)."""

Stops = Literal["physical", "energy", "both", "damage"]
"""What a defence stops: one kind of attack, both, or only the damage."""

CounterName = Literal["stages", "anger", "level", "ally-stages", "custom"]
"""The counters a player changes with + and − (seed 001's online table)."""

Adjudication = Literal["off", "suggest", "apply"]
"""How far the table applies the rules: not at all (a tracked table), by
suggesting the consequence, or by applying it."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Action:
    """What every kind has: the acting seat, and JSON."""

    kind: ClassVar[str] = ""
    seat: int
    """The acting player's seat, 0 or 1."""

    def to_json(self) -> dict[str, Any]:
        """The action as JSON data: its kind, then its own fields."""
        data: dict[str, Any] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            data[f.name] = list(value) if isinstance(value, tuple) else value
        return data


# --- the turn -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class DrawThree(Action):
    """Step 1 of a turn: draw the top three cards of the Life Deck (seed 002,
    Example of Play: "I draw three cards into my hand")."""

    kind: ClassVar[str] = "draw-three"


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayCard(Action):
    """Place a card from the hand in play during the Non-Combat step: a
    Non-Combat card, a Drill, an Ally (``over``: the lower level of the same
    Ally it overlays), a Dragon Ball, a Location or a Battleground."""

    kind: ClassVar[str] = "play-card"
    card: int
    over: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class EndNonCombat(Action):
    """End the Non-Combat step and go on to Power Up."""

    kind: ClassVar[str] = "end-non-combat"


@dataclass(frozen=True, slots=True, kw_only=True)
class PowerUp(Action):
    """Power Up: raise a personality's stages by its PUR (+1 with a declared
    Tokui-Waza). ``personality`` is an Ally's uid (seed 003, Allies 7) or
    ``None`` for the Main Personality; ``stages`` is what the rules give, or
    what the player says when no pack gives the PUR."""

    kind: ClassVar[str] = "power-up"
    personality: int | None = None
    stages: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclareCombat(Action):
    """Declare Combat against the other player; the defender draws 3 (seed
    003, Combat 2)."""

    kind: ClassVar[str] = "declare-combat"


@dataclass(frozen=True, slots=True, kw_only=True)
class SkipCombat(Action):
    """Do not enter Combat this turn (the pass bonus may follow)."""

    kind: ClassVar[str] = "skip-combat"


@dataclass(frozen=True, slots=True, kw_only=True)
class TakeControl(Action):
    """Give control of Combat to an Ally (``personality``) or back to the
    Main Personality (``None``): an Ally may take control when the Main
    Personality is at 0 or 1 stage above 0 (seed 003, Allies in Combat 2)."""

    kind: ClassVar[str] = "take-control"
    personality: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Attack(Action):
    """An attack by the personality in control, from a card in the hand, a
    Non-Combat card in play, or a personality power (``source`` ``None``).

    What the program cannot read from a card's text the player gives in the
    quick form: ``cost`` in power stages (an energy attack's default is 2),
    ``stages`` of damage (a physical attack without a number reads the
    Physical Attack Table, or asks), and ``life`` cards of damage (an energy
    attack's default is 4). Seed 003, Energy Attacks 1 and the Combat
    Timing Sequence.
    """

    kind: ClassVar[str] = "attack"
    source: int | None = None
    attack: AttackKind
    cost: int | None = None
    stages: int | None = None
    life: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class UseInstead(Action):
    """Use a card or power in place of an attack: its effects are secondary
    effects the players resolve by hand (seed 003, Combat Cards 1)."""

    kind: ClassVar[str] = "use-instead"
    source: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class FinalPhysicalAttack(Action):
    """Discard a card from the hand for a Final Physical Attack: once per
    Combat, and the attacker passes for the rest of it (seed 003, Physical
    Attacks 2; seed 001)."""

    kind: ClassVar[str] = "final-physical-attack"
    discard: int
    stages: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Defend(Action):
    """Defend against the attack: a card from the hand, a Non-Combat card in
    play or a personality power (``source`` ``None``) that stops it (or only
    its damage). Seed 003, Combat 4."""

    kind: ClassVar[str] = "defend"
    source: int | None = None
    stops: Stops


@dataclass(frozen=True, slots=True, kw_only=True)
class AllowAttack(Action):
    """Do not defend: the attack succeeds and its damage goes to
    ``recipient``, the Main Personality (``None``) or one Ally (seed 003,
    Allies in Combat 1: "All damage is dealt to the selected personality")."""

    kind: ClassVar[str] = "allow-attack"
    recipient: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Capture(Action):
    """Capture one of the defender's Dragon Balls in play (``ball``), or
    decline (``None``), after an attack that discarded 5 or more life cards
    or by a capturing Ally in control (seed 003, Capturing Dragon Balls).
    ``powers``: use all of the ball's powers or none (errata-2001)."""

    kind: ClassVar[str] = "capture"
    ball: int | None = None
    powers: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass(Action):
    """Pass in Combat; Combat ends when both players pass back to back (seed
    003, Combat 5)."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True, kw_only=True)
class DiscardDown(Action):
    """At the end of the turn, discard down to at most one card: ``keep`` is
    the card kept (``None``: keep none). Seed 003, Discarding 1."""

    kind: ClassVar[str] = "discard-down"
    keep: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PassBonus(Action):
    """After passing the whole Combat step: put the top card of the discard
    pile at the bottom of the Life Deck (``take``), or not. Seed 003,
    Discarding 2."""

    kind: ClassVar[str] = "pass-bonus"
    take: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class EndTurn(Action):
    """End the turn; the other player's turn begins."""

    kind: ClassVar[str] = "end-turn"


# --- manual moves ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveCard(Action):
    """Move one of your cards to a zone, on top or at the bottom."""

    kind: ClassVar[str] = "move-card"
    card: int
    to: Zone
    bottom: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Flip(Action):
    """Turn one of your cards in play face down or face up."""

    kind: ClassVar[str] = "flip"
    card: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MarkUsed(Action):
    """Mark one of your cards used, or not, as a reminder."""

    kind: ClassVar[str] = "mark-used"
    card: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnCard(Action):
    """Turn a card sideways, or back (a captured Dragon Ball is turned)."""

    kind: ClassVar[str] = "turn-card"
    card: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Attach(Action):
    """Attach one of your cards to a card in play, or store it beneath one
    (``to``); ``to`` ``None`` detaches it into its owner's discard pile."""

    kind: ClassVar[str] = "attach"
    card: int
    to: int | None = None
    face_down: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class DrawCards(Action):
    """Draw ``count`` cards from the top of your Life Deck by hand."""

    kind: ClassVar[str] = "draw-cards"
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Shuffle(Action):
    """Shuffle your Life Deck or discard pile."""

    kind: ClassVar[str] = "shuffle"
    pile: Literal["life-deck", "discard"] = "life-deck"


@dataclass(frozen=True, slots=True, kw_only=True)
class Cut(Action):
    """Cut the other player's Life Deck, as they offered (seed 001: "Offer a
    cut afterward"); the place of the cut comes from the table's chance."""

    kind: ClassVar[str] = "cut"


@dataclass(frozen=True, slots=True, kw_only=True)
class Reveal(Action):
    """Show cards of your hand to the other player."""

    kind: ClassVar[str] = "reveal"
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class StartSearch(Action):
    """Search your Life Deck privately: the other player sees only that you
    are searching (seed 001)."""

    kind: ClassVar[str] = "start-search"


@dataclass(frozen=True, slots=True, kw_only=True)
class SearchTake(Action):
    """Take the chosen cards out of the Life Deck being searched, shown to
    the other player, to the hand or into play."""

    kind: ClassVar[str] = "search-take"
    cards: tuple[int, ...]
    to: Zone = "hand"


@dataclass(frozen=True, slots=True, kw_only=True)
class FinishSearch(Action):
    """End the search: the Life Deck is shuffled and a cut offered (seed
    001: "show the chosen cards and shuffle afterward")."""

    kind: ClassVar[str] = "finish-search"


@dataclass(frozen=True, slots=True, kw_only=True)
class Counter(Action):
    """Change a counter by ``delta``: power stages, anger, the MP level, an
    Ally's stages (``card``), or a custom counter (``name``)."""

    kind: ClassVar[str] = "counter"
    counter: CounterName
    delta: int
    card: int | None = None
    name: str = ""


# --- fusion ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Fuse(Action):
    """An effect allows two matching-level personalities to fuse: the Fusion
    personality of their level (``fusion``, from your Sensei Deck) replaces
    the pair, one of your Allies (``ally``) and ``partner`` (another of your
    Allies, or ``None`` for your Main Personality), at its highest stage and
    zero anger. With the Main Personality it becomes your Main Personality;
    of two Allies it is one Ally (seed 001)."""

    kind: ClassVar[str] = "fuse"
    fusion: int
    ally: int
    partner: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class FusionTimer(Action):
    """Put the top card of your Life Deck face down beneath the anger
    counter as the fusion's timer, by hand (the table does it at the start
    of each of your turns when it applies the rules: seed 001)."""

    kind: ClassVar[str] = "fusion-timer"


@dataclass(frozen=True, slots=True, kw_only=True)
class Defuse(Action):
    """End your fusion: the Fusion personality is removed from the game,
    both components return at their highest stages, and the timer cards are
    shuffled into the Life Deck (seed 001: at five timer cards, or as a card
    says)."""

    kind: ClassVar[str] = "defuse"


# --- corrections ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Overrule(Action):
    """Propose to take back the last action and everything the table did
    with it (its damage, a capture, a level): the other player is asked to
    agree, and the log says who asked and why (seed 001: "agree on the
    correction")."""

    kind: ClassVar[str] = "overrule"
    reason: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class AnswerOverrule(Action):
    """Agree to the other player's overrule (the table goes back to before
    the last action), or refuse it (nothing changes)."""

    kind: ClassVar[str] = "answer-overrule"
    agree: bool


ACTION_KINDS: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        DrawThree,
        PlayCard,
        EndNonCombat,
        PowerUp,
        DeclareCombat,
        SkipCombat,
        TakeControl,
        Attack,
        UseInstead,
        FinalPhysicalAttack,
        Defend,
        AllowAttack,
        Capture,
        Pass,
        DiscardDown,
        PassBonus,
        EndTurn,
        MoveCard,
        Flip,
        MarkUsed,
        TurnCard,
        Attach,
        DrawCards,
        Shuffle,
        Cut,
        Reveal,
        StartSearch,
        SearchTake,
        FinishSearch,
        Counter,
        Fuse,
        FusionTimer,
        Defuse,
        Overrule,
        AnswerOverrule,
    )
}
"""Every kind by its name on the wire and in saves."""
