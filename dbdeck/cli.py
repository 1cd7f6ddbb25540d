"""The ``dbdeck`` command line.

Sub-commands import what they need when they run, so a quick command such as
``dbdeck cards validate`` never pays for loading the Textual interface.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Sequence

from dbdeck import __version__

# Not typing's: importing typing would cost ``dbdeck --help`` a tenth of its
# start (type checkers read this idiom as typing.TYPE_CHECKING).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from dbdeck.games.deckbuilding.cards.catalog import Catalog
    from dbdeck.games.deckbuilding.engine.game import Setup
    from dbdeck.games.deckbuilding.sim import GameResult
    from dbdeck.tabletop.game import GameRules


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every sub-command. A sub-command's own options
    are added only when it is chosen (or its help asked for), so that
    ``dbdeck --help`` and each command pay only for theirs."""
    parser = argparse.ArgumentParser(
        prog="dbdeck",
        description="A terminal tabletop client for the Dragon Ball: Deckbuilding Game. "
        "Without a command, opens the main menu.",
    )
    parser.add_argument("--version", action="version", version=f"dbdeck {__version__}")
    parser.add_argument(
        "--saves",
        default=None,
        metavar="DIR",
        help="the saves folder (default: DBDECK_SAVES, else the user state folder)",
    )
    commands = parser.add_subparsers(
        dest="command", metavar="COMMAND", parser_class=_Parser, action=Commands
    )
    assert isinstance(commands, Commands)
    commands.add_command("cards", "validate, list and show the card set", _cards_options)
    commands.add_command(
        "play", "start a game at the table (skips the setup wizard)", _play_options
    )
    commands.add_command(
        "host", "serve a shared table that players join from their own terminals", _host_options
    )
    commands.add_command("join", "sit at a shared table in this terminal", _join_options)
    commands.add_command("tables", "list the shared tables on this box you may join", _nothing)
    commands.add_command("continue", "resume the most recent saved game", _with_seating)
    commands.add_command("saves", "list the saved games", _nothing)
    commands.add_command("log", "print the full log of a saved game", _log_options)
    commands.add_command("replay", "step through a saved game, turn by turn", _replay_options)
    commands.add_command("sim", "play simulated games with bots", _sim_options)
    commands.add_command("scenario", "run scenario files", _scenario_options)
    commands.add_command(  # the second game: the Dragon Ball Z CCG
        "ccg", "the Dragon Ball Z CCG: check decks, browse card identities, play", _ccg_options
    )
    return parser


_Options = Callable[[argparse.ArgumentParser], object]
"""What adds a sub-command's options to its parser."""

if TYPE_CHECKING:
    _SubCommands = argparse._SubParsersAction[argparse.ArgumentParser]
else:
    _SubCommands = argparse._SubParsersAction


class Commands(_SubCommands):
    """Sub-commands listed in the help at once, whose parsers are built only
    when one is chosen: building every option of every command costs more
    than starting Python."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._options: dict[str, _Options] = {}
        # argparse checks the chosen name against ``choices`` and lists them
        # in its error: every name, built or not.
        self.choices = self._options  # type: ignore[assignment]  # names only, by design

    def add_command(self, name: str, help: str, options: _Options) -> None:
        """List the sub-command ``name``; ``options`` adds its options when
        it is chosen."""
        self._choices_actions.append(self._ChoicesPseudoAction(name, (), help))
        self._options[name] = options

    def parser_of(self, name: str) -> argparse.ArgumentParser:
        """The parser of sub-command ``name``, built the first time."""
        built = self._name_parser_map.get(name)
        if built is None:
            built = self.add_parser(name)  # no help given: already listed
            self._options[name](built)
        return built

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        """Build the chosen sub-command's parser, then parse with it."""
        if values and values[0] in self._options:
            self.parser_of(values[0])
        super().__call__(parser, namespace, values, option_string)


def _nothing(sub: argparse.ArgumentParser) -> None:
    """A sub-command without options."""


