"""What a player does by hand at a real table: move a card, flip it, draw,
shuffle, search, change a counter. The way through for whatever needs a
card's text (seed 001's online table); the table still keeps what the
rules guard without any text: a Mastery stays, a Dragon Ball in play stays,
a search is private.
"""

from __future__ import annotations

from dbdeck.games.ccg.table import actions as a
from dbdeck.games.ccg.table.damage import change_level, raise_anger
from dbdeck.games.ccg.table.fusion import fusion_guard
from dbdeck.games.ccg.table.snapshot import restore
from dbdeck.games.ccg.table.state import (
    STAGES_ABOVE_ZERO_AT_START,
    Check,
    Entry,
    Perform,
    TableState,
)
from dbdeck.games.ccg.table.zones import discard_card, draw, locate, put, take

__all__ = ["CHECKS", "IN_PLAY", "MAX_DRAW", "PERFORMS", "searching_elsewhere", "zone_words"]

IN_PLAY = ("non-combat", "drills", "allies", "dragon-balls", "location")
"""The zones of cards in play."""

MAX_DRAW = 10
"""The most cards one Draw N takes."""

_ZONE_WORDS = {
    "life-deck": "the Life Deck",
    "hand": "the hand",
    "discard": "the discard pile",
    "removed": "out of the game",
    "non-combat": "play (Non-Combat)",
    "drills": "play (Drills)",
    "allies": "play (Allies)",
    "dragon-balls": "play (Dragon Balls)",
    "location": "the Location slot",
    "sensei-deck": "the Sensei Deck",
    "set-aside": "set aside",
    "timer": "the fusion's timer, beneath the anger counter",
}


def zone_words(zone: str) -> str:
    """A zone in words."""
    return _ZONE_WORDS.get(zone, zone)


def _yours(state: TableState, seat: int, uid: int) -> str | None:
    where = locate(state, uid)
    if where is None:
        return "no card has that number"
    card = state.cards[uid]
    if card.owner != seat and where[0] != seat:
        return "that is not one of your cards"
    if where[1] == "life-deck" and not state.side(seat).searching:
        return "the cards of the Life Deck are face down: search it first"
    return None


def searching_elsewhere(state: TableState, seat: int, kind: str) -> str | None:
    if state.side(seat).searching and kind not in ("search-take", "finish-search", "move-card"):
        return "finish your search first"
    return None


def check_move_card(state: TableState, x: a.MoveCard, strict: bool) -> str | None:
    problem = _yours(state, x.seat, x.card)
    if problem:
        return problem
    problem = fusion_guard(state, x.card)
    if problem:
        return problem
    where = locate(state, x.card)
    assert where is not None
    card = state.cards[x.card]
    if where[1] in ("main", "mastery", "sensei"):
        return {
            "main": "the Main Personality's level changes with the level counter",
            "mastery": "a Mastery cannot be discarded or removed from play by any means "
            "(seed 003, Mastery Cards 1)",
            "sensei": "the Sensei card stays where it is",
        }[where[1]]
    if x.to == where[1] and not x.bottom:
        return f"it is already in {zone_words(x.to)}"
    if strict and where[1] == "dragon-balls" and x.to not in ("dragon-balls",):
        return (
            "once played onto the table, Dragon Ball cards cannot be discarded or otherwise "
            "removed from the game (seed 002)"
        )
    if strict and x.to == "dragon-balls" and card.type not in ("dragon-ball", ""):
        return "only a Dragon Ball goes with the Dragon Balls"
    return None


def do_move_card(state: TableState, x: a.MoveCard) -> None:
    card = state.cards[x.card]
    where = locate(state, x.card)
    assert where is not None
    seat = card.owner
    if x.to == "discard" and state.adjudication != "off" and card.dragon_ball is not None:
        went = discard_card(state, x.card, adjudicated=True)
        state.log.append(
            Entry(
                "move",
                f"{state.side(x.seat).player} discards {card.title}: a Dragon Ball goes past "
                f"the discard pile, to {zone_words(went)} (seed 003, Dragon Balls 5).",
                x.seat,
            )
        )
        return
    take(state, x.card)
    replaced = ""
    if x.to == "location" and state.location is not None:
        # One Location or Battleground across the table: a new one removes
        # the previous one from the game (seed 001), as placing one does.
        old = state.location
        take(state, old)
        put(state, old, state.cards[old].owner, "removed")
        replaced = f", removing {state.cards[old].title} from the game"
    put(state, x.card, seat, x.to, bottom=x.bottom)
    if x.to == "allies":
        card.stages = min(STAGES_ABOVE_ZERO_AT_START, card.max_stages)
    hidden_from = where[1] in ("life-deck", "hand", "sensei-deck")
    hidden_to = x.to in ("life-deck", "hand", "sensei-deck")
    title = "a card" if hidden_from and hidden_to else card.title
    place = "the bottom of " if x.bottom else ""
    state.log.append(
        Entry(
            "move",
            f"{state.side(x.seat).player} moves {title} from {zone_words(where[1])} to "
            f"{place}{zone_words(x.to)}{replaced}.",
            x.seat,
            f"You moved {card.title}." if title != card.title else "",
        )
    )


