"""``dbdeck continue``, ``saves``, ``log`` and ``replay``.

Whatever a save file holds, these print one line naming it and exit 1
(never a traceback): the readers in ``dbdeck.saves`` are total.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from dbdeck.games.deckbuilding.match import DeckbuildingRules, replay_games
from dbdeck.opening import cannot_resume, card_set, play_session
from dbdeck.saves import (
    SaveError,
    Session,
    load_save,
    saves_dir,
    scan_saves,
)

__all__ = ["cmd_continue", "cmd_log", "cmd_replay", "cmd_saves"]


def _locate(args: argparse.Namespace) -> tuple[Path, str]:
    """A save named by id (in the saves folder) or by its file."""
    given = Path(args.save)
    if given.suffix == ".json" and os.path.lexists(given):
        return given.parent, given.stem
    return saves_dir(args.saves), args.save


def cmd_saves(args: argparse.Namespace) -> int:
    """List the saved games, most recent first; a file that cannot be listed
    gets one line on stderr and the others are still listed."""
    folder = saves_dir(args.saves)
    saves, problems = scan_saves(folder)
    for problem in problems:
        print(f"note: {problem}", file=sys.stderr)
    if not saves:
        print(f"No saved game in {folder}.")
        return 0
    for save in saves:
        state = f"won by {save.winner}" if save.winner else f"turn {save.turn}"
        print(
            f"{save.id}  {save.villain} vs {', '.join(save.characters)}  {state}  "
            f"last played {save.updated}"
        )
    return 0


def cmd_continue(args: argparse.Namespace) -> int:
    """Resume the most recently played game that has not ended."""
    folder = saves_dir(args.saves)
    saves, problems = scan_saves(folder)
    running = [s for s in saves if not s.winner]
    if not running:
        said = f"No game to continue in {folder}. Start one with `dbdeck`."
        if problems:  # on the same line: say which file was not a game
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            said += f" Not listed: {problems[0]}{more}."
        print(said, file=sys.stderr)
        return 1
    catalog = card_set()
    if catalog is None:
        return 1
    try:
        session = Session.resume(DeckbuildingRules(catalog), folder, running[0].id)
    except SaveError as exc:
        return cannot_resume(running[0].id, exc)
    return play_session(session, hide_hands=args.hide_hands, pace=args.pace)


def _open(args: argparse.Namespace) -> tuple[Any, dict[str, Any]] | None:
    """The card set and the data of the save ``args.save``, or ``None`` after
    saying why not."""
    folder, save_id = _locate(args)
    catalog = card_set()
    if catalog is None:
        return None
    try:
        loaded = load_save(folder, save_id, rules=DeckbuildingRules(catalog))
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
    return catalog, loaded.data


def cmd_log(args: argparse.Namespace) -> int:
    """The full log of a saved game, replayed from its setup and actions."""
    opened = _open(args)
    if opened is None:
        return 1
    catalog, data = opened
    from dbdeck.games.deckbuilding.engine.events import starts_turn

    entries: list[dict[str, Any]] = []
    turn = 0
    for action, game, events in replay_games(catalog, data):
        written = []
        for event in events:
            if starts_turn(event):
                turn += 1
            written.append({**event.to_json(), "turn": turn})
        entries.append({"action": action or None, "turn": game.state.turn, "events": written})
    if args.format == "json":
        print(json.dumps({"id": data["id"], "setup": data["setup"], "log": entries}))
        return 0
    print(f"dbdeck game {data['id']} (seed {data['setup']['seed']})")
    for entry in entries:
        for event in entry["events"]:
            when = f"turn {event['turn']:>3}" if event["turn"] else "setup   "
            print(f"[{when}] {event['text']}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Step through a saved game at the table, turn by turn."""
    opened = _open(args)
    if opened is None:
        return 1
    catalog, data = opened
    from dbdeck.games.deckbuilding.tui.app import DbdeckApp
    from dbdeck.games.deckbuilding.tui.replay import ReplayScreen
    from dbdeck.tui.local import ReplayBackend

    DbdeckApp(catalog, start=ReplayScreen(ReplayBackend(DeckbuildingRules(catalog), data))).run()
    return 0