def _cards_options(cards: argparse.ArgumentParser) -> None:
    from pathlib import Path
    from typing import get_args

    from dbdeck.games.deckbuilding.cards.kinds import CardKind

    card_commands = cards.add_subparsers(dest="cards_command", metavar="CARDS_COMMAND")
    card_commands.required = True
    _with_packs(card_commands.add_parser("validate", help="check the card set and any packs"))
    listing = _with_packs(card_commands.add_parser("list", help="list the cards"))
    listing.add_argument("--kind", choices=get_args(CardKind), help="only cards of this kind")
    listing.add_argument("--json", action="store_true", help="print a JSON array")
    show = _with_packs(card_commands.add_parser("show", help="show one card"))
    show.add_argument("card_id", metavar="ID", help="the card's id")
    schema = card_commands.add_parser("schema", help="write the JSON Schema of card files")
    schema.add_argument("-o", "--output", type=Path, help="file to write (default: stdout)")


def _play_options(play: argparse.ArgumentParser) -> None:
    _with_game(play, required=False)
    play.add_argument("--resume", default=None, metavar="ID", help="resume a saved game")
    play.add_argument(
        "--from-backup",
        action="store_true",
        help="with --resume: load the save's backup (one action older)",
    )
    play.add_argument(
        "--players",
        default=None,
        help="comma-separated player names, one per Character (a name may repeat)",
    )
    _with_seating(play)


def _host_options(host: argparse.ArgumentParser) -> None:
    from pathlib import Path

    _with_game(host, required=False)
    host.add_argument(
        "--game",
        default="deckbuilding",
        choices=_game_ids(),
        help="the game the new table plays (default: deckbuilding; a resumed table "
        "plays the game of its save)",
    )
    host.add_argument(
        "--setup",
        default=None,
        type=Path,
        metavar="FILE",
        help="a JSON file of the new table's setup, for any game (for the deckbuilding "
        "game, in place of --villain, --characters and the rest)",
    )
    host.add_argument(
        "--resume",
        default=None,
        metavar="ID",
        help="serve a saved game again (under the same name, socket, group and TCP address "
        "unless --name, --socket, --group or --tcp is given; with the same SSH door unless "
        "--ssh or --authorized-keys is)",
    )
    host.add_argument(
        "--players",
        default=None,
        help="comma-separated seat names, one per Character (a repeated name shares a seat)",
    )
    host.add_argument("--name", default=None, help="the table's name (default: the save id)")
    host.add_argument("--socket", default=None, metavar="PATH", help="the Unix socket to serve")
    host.add_argument("--group", default="", metavar="G", help="also admit the members of group G")
    host.add_argument(
        "--tcp", default=None, metavar="127.0.0.1:PORT", help="also serve loopback TCP"
    )
    host.add_argument(
        "--ssh",
        default=None,
        metavar="[ADDRESS:]PORT",
        help="also open an SSH door: players with only an SSH key join with ssh -t -p PORT "
        "(address 127.0.0.1 unless given; 0.0.0.0 for every interface); needs "
        "--authorized-keys and the ssh extra (pip install 'dbdeck[ssh]')",
    )
    host.add_argument(
        "--authorized-keys",
        default=None,
        type=Path,
        metavar="FILE",
        help="the SSH door's keys, in OpenSSH's authorized_keys format: each key's comment "
        '(or name="NAME") names its player, ssh:NAME at the table; the option watch-only '
        "lets a key only watch",
    )
    host.add_argument(
        "--decide",
        choices=("first", "vote"),
        default="first",
        help="the players' decisions: the first answer decides, or every seat votes",
    )
    host.add_argument(
        "--bot",
        choices=("greedy", "planner"),
        default="greedy",
        help="who plays the Characters given to the bot: the greedy bot, or the planner "
        "(it weighs the greedy bot's best moves by playouts; the deckbuilding game)",
    )
    host.add_argument(
        "--think",
        type=float,
        default=0.5,
        metavar="SECONDS",
        help="the planner's time per move at most (default: 0.5)",
    )


