"""One of the worlds a seat cannot tell from the real one.

A copy of a game keeps the real future: the random generator's state, the
order of every deck, the other Characters' hands. A bot that thinks ahead
on such a copy sees what its players cannot (the next cards of the Villain
deck, the dice). ``redeal`` makes the copy fair: it deals again exactly what
the seat that plays ``plays`` cannot know (rules note N51), keeping what it
can:

- each Character's deck, its cards taking one another's places, except a
  card whose place the seat knows (put back on top in front of it);
- the hand of a Character the seat does not play, pooled with that
  Character's deck (the seat saw neither the draws nor the deck), except
  the cards every player knows are in that hand; while that Character
  answers a question its hand is kept (the question names its cards);
- the five market decks (a card seen going beneath keeps its place), the
  sixth pile under its face-up top card, and the turn-order deck;
- the Villain's piles as the Villain's module declares them
  (``VillainRules.hidden_piles``): Freezer's deck Phase by Phase, Raditz's
  with "Call for Help" at the bottom, nothing of Broly's table.

Every count is kept, and every multiset of cards of a pile (a pooled hand
and deck keeps its sum). What another player alone knows moves with the
place: in the world dealt, Gohan's player knows the card dealt on top of
his deck. The result depends only on what the seat knows and on ``rng``:
each pile's cards are sorted before they are shuffled, so two games the
seat cannot tell apart are dealt into the same world by the same generator
(``tests/test_determinize.py``). The world's seed is its own: the setup's
would deal the real game again.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from dbdeck.games.deckbuilding.engine.zones import MARKETS

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing
    from dbdeck.games.deckbuilding.engine.state import GameState

__all__ = ["known_to", "redeal"]


def known_to(g: Playing, plays: frozenset[str]) -> frozenset[int]:
    """The cards of hidden piles whose place the seat that plays ``plays``
    knows (``GameState.known``)."""
    return frozenset(uid for uid, who in g.state.known.items() if not who or who in plays)


def redeal(g: Playing, plays: frozenset[str], rng: random.Random) -> None:
    """Deal again, in place, what the seat that plays ``plays`` cannot know
    (see the module docstring). ``g`` is a copy: the real game is never
    redealt."""
    s = g.state
    known = known_to(g, plays)
    secrets = _secrets(s, plays)
    pending = s.pending
    deciding = pending.decider if pending is not None else ""
    for ch in s.characters:
        if ch.id in plays or ch.id == deciding:
            _deal([ch.deck], None, known, rng)
        else:
            _deal([ch.hand, ch.deck], None, known, rng)
    for cards, i, who in secrets:
        s.known[cards[i]] = who
    for market in MARKETS:
        _deal([s.markets[market].deck], None, known, rng)
    if len(s.sixth) > 1:
        under = s.sixth[:-1]
        _deal([under], None, known, rng)
        s.sixth[:-1] = under
    turn_deck = sorted(s.turn_deck)
    rng.shuffle(turn_deck)
    s.turn_deck = turn_deck
    for pile in g.hooks.hidden_piles(g):
        _deal([pile.cards], pile.groups, known, rng)


def _secrets(s: GameState, plays: frozenset[str]) -> list[tuple[list[int], int, str]]:
    """What another player alone knows of the hands and decks (the card
    Gohan put back on top), by place, taken out of ``GameState.known``: in
    the world dealt, that player knows the card dealt to the same place
    (the real card would tell the seat where it lies)."""
    known = s.known
    if not any(who and who not in plays for who in known.values()):
        return []
    found = []
    for ch in s.characters:
        for pile in (ch.hand, ch.deck):
            for i, uid in enumerate(pile):
                who = known.get(uid, "")
                if who and who not in plays:
                    found.append((pile, i, who))
                    del known[uid]
    return found


def _deal(
    piles: list[list[int]],
    groups: Sequence[Hashable | None] | None,
    known: frozenset[int],
    rng: random.Random,
) -> None:
    """Deal the cards of ``piles`` again among their places, in place: a card
    in ``known`` keeps its place, and with ``groups`` (one per place of a
    single pile) a card takes only the places of its own group. Each group's
    cards are sorted before the shuffle, so the world dealt depends only on
    which cards the places hold, never on their order."""
    if groups is None and all(known.isdisjoint(pile) for pile in piles):
        # The usual case, dealt the same way without listing the places.
        cards = sorted(itertools.chain.from_iterable(piles))
        rng.shuffle(cards)
        at = 0
        for pile in piles:
            pile[:] = cards[at : at + len(pile)]
            at += len(pile)
        return
    places: dict[Hashable, list[tuple[int, int]]] = {}
    for p, pile in enumerate(piles):
        for i, uid in enumerate(pile):
            group = 0 if groups is None else groups[i]
            if group is None or uid in known:
                continue
            places.setdefault(group, []).append((p, i))
    # Groups in the order of their first place: the same for every world
    # the seat cannot tell apart.
    for spots in places.values():
        cards = sorted(piles[p][i] for p, i in spots)
        rng.shuffle(cards)
        for (p, i), uid in zip(spots, cards, strict=True):
            piles[p][i] = uid
