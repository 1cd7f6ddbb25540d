"""Invariants a game must keep after every action, for tests and the sim.

Every card instance is in exactly one place, the seven Dragon Balls are
held by someone in play (or unclaimed), and damage stays within health.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from dbdeck.games.deckbuilding.cards.kinds import MARKET_OF_KIND
from dbdeck.games.deckbuilding.engine import combat, rules
from dbdeck.games.deckbuilding.engine.attacks import AttackUsed, Fire, Used, VillainAttack
from dbdeck.games.deckbuilding.engine.holders import VILLAIN, AllyRef, CharacterRef, MinionRef

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.reach import Reach

__all__ = ["card_places", "problems"]


def card_places(g: Reach) -> Iterator[tuple[str, int]]:
    """Every card instance with the name of the place it is in."""
    s = g.state
    for ch in s.characters:
        for pile in ("deck", "hand", "discard", "played"):
            for uid in getattr(ch, pile):
                yield f"{ch.id}.{pile}", uid
        for unit in ch.units():
            yield f"{ch.id}.in-play", unit.uid
        for prepared in ch.time_track:
            if prepared is not None:
                yield f"{ch.id}.time-track", prepared.uid
                for booster in prepared.boosters:
                    yield f"{ch.id}.booster", booster
        for invested in ch.duo_energy.values():
            for uid in invested:
                yield f"{ch.id}.duo", uid
    for name, market in s.markets.items():
        for uid in market.deck:
            yield f"{name}.deck", uid
        for uid in market.row:
            yield f"{name}.row", uid
    for uid in s.sixth:
        yield "sixth", uid
    v = s.villain
    for pile in ("deck", "discard"):
        for uid in getattr(v, pile):
            yield f"villain.{pile}", uid
    for name, side in v.side_decks.items():
        for uid in side:
            yield f"villain.side.{name}", uid
    for slot in v.time_track:
        for prepared in slot:
            yield "villain.time-track", prepared.uid
    for unit in v.minions:
        yield "villain.minions", unit.uid
    for uid in s.box:
        yield "box", uid
    # Cards being used: off the Time Track, not yet discarded.
    on_villain_track = {p.uid for slot in v.time_track for p in slot}
    resolving: set[int] = set()
    used = {uid for task in s.stack if isinstance(task, Used) for uid in task.uids}
    for task in s.stack:
        if isinstance(task, VillainAttack | AttackUsed):
            uid = task.uid
            if uid not in resolving and uid not in on_villain_track:
                resolving.add(uid)  # both halves of a split card: one card
                yield "resolving", uid
        elif isinstance(task, Fire):
            for uid in (task.uid, *task.boosters):
                if uid not in used:
                    yield "resolving", uid
        elif isinstance(task, Used):
            for uid in task.uids:
                yield "resolving", uid


def _made_from_nothing(g: Reach) -> list[str]:
    """Market cards with more instances than the card set holds (its copies,
    plus those a chosen Character's board starts with): a card is always
    taken from where it is, never made anew."""
    s = g.state
    allowed: Counter[str] = Counter()
    for ch in s.characters:
        for entry in g.character_card(ch.id).starting_cards:
            allowed[entry.card] += entry.copies
    found = []
    for card_id, made in Counter(s.card_ids).items():
        card = g.catalog.cards.get(card_id)
        if card is None or getattr(card, "starting", True) or card.kind not in MARKET_OF_KIND:
            continue
        most = int(getattr(card, "copies", 1)) + allowed[card_id]
        if made > most:
            found.append(f"{made} instances of {card_id}: the card set holds {most}")
    return found


def problems(g: Reach) -> list[str]:
    """What is wrong with the game's state now (empty when all is well)."""
    s = g.state
    found: list[str] = []
    seen = Counter(uid for _, uid in card_places(g))
    split_uids = {uid for slot in s.villain.time_track for p in slot for uid in [p.uid]}
    for uid, count in seen.items():
        if count > 1 and uid not in split_uids:
            places = [place for place, u in card_places(g) if u == uid]
            found.append(f"card {uid} ({s.card_ids[uid]}) is in {count} places: {places}")
    missing = set(range(len(s.card_ids))) - set(seen)
    for uid in sorted(missing):
        found.append(f"card {uid} ({s.card_ids[uid]}) is nowhere")
    found += _made_from_nothing(g)
    if len(s.balls) != 7:
        found.append(f"{len(s.balls)} Dragon Balls instead of 7")
    for holder in s.balls:
        if holder is None or holder is VILLAIN:
            continue
        in_room = isinstance(holder, CharacterRef) and s.character(holder.id).room_tokens >= 0
        if not combat.alive(g, holder) and not in_room:
            found.append(f"a Dragon Ball is held by {holder.key}, who is not in play")
    for ch in s.characters:
        key = CharacterRef(ch.id)
        if ch.damage < 0:
            found.append(f"{ch.id} has negative damage")
        if ch.in_play() and ch.damage >= rules.max_health(g, key) and not s.winner:
            found.append(f"{ch.id} has {ch.damage} damage but is not defeated")
        for unit in ch.allies:
            if not 0 <= unit.damage < rules.max_health(g, AllyRef(unit.uid)):
                found.append(f"ally {unit.uid} has {unit.damage} damage")
    for unit in s.villain.minions:
        if not 0 <= unit.damage < rules.max_health(g, MinionRef(unit.uid)):
            found.append(f"minion {unit.uid} has {unit.damage} damage")
    if not s.winner and not s.villain.damage >= 0:
        found.append(f"the Villain has {s.villain.damage} damage")
    return found
