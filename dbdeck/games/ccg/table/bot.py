"""The sparring bot: a partner for solo practice that follows the turn and
makes plain attacks. It cannot read card texts, so it never defends with a
card (it cannot know which card stops what). Its physical attacks deal what
the table's Physical Attack Table gives, or two stages when the table has
none to read (rules notes, T1)."""

from __future__ import annotations

import random

from dbdeck.games.ccg.table import actions as a
from dbdeck.games.ccg.table import rules
from dbdeck.games.ccg.table.state import TableState

__all__ = ["sparring_move"]

_PLAYS = ("personality", "dragon-ball", "drill")
"""The cards it places in play: Allies, Dragon Balls and Drills."""


def sparring_move(state: TableState, rng: random.Random) -> a.Action:
    """The bot's move now (a legal action of the seat asked)."""
    seat = rules.asked(state)
    if seat is None:
        raise ValueError("the game is over: nobody moves")
    legal = [act for act, _, group in rules.offers(state, seat) if group != "manual"]
    if not legal:
        legal = [act for act, _, _ in rules.offers(state, seat)]
    side = state.side(seat)
    combat = state.combat

    def first(kind: type[a.Action], **fields: object) -> a.Action | None:
        for act in legal:
            if isinstance(act, kind) and all(getattr(act, k) == v for k, v in fields.items()):
                return act
        return None

    choice: a.Action | None = None
    if state.step == "non-combat":
        for act in legal:
            if (
                isinstance(act, a.PlayCard)
                and act.over is None
                and state.cards[act.card].type in _PLAYS
            ):
                choice = act
                break
        choice = choice or first(a.EndNonCombat)
    elif state.step == "power-up":
        ups = [x for x in legal if isinstance(x, a.PowerUp) and x.personality is None]
        choice = max(ups, key=lambda x: x.stages) if ups else None
    elif state.step == "combat?":
        choice = first(a.DeclareCombat) if side.stages >= 2 else first(a.SkipCombat)
        choice = choice or first(a.SkipCombat)
    elif combat is not None and combat.phase == "attack":
        if side.stages >= 4:
            choice = first(a.Attack, attack="energy", source=None)
        if choice is None and side.hand and rng.random() < 0.7:
            physical = [
                x
                for x in legal
                if isinstance(x, a.Attack) and x.attack == "physical" and x.source in side.hand
            ]
            read = [x for x in physical if x.stages is None]
            physical = read or [x for x in physical if x.stages == 2]
            choice = rng.choice(physical) if physical else None
        choice = choice or first(a.Pass)
    elif combat is not None and combat.phase == "defend":
        choice = first(a.AllowAttack, recipient=None)
    elif combat is not None and combat.phase == "capture":
        balls = [x for x in legal if isinstance(x, a.Capture) and x.ball is not None]
        choice = balls[0] if balls else first(a.Capture)
    elif state.step == "discard":
        keeps = [x for x in legal if isinstance(x, a.DiscardDown) and x.keep is not None]
        choice = keeps[0] if keeps else first(a.DiscardDown)
    elif state.step == "pass-bonus":
        choice = first(a.PassBonus, take=True)
    return choice or legal[0]
