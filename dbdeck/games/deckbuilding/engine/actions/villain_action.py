"""The action a Villain's own rules offer the Characters (calm Broly, cut
Ozaru's tail: "Broly" and "Vegeta and Nappa" of the Villains): its check,
deed and name come from the Villain's hooks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from dbdeck.games.deckbuilding.engine.actions import Action, VillainAction
from dbdeck.games.deckbuilding.engine.state import CharacterState

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

TYPE = "villain-action"
ACTS = True


def candidates(g: Playing, ch: CharacterState) -> Iterator[Action]:
    """The one Villain action, when the Villain's rules have one (the
    others refuse it whatever holds)."""
    if g.hooks.OFFERS_ACTION:
        yield VillainAction()


def check(g: Playing, ch: CharacterState, a: VillainAction) -> str | None:
    """The Villain's rules say."""
    reason: str | None = g.hooks.villain_action(g, ch)[1]
    return reason


def perform(g: Playing, ch: CharacterState, a: VillainAction) -> None:
    """The Villain's rules carry it out."""
    g.hooks.take_villain_action(g, ch)


def label(game: Playing, action: VillainAction) -> str:
    """The Villain's name for it."""
    s = game.state
    if s.active in ("", "villain"):
        return TYPE
    name: str = game.hooks.villain_action(game, s.character(s.active))[0] or TYPE
    return name
