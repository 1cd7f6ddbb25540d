"""Writes ``dbdeck/games/deckbuilding/cards/core_schema.json``: the validator pydantic builds
from the card models, kept as data so a cold load need not build it.

The file holds the pydantic-core schema of ``models.CardFile`` exactly as
pydantic generates it, and the configuration it validates with, with three
things that are not data written as tags:

* each model class (``"cls"``) as ``{"$record": NAME}``: the validator makes
  records of that name (``dbdeck.games.deckbuilding.cards.validator``);
* each default factory as ``{"$plain": NAME, "fields": {...}}``: the plain
  object the factory's model converts to;
* the JSON Schema hooks (``"metadata"``) left out: validation never calls them.

Definition references lose the ``:<object id>`` pydantic adds, so the file is
the same from run to run. Its key is ``validator.schema_key()``: a file
written for other models or another pydantic is never used.
``tests/test_card_validator.py`` fails when the file is stale.

    python -m dbdeck.games.deckbuilding.cards.core_schema_source          # rewrite core_schema.json
    python -m dbdeck.games.deckbuilding.cards.core_schema_source --check  # exit 1 when it is stale
"""

from __future__ import annotations

import json
import re
import sys
from importlib import metadata
from typing import Any

from pydantic import BaseModel
from pydantic._internal._config import ConfigWrapper

from dbdeck.games.deckbuilding.cards import convert, models, plain
from dbdeck.games.deckbuilding.cards.generated import generator_main
from dbdeck.games.deckbuilding.cards.validator import SCHEMA_FORMAT, SCHEMA_PATH, schema_key

__all__ = ["core_schema_text", "main"]

_REF = re.compile(r":\d+$")
"""The object id pydantic appends to a definition's reference."""


def core_schema_text() -> str:
    """The text of ``core_schema.json`` as the current models make it."""
    models.CardFile.model_rebuild()
    key = schema_key()
    if key is None:
        raise RuntimeError("pydantic's version cannot be read: no key for the schema")
    config = ConfigWrapper(models.CardFile.model_config).core_config(title="CardFile")
    document = {
        "format": SCHEMA_FORMAT,
        "key": key,
        # For people and tests: the key already covers it.
        "pydantic": metadata.version("pydantic"),
        "config": dict(config),
        "schema": _data(models.CardFile.__pydantic_core_schema__),
    }
    # One line per value would be some 400,000 lines; one space of indent
    # keeps the file diffable at a fraction of that.
    return json.dumps(document, indent=1, ensure_ascii=True, allow_nan=False) + "\n"


def _data(node: Any) -> Any:
    """A core-schema node as JSON data, its classes and factories tagged."""
    if isinstance(node, dict):
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key.startswith("$"):
                raise ValueError(f"a schema key that reads as a tag: {key!r}")
            if key == "metadata":
                continue  # JSON Schema hooks: functions, never used to validate
            if key == "cls":
                out[key] = {"$record": _model_name(value)}
            elif key == "default_factory":
                out[key] = _factory(value)
            elif key in ("ref", "schema_ref"):
                out[key] = _REF.sub("", value)
            else:
                out[key] = _data(value)
        return out
    if isinstance(node, list | tuple):
        return [_data(item) for item in node]
    if node is None or isinstance(node, str | int | float | bool):
        return node
    raise TypeError(f"not JSON data in the card schema: {node!r}")


def _model_name(cls: Any) -> str:
    if not (isinstance(cls, type) and issubclass(cls, BaseModel)):
        raise TypeError(f"a schema class that is not a card model: {cls!r}")
    return cls.__name__


def _factory(factory: Any) -> dict[str, Any]:
    """A default factory as the plain object it gives: its class and fields,
    which must be data (a list, a number …), never another plain object."""
    value = convert.to_plain(factory())
    if not isinstance(value, plain.Plain):
        raise TypeError(f"a default factory that gives no card object: {factory!r}")
    fields = {name: getattr(value, name) for name in value.FIELDS}
    return {"$plain": type(value).__name__, "fields": _data(fields)}


def main(argv: list[str] | None = None) -> int:
    """Rewrite ``core_schema.json``, or with ``--check`` say whether it is stale."""
    return generator_main(
        argv,
        __doc__.splitlines()[0],
        SCHEMA_PATH,
        core_schema_text,
        "dbdeck.games.deckbuilding.cards.core_schema_source",
    )


if __name__ == "__main__":
    sys.exit(main())