def _in_play_yours(state: TableState, seat: int, uid: int) -> str | None:
    problem = _yours(state, seat, uid)
    if problem:
        return problem
    where = locate(state, uid)
    assert where is not None
    if where[1] not in (*IN_PLAY, "main", "mastery", "sensei", "set-aside", "beneath"):
        return "that card is not in play"
    return None


def check_flip(state: TableState, x: a.Flip, strict: bool) -> str | None:
    return _in_play_yours(state, x.seat, x.card)


def do_flip(state: TableState, x: a.Flip) -> None:
    card = state.cards[x.card]
    card.face_up = not card.face_up
    shown = card.title if card.face_up else "a card"
    state.log.append(
        Entry(
            "flip",
            f"{state.side(x.seat).player} turns {shown} face {'up' if card.face_up else 'down'}.",
            x.seat,
        )
    )


def check_mark_used(state: TableState, x: a.MarkUsed, strict: bool) -> str | None:
    return _in_play_yours(state, x.seat, x.card)


def do_mark_used(state: TableState, x: a.MarkUsed) -> None:
    card = state.cards[x.card]
    card.used = not card.used
    state.log.append(
        Entry(
            "mark",
            f"{state.side(x.seat).player} marks {_title(state, x.card)} "
            f"{'used' if card.used else 'not used'}.",
            x.seat,
        )
    )


def _title(state: TableState, uid: int) -> str:
    card = state.cards[uid]
    return card.title if card.face_up else "a face-down card"


def check_turn_card(state: TableState, x: a.TurnCard, strict: bool) -> str | None:
    return _in_play_yours(state, x.seat, x.card)


def do_turn_card(state: TableState, x: a.TurnCard) -> None:
    card = state.cards[x.card]
    card.turned = not card.turned
    state.log.append(
        Entry(
            "turn-card",
            f"{state.side(x.seat).player} turns {_title(state, x.card)} "
            f"{'sideways' if card.turned else 'back'}.",
            x.seat,
        )
    )


def check_attach(state: TableState, x: a.Attach, strict: bool) -> str | None:
    problem = _yours(state, x.seat, x.card) or fusion_guard(state, x.card)
    if problem:
        return problem
    if x.to is None:
        if state.cards[x.card].attached_to is None:
            return "that card is not attached to anything"
        return None
    where = locate(state, x.to)
    if where is None or where[1] not in (*IN_PLAY, "main", "mastery", "sensei"):
        return "cards are attached to a card in play"
    if x.to == x.card:
        return "a card is not attached to itself"
    return None


def do_attach(state: TableState, x: a.Attach) -> None:
    card = state.cards[x.card]
    side = state.side(x.seat)
    if x.to is None:
        take(state, x.card)
        put(state, x.card, card.owner, "discard")
        state.log.append(
            Entry("attach", f"{side.player} discards {card.title} from beneath its card.", x.seat)
        )
        return
    take(state, x.card)
    card.attached_to = x.to
    card.face_up = not x.face_down
    state.cards[x.to].beneath.append(x.card)
    what = "a face-down card" if x.face_down else card.title
    state.log.append(
        Entry(
            "attach",
            f"{side.player} puts {what} beneath {_title(state, x.to)}.",
            x.seat,
            f"You stored {card.title}." if x.face_down else "",
        )
    )


def check_draw_cards(state: TableState, x: a.DrawCards, strict: bool) -> str | None:
    if not 1 <= x.count <= MAX_DRAW:
        return f"draw 1 to {MAX_DRAW} cards at a time"
    if not state.side(x.seat).life_deck:
        return "your Life Deck is empty"
    return None


def do_draw_cards(state: TableState, x: a.DrawCards) -> None:
    draw(state, x.seat, x.count, "by hand")


def check_shuffle(state: TableState, x: a.Shuffle, strict: bool) -> str | None:
    return None


def do_shuffle(state: TableState, x: a.Shuffle) -> None:
    side = state.side(x.seat)
    pile = side.life_deck if x.pile == "life-deck" else side.discard
    state.rng.shuffle(pile)
    state.log.append(Entry("shuffle", f"{side.player} shuffles {zone_words(x.pile)}.", x.seat))


