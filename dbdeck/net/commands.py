"""``dbdeck host``, ``dbdeck join`` and ``dbdeck tables``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import logging
import os
import signal
import socket
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dbdeck.net.client import parse_tcp
from dbdeck.net.door_identity import DoorIdentities
from dbdeck.net.listing import (
    TableEntry,
    UnsafeFolder,
    check_entry_free,
    default_socket,
    host_uid,
    join_token_for,
    list_tables,
    may_join,
    prepare_socket_folder,
    read_token_file,
    refusal,
    refused_tables,
    shown,
    socket_refusal,
    table_name_problem,
    tables_dir,
    unlisted_socket,
    untrusted_by_others,
    user_folder,
    user_name,
)
from dbdeck.tabletop.registry import DEFAULT_GAME, title_of

if TYPE_CHECKING:
    from dbdeck.net.door import SshDoor
    from dbdeck.net.server import TableServer
    from dbdeck.saves import SaveFailed
    from dbdeck.tabletop.game import GameRules

__all__ = ["TOKEN_ENV", "cmd_host", "cmd_join", "cmd_tables", "join_token"]


def _err(text: str) -> int:
    print(text, file=sys.stderr)
    return 2


def _saves_hint(exc: SaveFailed, folder: Path) -> str:
    """What to do when the saves folder cannot be written: name another."""
    from dbdeck.saves.names import SAVES_ENV

    if exc.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
        return ""
    return (
        f"; the saves folder {folder} cannot be written: choose one that can with "
        f"--saves DIR or {SAVES_ENV}=DIR"
    )


def _resolve_place(args: argparse.Namespace, folder: Path) -> tuple[str, str, str, str, bool]:
    """The table's name, socket, group and TCP address (text, ``""`` when
    not given), and whether they are the ones the resumed table had.

    ``--resume ID`` alone serves the table where it was served, under the
    same name: joined clients retry the old socket and come back."""
    from dbdeck.net.server import TableServer

    given = (args.name or "", args.socket or "", args.group or "", args.tcp or "")
    if not args.resume or any(given):
        return (*given, False)
    place = TableServer.stored_place(folder, args.resume)
    if not place:
        return (*given, False)
    return (
        place.get("name", ""),
        place.get("socket", ""),
        place.get("group", ""),
        place.get("tcp", ""),
        True,
    )


def _reopen_door(args: argparse.Namespace, folder: Path) -> bool:
    """``--resume ID`` with no door of its own opens the door the table had
    (its address and keys file) again; whether it does."""
    from dbdeck.net.server import TableServer

    if not args.resume or getattr(args, "ssh", None) or getattr(args, "authorized_keys", None):
        return False
    place = TableServer.stored_place(folder, args.resume)
    if not place.get("ssh") or not place.get("authorized_keys"):
        return False
    args.ssh = place["ssh"]
    args.authorized_keys = Path(place["authorized_keys"])
    return True


@dataclass
class _DoorPlan:
    """The SSH door a table opens beside it, as the command line asks."""

    address: tuple[str, int]
    keys_file: Path
    seat_command: Sequence[str]
    identities: DoorIdentities | None = None


def _door_plan(args: argparse.Namespace, seat_command: Sequence[str]) -> _DoorPlan | str | None:
    """The door of ``--ssh`` and ``--authorized-keys`` (``None``: no door),
    or why it cannot open, told before anything is started."""
    ssh = getattr(args, "ssh", None)
    keys_file = getattr(args, "authorized_keys", None)
    if ssh is None and keys_file is None:
        return None
    if ssh is None:
        return "--authorized-keys is the SSH door's: give --ssh [ADDRESS:]PORT too"
    if keys_file is None:
        return "--ssh needs the players' keys: give --authorized-keys FILE"
    try:
        import asyncssh  # noqa: F401 (the door's one dependency, an extra)
    except ImportError:
        return "--ssh needs asyncssh, the ssh extra: pip install 'dbdeck[ssh]'"
    from dbdeck.net.door import parse_door_address
    from dbdeck.net.door_keys import KeysProblem, read_door_keys

    try:
        address = parse_door_address(ssh)
    except ValueError as exc:
        return f"--ssh: {exc}"
    try:
        keys = read_door_keys(keys_file)
    except KeysProblem as exc:
        return f"--authorized-keys: {exc}"
    if not keys.keys:
        print(f"note: {keys_file} holds no key yet: nobody can come in until it does")
    return _DoorPlan(address, keys_file, seat_command)


def cmd_host(
    args: argparse.Namespace,
    load: Callable[[str], GameRules[Any] | None],
    make_setup: Callable[[argparse.Namespace, GameRules[Any]], Any],
    seat_command: Sequence[str] = (),
) -> int:
    """Serve a table of any game until interrupted; the game is saved after
    every action. ``load`` opens a game's rules by id (``None`` after
    saying why it cannot); ``make_setup`` turns the command line into that
    game's setup (``ValueError`` saying what is missing); ``seat_command``
    starts the app of a session at the SSH door (``--ssh``)."""
    from dbdeck.net.server import TableServer, peer_user
    from dbdeck.saves import SaveError, SaveFailed, Session, save_game, saves_dir
    from dbdeck.tabletop.game import SetupProblem

    if args.think <= 0:
        return _err("--think must be a number of seconds above 0")
    folder = saves_dir(args.saves)
    name, socket_text, group, tcp_text, resumed = _resolve_place(args, folder)
    try:
        tcp = parse_tcp(tcp_text) if tcp_text else None
    except ValueError as exc:
        return _err(f"--tcp: {exc}")
    reopened = _reopen_door(args, folder)
    door = _door_plan(args, seat_command)
    if isinstance(door, str):
        return _err(f"the resumed table's SSH door: {door}" if reopened else door)
    if group:
        import grp

        try:
            grp.getgrnam(group)
        except KeyError:
            return _err(f"--group: no group named {group!r} on this box")
    if name and (problem := table_name_problem(name)):
        return _err(f"--name: {problem}")
    unlisted = _unlisted_because()
    try:
        # Before any save is made: a name of ours already served is told
        # at once.
        if name and not unlisted:
            check_entry_free(name)
    except UnsafeFolder as exc:
        return _err(f"cannot host this table: {exc}")
    # A resumed table plays the game its save names.
    game = save_game(folder, args.resume) if args.resume else args.game
    rules = load(game)
    if rules is None:
        return 1
    try:
        if args.resume:
            session: Session[Any] = Session.resume(rules, folder, args.resume)
        else:
            session = Session.start(rules, make_setup(args, rules), folder)
    except SaveFailed as exc:
        return _err(f"cannot host this game: {exc}{_saves_hint(exc, folder)}")
    except (SaveError, SetupProblem, ValueError) as exc:
        return _err(f"cannot host this game: {exc}")
    name = name or session.id
    notes: list[str] = []
    token: str | None = None
    token_file: Path | None = None
    try:
        # Before listening: a squatted name or an untrusted folder is told
        # now, not after the socket is up.
        if not unlisted:
            check_entry_free(name)
        if socket_text and not (resumed and unlisted):
            path = Path(socket_text)
            if resumed:
                prepare_socket_folder(path)
        elif unlisted:
            path = unlisted_socket(name, group, notes)
        else:
            path = default_socket(name, group, notes)
        if tcp is not None:
            token, token_file = join_token_for(session.id)
    except (UnsafeFolder, SaveFailed) as exc:
        session.close()
        return _err(f"cannot host this table: {exc}")
    if unlisted:
        notes.append(f"{unlisted}; this table is served but not listed by dbdeck tables")
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    hooks: dict[str, Any] = {}
    if door is not None:
        # The door's players are ssh:NAME; everyone else is who the kernel
        # says, admitted by the table's own rule.
        owner = user_name()
        door.identities = DoorIdentities(peer_user, lambda user: may_join(user, owner, group))
        hooks = {
            "identify": door.identities.identify,
            "admits": door.identities.admits,
            "may_sit": door.identities.may_sit,
        }
    server = TableServer(
        session,
        name,
        socket_path=path,
        group=group,
        tcp=tcp,
        join_token=token,
        decide=args.decide,
        bot_think=args.think if args.bot == "planner" else None,
        announce=not unlisted,
        **hooks,
    )
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    try:
        asyncio.run(_serve(server, token_file, door))
    except (OSError, ValueError) as exc:
        session.close()
        return _err(f"cannot serve the table: {exc}")
    finally:
        if unlisted and path.parent.name.startswith("dbdeck-"):
            # The fresh folder made for an unlisted table's socket, now empty.
            with contextlib.suppress(OSError):
                path.parent.rmdir()
    print(f"The table is closed; the game is saved: dbdeck host --resume {session.id}")
    return 0


def _unlisted_because() -> str:
    """Why this user's tables cannot be listed (their folder in the shared
    tables folder, or that folder, cannot be trusted: another user made
    it), or ``""``. Never a reason not to host: such a table is served on
    a socket of the host's own and joined by its path."""
    try:
        user_folder()
    except UnsafeFolder as exc:
        return str(exc)
    return ""


