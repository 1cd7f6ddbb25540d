"""Where a card is, and moving it: zones, drawing, shuffling, and the
Dragon Ball's way past the discard pile.
"""

from __future__ import annotations

from typing import get_args

from dbdeck.games.ccg.table.actions import Zone
from dbdeck.games.ccg.table.state import Entry, Side, TableState

__all__ = [
    "ZONES",
    "ball_in_play",
    "discard_card",
    "draw",
    "locate",
    "put",
    "take",
    "zone_list",
]

ZONES: tuple[str, ...] = get_args(Zone)
"""Every zone a card can be moved to by hand (``actions.Zone``)."""

_FIELDS = {
    "life-deck": "life_deck",
    "hand": "hand",
    "discard": "discard",
    "removed": "removed",
    "non-combat": "non_combat",
    "drills": "drills",
    "allies": "allies",
    "dragon-balls": "dragon_balls",
    "sensei-deck": "sensei_deck",
    "set-aside": "set_aside",
    "timer": "timer",
}
"""Each zone's field of a side: the zones of ``ZONES``, and the fusion's
timer beneath the anger counter (no card is moved there by hand)."""


def zone_list(side: Side, zone: str) -> list[int]:
    """The list of uids of one of a side's zones (not ``location``)."""
    cards: list[int] = getattr(side, _FIELDS[zone])
    return cards


def locate(state: TableState, uid: int) -> tuple[int, str] | None:
    """The seat and zone holding ``uid``: a zone of ``ZONES``, ``main`` (the
    Main Personality stack, or a Fusion personality that is the Main
    Personality), ``mastery``, ``sensei``, ``beneath`` or ``timer``;
    ``None`` when no card has that uid."""
    card = state.cards.get(uid)
    if card is None:
        return None
    if card.attached_to is not None:
        return card.owner, "beneath"
    if state.location == uid:
        return card.owner, "location"
    for side in state.sides:
        if uid in side.levels or (uid == side.fusion and side.fused_main):
            return side.seat, "main"
        if side.mastery == uid:
            return side.seat, "mastery"
        if side.sensei == uid:
            return side.seat, "sensei"
        for zone, name in _FIELDS.items():
            if uid in getattr(side, name):
                return side.seat, zone
    return None


def take(state: TableState, uid: int) -> None:
    """Take ``uid`` out of wherever it is (a card stored beneath it goes to
    its owner's discard pile: seed 001, "Face-down cards stored beneath
    another card are discarded when that parent leaves play")."""
    card = state.cards[uid]
    where = locate(state, uid)
    if where is None:
        return
    seat, zone = where
    side = state.side(seat)
    if zone == "beneath":
        parent = state.cards[card.attached_to] if card.attached_to is not None else None
        if parent is not None and uid in parent.beneath:
            parent.beneath.remove(uid)
        card.attached_to = None
    elif zone == "location":
        state.location = None
    elif zone in _FIELDS:
        zone_list(side, zone).remove(uid)
    side.shown.discard(uid)
    if zone not in (
        "hand",
        "life-deck",
        "discard",
        "removed",
        "set-aside",
        "sensei-deck",
        "timer",
    ):
        for child in list(card.beneath):
            state.cards[child].attached_to = None
            state.side(state.cards[child].owner).discard.append(child)
        card.beneath.clear()
    card.used = False
    card.turned = False
    card.stages = None


def put(state: TableState, uid: int, seat: int, zone: str, *, bottom: bool = False) -> None:
    """Put ``uid`` (already taken out) into ``zone`` of ``seat``: on top,
    or at the bottom. A Life Deck's top is its first card, a pile's top its
    last."""
    card = state.cards[uid]
    if zone == "location":
        state.location = uid
        card.face_up = True
        return
    cards = zone_list(state.side(seat), zone)
    top_first = zone == "life-deck"
    if bottom == top_first:
        cards.append(uid)
    else:
        cards.insert(0, uid)
    card.face_up = zone not in ("life-deck", "sensei-deck")


def ball_in_play(state: TableState, ball: tuple[str, int], but: int | None = None) -> bool:
    """Whether a Dragon Ball of that set and number is in play (on any side)."""
    for side in state.sides:
        for uid in side.dragon_balls:
            if uid != but and state.cards[uid].dragon_ball == ball:
                return True
    return False


def discard_card(state: TableState, uid: int, *, adjudicated: bool) -> str:
    """Put a card of ``uid``'s owner into the discard pile; a Dragon Ball
    goes past it (seed 003, Dragon Balls 5): removed from the game if one
    like it is in play, otherwise to the bottom of the Life Deck. Returns
    where it went: ``discard``, ``removed`` or ``life-deck``."""
    card = state.cards[uid]
    take(state, uid)
    if adjudicated and card.dragon_ball is not None:
        if ball_in_play(state, card.dragon_ball):
            put(state, uid, card.owner, "removed")
            return "removed"
        put(state, uid, card.owner, "life-deck", bottom=True)
        return "life-deck"
    put(state, uid, card.owner, "discard")
    return "discard"


def draw(state: TableState, seat: int, count: int, why: str) -> list[int]:
    """Draw up to ``count`` cards from the top of the Life Deck into the
    hand (seed 003: "you just don't draw any cards" from an empty deck); the
    log says how many to everyone and which to the drawer alone."""
    side = state.side(seat)
    drawn = side.life_deck[:count]
    del side.life_deck[: len(drawn)]
    for uid in drawn:
        side.hand.append(uid)
        state.cards[uid].face_up = True
    titles = ", ".join(state.cards[u].title for u in drawn) or "nothing"
    state.log.append(
        Entry(
            "draw",
            f"{side.player} draws {len(drawn)} card{'s' * (len(drawn) != 1)} ({why}).",
            seat,
            f"You drew {titles}.",
        )
    )
    return drawn
