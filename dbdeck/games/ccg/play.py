"""``dbdeck ccg play``: a two-seat CCG table in this terminal, saved after
every action.

Solo practice (one person plays both seats: the table follows whoever must
act) or hot-seat (``--hide-hands``: a hand-off screen hides both hands
before each change of player). The shipped decks, Goku and Raditz of the
Saiyan Saga rulebook's Example of Play, are the default.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

from dbdeck.games.ccg.library import load_library, shipped_ccg_dir
from dbdeck.games.ccg.match import CcgRules
from dbdeck.packs.reading import CardSetError
from dbdeck.saves import SaveError, Session, saves_dir
from dbdeck.seating import Seating
from dbdeck.tabletop.game import SetupProblem
from dbdeck.tui.local import LocalBackend
from dbdeck.tui.shell import TableApp

__all__ = ["CcgApp", "run_play"]

DEFAULT_DECKS = ("goku.txt", "raditz.txt")
"""The shipped decks a table sits down with when none are given."""


def _decks(paths: list[Path]) -> list[str] | str:
    """The two deck texts, or what is wrong in words."""
    if not paths:
        paths = [shipped_ccg_dir() / "decks" / name for name in DEFAULT_DECKS]
    if len(paths) != 2:
        return "give two deck files (or none, for the shipped Goku and Raditz decks)"
    texts = []
    for path in paths:
        try:
            if path.stat().st_size > 256 * 1024:
                return f"{path}: a deck file is at most 256 KB"
            texts.append(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            return f"{path}: cannot read the deck: {exc}"
    return texts


def run_play(args: argparse.Namespace) -> int:
    """Start (or resume) a CCG table and open it."""
    try:
        rules = CcgRules(load_library(args.pack))
    except CardSetError as exc:
        print(f"cannot load the CCG cards: {exc}", file=sys.stderr)
        return 1
    folder = saves_dir(args.saves)
    if args.resume:
        try:
            session: Session[Any] = Session.resume(rules, folder, args.resume)
        except SaveError as exc:
            print(f"cannot resume {args.resume}: {exc}", file=sys.stderr)
            return 1
    else:
        decks = _decks(list(args.decks))
        if isinstance(decks, str):
            print(decks, file=sys.stderr)
            return 2
        names = [n.strip() for n in args.players.split(",") if n.strip()] or [
            "Player 1",
            "Player 2",
        ]
        if len(names) != 2:
            print("give two player names: --players A,B", file=sys.stderr)
            return 2
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
        try:
            setup = rules.read_setup(
                {
                    "players": names,
                    "decks": decks,
                    "profile": args.rules,
                    "adjudication": args.adjudication,
                    "seed": seed,
                    "allow_illegal": args.allow_illegal,
                }
            )
            session = Session.start(
                rules,
                setup,
                folder,
                seating=Seating(
                    players={"p1": names[0], "p2": names[1]}, hide_hands=args.hide_hands
                ).changed(pace=0),
            )
        except SetupProblem as exc:
            print(f"cannot set up this table: {exc}", file=sys.stderr)
            return 2
        except SaveError as exc:
            print(f"cannot start the game: {exc}", file=sys.stderr)
            return 1
    try:
        CcgApp(session).run()
    finally:
        session.close()
    print(f"Every action played is saved: dbdeck ccg play --resume {session.id}")
    return 0


class CcgApp(TableApp):
    """The CCG table at this terminal, on a saved session."""

    TITLE = "dbdeck · Dragon Ball Z CCG"

    def __init__(self, session: Session[Any]) -> None:
        super().__init__(session=session, saves=session.folder)
        self.table_session = session

    def on_mount(self) -> None:
        """Open the table."""
        self.push_screen(self.table_screen("ccg", LocalBackend(self.table_session)))