def _address(tcp: tuple[str, int]) -> str:
    host, port = tcp
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


async def _open_door(server: TableServer, plan: _DoorPlan) -> SshDoor:
    """Open the SSH door beside the table."""
    from dbdeck.net.door import SshDoor

    assert plan.identities is not None
    door = SshDoor(
        server, plan.identities, plan.keys_file, plan.address, seat_command=plan.seat_command
    )
    await door.start()
    return door


def _say_door(door: SshDoor) -> None:
    """How players come in at the SSH door, and the fingerprint to check."""
    host, port = door.address
    made = " (made now)" if door.made_host_key else ""
    print(f"SSH door on {_address(door.address)}: host key {door.fingerprint}{made}")
    print("  Players check that fingerprint when ssh first asks whether to trust the host.")
    if host in ("0.0.0.0", "::", ""):
        host = socket.getfqdn()
    elif ":" in host:
        host = f"[{host}]"
    sitting = [n for n in door.keys.names() if n not in door.keys.watchers()]
    print(f"  Players: ssh -t -p {port} {host}   ({', '.join(sitting) or 'no key yet'})")
    watching = ", ".join(door.keys.watchers())
    also = f" (watch-only keys: {watching})" if watching else ""
    print(f"  Watch:   ssh -t -p {port} watch@{host}{also}")
    if door.address[0] in ("127.0.0.1", "::1", "localhost"):
        print("  (loopback only: --ssh 0.0.0.0:PORT lets players of other machines in)")


