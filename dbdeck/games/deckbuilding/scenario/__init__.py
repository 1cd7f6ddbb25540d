"""Scenario files of the deckbuilding game: a table set up by hand, actions
applied, expectations checked (format in ``docs/scenarios.md``).

A scenario file is read by the shared runner (``dbdeck.scenarios``); this
package is the game's part, one job a module:

- ``models`` and ``checking``: the file as checked pydantic models, every
  problem one line naming its step and field;
- ``fits``: what only the game set up can tell about the table;
- ``layout``: laying out the table by hand (``lay_table``, ``clean_game``);
- ``naming``: cards named by id, holders by card (``m:freezer-guard``);
- ``chance``: scripted dice, picks and shuffles;
- ``steps``: one step, its action and its expectations;
- ``facts``: what expectations look at (``board_facts``);
- ``runner``: a whole scenario, and the runner the game registers.
"""

from dbdeck.games.deckbuilding.scenario.checking import check_scenario
from dbdeck.games.deckbuilding.scenario.facts import board_facts, turn_phase
from dbdeck.games.deckbuilding.scenario.layout import clean_game, lay_table
from dbdeck.games.deckbuilding.scenario.naming import resolve_action
from dbdeck.games.deckbuilding.scenario.runner import (
    GAME_ID,
    DeckbuildingScenarios,
    play,
    run,
    run_file,
    scenario_runner,
)

__all__ = [
    "GAME_ID",
    "DeckbuildingScenarios",
    "board_facts",
    "check_scenario",
    "clean_game",
    "lay_table",
    "play",
    "resolve_action",
    "run",
    "run_file",
    "scenario_runner",
    "turn_phase",
]
