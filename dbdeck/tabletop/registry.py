"""The games dbdeck can play, by id.

The shared layers find a game here by the id a save, a table entry or the
command line names, and never import one: each game is listed in
``dbdeck.games`` (``GAMES``: id → the module and function that open its
rules on the card content), imported only when first asked for.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dbdeck.tabletop.game import GameRules

__all__ = [
    "DEFAULT_GAME",
    "MenuScreen",
    "UnknownGame",
    "game_ids",
    "menu_screens",
    "open_rules",
    "register",
    "table_screen",
]

DEFAULT_GAME = "deckbuilding"
"""The game a save, a table or a command that names none is of (all of them
did before there were two)."""

_GAMES_PACKAGE = "dbdeck.games"

Opener = Callable[[Sequence[Path]], GameRules[Any]]
"""Opens a game's rules on its card content: the shipped set and these packs."""

_registered: dict[str, Opener] = {}


class UnknownGame(ValueError):
    """A game id no registered game has."""


def register(game_id: str, opener: Opener) -> None:
    """Make a game playable under ``game_id`` (a test's own game, say)."""
    _registered[game_id] = opener


def _listed() -> dict[str, str]:
    listed: dict[str, str] = importlib.import_module(_GAMES_PACKAGE).GAMES
    return listed


def game_ids() -> list[str]:
    """Every game id, listed ones first."""
    return [*_listed(), *(g for g in _registered if g not in _listed())]


def _opener(game_id: str) -> Opener:
    if game_id in _registered:
        return _registered[game_id]
    where = _listed().get(game_id)
    if where is None:
        known = ", ".join(game_ids())
        raise UnknownGame(f"no game {game_id!r} (known games: {known})")
    module, _, name = where.partition(":")
    opener: Opener = getattr(importlib.import_module(module), name)
    return opener


def open_rules(game_id: str, packs: Sequence[Path] = ()) -> GameRules[Any]:
    """The rules of ``game_id`` on the shipped cards and ``packs``; raises
    ``UnknownGame``, or the game's own error when its cards do not load."""
    return _opener(game_id)(packs)


@dataclass(frozen=True, slots=True)
class MenuScreen:
    """A screen a game offers in the main menu of the app."""

    game: str
    """The game it belongs to."""
    id: str
    """The menu entry's id."""
    label: str
    """The menu entry's words."""
    where: str
    """The module and function that open it on an app (``module:function``)."""

    def open(self, app: Any) -> None:
        """Open the screen on ``app`` (its game is imported only now)."""
        module, _, name = self.where.partition(":")
        getattr(importlib.import_module(module), name)(app)


def table_screen(game_id: str) -> Any:
    """The table screen class of ``game_id`` (``TABLE_SCREENS``: made on a
    backend of that game); ``UnknownGame`` when the game has none."""
    listed: dict[str, str] = importlib.import_module(_GAMES_PACKAGE).TABLE_SCREENS
    where = listed.get(game_id)
    if where is None:
        raise UnknownGame(f"no table screen for the game {game_id!r}")
    module, _, name = where.partition(":")
    return getattr(importlib.import_module(module), name)


def menu_screens(*, besides: str = "") -> list[MenuScreen]:
    """The screens the games offer in the main menu (those of the game
    ``besides`` left out: an app lists its own game's screens itself)."""
    listed: dict[str, list[tuple[str, str, str]]] = importlib.import_module(_GAMES_PACKAGE).SCREENS
    return [
        MenuScreen(game, entry, label, where)
        for game, entries in listed.items()
        if game != besides
        for entry, label, where in entries
    ]
