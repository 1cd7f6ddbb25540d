"""Scripted chance: the dice, random picks and shuffles a scenario fixes."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from dbdeck.games.deckbuilding.engine.chance import TableRandom
from dbdeck.games.deckbuilding.scenario.models import SetupSpec, StepSpec
from dbdeck.scenarios import ScenarioFailure

__all__ = ["ScriptedRandom", "script"]


class ScriptedRandom(TableRandom):
    """The game's random generator with its draws fixed in advance.

    Three scripts, each used up in order while anything is left in it:
    ``rolls`` (each ``randint``: a die), ``picks`` (each card taken at
    random: a card id) and ``shuffles`` (each shuffle: the pile's new order,
    top first, as card ids or turn-order cards). Once a script is empty the
    seeded generator takes over.
    """

    def __init__(
        self,
        seed: int,
        rolls: Iterable[int] = (),
        *,
        card_id: Callable[[int], str] = str,
    ) -> None:
        super().__init__(seed)
        self.rolls = list(rolls)
        self.picks: list[str] = []
        self.shuffles: list[list[str]] = []
        self.card_id = card_id
        """The card id of an instance uid (the game's, set by the runner)."""

    def randint(self, a: int, b: int) -> int:
        if self.rolls:
            value = self.rolls.pop(0)
            if not a <= value <= b:
                raise ScenarioFailure(f"scripted roll {value} is outside {a}..{b}")
            return value
        return super().randint(a, b)

    def card_at_random(self, uids: Sequence[int]) -> int:
        if not self.picks:
            return super().card_at_random(uids)
        wanted = self.picks.pop(0)
        for uid in uids:
            if self.card_id(uid) == wanted:
                return uid
        cards = ", ".join(self.card_id(u) for u in uids) or "nothing"
        raise ScenarioFailure(f"scripted pick {wanted!r} is not among the cards ({cards})")

    def shuffle(self, x: Any) -> None:  # the signature random.Random gives it
        if not self.shuffles:
            super().shuffle(x)
            return
        order = self.shuffles.pop(0)
        pool = list(x)
        names = [self.card_id(e) if isinstance(e, int) else str(e) for e in pool]
        if sorted(names) != sorted(order):
            raise ScenarioFailure(
                f"scripted shuffle {order} is not the pile being shuffled ({sorted(names)})"
            )
        # A pile's top is its end: the first card of the script goes last.
        result = []
        for name in reversed(order):
            i = names.index(name)
            result.append(pool.pop(i))
            names.pop(i)
        x[:] = result


def script(scripted: ScriptedRandom, part: SetupSpec | StepSpec) -> None:
    """Add a setup's or a step's scripted dice, picks and shuffles."""
    scripted.rolls += part.rolls or []
    scripted.picks += part.picks or []
    scripted.shuffles += [list(order) for order in part.shuffles or []]
