"""The JSON Schema of card files, with every field's documentation.

Fields are documented by the docstring written under them in
``models.py`` and ``operations.py``. Pydantic can collect those itself, but only
by reading the source of every class at import, which would slow down every
start of dbdeck; so this module reads them with ``ast`` only when a schema is
asked for.
"""

from __future__ import annotations

import inspect
from typing import Any

from dbdeck.games.deckbuilding.cards import models
from dbdeck.games.deckbuilding.cards import operations as effects
from dbdeck.packs.schema import field_docs

__all__ = ["card_file_schema", "field_docs"]


_TAG_DOCS = {
    "kind": "What kind of card this is; it decides the other fields.",
    "type": "What kind of Villain card this is; it decides the other fields.",
    "op": "The operation; it decides the other fields.",
    "when": "The condition; it decides the other fields.",
}
"""Descriptions of the discriminator fields, which carry no docstring."""


def _inherited(docs: dict[str, dict[str, str]], cls: type) -> dict[str, str]:
    merged: dict[str, str] = {}
    for base in reversed(cls.__mro__):
        merged |= docs.get(base.__name__, {})
    return merged


def card_file_schema() -> dict[str, Any]:
    """The JSON Schema of a card file, descriptions included."""
    schema = models.CardFile.model_json_schema(by_alias=True)
    schema["title"] = "dbdeck card file"
    docs = field_docs(effects) | field_docs(models)
    classes = {
        name: obj
        for module in (effects, models)
        for name, obj in vars(module).items()
        if inspect.isclass(obj)
    }
    definitions = dict(schema.get("$defs", {}))
    definitions["CardFile"] = schema
    for name, definition in definitions.items():
        cls = classes.get(name)
        if cls is None:
            continue
        if cls.__doc__ and "description" not in definition:
            definition["description"] = inspect.cleandoc(cls.__doc__)
        own = _inherited(docs, cls)
        for field, prop in definition.get("properties", {}).items():
            key = "schema_" if field == "$schema" else field
            doc = own.get(key) or _TAG_DOCS.get(field)
            if doc:
                prop.setdefault("description", doc)
    return schema
