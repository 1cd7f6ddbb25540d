"""The SSH door's keys file (``door_keys``) and who its players are at the
table (``door_identity``, the server's ``identify``, ``admits`` and
``may_sit`` hooks), without SSH: a file is read or refused with its line,
and the server knows a door connection from the object itself.
"""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import asyncssh
import pytest
from door_clients import keys_line, write_keys
from table_clients import SETUP, Users

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.net.client import JoinRefused, TableClient
from dbdeck.net.door import parse_door_address
from dbdeck.net.door_identity import DoorIdentities, DoorPlayer
from dbdeck.net.door_keys import MAX_KEYS_BYTES, KeysProblem, parse_door_keys, read_door_keys
from dbdeck.net.door_pty import DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, bounded_size
from dbdeck.net.protocol import MAX_VIEW_LINE
from dbdeck.net.server import TableServer
from dbdeck.saves import Session


@pytest.fixture(scope="module")
def keys() -> list[asyncssh.SSHKey]:
    return [asyncssh.generate_private_key("ssh-ed25519") for _ in range(4)]


def _problem(text: str) -> str:
    with pytest.raises(KeysProblem) as caught:
        parse_door_keys(text, "keys")
    return str(caught.value)


# --- the file ----------------------------------------------------------------------------------


def test_a_key_is_named_by_its_option_or_its_comment(keys: list[asyncssh.SSHKey]) -> None:
    text = "\n".join(
        [
            "# the club's players",
            "",
            keys_line(keys[0], "ann"),
            keys_line(keys[1], "bob@laptop", 'name="bob"'),
            keys_line(keys[2], "carol", "watch-only,no-agent-forwarding"),
            keys_line(keys[3], "bob@desk", 'restrict,name="bob"'),
        ]
    )
    read = parse_door_keys(text, "keys")
    assert [(k.name, k.watch_only, k.line) for k in read.keys] == [
        ("ann", False, 3),
        ("bob", False, 4),
        ("carol", True, 5),
        ("bob", False, 6),
    ]
    assert read.names() == ["ann", "bob", "carol"] and read.watchers() == ["carol"]
    found = read.find(keys[1].public_data)
    assert found is not None and found.fingerprint == keys[1].get_fingerprint("sha256")
    assert found.fingerprint.startswith("SHA256:")
    assert read.find(asyncssh.generate_private_key("ssh-ed25519").public_data) is None


def test_a_comment_of_user_at_host_names_the_player(keys: list[asyncssh.SSHKey]) -> None:
    read = parse_door_keys(keys_line(keys[0], "ann@laptop.example"), "keys")
    assert read.names() == ["ann@laptop.example"]


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("ssh-ed25519 AAAA", "not a public key this door reads"),
        ("ssh-ed25519", "expected a key type and the key"),
        ("KEY", "name the player"),
        ("KEY ann laptop", "the comment 'ann laptop' is no player's name"),
        ("KEY -ann", "the comment '-ann' is no player's name"),
        ('name="x\\x1b[31m" KEY ann', "no player's name"),
        ('command="/bin/sh" KEY ann', "the option 'command' is not for the door"),
        ('from="10.0.0.1" KEY ann', "the option 'from' is not for the door"),
        ("watch-only=1 KEY ann", "cannot read the options"),
        ('name="ann KEY ann', "cannot read the options"),
        ("pty KEY ann", "the option 'pty' is not for the door"),
    ],
)
def test_a_line_the_door_cannot_take_is_told_with_its_number(
    keys: list[asyncssh.SSHKey], line: str, said: str
) -> None:
    public = " ".join(keys[0].export_public_key().decode().split()[:2])
    text = keys_line(keys[1], "bob") + "\n\n" + line.replace("KEY", public)
    problem = _problem(text)
    assert problem.startswith("keys, line 3: "), problem
    assert said in problem, problem


def test_a_key_twice_and_a_player_both_sitting_and_watching_are_refused(
    keys: list[asyncssh.SSHKey],
) -> None:
    same = keys_line(keys[0], "ann") + "\n" + keys_line(keys[0], "ann2")
    assert _problem(same) == "keys, line 2: the same key as line 1"
    both = keys_line(keys[0], "ann") + "\n" + keys_line(keys[1], "ann", "watch-only")
    assert "ann is watch-only on line 2 and not on the other" in _problem(both)


