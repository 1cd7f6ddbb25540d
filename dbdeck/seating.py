"""Who sits at a table and how it is run: the players of the Characters,
hidden hands, the Villain's pace, the end-of-turn question.

The seating belongs to the game, not to the terminal that opened it: a save
keeps it, and resuming brings it back (a hidden-hands game stays hidden).
It imports nothing of the rules, the saves or the screens, so each of them
may hold one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = ["MAX_PACE", "Seating"]

MAX_PACE = 10.0
"""The slowest Villain turn: seconds between its steps."""


@dataclass
class Seating:
    """Who plays which Character, and the table's hot-seat settings."""

    players: dict[str, str] = field(default_factory=dict)
    """Player name by Character id."""
    hide_hands: bool = False
    """Hot-seat: hide every hand between turns, and show a hand-off screen
    before each turn (or decision) of another player."""
    pace: float = 0.4
    """Seconds between the steps of the Villain's turn (0: at once)."""
    confirm_end_turn: bool = True
    """Ask before ending a turn with Energy unspent or cards still playable."""
    away: frozenset[str] = frozenset()
    """A shared table: the Characters whose player has left (their seat is
    held until they come back). Not saved: it is the table's news, not the
    game's."""

    bots: frozenset[str] = frozenset()
    """The Characters the table's bot plays (``dbdeck play --bots``), the
    others' players being at the keyboard. Not saved: a resumed game is
    played by whoever the command line names."""

    def player(self, character: str) -> str:
        """The player of a Character."""
        return self.players.get(character, "Player")

    def seated(self, character: str) -> str:
        """The player of a Character, marked when the table's bot plays it:
        ``Player 2, bot``."""
        player = self.player(character)
        return f"{player}, bot" if character in self.bots else player

    def named(self, character: str) -> str:
        """The player of a Character, marked when away or played by the bot:
        ``bob (away)``, ``Player 2, bot``."""
        player = self.seated(character)
        return f"{player} (away)" if character in self.away else player

    def settings_json(self) -> dict[str, Any]:
        """The table's settings as a save keeps them (the players are kept
        on their own, as saves always did)."""
        return {
            "hide_hands": self.hide_hands,
            "pace": self.pace,
            "confirm_end_turn": self.confirm_end_turn,
        }

    @classmethod
    def of_save(cls, players: dict[str, str], settings: dict[str, Any] | None) -> Seating:
        """The seating a save holds; a save from before seatings were kept
        has players only (hands shown, the usual pace), as it was played."""
        seating = cls(players=dict(players))
        if not settings:
            return seating
        hide = settings.get("hide_hands")
        pace = settings.get("pace")
        confirm = settings.get("confirm_end_turn")
        if type(hide) is bool:
            seating.hide_hands = hide
        if isinstance(pace, int | float) and type(pace) is not bool and math.isfinite(pace):
            seating.pace = min(MAX_PACE, max(0.0, float(pace)))
        if type(confirm) is bool:
            seating.confirm_end_turn = confirm
        return seating

    def changed(
        self,
        *,
        hide_hands: bool | None = None,
        pace: float | None = None,
        bots: frozenset[str] | None = None,
    ) -> Seating:
        """This seating with what a command line asked for on resume (``None``
        keeps what the game had)."""
        seating = replace(self, players=dict(self.players))
        if bots is not None:
            seating.bots = bots
        if hide_hands is not None:
            seating.hide_hands = hide_hands
        if pace is not None:
            seating.pace = min(MAX_PACE, max(0.0, pace))
        return seating
