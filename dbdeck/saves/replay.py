"""Replaying a saved game from its setup, action by action, with the events
of each (for ``dbdeck log`` and ``dbdeck replay``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.actions import action_from_json
from dbdeck.games.deckbuilding.engine.events import Event
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.tally import Tally

__all__ = ["replay_events", "tally_of"]


def replay_events(
    catalog: Catalog, data: dict[str, Any], *, steps: bool = False
) -> Iterator[tuple[dict[str, Any], Game, list[Event]]]:
    """Replay a save from its setup: each action, the game after it, and its
    events (the opening events come with an empty action). With ``steps``
    the Villain's turns come step by step, as the table shows them: each
    step is yielded with the action it belongs to, the game after it and
    its events. ``data`` should come from ``read_save(..., catalog=catalog)``,
    which checks it replays."""
    game = Game.new(catalog, Setup(**data["setup"]))
    game.step_mode = steps
    yield {}, game, list(game.events)
    for action in data["actions"]:
        events = game.apply(action_from_json(action))
        while game.state.paused:
            if steps:
                yield action, game, events
                events = []
            events += game.resume()
        yield action, game, events


def tally_of(catalog: Catalog, data: dict[str, Any]) -> Tally | None:
    """The counts of a saved game so far, from its replay; ``None`` when it
    no longer replays (the counts are a comfort, never a reason to refuse a
    game)."""
    tally = Tally()
    try:
        for _action, game, events in replay_events(catalog, data):
            tally.add(game, events)
    except Exception:
        return None
    return tally
