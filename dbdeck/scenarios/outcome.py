"""What running a scenario gives: an outcome, or a failure naming where."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["GameUnavailable", "Outcome", "ScenarioFailure"]


class ScenarioFailure(Exception):
    """A scenario did not hold, or its file is not a scenario; the message
    is one line naming the step and expectation (or the field) at fault.
    The command prints it after the file's name."""


class GameUnavailable(Exception):
    """A game cannot run any scenario at all (its card set does not load):
    each argument is one line saying why. The command prints them and stops,
    since every other file of that game would fail the same way."""


@dataclass
class Outcome:
    """What running one scenario gave."""

    file: str
    """The scenario file, as named on the command line."""
    name: str
    """The scenario's ``name`` (the file's when it has none), on one line."""
    steps: int
    """How many steps ran."""
    warnings: list[str] = field(default_factory=list)
    """What the game's runner warns about without failing the scenario
    (state a laid table kept without listing it)."""
