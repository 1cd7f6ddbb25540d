"""The garbage collector, held off while a table starts.

What a start builds (the modules, Textual's and the table's, the card set,
the game, the first screen) lives as long as the process: each collection
on the way walks all of it and finds nothing, and a start makes dozens of
them (about a tenth of the wait for the first table). ``held`` turns the
collector off for a start; ``let_go`` turns it back on once the table is
drawn: it collects once (the garbage a start made, such as a card set
validated cold), then keeps what lives on out of the collector's sight for
good, so that no collection afterwards walks it either.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["held", "let_go"]

_held = False
"""Whether the collector is off for a start (``held``)."""


@contextmanager
def held() -> Iterator[None]:
    """No garbage collection in the block, until ``let_go`` (the table is
    up) or the block ends. Where the collector was already off, it is left
    so."""
    global _held
    if not gc.isenabled():
        yield
        return
    gc.disable()
    _held = True
    try:
        yield
    finally:
        let_go()


def let_go() -> None:
    """The collector back on, if ``held`` turned it off: the garbage made
    meanwhile collected, what lives on kept out of its sight. Otherwise
    nothing."""
    global _held
    if _held:
        _held = False
        gc.collect()
        gc.freeze()
        gc.enable()