def check_cut(state: TableState, x: a.Cut, strict: bool) -> str | None:
    other = state.side(state.other(x.seat))
    if not other.cut_offered:
        return f"{other.player} has not offered a cut"
    return None


def do_cut(state: TableState, x: a.Cut) -> None:
    other = state.side(state.other(x.seat))
    other.cut_offered = False
    if len(other.life_deck) > 1:
        at = state.rng.randrange(1, len(other.life_deck))
        other.life_deck[:] = other.life_deck[at:] + other.life_deck[:at]
    state.log.append(
        Entry("cut", f"{state.side(x.seat).player} cuts {other.player}'s Life Deck.", x.seat)
    )


def check_reveal(state: TableState, x: a.Reveal, strict: bool) -> str | None:
    if not x.cards or len(x.cards) > 60:
        return "reveal 1 to 60 cards of your hand"
    hand = state.side(x.seat).hand
    if any(u not in hand for u in x.cards):
        return "only cards of your hand are revealed"
    return None


def do_reveal(state: TableState, x: a.Reveal) -> None:
    side = state.side(x.seat)
    side.shown.update(x.cards)
    titles = ", ".join(state.cards[u].title for u in x.cards)
    state.log.append(Entry("reveal", f"{side.player} reveals {titles}.", x.seat))


def check_start_search(state: TableState, x: a.StartSearch, strict: bool) -> str | None:
    if state.side(x.seat).searching:
        return "you are searching already"
    return None


def do_start_search(state: TableState, x: a.StartSearch) -> None:
    side = state.side(x.seat)
    side.searching = True
    state.log.append(Entry("search", f"{side.player} searches their Life Deck.", x.seat))


def check_search_take(state: TableState, x: a.SearchTake, strict: bool) -> str | None:
    side = state.side(x.seat)
    if not side.searching:
        return "start a search of your Life Deck first"
    if not x.cards or len(x.cards) > 60 or len(set(x.cards)) != len(x.cards):
        return "take 1 to 60 different cards"
    if any(u not in side.life_deck for u in x.cards):
        return "only cards of your Life Deck are taken in a search"
    if x.to == "life-deck":
        return "the cards taken leave the Life Deck"
    return None


def do_search_take(state: TableState, x: a.SearchTake) -> None:
    side = state.side(x.seat)
    for uid in x.cards:
        take(state, uid)
        put(state, uid, x.seat, x.to)
        if x.to == "hand":
            side.shown.add(uid)
    titles = ", ".join(state.cards[u].title for u in x.cards)
    state.log.append(
        Entry(
            "search",
            f"{side.player} takes {titles} from the Life Deck to "
            f"{zone_words(x.to)}, shown (seed 001).",
            x.seat,
        )
    )


def check_finish_search(state: TableState, x: a.FinishSearch, strict: bool) -> str | None:
    if not state.side(x.seat).searching:
        return "you are not searching"
    return None


def do_finish_search(state: TableState, x: a.FinishSearch) -> None:
    side = state.side(x.seat)
    side.searching = False
    state.rng.shuffle(side.life_deck)
    side.cut_offered = True
    state.log.append(
        Entry(
            "search",
            f"{side.player} ends the search and shuffles the Life Deck; "
            f"{state.side(state.other(x.seat)).player} may cut it (seed 001).",
            x.seat,
        )
    )


def check_counter(state: TableState, x: a.Counter, strict: bool) -> str | None:
    if not -20 <= x.delta <= 20 or x.delta == 0:
        return "a counter changes by 1 to 20, up or down"
    side = state.side(x.seat)
    if x.counter == "ally-stages":
        if x.card is None or x.card not in side.allies:
            return "an Ally's stages need one of your Allies in play"
    elif x.card is not None:
        return "only an Ally's stages name a card"
    if x.counter == "level" and side.fused_main:
        return (
            f"{state.mp_name(x.seat)} is a Fusion personality of one level: its level does "
            "not change; Defuse first (rules notes, T9)"
        )
    if x.counter == "custom":
        if not x.name or len(x.name) > 30 or not x.name.isprintable():
            return "a custom counter has a name of 1 to 30 printable characters"
        if x.name not in side.counters and len(side.counters) >= 12:
            return "twelve custom counters are the most"
    elif x.name:
        return "only a custom counter has a name"
    return None


