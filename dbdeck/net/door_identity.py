"""Who came through the SSH door: the table's identities of its players.

A player at the door is ``ssh:NAME``, named by the key they logged in
with. OS user names never hold a ``:`` (it separates the fields of
``/etc/passwd``), and a uid with no name is all digits, so ``ssh:NAME`` and
an OS user can never be one another.

The door does not tell the server a name: it hands the server a connection
(a ``StreamWriter`` of its own making, over a socket pair nobody else can
reach) and the server asks, through its ``identify`` hook, who is there.
``DoorIdentities.identify`` knows the door's connections by the very
objects, held while they are open, so no other connection can pass for
one (a file descriptor number, freed and taken again, could); every other
connection is whoever the fallback (``peer_user``: the kernel) says it is,
and a name of the door's namespace from there is refused.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["SSH_PREFIX", "DoorIdentities", "DoorPlayer", "is_door_user"]

SSH_PREFIX = "ssh:"
"""The namespace of the door's players at the table."""


def is_door_user(user: str) -> bool:
    """Whether ``user`` is a player of the SSH door (``ssh:NAME``)."""
    return user.startswith(SSH_PREFIX)


@dataclass(frozen=True)
class DoorPlayer:
    """A player logged in at the door, by the key they hold."""

    name: str
    """The player's name, from the keys file."""
    fingerprint: str
    """Their key's SHA256 fingerprint."""
    watch_only: bool = False
    """Whether the key may only watch."""

    @property
    def user(self) -> str:
        """Their identity at the table: ``ssh:NAME``."""
        return SSH_PREFIX + self.name


class DoorIdentities:
    """The door's connections to the table and who each one is: the
    server's ``identify``, ``admits`` and ``may_sit`` hooks."""

    def __init__(
        self,
        fallback: Callable[[asyncio.StreamWriter], str | None],
        admits_others: Callable[[str], bool],
    ) -> None:
        """``fallback``: who any other connection is (``peer_user``);
        ``admits_others``: whether an OS user may sit at the table."""
        self.fallback = fallback
        self.admits_others = admits_others
        self._players: dict[asyncio.StreamWriter, DoorPlayer] = {}

    def enter(self, writer: asyncio.StreamWriter, player: DoorPlayer) -> None:
        """A connection the door made for ``player``'s session."""
        self._players[writer] = player

    def leave(self, writer: asyncio.StreamWriter) -> None:
        """The connection is over (the server is done with it)."""
        self._players.pop(writer, None)

    def player(self, writer: asyncio.StreamWriter) -> DoorPlayer | None:
        """The door's player of a connection, if the door made it."""
        return self._players.get(writer)

    def identify(self, writer: asyncio.StreamWriter) -> str | None:
        """Who is at the other end of a connection of the table: a door
        player, else whoever the fallback says (never ``ssh:…`` from there)."""
        player = self._players.get(writer)
        if player is not None:
            return player.user
        user = self.fallback(writer)
        if user is not None and is_door_user(user):
            return None
        return user

    def admits(self, user: str) -> bool:
        """Whether ``user`` may be at the table: a door player while the door
        holds their connection, an OS user by the table's own rule."""
        if is_door_user(user):
            return any(p.user == user for p in self._players.values())
        return self.admits_others(user)

    def may_sit(self, user: str) -> bool:
        """Whether ``user`` may take a seat: not a watch-only key's player."""
        return not any(p.user == user and p.watch_only for p in self._players.values())