def test_the_file_must_be_the_hosts_and_written_by_no_one_else(
    tmp_path: Path, keys: list[asyncssh.SSHKey]
) -> None:
    path = write_keys(tmp_path / "keys", [keys_line(keys[0], "ann")])
    assert read_door_keys(path).names() == ["ann"]
    path.chmod(0o620)
    with pytest.raises(KeysProblem, match=r"others may write it .* chmod go-w"):
        read_door_keys(path)
    with pytest.raises(KeysProblem, match="cannot be read"):
        read_door_keys(tmp_path / "missing")
    with pytest.raises(KeysProblem, match="not a regular file"):
        read_door_keys(tmp_path)
    big = write_keys(tmp_path / "big", ["#" * (MAX_KEYS_BYTES + 10)])
    with pytest.raises(KeysProblem, match="too large"):
        read_door_keys(big)
    binary = tmp_path / "binary"
    binary.write_bytes(b"# ok\n\xff\xfe\n")
    binary.chmod(0o600)
    with pytest.raises(KeysProblem, match="line 2: not UTF-8"):
        read_door_keys(binary)


def test_the_door_address_and_the_sizes_are_bounded() -> None:
    assert parse_door_address("2222") == ("127.0.0.1", 2222)
    assert parse_door_address("0.0.0.0:2222") == ("0.0.0.0", 2222)
    assert parse_door_address("[::]:0") == ("::", 0)
    for bad in ("", "x", "1:99999", ":22", "host:port"):
        with pytest.raises(ValueError):
            parse_door_address(bad)
    assert bounded_size(0, 0) == DEFAULT_SIZE
    assert bounded_size(120, 0) == DEFAULT_SIZE
    assert bounded_size(65535, 65535) == MAX_SIZE
    assert bounded_size(1, 1) == MIN_SIZE
    assert bounded_size(100, 30) == (100, 30)


# --- who is at the table -----------------------------------------------------------------------


async def _door_connection(
    server: TableServer, identities: DoorIdentities, player: DoorPlayer
) -> tuple[TableClient, asyncio.StreamWriter, asyncio.Task[None]]:
    """A connection made as the door makes one: a socket pair, its table
    end handed to the server with its player."""
    door_end, app_end = socket.socketpair()
    reader, writer = await asyncio.open_unix_connection(sock=door_end)
    identities.enter(writer, player)
    serving = asyncio.get_running_loop().create_task(server.serve_door(reader, writer))
    app_reader, app_writer = await asyncio.open_unix_connection(sock=app_end, limit=MAX_VIEW_LINE)
    return TableClient(app_reader, app_writer), writer, serving


async def test_the_server_knows_a_door_connection_and_no_other(
    catalog: Catalog, tmp_path: Path
) -> None:
    session = Session.start(DeckbuildingRules(catalog), SETUP, tmp_path, save_id="game")
    users = Users()
    identities = DoorIdentities(users, lambda user: user in ("alice", "bob"))
    server = TableServer(
        session,
        "club",
        socket_path=tmp_path / "club.sock",
        owner="alice",
        identify=identities.identify,
        admits=identities.admits,
        may_sit=identities.may_sit,
        announce=False,
    )
    await server.start()
    try:
        ann = DoorPlayer("ann", "SHA256:x")
        client, writer, serving = await _door_connection(server, identities, ann)
        welcome = await client.hello(seat=1, user="alice")  # a name given is not believed
        assert welcome.seat == 1 and not welcome.host
        assert [s.user for s in server.table.seats] == ["", "ssh:ann"]
        assert identities.player(writer) == ann

        # A watch-only key's player is turned away from a seat, and watches.
        carol = DoorPlayer("carol", "SHA256:y", watch_only=True)
        sitting, _, _ = await _door_connection(server, identities, carol)
        with pytest.raises(JoinRefused, match="ssh:carol may only watch this table"):
            await sitting.hello(seat=0)
        watching, _, _ = await _door_connection(server, identities, carol)
        assert (await watching.hello(spectate=True)).seat is None

        # From the table's socket, a door name is nobody; an OS user is who
        # the kernel says, and the door's players are not let in without it.
        users.next.append("ssh:ann")
        local = await TableClient.connect(socket_path=server.socket_path)
        with pytest.raises(JoinRefused, match="cannot tell which user you are"):
            await local.hello(seat=0)
        assert not identities.admits("ssh:dave")
        assert identities.admits("bob") and not identities.admits("eve")

        await client.close()
        await asyncio.wait_for(serving, 5)
        identities.leave(writer)
        assert not identities.admits("ssh:ann")  # gone from the door, gone from the table
        assert [s.user for s in server.table.seats] == ["", "ssh:ann"]  # held
    finally:
        await server.close()
