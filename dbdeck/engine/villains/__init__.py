"""Villain rules: one module per Villain whose mechanics are not card data."""

from __future__ import annotations

from dbdeck.engine.villains.base import VillainRules
from dbdeck.engine.villains.freezer import FreezerRules

__all__ = ["VillainRules", "hooks_for"]

_RULES: dict[str, type[VillainRules]] = {
    "freezer": FreezerRules,
}


def hooks_for(villain_id: str) -> VillainRules:
    """The rules object of a Villain (the general rules when it has none)."""
    return _RULES.get(villain_id, VillainRules)()