async def _serve(
    server: TableServer, token_file: Path | None = None, door_plan: _DoorPlan | None = None
) -> None:
    await server.start()
    door = None
    if door_plan is not None:
        try:
            door = await _open_door(server, door_plan)
        except BaseException:
            await server.close()
            raise
        # The port the door got (``:0`` picks one) and the keys file, for --resume.
        server.remember_door(_address(door.address), os.path.abspath(door.keys_file))
    match = server.session.match
    print(f"Table {server.name}: {match.summary().title}")
    for seat in server.table.seats:
        held = f" (held by {seat.user})" if seat.user else ""
        chars = ", ".join(match.role_name(c) for c in seat.characters)
        print(f"  seat {seat.number}: {chars}{held}")
    admits = server.owner + (f" and group {server.group}" if server.group else "")
    if door is not None:
        admits += f", and the keys of {door.keys_file} at the SSH door"
    print(f"Admits: {admits}. Socket: {server.socket_path}")
    if server.group and (why := untrusted_by_others()) is not None:
        print(f"note: {why}", file=sys.stderr)
    # An unlisted table (its host's tables folder squatted) is found by its
    # socket's path alone.
    where = f"--table {server.name}" if server.announce else f"--socket {server.socket_path}"
    print(f"Join from a terminal on this box:  dbdeck join {where} [--seat N]")
    print(f"Watch:                             dbdeck join {where} --spectate")
    if not server.announce and not server.group:
        print("  (a table for you only: give --group GROUP, or --tcp, to admit others)")
    if server.tcp is not None:
        # Never the token itself on a command line: ps shows it to everyone.
        address = _address(server.tcp)
        print(f"Over loopback TCP {address}: the join token is in {token_file} (yours only).")
        print(f"  You:     dbdeck join --tcp {address} --token-file {token_file}")
        print(f"  Players: give them the token; they run  dbdeck join --tcp {address}")
        print(f"           and type it when asked (or set {TOKEN_ENV}, or use --token-file FILE).")
    if door is not None:
        _say_door(door)
    print(
        "The table closes with this terminal: logging out, or a dropped SSH session, "
        "closes it too.\n"
        f"  To keep it open, host inside tmux or screen (tmux new -s {server.name}), "
        "or see the README's 'Keeping a table open'."
    )
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    # Before the line that invites Ctrl+C: one pressed at once closes the
    # table the same way, never as a KeyboardInterrupt.
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, task.cancel)
    print("Ctrl+C closes the table (the game stays saved).", flush=True)
    try:
        with contextlib.suppress(asyncio.CancelledError):
            await server.serve_forever()
    finally:
        if door is not None:
            # The table has closed its connections; every app still up ends.
            await door.close()


