"""A seat at the SSH door: the joined table of one session, and nothing else.

The door (``dbdeck.net.door``) starts this module for each SSH session, on
the session's own pty, with its connection to the table already open on a
file descriptor (``--fd``): a socket pair whose other end the server
holds, and knows came through the door. ``DoorApp`` is the joined table's
app (``JoinApp``) with every way out of the table closed: no main menu and
no new game after the summary, no replay, no saved game, no screenshot
written to the host's disk, no link opened in the host's browser, no
reconnection elsewhere. The player's settings go to their own file (the
door names it in ``DBDECK_SETTINGS``). Players see who they are: "You are
ann (SSH key SHA256:…) at alice's table club, seat 1."

Run as ``python -m dbdeck.games.deckbuilding.tui.door_seat --fd N --name
NAME --key FINGERPRINT --host OWNER [--spectate]``; only the door does.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import sys
from collections.abc import Iterable, Sequence
from typing import Any

from textual.app import SystemCommand
from textual.screen import Screen

from dbdeck.net.client import TableClient
from dbdeck.net.protocol import MAX_VIEW_LINE, WelcomeMessage, printable
from dbdeck.tui.joined import WaitingScreen

from .remote import TERMINAL_GONE, JoinApp

__all__ = ["DoorApp", "main"]

NOT_HERE = "Not at the SSH door: this terminal is for this table only (q leaves it)."


class DoorApp(JoinApp):
    """The table of one SSH session: its seat, or the spectator's view."""

    reconnects = False
    after_game_choices = ("table", "quit")
    """What the summary offers at the end: the table again, or leave."""

    def __init__(
        self,
        connection: socket.socket,
        *,
        name: str,
        fingerprint: str,
        host: str,
        spectate: bool = False,
    ) -> None:
        super().__init__(None, spectate=spectate)
        self.connection = connection
        self.player = printable(name)
        self.fingerprint = printable(fingerprint, 60)
        self.host_name = printable(host)
        self.start_screen = WaitingScreen(
            f"You are {self.player} (SSH key {self.fingerprint}): coming to "
            f"{self.host_name}'s table…"
        )
        self._connected = False

    def where(self) -> str:
        """This terminal's place at the table, in words, with who you are."""
        return f"{self.player} · {super().where()}"

    def greeting(self) -> str:
        """Who this terminal is, and where."""
        place = "watching" if self.seat is None else f"seat {self.seat}"
        return (
            f"You are {self.player} (SSH key {self.fingerprint}) at {self.host_name}'s "
            f"table {printable(self.table_name)}, {place}."
        )

    def farewell(self) -> str:
        """What the terminal says once the app has closed."""
        if self.failure:
            return f"{self.failure}\n"
        if not self.table_name:
            return ""
        held = "" if self.seat is None else f", seat {self.seat}: the seat is held"
        return (
            f"You left {self.host_name}'s table {printable(self.table_name)}{held}. "
            "ssh again to come back.\n"
        )

    def stop(self, why: str) -> None:
        """Leave with a reason printed after the app closes (a hangup here
        is the door's: the client left, or the table is closing)."""
        if why == TERMINAL_GONE:
            why = "The door closed this terminal: your seat is held; ssh again to come back."
        super().stop(why)

    async def _connect(self) -> TableClient:
        """The door's connection, once: there is no other way to the table."""
        if self._connected:
            raise OSError("the door's connection to the table is closed")
        self._connected = True
        reader, writer = await asyncio.open_unix_connection(
            sock=self.connection, limit=MAX_VIEW_LINE
        )
        return TableClient(reader, writer)

    def _hello(self) -> dict[str, Any]:
        # The table knows who this is from the connection: no name, no
        # token; the seat is the one this player holds (or the first free).
        return {"game": None, "seat": None, "spectate": self.spectate}

    def _welcomed(self, welcome: WelcomeMessage) -> None:
        self.seat = welcome.seat
        self.host = welcome.host
        self.table_name = welcome.table
        self.notify(self.greeting(), title="Welcome", timeout=30)

    def after_game(self, choice: str) -> None:
        """After the summary: back to the table, or leave; nothing else here."""
        if choice == "quit":
            self.exit()
        elif choice != "table":
            self.notify(NOT_HERE, severity="warning")

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The palette's own commands, but the screenshot (a file on the host)."""
        for command in super().get_system_commands(screen):
            if command.title != "Screenshot":
                yield command

    def deliver_screenshot(
        self,
        filename: str | None = None,
        path: str | None = None,
        time_format: str | None = None,
    ) -> str | None:
        """No screenshot is written on the host for a player at the door."""
        self.notify("Screenshots are not saved at the SSH door.", severity="warning")
        return None

    def open_url(self, url: str, *, new_tab: bool = True) -> None:
        """A link would open in the host's browser: not from the door."""
        self.notify("Links do not open from the SSH door.", severity="warning")


def main(argv: Sequence[str] | None = None) -> int:
    """Run one session's table; returns the exit code."""
    parser = argparse.ArgumentParser(prog="door_seat", description="a seat at the SSH door")
    parser.add_argument("--fd", type=int, required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--host", required=True)
    parser.add_argument("--spectate", action="store_true")
    args = parser.parse_args(argv)
    from dbdeck.net.door_pty import take_terminal

    if not os.isatty(0):
        print("door_seat runs on a terminal of the SSH door only", file=sys.stderr)
        return 2
    take_terminal(0)
    try:
        connection = socket.socket(fileno=args.fd)
    except OSError as exc:
        print(f"no connection to the table: {exc}", file=sys.stderr)
        return 2
    app = DoorApp(
        connection, name=args.name, fingerprint=args.key, host=args.host, spectate=args.spectate
    )
    app.run()
    with contextlib.suppress(OSError):
        sys.stdout.write(app.farewell())
        sys.stdout.flush()
    return 1 if app.failure else 0


if __name__ == "__main__":
    sys.exit(main())
