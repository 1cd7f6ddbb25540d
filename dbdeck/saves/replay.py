"""Replaying a saved game from its setup, action by action, with the events
of each (for ``dbdeck log`` and ``dbdeck replay``), and the story it tells."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

from dbdeck.tabletop.game import Event, GameRules, Match, Story

__all__ = ["replay_events", "story_of"]

M = TypeVar("M", bound=Match)


def replay_events(
    rules: GameRules[M], data: dict[str, Any], *, steps: bool = False
) -> Iterator[tuple[dict[str, Any], M, Sequence[Event]]]:
    """Replay a save from its setup: each action, the match after it, and
    its events (the opening events come with an empty action). With
    ``steps`` the rules' own turns (the Villain's) come step by step, as the
    table shows them: each step is yielded with the action it belongs to,
    the match after it and its events. ``data`` should come from
    ``read_save(..., rules=rules)``, which checks it replays."""
    match = rules.new(rules.read_setup(data["setup"]))
    match.set_stepping(steps)
    yield {}, match, list(match.latest_events())
    for action in data["actions"]:
        events = list(match.apply(rules.read_action(action)))
        while match.waiting():
            if steps:
                yield action, match, events
                events = []
            events += match.go_on()
        yield action, match, events


def story_of(rules: GameRules[Any], data: dict[str, Any]) -> Story | None:
    """The story of a saved game so far, from its replay; ``None`` when it
    no longer replays (the numbers are a comfort, never a reason to refuse a
    game)."""
    story = rules.story()
    try:
        for _action, match, events in replay_events(rules, data):
            story.add(match, events)
    except Exception:
        return None
    return story
