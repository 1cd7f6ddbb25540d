"""Damage, anger and levels, and the victories: the consequences the table
works out itself.

Each function changes the state and logs what it did in the rulebook's
words. The callers decide whether a consequence is applied (adjudication
``apply``) or only suggested.
"""

from __future__ import annotations

from dbdeck.games.ccg.table.state import STAGES_ABOVE_ZERO_AT_START, Entry, TableState
from dbdeck.games.ccg.table.zones import discard_card, put, take

__all__ = [
    "MPP_LEVEL",
    "change_level",
    "check_victories",
    "deal_life",
    "deal_stages",
    "raise_anger",
    "seven_balls",
    "win",
]

MPP_LEVEL = 4
"""A Main Personality that reaches level 4 wins the Most Powerful Personality
Victory (seed 002, Example of Play: "I'll have to reach level 4 to win that
way"; rules notes, T5)."""


def win(state: TableState, seat: int, reason: str) -> None:
    """End the game: ``seat`` wins, for ``reason``."""
    if state.winner is not None:
        return
    state.winner = seat
    state.result = reason
    state.step = "over"
    state.combat = None
    state.log.append(Entry("victory", f"{state.side(seat).player} wins: {reason}", seat))


def deal_stages(state: TableState, seat: int, recipient: int | None, stages: int) -> int:
    """Lower the recipient's stages toward 0; return the stages it could not
    take, each one life card of damage (seed 003, Physical Attacks 1)."""
    if stages <= 0:
        return 0
    side = state.side(seat)
    if recipient is None:
        lost = min(stages, side.stages)
        side.stages -= lost
        name = state.mp_name(seat)
    else:
        card = state.cards[recipient]
        lost = min(stages, card.stages or 0)
        card.stages = (card.stages or 0) - lost
        name = card.title
    rest = stages - lost
    state.log.append(
        Entry(
            "stage-damage",
            f"{name} takes {lost} stage{'s' * (lost != 1)} of damage"
            + (f"; {rest} more become{'s' * (rest == 1)} life cards." if rest else "."),
            seat,
        )
    )
    return rest


def deal_life(state: TableState, seat: int, count: int) -> int:
    """Discard ``count`` life cards from the top of the Life Deck; return how
    many were discarded.

    A Dragon Ball revealed as damage does not count: it is removed from the
    game if a ball like it is in play, and otherwise goes to the bottom of
    the Life Deck (seed 003, Dragon Balls 1 and 5). A player whose Life Deck
    holds only Dragon Balls loses when dealt life cards of damage (Dragon
    Balls 2).
    """
    side = state.side(seat)
    dealt = 0
    if count <= 0:
        return 0
    balls_seen: set[int] = set()
    while dealt < count and side.life_deck:
        if all(state.cards[u].dragon_ball is not None for u in side.life_deck):
            win(
                state,
                state.other(seat),
                f"{side.player}'s Life Deck holds only Dragon Balls and life cards of "
                "damage are dealt (seed 003, Dragon Balls 2).",
            )
            return dealt
        uid = side.life_deck[0]
        card = state.cards[uid]
        if card.dragon_ball is not None:
            if uid in balls_seen:  # every card left is a ball already sent down
                break
            balls_seen.add(uid)
            went = discard_card(state, uid, adjudicated=True)
            state.log.append(
                Entry(
                    "damage",
                    f"{card.title} is revealed as damage and does not count: "
                    + (
                        "one like it is in play, so it is removed from the game."
                        if went == "removed"
                        else "it goes to the bottom of the Life Deck."
                    ),
                    seat,
                )
            )
            continue
        take(state, uid)
        put(state, uid, seat, "discard")
        dealt += 1
    state.log.append(
        Entry(
            "damage",
            f"{side.player} discards {dealt} life card{'s' * (dealt != 1)} of damage"
            + (
                f": {', '.join(state.cards[u].title for u in side.discard[-dealt:])}."
                if dealt
                else "."
            ),
            seat,
        )
    )
    return dealt


