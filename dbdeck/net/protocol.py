"""The table protocol: versioned, line-delimited JSON messages.

Each message is one JSON object on one line, with a ``type``. Clients send
``hello`` first, then ``action``, ``chat``, ``host`` (table settings, the
host only), ``undo`` and ``undo-answer`` (an undo every seat present agrees
to), ``resend`` or ``bye``. The server answers ``welcome`` (or ``refusal``
and closes), then sends a ``view`` after every change, ``events`` as they
happen, ``refusal`` when it declines a message, ``seats`` when someone comes
or goes, ``undo-asked`` while an undo waits for the seats' answers, and
``chat``.

A view after the first may come as a ``view-delta``: what changed since the
last view this connection got (``dbdeck.net.delta``), which the client
applies to that view to have exactly the view the server would have sent
whole. Views are numbered (``seq``), and a change names the view it is
made against (``base``); a client that cannot apply one asks for the whole
view (``resend``). The first view of a connection (a join or a reconnection),
the first after a seat plays other roles, and any view whose change would be
no shorter, are sent whole.

Any game is served (``dbdeck.tabletop.game``): the hello and the welcome
name the game, and a client of another game is refused at hello (a client
that found the table by its address alone names none, and opens the game
the welcome names). What
crosses the wire is only what the seat may see (protocol 3). A view is the
game's ``Match.view(seat, plays).to_json()``; legal actions are
``Offer.to_json()`` of ``Match.offers(plays)``, what the seat may not see
masked (a card of another hand as ``HIDDEN``); events are words only
(``LogLine``: a kind and a text), never an event's data. No seed, no random generator state, no deck
order and no uid of an unseen card ever leaves the host: the welcome names
the table and the seat, not the game's setup. A client sends back the
action of an offer as it got it; the server unmasks it.

The models are pydantic: they check what crosses the wire. A line that is
not valid JSON, not a known message, or longer than ``MAX_LINE`` bytes is
refused with a reason; it never reaches the game.

Everything a client sends is untrusted (another user of the box wrote it):
client messages are strict (no coercion: ``"1"`` is not a number, ``true``
is not 1), every number and string is bounded, and the action inside an
``action`` message is read by the game (``read_action``): the model of its
kind, with exactly that kind's fields, refused in the same words
(``action_problem``). The
raw line is checked before ``json.loads`` sees it: valid UTF-8, at most
``MAX_DEPTH`` levels of nesting, numbers of at most ``MAX_NUMBER`` characters.
Text from a client that is shown to anyone (a user name, a chat line, a
log line) goes through ``printable`` first.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    StrictBool,
    TypeAdapter,
    ValidationError,
)

from dbdeck.tabletop.registry import DEFAULT_GAME

__all__ = [
    "BOT",
    "MAX_DEPTH",
    "MAX_INT",
    "MAX_LINE",
    "MAX_NAME",
    "MAX_NUMBER",
    "MAX_TOKEN",
    "PROTOCOL_VERSION",
    "VIEWS_HELD",
    "ActionMessage",
    "ByeMessage",
    "ChatMessage",
    "ClientMessage",
    "EventsMessage",
    "HelloMessage",
    "HostMessage",
    "ProtocolError",
    "RefusalMessage",
    "ResendMessage",
    "SeatInfo",
    "SeatsMessage",
    "ServerMessage",
    "UndoAnswerMessage",
    "UndoAskedMessage",
    "UndoMessage",
    "ViewDeltaMessage",
    "ViewMessage",
    "WelcomeMessage",
    "action_problem",
    "decode_client",
    "decode_server",
    "decode_server_data",
    "decode_server_object",
    "encode",
    "fits_server_line",
    "printable",
]

PROTOCOL_VERSION = 5
"""Raised whenever a message changes shape; a client of another version is
refused at ``hello`` with both versions named. Version 2: typed seat views,
offers and log lines; no setup in the welcome. Version 3: the hello and the
welcome name the game. Version 4: undo at a shared table (``undo``,
``undo-answer``, ``undo-asked``). Version 5: numbered views, sent as what
changed (``view-delta``), and ``resend``."""

BOT = -1
"""The seat number of the bot: the controller of a Character handed to it
(``HostMessage.to_seat``, ``SeatInfo.seat``)."""

MAX_LINE = 16 * 1024
"""The longest line a client may send (bytes); the server's read buffer per
connection is no larger. The longest honest message, a chat line of 500
characters each escaped as ``\\uXXXX``, is about 3 KB. Views from the
server are larger; clients read up to ``MAX_VIEW_LINE``."""

MAX_VIEW_LINE = 16 * 1024 * 1024

MAX_DEPTH = 8
"""The deepest nesting of arrays and objects in a client's line (an action
message has three levels)."""

MAX_SERVER_DEPTH = 64
"""The deepest nesting a client accepts from the server (a view has about
ten levels, a change to one two or three times its depth), in a line and in
a view rebuilt from a change."""

VIEWS_HELD = 8
"""The views a client keeps (the latest first), and the server remembers
it keeps: a change is made against the latest, and may take a list's items
from the others (a seat's offers as they were when it was last asked)."""

MAX_NUMBER = 24
"""The most characters of one JSON number: Python would spend quadratic time
on a 100,000-digit one and refuses those of more than 4,300 digits with a
bare ``ValueError``."""

MAX_INT = 10**6
"""The largest integer in a client message (uids, options, versions are far
below it); the smallest is -1 (``HIDDEN`` and ``BOT``)."""

MAX_NAME = 64
"""The longest user name, Character id or target a client may send."""

MAX_TOKEN = 128
"""The longest join or seat token a client may send."""


class ProtocolError(ValueError):
    """A line that is not a valid message; the text says what is wrong."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _ClientMessage(_Message):
    """What a client sends: every field is strict (taken as it is typed,
    never coerced: ``"1"`` is no number, ``1`` no ``true``). Strict field by
    field, not by the model's config, so that ``ActionMessage(action=...)``
    still takes ``Action.to_json()`` in Python code."""


# --- text a client may send ---------------------------------------------------------------


def _ascii_word(value: str) -> str:
    if not all("!" <= c <= "~" for c in value):
        raise ValueError("printable ASCII only (no spaces, no control characters)")
    return value


_Int = Annotated[int, Strict(), Field(ge=-1, le=MAX_INT)]
_Count = Annotated[int, Strict(), Field(ge=0, le=MAX_INT)]
_Name = Annotated[str, Strict(), Field(max_length=MAX_NAME), AfterValidator(_ascii_word)]
"""A user name, Character id or target: printable ASCII without spaces."""
_Token = Annotated[str, Strict(), Field(max_length=MAX_TOKEN), AfterValidator(_ascii_word)]
"""A join or seat token: printable ASCII without spaces."""


_CONTROL = re.compile(r"[^\x20-\x7e]")


def printable(text: object, limit: int = MAX_NAME, *, spaces: bool = False) -> str:
    """``text`` made safe to print in a log, a chat line or a terminal.

    Every character that could do more than show itself is written as an
    escape (``\\n``, ``\\x1b``, ``\\u202e``): control and format characters
    (terminal escape sequences, bidi overrides), line and paragraph
    separators, surrogates, private and unassigned code points. Spaces are
    escaped too, unless ``spaces`` (a chat line), which turns every other
    kind of blank into a plain space. The result is at most ``limit``
    characters, ending in ``…`` when cut.
    """
    text = str(text)
    if not _CONTROL.search(text) and (spaces or " " not in text) and len(text) <= limit:
        return text  # the common case: plain ASCII
    out: list[str] = []
    size = 0
    for char in text:
        kind = unicodedata.category(char)
        if spaces and (kind == "Zs" or char == "\t"):
            piece = " "
        elif kind[0] == "C" or kind in ("Zl", "Zp") or (kind == "Zs" and not spaces):
            code = ord(char)
            piece = f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
            if code > 0xFFFF:
                piece = f"\\U{code:08x}"
        else:
            piece = char
        if size + len(piece) > limit:
            return "".join(out)[: max(limit - 1, 0)] + "…"
        out.append(piece)
        size += len(piece)
    return "".join(out)


# --- client to server ---------------------------------------------------------------------


class HelloMessage(_ClientMessage):
    """The first message of a client: who it is and which seat it wants."""

    type: Literal["hello"]
    protocol: _Count
    """The client's ``PROTOCOL_VERSION``."""
    game: _Name | None = DEFAULT_GAME
    """The game the client means to play (``dbdeck.tabletop.registry``);
    ``None``: the game the table plays, which the welcome names (a client
    that found the table by its address alone opens that game then)."""
    seat: _Count | None = None
    """The seat to sit at (0-based); ``None`` with ``spectate`` false takes the
    seat this user already holds, else the first free one."""
    spectate: StrictBool = False
    """Watch the table without a seat."""
    seat_token: _Token | None = None
    """The token the server gave this user for the seat, to reconnect."""
    join_token: _Token | None = None
    """The table's join token (required over TCP)."""
    user: _Name | None = None
    """The user name over TCP. The server goes by the OS user it finds for
    the connection (the socket's peer credentials, or the owner of the TCP
    connection in ``/proc/net/tcp``), never by this."""


class ActionMessage(_ClientMessage):
    """An action of the game's action language, against a state version."""

    type: Literal["action"]
    version: _Count
    """The ``version`` of the last view the client saw."""
    action: dict[str, Any]
    """The action of one of the offers as JSON, as the client received it
    (a card of another hand still ``HIDDEN``). Bounded here by the line's
    size and depth; the game reads it (``read_action``: exactly its kind's
    fields)."""


class ChatMessage(_ClientMessage):
    """A line of table talk (the server fills ``sender``, and sends ``text``
    through ``printable``)."""

    type: Literal["chat"]
    text: Annotated[str, Strict(), Field(max_length=500)]
    sender: Annotated[str, Strict(), Field(max_length=MAX_NAME + 16)] = ""


class HostMessage(_ClientMessage):
    """A table setting only the host may change: who plays a Character
    (``character`` to ``to_seat``, or to the bot with ``to_seat`` = -1), or
    how the players' decisions are taken (``decide``)."""

    type: Literal["host"]
    character: _Name | None = None
    to_seat: _Int | None = None
    decide: Literal["first", "vote"] | None = None


class UndoMessage(_ClientMessage):
    """Ask the table to undo its last action. Every seat present must agree
    (``UndoAnswerMessage``; the seat that asks agrees by asking, a
    spectator has no say); a seat alone at the table undoes at once. Undo
    never goes back past the last moment hidden information was revealed."""

    type: Literal["undo"]
    version: _Count
    """The ``version`` of the last view the client saw: the action to undo
    is the last one of that view."""


class UndoAnswerMessage(_ClientMessage):
    """A seat's answer to the undo asked: agree, or refuse (which calls it
    off; the seat that asked withdraws it so)."""

    type: Literal["undo-answer"]
    request: _Count
    """The ``request`` of the ``undo-asked`` message answered: an answer to
    an undo that was called off meanwhile counts for no other."""
    agree: StrictBool


class ByeMessage(_ClientMessage):
    """The client leaves; its seat is held for it."""

    type: Literal["bye"]


class ResendMessage(_ClientMessage):
    """The client could not apply a change to its view: the server sends
    the whole view next (once for each change it sent since the last whole
    view; otherwise the whole view is on its way already)."""

    type: Literal["resend"]


ClientMessage = Annotated[
    HelloMessage
    | ActionMessage
    | ChatMessage
    | HostMessage
    | UndoMessage
    | UndoAnswerMessage
    | ByeMessage
    | ResendMessage,
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
    game: str = DEFAULT_GAME
    """The game played at the table."""
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
    """Raised by every change (an action applied or undone: it never goes
    back, so one version is one state); actions name the version they answer."""
    seq: int
    """The number of this view, higher for each view built; a change
    (``ViewDeltaMessage.base``) names the view it is made against by it."""
    view: dict[str, Any]
    """``TableView.to_json()`` of ``seat_view(game, seat)``: only what this
    seat may see (read it back with ``TableView.from_json``)."""
    legal: list[dict[str, Any]]
    """``Offer.to_json()`` of each action this client may take now (empty
    when it may not act)."""
    decide: Literal["first", "vote"] = "first"
    votes: dict[str, int] = {}
    """In vote mode: the option each seat chose so far (by seat number)."""
    tally: dict[str, Any] | None = None
    """Once the game is over: ``Tally.to_json()`` of the whole game (damage
    dealt and taken, cards bought, turns), for the summary; public counts
    only."""


class ViewDeltaMessage(_Message):
    """A view as what changed since a view this client holds: applied to
    it (``dbdeck.net.delta.apply``, with the older views held), it gives the
    ``ViewMessage`` the server would have sent whole, which is read (and
    bounded) as if it had come so."""

    type: Literal["view-delta"]
    version: int
    """The rebuilt view's ``version``."""
    base: int
    """The ``seq`` of the view the change is made against: the latest
    this client holds, else it asks for the whole view (``resend``)."""
    patch: dict[str, Any]
    """The change of the view's JSON object (with its ``seq``): only keys,
    places and values of this seat's new view. Bounded here by the line's
    size and depth, and checked part by part as it is applied."""


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


class UndoAskedMessage(_Message):
    """An undo asked at the table, as it stands: sent to every client when
    it is asked, when a seat agrees, and when it ends (carried out or called
    off), and to a spectator who comes while it waits. Its words are the
    log's as a spectator reads them: what any seat may know."""

    type: Literal["undo-asked"]
    request: int
    """This undo's number, which an answer names."""
    by_seat: int
    """The seat that asked."""
    by: str
    """Who asked, in words (``alice (Goku)``)."""
    undoes: list[str]
    """What would be undone: the last action's log lines."""
    agreed: list[int] = []
    """The seats that agreed (the one that asked among them)."""
    waiting: list[int] = []
    """The seats present whose answer is awaited."""
    waiting_for: list[str] = []
    """The same seats, in words."""
    open: bool = True
    """Whether it still waits for answers; ``False``: ``ended`` says how it
    ended."""
    ended: str = ""
    """How it ended: ``undone``, or why it was called off."""


ServerMessage = Annotated[
    WelcomeMessage
    | ViewMessage
    | ViewDeltaMessage
    | EventsMessage
    | RefusalMessage
    | SeatsMessage
    | UndoAskedMessage
    | ChatMessage,
    Field(discriminator="type"),
]

_CLIENT: TypeAdapter[Any] = TypeAdapter(ClientMessage)
_SERVER: TypeAdapter[Any] = TypeAdapter(ServerMessage)


def encode(message: BaseModel) -> bytes:
    """One message as one line of JSON."""
    return message.model_dump_json(exclude_defaults=False).encode() + b"\n"


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_INNERMOST = re.compile(rb"[\[{][^\[\]{}]*[\]}]")


def _too_deep(line: bytes, limit: int) -> bool:
    """Whether ``line`` nests arrays and objects deeper than ``limit``, found
    without recursion: strings are blanked, then the innermost ``[…]`` and
    ``{…}`` are taken out ``limit`` times; an opening bracket left after that
    is deeper. (An unbalanced line is left for ``json.loads`` to refuse.)"""
    rest = _STRING.sub(b'""', line)
    if rest.count(b"[") + rest.count(b"{") <= limit:
        return False
    for _ in range(limit):
        rest, taken = _INNERMOST.subn(b"", rest)
        if not taken:
            return False
    return b"[" in rest or b"{" in rest


def _number(text: str) -> Any:
    if len(text) > MAX_NUMBER:
        raise ProtocolError(f"a number too long ({len(text)} characters, at most {MAX_NUMBER})")
    return int(text) if text.lstrip("-").isdigit() else float(text)


def _constant(text: str) -> Any:
    raise ProtocolError(f"not JSON: {text} is not a number")


def _load(line: bytes, depth: int) -> Any:
    """``line`` as JSON data; ``ProtocolError`` (never another exception) when
    it is not UTF-8, nests too deeply or holds an overlong number."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProtocolError(f"not JSON: not UTF-8 text (byte {exc.start})") from None
    if _too_deep(line, depth):
        raise ProtocolError(f"nested too deeply (at most {depth} levels)")
    try:
        return json.loads(text, parse_int=_number, parse_float=_number, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"not JSON: {exc}") from None
    except RecursionError:  # an unbalanced line the depth check let through
        raise ProtocolError(f"nested too deeply (at most {depth} levels)") from None


def _reason(data: dict[str, Any], exc: ValidationError) -> str:
    """The first error of a message, in words (client text made printable)."""
    first = exc.errors()[0]
    kind = printable(data.get("type"), 40)
    loc = [printable(p, 40) for p in first["loc"]]
    if loc[:1] == [kind]:
        loc = loc[1:]  # the message type pydantic tells apart by
    if kind == "action" and loc[:1] == ["action"] and len(loc) > 1:
        # ``action.buy.card``: the kind of action, then its field.
        return f"bad 'action' message: not an action: {'.'.join(loc[1:])}: {first['msg']}"
    if kind == "action" and loc == ["action"] and first["type"] == "union_tag_invalid":
        tag = printable(first.get("ctx", {}).get("tag"), 40)
        return f"bad 'action' message: not an action: unknown action type {tag!r}"
    where = f"{'.'.join(loc)}: " if loc else ""
    return f"bad '{kind}' message: {where}{first['msg']}"


def action_problem(exc: ValidationError) -> str:
    """Why the action of an ``action`` message is not one of the game's, in
    the words of every other refusal (``bad 'action' message: not an
    action: buy.card: Field required``)."""
    data = {"type": "action"}
    first = exc.errors()[0]
    loc = [printable(p, 40) for p in ("action", *first["loc"])]
    if len(loc) > 1:
        text = f"bad 'action' message: not an action: {'.'.join(loc[1:])}: {first['msg']}"
    elif first["type"] == "union_tag_invalid":
        tag = printable(first.get("ctx", {}).get("tag"), 40)
        text = f"bad 'action' message: not an action: unknown action type {tag!r}"
    else:
        text = f"bad '{data['type']}' message: action: {first['msg']}"
    return printable(text, 400, spaces=True)


def _decode(
    adapter: TypeAdapter[Any], line: bytes, limit: int, depth: int
) -> tuple[Any, dict[str, Any]]:
    size = len(line.rstrip(b"\r\n"))
    if size > limit:
        raise ProtocolError(f"message too long ({size} bytes, at most {limit})")
    data = _load(line, depth)
    if not isinstance(data, dict) or "type" not in data:
        raise ProtocolError("not a message: a JSON object with a 'type' is expected")
    try:
        return adapter.validate_python(data), data
    except ValidationError as exc:
        raise ProtocolError(printable(_reason(data, exc), 400, spaces=True)) from None


def decode_client(line: bytes) -> Any:
    """A client's line as a message model; raises ``ProtocolError``."""
    return _decode(_CLIENT, line, MAX_LINE, MAX_DEPTH)[0]


def decode_server(line: bytes) -> Any:
    """A server's line as a message model; raises ``ProtocolError``."""
    return _decode(_SERVER, line, MAX_VIEW_LINE, MAX_SERVER_DEPTH)[0]


def decode_server_data(line: bytes) -> tuple[Any, dict[str, Any]]:
    """A server's line as a message model and as the JSON object it is (what
    a change to a view is applied to); raises ``ProtocolError``."""
    return _decode(_SERVER, line, MAX_VIEW_LINE, MAX_SERVER_DEPTH)


def decode_server_object(data: dict[str, Any]) -> Any:
    """A message the client made itself (a view rebuilt from a change), read
    as if its line had come from the server: at most ``MAX_VIEW_LINE``
    bytes once written, ``MAX_SERVER_DEPTH`` levels, a known message.
    Raises ``ProtocolError``. (Its numbers came in lines already read.)"""
    line = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    if not fits_server_line(line):
        size = len(line)
        if size > MAX_VIEW_LINE:
            raise ProtocolError(f"message too long ({size} bytes, at most {MAX_VIEW_LINE})")
        raise ProtocolError(f"nested too deeply (at most {MAX_SERVER_DEPTH} levels)")
    try:
        return _SERVER.validate_python(data)
    except ValidationError as exc:
        raise ProtocolError(printable(_reason(data, exc), 400, spaces=True)) from None


def fits_server_line(line: bytes) -> bool:
    """Whether a line the server would send is within what a client reads:
    ``MAX_VIEW_LINE`` bytes, ``MAX_SERVER_DEPTH`` levels."""
    return len(line.rstrip(b"\r\n")) <= MAX_VIEW_LINE and not _too_deep(line, MAX_SERVER_DEPTH)
