"""The one action language: every change to a game is an action.

The TUI, bots, scenario files, the network and saved games all speak it.
Each kind of action is its own small frozen record with exactly its own
fields (``Buy`` has a ``card`` and a ``market``, ``EndTurn`` none), and
``Action`` is any of them: mypy narrows it on ``action.type``. An action
turns into JSON and back (``to_json``, ``from_json``); data with a field its
kind does not use, a field missing, of the wrong type or out of bounds is
refused, naming the kind and the field.

Each action type's rules live in one module of this package, named after the
type (``buy``, ``play_energy``, ``give_ball``, …): its candidates, its check
(why it is refused), what it does and its label. ``registry`` lists them in
the order the legal actions are listed, and dispatches to them. This module
imports none of them, so the action language stays a leaf anyone may import.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal, TypeAlias, get_args

from dbdeck.games.deckbuilding.engine.actions.kind import MAX_CARDS, ActionKind, BadAction, Bound
from dbdeck.tabletop.game import IllegalMove

__all__ = [
    "ACTION_TYPES",
    "KINDS",
    "KIND_SET",
    "Ability",
    "Action",
    "ActionType",
    "Attack",
    "Avoid",
    "BadAction",
    "Boost",
    "Buy",
    "BuyDragonBall",
    "Choose",
    "Destroy",
    "DuoInvest",
    "EndTurn",
    "EnterRoom",
    "Exhaust",
    "GiveBall",
    "IllegalAction",
    "MarketDiscard",
    "Play",
    "PlayEnergy",
    "Prepare",
    "Steal",
    "VillainAction",
    "action_from_json",
    "shape_problem",
]


class IllegalAction(IllegalMove):
    """The engine refused an action; ``reason`` says why. Nothing changed."""


_FLAG = Bound("int", 0, 1)
"""An ``amount`` that says an option is taken (1) or not."""


class Choose(ActionKind):
    """Answer the pending decision with ``option``."""

    type: ClassVar[Literal["choose"]] = "choose"
    option: int


class PlayEnergy(ActionKind):
    """Play the Energy card ``card`` from hand for its value."""

    type: ClassVar[Literal["play-energy"]] = "play-energy"
    card: int


class Buy(ActionKind):
    """Buy ``card`` from ``market``'s row (``sixth`` for the sixth pile),
    ``cards`` being Energy contributed by other Characters for a Duo, and
    ``amount`` 1 when a God equips the bought Training at once."""

    type: ClassVar[Literal["buy"]] = "buy"
    bounds: ClassVar[Mapping[str, Bound]] = {"amount": _FLAG}
    card: int
    cards: tuple[int, ...] = ()
    market: str
    amount: int | None = None


class BuyDragonBall(ActionKind):
    """Buy a Dragon Ball."""

    type: ClassVar[Literal["buy-dragon-ball"]] = "buy-dragon-ball"


class Steal(ActionKind):
    """Attempt a Steal with ``amount`` dice, from ``target`` when several
    hold Dragon Balls."""

    type: ClassVar[Literal["steal"]] = "steal"
    target: str | None = None
    amount: int


class Play(ActionKind):
    """Put the Ally, Equipment or Training ``card`` into play (or use a
    Capsule), destroying ``cards`` to make room."""

    type: ClassVar[Literal["play"]] = "play"
    card: int
    cards: tuple[int, ...] = ()


class Attack(ActionKind):
    """The Physical Techniques ``cards`` as one attack (a Combo when several)
    on ``target``."""

    type: ClassVar[Literal["attack"]] = "attack"
    bounds: ClassVar[Mapping[str, Bound]] = {"cards": Bound("ints", 1, MAX_CARDS)}
    cards: tuple[int, ...]
    target: str


class Prepare(ActionKind):
    """Put the Energy Technique ``card`` on Time slot ``slot`` (``amount`` 1
    for the Namekian's paid reduction)."""

    type: ClassVar[Literal["prepare"]] = "prepare"
    bounds: ClassVar[Mapping[str, Bound]] = {"amount": _FLAG}
    card: int
    slot: int
    amount: int | None = None


class Boost(ActionKind):
    """Attach the Energy ``card`` to the prepared Technique ``on``."""

    type: ClassVar[Literal["boost"]] = "boost"
    card: int
    on: int


class Exhaust(ActionKind):
    """Use the exhaust effect of the card in play ``card``."""

    type: ClassVar[Literal["exhaust"]] = "exhaust"
    card: int


class Destroy(ActionKind):
    """Destroy the card in play ``card`` for its destroy effect."""

    type: ClassVar[Literal["destroy"]] = "destroy"
    card: int


class Ability(ActionKind):
    """Use the Character's special ability."""

    type: ClassVar[Literal["ability"]] = "ability"


class Avoid(ActionKind):
    """Pay the red text of the prepared Villain attack ``card`` (for one
    enemy's half of a split card, ``source`` names that enemy)."""

    type: ClassVar[Literal["avoid"]] = "avoid"
    card: int
    source: str | None = None


class MarketDiscard(ActionKind):
    """Discard ``card`` from ``market``'s row."""

    type: ClassVar[Literal["market-discard"]] = "market-discard"
    card: int
    market: str


class GiveBall(ActionKind):
    """Move one Dragon Ball from holder ``source`` to ``target``."""

    type: ClassVar[Literal["give-ball"]] = "give-ball"
    target: str
    source: str


class DuoInvest(ActionKind):
    """Set the Energy ``card`` beside the Duo card ``on``."""

    type: ClassVar[Literal["duo-invest"]] = "duo-invest"
    card: int
    on: int


class EnterRoom(ActionKind):
    """Go into the Room of Spirit and Time."""

    type: ClassVar[Literal["enter-room"]] = "enter-room"


class VillainAction(ActionKind):
    """The action the Villain's own rules offer (calm Broly, cut Ozaru's tail)."""

    type: ClassVar[Literal["villain-action"]] = "villain-action"


class EndTurn(ActionKind):
    """End the turn."""

    type: ClassVar[Literal["end-turn"]] = "end-turn"


Action: TypeAlias = (
    Choose
    | PlayEnergy
    | Buy
    | BuyDragonBall
    | Steal
    | Play
    | Attack
    | Prepare
    | Boost
    | Exhaust
    | Destroy
    | Ability
    | Avoid
    | MarketDiscard
    | GiveBall
    | DuoInvest
    | EnterRoom
    | VillainAction
    | EndTurn
)
"""One thing a player does: any kind of action."""

KINDS: Mapping[str, type[Action]] = {kind.type: kind for kind in get_args(Action)}
"""Each kind of action, by its type."""

KIND_SET: frozenset[type[Action]] = frozenset(KINDS.values())
"""Every kind of action (a set, for the engine's quick test of an action)."""

ActionType = Literal[
    "choose",
    "play-energy",
    "buy",
    "buy-dragon-ball",
    "steal",
    "play",
    "attack",
    "prepare",
    "boost",
    "exhaust",
    "destroy",
    "ability",
    "avoid",
    "market-discard",
    "give-ball",
    "duo-invest",
    "enter-room",
    "villain-action",
    "end-turn",
]
"""The name of an action's type."""

ACTION_TYPES: tuple[str, ...] = get_args(ActionType)
"""Every action type."""

assert tuple(KINDS) == ACTION_TYPES, "ActionType names the kinds of Action, in order"


def action_from_json(data: object) -> Action:
    """Read an action back from ``to_json``'s data; raises ``BadAction`` (a
    ``ValueError``) for anything but an action of the engine's own shape,
    naming the kind and the field."""
    if not isinstance(data, dict):
        raise BadAction(f"not an action: {_brief(data)} (an action is a JSON object with a type)")
    kind = KINDS.get(data.get("type"))  # type: ignore[arg-type]
    if kind is None:
        raise BadAction(f"not an action: unknown type {_brief(data.get('type'))}")
    action: Action = kind.read(data)
    return action


def shape_problem(action: object) -> str | None:
    """What makes ``action`` not an action of the engine's own shape (not an
    action, a field of the wrong type or out of bounds), or ``None``."""
    if type(action) not in KIND_SET:
        return f"not an action: {_brief(action)}"
    assert isinstance(action, ActionKind)
    return None if action._fits() else action.problem()


def _brief(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _check_kinds(kinds: Mapping[str, type[Any]]) -> None:
    """Each kind's own bounds name its own fields."""
    for kind in kinds.values():
        for name in kind.bounds:
            assert name in kind.fields, f"{kind.__name__} bounds {name!r}, not one of its fields"


_check_kinds(KINDS)
