"""Destroy a card in play for its destroy effect ("Destroying Cards"; the
effect belongs to the card's owner though the card leaves play first, rules
note N39)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dbdeck.games.deckbuilding.engine.actions import Action, Destroy
from dbdeck.games.deckbuilding.engine.actions.base import affordable, first_reason, sentence
from dbdeck.games.deckbuilding.engine.context import EffectContext
from dbdeck.games.deckbuilding.engine.holders import AllyRef, CharacterRef
from dbdeck.games.deckbuilding.engine.state import CharacterState, Unit
from dbdeck.games.deckbuilding.engine.zones import remove_card

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

TYPE = "destroy"
ACTS = True


def of_unit(g: Playing, ch: CharacterState, unit: Unit, out: list[Action]) -> None:
    """Destroying a card in play that has a destroy effect (``check``
    refuses the others, whatever else holds)."""
    if getattr(g.card(unit.uid), "destroy_effects", None):
        out.append(Destroy(card=unit.uid))


def check(g: Playing, ch: CharacterState, a: Destroy) -> str | None:
    """A card in play with a destroy effect the Character can pay."""
    unit = next((u for u in ch.units() if u.uid == a.card), None)
    if unit is None:
        return "that card is not in play beside your board"
    card = g.card(unit.uid)
    effects = getattr(card, "destroy_effects", None) or []
    if not effects:
        return f"{card.name} has no destroy effect"
    return affordable(g, ch, effects)


def perform(g: Playing, ch: CharacterState, a: Destroy) -> None:
    """Destroy the card, then resolve its destroy effect."""
    card = g.card(a.card)
    owner = AllyRef(a.card) if card.kind == "ally" else CharacterRef(ch.id)
    # The effect belongs to the card's owner even though the card leaves play
    # first: an Ally's Dragon Balls go back to its Character (rules note N39).
    remove_card(g, a.card, to_box=True, owner=ch)
    g.push_ops(
        card.id,
        "destroy_effects",
        EffectContext(
            CharacterRef(ch.id) if isinstance(owner, AllyRef) else owner, a.card, voluntary=True
        ),
    )


def label(game: Playing, action: Destroy) -> str:
    """The action in plain words."""
    card = game.name(action.card)
    return f"Destroy {card} for its effect"


def why_none(game: Playing, ch: CharacterState) -> str:
    """Why no card in play can be destroyed for its effect."""
    units = ch.units()
    if not units:
        return f"{game.name(CharacterRef(ch.id))} has no card in play to destroy."
    reason = first_reason(game, (Destroy(card=u.uid) for u in units))
    return sentence(reason or "No card in play has a destroy effect")
