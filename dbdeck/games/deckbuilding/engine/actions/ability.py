"""Use the Character's special ability as an action ("Character Board"; once
per turn, spending a special-ability token unless it is passive, rules note
N27)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from dbdeck.games.deckbuilding.engine.actions import Ability, Action
from dbdeck.games.deckbuilding.engine.actions.base import affordable, sentence
from dbdeck.games.deckbuilding.engine.context import EffectContext
from dbdeck.games.deckbuilding.engine.holders import CharacterRef
from dbdeck.games.deckbuilding.engine.state import CharacterState

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

TYPE = "ability"
ACTS = True


def candidates(g: Playing, ch: CharacterState) -> Iterator[Action]:
    """The one special ability, while it is one to use as an action, unused
    this turn and with a token left (``check`` refuses it else)."""
    ability = g.character_card(ch.id).special_ability
    if ability is None or ability.trigger != "action" or ch.ability_used:
        return
    if ability.uses != "passive" and ch.ability_tokens <= 0:
        return
    yield Ability()


def check(g: Playing, ch: CharacterState, a: Ability) -> str | None:
    """An action ability, unused this turn, with a token left, paid for."""
    ability = g.character_card(ch.id).special_ability
    if ability is None or ability.trigger != "action":
        return "this Character has no special ability to use as an action"
    if ch.ability_used:
        return f"{ability.name} has already been used this turn"
    if ability.uses != "passive" and ch.ability_tokens <= 0:
        return f"{ability.name} has no special-ability tokens left"
    return affordable(g, ch, ability.cost)


def perform(g: Playing, ch: CharacterState, a: Ability) -> None:
    """Spend the token; pay the cost, then resolve the effects."""
    ability = g.character_card(ch.id).special_ability
    assert ability is not None  # check allowed it
    ch.ability_used = True
    if ability.uses != "passive":
        ch.ability_tokens -= 1
    g.log("ability", "{} uses {}.", CharacterRef(ch.id), ability.name)
    ctx = EffectContext(CharacterRef(ch.id), voluntary=True)
    g.push_ops(ch.id, "special_ability.effects", ctx)
    g.push_ops(ch.id, "special_ability.cost", ctx)


def label(game: Playing, action: Ability) -> str:
    """The action in plain words."""
    s = game.state
    active = s.character(s.active) if s.active not in ("", "villain") else None
    assert active is not None
    ability = game.character_card(active.id).special_ability
    return f"Use {ability.name if ability else 'ability'}"


def why_none(game: Playing, ch: CharacterState) -> str:
    """Why the ability cannot be used."""
    return sentence(game.check(Ability()) or "No ability can be used now")
