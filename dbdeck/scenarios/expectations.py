"""Checking a step's expectations, for every game: paths into the facts a
game's runner lists about its board, and texts of the step's log.

A game's runner turns its state into nested facts (tables, lists, numbers
and strings keyed by the game's own words); a scenario names a fact by its
dotted path (``villain.damage``, ``characters.goku.discard.0``). A failure
says what was expected and what was found, after ``where`` (``step 2``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dbdeck.packs.reading import one_line
from dbdeck.scenarios.outcome import ScenarioFailure

__all__ = ["check_facts", "check_log", "lookup"]


def lookup(facts: Mapping[str, Any], path: str) -> Any:
    """The fact at a dotted path (a list index is a number), or
    ``"<no PATH>"`` when there is none: a value no expectation can equal."""
    node: Any = facts
    for part in path.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return f"<no {path}>"
    return node


def check_facts(
    where: str,
    facts: Mapping[str, Any],
    expect: Mapping[str, Any],
    lists: Mapping[str, Mapping[str, list[Any]]],
) -> None:
    """Each ``expect`` path holds its value, then each list check of
    ``lists`` (``contains``, ``lacks``, ``equals_set``: path → cards)
    holds; raises ``ScenarioFailure`` at the first that does not."""
    for path, wanted in expect.items():
        got = lookup(facts, path)
        if got != wanted:
            raise ScenarioFailure(f"{where}: expected {one_line(path)} = {wanted!r}, got {got!r}")
    for check, holds in LIST_CHECKS.items():
        for path, cards in lists.get(check, {}).items():
            got = lookup(facts, path)
            if not isinstance(got, list):
                raise ScenarioFailure(f"{where}: {one_line(path)} is not a list: {got!r}")
            if not holds(got, cards):
                raise ScenarioFailure(
                    f"{where}: expected {one_line(path)} {check.replace('_', ' ')} "
                    f"{cards!r}, got {got!r}"
                )


def _hashable(value: Any) -> Any:
    return repr(value) if isinstance(value, list | dict) else value


def _contains(got: list[Any], cards: list[Any]) -> bool:
    """Every listed card is there (as many times as listed), in any order."""
    return not Counter(map(_hashable, cards)) - Counter(map(_hashable, got))


def _lacks(got: list[Any], cards: list[Any]) -> bool:
    """None of the listed cards is there."""
    present = set(map(_hashable, got))
    return not any(_hashable(c) in present for c in cards)


def _same_set(got: list[Any], cards: list[Any]) -> bool:
    """The same cards, as many of each, in any order."""
    return Counter(map(_hashable, got)) == Counter(map(_hashable, cards))


LIST_CHECKS: dict[str, Callable[[list[Any], list[Any]], bool]] = {
    "contains": _contains,
    "lacks": _lacks,
    "equals_set": _same_set,
}
"""A step's order-insensitive expectations on piles and rows, by key, in
the order they are checked."""


def check_log(
    where: str, lines: Sequence[str], anywhere: Sequence[str], in_order: Sequence[str]
) -> None:
    """Each text of ``anywhere`` is in the log, and each of ``in_order`` is
    in a line after the line of the one before it; raises ``ScenarioFailure``
    quoting the whole log otherwise."""
    text = "\n".join(lines)
    for wanted in anywhere:
        if wanted not in text:
            raise ScenarioFailure(f"{where}: the log lacks {wanted!r}; it says:\n{text}")
    at = 0
    for wanted in in_order:
        found = next((i for i in range(at, len(lines)) if wanted in lines[i]), None)
        if found is None:
            earlier = any(wanted in line for line in lines[:at])
            why = "only before the line of the text listed before it" if earlier else "nowhere"
            raise ScenarioFailure(f"{where}: the log has {wanted!r} {why}; it says:\n{text}")
        at = found + 1
