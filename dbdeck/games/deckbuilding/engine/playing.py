"""A game being played: a rule handler's reach, and its actions listed,
checked and applied.

The action types' modules, the action listing, the reasons (``why``), the
previews, the waste warnings, the work left undone, the tally and the seat
views take a ``Playing``, not the ``Game`` itself: the game facade
(``engine/game.py``) imports the action listing, so naming it here would make
a circle of imports. ``Game`` satisfies this protocol; mypy checks it
wherever one is passed for the other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from dbdeck.games.deckbuilding.engine.reach import Reach

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.actions import Action
    from dbdeck.games.deckbuilding.engine.events import Event

__all__ = ["Playing"]


class Playing(Reach, Protocol):
    """What the action rules, the reasons and the previews may use of a game."""

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        ...

    def actor(self) -> str | None:
        """Who must act now: a Character id, ``players``, or ``None``."""
        ...

    def legal_actions(self) -> list[Action]:
        """Every action allowed now."""
        ...

    def check(self, action: Action) -> str | None:
        """Why ``action`` is illegal now, or ``None`` if it is legal."""
        ...

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action and return what happened."""
        ...

    def clone(self) -> Playing:
        """An independent copy that continues identically (for previews)."""
        ...

    def fingerprint(self) -> str:
        """A canonical text of the whole game, for comparing two games."""
        ...
