"""Fusion: two personalities of one level become a Fusion personality from
the Sensei Deck, a timer counts its turns, and it defuses.

Seed 001 (Rules digest, Fusion): "Use an effect allowing two
matching-level, fusible personalities to fuse. Take the corresponding
Fusion personality of that level from your Sensei Deck. It replaces the
pair as one personality, at maximum stages and zero anger. An MP fusion
becomes your MP; an Ally-only fusion is one Ally." — "At the start of each
of your turns, place your top Life Deck card beneath the anger counter as a
timer. At five or more cards, immediately defuse: remove the Fusion
personality from the game, return both component personalities at maximum
stages, and shuffle the timer cards into the Life Deck."

The effect that allows a fusion is card text, so fusing is the player's
move (``Fuse``); the table checks what the rules can tell without the text.
The timer and the defusing are the table's, as its adjudication says
(``apply``: it does them; ``suggest``: it says so; ``off``: by hand with
``FusionTimer`` and ``Defuse``). The gaps are decided in rules notes, T9.
"""

from __future__ import annotations

from dbdeck.games.ccg.table import actions as a
from dbdeck.games.ccg.table.state import Check, Entry, Perform, TableState
from dbdeck.games.ccg.table.zones import put, take

__all__ = [
    "CHECKS",
    "PERFORMS",
    "TIMER_DEFUSES",
    "defuse",
    "fusion_guard",
    "place_timer",
    "start_of_turn",
]

TIMER_DEFUSES = 5
"""Seed 001: "At five or more cards, immediately defuse"."""


def _fusion_title(state: TableState, seat: int) -> str:
    side = state.side(seat)
    return state.cards[side.fusion].title if side.fusion is not None else "the fusion"


def fusion_guard(state: TableState, uid: int) -> str | None:
    """Why ``uid`` is not moved by hand: a fused Fusion personality, one of
    its components, or a timer card (rules notes, T9); ``None`` otherwise."""
    for side in state.sides:
        if side.fusion is None:
            continue
        title = state.cards[side.fusion].title
        if uid == side.fusion:
            return f"{title} is fused: Defuse ends the fusion and returns its components"
        if uid in side.fused:
            return f"{state.cards[uid].title} is fused into {title} until it defuses"
        if uid in side.timer:
            return (
                f"the timer cards stay beneath the anger counter until {title} defuses (seed 001)"
            )
    return None


# --- Fuse ---------------------------------------------------------------------------------


def _level(state: TableState, seat: int, uid: int | None) -> int | None:
    side = state.side(seat)
    return state.cards[side.main if uid is None else uid].level


def check_fuse(state: TableState, x: a.Fuse, strict: bool) -> str | None:
    side = state.side(x.seat)
    if side.fusion is not None:
        return (
            f"{_fusion_title(state, x.seat)} is in play: one fusion at a time, its timer "
            "beneath the anger counter (rules notes, T9)"
        )
    if x.fusion not in side.sensei_deck:
        return "the Fusion personality is taken from your Sensei Deck (seed 001)"
    if x.ally not in side.allies:
        return "a fusion takes one of your Allies in play"
    if x.partner is not None:
        if x.partner == x.ally:
            return "two personalities fuse: choose two different Allies"
        if x.partner not in side.allies:
            return "the other personality is your Main Personality or another of your Allies"
    if not strict:
        return None
    card = state.cards[x.fusion]
    if card.type not in ("personality", ""):
        return f"{card.title} is not a personality card: a fusion takes a Fusion personality"
    if card.fusion is False:
        return (
            f"{card.title} is not a Fusion personality (its pack says so): take the "
            "corresponding Fusion personality from your Sensei Deck (seed 001)"
        )
    first, second = _level(state, x.seat, x.partner), _level(state, x.seat, x.ally)
    if first is not None and second is not None and first != second:
        other = state.cards[side.main if x.partner is None else x.partner].title
        return (
            f"{other} is level {first} and {state.cards[x.ally].title} level {second}: "
            "only two matching-level personalities fuse (seed 001)"
        )
    pair = first if first is not None else second
    if pair is not None and card.level is not None and card.level != pair:
        return (
            f"{card.title} is level {card.level}: the pair fuses into the Fusion personality "
            f"of their level, {pair} (seed 001)"
        )
    return None


def do_fuse(state: TableState, x: a.Fuse) -> None:
    side = state.side(x.seat)
    fusion = state.cards[x.fusion]
    mp = x.partner is None
    pair = [side.main, x.ally] if x.partner is None else [x.ally, x.partner]
    names = [state.cards[u].title for u in pair]
    in_control = side.in_control in pair
    position = min(side.allies.index(u) for u in pair if u in side.allies)
    take(state, x.fusion)
    for uid in pair:
        if uid in side.allies:
            # The Ally leaves play, kept beneath the Fusion personality's
            # card (what was stored beneath it is discarded: seed 001).
            take(state, uid)
            state.cards[uid].attached_to = x.fusion
            state.cards[uid].face_up = True
            fusion.beneath.append(uid)
    side.fusion = x.fusion
    side.fused = pair
    fusion.face_up = True
    if mp:
        side.stages = fusion.max_stages
        side.anger = 0
        if in_control:
            side.in_control = None
        becomes = (
            f"it is {side.player}'s Main Personality now, at its highest stage "
            f"({side.stages}) and anger 0"
        )
    else:
        side.allies.insert(position, x.fusion)
        fusion.stages = fusion.max_stages
        if in_control:
            side.in_control = x.fusion
        becomes = f"it is one Ally, at its highest stage ({fusion.stages})"
    state.log.append(
        Entry(
            "fuse",
            f"{side.player} fuses {names[0]} and {names[1]} into {fusion.title}, from the "
            f"Sensei Deck: {becomes}. At the start of each of {side.player}'s turns a Life "
            f"Deck card goes beneath the anger counter; at {TIMER_DEFUSES} it defuses "
            "(seed 001).",
            x.seat,
        )
    )