TOKEN_ENV = "DBDECK_JOIN_TOKEN"
"""The environment variable that may hold a TCP table's join token."""

TOKEN_GONE = (
    "--token is gone: a token on the command line is shown to every user by ps. "
    f"Set {TOKEN_ENV}, give --token-file FILE (mode 0600), or type it when asked"
)


def join_token(token_file: str | None, address: str) -> str:
    """The join token of the TCP table at ``address``: from ``token_file``
    (this user's, mode 0600), else ``DBDECK_JOIN_TOKEN``, else typed at a
    prompt when stdin is a terminal. ``ValueError`` says why there is none."""
    if token_file:
        return read_token_file(Path(token_file))
    token = os.environ.get(TOKEN_ENV, "").strip()
    if token:
        return token
    if sys.stdin is not None and sys.stdin.isatty():
        import getpass

        try:
            token = getpass.getpass(f"Join token of the table at {address} (the host has it): ")
        except EOFError:
            token = ""
        if token.strip():
            return token.strip()
    raise ValueError(
        f"--tcp needs the table's join token (the host has it): set {TOKEN_ENV}, "
        "give --token-file FILE, or run in a terminal to type it"
    )


def _choose(
    tables: list[TableEntry],
    wanted: str | None,
    refused: list[TableEntry] | None = None,
    notes: list[str] | None = None,
    user: str | None = None,
) -> TableEntry | str:
    """The table to join, or why there is none (among ``refused``, the
    tables this user may not join, one of that name says why).

    Another user naming a table as one of ours must not make ``--table
    NAME`` ambiguous: of several tables of that name, the user's own is
    chosen, and a note in ``notes`` says whose the others are."""
    if wanted:
        owner, _, name = wanted.rpartition("/")
        tables = [t for t in tables if t.name == name and owner in ("", t.owner)]
        if not tables:
            for other in refused or []:
                if other.name == name and owner in ("", other.owner):
                    return refusal(other)
            return f"no table named {shown(wanted)!r} that you may join: see dbdeck tables"
        me = user or user_name()
        own = [t for t in tables if t.owner == me]
        if len(tables) > 1 and len(own) == 1:
            others = [t for t in tables if t is not own[0]]
            if notes is not None:
                notes.append(_also(own[0], others))
            return own[0]
    if not tables:
        return "no table to join on this box: start one with dbdeck host"
    if len(tables) > 1:
        if wanted:
            whose = " and ".join(f"{shown(t.owner)}'s" for t in tables)
            choices = " or ".join(f"--table {shown(t.owner)}/{t.name}" for t in tables)
            return f"several tables are named {shown(wanted)!r}, {whose}: use {choices}"
        names = ", ".join(_label(t, tables) for t in tables)
        return f"several tables are open ({names}): choose one with --table NAME"
    return tables[0]


def _also(chosen: TableEntry, others: list[TableEntry]) -> str:
    """Whose the other tables of the chosen one's name are (``club is your
    table; bob also has one: use --table bob/club for theirs``)."""
    who = ", ".join(shown(t.owner) for t in others)
    has = "has" if len(others) == 1 else "have"
    theirs = " or ".join(f"--table {shown(t.owner)}/{t.name}" for t in others)
    return f"{chosen.name} is your table; {who} also {has} one named so: use {theirs} for theirs"


def _label(table: TableEntry, tables: list[TableEntry]) -> str:
    """How ``--table`` names ``table`` among ``tables`` (``HOST/NAME`` when
    two hosts use the same name)."""
    same = sum(1 for t in tables if t.name == table.name)
    return table.name if same == 1 else f"{table.owner}/{table.name}"


