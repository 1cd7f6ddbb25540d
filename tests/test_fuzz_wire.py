"""Fuzzing the wire: whatever a client sends, the answer is a message or a
refusal with a reason, never an exception, a traceback or a crash report.

Hypothesis writes client lines (random bytes, random JSON, deep nesting,
huge numbers, odd text, mutations of valid messages) for ``decode_client``
and for a live server over its Unix socket. ``DBDECK_FUZZ_EXAMPLES`` sets the
number of examples (the suite runs a modest number).
"""

from __future__ import annotations

import asyncio
import json
import logging
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from fuzzing import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_clients import Seat, Users, start

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.net.protocol import (
    MAX_LINE,
    PROTOCOL_VERSION,
    ActionMessage,
    ByeMessage,
    ChatMessage,
    HelloMessage,
    HostMessage,
    ProtocolError,
    RefusalMessage,
    ResendMessage,
    UndoAnswerMessage,
    UndoMessage,
    ViewMessage,
    decode_client,
)

VERSION = 424242
"""Stands for the table's version in a template; the live test puts the
real one in its place, so that some actions reach the engine."""

CLIENT_TYPES = (
    HelloMessage,
    ActionMessage,
    ChatMessage,
    HostMessage,
    UndoMessage,
    UndoAnswerMessage,
    ByeMessage,
    ResendMessage,
)

TEMPLATES: list[dict[str, Any]] = [
    {"type": "hello", "protocol": PROTOCOL_VERSION, "seat": 0},
    {"type": "hello", "protocol": PROTOCOL_VERSION, "join_token": "abc", "user": "bob"},
    {"type": "action", "version": VERSION, "action": {"type": "end-turn"}},
    {
        "type": "action",
        "version": VERSION,
        "action": {"type": "buy", "card": 40, "market": "allies"},
    },
    {
        "type": "action",
        "version": VERSION,
        "action": {"type": "attack", "cards": [1, 2], "target": "v"},
    },
    {"type": "action", "version": VERSION, "action": {"type": "choose", "option": 0}},
    {"type": "action", "version": VERSION, "action": {"type": "play-energy", "card": -1}},
    {"type": "chat", "text": "hello there"},
    {"type": "host", "decide": "vote"},
    {"type": "undo", "version": VERSION},
    {"type": "undo-answer", "request": 1, "agree": True},
    {"type": "bye"},
    {"type": "resend"},
]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def mutated(draw: st.DrawFn, templates: list[dict[str, Any]]) -> dict[str, Any]:
    """A valid message, perhaps with one field changed, dropped or added
    (at the top, or inside its action)."""
    message: dict[str, Any] = json.loads(json.dumps(draw(st.sampled_from(templates))))
    where = message["action"] if "action" in message and draw(st.booleans()) else message
    how = draw(st.sampled_from(["keep", "change", "drop", "add"]))
    keys = sorted(where)
    if how == "change":
        where[draw(st.sampled_from(keys))] = draw(json_values)
    elif how == "drop":
        where.pop(draw(st.sampled_from(keys)))
    elif how == "add":
        where[draw(st.text(max_size=8))] = draw(json_values)
    return message


@st.composite
def flipped(draw: st.DrawFn, templates: list[dict[str, Any]]) -> bytes:
    """A valid line with a few bytes replaced, inserted or taken out."""
    line = bytearray(json.dumps(draw(st.sampled_from(templates))).encode())
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(line)))
        byte = draw(st.integers(0, 255))
        how = draw(st.sampled_from(["replace", "insert", "delete"]))
        if how == "insert" or at == len(line):
            line.insert(at, byte)
        elif how == "replace":
            line[at] = byte
        else:
            del line[at]
    return bytes(line)


def _nest(kind: str, depth: int) -> bytes:
    if kind == "arrays":
        return b"[" * depth + b"]" * depth
    if kind == "objects":
        return b'{"a":' * depth + b"1" + b"}" * depth
    if kind == "open":
        return b"[" * depth
    return b'{"type": "action", "version": 0, "action": ' + b"[" * depth + b"]" * depth + b"}"


