"""Raditz: the Kidnapped Victim, his six Dragon Balls, the Saibaman deck,
Call for Help and Raditz's Choice."""

from __future__ import annotations

from dbdeck.engine.villains.base import VillainRules


class RaditzRules(VillainRules):
    """Raditz's own rules (rulebook, the Villain's section)."""
