"""The table protocol: versioned, line-delimited JSON messages.

Each message is one JSON object on one line, with a ``type``. Clients send
``hello`` first, then ``action``, ``chat``, ``host`` (table settings, the
host only) or ``bye``. The server answers ``welcome`` (or ``refusal`` and
closes), then sends a ``view`` after every change, ``events`` as they happen,
``refusal`` when it declines a message, ``seats`` when someone comes or goes,
and ``chat``.

What crosses the wire is only what the seat may see (protocol 2). A view
is ``TableView.to_json()`` of ``seat_view(game, seat)``; legal actions are
``Offer.to_json()`` of ``seat_offers(game, seat)``, a card of another hand
masked as ``HIDDEN``; events are words only (``LogLine``: a kind and a
text), never an event's data. No seed, no random generator state, no deck
order and no uid of an unseen card ever leaves the host: the welcome names
the table and the seat, not the game's setup. A client sends back the
action of an offer as it got it; the server unmasks it.

The models are pydantic: they check what crosses the wire. A line that is
not valid JSON, not a known message, or longer than ``MAX_LINE`` bytes is
refused with a reason; it never reaches the game.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

__all__ = [
    "BOT",
    "MAX_LINE",
    "PROTOCOL_VERSION",
    "ActionMessage",
    "ByeMessage",
    "ChatMessage",
    "ClientMessage",
    "EventsMessage",
    "HelloMessage",
    "HostMessage",
    "ProtocolError",
    "RefusalMessage",
    "SeatInfo",
    "SeatsMessage",
    "ServerMessage",
    "ViewMessage",
    "WelcomeMessage",
    "decode_client",
    "decode_server",
    "encode",
]

PROTOCOL_VERSION = 2
"""Raised whenever a message changes shape; a client of another version is
refused at ``hello`` with both versions named. Version 2: typed seat views,
offers and log lines; no setup in the welcome."""

BOT = -1
"""The seat number of the bot: the controller of a Character handed to it
(``HostMessage.to_seat``, ``SeatInfo.seat``)."""

MAX_LINE = 256 * 1024
"""The longest line a client may send (bytes). Views from the server are
larger; clients read up to ``MAX_VIEW_LINE``."""

MAX_VIEW_LINE = 16 * 1024 * 1024


class ProtocolError(ValueError):
    """A line that is not a valid message; the text says what is wrong."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- client to server ---------------------------------------------------------------------


class HelloMessage(_Message):
    """The first message of a client: who it is and which seat it wants."""

    type: Literal["hello"]
    protocol: int
    """The client's ``PROTOCOL_VERSION``."""
    seat: int | None = None
    """The seat to sit at (0-based); ``None`` with ``spectate`` false takes the
    seat this user already holds, else the first free one."""
    spectate: bool = False
    """Watch the table without a seat."""
    seat_token: str | None = None
    """The token the server gave this user for the seat, to reconnect."""
    join_token: str | None = None
    """The table's join token (required over TCP)."""
    user: str | None = None
    """The user name, over TCP only (a Unix socket tells the server who
    connects)."""


class ActionMessage(_Message):
    """An action of the one action language, against a state version."""

    type: Literal["action"]
    version: int
    """The ``version`` of the last view the client saw."""
    action: dict[str, Any]
    """``Action.to_json()`` of one of the offers, as the client received it
    (a card of another hand still ``HIDDEN``)."""


class ChatMessage(_Message):
    """A line of table talk (the server fills ``sender``)."""

    type: Literal["chat"]
    text: str = Field(max_length=500)
    sender: str = ""


class HostMessage(_Message):
    """A table setting only the host may change: who plays a Character
    (``character`` to ``to_seat``, or to the bot with ``to_seat`` = -1), or
    how the players' decisions are taken (``decide``)."""

    type: Literal["host"]
    character: str | None = None
    to_seat: int | None = None
    decide: Literal["first", "vote"] | None = None


class ByeMessage(_Message):
    """The client leaves; its seat is held for it."""

    type: Literal["bye"]


ClientMessage = Annotated[
    HelloMessage | ActionMessage | ChatMessage | HostMessage | ByeMessage,
    Field(discriminator="type"),
]

# --- server to client ---------------------------------------------------------------------


class SeatInfo(_Message):
    """One seat of the table as everyone sees it."""

    seat: int
    characters: list[str]
    user: str = ""
    """The user holding the seat; empty while it is free."""
    present: bool = False
    """Whether that user is connected now (else the seat is away)."""
    bot: bool = False
    """Whether the bot plays the seat's Characters."""


class WelcomeMessage(_Message):
    """The server accepted ``hello``."""

    type: Literal["welcome"]
    protocol: int
    table: str
    """The table's name."""
    seat: int | None
    """The seat given; ``None`` for a spectator."""
    seat_token: str | None = None
    """Keep it to reconnect to the seat."""
    host: bool = False
    """Whether this client's user is the table's host."""


class ViewMessage(_Message):
    """The game as this client may see it."""

    type: Literal["view"]
    version: int
    """Raised by every applied action; actions name the version they answer."""
    view: dict[str, Any]
    """``TableView.to_json()`` of ``seat_view(game, seat)``: only what this
    seat may see (read it back with ``TableView.from_json``)."""
    legal: list[dict[str, Any]]
    """``Offer.to_json()`` of each action this client may take now (empty
    when it may not act)."""
    decide: Literal["first", "vote"] = "first"
    votes: dict[str, int] = {}
    """In vote mode: the option each seat chose so far (by seat number)."""


class EventsMessage(_Message):
    """What happened, in plain words only: an event's data can name the
    cards of a hand or a deck, so it never crosses the wire."""

    type: Literal["events"]
    version: int
    """The version the events led to."""
    events: list[dict[str, Any]]
    """One ``{"kind": …, "text": …}`` per ``LogLine`` of ``log_lines``."""


class RefusalMessage(_Message):
    """The server declined a message; nothing changed."""

    type: Literal["refusal"]
    reason: str
    fatal: bool = False
    """The server closes the connection after a fatal refusal."""


class SeatsMessage(_Message):
    """Who sits where, who is away."""

    type: Literal["seats"]
    seats: list[SeatInfo]


ServerMessage = Annotated[
    WelcomeMessage | ViewMessage | EventsMessage | RefusalMessage | SeatsMessage | ChatMessage,
    Field(discriminator="type"),
]

_CLIENT: TypeAdapter[Any] = TypeAdapter(ClientMessage)
_SERVER: TypeAdapter[Any] = TypeAdapter(ServerMessage)


def encode(message: BaseModel) -> bytes:
    """One message as one line of JSON."""
    return message.model_dump_json(exclude_defaults=False).encode() + b"\n"


def _decode(adapter: TypeAdapter[Any], line: bytes, limit: int) -> Any:
    if len(line) > limit:
        raise ProtocolError(f"message too long ({len(line)} bytes, at most {limit})")
    try:
        data = json.loads(line)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ProtocolError(f"not JSON: {exc}") from None
    if not isinstance(data, dict) or "type" not in data:
        raise ProtocolError("not a message: a JSON object with a 'type' is expected")
    try:
        return adapter.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ProtocolError(f"bad {data.get('type')!r} message: {where}: {first['msg']}") from None


def decode_client(line: bytes) -> Any:
    """A client's line as a message model; raises ``ProtocolError``."""
    return _decode(_CLIENT, line, MAX_LINE)


def decode_server(line: bytes) -> Any:
    """A server's line as a message model; raises ``ProtocolError``."""
    return _decode(_SERVER, line, MAX_VIEW_LINE)
