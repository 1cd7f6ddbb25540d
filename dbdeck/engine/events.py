"""Events: what happened, in plain words and as data, for the log and the UI."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Event"]


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened during ``apply``."""

    type: str
    """A short kind: ``damage``, ``draw``, ``buy``, ``reveal``, ``roll`` …"""
    text: str
    """The event in plain words."""
    data: dict[str, Any] = field(default_factory=dict)
    """Details for the UI (holder keys, card ids, dice faces …)."""
    private_to: str = ""
    """A Character id when only that seat may see the details (a draw)."""

    def to_json(self) -> dict[str, Any]:
        """The event as JSON data."""
        out: dict[str, Any] = {"type": self.type, "text": self.text, "data": self.data}
        if self.private_to:
            out["private_to"] = self.private_to
        return out
