"""``dbdeck continue``, ``saves``, ``log`` and ``replay``, for a save of any
game: each save names its game, whose rules come from the registry
(``dbdeck.tabletop.registry``), its table screen from ``TABLE_SCREENS``, its
log words from ``Match.log`` and its replay from the shared ``ReplayBackend``.

Whatever a save file holds, these print one line naming it and exit 1
(never a traceback): the readers in ``dbdeck.saves`` are total. A save of a
game this dbdeck does not know is said to be one, and left where it is.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from dbdeck.opening import cannot_resume, play_session, save_rules
from dbdeck.saves import (
    SaveError,
    Session,
    load_save,
    replay_events,
    saves_dir,
    scan_saves,
)
from dbdeck.tabletop.game import GameRules, LogLine
from dbdeck.tabletop.registry import (
    has_table_screen,
    known,
    no_screen_words,
    title_of,
    unknown_words,
)

__all__ = ["cmd_continue", "cmd_log", "cmd_replay", "cmd_saves"]


def _locate(args: argparse.Namespace) -> tuple[Path, str]:
    """A save named by id (in the saves folder) or by its file."""
    given = Path(args.save)
    if given.suffix == ".json" and os.path.lexists(given):
        return given.parent, given.stem
    return saves_dir(args.saves), args.save


def cmd_saves(args: argparse.Namespace) -> int:
    """List the saved games of every game, most recent first, each with its
    game's title; a file that cannot be listed gets one line on stderr and
    the others are still listed."""
    folder = saves_dir(args.saves)
    saves, problems = scan_saves(folder)
    for problem in problems:
        print(f"note: {problem}", file=sys.stderr)
    if not saves:
        print(f"No saved game in {folder}.")
        return 0
    for save in saves:
        state = f"won by {save.winner}" if save.winner else f"turn {save.turn}"
        game = (
            title_of(save.game)
            if known(save.game)
            else f"{save.game}: not a game this dbdeck plays"
        )
        print(
            f"{save.id}  {save.villain} vs {', '.join(save.characters)}  {state}  "
            f"last played {save.updated}  ({game})"
        )
    return 0


def cmd_continue(args: argparse.Namespace) -> int:
    """Resume the most recently played game that has not ended, of any game
    this dbdeck plays (a save of another game is passed over, and said so)."""
    folder = saves_dir(args.saves)
    saves, problems = scan_saves(folder)
    running = [s for s in saves if not s.winner]
    playable = [s for s in running if known(s.game) and has_table_screen(s.game)]
    for save in running:
        if save is (playable[0] if playable else None):
            break
        why = (
            f"a save of {unknown_words(save.game)}"
            if not known(save.game)
            else no_screen_words(save.game)
        )
        print(f"note: {save.path}: {why}: passed over", file=sys.stderr)
    if not playable:
        said = f"No game to continue in {folder}. Start one with `dbdeck`."
        if problems:  # on the same line: say which file was not a game
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            said += f" Not listed: {problems[0]}{more}."
        print(said, file=sys.stderr)
        return 1
    latest = playable[0]
    rules = save_rules(folder, latest.id, "continue")
    if rules is None:
        return 1
    try:
        session = Session.resume(rules, folder, latest.id)
    except SaveError as exc:
        return cannot_resume(latest.id, exc)
    return play_session(
        session,
        hide_hands=args.hide_hands,
        pace=args.pace,
        bots=frozenset(b.strip() for b in args.bots.split(",") if b.strip()) if args.bots else None,
    )


def _open(args: argparse.Namespace, doing: str) -> tuple[GameRules[Any], dict[str, Any]] | None:
    """The rules of the save ``args.save``'s game and its data, or ``None``
    after saying why not."""
    folder, save_id = _locate(args)
    rules = save_rules(folder, save_id, doing)
    if rules is None:
        return None
    try:
        loaded = load_save(folder, save_id, rules=rules)
    except SaveError as exc:
        print(f"cannot read the save: {exc}", file=sys.stderr)
        return None
    if not loaded.replays:
        # The game opens from its snapshot; its record no longer replays.
        print(
            f"cannot replay the save: {folder / (save_id + '.json')}: its actions play "
            f"differently under these rules (the game itself goes on: dbdeck play --resume "
            f"{save_id})",
            file=sys.stderr,
        )
        return None
    return rules, loaded.data


def cmd_log(args: argparse.Namespace) -> int:
    """The full log of a saved game, replayed from its setup and actions, in
    the words its game gives the whole table (``Match.log``), each line with
    its turn: counted by the lines that begin one (``LogLine.starts_turn``),
    or, for a game that marks none, the turn its summary gives after the
    step that wrote the line (a turn the rules play themselves comes step
    by step)."""
    opened = _open(args, "read the log")
    if opened is None:
        return 1
    rules, data = opened
    steps: list[tuple[dict[str, Any], int, tuple[LogLine, ...]]] = [
        (action, match.summary().turn, match.log(events, None))
        for action, match, events in replay_events(rules, data, steps=True)
    ]
    marked = any(line.starts_turn for _, _, lines in steps for line in lines)
    entries: list[dict[str, Any]] = []
    turn = 0
    for action, after, lines in steps:
        written = []
        for line in lines:
            turn = turn + line.starts_turn if marked else after
            if marked and action and not turn:
                # After the setup, the first turn has begun, whether or
                # not the game marks its beginning (its setup may open it).
                turn = 1
            written.append({"type": line.kind, "text": line.text, "turn": turn})
        if entries and action and entries[-1]["action"] is action:
            # A step of a turn the rules play: part of the action that began it.
            entries[-1]["events"] += written
            entries[-1]["turn"] = after
        else:
            entries.append({"action": action or None, "turn": after, "events": written})
    if args.format == "json":
        print(
            json.dumps(
                {"id": data["id"], "game": data["game"], "setup": data["setup"], "log": entries}
            )
        )
        return 0
    seed = rules.setup_seed(rules.read_setup(data["setup"]))
    print(f"dbdeck game {data['id']} (seed {seed})")
    for entry in entries:
        for event in entry["events"]:
            when = f"turn {event['turn']:>3}" if event["turn"] else "setup   "
            print(f"[{when}] {event['text']}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Step through a saved game at the table, turn by turn, in its game's
    replay screen."""
    opened = _open(args, "replay")
    if opened is None:
        return 1
    rules, data = opened
    if not has_table_screen(rules.game_id, "replay"):
        print(f"cannot replay the save: {no_screen_words(rules.game_id)}", file=sys.stderr)
        return 1
    from dbdeck.games.deckbuilding.tui.app import DbdeckApp
    from dbdeck.tabletop.registry import table_screen
    from dbdeck.tui.local import ReplayBackend

    # The dbdeck app opens every game's screens.
    try:
        backend = ReplayBackend(rules, data, getattr(args, "seat", None))
    except ValueError as exc:
        print(f"--seat: {exc}", file=sys.stderr)
        return 2
    screen = table_screen(rules.game_id, "replay")(backend)
    DbdeckApp(None, start=screen).run()
    return 0