def cmd_join(
    args: argparse.Namespace,
    load: Callable[[str], GameRules[Any] | None],
    joined_app: Callable[..., Any],
) -> int:
    """Open the table of a shared game in this terminal. ``load`` opens the
    rules of a game by its id, whose views the screen draws (``None`` after
    saying why not): the game a listed table's entry names. A table found
    by its address alone (``--socket``, ``--tcp``) names its game in its
    welcome, and the app opens it then. ``joined_app`` makes the app of a
    joined table (the rules, or ``None`` for the welcome's game; then where
    the table is and who asks)."""
    if args.token is not None:
        return _err(TOKEN_GONE)
    socket_path: Path | None = None
    host: tuple[str, int] | None = None
    token: str | None = None
    game: str | None = None  # the game the table's entry names (else its welcome does)
    user = args.user
    try:
        tcp = parse_tcp(args.tcp) if args.tcp else None
    except ValueError as exc:
        return _err(f"--tcp: {exc}")
    if tcp is not None:
        try:
            token = join_token(args.token_file, _address(tcp))
        except ValueError as exc:
            return _err(str(exc))
        user = user or user_name()
    elif args.socket:
        socket_path = Path(args.socket)
        if why := socket_refusal(socket_path):
            return _err(f"cannot join: {why}")
    else:
        notes: list[str] = []
        chosen = _choose(list_tables(notes=notes), args.table, refused_tables(), notes)
        for note in notes:
            print(f"note: {note}", file=sys.stderr)
        if isinstance(chosen, str):
            return _err(chosen)
        if not chosen.socket:
            return _err(
                f"table {chosen.name} is served over TCP only: dbdeck join --tcp {chosen.tcp}"
            )
        uid = host_uid(chosen.owner)
        if uid is None:
            return _err(f"table {chosen.name}: its host {chosen.owner!r} is no user of this box")
        socket_path = Path(chosen.socket)
        # Whose server it must be: checked after connecting, before any token.
        host = (chosen.owner, uid)
        game = chosen.game
    if sys.stdin is None or not sys.stdin.isatty():
        # Without a terminal the table cannot be drawn nor played (and the
        # input thread would spin on a closed stdin).
        return _err("dbdeck join needs a terminal: stdin is not one")
    rules = None
    if game is not None:
        rules = load(game)
        if rules is None:
            return 1
    app = joined_app(
        rules,
        socket_path=socket_path,
        tcp=tcp,
        seat=args.seat,
        spectate=args.spectate,
        join_token=token,
        user=user,
        server_owner=host,
    )
    app.run()
    if app.failure:
        # The terminal may be gone (that may be why the app stopped).
        with contextlib.suppress(OSError):
            print(app.failure, file=sys.stderr)
        return 1
    return 0


def _say(*parts: str, err: bool = False) -> None:
    """Print one line of plain text: parts from another user's entry are
    drawn as they are written (rich ``Text``, never markup), never wrapped."""
    from rich.console import Console
    from rich.text import Text

    console = Console(stderr=err, highlight=False, soft_wrap=True, emoji=False)
    console.print(Text("".join(parts)))


def cmd_tables(args: argparse.Namespace, load: Callable[[], Any]) -> int:
    """List the tables on this box the user may join (what cannot be
    trusted or read is skipped, with a note on stderr).

    Every field shown was typed, bounded and checked printable when the
    entry was read (``list_tables``): an entry holding an escape sequence
    or a bidi override is skipped with a note naming its file."""
    notes: list[str] = []
    tables = list_tables(notes=notes)
    for note in notes:
        _say("note: ", note, err=True)
    refused = refused_tables()
    if not tables:
        _say(f"No table to join on this box (looked in {shown(str(tables_dir()), 200)}).")
    for t in refused:
        _say("Not for you: ", refusal(t), ".")
    if not tables:
        return 0
    for t in tables:
        chars = ", ".join(t.characters or [])
        free = f"{t.free_seats} free seat(s)" if t.free_seats else "no free seat"
        game = "" if t.game == DEFAULT_GAME else f" ({title_of(t.game)})"
        _say(t.name, ": ", t.villain, " vs ", chars, " — host ", t.owner, ", ", free, game)
        if t.socket:
            _say("    dbdeck join --table ", _label(t, tables))
        if t.tcp:
            _say("    dbdeck join --tcp ", t.tcp, "   (with the host's join token)")
    return 0
