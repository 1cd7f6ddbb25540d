"""The action kinds as pydantic models, generated from the kinds: what the
wire (``net.protocol``) and the save reader (``saves.format``) check an
action against before the engine sees it.

Each kind gets one strict model with exactly the kind's fields, each typed
and bounded by the kind's own ``Bound``; ``ActionModel`` is their union,
told apart by ``type``. Being generated, the models cannot drift from the
kinds; ``tests/test_actions_strict.py`` holds them to it all the same.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias, Union

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    TypeAdapter,
    create_model,
)

from dbdeck.games.deckbuilding.engine.actions import KINDS, Action
from dbdeck.games.deckbuilding.engine.actions.kind import HIDDEN_ID, MARKET_NAMES, MAX_ID, Bound

__all__ = ["ACTION_MODELS", "ActionModel", "KindModel", "read_action"]


class KindModel(BaseModel):
    """One kind of action as JSON data; ``to_action`` gives the engine's."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: str
    """The kind (each kind's model narrows it to its one name)."""

    def to_action(self) -> Action:
        """The engine's action (checked once more by the kind itself)."""
        return KINDS[self.type].read(self.model_dump())


def _printable_key(value: str) -> str:
    if not all("!" <= c <= "~" for c in value):
        raise ValueError("printable ASCII only (no spaces, no control characters)")
    return value


def _annotation(bound: Bound) -> Any:
    """The pydantic type of a field of this bound (strict: never coerced)."""
    if bound.shape == "int":
        return Annotated[int, Strict(), Field(ge=bound.low, le=bound.high)]
    if bound.shape == "ints":
        uid = Annotated[int, Strict(), Field(ge=HIDDEN_ID, le=MAX_ID)]
        return Annotated[list[uid], Field(min_length=bound.low, max_length=bound.high)]
    if bound.shape == "key":
        return Annotated[
            str,
            Strict(),
            Field(min_length=bound.low, max_length=bound.high),
            AfterValidator(_printable_key),
        ]
    return Literal[MARKET_NAMES]


def _model_of(kind: type[Action]) -> type[KindModel]:
    """The model of one kind: its ``type`` and exactly its fields."""
    fields: dict[str, Any] = {"type": (Literal[kind.type], ...)}
    optional = kind.optional_values()
    for name in kind.fields:
        hint = _annotation(kind.bound(name))
        if name not in optional:
            fields[name] = (hint, ...)
        elif optional[name] == ():
            fields[name] = (hint, Field(default_factory=list))
        else:
            fields[name] = (hint | None, None)
    model: type[KindModel] = create_model(kind.__name__, __base__=KindModel, **fields)
    model.__doc__ = kind.__doc__
    return model


ACTION_MODELS: dict[str, type[KindModel]] = {t: _model_of(kind) for t, kind in KINDS.items()}
"""Each kind's model, by type."""

if TYPE_CHECKING:
    ActionModel: TypeAlias = KindModel
else:
    ActionModel = Annotated[
        Union[tuple(ACTION_MODELS.values())],  # noqa: UP007 (a union built from a tuple)
        Field(discriminator="type"),
    ]
"""Any kind of action as JSON data: the kinds' models, told apart by ``type``."""

_ADAPTER: TypeAdapter[KindModel] = TypeAdapter(ActionModel)


def read_action(data: object) -> Action:
    """The action JSON ``data`` holds; raises pydantic's ``ValidationError``,
    located at the kind and the field."""
    return _ADAPTER.validate_python(data).to_action()