def do_counter(state: TableState, x: a.Counter) -> None:
    side = state.side(x.seat)
    applied = state.adjudication == "apply"
    sign = f"{x.delta:+d}"
    if x.counter == "stages":
        top = state.cards[side.main].max_stages
        side.stages = max(0, min(top, side.stages + x.delta))
        state.log.append(
            Entry(
                "counter",
                f"{state.mp_name(x.seat)}'s stages {sign}: now {side.stages} above 0.",
                x.seat,
            )
        )
    elif x.counter == "ally-stages":
        assert x.card is not None
        card = state.cards[x.card]
        card.stages = max(0, min(card.max_stages, (card.stages or 0) + x.delta))
        state.log.append(
            Entry("counter", f"{card.title}'s stages {sign}: now {card.stages} above 0.", x.seat)
        )
    elif x.counter == "anger":
        state.log.append(Entry("counter", f"{state.mp_name(x.seat)}'s anger {sign}.", x.seat))
        if applied:
            raise_anger(state, x.seat, x.delta)
        else:
            side.anger = max(0, min(5, side.anger + x.delta))
            if side.anger >= 5 and state.adjudication == "suggest":
                state.suggestion = (
                    f"{state.mp_name(x.seat)} has five anger: anger 0 and the highest stage "
                    "(a Fusion personality has no next level: rules notes, T9)."
                    if side.fused_main
                    else f"{side.main_name} has five anger: the next level, anger 0 "
                    "and the highest stage (seed 003, Anger and Levels)."
                )
    elif x.counter == "level":
        if applied:
            change_level(state, x.seat, x.delta, "by hand")
        else:
            side.level_index = max(0, min(len(side.levels) - 1, side.level_index + x.delta))
            state.log.append(
                Entry(
                    "counter",
                    f"{side.main_name} is now level {state.cards[side.main].level}.",
                    x.seat,
                )
            )
    else:
        side.counters[x.name] = side.counters.get(x.name, 0) + x.delta
        state.log.append(
            Entry(
                "counter", f"{side.player}'s {x.name} {sign}: now {side.counters[x.name]}.", x.seat
            )
        )


def check_overrule(state: TableState, x: a.Overrule, strict: bool) -> str | None:
    if len(x.reason) > 200 or not x.reason.isprintable():
        return "a correction's reason is up to 200 printable characters"
    if state.previous is None:
        return "there is no last action to take back (it was taken back, or none was made)"
    return None


def do_overrule(state: TableState, x: a.Overrule) -> None:
    state.proposal = (x.seat, x.reason)
    why = f" ({x.reason})" if x.reason else ""
    state.log.append(
        Entry(
            "overrule",
            f"{state.side(x.seat).player} asks to take back the last action{why}: "
            f"{state.last_auto.rstrip('.') or 'it'}. "
            f"{state.side(state.other(x.seat)).player} is asked to agree "
            "(seed 001: agree on the correction).",
            x.seat,
        )
    )


def check_answer_overrule(state: TableState, x: a.AnswerOverrule, strict: bool) -> str | None:
    if state.proposal is None:
        return "no overrule waits for an answer"
    return None


def do_answer_overrule(state: TableState, x: a.AnswerOverrule) -> None:
    asker, _ = state.proposal or (state.other(x.seat), "")
    state.proposal = None
    who = state.side(x.seat).player
    if not x.agree or state.previous is None:
        state.log.append(
            Entry("overrule", f"{who} does not agree: the table stays as it is.", x.seat)
        )
        return
    restore(state, state.previous)
    state.log.append(
        Entry(
            "overrule",
            f"{who} agrees with {state.side(asker).player}: the last action is taken back, "
            "and the table is as it was before it.",
            x.seat,
        )
    )


CHECKS: dict[str, Check] = {
    "move-card": check_move_card,
    "flip": check_flip,
    "mark-used": check_mark_used,
    "turn-card": check_turn_card,
    "attach": check_attach,
    "draw-cards": check_draw_cards,
    "shuffle": check_shuffle,
    "cut": check_cut,
    "reveal": check_reveal,
    "start-search": check_start_search,
    "search-take": check_search_take,
    "finish-search": check_finish_search,
    "counter": check_counter,
    "overrule": check_overrule,
    "answer-overrule": check_answer_overrule,
}
"""Each manual kind's check."""

PERFORMS: dict[str, Perform] = {
    "move-card": do_move_card,
    "flip": do_flip,
    "mark-used": do_mark_used,
    "turn-card": do_turn_card,
    "attach": do_attach,
    "draw-cards": do_draw_cards,
    "shuffle": do_shuffle,
    "cut": do_cut,
    "reveal": do_reveal,
    "start-search": do_start_search,
    "search-take": do_search_take,
    "finish-search": do_finish_search,
    "counter": do_counter,
    "overrule": do_overrule,
    "answer-overrule": do_answer_overrule,
}
"""Each manual kind's performance."""