def change_level(state: TableState, seat: int, delta: int, why: str) -> None:
    """Raise or lower the Main Personality's level.

    Up (seed 003, Anger and Levels 1-2): anger back to 0 and the highest
    stage. Down (seed 001; seed 003 Drills): keep the anger, five stages
    above 0. Either way the Drills are discarded (seed 003, Drills) and the
    personality power is available again (seed 001). Reaching level 4 wins.
    A Fusion personality has one level and does not change it (rules
    notes, T9).
    """
    side = state.side(seat)
    if side.fused_main:
        return
    target = max(0, min(len(side.levels) - 1, side.level_index + delta))
    if target == side.level_index:
        return
    up = target > side.level_index
    side.level_index = target
    card = state.cards[side.main]
    if up:
        side.anger = 0
        side.stages = card.max_stages
    else:
        side.stages = min(STAGES_ABOVE_ZERO_AT_START, card.max_stages)
    side.power_used = False
    had_drills = bool(side.drills)
    for uid in list(side.drills):
        discard_card(state, uid, adjudicated=True)
    state.log.append(
        Entry(
            "level",
            f"{side.main_name} {'rises' if up else 'drops'} to level {card.level} ({why}): "
            + ("anger 0, highest stage" if up else f"{side.stages} stages above 0")
            + ("; Drills discarded." if had_drills else "."),
            seat,
        )
    )
    if up and (card.level or 0) >= MPP_LEVEL:
        win(
            state,
            seat,
            f"{side.main_name} reached level {card.level}: the Most Powerful Personality Victory.",
        )


def raise_anger(state: TableState, seat: int, delta: int) -> None:
    """Change the anger; five or more raises the level (the extra does not
    carry over), or at a top level that cannot win, resets the anger and
    maximizes the stages (seed 003, Anger and Levels; seed 001). A Fusion
    Main Personality is at its one level: five anger resets it so (rules
    notes, T9)."""
    side = state.side(seat)
    side.anger = max(0, side.anger + delta)
    if side.anger < 5:
        return
    if side.fused_main:
        side.anger = 0
        side.stages = state.cards[side.main].max_stages
        state.log.append(
            Entry(
                "level",
                f"{state.mp_name(seat)} has five anger: a Fusion personality has no next "
                "level, so anger back to 0 and the highest stage (seed 001; rules notes, T9).",
                seat,
            )
        )
        return
    if side.level_index + 1 < len(side.levels):
        change_level(state, seat, +1, "five anger")
        return
    if side.anger_wins_at_top:
        win(
            state,
            seat,
            f"{side.main_name} reached five anger at the top level: the Most Powerful "
            "Personality Victory (the Vegeta and Nappa rule, seed 002).",
        )
        return
    side.anger = 0
    side.stages = state.cards[side.main].max_stages
    state.log.append(
        Entry(
            "level",
            f"{side.main_name} has five anger at the top level: anger back to 0 and the "
            "highest stage (seed 001).",
            seat,
        )
    )


def check_victories(state: TableState) -> None:
    """The victories that hold whenever they are looked for: seven Dragon
    Balls placed from the hand (seed 003, Dragon Ball Victory 1) and an
    empty Life Deck (the Survival Victory; rules notes, T6)."""
    if state.winner is not None:
        return
    for side in state.sides:
        if len(_controlled_balls(state, side.seat)) >= 7 and side.seven_captured_on is None:
            win(state, side.seat, "seven Dragon Balls in play: the Dragon Ball Victory.")
            return
    for side in state.sides:
        if not side.life_deck:
            win(
                state,
                state.other(side.seat),
                f"{side.player}'s Life Deck is empty: the Survival Victory.",
            )
            return


def _controlled_balls(state: TableState, seat: int) -> set[tuple[str, int]]:
    return {
        ball
        for uid in state.side(seat).dragon_balls
        if (ball := state.cards[uid].dragon_ball) is not None
    }


def seven_balls(state: TableState, seat: int) -> bool:
    """Whether ``seat`` controls seven different Dragon Balls."""
    return len(_controlled_balls(state, seat)) >= 7
