"""The deckbuilding game's setup and snapshot as a save holds them: pydantic
models at the edge, derived from the engine's own types so they cannot
drift. Imported only when a save is read (``match.DeckbuildingRules``)."""

from __future__ import annotations

import dataclasses
import typing
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    create_model,
    field_validator,
)

from dbdeck.games.deckbuilding.engine.game import Setup

__all__ = ["SETUP_MODEL", "GameSnapshot"]

_Name = Annotated[str, StringConstraints(max_length=200)]
_Int = Annotated[int, Field(ge=-(2**128), le=2**128)]


def _json_type(hint: Any) -> Any:
    """The JSON-side, bounded type of a field of ``Setup`` (tuples are JSON
    arrays; texts, numbers and lists have a size)."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, typing.get_origin(int | None)):
        return typing.Union[tuple(_json_type(a) for a in args)]  # noqa: UP007
    if origin in (list, tuple):
        return Annotated[list[_json_type(args[0])], Field(max_length=64)]  # type: ignore[misc]
    if hint is str:
        return _Name
    if hint is int:
        return _Int
    return hint


def _setup_model() -> type[BaseModel]:
    fields: dict[str, Any] = {}
    for f in dataclasses.fields(Setup):
        if f.default is not dataclasses.MISSING:
            default: Any = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:
            default = ...
        hint = typing.get_type_hints(Setup)[f.name]
        fields[f.name] = (
            _json_type(hint),
            list(default) if isinstance(default, tuple) else default,
        )
    model: type[BaseModel] = create_model(
        "SavedSetup", __config__=ConfigDict(strict=True, extra="forbid"), **fields
    )
    return model


SETUP_MODEL = _setup_model()
"""The setup as a save or the wire holds it: exactly ``Setup``'s fields,
each typed and bounded."""

_Word = Annotated[int, Field(ge=0, lt=2**32)]


class GameSnapshot(BaseModel):
    """The shape of ``Game.to_json``: checked before a snapshot is compared
    with the replayed game or loaded (its state is the engine's to read)."""

    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")

    version: int
    """The engine's snapshot version."""
    state: dict[str, Any]
    """The game state."""
    rng: Annotated[list[int | list[_Word] | float | None], Field(min_length=3, max_length=3)]
    """The Mersenne Twister's state, as ``random.getstate`` gives it."""

    @field_validator("rng")
    @classmethod
    def _mersenne(cls, rng: list[Any]) -> list[Any]:
        version, words, gauss = rng
        if type(version) is not int or not isinstance(words, list) or len(words) != 625:
            raise ValueError("not the state of a random generator")
        if gauss is not None and type(gauss) is not float:
            raise ValueError("not the state of a random generator")
        return rng
