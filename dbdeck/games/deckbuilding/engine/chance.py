"""The game's one random generator.

Every die, shuffle and "card at random" of a game comes from one seeded
generator held by the game, so the same seed and the same actions make the
same game. The draws the rules make have their own named methods, so a test
table (a scenario) can fix any of them, not only the dice.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

__all__ = ["TableRandom"]


class TableRandom(random.Random):
    """A ``random.Random`` with the rules' own draws named."""

    def card_at_random(self, uids: Sequence[int]) -> int:
        """One card of ``uids`` chosen at random ("a card at random from a hand")."""
        return uids[self.randrange(len(uids))]
