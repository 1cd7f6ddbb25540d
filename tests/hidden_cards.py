"""The host's truth of what a seat may not see, for the privacy tests."""

from __future__ import annotations

from dbdeck.games.deckbuilding.engine.game import Game

__all__ = ["hidden_uids"]


def hidden_uids(game: Game, seat: int | None) -> set[int]:
    """The card instances ``seat`` may not see: every deck, the other seats'
    hands, the sixth pile under its top card, and the face-down side decks
    (a tracker card's cards lie face up)."""
    s = game.state
    hidden: set[int] = set(s.villain.deck)
    for ch in s.characters:
        hidden.update(ch.deck)
        if ch.seat != seat:
            hidden.update(ch.hand)
    for market in s.markets.values():
        hidden.update(market.deck)
    hidden.update(s.sixth[:-1])
    for name, pile in s.villain.side_decks.items():
        if getattr(game.catalog.cards.get(name), "type", "") != "reference":
            hidden.update(pile)
    return hidden
