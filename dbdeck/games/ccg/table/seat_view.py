"""The table as one seat may see it: ``seat_view`` builds the frozen
``TableView`` from the state, leaving out what the seat may not see.

Hidden from the other player, and from a spectator: the hand (its count is
public, and a card revealed from it is shown), the Life Deck (a count; its
order never leaves the state), the Sensei Deck (seed 001: "your opponent
cannot"), a fusion's timer cards (a count), the cards of a search (seed
001: "cannot see the search results") and face-down cards. A hidden card
is ``HIDDEN`` with no title or type.
"""

from __future__ import annotations

from dbdeck.games.ccg.table import rules, turn
from dbdeck.games.ccg.table.state import Entry, Side, TableState
from dbdeck.games.ccg.table.view import (
    HIDDEN,
    CardFace,
    CombatPanel,
    LogLine,
    PersonalityPanel,
    SeatPanel,
    TableView,
)

__all__ = ["LOG_LINES", "log_lines", "seat_view", "step_words"]

LOG_LINES = 60
"""The log lines a view carries."""


def _face(state: TableState, uid: int, sees: bool) -> CardFace:
    card = state.cards[uid]
    if not sees:
        return CardFace(
            uid=HIDDEN, title="face-down card", type="", owner=card.owner, face_up=False
        )
    beneath = tuple(
        _face(state, child, sees and state.cards[child].face_up) for child in card.beneath
    )
    return CardFace(
        uid=uid,
        title=card.title,
        type=card.type,
        owner=card.owner,
        face_up=card.face_up,
        used=card.used,
        turned=card.turned,
        stages=card.stages,
        max_stages=card.max_stages if card.stages is not None else None,
        beneath=beneath,
        card_id=card.card_id,
    )


def _own_face(state: TableState, uid: int, owner_sees: bool) -> CardFace:
    """A card in play: face up for everyone, face down for its owner only."""
    card = state.cards[uid]
    return _face(state, uid, card.face_up or owner_sees)


def _personality(state: TableState, side: Side) -> PersonalityPanel:
    card = state.cards[side.main]
    pur = turn.power_up_stages(state, side.seat, None)
    return PersonalityPanel(
        name=side.main_name,
        title=card.title,
        level=card.level or side.level_index + 1,
        levels=tuple(state.cards[u].level or i + 1 for i, u in enumerate(side.levels)),
        stages=side.stages,
        max_stages=card.max_stages,
        stage_values=card.ladder,
        anger=side.anger,
        pur=pur,
        power_used=side.power_used,
        alignment=side.alignment,
        card_id=card.card_id,
    )


def _seat_panel(state: TableState, side: Side, viewer: int | None, every_hand: bool) -> SeatPanel:
    mine = every_hand or viewer == side.seat
    hand = tuple(_face(state, u, mine or u in side.shown) for u in side.hand)
    return SeatPanel(
        seat=side.seat,
        player=side.player,
        main=_personality(state, side),
        life_deck=len(side.life_deck),
        hand=hand,
        discard=tuple(_face(state, u, True) for u in side.discard),
        removed=tuple(_face(state, u, True) for u in side.removed),
        non_combat=tuple(_own_face(state, u, mine) for u in side.non_combat),
        drills=tuple(_own_face(state, u, mine) for u in side.drills),
        allies=tuple(_own_face(state, u, mine) for u in side.allies),
        dragon_balls=tuple(_own_face(state, u, mine) for u in side.dragon_balls),
        mastery=_own_face(state, side.mastery, mine) if side.mastery is not None else None,
        sensei=_own_face(state, side.sensei, mine) if side.sensei is not None else None,
        sensei_deck=tuple(_face(state, u, mine) for u in side.sensei_deck),
        set_aside=tuple(_face(state, u, True) for u in side.set_aside),
        tokui_waza=side.tokui_waza,
        in_control=side.in_control,
        searching=side.searching,
        search=tuple(_face(state, u, True) for u in side.life_deck)
        if side.searching and mine
        else (),
        counters=tuple(sorted(side.counters.items())),
        final_physical_attack_used=side.final_physical_attack_used,
        fusion=_own_face(state, side.fusion, mine) if side.fusion is not None else None,
        fusion_is_main=side.fused_main,
        fused=tuple(_own_face(state, u, mine) for u in side.fused),
        timer=tuple(_face(state, u, mine) for u in side.timer),
    )


_STEP_WORDS = {
    "draw": "Draw: draw three cards",
    "non-combat": "Non-Combat: place Non-Combat cards, Drills, Allies and Dragon Balls in play",
    "power-up": "Power Up: raise a personality's stages by its PUR",
    "combat?": "Combat: declare Combat, or skip it",
    "combat": "Combat",
    "discard": "End of turn: every player discards down to one card",
    "pass-bonus": "Pass bonus: the top card of the discard pile to the bottom of the Life Deck",
    "end": "End of turn",
    "over": "The game is over",
}


def step_words(state: TableState) -> str:
    """The step and what it asks, in words."""
    words = _STEP_WORDS[state.step]
    combat = state.combat
    if combat is not None and state.step == "combat":
        acting = state.side(combat.acting).player
        words += {
            "attack": f": {acting} attacks, uses a card in place of an attack, or passes",
            "defend": f": {acting} defends, or takes the attack",
            "capture": f": {acting} may capture a Dragon Ball",
        }[combat.phase]
    return f"Turn {state.turn}, {state.side(state.active).player}: {words}"


def log_lines(
    entries: list[Entry], viewer: int | None, every_hand: bool = False
) -> tuple[LogLine, ...]:
    """Log entries as ``viewer`` may read them."""
    lines = []
    for entry in entries:
        text = entry.text
        if entry.private and (every_hand or (viewer is not None and viewer == entry.seat)):
            text = f"{text} {entry.private}"
        lines.append(LogLine(kind=entry.kind, text=text, seat=entry.seat))
    return tuple(lines)


def seat_view(state: TableState, viewer: int | None, *, every_hand: bool = False) -> TableView:
    """The table as ``viewer`` (a seat, or ``None`` for a spectator) may see it."""
    combat = None
    if state.combat is not None:
        c = state.combat
        combat = CombatPanel(
            attacker=c.attacker,
            defender=c.defender,
            phase={
                "attack": "attacker attacks",
                "defend": "defender defends",
                "capture": "capture",
            }[c.phase],
            acting=c.acting,
            passes=c.passes,
            attack=c.attack.words if c.attack is not None else "",
        )
    who = rules.asked(state)
    prompt = ""
    if who is not None:
        prompt = "Your move." if who == viewer else f"{state.side(who).player} is to move."
    return TableView(
        viewer=viewer,
        turn=state.turn,
        active=state.active,
        step=state.step,
        step_words=step_words(state),
        seats=(
            _seat_panel(state, state.sides[0], viewer, every_hand),
            _seat_panel(state, state.sides[1], viewer, every_hand),
        ),
        location=_face(state, state.location, True) if state.location is not None else None,
        combat=combat,
        adjudication=state.adjudication,
        profile=state.profile,
        prompt=prompt,
        suggestion=state.suggestion,
        winner=state.winner,
        result=state.result,
        log=log_lines(state.log[-LOG_LINES:], viewer, every_hand),
    )
