"""Moves that waste something, as the engine can tell them: an attack that
deals no damage, a Technique prepared that can have no target when it is
used, an ability that only heals its user at full health or only adds
damage to a turn with nothing to attack (rules notes N19, N49). The table
asks before such a move, and the coach never suggests one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dbdeck.games.deckbuilding.cards.plain import DamageBonus, Heal, Repair, Technique
from dbdeck.games.deckbuilding.engine import combat, preview
from dbdeck.games.deckbuilding.engine.actions import Action

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

__all__ = ["attack_waste", "waste_of"]


def waste_of(game: Playing, action: Action) -> str:
    """Why ``action`` would waste something, in words; ``""`` when it would
    not (or the engine cannot tell)."""
    if action.type == "attack":
        return attack_waste(game, preview.attack_preview(game, action))
    if action.type == "prepare":
        return _lost_technique(game, action)
    if action.type == "ability":
        return _ability_waste(game)
    return ""


def attack_waste(game: Playing, hit: preview.Hit) -> str:
    """Why an attack foreseen as ``hit`` is wasted: it deals no damage."""
    if hit.most > 0 or hit.waits:
        return ""
    return f"This attack deals no damage: {hit.words(game)}."


def _lost_technique(game: Playing, action: Action) -> str:
    """Why a Technique prepared now may have no target when it is used:
    nothing can be attacked yet (Freezer before his ship lands), and nothing
    says the wait ends before the Technique's Time runs out."""
    if action.card is None or combat.enemies_of(game, "players"):
        return ""
    card = game.card_as(action.card, Technique)
    if card.healing:
        return ""
    if not game.hooks.arrived(game):
        why = f"{game.villain_card().name} and his Minions cannot be attacked until he arrives"
    else:
        why = "no enemy can be attacked now"
    return (
        f"{why}, and {card.name} may be used before that changes: "
        "a Technique with no target when it is used is lost."
    )


def _ability_waste(game: Playing) -> str:
    """Why the active Character's ability is wasted: all it does is heal or
    repair its user, who has no damage, or add damage to this turn's
    attacks while no enemy can be attacked (its cost, a card, a token or
    damage taken, is then paid for nothing)."""
    s = game.state
    if s.active in ("", "villain"):
        return ""
    ch = s.character(s.active)
    board = game.character_card(ch.id)
    ability = board.special_ability
    if ability is None or not ability.effects:
        return ""
    effects = ability.effects
    if all(isinstance(op, Heal | Repair) and op.target == "self" for op in effects):
        if ch.damage > 0:
            return ""
        return f"{board.name} has no damage to heal: {ability.name} would heal nothing."
    if all(
        isinstance(op, DamageBonus) and op.target == "self" and op.duration == "this-turn"
        for op in effects
    ):
        # Nothing becomes attackable during a Character's own turn (Freezer
        # lands on a turn-order card of his), so the bonus has no attack.
        if combat.enemies_of(game, "players"):
            return ""
        return f"No enemy can be attacked this turn: {ability.name}'s extra damage would go unused."
    return ""
