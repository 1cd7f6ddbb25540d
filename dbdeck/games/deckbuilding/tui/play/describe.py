"""One line on a card of the table: what it is, what it can do now, and why
not (said under the prompt while a board's cursor is on it)."""

from __future__ import annotations

from dbdeck.games.deckbuilding.engine.panels import MarketCard, Offer, TableView
from dbdeck.games.deckbuilding.tui.widgets import BUY_BALL

__all__ = ["card_name", "card_offers", "describe", "market_card"]


def card_offers(offers: list[Offer], uid: int) -> list[Offer]:
    """The offers that name a card (as the card itself, or the card a
    booster or Energy goes on; attacks with this card alone)."""
    found = []
    for offer in offers:
        action = offer.action
        if action.type == "attack":
            if action.cards == (uid,):
                found.append(offer)
        elif action.type == "give-ball":
            if action.source == f"a:{uid}":  # an Ally giving its Dragon Balls
                found.append(offer)
        elif uid in (action.card, action.on) or uid in action.cards:
            found.append(offer)
    return found


def card_name(view: TableView, uid: int | None) -> str:
    """A card's name, or ``a card`` when the view does not show it."""
    card = view.card(uid) if uid is not None else None
    return card.name if card is not None else "a card"


def market_card(view: TableView, uid: int) -> MarketCard | None:
    """The market's offer of a card, when it lies in a market row."""
    return next((m for market in view.markets for m in market.row if m.card.uid == uid), None)


def describe(view: TableView, offers: list[Offer], uid: int, where: str) -> str:
    """One line on a card of the table: what it is, what it can do, why not."""
    if uid == BUY_BALL:
        board = view.character(view.active)
        cost = f"{board.ball_cost} Energy" if board is not None else "its cost"
        why = view.why("buy-dragon-ball")
        return f"An unclaimed Dragon Ball: {cost}. " + (why or "Enter (or d) to buy it.")
    card = view.card(uid)
    if card is None:
        return ""
    said = [card.name]
    if card.facts:
        said[0] += f" ({card.facts})"
    if where.startswith("market:"):
        offered = market_card(view, uid)
        if offered is not None:
            said.append(offered.price)
            if offered.why_not and offered.why_not != offered.price:
                said.append(offered.why_not)
    able = card_offers(offers, uid)
    if able:
        said.append("Enter for its menu: " + ", ".join(o.label for o in able[:3]))
    if not where.startswith("market:"):
        for note in view.notes_for(uid):
            said.append(note.reason)
    if where == "hand" and card.physical:
        said.append("Space: select for a Combo")
    return ". ".join(s.rstrip(".") for s in said if s) + "."
