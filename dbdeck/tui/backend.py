"""What a table screen talks to: a ``TableBackend``, local or remote, of
any game.

A game's table screen and its widgets never see a match: this module, like
them, imports nothing of any game's rules (import-linter contracts keep it
so). They draw the view a backend gives them (the game's own view type),
list the offers it gives them, and send it actions. ``LocalBackend``
(``tui/local.py``) wraps a match on this machine and decides whose eyes are
on the screen in hot-seat play; ``RemoteBackend`` (``tui/joined.py``) wraps
a connection to a shared table; ``ReplayBackend`` (``tui/local.py``) steps
through a saved game. All three know a game only through the game protocol.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from dbdeck.seating import Seating
from dbdeck.tabletop.game import Advice, LogLine

V_co = TypeVar("V_co", covariant=True)
"""The game's view type."""
O_co = TypeVar("O_co", covariant=True)
"""The game's offer type."""

__all__ = [
    "BotTurn",
    "Handoff",
    "OneSeatPerScreen",
    "Outcome",
    "Seating",
    "Suggestion",
    "TableBackend",
]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of an action sent to a backend."""

    accepted: bool
    message: str = ""
    """Why it was refused, or what went wrong."""
    error: bool = False
    """An unexpected failure (a crash report was written), not a refusal."""


@dataclass(frozen=True, slots=True)
class Handoff:
    """Hot-seat: the keyboard must pass to another player before anything
    else is shown or done."""

    seat: int
    player: str
    characters: str
    """The Characters that player runs, in words."""


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A move the bot must make for one of its Characters.

    ``think`` works on a copy of the match taken when the turn was asked
    for, so it may run on any thread while the screen goes on drawing: it
    reads nothing the table changes meanwhile. Its move is played with
    ``TableBackend.play_bot``, which refuses it once the table has moved on.
    """

    think: Callable[[], object]
    """Think the move over (up to the bot's time budget) and return it."""
    version: int
    """The match's version when the turn was asked for."""
    who: str
    """The Characters the bot moves for, in words."""


Suggestion = Advice
"""The coach's move (``dbdeck.tabletop.game.Advice``)."""


class TableBackend(Protocol[V_co, O_co]):
    """What a table screen needs from a game, wherever the game is: views of
    type ``V_co`` and offers of type ``O_co``."""

    @property
    def catalog(self) -> Any:
        """The card content the screen's inspector reads."""
        ...

    seating: Seating
    shared: bool
    """A table of several terminals (chat, seats; undo only when every seat agrees)."""

    def view(self) -> V_co:
        """What the screen may draw now."""
        ...

    def legal_actions(self) -> Sequence[O_co]:
        """What the screen may offer now (empty while it may not act)."""
        ...

    def send(self, action: Any) -> Outcome:
        """Play an action (a remote backend only sends it)."""

    def undo(self) -> Outcome:
        """Take back the last action, where the rules of undo allow."""

    def events(self) -> list[LogLine]:
        """The log lines not yet drawn (each is returned once)."""

    def resume(self) -> Outcome:
        """Play the next step of a paused Villain turn."""

    def handoff(self) -> Handoff | None:
        """A hot-seat hand-off waiting for the next player, if any."""

    def take_keyboard(self) -> None:
        """The player of the pending hand-off is at the keyboard."""

    def hide_hands(self, hide: bool) -> Outcome:
        """Hot-seat: hide (or show) every hand between turns."""

    def suggest(self) -> Suggestion:
        """The coach: the move the bot would make now, and why."""

    def tally(self) -> object:
        """The game's story in numbers (damage dealt, cards bought), in the
        game's own type, when this screen has seen it all; ``None`` when it
        cannot tell."""

    def bot_turn(self) -> BotTurn | None:
        """The move the bot must make now, if one of its Characters acts."""

    def play_bot(self, turn: BotTurn, move: object) -> Outcome:
        """Play the move thought over for ``turn``; refused, changing
        nothing, when the table has moved on since it was asked for."""


class OneSeatPerScreen:
    """The part of a backend whose screen always shows one seat's eyes (a
    joined table, a replay): no Villain turn to step through, no hand-off."""

    hand_rule = ""
    """Why hands cannot be hidden or shown here, in words."""

    def resume(self) -> Outcome:
        """Nothing waits: the Villain's turn comes whole."""
        return Outcome(True)

    def handoff(self) -> Handoff | None:
        """The keyboard never passes."""
        return None

    def take_keyboard(self) -> None:
        """The keyboard never passes."""

    def hide_hands(self, hide: bool) -> Outcome:
        """Which hands show is not this screen's choice."""
        return Outcome(False, self.hand_rule)

    def suggest(self) -> Suggestion:
        """No coach: the game is not on this machine."""
        return Suggestion(None, "", "The coach plays only at a table on this machine.")

    def tally(self) -> object:
        """The counts are kept where the game is."""
        return None

    def bot_turn(self) -> BotTurn | None:
        """The bot plays where the game is, never on this screen."""
        return None

    def play_bot(self, turn: BotTurn, move: object) -> Outcome:
        """The bot plays where the game is, never on this screen."""
        return Outcome(False, "The bot plays where the game is.")
