"""Send a market card to the bottom of its deck ("Player Turn", 3: "You may
choose and discard a card from any Market. The discarded card goes to the
bottom of the corresponding deck and is replaced with the top card"): once,
before any Dragon Ball is given and before the Actions phase (rules note
N46)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dbdeck.games.deckbuilding.engine.actions import Action, MarketDiscard
from dbdeck.games.deckbuilding.engine.events import Name
from dbdeck.games.deckbuilding.engine.holders import CharacterRef
from dbdeck.games.deckbuilding.engine.panels import MARKET_TITLES
from dbdeck.games.deckbuilding.engine.state import CharacterState
from dbdeck.games.deckbuilding.engine.zones import restock

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

TYPE = "market-discard"
ACTS = False


def over(ch: CharacterState) -> str | None:
    """Why the Market discard (phase 3) is over this turn, or ``None``."""
    if ch.acted or ch.market_discarded:
        return "one market card may be discarded, before the Actions phase"
    if ch.balls_given:
        # Phase 3 comes before phase 4 (rules note N46).
        return "a market card is discarded before any Dragon Ball is given (phases 3 and 4)"
    return None


def offered(ch: CharacterState, market: str) -> bool:
    """Whether the face-up cards of ``market`` may be discarded now: those of
    the five markets (not the sixth pile), while phase 3 lasts. The listing
    then offers ``of_card`` for each."""
    return market != "sixth" and over(ch) is None


def of_card(market: str, uid: int) -> Action:
    """Discarding one face-up card of a market."""
    return MarketDiscard(market=market, card=uid)


def check(g: Playing, ch: CharacterState, a: MarketDiscard) -> str | None:
    """Phase 3 lasts, and the card is face up in one of the five markets."""
    why = over(ch)
    if why is not None:
        return why
    if a.market not in g.state.markets or a.card not in g.state.markets[a.market].row:
        return "choose a face-up card of one of the five markets"
    return None


def perform(g: Playing, ch: CharacterState, a: MarketDiscard) -> None:
    """The card goes beneath its deck and the row restocks."""
    m = g.state.markets[a.market]
    m.row.remove(a.card)
    m.deck.insert(0, a.card)
    g.state.known[a.card] = ""  # every player saw it go there (rules note N51)
    restock(g, a.market)
    ch.market_discarded = True
    g.log(
        "market",
        "{} sends {} to the bottom of the {} deck.",
        CharacterRef(ch.id),
        Name(a.card),
        a.market,
    )


def label(game: Playing, action: MarketDiscard) -> str:
    """The action in plain words."""
    card = game.name(action.card)
    market = MARKET_TITLES.get(action.market or "", action.market or "")
    return f"Send {card} to the bottom of the {market} deck"


def why_none(game: Playing, ch: CharacterState) -> str:
    """Why no market card can be discarded."""
    if ch.market_discarded:
        return "One market card may be discarded each turn, and one already was."
    if ch.acted:
        return (
            "A market card may be discarded only before the Actions phase: "
            f"{game.name(CharacterRef(ch.id))} has already acted this turn."
        )
    return "No market has a face-up card to discard."
