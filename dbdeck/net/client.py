"""The client side of a table connection: hello, then messages both ways.

A client receives only what its seat may see: read a view's ``view`` with
``TableView.from_json`` and its ``legal`` with ``Offer.from_json``, and send
back an offer's action as it came (a masked card still ``HIDDEN``).

A view that comes as a change to the last one (``view-delta``) is rebuilt
here (``HeldViews``): ``receive`` gives the whole ``ViewMessage``, exactly
the one the server would have sent, read and bounded as if it had come so.
A change that does not apply asks the server for the whole view.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from dbdeck.net.delta import DeltaError, apply
from dbdeck.net.protocol import (
    MAX_VIEW_LINE,
    PROTOCOL_VERSION,
    VIEWS_HELD,
    HelloMessage,
    ProtocolError,
    RefusalMessage,
    ResendMessage,
    ViewDeltaMessage,
    ViewMessage,
    WelcomeMessage,
    decode_server_data,
    decode_server_object,
    encode,
)

__all__ = ["HeldViews", "JoinRefused", "TableClient", "parse_tcp"]


class JoinRefused(Exception):
    """The table did not let this client in; the message says why."""


def parse_tcp(text: str) -> tuple[str, int]:
    """``HOST:PORT`` for loopback TCP; only loopback addresses are allowed."""
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"expected HOST:PORT, got {text!r}")
    if host not in ("127.0.0.1", "::1", "[::1]", "localhost"):
        raise ValueError(f"only loopback addresses are allowed, not {host!r}")
    return host.strip("[]"), int(port)


class HeldViews:
    """The last views a connection got (the latest first, ``VIEWS_HELD`` at
    most), each as the JSON object it is: what the server's changes are
    made against."""

    def __init__(self) -> None:
        self.views: list[dict[str, Any]] = []
        self.asked = False
        """Whether the whole view was asked for and has not come yet."""

    def whole(self, data: dict[str, Any]) -> None:
        """A view that came whole: it is the only one held now (the server
        forgets the older ones when it sends one)."""
        self.views = [data]
        self.asked = False

    def rebuild(self, change: ViewDeltaMessage) -> ViewMessage:
        """The view ``change`` makes of the views held, read as if it had
        come whole (``DeltaError`` or ``ProtocolError`` when it cannot be)."""
        if not self.views:
            raise DeltaError("a change to a view, and no view is held")
        base = self.views[0]
        if base.get("seq") != change.base:
            raise DeltaError(
                f"a change to view {change.base}; the last view held is {base.get('seq')}"
            )
        data = apply(base, change.patch, self.views[1:])
        message = decode_server_object(data)
        if not isinstance(message, ViewMessage) or message.version != change.version:
            raise DeltaError(f"a change of view {change.base} that makes no view {change.version}")
        self.views = [data, *self.views][:VIEWS_HELD]
        return message

    def lost(self) -> bool:
        """Forget the views after a change that did not apply; whether to
        ask for the whole view (not when it was asked for already)."""
        self.views = []
        asked, self.asked = self.asked, True
        return not asked


class TableClient:
    """One connection to a table server."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.welcome: WelcomeMessage | None = None
        self.held = HeldViews()
        """The views this connection got, to rebuild a view from a change."""

    @classmethod
    async def connect(
        cls, *, socket_path: Path | str | None = None, tcp: tuple[str, int] | None = None
    ) -> TableClient:
        """Open a connection (``OSError`` when no table answers there)."""
        if tcp is not None:
            reader, writer = await asyncio.open_connection(*tcp, limit=MAX_VIEW_LINE)
        else:
            assert socket_path is not None
            reader, writer = await asyncio.open_unix_connection(
                str(socket_path), limit=MAX_VIEW_LINE
            )
        return cls(reader, writer)

    def server_uid(self) -> int | None:
        """The uid of the process serving this connection, from the Unix
        socket's peer credentials (``SO_PEERCRED``); ``None`` over TCP, where
        the kernel vouches for no one.

        A client can check with it that the socket it found in a shared
        folder is served by the user the table list names, not by someone
        who planted a socket there."""
        sock = self.writer.get_extra_info("socket")
        if sock is None or sock.family != socket.AF_UNIX:
            return None
        raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        _pid, uid, _gid = struct.unpack("3i", raw)
        return int(uid)

    async def hello(self, **fields: Any) -> WelcomeMessage:
        """Ask for a seat (or to watch); raises ``JoinRefused`` with the reason."""
        fields.setdefault("protocol", PROTOCOL_VERSION)
        try:
            hello = HelloMessage(type="hello", **fields)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise JoinRefused(f"cannot ask for a seat: {where}: {first['msg']}") from None
        # A table that refused at once (full, or too many connections) has
        # written why before closing: it is read below.
        with contextlib.suppress(ConnectionError):
            await self.send(hello)
        while True:
            message = await self.receive()
            if message is None:
                raise JoinRefused("the table closed the connection")
            if isinstance(message, RefusalMessage):
                raise JoinRefused(message.reason)
            if isinstance(message, WelcomeMessage):
                self.welcome = message
                return message

    async def send(self, message: BaseModel) -> None:
        """Send one message."""
        self.writer.write(encode(message))
        await self.writer.drain()

    async def send_raw(self, line: bytes) -> None:
        """Send bytes as they are (tests of the server's defences)."""
        self.writer.write(line)
        await self.writer.drain()

    async def receive_line(self) -> bytes:
        """The next line from the server; empty when the connection ends."""
        try:
            return await self.reader.readline()
        except (ConnectionError, ValueError, asyncio.IncompleteReadError):
            return b""

    async def receive(self) -> Any:
        """The next message from the server; ``None`` when the connection
        ends. A change to the view comes as the whole ``ViewMessage`` it
        makes; one that cannot be applied is passed over, and the whole view
        asked for."""
        while True:
            line = await self.receive_line()
            if not line:
                return None
            message, data = decode_server_data(line)
            if isinstance(message, ViewMessage):
                self.held.whole(data)
                return message
            if not isinstance(message, ViewDeltaMessage):
                return message
            try:
                return self.held.rebuild(message)
            except (DeltaError, ProtocolError):
                if self.held.lost():
                    with contextlib.suppress(ConnectionError):
                        await self.send(ResendMessage(type="resend"))

    async def close(self) -> None:
        """Close the connection (the seat stays held)."""
        self.writer.close()
        with contextlib.suppress(Exception):
            await self.writer.wait_closed()