def _join_options(join: argparse.ArgumentParser) -> None:
    join.add_argument("--table", default=None, metavar="NAME", help="a table from 'dbdeck tables'")
    join.add_argument("--socket", default=None, metavar="PATH", help="the table's Unix socket")
    join.add_argument("--tcp", default=None, metavar="HOST:PORT", help="loopback TCP")
    join.add_argument(
        "--token-file",
        default=None,
        metavar="PATH",
        help="a file of yours (mode 0600) holding the table's join token (TCP; "
        "else DBDECK_JOIN_TOKEN, else typed when asked)",
    )
    # No longer a way to give the token (ps shows a command line to every
    # user): kept, hidden, so that it says so instead of being taken for an
    # abbreviation of --token-file.
    join.add_argument("--token", nargs="?", const="", default=None, help=argparse.SUPPRESS)
    # The table knows each client's user from the system (the socket's peer,
    # or the kernel's table of loopback connections): a name given is not
    # believed. Kept, hidden, so that old command lines still run.
    join.add_argument("--user", default=None, help=argparse.SUPPRESS)
    place = join.add_mutually_exclusive_group()
    place.add_argument("--seat", type=int, default=None, metavar="N", help="the seat to take")
    place.add_argument("--spectate", action="store_true", help="watch without a seat")


def _log_options(log: argparse.ArgumentParser) -> None:
    log.add_argument("save", metavar="SAVE", help="a save id or file")
    log.add_argument("--format", choices=("text", "json"), default="text")


def _replay_options(replay: argparse.ArgumentParser) -> None:
    replay.add_argument("save", metavar="SAVE", help="a save id or file")
    replay.add_argument(
        "--seat",
        type=int,
        default=None,
        metavar="N",
        help="replay what seat N saw (its own hand only); by default every hand",
    )


def _sim_options(sim: argparse.ArgumentParser) -> None:
    _with_game(sim, required=False, seed_default="0, so the same arguments print the same results")
    sim.add_argument(
        "--games", type=int, default=10, help="games to play (each run of --sweep; default: 10)"
    )
    sim.add_argument(
        "--sweep",
        action="store_true",
        help="every Villain (or those of --villain, comma-separated) × difficulty, "
        "with and without Extreme Mode: the balance table",
    )
    sim.add_argument(
        "--jobs", type=int, default=None, help="processes for --sweep (default: one per core)"
    )
    sim.add_argument(
        "--bot",
        default="greedy",
        choices=("random", "greedy", "planner"),
        help="who plays the Characters: random legal moves, the greedy bot (the coach's), "
        "or the planner (it weighs the greedy bot's best moves by playouts)",
    )
    sim.add_argument(
        "--think",
        type=float,
        default=None,
        metavar="SECONDS",
        help="the planner's time per decision at most (default: a fixed number of playouts, "
        "so the same arguments print the same results)",
    )
    sim.add_argument(
        "--starting-ally",
        default=None,
        metavar="ID",
        help="solo against a Villain of level 6+: the starting Ally "
        "(ids: dbdeck cards list --kind ally)",
    )
    sim.add_argument("--json", action="store_true", help="print one JSON object")


def _scenario_options(scenario: argparse.ArgumentParser) -> None:
    from pathlib import Path

    scenario_commands = scenario.add_subparsers(dest="scenario_command", metavar="SCENARIO_COMMAND")
    scenario_commands.required = True
    run = scenario_commands.add_parser("run", help="run scenario files and check them")
    run.add_argument("files", nargs="+", type=Path, metavar="FILE")


def _ccg_options(ccg: argparse.ArgumentParser) -> None:
    from dbdeck.games.ccg.cli import add_arguments

    add_arguments(ccg)


class _Parser(argparse.ArgumentParser):
    """A sub-command's parser; one that sets up a game ends its help with the
    ids it takes, read from the card set only when the help is shown (so
    that no other command pays for loading it)."""

    lists_ids = False
    """Whether the help lists the Villain, Character, Location, scenario and
    difficulty ids."""

    def format_help(self) -> str:
        """The help, then the ids when this command takes them."""
        text = super().format_help()
        if self.lists_ids:
            text += "\n" + ids_help() + "\n"
        return text


