"""Which game runs a scenario: the ``game`` key, and the runners games register.

A scenario file may name its game at its top level (``game = "ccg"``); a
file that does not is a scenario of the default game
(``dbdeck.tabletop.registry.DEFAULT_GAME``). Each game lists the factory of
its ``ScenarioRunner`` in ``dbdeck.games`` (``SCENARIO_RUNNERS``: id → the
module and function that make it), imported only when a file of that game
is run; this module names no game.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from dbdeck.packs.reading import one_line
from dbdeck.scenarios.outcome import Outcome, ScenarioFailure
from dbdeck.tabletop.registry import DEFAULT_GAME

__all__ = [
    "GAME_KEY",
    "RunnerFactory",
    "ScenarioRunner",
    "ScenarioRunners",
    "register",
    "registered_runners",
]

GAME_KEY = "game"
"""The top-level key naming a scenario's game."""

_GAMES_PACKAGE = "dbdeck.games"


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

_registered: dict[str, RunnerFactory] = {}


def register(game_id: str, factory: RunnerFactory) -> None:
    """Run the scenarios of ``game_id`` with the runners ``factory`` makes
    (a test's own game, say); it takes the place of a listed one."""
    _registered[game_id] = factory


def _listed_factory(where: str) -> RunnerFactory:
    module, _, name = where.partition(":")

    def make() -> ScenarioRunner:
        factory: RunnerFactory = getattr(importlib.import_module(module), name)
        return factory()

    return make


def registered_runners() -> ScenarioRunners:
    """The runners of every game listed in ``dbdeck.games`` or registered,
    none made yet."""
    listed: dict[str, str] = importlib.import_module(_GAMES_PACKAGE).SCENARIO_RUNNERS
    factories = {game: _listed_factory(where) for game, where in listed.items()}
    return ScenarioRunners({**factories, **_registered}, DEFAULT_GAME)


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
        """The ids of the games, sorted."""
        return sorted(self.factories)

    def game_of(self, data: Mapping[str, Any]) -> str:
        """The game a scenario's data names (the default game when it names
        none); raises ``ScenarioFailure`` for any value but a known game's id."""
        game = data.get(GAME_KEY, self.default)
        if not isinstance(game, str):
            raise ScenarioFailure(f"{GAME_KEY}: expected a string")
        if game not in self.factories:
            shown = game if len(game) <= 64 else game[:63] + "…"
            known = ", ".join(self.known())
            raise ScenarioFailure(
                one_line(f"{GAME_KEY}: unknown game {shown!r}; known games: {known}")
            )
        return game

    def runner(self, game: str) -> ScenarioRunner:
        """The runner of a known game, made on first use."""
        if game not in self._made:
            self._made[game] = self.factories[game]()
        return self._made[game]

    def run(self, data: dict[str, Any], file: str) -> Outcome:
        """Run one scenario's data with its game's runner."""
        game = self.game_of(data)
        rest = {key: value for key, value in data.items() if key != GAME_KEY}
        return self.runner(game).run(rest, file)
