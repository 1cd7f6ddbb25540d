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
from typing import Any, Literal

from dbdeck.tabletop.game import GameRules

__all__ = [
    "DEFAULT_GAME",
    "MenuScreen",
    "ScreenKind",
    "UnknownGame",
    "forget",
    "game_ids",
    "has_table_screen",
    "known",
    "menu_screens",
    "no_screen_words",
    "open_rules",
    "register",
    "table_screen",
    "title_of",
    "unknown_words",
]

DEFAULT_GAME = "deckbuilding"
"""The game a save, a table or a command that names none is of (all of them
did before there were two)."""

_GAMES_PACKAGE = "dbdeck.games"

Opener = Callable[[Sequence[Path]], GameRules[Any]]
"""Opens a game's rules on its card content: the shipped set and these packs."""

_registered: dict[str, Opener] = {}

_titles: dict[str, str] = {}
"""Each game's title once its rules were opened for it (a list of saves
names the game of every row: its rules are opened once per process)."""


class UnknownGame(ValueError):
    """A game id no registered game has."""


def register(game_id: str, opener: Opener) -> None:
    """Make a game playable under ``game_id`` (a test's own game, say)."""
    _registered[game_id] = opener
    _titles.pop(game_id, None)


def forget() -> None:
    """Forget the games registered and the titles learnt (a test that
    changes ``dbdeck.games`` starts from what it lists)."""
    _registered.clear()
    _titles.clear()


def _listed() -> dict[str, str]:
    listed: dict[str, str] = importlib.import_module(_GAMES_PACKAGE).GAMES
    return listed


def game_ids() -> list[str]:
    """Every game id, listed ones first."""
    return [*_listed(), *(g for g in _registered if g not in _listed())]


def known(game_id: str) -> bool:
    """Whether this dbdeck plays the game ``game_id`` (a save or a table of
    another game is refused in words, never taken for a broken one)."""
    return game_id in game_ids()


def no_screen_words(game_id: str) -> str:
    """A game without a table screen here, in words."""
    return f"this dbdeck has no table screen for the game {game_id!r} yet"


def unknown_words(game_id: str) -> str:
    """A game this dbdeck does not know, in words that say what to do."""
    return (
        f"the game {game_id!r}, which this dbdeck does not know (it plays "
        f"{', '.join(game_ids())}; a newer dbdeck may play it)"
    )


def _opener(game_id: str) -> Opener:
    if game_id in _registered:
        return _registered[game_id]
    where = _listed().get(game_id)
    if where is None:
        known_ids = ", ".join(game_ids())
        raise UnknownGame(f"no game {game_id!r} (known games: {known_ids})")
    module, _, name = where.partition(":")
    opener: Opener = getattr(importlib.import_module(module), name)
    return opener


def open_rules(game_id: str, packs: Sequence[Path] = ()) -> GameRules[Any]:
    """The rules of ``game_id`` on the shipped cards and ``packs``; raises
    ``UnknownGame``, or the game's own error when its cards do not load."""
    rules = _opener(game_id)(packs)
    _titles[game_id] = rules.title
    return rules


def title_of(game_id: str) -> str:
    """The title of the game ``game_id``, for people; its id when this
    dbdeck does not know it or its content cannot be opened."""
    if game_id not in _titles:
        if not known(game_id):
            return game_id
        try:
            open_rules(game_id)
        except Exception:  # a list of saves is drawn whatever a game's content holds
            return game_id
    return _titles.get(game_id, game_id)


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


ScreenKind = Literal["table", "shared", "replay"]
"""Which table a screen draws: a game on this machine (``table``), a seat
at a shared table (``shared``), or a saved game stepped through (``replay``)."""

_SCREEN_LISTS: dict[str, str] = {
    "table": "TABLE_SCREENS",
    "shared": "SHARED_TABLE_SCREENS",
    "replay": "REPLAY_SCREENS",
}


def _screen_entry(game_id: str, kind: ScreenKind) -> str | None:
    """Where the screen of ``kind`` of a game is (``module:name``), if any."""
    package = importlib.import_module(_GAMES_PACKAGE)
    where: str | None = None
    if kind != "table":
        special: dict[str, str] = getattr(package, _SCREEN_LISTS[kind], {})
        where = special.get(game_id)
    if where is None:
        listed: dict[str, str] = package.TABLE_SCREENS
        where = listed.get(game_id)
    return where


def has_table_screen(game_id: str, kind: ScreenKind = "table") -> bool:
    """Whether the game ``game_id`` has a screen of ``kind`` (a game may be
    played on its rules, by the server or its own command, before its
    screen is listed)."""
    return _screen_entry(game_id, kind) is not None


def table_screen(game_id: str, kind: ScreenKind = "table") -> Any:
    """The table screen class of ``game_id`` (made on a backend of that
    game): ``TABLE_SCREENS``, or for a shared table or a replay the game's
    entry in ``SHARED_TABLE_SCREENS`` or ``REPLAY_SCREENS`` when it has one
    (else its table screen draws those backends too). ``UnknownGame`` when
    the game has none."""
    where = _screen_entry(game_id, kind)
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
