"""Set an Energy card beside a Duo card of the Ally Market, playing solo
("Duo Cards"; rules note N33): one a turn; the Energy pays when the Duo
card is bought."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dbdeck.games.deckbuilding.cards.plain import Ally
from dbdeck.games.deckbuilding.engine.actions import Action, DuoInvest
from dbdeck.games.deckbuilding.engine.actions.base import in_hand
from dbdeck.games.deckbuilding.engine.events import Name
from dbdeck.games.deckbuilding.engine.holders import CharacterRef
from dbdeck.games.deckbuilding.engine.state import CharacterState
from dbdeck.games.deckbuilding.engine.zones import ENERGY_KINDS

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

TYPE = "duo-invest"
ACTS = True


HAND_KINDS: tuple[str, ...] = ENERGY_KINDS
"""The kinds of hand card ``from_hand`` may offer an action for."""


def from_hand(g: Playing, ch: CharacterState, uid: int, card: Any, out: list[Action]) -> None:
    """An Energy card of the hand beside each Duo card, playing solo."""
    if card.kind in ENERGY_KINDS and len(g.state.characters) == 1:
        for duo in g.state.markets["allies"].row:
            if g.card_as(duo, Ally).duo:
                out.append(DuoInvest(card=uid, on=duo))


def check(g: Playing, ch: CharacterState, a: DuoInvest) -> str | None:
    """Solo, an Energy card of the hand, a Duo card of the row, once a turn."""
    if len(g.state.characters) != 1:
        return "Energy is set beside a Duo card only when playing solo"
    if a.card is None or not in_hand(ch, a.card) or g.card(a.card).kind not in ENERGY_KINDS:
        return "set an Energy card from your hand"
    row = g.state.markets["allies"].row
    if a.on not in row or not g.card_as(a.on, Ally).duo:
        return "choose a Duo card of the Ally Market"
    if ch.duo_invested:
        return "one Energy card per turn goes beside a Duo card"
    return None


def perform(g: Playing, ch: CharacterState, a: DuoInvest) -> None:
    """The card waits beside the Duo card."""
    ch.hand.remove(a.card)
    ch.duo_energy.setdefault(a.on, []).append(a.card)
    ch.duo_invested = True
    g.log("duo", "{} sets {} beside {}.", CharacterRef(ch.id), Name(a.card), Name(a.on))


def label(game: Playing, action: DuoInvest) -> str:
    """The action in plain words."""
    card = game.name(action.card)
    return f"Set {card} beside {game.name(action.on)}"
