"""Actions in plain words: what every front end lists, for every seat.

Labels are written by the engine, beside the rules — each action type's
label lives in its module of ``dbdeck.games.deckbuilding.engine.actions`` — so the action list,
the dialogs, the palette and a joined table all say the same thing, and none
of them needs the game to put an action into words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dbdeck.games.deckbuilding.engine.actions import Action, registry
from dbdeck.games.deckbuilding.engine.actions.base import holder_name
from dbdeck.games.deckbuilding.engine.panels import GROUPS

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

__all__ = ["GROUPS", "action_group", "action_label", "holder_name"]

_GROUP_OF = {kind: name for name, kinds in GROUPS for kind in kinds}


def action_group(action: Action) -> str:
    """The group an action is listed under."""
    return _GROUP_OF.get(action.type, "Other")


def action_label(game: Playing, action: Action) -> str:
    """One action in plain words, e.g. "Buy Sokidan (3 Energy)"."""
    return registry.label(game, action)
