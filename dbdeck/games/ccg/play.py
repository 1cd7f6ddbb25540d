"""``dbdeck ccg play``: a two-seat CCG table in this terminal, saved after
every action.

Solo practice (one person plays both seats: the table follows whoever must
act) or hot-seat (``--hide-hands``: a hand-off screen hides both hands
before each change of player). The shipped decks, Goku and Raditz of the
Saiyan Saga rulebook's Example of Play, are the default.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from dbdeck.games.ccg.library import load_library, read_attack_table, shipped_ccg_dir
from dbdeck.games.ccg.match import CcgRules
from dbdeck.games.ccg.sparring import BOT_NAME, SparringBackend
from dbdeck.games.ccg.table.setup import CcgSetup
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


def _rules(packs: list[Path]) -> CcgRules | None:
    try:
        return CcgRules(load_library(packs))
    except CardSetError as exc:
        print(f"cannot load the CCG cards: {exc}", file=sys.stderr)
        return None


def _attack_table(rules: CcgRules, args: argparse.Namespace) -> dict[str, Any] | str | None:
    """The Physical Attack Table of a new table as setup data: the file
    ``--attack-table`` names, else a pack's (rules notes, T1); ``None``
    without one; or what is wrong, in words."""
    path = getattr(args, "attack_table", None)
    if path is None:
        table = rules.library.attack_table
        return table.to_json() if table is not None else None
    try:
        return read_attack_table(path).to_json()
    except CardSetError as exc:
        return f"cannot read the Physical Attack Table: {exc}"


def _new_setup(rules: CcgRules, args: argparse.Namespace) -> CcgSetup | str:
    """The setup the options give, checked by sitting it at a table, with
    the facts the table reads of each card recorded from the packs (rules
    notes, T10); or what is wrong, in words."""
    decks = _decks(list(args.decks))
    if isinstance(decks, str):
        return decks
    table = _attack_table(rules, args)
    if isinstance(table, str):
        return table
    names = [n.strip() for n in args.players.split(",") if n.strip()] or ["Player 1", "Player 2"]
    if len(names) != 2:
        return "give two player names: --players A,B"
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
                **({"attack_table": table} if table is not None else {}),
            }
        )
        return rules.record_facts(setup)
    except SetupProblem as exc:
        return f"cannot set up this table: {exc}"


def run_setup(args: argparse.Namespace) -> int:
    """Write a checked setup file for a shared table."""
    rules = _rules(args.pack)
    if rules is None:
        return 1
    setup = _new_setup(rules, args)
    if isinstance(setup, str):
        print(setup, file=sys.stderr)
        return 2
    text = json.dumps(rules.setup_json(setup), indent=1) + "\n"
    try:
        args.output.write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"cannot write {args.output}: {exc}", file=sys.stderr)
        return 1
    a, b = setup.players
    table = ", with a Physical Attack Table" if setup.attack_table is not None else ""
    print(
        f"Wrote {args.output}: {a} and {b}, {setup.profile}, rules {setup.adjudication}"
        f"{table}. "
        f"Host it: dbdeck host --game ccg --setup {args.output} --name NAME "
        "(--group G admits the other player)"
    )
    return 0


def run_play(args: argparse.Namespace) -> int:
    """Start (or resume) a CCG table and open it."""
    rules = _rules(args.pack)
    if rules is None:
        return 1
    folder = saves_dir(args.saves)
    if args.resume and args.attack_table is not None:
        print(
            "--attack-table is for a new table: a saved game keeps the Physical Attack "
            "Table it was set up with",
            file=sys.stderr,
        )
        return 2
    if args.resume:
        try:
            session: Session[Any] = Session.resume(rules, folder, args.resume)
        except SaveError as exc:
            print(f"cannot resume {args.resume}: {exc}", file=sys.stderr)
            return 1
    else:
        if args.bot is None and BOT_NAME in args.players:
            print(f"{BOT_NAME!r} is the sparring bot's name: --bot seats it", file=sys.stderr)
            return 2
        if args.bot is not None:
            own = [n.strip() for n in args.players.split(",") if n.strip()] or ["Player 1"]
            if len(own) > 1 or BOT_NAME in own:
                print("with --bot, give your own name only: --players NAME", file=sys.stderr)
                return 2
            seats = [own[0], BOT_NAME] if args.bot == "p2" else [BOT_NAME, own[0]]
            args.players = ",".join(seats)
        setup = _new_setup(rules, args)
        if isinstance(setup, str):
            print(setup, file=sys.stderr)
            return 2
        try:
            session = Session.start(
                rules,
                setup,
                folder,
                seating=Seating(
                    players={"p1": setup.players[0], "p2": setup.players[1]},
                    hide_hands=args.hide_hands,
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
        """Open the table (with the sparring bot at its seat, if it has one)."""
        session = self.table_session
        players = [session.seating.player(role) for role in ("p1", "p2")]
        backend: LocalBackend = (
            SparringBackend(session, players.index(BOT_NAME))
            if BOT_NAME in players
            else LocalBackend(session)
        )
        self.push_screen(self.table_screen("ccg", backend))


def open_new_game(app: Any) -> None:
    """From another game's main menu: a new CCG table with the shipped decks,
    one person at both seats (saved in the app's saves folder)."""
    rules = _rules([])
    if rules is None:
        app.notify("The CCG card data does not load: dbdeck ccg cards says why.", severity="error")
        return
    names = ("Player 1", "Player 2")
    setup = rules.read_setup(
        {
            "players": list(names),
            "decks": [
                (shipped_ccg_dir() / "decks" / n).read_text(encoding="utf-8") for n in DEFAULT_DECKS
            ],
            "seed": random.SystemRandom().randrange(2**31),
            # A pack's Physical Attack Table (DBDECK_PACKS), as `dbdeck ccg play`.
            **(
                {"attack_table": rules.library.attack_table.to_json()}
                if rules.library.attack_table is not None
                else {}
            ),
        }
    )
    try:
        setup = rules.record_facts(setup)  # the packs' facts travel with the save (T10)
    except SetupProblem as exc:
        app.notify(f"Cannot set up the table: {exc}", severity="error")
        return
    folder = getattr(app, "saves", None)
    source: Any
    if folder is None:
        source = rules.new(setup)
    else:
        try:
            source = Session.start(
                rules,
                setup,
                folder,
                seating=Seating(players={"p1": names[0], "p2": names[1]}).changed(pace=0),
            )
        except SaveError as exc:
            app.notify(f"Cannot start the game: {exc}", severity="error")
            return
        if getattr(app, "session", None) is None:
            app.session = source
    app.push_screen(app.table_screen("ccg", LocalBackend(source)))
