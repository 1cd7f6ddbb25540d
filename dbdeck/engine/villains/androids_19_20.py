"""Androids 19 and 20: the survivor's activation, Android Activation,
Damage Reduction and Regeneration while both stand, the death effect and
Thirst for Revenge."""

from __future__ import annotations

from dbdeck.engine.villains.base import VillainRules


class Androids1920Rules(VillainRules):
    """Androids 19 and 20's own rules (rulebook, the Villain's section)."""
