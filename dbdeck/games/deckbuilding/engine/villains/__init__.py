"""Villain rules: one module per Villain whose mechanics are not card data.

``_RULES`` is the one list of Villains with a module: a new Villain's module
is one line here (``tests/test_villain_registry.py`` checks that no other
engine module names one). Each module's ``OWN_STATE`` is registered from it
for the snapshots (``state.register_own_state``)."""

from __future__ import annotations

from dbdeck.games.deckbuilding.engine.state import register_own_state
from dbdeck.games.deckbuilding.engine.villains.androids_17_18 import Androids1718Rules
from dbdeck.games.deckbuilding.engine.villains.androids_19_20 import Androids1920Rules
from dbdeck.games.deckbuilding.engine.villains.base import VillainRules
from dbdeck.games.deckbuilding.engine.villains.broly import BrolyRules
from dbdeck.games.deckbuilding.engine.villains.freezer import FreezerRules
from dbdeck.games.deckbuilding.engine.villains.raditz import RaditzRules
from dbdeck.games.deckbuilding.engine.villains.vegeta_nappa import VegetaNappaRules

__all__ = ["VillainRules", "hooks_for"]

_RULES: dict[str, type[VillainRules]] = {
    "freezer": FreezerRules,
    "raditz": RaditzRules,
    "androids-17-18": Androids1718Rules,
    "broly": BrolyRules,
    "androids-19-20": Androids1920Rules,
    "vegeta-nappa": VegetaNappaRules,
}

for _villain_id, _rules in _RULES.items():
    register_own_state(_villain_id, _rules.OWN_STATE)


def hooks_for(villain_id: str) -> VillainRules:
    """The rules object of a Villain (the general rules when it has none)."""
    return _RULES.get(villain_id, VillainRules)()
