"""Checking a scenario's data against its models, with errors a scenario
author can act on: ``step N: field.path: message``, in TOML's words."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import ValidationError

from dbdeck.games.deckbuilding.cards.catalog import Catalog, one_line
from dbdeck.games.deckbuilding.scenario.models import ScenarioSpec, Spec, clip
from dbdeck.scenarios import ScenarioFailure

__all__ = ["check_scenario", "checked"]

_Part = TypeVar("_Part", bound=Spec)


def check_scenario(catalog: Catalog, data: dict[str, Any]) -> ScenarioSpec:
    """A scenario's data checked before running it: known keys, value types
    and ranges, card ids the catalog knows and of the kind each place holds.
    Raises ``ScenarioFailure`` naming the step and field of the first
    problem (and how many more there are)."""
    setup = data.get("setup")
    villain = setup.get("villain") if isinstance(setup, dict) else None
    known = isinstance(villain, str) and villain in catalog and catalog[villain].kind == "villain"
    return checked(ScenarioSpec, data, catalog, villain if known else None)


def checked(model: type[_Part], data: Any, catalog: Catalog, villain: str | None) -> _Part:
    """``data`` as a checked part of a scenario, its cards looked up in
    ``catalog`` (a Villain's cards must be ``villain``'s); raises
    ``ScenarioFailure`` naming the field of the first problem."""
    context = {"catalog": catalog, "villain": villain}
    try:
        return model.model_validate(data, context=context)
    except ValidationError as exc:
        raise ScenarioFailure(_describe(data, exc)) from None


_MESSAGES = {
    "missing": "missing field",
    "extra_forbidden": "unknown field",
    # pydantic names Python types; a scenario author writes TOML
    "model_type": "expected a table",
    "dict_type": "expected a table",
    "list_type": "expected an array",
    "string_type": "expected a string",
    "int_type": "expected an integer",
    "bool_type": "expected true or false",
}


def _describe(data: Any, exc: ValidationError) -> str:
    """The first validation error as ``step N: field.path: message``."""
    errors = exc.errors(include_url=False, include_input=False)
    error = errors[0]
    loc = list(error["loc"])
    parts: list[str] = []
    node: Any = data
    for i, step in enumerate(loc):
        if isinstance(node, dict) and step in node:
            node = node[step]
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            node = node[step]
        elif error["type"] == "missing" and i == len(loc) - 1:
            pass  # the missing field: named, nothing to descend into
        else:
            continue  # a union member's tag or a dict's "[key]" that pydantic adds
        parts.append(clip(str(step)))
    if len(parts) >= 2 and parts[0] == "steps":
        where = [f"step {int(parts[1]) + 1}", ".".join(parts[2:])]
    else:
        where = [".".join(parts)]
    kind = error["type"]
    message = _MESSAGES.get(kind) or str(error["msg"]).removeprefix("Value error, ")
    text = ": ".join([w for w in where if w] + [clip(message, 300)])
    if len(errors) > 1:
        more = len(errors) - 1
        text += f" (and {more} more problem{'' if more == 1 else 's'})"
    return one_line(text)