def ids_help(width: int = 79) -> str:
    """The ids a game's setup takes, by kind, wrapped to ``width``."""
    import textwrap

    from dbdeck.games.deckbuilding.cards.catalog import CardSetError, load_catalog
    from dbdeck.games.deckbuilding.engine.game import DIFFICULTIES, scenarios_of

    try:
        catalog = load_catalog()
    except CardSetError:
        return "The card set cannot be read, so its ids cannot be listed: dbdeck cards validate."
    scenarios = [
        f"{card} ({villain.name})"
        for villain in catalog.villains()
        for card in scenarios_of(catalog, villain.id)
    ]
    kinds = [
        ("Villains (--villain)", [v.id for v in catalog.villains()]),
        ("Characters (--characters)", [c.id for c in catalog.characters()]),
        ("Locations (--location)", ["random", *(p.id for p in catalog.locations())]),
        ("Scenario cards (--variant)", scenarios or ["none"]),
        ("Difficulties (--difficulty)", list(DIFFICULTIES)),
    ]
    lines = ["ids (dbdeck cards show ID describes one):"]
    for title, ids in kinds:
        lines.append(
            textwrap.fill(
                ", ".join(ids),
                width,
                initial_indent=f"  {title}: ",
                subsequent_indent="    ",
                break_on_hyphens=False,
                break_long_words=False,
            )
        )
    return "\n".join(lines)


def _with_packs(sub: argparse.ArgumentParser) -> argparse.ArgumentParser:
    from pathlib import Path

    sub.add_argument(
        "--pack",
        action="append",
        type=Path,
        default=[],
        metavar="DIR",
        help="a folder of extra card files (repeatable; DBDECK_PACKS adds more)",
    )
    return sub


