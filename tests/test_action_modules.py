"""Each action type has one module, named after it, holding its candidates,
check, perform and label; the registry lists every type but ``choose``."""

from __future__ import annotations

import importlib

from dbdeck.engine.actions import ACTION_TYPES, registry


def test_every_action_type_but_choose_has_its_module() -> None:
    assert sorted(registry.RULES) == sorted(t for t in ACTION_TYPES if t != "choose")
    for kind, rules in registry.RULES.items():
        module = importlib.import_module("dbdeck.engine.actions." + kind.replace("-", "_"))
        assert rules is module and kind == module.TYPE
        # The docstring names the rulebook passage (quoted) or the rules note.
        doc = module.__doc__ or ""
        assert '"' in doc or "rules note" in doc, f"{kind}: no rulebook passage named"
        for name in ("check", "perform", "label"):
            assert callable(getattr(module, name)), f"{kind} has no {name}"


def test_only_the_phases_before_acting_leave_the_actions_phase_unstarted() -> None:
    """Market discard and giving Dragon Balls come before the Actions phase
    (rules note N46); ending the turn is no action of it."""
    waiting = {kind for kind, rules in registry.RULES.items() if not rules.ACTS}
    assert waiting == {"market-discard", "give-ball", "end-turn"}
