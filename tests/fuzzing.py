"""What the fuzz tests share: how many examples, and a deadline for readers
that must never hang (a blocking open of a FIFO would never return).

``DBDECK_FUZZ_EXAMPLES=1000 pytest tests/test_fuzz_*.py`` fuzzes harder.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator

from hypothesis import HealthCheck, settings

__all__ = ["deadline", "examples", "fuzz_settings"]


def examples(default: int) -> int:
    """Examples per property: ``DBDECK_FUZZ_EXAMPLES`` when set, else ``default``."""
    return int(os.environ.get("DBDECK_FUZZ_EXAMPLES") or default)


def fuzz_settings(default: int, *checks: HealthCheck) -> settings:
    """Hypothesis settings for a fuzz property: no per-example deadline (a
    reader may take a while on a large input), slow draws allowed."""
    return settings(
        max_examples=examples(default),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, *checks],
    )


@contextlib.contextmanager
def deadline(seconds: float, what: str = "still running") -> Iterator[None]:
    """Fail with ``TimeoutError`` instead of hanging for more than ``seconds``."""

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"{what} after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
