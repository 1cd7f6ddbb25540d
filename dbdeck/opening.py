"""Opening a game for the command line: the card set, a table on a saved
session, and what to say when a save cannot be resumed. Both the play
commands and the save commands use these, so they live below both."""

from __future__ import annotations

import gc
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.cards.catalog import Catalog
    from dbdeck.games.deckbuilding.match import DeckbuildingMatch
    from dbdeck.saves import Session

__all__ = ["cannot_resume", "card_set", "play_session"]


def card_set() -> Catalog | None:
    """The card set, or ``None`` after printing its problems."""
    from dbdeck.games.deckbuilding.cards.catalog import CardSetError, load_catalog

    try:
        catalog = load_catalog()
    except CardSetError as err:
        for problem in err.problems:
            print(problem, file=sys.stderr)
        return None
    # The card set lives as long as the process and never becomes garbage:
    # frozen out of the collector's sight, the many small collections of play
    # no longer walk it (a greedy game runs about a quarter faster).
    gc.freeze()
    return catalog


def cannot_resume(save_id: str, exc: Exception) -> int:
    """Say on one line why the save cannot be resumed (and how to load its
    backup, if there is one); the exit code of a save that cannot be used."""
    said = f"cannot resume: {exc}"
    if getattr(exc, "backup", None) is not None:
        said += f"; a backup exists: dbdeck play --resume {save_id} --from-backup"
    print(said, file=sys.stderr)
    return 1


def play_session(
    session: Session[DeckbuildingMatch],
    *,
    hide_hands: bool | None = None,
    pace: float | None = None,
) -> int:
    """Open the table on a saved session; the game is saved after every
    action. The table is run as the game was (its players, hidden hands,
    pace); ``hide_hands`` or ``pace`` change that, and the save keeps it."""
    from dbdeck.games.deckbuilding.tui.app import DbdeckApp
    from dbdeck.saves import SaveFailed

    seating = session.seating.changed(hide_hands=hide_hands, pace=pace)
    if seating != session.seating:
        try:
            session.reseat(seating)
        except SaveFailed as exc:  # the table opens as it was saved
            print(f"the table's settings were not changed: {exc}", file=sys.stderr)
            session.close()
            return 1
    try:
        DbdeckApp(
            session.match.game.catalog,
            session=session,
            seating=session.seating,
            saves=session.folder,
        ).run()
    finally:
        session.close()
    # True even after a failed write: an action counts only once it is saved.
    print(f"Every action played is saved: dbdeck play --resume {session.id}", end="")
    print(" (its players and hidden hands come back with it)" if session.seating.hide_hands else "")
    return 0
