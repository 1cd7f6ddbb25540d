"""The collector held off while a table starts: back on once the table is
up, with the start's garbage collected and nothing else lost."""

from __future__ import annotations

import gc
import weakref

from dbdeck import collector


class _Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


def test_let_go_collects_the_starts_garbage_and_turns_the_collector_on() -> None:
    assert gc.isenabled()
    try:
        with collector.held():
            assert not gc.isenabled()
            garbage = weakref.ref(_Node())
            kept = _Node()
            assert garbage() is not None  # nothing collects while held
            collector.let_go()
            assert gc.isenabled()
            assert garbage() is None
            assert kept.me is kept
        assert gc.isenabled()
    finally:
        gc.unfreeze()
        gc.enable()


def test_a_collector_already_off_is_left_off() -> None:
    gc.disable()
    try:
        with collector.held():
            collector.let_go()
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
