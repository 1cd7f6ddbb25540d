"""The JSON Schemas of CCG card packs and of a Physical Attack Table file,
every field documented by the docstring written under it in
``dbdeck.games.ccg.models``."""

from __future__ import annotations

import inspect
from typing import Any

from dbdeck.games.ccg import models
from dbdeck.packs.schema import field_docs

__all__ = ["attack_table_schema", "pack_schema"]


def pack_schema() -> dict[str, Any]:
    """The JSON Schema of a pack file (``*.ccg.json``), descriptions included."""
    schema = models.PackFile.model_json_schema(by_alias=True)
    schema["title"] = "dbdeck CCG card pack"
    return _documented(schema, "PackFile")


def attack_table_schema() -> dict[str, Any]:
    """The JSON Schema of a Physical Attack Table file
    (``physical-attack-table.ccg.json``), descriptions included."""
    schema = models.PhysicalAttackTableFile.model_json_schema(by_alias=True)
    schema["title"] = "dbdeck CCG Physical Attack Table"
    return _documented(schema, "PhysicalAttackTableFile")


def _documented(schema: dict[str, Any], top: str) -> dict[str, Any]:
    """``schema`` with each class's docstring and each field's."""
    docs = field_docs(models)
    definitions = dict(schema.get("$defs", {}))
    definitions[top] = schema
    for name, definition in definitions.items():
        cls = getattr(models, name, None)
        if not inspect.isclass(cls):
            continue
        if cls.__doc__ and "description" not in definition:
            definition["description"] = inspect.cleandoc(cls.__doc__)
        merged: dict[str, str] = {}
        for base in reversed(cls.__mro__):
            merged |= docs.get(base.__name__, {})
        for field, prop in definition.get("properties", {}).items():
            doc = merged.get("schema_" if field == "$schema" else field)
            if doc:
                prop.setdefault("description", doc)
    return schema
