"""The games dbdeck knows, by id: the one module that names them all.

The shared layers take what they need from here (today: each game's
scenario runner) and import no game themselves. Each entry imports its game
only when called, so that running one game's scenarios loads nothing of
another's.
"""

from __future__ import annotations

from collections.abc import Callable

from dbdeck.scenarios import ScenarioRunner, ScenarioRunners

__all__ = ["DEFAULT_GAME", "SCENARIO_RUNNERS", "scenario_runners"]

DEFAULT_GAME = "deckbuilding"
"""The game of whatever names none (a scenario file without ``game``)."""


def _deckbuilding_scenarios() -> ScenarioRunner:
    from dbdeck.games.deckbuilding.scenario import scenario_runner

    return scenario_runner()


SCENARIO_RUNNERS: dict[str, Callable[[], ScenarioRunner]] = {
    "deckbuilding": _deckbuilding_scenarios,
}
"""The factory of each game's scenario runner, by game id: a game plugs its
runner in with one line here."""


def scenario_runners() -> ScenarioRunners:
    """The registered scenario runners, none made yet (each is made when a
    file of its game first needs it)."""
    return ScenarioRunners(SCENARIO_RUNNERS, DEFAULT_GAME)
