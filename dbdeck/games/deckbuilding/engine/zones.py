"""Card movement that is not an action: drawing, the hand size, restocking and
thinning the markets, who holds a card, discarding and destroying, the cards
an effect may pick or search for, and Minions entering play.

The actions (``dbdeck.games.deckbuilding.engine.actions``), the effect handlers, the Villain
turn and the setup all move cards through these, so a card is never lost or
duplicated on the way ("Destroying Cards", "Market Cards" in the rulebook).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dbdeck.games.deckbuilding.engine import combat, rules, words
from dbdeck.games.deckbuilding.engine.events import Name
from dbdeck.games.deckbuilding.engine.holders import AllyRef, CharacterRef
from dbdeck.games.deckbuilding.engine.state import CharacterState, Unit

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.reach import Reach

__all__ = [
    "ENERGY_KINDS",
    "MARKETS",
    "draw",
    "hand_limit",
    "kind_matches",
    "owner_of",
    "pile_candidates",
    "remove_card",
    "remove_from_market",
    "restock",
    "search_candidates",
    "summon",
    "take_searched",
    "units_list",
]

MARKETS = ("allies", "techniques", "energy", "equipment", "training")
"""The five market decks (the sixth pile is apart)."""
ENERGY_KINDS = ("energy", "concentrated-energy")
"""The card kinds played for Energy."""


def units_list(ch: CharacterState, kind: str) -> list[Unit]:
    """The Character's Allies, Equipment or Training in play."""
    return rules.units_of(ch, kind)


def draw(g: Reach, ch: CharacterState, count: int) -> int:
    """Draw cards; the discard pile is reshuffled when the deck runs out."""
    drawn = 0
    for _ in range(count):
        if not ch.deck:
            if not ch.discard:
                break
            ch.deck = ch.discard
            ch.discard = []
            g.rng.shuffle(ch.deck)
            _rebuilt(g, ch)
            g.log(
                "shuffle",
                "{} shuffles the discard pile into a new deck.",
                CharacterRef(ch.id),
            )
        ch.hand.append(ch.deck.pop())
        drawn += 1
    if drawn:
        g.log(
            "draw",
            "{} draws {}.",
            CharacterRef(ch.id),
            words.count(drawn, "card"),
            private_to=ch.id,
            character=ch.id,
            count=drawn,
        )
    return drawn


def _rebuilt(g: Reach, ch: CharacterState) -> None:
    """What the players know once a discard pile became the deck (rules note
    N51): nothing of the new deck's order, and every card of the hand,
    which came from the old deck or a place they saw."""
    known = g.state.known
    g.state.forget(ch.deck)
    for uid in ch.hand:
        known[uid] = ""


def hand_limit(g: Reach, ch: CharacterState) -> int:
    """The hand size a Character draws back up to."""
    return rules.hand_size(g, ch)


def restock(g: Reach, market: str) -> None:
    """Refill a market row to four face-up cards."""
    m = g.state.markets[market]
    while len(m.row) < 4 and m.deck:
        m.row.append(m.deck.pop())


def remove_from_market(g: Reach, market: str, count: int) -> None:
    """Remove cards from the top of a market deck to the box."""
    m = g.state.markets[market]
    for _ in range(min(count, len(m.deck))):
        g.state.box.append(m.deck.pop())
    g.log("market", f"{words.count(count, 'card')} leave the {market} deck.")


def kind_matches(g: Reach, uid: int, kind: str) -> bool:
    """Whether a card is of a kind filter of the effect operations."""
    card = g.card(uid)
    if kind == "any":
        return True
    if kind in ("energy-technique", "physical-technique"):
        return bool(card.kind == "technique" and card.technique_type == kind.split("-")[0])
    if kind == "energy":
        return bool(card.kind in ENERGY_KINDS)
    return bool(card.kind == kind)


def owner_of(g: Reach, uid: int) -> tuple[CharacterState, str] | None:
    """Which Character holds a card, and where."""
    for ch in g.state.characters:
        for pile in ("hand", "deck", "discard", "played"):
            if uid in getattr(ch, pile):
                return ch, pile
        for kind in ("ally", "equipment", "training"):
            if any(u.uid == uid for u in units_list(ch, kind)):
                return ch, kind
        if any(p is not None and p.uid == uid for p in ch.time_track):
            return ch, "time-track"
    return None


