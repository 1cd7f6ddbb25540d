"""Androids 17 and 18: three turn-order cards, split cards by active Android,
Despair, attacks on the Ally Market, Android 18's Wishes and Android 16."""

from __future__ import annotations

from dbdeck.engine.villains.base import VillainRules


class Androids1718Rules(VillainRules):
    """Androids 17 and 18's own rules (rulebook, the Villain's section)."""
