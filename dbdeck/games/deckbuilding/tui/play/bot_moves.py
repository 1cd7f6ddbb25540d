"""The bot's teammate moves at a table on this machine (``dbdeck play
--bots``), thought over away from the screen.

A move can take the bot up to its think budget (half a second, and a turn
is a dozen moves or more): thought over on the screen's own thread, it would
freeze the table for the whole turn. Here each move is thought over on a
worker thread, on a copy of the match (``BotTurn``), while the screen goes
on drawing and answering keys; the move is then played on the screen's
thread, the table redrawn, and the next one thought over. A move thought
over for a table that moved on meanwhile (an undo) is refused by the
backend and thought over again.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from textual.message import Message
from textual.screen import Screen

from dbdeck.tui.backend import BotTurn, Outcome, TableBackend

__all__ = ["BOT_PAUSE", "BotMoved", "BotMoves"]

BOT_PAUSE = 0.25
"""Seconds a bot move stays on the table at least before the next (so the
players can follow it); none when the table's pace is 0."""


class BotMoved(Message):
    """The bot has thought its move over (posted from the worker thread;
    the screen hands it to ``BotMoves.play``)."""

    def __init__(self, turn: BotTurn, move: object) -> None:
        super().__init__()
        self.turn = turn
        self.move = move


class BotMoves:
    """Thinks over the bot's moves for one table screen, one at a time."""

    def __init__(
        self,
        screen: Screen[Any],
        backend: TableBackend[object, object],
        played: Callable[[Outcome], None],
    ) -> None:
        """``played`` is told on the screen's thread, after each move the
        bot made (or could not make), so the screen redraws."""
        self._screen = screen
        self._backend = backend
        self._played = played
        self.thinking: BotTurn | None = None
        """The turn being thought over, if any."""

    def due(self, pace: float) -> bool:
        """Whether the bot must move now; if so, and it is not already
        thinking, start thinking over its move. The screen then waits for
        it: nothing at this keyboard acts meanwhile."""
        if self.thinking is not None:
            return True
        turn = self._backend.bot_turn()
        if turn is None:
            return False
        self.thinking = turn
        pause = min(pace, BOT_PAUSE)
        self._screen.run_worker(
            lambda: self._think(turn, pause),
            name="bot move",
            group="bot",
            thread=True,
            exit_on_error=False,
        )
        return True

    def _think(self, turn: BotTurn, pause: float) -> None:
        """On the worker thread: think, then hand the move to the screen."""
        started = time.monotonic()
        move = turn.think()
        left = pause - (time.monotonic() - started)
        if left > 0:
            time.sleep(left)
        # Posting is safe from any thread, and never waits: a screen that
        # closed meanwhile simply never reads it.
        self._screen.post_message(BotMoved(turn, move))

    def play(self, moved: BotMoved) -> None:
        """On the screen's thread: play the move thought over."""
        if moved.turn is not self.thinking:
            return
        self.thinking = None
        self._played(self._backend.play_bot(moved.turn, moved.move))
