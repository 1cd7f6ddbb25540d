"""One of the tables a seat cannot tell from the real one: what it cannot
know dealt again (``CcgMatch.determinize``, rules note T11).

What a seat cannot know at this table is what its view leaves out
(``seat_view``): the order of each Life Deck (its own too), and of the other
player the hand and the Sensei Deck. So:

- the seat's own Life Deck is shuffled, unless the seat is searching it (a
  search shows it in order);
- the other player's hand, Life Deck and a fusion's timer cards (face down
  beneath the anger counter: the seat sees how many) are pooled and dealt
  again, the hand keeping its count and the cards it has shown (seed 001, a
  reveal); a card moving between them turns face up or down as it goes;
- the other player's Sensei Deck is shuffled.

A card put at a known place of a Life Deck (the pass bonus beneath it, a
Dragon Ball past the discard pile) is dealt again with the rest: the table
does not yet remember such places. The table before the last action (kept
for an agreed overrule) is dropped: it holds the real hidden cards; so are
the words the log told the other seat alone (the cards it drew).

Each pool is sorted by uid before it is shuffled, so the table dealt
depends only on what the seat knows and on the generator.
"""

from __future__ import annotations

import random
from dataclasses import replace

from dbdeck.games.ccg.table.state import Entry, TableState

__all__ = ["redeal", "told"]


def redeal(state: TableState, seats: frozenset[int], rng: random.Random) -> None:
    """Deal again, in place on a copy, what a seat playing ``seats`` cannot
    know (see the module docstring)."""
    for side in state.sides:
        if side.seat in seats:
            if not side.searching:
                _deal(state, [side.life_deck], frozenset(), rng)
            continue
        _deal(state, [side.hand, side.life_deck, side.timer], frozenset(side.shown), rng)
        _deal(state, [side.sensei_deck], frozenset(), rng)
        for uid in side.hand:
            state.cards[uid].face_up = True
        for uid in (*side.life_deck, *side.timer):
            state.cards[uid].face_up = False
    state.previous = None
    state.proposal = None
    state.log = told(state.log, seats)


def told(entries: list[Entry], seats: frozenset[int]) -> list[Entry]:
    """Log entries without the words they told another seat alone (the
    cards it drew): not the seat's to read, nor true of a table dealt again."""
    return [
        entry if entry.seat in seats or not entry.private else replace(entry, private="")
        for entry in entries
    ]


def _deal(
    state: TableState, piles: list[list[int]], kept: frozenset[int], rng: random.Random
) -> None:
    """The cards of ``piles`` dealt again among their places, in place; a
    card of ``kept`` keeps its place."""
    spots = [
        (p, i) for p, pile in enumerate(piles) for i, uid in enumerate(pile) if uid not in kept
    ]
    cards = sorted(piles[p][i] for p, i in spots)
    rng.shuffle(cards)
    for (p, i), uid in zip(spots, cards, strict=True):
        piles[p][i] = uid
