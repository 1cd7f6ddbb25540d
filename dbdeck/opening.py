"""Opening a game for the command line: a game's rules by its id or by its
save's, the deckbuilding card set, a table on a saved session, and what to
say when a save cannot be resumed. Both the play commands and the save
commands use these, so they live below both."""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.cards.catalog import Catalog
    from dbdeck.saves import Session
    from dbdeck.tabletop.game import GameRules

__all__ = ["cannot_resume", "card_set", "game_rules", "play_session", "save_rules"]


def card_set() -> Catalog | None:
    """The card set, or ``None`` after printing its problems."""
    from dbdeck.games.deckbuilding.cards.catalog import CardSetError, load_catalog

    try:
        catalog = load_catalog()
    except CardSetError as err:
        for problem in err.problems:
            print(problem, file=sys.stderr)
        return None
    _keep_for_good()
    return catalog


def _keep_for_good() -> None:
    # The card content lives as long as the process and never becomes
    # garbage: frozen out of the collector's sight, the many small
    # collections of play no longer walk it (a greedy game runs about a
    # quarter faster).
    gc.freeze()


def game_rules(game_id: str, doing: str = "open this game") -> GameRules[Any] | None:
    """The rules of the game ``game_id`` on its content (the shipped cards
    and ``DBDECK_PACKS``), or ``None`` after printing why not: a game this
    dbdeck does not know (``cannot DOING: …``), or content that does not
    load (each of its problems on a line)."""
    from dbdeck.packs.reading import CardSetError
    from dbdeck.tabletop.registry import known, open_rules, unknown_words

    if not known(game_id):
        print(f"cannot {doing}: {unknown_words(game_id)}", file=sys.stderr)
        return None
    try:
        rules = open_rules(game_id)
    except CardSetError as err:
        for problem in err.problems:
            print(problem, file=sys.stderr)
        return None
    except (ValueError, OSError) as exc:  # the game's own word for content it cannot load
        print(f"cannot {doing}: {exc}", file=sys.stderr)
        return None
    _keep_for_good()
    return rules


def save_rules(folder: Path, save_id: str, doing: str) -> GameRules[Any] | None:
    """The rules of the game the save ``save_id`` is of, or ``None`` after
    printing why not. A save of a game this dbdeck does not know is left
    where it is (it is no broken save, only another dbdeck's), and said so."""
    from dbdeck.saves import save_game_file
    from dbdeck.tabletop.registry import known, unknown_words

    game, path = save_game_file(folder, save_id)
    if not known(game):
        print(
            f"cannot {doing}: {path or folder / (save_id + '.json')} is a save of "
            f"{unknown_words(game)}; it is left as it is",
            file=sys.stderr,
        )
        return None
    return game_rules(game, doing)


def cannot_resume(save_id: str, exc: Exception) -> int:
    """Say on one line why the save cannot be resumed (and how to load its
    backup, if there is one); the exit code of a save that cannot be used."""
    said = f"cannot resume: {exc}"
    if getattr(exc, "backup", None) is not None:
        said += f"; a backup exists: dbdeck play --resume {save_id} --from-backup"
    print(said, file=sys.stderr)
    return 1


def play_session(
    session: Session[Any],
    *,
    hide_hands: bool | None = None,
    pace: float | None = None,
    bots: frozenset[str] | None = None,
) -> int:
    """Open the table of a saved session, of any game, in its game's table
    screen; the game is saved after every action. The table is run as the
    game was (its players, hidden hands, pace); ``hide_hands`` or ``pace``
    change that, and the save keeps it; ``bots``: the Characters the bot
    plays (not saved)."""
    from dbdeck.games.deckbuilding.tui.app import DbdeckApp
    from dbdeck.saves import SaveFailed
    from dbdeck.tabletop.registry import has_table_screen, no_screen_words

    if not has_table_screen(session.rules.game_id):
        print(f"cannot open the table: {no_screen_words(session.rules.game_id)}", file=sys.stderr)
        session.close()
        return 1
    roles = {role.id for role in session.match.roles()}
    if bots and not bots <= roles:
        unknown = ", ".join(sorted(bots - roles))
        print(
            f"--bots: {unknown} not at this table (its roles: {', '.join(sorted(roles))})",
            file=sys.stderr,
        )
        session.close()
        return 2
    seating = session.seating.changed(hide_hands=hide_hands, pace=pace, bots=bots)
    if seating != session.seating:
        try:
            session.reseat(seating)
        except SaveFailed as exc:  # the table opens as it was saved
            print(f"the table's settings were not changed: {exc}", file=sys.stderr)
            session.close()
            return 1
    try:
        # The dbdeck app opens every game's table (its main menu is the
        # first game's, and lists the others' screens).
        DbdeckApp(None, session=session, seating=session.seating, saves=session.folder).run()
    finally:
        session.close()
    # True even after a failed write: an action counts only once it is saved.
    print(f"Every action played is saved: dbdeck play --resume {session.id}", end="")
    print(" (its players and hidden hands come back with it)" if session.seating.hide_hands else "")
    return 0
