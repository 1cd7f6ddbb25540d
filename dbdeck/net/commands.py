"""``dbdeck host``, ``dbdeck join`` and ``dbdeck tables``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from dbdeck.net.client import parse_tcp
from dbdeck.net.tables import default_socket, list_tables, tables_dir

if TYPE_CHECKING:
    from dbdeck.cards.catalog import Catalog
    from dbdeck.engine.game import Setup

__all__ = ["cmd_host", "cmd_join", "cmd_tables"]


def _err(text: str) -> int:
    print(text, file=sys.stderr)
    return 2


def cmd_host(
    args: argparse.Namespace,
    load: Callable[[], Catalog | None],
    make_setup: Callable[[argparse.Namespace], Setup],
) -> int:
    """Serve a table until interrupted; the game is saved after every action."""
    from dbdeck.engine.game import SetupError
    from dbdeck.net.server import TableServer
    from dbdeck.saves import SaveError, Session, saves_dir

    try:
        tcp = parse_tcp(args.tcp) if args.tcp else None
    except ValueError as exc:
        return _err(f"--tcp: {exc}")
    if args.group:
        import grp

        try:
            grp.getgrnam(args.group)
        except KeyError:
            return _err(f"--group: no group named {args.group!r} on this box")
    catalog = load()
    if catalog is None:
        return 1
    folder = saves_dir(args.saves)
    try:
        if args.resume:
            session = Session.resume(catalog, folder, args.resume)
        else:
            if not args.villain or not args.characters:
                return _err("give --villain and --characters, or --resume ID")
            session = Session.start(catalog, make_setup(args), folder)
    except (SaveError, SetupError, ValueError) as exc:
        return _err(f"cannot host this game: {exc}")
    name = args.name or session.id
    path = Path(args.socket) if args.socket else default_socket(name, args.group)
    server = TableServer(
        session, name, socket_path=path, group=args.group, tcp=tcp, decide=args.decide
    )
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    try:
        asyncio.run(_serve(server))
    except OSError as exc:
        session.close()
        return _err(f"cannot serve the table: {exc}")
    print(f"The table is closed; the game is saved: dbdeck host --resume {session.id}")
    return 0


async def _serve(server: object) -> None:
    from dbdeck.net.server import TableServer

    assert isinstance(server, TableServer)
    await server.start()
    game = server.session.game
    names = ", ".join(game.name("c:" + c.id) for c in game.state.characters)
    print(f"Table {server.name}: {game.name('v')} vs {names}")
    for seat in server.table.seats:
        held = f" (held by {seat.user})" if seat.user else ""
        chars = ", ".join(game.name("c:" + c) for c in seat.characters)
        print(f"  seat {seat.number}: {chars}{held}")
    admits = server.owner + (f" and group {server.group}" if server.group else "")
    print(f"Admits: {admits}. Socket: {server.socket_path}")
    print(f"Join from a terminal on this box:  dbdeck join --table {server.name} [--seat N]")
    print(f"Watch:                             dbdeck join --table {server.name} --spectate")
    if server.tcp is not None:
        host, port = server.tcp
        print(f"Over loopback TCP:  dbdeck join --tcp {host}:{port} --token {server.join_token}")
    print("Ctrl+C closes the table (the game stays saved).", flush=True)
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, task.cancel)
    with contextlib.suppress(asyncio.CancelledError):
        await server.serve_forever()


def cmd_join(args: argparse.Namespace, load: Callable[[], Catalog | None]) -> int:
    """Open the table of a shared game in this terminal."""
    socket_path: Path | None = None
    try:
        tcp = parse_tcp(args.tcp) if args.tcp else None
    except ValueError as exc:
        return _err(f"--tcp: {exc}")
    if tcp is not None:
        if not args.token:
            return _err("--tcp needs the table's --token (the host printed it)")
    elif args.socket:
        socket_path = Path(args.socket)
    else:
        tables = list_tables()
        if args.table:
            tables = [t for t in tables if t.name == args.table]
            if not tables:
                return _err(f"no table named {args.table!r} that you may join: see dbdeck tables")
        if not tables:
            return _err("no table to join on this box: start one with dbdeck host")
        if len(tables) > 1:
            names = ", ".join(t.name for t in tables)
            return _err(f"several tables are open ({names}): choose one with --table NAME")
        socket_path = Path(tables[0].socket)
    catalog = load()
    if catalog is None:
        return 1
    # Textual is loaded only once there is a table to open.
    from dbdeck.tui.remote import JoinApp

    app = JoinApp(
        catalog,
        socket_path=socket_path,
        tcp=tcp,
        seat=args.seat,
        spectate=args.spectate,
        join_token=args.token,
        user=args.user,
    )
    app.run()
    if app.failure:
        print(app.failure, file=sys.stderr)
        return 1
    return 0


def cmd_tables(args: argparse.Namespace, load: Callable[[], Catalog | None]) -> int:
    """List the tables on this box the user may join."""
    tables = list_tables()
    if not tables:
        print(f"No table to join on this box (looked in {tables_dir()}).")
        return 0
    for t in tables:
        chars = ", ".join(t.characters or [])
        free = f"{t.free_seats} free seat(s)" if t.free_seats else "no free seat"
        print(f"{t.name}: {t.villain} vs {chars} — host {t.owner}, {free}")
        print(f"    dbdeck join --table {t.name}")
    return 0
