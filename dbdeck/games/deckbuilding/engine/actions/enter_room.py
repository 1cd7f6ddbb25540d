"""Go into the Room of Spirit and Time ("Using the Room of Spirit and Time":
"If a Character decides to go to 'the Room of Spirit and Time,' they skip
the Actions Phase that turn"; rules note N32)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from dbdeck.games.deckbuilding.engine.actions import Action, EnterRoom
from dbdeck.games.deckbuilding.engine.holders import CharacterRef
from dbdeck.games.deckbuilding.engine.state import CharacterState, Unit

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

TYPE = "enter-room"
ACTS = True


def candidates(g: Playing, ch: CharacterState) -> Iterator[Action]:
    """The one way in, before acting and with the Room in play (``check``
    refuses it else)."""
    if not ch.acted and ch.training and _room(g, ch) is not None:
        yield EnterRoom()


def _room(g: Playing, ch: CharacterState) -> Unit | None:
    return next(
        (
            u
            for u in ch.training
            if getattr(g.card(u.uid), "rule", None) == "room-of-spirit-and-time"
        ),
        None,
    )


def check(g: Playing, ch: CharacterState, a: EnterRoom) -> str | None:
    """Before acting, with the Room in play."""
    if ch.acted:
        return "the Room is entered instead of the Actions phase"
    if _room(g, ch) is None:
        return "you need the Room of Spirit and Time in play"
    return None


def perform(g: Playing, ch: CharacterState, a: EnterRoom) -> None:
    """Take the Room's token; the turn goes on to its end."""
    room = _room(g, ch)
    assert room is not None
    ch.room_tokens = 1
    ch.room_card = room.uid
    g.log("room", "{} enters the Room of Spirit and Time.", CharacterRef(ch.id))
    g.state.step = "char_end"


def label(game: Playing, action: EnterRoom) -> str:
    """The action in plain words."""
    return "Enter the Room of Spirit and Time (skip the Actions phase)"
