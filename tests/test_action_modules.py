"""Each action type has one module, named after it, holding its candidates,
check, perform and label; the registry lists every type but ``choose``."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

from dbdeck.games.deckbuilding.engine.actions import ACTION_TYPES, registry


def test_every_action_type_but_choose_has_its_module() -> None:
    assert sorted(registry.RULES) == sorted(t for t in ACTION_TYPES if t != "choose")
    for kind, rules in registry.RULES.items():
        module = importlib.import_module(
            "dbdeck.games.deckbuilding.engine.actions." + kind.replace("-", "_")
        )
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


def test_the_import_contracts_name_every_action_type_module() -> None:
    """A new action type's module joins the engine's layers and the modules
    only the registry (and why) may name, in ``pyproject.toml``."""
    config = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    layered = {
        name.strip()
        for contract in contracts
        if contract["type"] == "layers"
        for layer in contract["layers"]
        for name in layer.split("|")
    }
    reached_through_registry = {
        name
        for contract in contracts
        if contract["type"] == "forbidden" and contract.get("allow_indirect_imports")
        for name in contract["forbidden_modules"]
    }
    for kind in registry.RULES:
        module = "actions." + kind.replace("-", "_")
        assert module in layered, f"{module} is in no layer"
        assert "dbdeck.games.deckbuilding.engine." + module in reached_through_registry, module
