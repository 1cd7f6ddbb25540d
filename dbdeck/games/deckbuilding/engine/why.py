"""Why no action of a kind is legal now, in the rulebook's words.

The table never guesses why a key does nothing: it asks this module. Each
reason comes from the engine's own checks (``Game.check`` of the action
that comes nearest) or, when no such action exists at all (no Physical
Technique in hand), from the rulebook passage that would allow one. Each
action type's reason lives in its module of ``dbdeck.games.deckbuilding.engine.actions``
(``why_none``); this module asks them and answers per card.

``why_none`` answers per action kind; ``card_notes`` answers per card, for
the cards a player can touch (the hand, the cards in play beside the board,
the prepared Techniques, the market rows): each kind of action that card
could take part in but cannot now, with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dbdeck.games.deckbuilding.engine.actions import (
    Action,
    Destroy,
    Exhaust,
    Play,
    ability,
    attack,
    avoid,
    boost,
    buy,
    buy_dragon_ball,
    destroy,
    end_turn,
    exhaust,
    give_ball,
    market_discard,
    play,
    play_energy,
    prepare,
    steal,
)
from dbdeck.games.deckbuilding.engine.actions.base import first_reason, sentence
from dbdeck.games.deckbuilding.engine.holders import VILLAIN, CharacterRef
from dbdeck.games.deckbuilding.engine.state import CharacterState
from dbdeck.games.deckbuilding.engine.zones import ENERGY_KINDS

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

__all__ = ["KINDS", "CardReason", "card_notes", "not_now", "sentence", "why_none"]

KINDS = (
    "attack",
    "prepare",
    "boost",
    "play-energy",
    "buy",
    "buy-dragon-ball",
    "steal",
    "play",
    "exhaust",
    "destroy",
    "ability",
    "give-ball",
    "market-discard",
    "avoid",
    "end-turn",
)
"""The action kinds a key or a card of the table can ask for."""

UNIT_KINDS = ("ally", "equipment", "training")


@dataclass(frozen=True, slots=True)
class CardReason:
    """Why a card cannot take part in one kind of action now."""

    uid: int
    kind: str
    reason: str


def not_now(game: Playing) -> str:
    """Why no Character may act now at all; empty during an Actions phase."""
    s = game.state
    if game.over:
        return sentence(f"The game is over: {s.reason}")
    if s.pending is not None:
        return sentence(f"A decision comes first: {s.pending.prompt}")
    if s.active == "villain" or s.paused:
        return f"It is {game.name(VILLAIN)}'s turn."
    if s.active in ("", None):
        return "No Character is playing now."
    if s.step != "char_main":
        return f"{game.name(CharacterRef(s.active))}'s turn has not reached its Actions phase."
    return ""


_REASONS: dict[str, Callable[[Playing, CharacterState], str]] = {
    "attack": attack.why_none,
    "prepare": prepare.why_none,
    "boost": boost.why_none,
    "play-energy": play_energy.why_none,
    "buy": buy.why_none,
    "buy-dragon-ball": buy_dragon_ball.why_none,
    "steal": steal.why_none,
    "play": play.why_none,
    "exhaust": exhaust.why_none,
    "destroy": destroy.why_none,
    "ability": ability.why_none,
    "give-ball": give_ball.why_none,
    "market-discard": market_discard.why_none,
    "avoid": avoid.why_none,
    "end-turn": end_turn.why_none,
}


def why_none(game: Playing, legal: Iterable[Action] | None = None) -> dict[str, str]:
    """For each kind of ``KINDS`` with no legal action now, why, in words.
    ``legal`` is ``game.legal_actions()`` when the caller has it already."""
    general = not_now(game)
    if general:
        return dict.fromkeys(KINDS, general)
    ch = game.state.character(game.state.active)
    legal_kinds = {a.type for a in (game.legal_actions() if legal is None else legal)}
    return {kind: _REASONS[kind](game, ch) for kind in KINDS if kind not in legal_kinds}


# --- per card ---------------------------------------------------------------------------


def _names(action: Action) -> set[int]:
    return {u for u in (action.card, action.on, *action.cards) if u is not None}


def card_notes(game: Playing, legal: Iterable[Action] | None = None) -> list[CardReason]:
    """For each card the active Character can touch, each kind of action it
    could take part in but cannot now, with the engine's reason."""
    if not_now(game):
        return []
    s = game.state
    ch = s.character(s.active)
    actions = list(game.legal_actions() if legal is None else legal)
    able = {(u, a.type) for a in actions for u in _names(a)}
    notes: list[CardReason] = []

    def note(uid: int, kind: str, reason: Callable[..., str | None], *args: Any) -> None:
        if (uid, kind) not in able:
            notes.append(CardReason(uid, kind, sentence(reason(*args) or "")))

    def check(action: Action) -> str | None:
        return game.check(action)

    prepared = [p for p in ch.time_track if p is not None]
    for uid in ch.hand:
        card = game.card(uid)
        if _physical(card):
            note(uid, "attack", attack.why_not_card, game, ch, uid)
        elif _energy_technique(card):
            note(uid, "prepare", first_reason, game, list(prepare.tries(game, [uid])))
        elif card.kind in UNIT_KINDS:
            note(uid, "play", check, Play(card=uid))
        elif card.kind in ENERGY_KINDS:
            note(uid, "boost", boost.why_not_card, game, ch, uid, prepared)
    for p in prepared:
        note(p.uid, "boost", boost.why_none, game, ch)
    for unit in ch.units():
        note(unit.uid, "exhaust", check, Exhaust(card=unit.uid))
        note(unit.uid, "destroy", check, Destroy(card=unit.uid))
    for market in s.markets:
        for uid in s.markets[market].row:
            note(uid, "market-discard", market_discard.why_none, game, ch)
    if not any(a.type == "attack" for a in actions):
        for unit in s.villain.minions:
            notes.append(CardReason(unit.uid, "attack", attack.why_none(game, ch)))
    return [n for n in notes if n.reason]


def _physical(card: Any) -> bool:
    return bool(card.kind == "technique" and card.technique_type == "physical")


def _energy_technique(card: Any) -> bool:
    return bool(card.kind == "technique" and card.technique_type == "energy")
