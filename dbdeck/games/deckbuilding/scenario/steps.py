"""Running one step of a scenario: its scripted chance, its action, and
what must hold after it."""

from __future__ import annotations

from dbdeck.games.deckbuilding.engine.actions import IllegalAction
from dbdeck.games.deckbuilding.engine.events import Event
from dbdeck.games.deckbuilding.engine.game import Game
from dbdeck.games.deckbuilding.scenario.chance import ScriptedRandom, script
from dbdeck.games.deckbuilding.scenario.facts import board_facts
from dbdeck.games.deckbuilding.scenario.models import StepSpec
from dbdeck.games.deckbuilding.scenario.naming import resolve_action
from dbdeck.scenarios import ScenarioFailure, check_facts, check_log

__all__ = ["run_step"]


def run_step(game: Game, step: StepSpec, number: int) -> None:
    """Run step ``number`` (from 1) on ``game``, whose generator is the
    scenario's ``ScriptedRandom``; raises ``ScenarioFailure`` (``step N: …``)
    when the action is refused unexpectedly or an expectation fails."""
    where = f"step {number}"
    assert isinstance(game.rng, ScriptedRandom)
    script(game.rng, step)
    if step.action is not None:
        try:
            action = resolve_action(game, step.action)
        except (KeyError, ValueError) as exc:
            raise ScenarioFailure(f"{where}: {exc.args[0]}") from None
        known = len(game.state.card_ids)
        for uid in (action.card, action.on, *action.cards):
            if uid is not None and not 0 <= uid < known:
                raise ScenarioFailure(f"{where}: no card instance {uid} (there are {known})")
        expected_error = step.expect_error
        events: list[Event]
        try:
            events = game.apply(action)
        except IllegalAction as exc:
            if expected_error and expected_error in exc.reason:
                events = []
            else:
                raise ScenarioFailure(
                    f"{where}: {action.to_json()} refused: {exc.reason}"
                ) from None
        except ScenarioFailure as exc:  # a scripted draw that does not fit
            raise ScenarioFailure(f"{where}: {exc}") from None
        else:
            if expected_error:
                raise ScenarioFailure(
                    f"{where}: expected the error {expected_error!r}, the action was accepted"
                )
        lines = [e.text for e in events]
        check_log(where, lines, step.expect_log or [], step.expect_log_order or [])
    # The facts are read after every step, expectations or not: a board
    # they cannot describe is a bug the scenario reports.
    facts = board_facts(game)
    lists = {
        "contains": step.contains or {},
        "lacks": step.lacks or {},
        "equals_set": step.equals_set or {},
    }
    check_facts(where, facts, step.expect or {}, lists)
