"""Why no action of a kind is legal now, in the rulebook's words.

The table never guesses why a key does nothing: it asks this module. Each
reason comes from the engine's own checks (``Game.check`` of the action
that comes nearest) or, when no such action exists at all (no Physical
Technique in hand), from the rulebook passage that would allow one.

``why_none`` answers per action kind; ``card_notes`` answers per card, for
the cards a player can touch (the hand, the cards in play beside the board,
the prepared Techniques, the market rows): each kind of action that card
could take part in but cannot now, with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dbdeck.engine import combat, rules
from dbdeck.engine.actions import Action
from dbdeck.engine.state import VILLAIN, CharacterState

if TYPE_CHECKING:
    from dbdeck.engine.game import Game

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

ENERGY_KINDS = ("energy", "concentrated-energy")
UNIT_KINDS = ("ally", "equipment", "training")


@dataclass(frozen=True, slots=True)
class CardReason:
    """Why a card cannot take part in one kind of action now."""

    uid: int
    kind: str
    reason: str


def sentence(reason: str) -> str:
    """An engine reason as a sentence: a capital first letter, a full stop."""
    reason = reason.strip()
    if not reason:
        return reason
    reason = reason[0].upper() + reason[1:]
    return reason if reason[-1] in ".!?" else reason + "."


def _name(game: Game, ch: CharacterState) -> str:
    return game.name(f"c:{ch.id}")


def not_now(game: Game) -> str:
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
        return f"{game.name('c:' + s.active)}'s turn has not reached its Actions phase."
    return ""


def _first_reason(game: Game, actions: Iterable[Action]) -> str | None:
    """The engine's reason for the first of ``actions`` it refuses, or
    ``None`` when one of them is legal (or there is none)."""
    first: str | None = None
    for action in actions:
        reason = game.check(action)
        if reason is None:
            return None
        first = first or reason
    return first


def _hand(game: Game, ch: CharacterState, test: Callable[[Any], bool]) -> list[int]:
    return [u for u in ch.hand if test(game.card(u))]


def _physical(card: Any) -> bool:
    return bool(card.kind == "technique" and card.technique_type == "physical")


def _energy_technique(card: Any) -> bool:
    return bool(card.kind == "technique" and card.technique_type == "energy")


def _attack(game: Game, ch: CharacterState) -> str:
    name = _name(game, ch)
    if not game.state.villain.arrived:
        villain = game.name(VILLAIN)
        return f"{villain} has not arrived: neither {villain} nor the Minions can be attacked yet."
    physical = _hand(game, ch, _physical)
    if not physical:
        return (
            f"There is no Physical Technique in {name}'s hand: attacks are made with "
            "Physical Techniques from the hand."
        )
    targets = combat.enemies_of(game, "players") or [VILLAIN]
    reason = _first_reason(
        game, (Action("attack", cards=(u,), target=t) for u in physical for t in targets)
    )
    return sentence(reason or "No attack is possible now")


def _prepare(game: Game, ch: CharacterState) -> str:
    techniques = _hand(game, ch, _energy_technique)
    if not techniques:
        return (
            f"There is no Energy Technique in {_name(game, ch)}'s hand: Energy Techniques "
            "are prepared from the hand onto the Time Track."
        )
    reason = _first_reason(game, _prepare_tries(game, techniques))
    return sentence(reason or "No Technique can be prepared now")


def _prepare_tries(game: Game, techniques: list[int]) -> Iterable[Action]:
    for uid in techniques:
        time = int(game.card(uid).time or 1)
        yield Action("prepare", card=uid, slot=time)
        yield Action("prepare", card=uid, slot=time + 1)


def _boost(game: Game, ch: CharacterState) -> str:
    name = _name(game, ch)
    prepared = [p for p in ch.time_track if p is not None]
    if not prepared:
        return (
            f"No Energy Technique is prepared on {name}'s Time Track: boosters go beneath "
            "a prepared Technique."
        )
    boosters = _hand(game, ch, lambda c: c.kind in ENERGY_KINDS and c.booster is not None)
    if not boosters:
        return (
            f"No Energy card in {name}'s hand has a booster effect (a Basic Energy card "
            "produces no effect as a booster)."
        )
    reason = _first_reason(
        game, (Action("boost", card=u, on=p.uid) for u in boosters for p in prepared)
    )
    return sentence(reason or "No boost is possible now")


def _play_energy(game: Game, ch: CharacterState) -> str:
    return f"There is no Energy card in {_name(game, ch)}'s hand."


def _buy(game: Game, ch: CharacterState) -> str:
    s = game.state
    rows = [(m, list(s.markets[m].row)) for m in s.markets]
    rows.append(("sixth", s.sixth[-1:]))
    reasons = [(game.check(Action("buy", card=u, market=m)), u, m) for m, row in rows for u in row]
    if not reasons:
        return "Every market is empty."
    costs = [
        cost
        for _, u, m in reasons
        if (cost := rules.buy_cost(game, ch, u, m)) is not None
        and getattr(game.card(u), "pay_with", "") != "dragon-balls"
        and not rules.can_buy_exclusive(rules.race_of(game, f"c:{ch.id}"), ch.id, game.card(u), m)
    ]
    if costs:
        cheapest = min(costs)
        energy = ch.energy
        text = (
            f"{_name(game, ch)} has {energy} Energy; the cheapest card {_name(game, ch)} may "
            f"buy costs {cheapest}."
        )
        if any(game.card(u).kind in ENERGY_KINDS for u in ch.hand):
            text += " Play Energy cards from the hand first."
        return text
    return sentence(next(r for r, _, _ in reasons if r))


def _buy_ball(game: Game, ch: CharacterState) -> str:
    reason = game.check(Action("buy-dragon-ball")) or ""
    if "unclaimed" in reason:
        return "No Dragon Ball is unclaimed: only an unclaimed Dragon Ball can be bought."
    if "per turn" in reason:
        return sentence(
            f"{reason} (a Character can only buy one unclaimed Dragon Ball per turn, "
            "two with the Dragon Radar)"
        )
    return sentence(reason or "No Dragon Ball can be bought now")


def _steal(game: Game, ch: CharacterState) -> str:
    villain = game.name(VILLAIN)
    if combat.side_balls(game, "villain") == 0:
        return (
            f"Neither {villain} nor the Minions control a Dragon Ball: a Steal takes "
            "Dragon Balls from the Villain or a Minion."
        )
    if ch.energy < 1:
        return (
            f"{_name(game, ch)} has no Energy to spend: each Steal die costs 1 Energy "
            "(play Energy cards first)."
        )
    return sentence(game.check(Action("steal", amount=1)) or "No Steal is possible now")


def _play(game: Game, ch: CharacterState) -> str:
    cards = _hand(game, ch, lambda c: c.kind in (*UNIT_KINDS, "capsule"))
    if not cards:
        return (
            f"There is no Ally, Equipment or Training card in {_name(game, ch)}'s hand to "
            "put into play."
        )
    reason = _first_reason(game, (Action("play", card=u) for u in cards))
    return sentence(reason or "No card can be put into play now")


def _exhaust(game: Game, ch: CharacterState) -> str:
    units = ch.units()
    if not units:
        return f"{_name(game, ch)} has no card in play to exhaust."
    reason = _first_reason(game, (Action("exhaust", card=u.uid) for u in units))
    if all(u.exhausted for u in units):
        return "Every card in play is exhausted: a card is readied at the start of its turn."
    return sentence(reason or "No card can be exhausted now")


def _destroy(game: Game, ch: CharacterState) -> str:
    units = ch.units()
    if not units:
        return f"{_name(game, ch)} has no card in play to destroy."
    reason = _first_reason(game, (Action("destroy", card=u.uid) for u in units))
    return sentence(reason or "No card in play has a destroy effect")


def _ability(game: Game, ch: CharacterState) -> str:
    return sentence(game.check(Action("ability")) or "No ability can be used now")


def _give_ball(game: Game, ch: CharacterState) -> str:
    name = _name(game, ch)
    own = [f"c:{ch.id}", *(f"a:{u.uid}" for u in ch.allies)]
    if not any(combat.balls_of(game, k) for k in own):
        return f"Neither {name} nor their Allies control a Dragon Ball to give."
    if ch.acted:
        return (
            f"Dragon Balls are given before the Actions phase: {name} has already acted this turn."
        )
    return "There is no other Character or Ally in play to give a Dragon Ball to."


def _market_discard(game: Game, ch: CharacterState) -> str:
    if ch.market_discarded:
        return "One market card may be discarded each turn, and one already was."
    if ch.acted:
        return (
            "A market card may be discarded only before the Actions phase: "
            f"{_name(game, ch)} has already acted this turn."
        )
    return "No market has a face-up card to discard."


def _avoid(game: Game, ch: CharacterState) -> str:
    prepared = [(p.uid, p.owner) for slot in game.state.villain.time_track for p in slot]
    if not prepared:
        return f"{game.name(VILLAIN)} has no attack prepared on the Time Track to avoid."
    reason = _first_reason(
        game,
        (
            Action("avoid", card=uid, source=f"e:{owner}" if owner else None)
            for uid, owner in prepared
        ),
    )
    return sentence(reason or "No prepared attack can be avoided now")


_REASONS: dict[str, Callable[[Game, CharacterState], str]] = {
    "attack": _attack,
    "prepare": _prepare,
    "boost": _boost,
    "play-energy": _play_energy,
    "buy": _buy,
    "buy-dragon-ball": _buy_ball,
    "steal": _steal,
    "play": _play,
    "exhaust": _exhaust,
    "destroy": _destroy,
    "ability": _ability,
    "give-ball": _give_ball,
    "market-discard": _market_discard,
    "avoid": _avoid,
    "end-turn": lambda game, ch: "The turn cannot end now.",
}


def why_none(game: Game, legal: Iterable[Action] | None = None) -> dict[str, str]:
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


def card_notes(game: Game, legal: Iterable[Action] | None = None) -> list[CardReason]:
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
            note(uid, "attack", _attack_card, game, ch, uid)
        elif _energy_technique(card):
            note(uid, "prepare", _first_reason, game, list(_prepare_tries(game, [uid])))
        elif card.kind in UNIT_KINDS:
            note(uid, "play", check, Action("play", card=uid))
        elif card.kind in ENERGY_KINDS:
            note(uid, "boost", _boost_card, game, ch, uid, prepared)
    for p in prepared:
        note(p.uid, "boost", _boost, game, ch)
    for unit in ch.units():
        note(unit.uid, "exhaust", check, Action("exhaust", card=unit.uid))
        note(unit.uid, "destroy", check, Action("destroy", card=unit.uid))
    for market in s.markets:
        for uid in s.markets[market].row:
            note(uid, "market-discard", _market_discard, game, ch)
    if not any(a.type == "attack" for a in actions):
        for unit in s.villain.minions:
            notes.append(CardReason(unit.uid, "attack", _attack(game, ch)))
    return [n for n in notes if n.reason]


def _attack_card(game: Game, ch: CharacterState, uid: int) -> str:
    targets = combat.enemies_of(game, "players") or [VILLAIN]
    reason = _first_reason(game, (Action("attack", cards=(uid,), target=t) for t in targets))
    if reason and "cannot be attacked" in reason:
        return _attack(game, ch)
    return reason or ""


def _boost_card(game: Game, ch: CharacterState, uid: int, prepared: list[Any]) -> str:
    if not prepared:
        return (
            f"No Energy Technique is prepared on {_name(game, ch)}'s Time Track: boosters go "
            "beneath a prepared Technique."
        )
    return _first_reason(game, (Action("boost", card=uid, on=p.uid) for p in prepared)) or ""