def remove_card(g: Reach, uid: int, *, to_box: bool, owner: CharacterState | None = None) -> None:
    """Discard (to the discard pile) or destroy (to the box) a Character's card."""
    found = owner_of(g, uid)
    if found is None:
        return
    ch, where = found
    followers: list[int] = []
    if where == "time-track":
        slot = next(i for i, p in enumerate(ch.time_track) if p is not None and p.uid == uid)
        prepared = ch.time_track[slot]
        assert prepared is not None
        ch.time_track[slot] = None
        followers = prepared.boosters  # the boosters follow their Technique to the discard
    elif where in ("ally", "equipment", "training"):
        units = units_list(ch, where)
        units.remove(next(u for u in units if u.uid == uid))
        if where == "ally":
            combat.give_balls(g, AllyRef(uid), CharacterRef(ch.id), 7)
    else:
        getattr(ch, where).remove(uid)
    (g.state.box if to_box else ch.discard).append(uid)
    ch.discard += followers
    verb = "destroys" if to_box else "discards"
    g.log("destroy" if to_box else "discard", "{} {} {}.", CharacterRef(ch.id), verb, Name(uid))


def pile_candidates(
    g: Reach, ch: CharacterState, source: str, kind: str, *, voluntary: bool
) -> list[int]:
    """Cards a discard or destroy operation may pick. Starting cards are only
    picked when the player chooses to ("Destroying Cards")."""
    if source in ("hand", "random-from-hand"):
        pool = list(ch.hand)
    elif source == "in-play":
        # Prepared Techniques are in play too, on the Time Track.
        pool = [u.uid for u in ch.units()] + [p.uid for p in ch.time_track if p is not None]
    elif source == "discard-pile":
        pool = list(ch.discard)
    elif source == "deck":
        pool = list(ch.deck)
    else:
        pool = []
    return [
        u
        for u in pool
        if kind_matches(g, u, kind) and (voluntary or not getattr(g.card(u), "starting", None))
    ]


def search_candidates(g: Reach, ch: CharacterState, source: str, kind: str) -> list[int]:
    """Cards a search may find."""
    if source == "market":
        pool = [u for m in MARKETS for u in g.state.markets[m].row]
    else:
        pool = list(ch.deck if source == "deck" else ch.discard)
    return [u for u in pool if kind_matches(g, u, kind)]


def take_searched(g: Reach, ch: CharacterState, uid: int, source: str, destination: str) -> None:
    """Move a searched card to its destination."""
    if source == "market":
        for market in MARKETS:
            if uid in g.state.markets[market].row:
                g.state.markets[market].row.remove(uid)
                restock(g, market)
    else:
        (ch.deck if source == "deck" else ch.discard).remove(uid)
        if source == "deck":
            g.rng.shuffle(ch.deck)
            g.state.forget(ch.deck)
    if destination == "hand":
        ch.hand.append(uid)
        g.state.known[uid] = ""  # taken in front of every player (rules note N51)
    elif destination == "in-play" and g.card(uid).kind in ("ally", "equipment", "training"):
        units_list(ch, g.card(uid).kind).append(Unit(uid))
    else:
        ch.discard.append(uid)
    g.log("search", "{} takes {}.", CharacterRef(ch.id), Name(uid))


def summon(g: Reach, card_id: str, count: int) -> None:
    """Put Minions into play from their side deck (or new copies)."""
    s = g.state
    side = s.villain.side_decks.get(card_id)
    for _ in range(count):
        if side is not None:
            if not side:
                break
            uid = side.pop()
        else:
            uid = g.new_uid(card_id)
        # A Minion that arrives once the Minion activation phase has begun
        # waits for the next Villain turn; one that arrives earlier (or on a
        # Character's turn) activates at the next Minion activation phase.
        late = s.active == "villain" and s.step in ("villain_reveal", "villain_ready")
        s.villain.minions.append(Unit(uid, exhausted=late))
        g.log("summon", "{} enters play.", Name(uid))
