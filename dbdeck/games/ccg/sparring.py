"""A table at one keyboard where the sparring bot plays one seat.

The keyboard always shows the player's own seat: the bot's hand is never
drawn. After each of the player's actions, the bot makes its moves (each an
ordinary action, saved and replayed like any) until the player is asked
again or the game ends. Undo goes back past the bot's moves to the player's
own last action, or as far as hidden information allows (then the bot
plays on from there).
"""

from __future__ import annotations

import random
from typing import Any

from dbdeck.saves import Session
from dbdeck.tui.backend import Outcome
from dbdeck.tui.local import LocalBackend

__all__ = ["BOT_NAME", "SparringBackend"]

BOT_NAME = "Sparring bot"
"""The bot seat's player: a resumed game knows its bot by this name."""

MAX_BOT_MOVES = 400
"""The most moves the bot makes in a row (a safety: its turn ends long before)."""


class SparringBackend(LocalBackend):
    """A ``LocalBackend`` whose other seat the sparring bot plays."""

    def __init__(self, session: Session[Any], bot_seat: int) -> None:
        self.bot_seat = bot_seat
        self.player_seat = 1 - bot_seat
        self._bot_rng = random.Random(f"sparring:{session.id}")
        super().__init__(session)
        self._bot_moves()

    def _settle(self) -> None:
        """The keyboard is the player's seat, always."""
        self._waiting = None
        self.keyboard = self.player_seat

    def send(self, action: object) -> Outcome:
        """The player's action, then the bot's moves."""
        outcome = super().send(action)
        if outcome.accepted:
            self._bot_moves()
        return outcome

    def undo(self) -> Outcome:
        """Undo back to the player's own last action (past the bot's)."""
        outcome = super().undo()
        while outcome.accepted and self._actor_seat() == self.bot_seat:
            again = super().undo()
            if not again.accepted:
                # Hidden cards came to light since the player's move: the
                # bot plays on from here.
                self._bot_moves()
                break
        return outcome

    def _bot_moves(self) -> None:
        for _ in range(MAX_BOT_MOVES):
            if self.match.over or self._actor_seat() != self.bot_seat:
                return
            move = self.match.bot_move(self._bot_rng)
            if not self._guarded(lambda move=move: self._apply(move)).accepted:  # type: ignore[misc]
                return
