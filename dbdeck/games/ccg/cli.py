"""The ``dbdeck ccg`` sub-commands: check, cards, show, rules, schema, edit.

``dbdeck.cli`` builds them with ``add_arguments`` when ``ccg`` is chosen,
and hands a parsed ``ccg`` command to ``run``. Building the parser imports nothing heavy; each
command imports what it needs when it runs.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, get_args

from dbdeck.games.ccg.profiles import DEFAULT_PROFILE, ProfileName

__all__ = ["add_arguments", "run"]


def _with_packs(sub: argparse.ArgumentParser) -> argparse.ArgumentParser:
    sub.add_argument(
        "--pack",
        action="append",
        type=Path,
        default=[],
        metavar="DIR",
        help="a folder of CCG card packs, *.ccg.json (repeatable; DBDECK_PACKS adds more)",
    )
    return sub


def _with_rules(sub: argparse.ArgumentParser) -> argparse.ArgumentParser:
    sub.add_argument(
        "--rules",
        choices=get_args(ProfileName),
        default=DEFAULT_PROFILE,
        metavar="PROFILE",
        help="the rules: errata-2001 (default), saiyan-2000 or digest",
    )
    return sub


def add_arguments(ccg: argparse.ArgumentParser) -> None:
    """Add the ``ccg`` sub-commands to ``dbdeck ccg``'s parser."""
    sub = ccg.add_subparsers(dest="ccg_command", metavar="CCG_COMMAND")
    sub.required = True
    check = _with_rules(_with_packs(sub.add_parser("check", help="check deck files")))
    check.add_argument("decks", nargs="+", type=Path, metavar="DECK")
    check.add_argument("--json", action="store_true", help="print a JSON list of verdicts")
    check.add_argument(
        "--tournament",
        action="store_true",
        help="tournament play (the Saiyan Saga rulebook's 75-card maximum)",
    )
    cards = _with_packs(sub.add_parser("cards", help="list the card identities"))
    cards.add_argument("--json", action="store_true", help="print a JSON list")
    show = _with_packs(sub.add_parser("show", help="what is known of one card or personality"))
    show.add_argument("title", metavar="TITLE", help="a card's title (or a personality's name)")
    rules = sub.add_parser("rules", help="list the deck rules and their sources")
    rules.add_argument(
        "--rules",
        choices=get_args(ProfileName),
        default=None,
        metavar="PROFILE",
        help="only this profile's rules (default: every profile's)",
    )
    schema = sub.add_parser("schema", help="write the JSON Schema of CCG card packs")
    schema.add_argument("-o", "--output", type=Path, help="file to write (default: stdout)")
    schema.add_argument(
        "--attack-table",
        action="store_true",
        help="the schema of a Physical Attack Table file instead",
    )
    edit = _with_rules(_with_packs(sub.add_parser("edit", help="open a deck in the deck screen")))
    edit.add_argument("deck", nargs="?", type=Path, metavar="DECK")
    _add_play(sub)


def _add_play(sub: Any) -> None:
    """``dbdeck ccg play`` and ``dbdeck ccg setup``."""
    setup = sub.add_parser(
        "setup", help="write a table's setup file for `dbdeck host --game ccg --setup FILE`"
    )
    _table_options(setup)
    setup.add_argument(
        "-o", "--output", type=Path, required=True, metavar="FILE", help="the setup file to write"
    )
    play = sub.add_parser("play", help="play a two-seat game at this terminal")
    _table_options(play)
    play.add_argument(
        "--hide-hands", action="store_true", help="hot-seat: hide both hands between players"
    )
    play.add_argument(
        "--saves",
        type=Path,
        default=None,
        metavar="DIR",
        help="where games are saved (default: the user's data folder)",
    )
    play.add_argument("--resume", default=None, metavar="ID", help="resume a saved CCG game")
    play.add_argument(
        "--bot",
        nargs="?",
        const="p2",
        choices=("p1", "p2"),
        default=None,
        help="the sparring bot plays a seat (p2 unless p1 is given)",
    )


def _table_options(play: Any) -> None:
    """The options of a new table."""
    play.add_argument(
        "decks",
        nargs="*",
        type=Path,
        metavar="DECK",
        help="two deck files (default: the shipped Goku and Raditz decks)",
    )
    play.add_argument(
        "--players",
        default="",
        metavar="A,B",
        help="the two players' names (default: Player 1,Player 2); for a shared table, "
        "the login names of the two players who take the seats",
    )
    play.add_argument(
        "--rules",
        choices=("errata-2001", "saiyan-2000", "digest"),
        default="errata-2001",
        metavar="PROFILE",
        help="the rules: errata-2001 (default), saiyan-2000 or digest",
    )
    play.add_argument(
        "--adjudication",
        choices=("apply", "suggest", "off"),
        default="apply",
        help="apply the rules (default), only suggest them, or only keep the turn",
    )
    play.add_argument("--seed", type=int, default=None, help="the seed of the table's chance")
    play.add_argument(
        "--allow-illegal",
        action="store_true",
        help="seat a deck the checker finds illegal (a casual game)",
    )
    play.add_argument(
        "--pack",
        action="append",
        type=Path,
        default=[],
        metavar="DIR",
        help="a folder of CCG card packs (repeatable); its physical-attack-table.ccg.json "
        "is the table's Physical Attack Table",
    )
    play.add_argument(
        "--attack-table",
        type=Path,
        default=None,
        metavar="FILE",
        help="your Physical Attack Table (a physical-attack-table.ccg.json file; "
        "`dbdeck ccg schema --attack-table` describes it)",
    )


def run(args: argparse.Namespace) -> int:
    """Run a parsed ``dbdeck ccg`` command; returns the exit code."""
    from dbdeck.games.ccg import commands

    command = args.ccg_command
    if command == "check":
        return commands.cmd_check(args.decks, args.rules, args.pack, args.json, args.tournament)
    if command == "cards":
        return commands.cmd_cards(args.pack, args.json)
    if command == "show":
        return commands.cmd_show(args.pack, args.title)
    if command == "rules":
        return commands.cmd_rules(args.rules)
    if command == "setup":
        from dbdeck.games.ccg.play import run_setup

        return run_setup(args)
    if command == "play":
        from dbdeck.games.ccg.play import run_play

        return run_play(args)
    if command == "schema":
        return commands.cmd_schema(args.output, attack_table=args.attack_table)
    return commands.cmd_edit(args.deck, args.rules, args.pack)
