"""Vegeta and Nappa: Coldness, the Saibaman deck, Armor tokens per enemy,
Vegeta's single-hit defeat and the death effect."""

from __future__ import annotations

from dbdeck.engine.villains.base import VillainRules


class VegetaNappaRules(VillainRules):
    """Vegeta and Nappa's own rules (rulebook, the Villain's section)."""
