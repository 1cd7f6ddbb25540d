"""What each seat may see, and the table a client draws from it.

The server sends ``seat_view`` and ``seat_events`` only: another seat's hand,
every deck's order, the seed (which would let anyone replay the shuffles) and
another seat's private choices never leave it. The client turns a view back
into a ``ShadowGame``: the same state objects the table's widgets draw, with
face-down cards where the view holds only a count.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from dbdeck.cards.catalog import Catalog
from dbdeck.cards.models import Reference
from dbdeck.engine.actions import Action, IllegalAction
from dbdeck.engine.events import Event
from dbdeck.engine.game import Game
from dbdeck.engine.state import state_from_data

__all__ = ["FACE_DOWN", "ShadowGame", "face_down_catalog", "seat_events", "seat_view"]

FACE_DOWN = "face-down"
"""The card id of a card the client may not see."""


def _own(game: Game, seat: int | None) -> set[str]:
    return {c.id for c in game.state.characters if c.seat == seat}


def seat_view(game: Game, seat: int | None) -> dict[str, Any]:
    """The game as ``seat`` may see it (``None``: a spectator)."""
    s = game.state
    own = _own(game, seat)
    hidden: set[int] = set()
    for ch in s.characters:
        hidden.update(ch.deck)
        if ch.id not in own:
            hidden.update(ch.hand)
    for market in s.markets.values():
        hidden.update(market.deck)
    hidden.update(s.villain.deck)
    for name, pile in s.villain.side_decks.items():
        if getattr(game.catalog.cards.get(name), "type", "") != "reference":
            hidden.update(pile)  # a deck; cards laid on a tracker card lie face up
    hidden.update(s.sixth[:-1])
    view = game.view(seat)
    # The seed and the uid of every unseen card would let a client rebuild
    # hidden orders: both stay on the server.
    view["seed"] = 0
    view["card_ids"] = ["" if uid in hidden else cid for uid, cid in enumerate(s.card_ids)]
    pending = view.get("pending")
    if pending and pending["decider"] not in ("players", *own):
        pending["options"] = [{"label": "…"} for _ in pending["options"]]
    return view


def seat_events(events: list[Event], game: Game, seat: int | None) -> list[dict[str, Any]]:
    """Events as ``seat`` may see them: the details of another seat's private
    events (what they drew) are left out."""
    own = _own(game, seat)
    out = []
    for event in events:
        data = event.to_json()
        if event.private_to and event.private_to not in own:
            data["data"] = {}
        data.pop("private_to", None)
        out.append(data)
    return out


def face_down_catalog(catalog: Catalog) -> Catalog:
    """The catalog with one more card: the back of a card."""
    if FACE_DOWN in catalog:
        return catalog
    back = Reference(
        kind="villain-card",
        type="reference",
        id=FACE_DOWN,
        name="Face-down card",
        text="A card you may not see.",
        villain=FACE_DOWN,
    )
    return Catalog(cards={**catalog.cards, FACE_DOWN: back}, files=dict(catalog.files))


class ShadowGame(Game):
    """A client's copy of the table, built from a view: drawn by the same
    widgets, but it never plays. Legal actions are the server's list."""

    offered: list[Action]

    @classmethod
    def from_view(
        cls, catalog: Catalog, view: dict[str, Any], legal: list[dict[str, Any]]
    ) -> ShadowGame:
        """Rebuild the state objects from a view (face-down cards for counts)."""
        data = copy.deepcopy(view)
        card_ids: list[str] = [cid or FACE_DOWN for cid in data["card_ids"]]

        def backs(count: Any) -> list[int]:
            if isinstance(count, list):
                return count
            start = len(card_ids)
            card_ids.extend([FACE_DOWN] * int(count))
            return list(range(start, start + int(count)))

        for ch in data["characters"]:
            ch["deck"] = backs(ch["deck"])
            ch["hand"] = backs(ch["hand"])
        for market in data["markets"].values():
            market["deck"] = backs(market["deck"])
        villain = data["villain"]
        villain["deck"] = backs(villain["deck"])
        villain["side_decks"] = {k: backs(v) for k, v in villain["side_decks"].items()}
        if not isinstance(data["turn_deck"], list):
            data["turn_deck"] = ["?"] * int(data["turn_deck"])
        data["stack"] = []
        data["card_ids"] = card_ids
        game = cls(face_down_catalog(catalog), state_from_data(data), random.Random(0))
        game.offered = [Action.from_json(a) for a in legal]
        return game

    def legal_actions(self) -> list[Action]:
        """The actions the server offers this client now."""
        return list(self.offered)

    def apply(self, action: Action) -> list[Event]:
        """A shadow never plays: actions go to the server."""
        raise IllegalAction("this table is played on the server")
