"""The menu of one card: what it can do now, what the rules forbid now
(shown disabled, with the engine's reason), and reading its text."""

from __future__ import annotations

from typing import Protocol

from dbdeck.games.deckbuilding.engine.panels import Offer, TableView
from dbdeck.games.deckbuilding.tui.play.describe import card_offers, market_card
from dbdeck.games.deckbuilding.tui.play.picking import labelled
from dbdeck.games.deckbuilding.tui.play.shown import Shown
from dbdeck.games.deckbuilding.tui.widgets import BUY_BALL

__all__ = ["KIND_WORDS", "CardMenus", "card_menu", "forbidden_now"]

KIND_WORDS = {
    "attack": "Attack",
    "prepare": "Prepare",
    "boost": "Boost",
    "play": "Put into play",
    "exhaust": "Exhaust",
    "destroy": "Destroy for its effect",
    "market-discard": "Send to the bottom of its deck",
    "give-ball": "Give a Dragon Ball",
    "buy": "Buy",
}
"""What each kind of a card's action is called in its menu."""


class CardMenus(Shown, Protocol):
    """What a card's menu needs of the screen: to take an offer, to read a
    card, to buy a Dragon Ball, and the card's line."""

    def take(self, offer: Offer) -> None:
        """Take an offer chosen by the player."""
        ...

    def inspect_card(self, card_id: str) -> None:
        """Open the inspector on one card."""
        ...

    def action_buy_ball(self) -> None:
        """Buy an unclaimed Dragon Ball."""
        ...

    def describe(self, uid: int, where: str) -> str:
        """One line on a card of the table."""
        ...


def forbidden_now(view: TableView, offers: list[Offer], uid: int, where: str) -> list[str]:
    """What a card cannot do now, each with the engine's reason (the menu
    shows them disabled)."""
    disabled: list[str] = []
    if where.startswith("market:"):
        offered = market_card(view, uid)
        if offered is not None and not offered.buyable and offered.why_not:
            priced = f" ({offered.price})" if offered.cost is not None else ""
            disabled.append(f"Buy{priced}: {offered.why_not}")
    for note in view.notes_for(uid):
        if not any(o.action.type == note.kind for o in offers):
            kind = KIND_WORDS.get(note.kind, note.kind.replace("-", " ").capitalize())
            disabled.append(f"{kind}: {note.reason}")
    return disabled


def card_menu(screen: CardMenus, uid: int, where: str) -> None:
    """Open the menu of what one card can do now."""
    view = screen.view
    if uid == BUY_BALL:
        screen.action_buy_ball()
        return
    card = view.card(uid)
    if card is None:
        return
    offers = card_offers(screen.offers, uid)
    disabled = forbidden_now(view, offers, uid, where)
    labels = [labelled(o) for o in offers]
    read = f"Read {card.name} (i)"

    def done(index: int | None) -> None:
        if index is None:
            return
        if index < len(offers):
            screen.take(offers[index])
        else:
            screen.inspect_card(card.card)

    from dbdeck.games.deckbuilding.tui.dialogs import DecisionDialog

    dialog = DecisionDialog(
        card.name,
        screen.describe(uid, where),
        [*labels, read],
        cancellable=True,
        disabled=disabled,
    )
    screen.app.push_screen(dialog, done)
