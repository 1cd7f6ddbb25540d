"""The validator of card files, ready made.

Validating with the pydantic models means importing pydantic, creating some
75 model classes and generating their schema: most of a cold
``dbdeck cards validate``, for a schema that changes only when the models
do. So the schema pydantic generates from the models is kept in
``core_schema.json`` (written by ``python -m dbdeck.games.deckbuilding.cards.core_schema_source``)
and handed straight to pydantic-core: the same validator, refusing the same
files with the same error records, built in a few milliseconds.

The file carries a key, a hash of the card models' code and of pydantic's
version. When it is not the key of what is installed (a model edited and the
file not rewritten, another pydantic), the validator is built from the
models as before: validation is never other than the models say.

pydantic-core makes each validated object by setting its ``__dict__``. The
kept schema makes records: bare objects named after their model, so a
message that names a class names the same one. ``convert.to_plain`` turns
records and models alike into plain cards.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from dbdeck.games.deckbuilding.cards import plain
from dbdeck.games.deckbuilding.cards.cache import pydantic_version
from dbdeck.games.deckbuilding.cards.convert import plain_card

if TYPE_CHECKING:
    from pydantic_core import CoreConfig, CoreSchema

__all__ = ["SCHEMA_FORMAT", "SCHEMA_PATH", "Record", "card_file_cards", "schema_key"]

SCHEMA_PATH = Path(__file__).with_name("core_schema.json")
"""The kept schema."""

SCHEMA_FORMAT = 1
"""Bumped whenever the layout of ``core_schema.json`` changes."""

_MODEL_FILES = ("kinds.py", "operations.py", "models.py")
"""The modules of ``dbdeck.games.deckbuilding.cards`` the schema is generated from."""


class Record:
    """A validated object of the kept schema: its fields in ``__dict__``,
    where pydantic-core puts them, and pydantic's bookkeeping in slots, out
    of the way."""

    __slots__ = (
        "__dict__",
        "__pydantic_extra__",
        "__pydantic_fields_set__",
        "__pydantic_private__",
    )


class _JsonValidator(Protocol):
    """What validates a card file's bytes: pydantic-core's validator or
    pydantic's adapter of the models."""

    def validate_json(self, data: bytes, /) -> Any:
        """The validated file; raises ``pydantic_core.ValidationError``."""
        ...


def schema_key() -> str | None:
    """The key of the models and the pydantic installed: a hash of the
    format, pydantic's version and the models' code; ``None`` when any of
    them cannot be read."""
    version = pydantic_version()
    if version is None:
        return None
    h = hashlib.sha256(b"dbdeck card core schema %d\0" % SCHEMA_FORMAT)
    h.update(len(version).to_bytes(8, "big") + version)
    here = Path(__file__).parent
    try:
        for name in _MODEL_FILES:
            data = (here / name).read_bytes()
            h.update(name.encode() + b"\0" + len(data).to_bytes(8, "big") + data)
    except OSError:
        return None
    return h.hexdigest()


def card_file_cards(data: bytes) -> list[plain.Card]:
    """The plain cards of one card file's bytes, in file order; raises
    ``pydantic_core.ValidationError`` listing everything wrong with it."""
    parsed = _validator().validate_json(data)
    return [plain_card(card) for card in parsed.cards]


@functools.cache
def _validator() -> _JsonValidator:
    """The kept validator when it is current, else one built from the models."""
    kept = _kept_validator()
    if kept is not None:
        return kept
    from pydantic import TypeAdapter

    from dbdeck.games.deckbuilding.cards.models import CardFile

    return TypeAdapter(CardFile)


def _kept_validator() -> _JsonValidator | None:
    """pydantic-core's validator of the kept schema, or ``None`` when the
    file is missing, unreadable or made for other models or pydantic."""
    try:
        text = SCHEMA_PATH.read_bytes()
    except OSError:
        return None
    return validator_of(text)


def validator_of(text: bytes | str) -> _JsonValidator | None:
    """pydantic-core's validator of a kept schema's text (what
    ``core_schema_source`` writes), or ``None`` when it is not one for the
    installed models and pydantic."""
    key = schema_key()
    if key is None:
        return None
    try:
        document = json.loads(text, object_hook=_revived)
    except (ValueError, KeyError, TypeError):
        return None
    if (
        not isinstance(document, dict)
        or document.get("format") != SCHEMA_FORMAT
        or document.get("key") != key
    ):
        return None
    from pydantic_core import SchemaError, SchemaValidator

    schema = cast("CoreSchema", document.get("schema"))
    config = cast("CoreConfig", document.get("config"))
    try:
        return SchemaValidator(schema, config)
    except (SchemaError, TypeError):  # a file damaged under a good key
        return None


@functools.cache
def _record_class(name: str) -> type[Record]:
    """The record class standing for the model ``name``."""
    return type(name, (Record,), {"__slots__": (), "__module__": __name__, "__qualname__": name})


def _revived(node: dict[str, Any]) -> Any:
    """A JSON object of the kept schema, its tags back as what they stand for."""
    if "$record" in node:
        return _record_class(node["$record"])
    if "$plain" in node:
        return _default_factory(plain.CLASSES[node["$plain"]], node["fields"])
    return node


def _default_factory(cls: type[plain.Plain], fields: dict[str, Any]) -> Callable[[], plain.Plain]:
    """A factory of fresh plain objects of ``cls`` with these fields: fresh
    because a list in one card's default must not be another card's."""
    text = json.dumps(fields)

    def fresh() -> plain.Plain:
        return cls(**json.loads(text))

    return fresh
