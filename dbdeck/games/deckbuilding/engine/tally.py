"""The story of a game in numbers, for the summary a finished game shows.

A ``Tally`` is fed every event as it happens (or as a save is replayed):
the damage each Character dealt to the Villain's side (its Allies' damage
counts as its own), the damage it took, the cards it bought and the Dragon
Balls it gained. Only what the table saw happen is counted: an event's
public facts (who hit whom and how much), never a hidden card.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from dbdeck.games.deckbuilding.engine.events import Event, starts_turn
from dbdeck.games.deckbuilding.engine.holders import CharacterRef

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

__all__ = ["CharacterTally", "Tally"]


@dataclass
class CharacterTally:
    """One Character's part in the game."""

    name: str
    dealt: int = 0
    """Damage dealt to the Villain, its enemies and Minions."""
    taken: int = 0
    """Damage taken by the Character and its Allies."""
    bought: int = 0
    """Cards bought from the markets."""


@dataclass
class Tally:
    """Counts kept over a whole game."""

    characters: dict[str, CharacterTally] = field(default_factory=dict)
    """By Character id, in the game's order."""
    villain_dealt: int = 0
    """Damage the Villain's side dealt."""
    turns: int = 0
    """Turns played (the Villain's included)."""

    def to_json(self) -> dict[str, Any]:
        """The counts as JSON data (a shared table sends them at the end)."""
        return {
            "characters": {k: asdict(v) for k, v in self.characters.items()},
            "villain_dealt": self.villain_dealt,
            "turns": self.turns,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tally:
        """Counts read back from ``to_json`` data; ``ValueError`` (or
        ``TypeError``/``KeyError``) for anything else."""
        characters = {
            str(k): CharacterTally(
                name=str(v["name"]),
                dealt=int(v["dealt"]),
                taken=int(v["taken"]),
                bought=int(v["bought"]),
            )
            for k, v in dict(data["characters"]).items()
        }
        return cls(characters, int(data["villain_dealt"]), int(data["turns"]))

    def add(self, game: Playing, events: Iterable[Event]) -> None:
        """Count the events an action (or a step of the Villain) produced."""
        s = game.state
        for ch in s.characters:
            if ch.id not in self.characters:
                self.characters[ch.id] = CharacterTally(game.name(CharacterRef(ch.id)))
        for event in events:
            data = event.data
            if event.type == "damage":
                amount = int(data.get("amount", 0))
                source = self._credited(game, str(data.get("source", "")))
                target = self._credited(game, str(data.get("target", "")))
                if source in self.characters and target not in self.characters:
                    self.characters[source].dealt += amount
                elif source == "villain" and target in self.characters:
                    self.villain_dealt += amount
                if target in self.characters and source != target:
                    self.characters[target].taken += amount
            elif event.type == "buy" and s.active in self.characters:
                # A purchase is always the active Character's.
                self.characters[s.active].bought += 1
            elif starts_turn(event):
                self.turns += 1

    def _credited(self, game: Playing, key: str) -> str:
        """The Character id a holder counts for, or ``villain`` for the
        Villain's side (an eliminated Ally's damage is lost to the count)."""
        if key.startswith("c:"):
            return key[2:]
        if key.startswith("a:"):
            try:
                owner, _unit = game.ally(int(key[2:]))
            except (KeyError, ValueError):
                return ""
            return owner.id
        if key == "v" or key[:2] in ("e:", "m:"):
            return "villain"
        return ""
