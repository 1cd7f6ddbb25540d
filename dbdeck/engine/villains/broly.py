"""Broly: his Power, Aggro, calming, phase changes, the 2D6 table,
implosion, the death effect and Paragus."""

from __future__ import annotations

from dbdeck.engine.villains.base import VillainRules


class BrolyRules(VillainRules):
    """Broly's own rules (rulebook, the Villain's section)."""
