"""What several action types share: the acting Character, where a card is,
what a Character may put into play, and what an effect's cost asks for.

Every action module has the shape of ``ActionRules``; the registry holds one
per action type.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from dbdeck.games.deckbuilding.cards import plain as fx
from dbdeck.games.deckbuilding.cards.plain import Equipment
from dbdeck.games.deckbuilding.engine import rules, words
from dbdeck.games.deckbuilding.engine.actions import Action
from dbdeck.games.deckbuilding.engine.actions.kind import ActionKind
from dbdeck.games.deckbuilding.engine.context import EffectContext
from dbdeck.games.deckbuilding.engine.effects import condition_holds
from dbdeck.games.deckbuilding.engine.holders import (
    AllyRef,
    CharacterRef,
    Holder,
    HolderError,
    parse,
)
from dbdeck.games.deckbuilding.engine.rules import can_use_exclusive, limit
from dbdeck.games.deckbuilding.engine.state import CharacterState
from dbdeck.games.deckbuilding.engine.zones import pile_candidates, units_list

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

__all__ = [
    "ActionRules",
    "active",
    "affordable",
    "can_equip",
    "first_reason",
    "hand_cards",
    "holder_name",
    "holder_of",
    "in_hand",
    "market_row",
    "own_balls",
    "physical",
    "replaced_armor",
    "sentence",
    "spendable",
]


Kind = TypeVar("Kind", bound=ActionKind, contravariant=True)
"""The kind of action one module's rules answer for."""


class ActionRules(Protocol[Kind]):
    """One action type's rules: an action module has these names, each
    function taking the module's own kind of action."""

    TYPE: str
    """The action type (``Action.type``) the module answers for."""
    ACTS: bool
    """Whether taking it ends the phases before the Actions phase (the Market
    discard and the giving of Dragon Balls come first; rules note N46)."""

    def check(self, g: Playing, ch: CharacterState, a: Kind, /) -> str | None:
        """Why the active Character may not take ``a`` now, or ``None``."""

    def perform(self, g: Playing, ch: CharacterState, a: Kind, /) -> None:
        """Carry out ``a``, which ``check`` accepted."""

    def label(self, game: Playing, action: Kind, /) -> str:
        """The action in plain words."""


def active(g: Playing) -> CharacterState | None:
    """The Character whose Actions phase it is, if any."""
    s = g.state
    if s.step != "char_main" or s.active in ("", "villain"):
        return None
    return s.character(s.active)


def in_hand(ch: CharacterState, uid: int | None) -> bool:
    """Whether the card is in the Character's hand."""
    return uid is not None and uid in ch.hand


def market_row(g: Playing, market: str | None) -> list[int] | None:
    """The face-up cards of a market (the sixth pile shows its top card);
    ``None`` for no such market."""
    if market == "sixth":
        return g.state.sixth[-1:]
    if market in g.state.markets:
        return g.state.markets[market].row
    return None


def spendable(ch: CharacterState, market: str | None) -> int:
    """The Energy the Character may spend in a market: Training Energy pays
    only for Training (rules note N11)."""
    return ch.energy + (ch.training_energy if market == "training" else 0)


def physical(g: Playing, uid: int) -> bool:
    """Whether the card is a Physical Technique."""
    card = g.card(uid)
    return bool(card.kind == "technique" and card.technique_type == "physical")


def own_balls(g: Playing, ch: CharacterState) -> int:
    """The Dragon Balls the Character and its Allies control."""
    keys: set[Holder] = {CharacterRef(ch.id), *(AllyRef(u.uid) for u in ch.allies)}
    return sum(1 for holder in g.state.balls if holder in keys)


def can_equip(g: Playing, ch: CharacterState, card: Any, leaving: set[int]) -> str | None:
    """Why a Character may not put this Ally, Equipment or Training into play,
    destroying ``leaving`` to make room; ``None`` when it may."""
    if card.kind not in ("ally", "equipment", "training"):
        return f"{card.name} is not an Ally, Equipment or Training"
    race = rules.race_of(g, CharacterRef(ch.id))
    why = can_use_exclusive(race, ch.id, card)
    if why:
        return why
    for condition in getattr(card, "requirements", ()):
        if not condition_holds(g, condition, EffectContext(CharacterRef(ch.id))):
            return f"{card.name}'s requirement is not met"
    units = units_list(ch, card.kind)
    if not leaving <= {u.uid for u in units}:
        return "you can only destroy your own cards of the same kind to make room"
    if len(leaving) > 1:
        return "destroy one card to make room"
    # A new Armor discards the one equipped: that one frees its place before
    # the limit is counted (rules note N23).
    going = leaving | replaced_armor(g, ch, card)
    if card.kind != "ally" and any(
        g.card(u.uid).name == card.name and u.uid not in going for u in units
    ):
        return f"you already have a {card.name} in play"
    if len(units) - len(going) >= limit(race, card.kind):
        return (
            f"you have {len(units)} {card.kind} in play (limit {limit(race, card.kind)}): "
            "destroy one to make room"
        )
    return None


def replaced_armor(g: Playing, ch: CharacterState, card: Any) -> set[int]:
    """The equipped Armor a new Armor would discard ("If you already have an
    Armor equipped, it must be discarded to equip the new Armor")."""
    if card.kind != "equipment" or "armor" not in card.keywords:
        return set()
    return {u.uid for u in ch.equipment if "armor" in g.card_as(u.uid, Equipment).keywords}


def affordable(g: Playing, ch: CharacterState, ops: Any) -> str | None:
    """Why the Character cannot pay an effect's cost (Energy, or cards to
    discard or destroy), or ``None``."""
    for op in ops:
        if isinstance(op, fx.PayEnergy) and ch.energy < op.amount:
            return f"it costs {op.amount} Energy; you have {ch.energy}"
        if isinstance(op, (fx.Discard, fx.Destroy)) and op.source != "this-card":
            found = pile_candidates(g, ch, op.source, op.card_kind, voluntary=True)
            if len(found) < op.count:
                return f"you need {words.count(op.count, op.card_kind + ' card')} to pay for it"
    return None


def holder_of(key: str | None) -> Holder | None:
    """The holder an action's ``target`` or ``source`` names (actions keep
    holders as their keys); ``None`` for none, or for text that names no
    holder (which ``check`` then refuses)."""
    if key is None:
        return None
    try:
        return parse(key)
    except HolderError:
        return None


def holder_name(game: Playing, key: str | None) -> str:
    """A holder key in words."""
    if not key:
        return "?"
    holder = holder_of(key)
    return key if holder is None else game.name(holder)


# --- why no action of a type is legal (``engine.why``) ----------------------------


def sentence(reason: str) -> str:
    """An engine reason as a sentence: a capital first letter, a full stop."""
    reason = reason.strip()
    if not reason:
        return reason
    reason = reason[0].upper() + reason[1:]
    return reason if reason[-1] in ".!?" else reason + "."


def first_reason(game: Playing, actions: Iterable[Action]) -> str | None:
    """The engine's reason for the first of ``actions`` it refuses, or
    ``None`` when one of them is legal (or there is none)."""
    first: str | None = None
    for action in actions:
        reason = game.check(action)
        if reason is None:
            return None
        first = first or reason
    return first


def hand_cards(game: Playing, ch: CharacterState, test: Callable[[Any], bool]) -> list[int]:
    """The cards of the Character's hand that pass ``test``."""
    return [u for u in ch.hand if test(game.card(u))]
