"""Which game runs a scenario: the ``game`` key, and the runners games register.

A scenario file may name its game at its top level (``game = "ccg"``); a
file that does not is a scenario of the default game. Each game registers a
factory of its ``ScenarioRunner`` under its id; this module names no game:
the registry is handed in by whoever knows the games (``dbdeck.games``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from dbdeck.packs.reading import one_line
from dbdeck.scenarios.outcome import Outcome, ScenarioFailure

__all__ = ["GAME_KEY", "RunnerFactory", "ScenarioRunner", "ScenarioRunners"]

GAME_KEY = "game"
"""The top-level key naming a scenario's game."""


class ScenarioRunner(Protocol):
    """What a game brings to run its scenario files."""

    def run(self, data: dict[str, Any], file: str) -> Outcome:
        """Run one scenario: ``data`` as read from ``file`` (within the
        reading bounds), without its ``game`` key. A problem in the data,
        and an expectation that does not hold, raise ``ScenarioFailure``;
        any other exception is a bug of the game."""
        ...


RunnerFactory = Callable[[], ScenarioRunner]
"""Makes a game's runner (loading what it needs, such as its cards); may
raise ``GameUnavailable``."""


class ScenarioRunners:
    """The games whose scenarios can run, by id; each game's runner is made
    once, when a file of that game first needs it (so that a run of one
    game's files loads nothing of another)."""

    def __init__(self, factories: Mapping[str, RunnerFactory], default: str) -> None:
        self.factories = dict(factories)
        """The factory of each game's runner, by game id."""
        self.default = default
        """The game of a scenario without a ``game`` key."""
        self._made: dict[str, ScenarioRunner] = {}

    def known(self) -> list[str]:
        """The ids of the registered games, sorted."""
        return sorted(self.factories)

    def game_of(self, data: Mapping[str, Any]) -> str:
        """The registered game a scenario's data names (the default game when
        it names none); raises ``ScenarioFailure`` for any other value."""
        game = data.get(GAME_KEY, self.default)
        if not isinstance(game, str):
            raise ScenarioFailure(f"{GAME_KEY}: expected a string")
        if game not in self.factories:
            shown = game if len(game) <= 64 else game[:63] + "…"
            raise ScenarioFailure(
                one_line(
                    f"{GAME_KEY}: unknown game {shown!r}; known games: {', '.join(self.known())}"
                )
            )
        return game

    def runner(self, game: str) -> ScenarioRunner:
        """The runner of a registered game, made on first use."""
        if game not in self._made:
            self._made[game] = self.factories[game]()
        return self._made[game]

    def run(self, data: dict[str, Any], file: str) -> Outcome:
        """Run one scenario's data with its game's runner."""
        game = self.game_of(data)
        rest = {key: value for key, value in data.items() if key != GAME_KEY}
        return self.runner(game).run(rest, file)
