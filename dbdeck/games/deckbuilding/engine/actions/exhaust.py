"""Exhaust a card in play for its exhaust effect ("Player Turn", 5 a:
"Exhaust a card to activate the 'exhaust' effect in its text box"); the
Search keyword finds an unclaimed Dragon Ball (rules note N5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dbdeck.games.deckbuilding.engine import combat
from dbdeck.games.deckbuilding.engine.actions import Action, Exhaust
from dbdeck.games.deckbuilding.engine.actions.base import affordable, first_reason, sentence
from dbdeck.games.deckbuilding.engine.context import EffectContext
from dbdeck.games.deckbuilding.engine.holders import AllyRef, CharacterRef
from dbdeck.games.deckbuilding.engine.state import CharacterState, Unit

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

TYPE = "exhaust"
ACTS = True


def of_unit(g: Playing, ch: CharacterState, unit: Unit, out: list[Action]) -> None:
    """Exhausting a ready card in play that has something to exhaust for
    (``check`` refuses the others, whatever else holds)."""
    if unit.exhausted:
        return
    card = g.card(unit.uid)
    if getattr(card, "exhaust_effects", None) or "search" in getattr(card, "keywords", ()):
        out.append(Exhaust(card=unit.uid))


def check(g: Playing, ch: CharacterState, a: Exhaust) -> str | None:
    """A ready card in play with an exhaust effect the Character can pay."""
    unit = next((u for u in ch.units() if u.uid == a.card), None)
    if unit is None:
        return "that card is not in play beside your board"
    card = g.card(unit.uid)
    if unit.exhausted:
        return f"{card.name} is exhausted"
    effects = getattr(card, "exhaust_effects", None) or []
    if not effects and "search" not in getattr(card, "keywords", ()):
        if getattr(card, "rule", None) == "room-of-spirit-and-time":
            return "use the enter-room action"
        return f"{card.name} has no exhaust effect"
    return affordable(g, ch, effects)


def perform(g: Playing, ch: CharacterState, a: Exhaust) -> None:
    """Exhaust the card; Search, then its exhaust effect."""
    unit = next(u for u in ch.units() if u.uid == a.card)
    unit.exhausted = True
    card = g.card(unit.uid)
    owner = AllyRef(unit.uid) if card.kind == "ally" else CharacterRef(ch.id)
    g.log("exhaust", "{} exhausts {}.", CharacterRef(ch.id), card.name)
    if "search" in getattr(card, "keywords", ()) and combat.give_balls(g, None, owner):
        g.log("balls", f"{card.name} finds an unclaimed Dragon Ball.")
    if getattr(card, "exhaust_effects", None):
        g.push_ops(card.id, "exhaust_effects", EffectContext(owner, unit.uid, voluntary=True))


def label(game: Playing, action: Exhaust) -> str:
    """The action in plain words."""
    card = game.name(action.card)
    return f"Exhaust {card}"


def why_none(game: Playing, ch: CharacterState) -> str:
    """Why no card in play can be exhausted."""
    units = ch.units()
    if not units:
        return f"{game.name(CharacterRef(ch.id))} has no card in play to exhaust."
    reason = first_reason(game, (Exhaust(card=u.uid) for u in units))
    if all(u.exhausted for u in units):
        return "Every card in play is exhausted: a card is readied at the start of its turn."
    return sentence(reason or "No card can be exhausted now")
