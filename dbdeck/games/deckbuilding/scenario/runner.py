"""Running a scenario of the deckbuilding game: checked whole, then set up,
laid out and played step by step."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

from dbdeck.games.deckbuilding.cards.catalog import CardSetError, Catalog, load_catalog, one_line
from dbdeck.games.deckbuilding.engine.game import Game, Setup, SetupError
from dbdeck.games.deckbuilding.scenario import steps
from dbdeck.games.deckbuilding.scenario.chance import ScriptedRandom, script
from dbdeck.games.deckbuilding.scenario.checking import check_scenario
from dbdeck.games.deckbuilding.scenario.fits import check_table_fits, table_leftovers
from dbdeck.games.deckbuilding.scenario.layout import clean_game, lay_table
from dbdeck.scenarios import GameUnavailable, Outcome, ScenarioFailure, ScenarioRunners
from dbdeck.scenarios import run_file as run_any_file

__all__ = ["GAME_ID", "DeckbuildingScenarios", "play", "run", "run_file", "scenario_runner"]

GAME_ID = "deckbuilding"
"""The game's id, as a scenario's ``game`` key names it."""

_SCRIPTS = {"rolls", "picks", "shuffles"}
"""The setup's scripted chance: the generator's, not the game's setup."""


def run(catalog: Catalog, data: dict[str, Any], name: str = "<scenario>") -> Outcome:
    """Run one scenario given as data (without its ``game`` key); it is
    checked whole first, and raises ``ScenarioFailure`` on the first failure."""
    return play(catalog, data, name)[1]


def play(
    catalog: Catalog, data: dict[str, Any], name: str = "<scenario>"
) -> tuple[Game | None, Outcome]:
    """Run one scenario as ``run`` does, and keep the game it played (``None``
    when the scenario expected its setup to be refused): for tests that read
    more of a played scenario than its expectations can say."""
    spec = check_scenario(catalog, data)
    title = one_line(spec.name if spec.name is not None else name)
    try:
        setup = Setup(**spec.setup.model_dump(exclude_unset=True, exclude=_SCRIPTS))
        game = Game.new(catalog, setup)
    except SetupError as exc:
        expected = spec.expect_setup_error
        if expected and expected in str(exc):
            return None, Outcome(name, title, 0)
        raise ScenarioFailure(f"setup: {exc}") from None
    if spec.expect_setup_error:
        raise ScenarioFailure("setup: expected an error, the setup was accepted")
    scripted = ScriptedRandom(setup.seed)
    scripted.setstate(game.rng.getstate())
    script(scripted, spec.setup)
    game.rng = scripted
    warnings: list[str] = []
    table = spec.table
    if table is not None:
        check_table_fits(game, table)
        if table.clean:
            game = clean_game(game)
        else:
            warnings = table_leftovers(game, Game.set_up(catalog, setup), table)
        scripted.card_id = game.state.card_ids.__getitem__
        try:
            lay_table(game, table)
        except KeyError as exc:  # a Minion or Ally named by a key is not in play
            raise ScenarioFailure(f"table: {exc.args[0]}") from None
        except ScenarioFailure as exc:
            raise ScenarioFailure(f"table.{exc}") from None
    scripted.card_id = game.state.card_ids.__getitem__
    for number, step in enumerate(spec.steps or [], 1):
        steps.run_step(game, step, number)
    return game, Outcome(name, title, len(spec.steps or []), warnings)


class DeckbuildingScenarios:
    """The deckbuilding game's scenario runner, over one card set."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        """The card set every scenario is played with."""

    def run(self, data: dict[str, Any], file: str) -> Outcome:
        """Run one scenario of the deckbuilding game (see ``run``)."""
        return run(self.catalog, data, file)


def scenario_runner() -> DeckbuildingScenarios:
    """The runner the game registers: over the card set (the shipped cards
    and the packs of ``DBDECK_PACKS``); ``GameUnavailable`` lists the card
    set's problems when it does not load."""
    try:
        catalog = load_catalog()
    except CardSetError as err:
        raise GameUnavailable(*(str(p) for p in err.problems)) from None
    # As for play: the card set lives as long as the process, so the collector
    # need not walk it again after every few scenarios.
    gc.freeze()
    return DeckbuildingScenarios(catalog)


def run_file(catalog: Catalog, path: Path) -> Outcome:
    """Read and run one scenario file of this game with ``catalog``, as the
    command does; raises ``ScenarioFailure`` on the first failure.

    Whatever the file holds, a problem *in the file* raises nothing but
    ``ScenarioFailure``; any other exception is a bug of the engine.
    """
    runners = ScenarioRunners({GAME_ID: lambda: DeckbuildingScenarios(catalog)}, GAME_ID)
    return run_any_file(path, runners)