# --- the timer ------------------------------------------------------------------------------


def place_timer(state: TableState, seat: int) -> None:
    """The top card of the Life Deck face down beneath the anger counter:
    its owner may see it (seed 001: "You can still see the identity of your
    own face-down cards"), the other player sees how many."""
    side = state.side(seat)
    if not side.life_deck:
        state.log.append(
            Entry("timer", f"{side.player}'s Life Deck is empty: no timer card is placed.", seat)
        )
        return
    uid = side.life_deck[0]
    take(state, uid)
    side.timer.append(uid)
    state.cards[uid].face_up = False
    state.log.append(
        Entry(
            "timer",
            f"{side.player} puts the top card of the Life Deck face down beneath the anger "
            f"counter: {_fusion_title(state, seat)}'s timer, {len(side.timer)} of "
            f"{TIMER_DEFUSES} (seed 001).",
            seat,
            f"The timer card is {state.cards[uid].title}.",
        )
    )


def start_of_turn(state: TableState) -> None:
    """The start of a turn: a fused player's timer grows, and at five the
    fusion defuses (``apply``), or the rules say so (``suggest``)."""
    seat = state.active
    side = state.side(seat)
    if side.fusion is None or state.winner is not None:
        return
    if state.adjudication == "apply":
        place_timer(state, seat)
        if len(side.timer) >= TIMER_DEFUSES:
            defuse(state, seat, f"{TIMER_DEFUSES} timer cards: it defuses at once")
    elif state.adjudication == "suggest":
        state.suggestion = (
            "Place the fusion's timer: the top Life Deck card face down beneath the anger "
            "counter (seed 001)."
        )


def check_fusion_timer(state: TableState, x: a.FusionTimer, strict: bool) -> str | None:
    side = state.side(x.seat)
    if side.fusion is None:
        return "the timer counts a fusion's turns, and you have no Fusion personality in play"
    if not side.life_deck:
        return "your Life Deck is empty"
    if strict and state.adjudication == "apply":
        return "the table puts the timer card there itself at the start of each of your turns"
    return None


def do_fusion_timer(state: TableState, x: a.FusionTimer) -> None:
    side = state.side(x.seat)
    place_timer(state, x.seat)
    if state.adjudication == "suggest":
        state.suggestion = (
            f"{len(side.timer)} timer cards: the fusion defuses immediately (seed 001)."
            if len(side.timer) >= TIMER_DEFUSES
            else ""
        )


# --- Defuse ---------------------------------------------------------------------------------


def defuse(state: TableState, seat: int, why: str) -> None:
    """End ``seat``'s fusion: the Fusion personality is removed from the
    game, both components return at their highest stages, and the timer
    cards are shuffled into the Life Deck, with a cut offered as after a
    search (seed 001)."""
    side = state.side(seat)
    if side.fusion is None:
        return
    uid = side.fusion
    fusion = state.cards[uid]
    pair = list(side.fused)
    position = side.allies.index(uid) if uid in side.allies else len(side.allies)
    in_control = side.in_control == uid
    for component in pair:
        if state.cards[component].attached_to == uid:
            take(state, component)
    take(state, uid)  # anything else stored beneath it is discarded (seed 001)
    side.fusion = None
    side.fused = []
    put(state, uid, seat, "removed")
    for component in pair:
        card = state.cards[component]
        if component in side.levels:
            side.stages = state.cards[side.main].max_stages
        else:
            side.allies.insert(min(position, len(side.allies)), component)
            position += 1
            card.face_up = True
            card.stages = card.max_stages
    if in_control:
        side.in_control = None
    timer = list(side.timer)
    side.timer.clear()
    for card_uid in timer:
        put(state, card_uid, seat, "life-deck")
    shuffled = ""
    if timer:
        state.rng.shuffle(side.life_deck)
        side.cut_offered = True
        shuffled = (
            f"; the {len(timer)} timer card{'s' * (len(timer) != 1)} are shuffled into the "
            f"Life Deck, and {state.side(state.other(seat)).player} may cut it"
        )
    names = " and ".join(state.cards[u].title for u in pair)
    state.log.append(
        Entry(
            "defuse",
            f"{fusion.title} defuses ({why}): it is removed from the game, and its "
            f"components, {names}, return at their highest stages{shuffled} (seed 001).",
            seat,
        )
    )


def check_defuse(state: TableState, x: a.Defuse, strict: bool) -> str | None:
    if state.side(x.seat).fusion is None:
        return "you have no Fusion personality in play"
    return None


def do_defuse(state: TableState, x: a.Defuse) -> None:
    defuse(state, x.seat, "by hand")
    if state.adjudication == "suggest":
        state.suggestion = ""


CHECKS: dict[str, Check] = {
    "fuse": check_fuse,
    "fusion-timer": check_fusion_timer,
    "defuse": check_defuse,
}
"""Each fusion kind's check."""

PERFORMS: dict[str, Perform] = {
    "fuse": do_fuse,
    "fusion-timer": do_fusion_timer,
    "defuse": do_defuse,
}
"""Each fusion kind's performance."""
