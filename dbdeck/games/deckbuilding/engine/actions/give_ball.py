"""Give a Dragon Ball to another Character or Ally in play ("Player Turn", 4:
"You may give up Dragon Balls under your control … to any Character or Ally
in play"; "Dragon Balls", 1: "This takes place before the turn's Actions
Phase")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from dbdeck.games.deckbuilding.engine import combat
from dbdeck.games.deckbuilding.engine.actions import Action, GiveBall
from dbdeck.games.deckbuilding.engine.actions.base import holder_name, holder_of
from dbdeck.games.deckbuilding.engine.holders import AllyRef, CharacterRef, Holder
from dbdeck.games.deckbuilding.engine.state import CharacterState

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

TYPE = "give-ball"
ACTS = False


def candidates(g: Playing, ch: CharacterState) -> Iterator[Action]:
    """From each holder of the Character's side with a ball, to each friend."""
    # Dragon Balls are given before the Actions phase (check).
    own: tuple[Holder, ...] = (CharacterRef(ch.id), *(AllyRef(u.uid) for u in ch.allies))
    for source in () if ch.acted else own:
        if combat.balls_of(g, source):
            for target in combat.enemies_of(g, "villain"):
                yield GiveBall(source=source.key, target=target.key)


def check(g: Playing, ch: CharacterState, a: GiveBall) -> str | None:
    """Before acting, from a holder of the Character's with a ball, to another
    Character or Ally in play."""
    if ch.acted:
        return "Dragon Balls are given before the Actions phase"
    own: set[Holder] = {CharacterRef(ch.id), *(AllyRef(u.uid) for u in ch.allies)}
    source, target = holder_of(a.source), holder_of(a.target)
    if source is None or source not in own or combat.balls_of(g, source) == 0:
        return "give a Dragon Ball your Character or one of its Allies controls"
    if target is source or target not in combat.enemies_of(g, "villain"):
        return "give it to a Character or Ally in play"
    return None


def perform(g: Playing, ch: CharacterState, a: GiveBall) -> None:
    """Move one ball."""
    source, target = holder_of(a.source), holder_of(a.target)
    assert source is not None and target is not None
    combat.give_balls(g, source, target)
    ch.balls_given = True
    g.log("balls", "{} gives a Dragon Ball to {}.", source, target)


def label(game: Playing, action: GiveBall) -> str:
    """The action in plain words."""
    return (
        f"Give a Dragon Ball from {holder_name(game, action.source)} to "
        f"{holder_name(game, action.target)}"
    )


def why_none(game: Playing, ch: CharacterState) -> str:
    """Why no Dragon Ball can be given."""
    name = game.name(CharacterRef(ch.id))
    own: list[Holder] = [CharacterRef(ch.id), *(AllyRef(u.uid) for u in ch.allies)]
    if not any(combat.balls_of(game, k) for k in own):
        return f"Neither {name} nor their Allies control a Dragon Ball to give."
    if ch.acted:
        return (
            f"Dragon Balls are given before the Actions phase: {name} has already acted this turn."
        )
    return "There is no other Character or Ally in play to give a Dragon Ball to."
