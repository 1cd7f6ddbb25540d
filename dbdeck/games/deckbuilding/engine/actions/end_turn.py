"""End the turn: the Actions phase is over ("Player Turn", 5: "in any order
and any number of times" — until the player says it is done)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from dbdeck.games.deckbuilding.engine.actions import Action, EndTurn
from dbdeck.games.deckbuilding.engine.state import CharacterState

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

TYPE = "end-turn"
ACTS = False


def candidates(g: Playing, ch: CharacterState) -> Iterator[Action]:
    """Ending the turn is always offered first."""
    yield EndTurn()


def check(g: Playing, ch: CharacterState, a: EndTurn) -> str | None:
    """The turn may always end in the Actions phase."""
    return None


def perform(g: Playing, ch: CharacterState, a: EndTurn) -> None:
    """Go on to the end of the Character's turn."""
    g.state.step = "char_end"


def label(game: Playing, action: EndTurn) -> str:
    """The action in plain words."""
    return "End the turn"


def why_none(game: Playing, ch: CharacterState) -> str:
    """Why the turn cannot end (it always can in the Actions phase)."""
    return "The turn cannot end now."