def _with_seating(sub: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The table's hot-seat options. Each is kept with the game: on resume,
    one left out stays as the game had it."""
    hands = sub.add_mutually_exclusive_group()
    hands.add_argument(
        "--hide-hands",
        dest="hide_hands",
        action="store_true",
        default=None,
        help="hide every hand between turns, with a hand-off screen before each "
        "player's turn (kept with the game: a resumed game stays hidden)",
    )
    hands.add_argument(
        "--show-hands",
        dest="hide_hands",
        action="store_false",
        help="on resume: stop hiding hands between turns",
    )
    sub.add_argument(
        "--pace",
        type=float,
        default=None,
        help="seconds between the steps of the Villain's turn (0: at once; default 0.4, "
        "or what the resumed game had)",
    )
    sub.add_argument(
        "--bots",
        default=None,
        metavar="IDS",
        help="comma-separated Characters the planner bot plays as your teammates "
        "(not kept with the game: give them again on resume)",
    )
    return sub


def _bots(text: str | None) -> frozenset[str] | None:
    """The Characters of ``--bots``, or ``None`` when none was given."""
    return frozenset(_names(text)) if text else None


def _game_ids() -> list[str]:
    """The games a table can play."""
    from dbdeck.tabletop.registry import game_ids

    return game_ids()


def _with_game(
    sub: argparse.ArgumentParser, *, required: bool = True, seed_default: str = "random"
) -> argparse.ArgumentParser:
    """The options that describe a game's setup; the help lists their ids."""
    if isinstance(sub, _Parser):
        sub.lists_ids = True
    sub.add_argument("--villain", required=required, metavar="ID", help="the Villain to face")
    sub.add_argument(
        "--characters",
        required=required,
        metavar="IDS",
        help="comma-separated Character ids, 1 to 4, whose levels add up to at most the Villain's",
    )
    sub.add_argument(
        "--difficulty",
        default="medium",
        choices=("easy", "medium", "hard"),
        help="the Villain's Health, Armor and Damage Reduction (default: medium)",
    )
    sub.add_argument(
        "--extreme", action="store_true", help="Extreme Mode: the Villain's board's harder rules"
    )
    sub.add_argument(
        "--location", default=None, metavar="ID", help="a Location id, or 'random' (default: none)"
    )
    sub.add_argument(
        "--variant",
        default=None,
        metavar="ID",
        help="a Villain's scenario card, played with the Characters it names",
    )
    sub.add_argument(
        "--seed",
        type=int,
        default=None,
        help=f"the number every shuffle and die comes from (default: {seed_default})",
    )
    return sub


def _names(text: str | None) -> list[str]:
    return [part.strip() for part in (text or "").split(",") if part.strip()]


def _setup(args: argparse.Namespace, **extra: Any) -> Setup:
    import random

    from dbdeck.games.deckbuilding.engine.game import Setup

    seed = args.seed if args.seed is not None else random.randrange(1, 1_000_000)
    return Setup(
        characters=_names(args.characters),
        villain=args.villain,
        difficulty=args.difficulty,
        extreme=args.extreme,
        location=args.location,
        seed=seed,
        variant=args.variant,
        **extra,
    )


def _joined_app(rules: GameRules[Any] | None, **where: Any) -> Any:
    """The app of a joined table, of the game its entry names (``rules``)
    or, when only its address is known, of the game its welcome names
    (Textual is loaded only once there is a table to open)."""
    from dbdeck.games.deckbuilding.tui.remote import JoinApp

    return JoinApp(rules, **where)


def _host_rules(game: str) -> GameRules[Any] | None:
    """The rules of the game a table plays, or ``None`` after printing why
    they cannot be opened."""
    from dbdeck.opening import game_rules

    return game_rules(game, "host this game")


def _join_rules(game: str) -> GameRules[Any] | None:
    """The rules of the game a listed table plays, or ``None`` after
    printing why they cannot be opened."""
    from dbdeck.opening import game_rules

    return game_rules(game, "join this table")


DOOR_SEAT = (sys.executable, "-P", "-m", "dbdeck.games.deckbuilding.tui.door_seat")
"""The app of a session at the SSH door (``-P``: nothing of its working
folder is imported)."""

MAX_SETUP_BYTES = 1 << 20
"""The largest setup file ``--setup`` reads."""


def _setup_file(path: Path, rules: GameRules[Any]) -> Any:
    """The setup a JSON file holds, read by its game (``read_setup``);
    ``SetupProblem`` naming the file and saying what is wrong."""
    import json

    from dbdeck.tabletop.game import SetupProblem

    try:
        with path.open("rb") as file:
            raw = file.read(MAX_SETUP_BYTES + 1)
    except OSError as exc:
        raise SetupProblem(f"--setup {path}: cannot be read ({exc.strerror or exc})") from None
    if len(raw) > MAX_SETUP_BYTES:
        raise SetupProblem(f"--setup {path}: too large for a setup (over {MAX_SETUP_BYTES} bytes)")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise SetupProblem(f"--setup {path}: not UTF-8 text (at byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise SetupProblem(
            f"--setup {path}: not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
        ) from None
    except (ValueError, RecursionError):  # huge numbers, deep nesting
        raise SetupProblem(f"--setup {path}: not JSON a setup can be read from") from None
    if not isinstance(data, dict):
        raise SetupProblem(f"--setup {path}: a setup is a JSON object, of {rules.title}")
    try:
        return rules.read_setup(data)
    except SetupProblem as exc:
        raise SetupProblem(f"--setup {path}: {exc}") from None


def _host_setup(args: argparse.Namespace, rules: GameRules[Any]) -> Any:
    """The setup of a new table: from ``--setup FILE`` for any game, else
    from the deckbuilding game's own options."""
    if args.setup is not None:
        options = ("villain", "characters", "players", "location", "variant", "extreme")
        given = [f"--{o}" for o in options if getattr(args, o)]
        given += ["--seed"] if args.seed is not None else []
        if given:
            raise ValueError(f"--setup holds the whole setup: give it without {', '.join(given)}")
        return _setup_file(args.setup, rules)
    if rules.game_id != "deckbuilding":
        raise ValueError(
            f"a new table of {rules.title} is set up from a file: give --setup FILE "
            "(a JSON object of the game's setup), or --resume ID"
        )
    from dbdeck.games.deckbuilding.tui.app import seats_of

    if not args.villain or not args.characters:
        raise ValueError("give --villain and --characters, --setup FILE, or --resume ID")
    characters = _names(args.characters)
    players = _names(args.players) or [str(i) for i in range(len(characters))]
    if len(players) != len(characters):
        raise ValueError("give one seat name per Character")
    return _setup(args, seats=seats_of(players))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code = _dispatch(args)
    except KeyboardInterrupt:
        code = 130
    except BrokenPipeError:
        # The reader went away (``dbdeck cards list | head``): nothing to report.
        sys.stderr.close()
        code = 0
    _settle_output()
    return code


def _settle_output() -> None:
    """Flush standard output and error now. If the terminal or the reader is
    gone (a joined table whose terminal closed), what is left goes nowhere:
    otherwise the interpreter's own last flush fails and turns the exit code
    into 120."""
    for stream in (sys.stdout, sys.stderr):
        if stream is None or stream.closed:
            continue
        try:
            stream.flush()
        except OSError:
            with contextlib.suppress(OSError, ValueError):
                nowhere = os.open(os.devnull, os.O_WRONLY)
                os.dup2(nowhere, stream.fileno())
                os.close(nowhere)


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "cards":
        from dbdeck.games.deckbuilding.cards import commands

        if args.cards_command == "validate":
            return commands.cmd_validate(args.pack)
        if args.cards_command == "list":
            return commands.cmd_list(args.pack, args.kind, args.json)
        if args.cards_command == "show":
            return commands.cmd_show(args.pack, args.card_id)
        return commands.cmd_schema(args.output)
    if args.command == "scenario":
        return _run_scenarios(args.files)
    if args.command == "ccg":
        from dbdeck.games.ccg.cli import run

        return run(args)
    if args.command == "sim":
        return _run_sim(args)
    if args.command == "play":
        return _run_play(args)
    if args.command in ("host", "join", "tables"):
        from dbdeck.net import commands as net_commands

        if args.command == "host":
            return net_commands.cmd_host(args, _host_rules, _host_setup, DOOR_SEAT)
        if args.command == "join":
            # The game the table's entry names (or, by its address alone, the
            # one its welcome names) opens in its own screen.
            return net_commands.cmd_join(args, _join_rules, _joined_app)
        from dbdeck.opening import card_set

        return net_commands.cmd_tables(args, card_set)
    if args.command in ("continue", "saves", "log", "replay"):
        from dbdeck import collector, save_commands

        command = getattr(save_commands, f"cmd_{args.command}")
        if args.command != "continue":
            return int(command(args))
        # No collection until the table is up (its app lets go).
        with collector.held():
            return int(command(args))
    return _run_app(args)


def _run_app(args: argparse.Namespace) -> int:
    from dbdeck import collector

    # No collection until the main menu is up (its app lets go).
    with collector.held():
        return _open_menu(args)


def _open_menu(args: argparse.Namespace) -> int:
    from dbdeck.opening import card_set

    catalog = card_set()
    if catalog is None:
        return 1
    from dbdeck.games.deckbuilding.tui.app import DbdeckApp
    from dbdeck.saves import saves_dir

    DbdeckApp(catalog, saves=saves_dir(args.saves)).run()
    return 0


def _run_play(args: argparse.Namespace) -> int:
    from dbdeck import collector

    # No collection until the table is up (its app lets go).
    with collector.held():
        return _play(args)


def _play(args: argparse.Namespace) -> int:
    from dbdeck.games.deckbuilding.engine.game import SetupError
    from dbdeck.games.deckbuilding.match import DeckbuildingRules
    from dbdeck.opening import cannot_resume, card_set, play_session, save_rules
    from dbdeck.saves import SaveError, Session, saves_dir

    folder = saves_dir(args.saves)
    if args.resume:
        # A save of any game, resumed in its game's rules and screen.
        rules = save_rules(folder, args.resume, "resume")
        if rules is None:
            return 1
        try:
            session = Session.resume(rules, folder, args.resume, from_backup=args.from_backup)
        except SaveError as exc:
            return cannot_resume(args.resume, exc)
    else:
        catalog = card_set()
        if catalog is None:
            return 1
        if not args.villain or not args.characters:
            print("give --villain and --characters, or --resume ID", file=sys.stderr)
            return 2
        from dbdeck.games.deckbuilding.tui.app import seats_of
        from dbdeck.seating import Seating

        characters = _names(args.characters)
        players = _names(args.players) or [f"Player {i}" for i in range(1, len(characters) + 1)]
        if len(players) != len(characters):
            print("give one player name per Character", file=sys.stderr)
            return 2
        unknown = sorted(set(_names(args.bots)) - set(characters))
        if unknown:
            print(f"--bots: {', '.join(unknown)} not among --characters", file=sys.stderr)
            return 2
        seating = Seating(
            players=dict(zip(characters, players, strict=True)), hide_hands=bool(args.hide_hands)
        ).changed(pace=args.pace)
        try:
            session = Session.start(
                DeckbuildingRules(catalog),
                _setup(args, seats=seats_of(players)),
                folder,
                seating=seating,
            )
        except SetupError as exc:
            print(f"cannot set up this game: {_ids_hint(exc, 'play')}", file=sys.stderr)
            return 2
        except SaveError as exc:  # a full disk, an unwritable folder: no game was started
            print(f"cannot start the game: {exc}", file=sys.stderr)
            return 1
    return play_session(session, hide_hands=args.hide_hands, pace=args.pace, bots=_bots(args.bots))


def _ids_hint(problem: Exception, command: str) -> str:
    """The setup's problem; for an unknown id with no near one to suggest,
    where the ids are listed."""
    said = str(problem)
    if said.startswith("unknown ") and "did you mean" not in said:
        said += f" (dbdeck {command} --help lists the ids)"
    return said


def _run_sim(args: argparse.Namespace) -> int:
    import json

    from dbdeck.games.deckbuilding.engine.game import SetupError
    from dbdeck.games.deckbuilding.sim import bot_named, simulate, summary
    from dbdeck.opening import card_set

    catalog = card_set()
    if catalog is None:
        return 1
    if args.games < 1:
        print("--games must be at least 1", file=sys.stderr)
        return 2
    if args.jobs is not None and args.jobs < 1:
        print("--jobs must be at least 1", file=sys.stderr)
        return 2
    if args.think is not None and args.think <= 0:
        print("--think must be a number of seconds above 0", file=sys.stderr)
        return 2
    if args.seed is None:
        args.seed = 0  # the same arguments print the same results
    if args.sweep:
        return _run_sweep(args, catalog)
    if not args.villain or not args.characters:
        print("dbdeck sim needs --villain and --characters (or --sweep)", file=sys.stderr)
        return 2
    try:
        results = simulate(
            catalog,
            _setup(args, starting_ally=args.starting_ally),
            args.games,
            bot_named(args.bot, args.think),
        )
    except SetupError as exc:
        print(f"cannot set up this game: {_ids_hint(exc, 'sim')}", file=sys.stderr)
        return 2
    report = summary(results)
    if args.json:
        print(json.dumps({"games": [r.to_json() for r in results], "summary": report}))
    else:
        for r in results:
            print(
                f"seed {r.seed}: {r.winner or 'nobody'} ({r.reason}) "
                f"in {r.turns} turns, {r.actions} actions"
            )
        print(
            f"Characters won {report['players_wins']} of {report['games']} "
            f"({report['players_win_rate']:.0%}); mean {report['mean_turns']} turns."
        )
    return _bugs(results)


def _bugs(results: list[GameResult]) -> int:
    """Report the games that failed or never ended (bugs): 1 when there are any."""
    bad = [r for r in results if r.error or not r.winner]
    for r in bad:
        print(f"seed {r.seed}: {r.reason}", file=sys.stderr)
        if r.error:
            print(r.error, file=sys.stderr)
    if bad:
        from dbdeck.games.deckbuilding.engine.words import count

        print(
            f"{count(len(bad), 'game')} failed or hit the action cap: that is a bug.",
            file=sys.stderr,
        )
    return 1 if bad else 0


def _run_sweep(args: argparse.Namespace, catalog: Catalog) -> int:
    import json

    from dbdeck.games.deckbuilding.engine.game import SetupError
    from dbdeck.games.deckbuilding.sim import balance_table, sweep

    villains = _names(args.villain) or [v.id for v in catalog.villains()]
    characters = _names(args.characters) or ["goku", "krillin"]
    try:
        cells = sweep(
            catalog,
            characters,
            villains,
            args.games,
            seed=args.seed,
            bot=args.bot,
            think=args.think,
            jobs=args.jobs,
        )
    except SetupError as exc:
        print(f"cannot set up this sweep: {_ids_hint(exc, 'sim')}", file=sys.stderr)
        return 2
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "villain": c.villain,
                        "difficulty": c.difficulty,
                        "extreme": c.extreme,
                        "summary": c.report,
                    }
                    for c in cells
                ]
            )
        )
    else:
        print(balance_table(catalog, cells))
        games = sum(len(c.results) for c in cells)
        print(f"\n{games} games, {len(cells)} runs of {args.games}; seeds from {args.seed}.")
    return _bugs([r for c in cells for r in c.results])


def _run_scenarios(files: list[Path]) -> int:
    """Run every scenario named, of any registered game (``dbdeck.scenarios``)."""
    from dbdeck.scenarios import registered_runners, run_scenarios

    return run_scenarios(files, registered_runners())


if __name__ == "__main__":
    sys.exit(main())