def lines(templates: list[dict[str, Any]] = TEMPLATES) -> st.SearchStrategy[bytes]:
    """Client lines, good and bad."""
    return st.one_of(
        st.binary(max_size=200),
        json_values.map(lambda v: json.dumps(v).encode()),
        mutated(templates).map(lambda m: json.dumps(m).encode()),
        mutated(templates).map(lambda m: json.dumps(m, ensure_ascii=False).encode()),
        flipped(templates),
        st.tuples(
            st.sampled_from(["arrays", "objects", "open", "action"]), st.integers(1, 10000)
        ).map(lambda t: _nest(*t)),
        st.integers(MAX_LINE - 40, MAX_LINE + 40).map(
            lambda n: b'{"type": "chat", "text": "' + b"x" * (n - 28) + b'"}'
        ),
        st.integers(20, 6000).map(
            lambda n: b'{"type": "action", "version": ' + b"9" * n + b', "action": {}}'
        ),
        st.sampled_from([b"1e99999", b"-0", b"NaN", b"Infinity", b"1" * 5000]).map(
            lambda n: b'{"type": "action", "version": ' + n + b', "action": {"type": "end-turn"}}'
        ),
        st.text(max_size=40).map(
            lambda t: json.dumps({"type": "chat", "text": t}, ensure_ascii=False).encode()
        ),
        st.sampled_from(
            [
                b'{"type": "chat", "text": "\\ud800"}',
                b'{"type": "hello", "protocol": 2, "join_token": "\\udfff"}',
                b'{"type": "chat", "text": "a\\u0000b\\u001b[2J"}',
                b"\xef\xbb\xbf{}",
                b"\x00\x00\x00{",
                b"\xff\xfe{\x00}\x00",
            ]
        ),
    )


def check_reason(reason: str) -> None:
    """A refusal's reason: words, printable, not a dump of the input."""
    assert reason and len(reason) <= 600, reason
    assert not any(unicodedata.category(c)[0] == "C" for c in reason), reason


@settings(max_examples=examples(400), deadline=None)
@given(lines())
def test_decode_client_answers_every_line(line: bytes) -> None:
    try:
        message = decode_client(line)
    except ProtocolError as exc:
        check_reason(str(exc))
        return
    assert isinstance(message, CLIENT_TYPES)


def test_a_live_server_answers_every_line(
    catalog: Catalog,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("DBDECK_TABLES", str(tmp_path / "tables"))
    caplog.set_level(logging.INFO)
    loop = asyncio.new_event_loop()
    users = Users()
    server = loop.run_until_complete(
        start(catalog, tmp_path, users, byte_rate=1e9, byte_burst=1e9, max_per_user=100)
    )
    stats = {"lines": 0, "refused": 0, "fatal": 0, "answered": 0, "applied": 0}

    async def join() -> Seat:
        seat = await Seat.join(server, users, "alice", seat=0)
        await seat.until(ViewMessage)
        return seat

    seats = [loop.run_until_complete(join())]
    first = seats[0].views[-1]
    offered = [{"type": "action", "version": VERSION, "action": o["action"]} for o in first.legal]

    async def feed(line: bytes, number: int) -> None:
        seat = seats[0]
        line = line.replace(b"\n", b" ").replace(
            str(VERSION).encode(), str(server.version).encode()
        )
        try:
            parsed: Any = decode_client(line)
        except ProtocolError:
            parsed = None
        before = server.version
        sentinel = f"sentinel {number}"
        too_long = len(line) > MAX_LINE
        ends = too_long or isinstance(parsed, ByeMessage)
        tail = b"" if ends else ChatMessage(type="chat", text=sentinel).model_dump_json().encode()
        await seat.client.send_raw(line + b"\n" + tail + (b"\n" if tail else b""))
        refusals: list[RefusalMessage] = []
        while True:
            message = await asyncio.wait_for(seat.client.receive(), 10)
            if message is None:
                break
            if isinstance(message, RefusalMessage):
                check_reason(message.reason)
                refusals.append(message)
            if isinstance(message, ChatMessage) and message.text == sentinel:
                break
        stats["lines"] += 1
        stats["refused"] += bool(refusals)
        stats["applied"] += server.version > before
        if ends:
            # Only a line too long (refused, with the reason) or a bye closes.
            if too_long:
                assert refusals and refusals[-1].fatal and "too long" in refusals[-1].reason
                stats["fatal"] += 1
            await seat.client.close()
            seats[0] = await join()
        else:
            assert message is not None, f"the server hung up on {line[:80]!r}"
            assert not any(r.fatal for r in refusals), refusals
            stats["answered"] += 1

    count = iter(range(10**9))

    @settings(
        max_examples=examples(150),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(lines(TEMPLATES + offered))
    def one(line: bytes) -> None:
        loop.run_until_complete(feed(line, next(count)))

    try:
        one()
        # Still serving: someone else sits down and is answered.
        bob = loop.run_until_complete(Seat.join(server, users, "bob", seat=1))
        assert bob.number == 1
        assert not list(tmp_path.glob("crash-*")), "a crash report was written"
        assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
        print(f"\nlive wire fuzz: {stats}")
    finally:
        loop.run_until_complete(server.close())
        loop.close()
