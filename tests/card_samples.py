"""Sample card data the card-file tests build bad files from."""

from __future__ import annotations

from typing import Any

ALLY: dict[str, Any] = {
    "kind": "ally",
    "id": "test-bulma-ally",
    "name": "Test Bulma",
    "cost": 3,
    "health": 3,
    "race": "human",
    "power": 1,
    "exhaust_effects": [{"op": "draw", "count": 1}],
}
"""A valid Ally card, as a card file holds it."""
