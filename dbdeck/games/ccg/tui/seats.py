"""What a backend may offer beyond the shared protocol: solo practice, where
one person plays both seats and switches between them (seed 001: "Solo
practice lets you switch between both seats")."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from dbdeck.tui.backend import Outcome

__all__ = ["SeatSwitching"]


@runtime_checkable
class SeatSwitching(Protocol):
    """A backend on which the screen may switch to the other seat's eyes."""

    def switch_seat(self) -> Outcome:
        """Show (and act for) the other seat from now on."""
        ...
