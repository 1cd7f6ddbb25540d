"""Every action type's module, and the one listing of legal actions.

``check`` is the single source of legality: ``legal`` enumerates candidate
actions and keeps those ``check`` accepts, so the offered actions and the
accepted ones can never drift apart. The candidates come in the order of a
turn's table: ending the turn; each card of the hand (played for Energy,
as a booster, beside a Duo card, into play, prepared); the attacks; each
face-up market card (bought, discarded); the Dragon Ball; the Steals; each
card in play (exhausted, destroyed); the ability; the Villain's prepared
attacks; the Dragon Balls given; the Room; the Villain's own action.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from dbdeck.games.deckbuilding.engine.actions import (
    Action,
    ability,
    attack,
    avoid,
    boost,
    buy,
    buy_dragon_ball,
    destroy,
    duo_invest,
    end_turn,
    enter_room,
    exhaust,
    give_ball,
    market_discard,
    play,
    play_energy,
    prepare,
    steal,
    villain_action,
)
from dbdeck.games.deckbuilding.engine.actions.base import ActionRules, active, market_row
from dbdeck.games.deckbuilding.engine.state import CharacterState
from dbdeck.games.deckbuilding.engine.zones import MARKETS

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

__all__ = ["RULES", "best_first", "check", "label", "legal", "perform"]

RULES: dict[str, ActionRules[Any]] = {
    end_turn.TYPE: end_turn,
    play_energy.TYPE: play_energy,
    boost.TYPE: boost,
    duo_invest.TYPE: duo_invest,
    play.TYPE: play,
    prepare.TYPE: prepare,
    attack.TYPE: attack,
    buy.TYPE: buy,
    market_discard.TYPE: market_discard,
    buy_dragon_ball.TYPE: buy_dragon_ball,
    steal.TYPE: steal,
    exhaust.TYPE: exhaust,
    destroy.TYPE: destroy,
    ability.TYPE: ability,
    avoid.TYPE: avoid,
    give_ball.TYPE: give_ball,
    enter_room.TYPE: enter_room,
    villain_action.TYPE: villain_action,
}
"""Each action type's rules, by type (``Action.type``), in the order the
listing first offers them (``candidates`` interleaves them card by card);
``choose`` answers a decision and is the ``Game``'s own. One entry per module,
so that mypy checks each module against ``ActionRules``."""


def check(g: Playing, action: Action) -> str | None:
    """Why an action is illegal now, or ``None``."""
    ch = active(g)
    if ch is None:
        return "it is not a Character's Actions phase"
    rules = RULES.get(action.type)
    if rules is None:
        return f"unknown action {action.type!r}"
    return rules.check(g, ch, action)


def candidates(g: Playing, ch: CharacterState) -> list[Action]:
    """Every action the listing considers, in its order (see the module's
    docstring); those ``check`` would refuse whatever else holds (cards the
    Character cannot pay for, market discards after acting, …) are left out."""
    out: list[Action] = []
    _before_rows(g, ch, out)
    _rows(g, ch, out)
    _after_rows(g, ch, out)
    return out


# The listing is built into one list by plain calls (a generator per card and
# action type cost more than all the rest), in three parts so that
# ``best_first`` may leave the market rows out.


def _before_rows(g: Playing, ch: CharacterState, out: list[Action]) -> None:
    """Ending the turn, each card of the hand, the attacks."""
    out.extend(end_turn.candidates(g, ch))
    for uid in ch.hand:
        card = g.card(uid)
        for offer in _FROM_HAND.get(card.kind, ()):
            offer(g, ch, uid, card, out)
    out.extend(attack.candidates(g, ch))


def _rows(g: Playing, ch: CharacterState, out: list[Action]) -> None:
    """Each face-up market card, bought or discarded (the only ``buy`` and
    ``market-discard`` candidates)."""
    for market in _MARKETS:
        row = market_row(g, market)
        if not row:
            continue
        terms = buy.market_terms(g, ch, market)
        discard = market_discard.offered(ch, market)
        for uid in row:
            buy.from_market(g, ch, market, uid, terms, out)
            if discard:
                out.append(market_discard.of_card(market, uid))


def _after_rows(g: Playing, ch: CharacterState, out: list[Action]) -> None:
    """The Dragon Ball, the Steals, each card in play, the ability, the
    Villain's prepared attacks, the balls given, the Room, the Villain's own
    action."""
    out.extend(buy_dragon_ball.candidates(g, ch))
    out.extend(steal.candidates(g, ch))
    for unit in ch.units():
        exhaust.of_unit(g, ch, unit, out)
        destroy.of_unit(g, ch, unit, out)
    out.extend(ability.candidates(g, ch))
    out.extend(avoid.candidates(g, ch))
    out.extend(give_ball.candidates(g, ch))
    out.extend(enter_room.candidates(g, ch))
    out.extend(villain_action.candidates(g, ch))


_HAND_MODULES = (play_energy, boost, duo_invest, play, prepare)
"""The action types offered for a card of the hand, in the listing's order."""
_FROM_HAND: dict[
    str, tuple[Callable[[Playing, CharacterState, int, Any, list[Action]], None], ...]
] = {
    kind: tuple(m.from_hand for m in _HAND_MODULES if kind in m.HAND_KINDS)
    for kind in {kind for m in _HAND_MODULES for kind in m.HAND_KINDS}
}
"""By a hand card's kind, the ``from_hand`` of each type that may offer
something for it (its ``HAND_KINDS``), in the listing's order."""
_MARKETS = (*MARKETS, "sixth")
"""The rows the listing walks, in its order: the five markets, the sixth pile."""


def legal(g: Playing) -> list[Action]:
    """Every legal action of the active Character."""
    ch = active(g)
    if ch is None:
        return []
    return [a for a in candidates(g, ch) if RULES[a.type].check(g, ch, a) is None]


def best_first(
    g: Playing,
    score: Callable[[Action], float],
    beats_rows: Callable[[float], bool] | None = None,
) -> Action | None:
    """The legal action ``score`` rates highest, the first listed among equal
    ones: what ``max`` over ``legal`` picks, found by asking ``check`` about
    the candidates best-first and stopping at the first it accepts (most
    refusals are never asked for). ``None`` when nothing is legal.

    ``beats_rows``, when given, says whether a score beats every ``buy`` and
    ``market-discard`` (asked once the rest is ranked): the market rows are
    then walked only when the best other legal action does not."""
    ch = active(g)
    if ch is None:
        return None
    if beats_rows is None:
        found = candidates(g, ch)
        return _best(g, ch, found, score)[0]
    # The listing without its middle, the rows: the first ``len_before``
    # candidates come before the rows, the rest after them.
    off_rows: list[Action] = []
    _before_rows(g, ch, off_rows)
    len_before = len(off_rows)
    _after_rows(g, ch, off_rows)
    best, best_score, at = _best(g, ch, off_rows, score)
    if best is not None and beats_rows(best_score):
        return best
    rows: list[Action] = []
    _rows(g, ch, rows)
    bought, bought_score, _ = _best(g, ch, rows, score)
    if bought is None:
        return best
    if best is None or bought_score > best_score:
        return bought
    # Equal scores: the one listed first, and the rows come between the parts.
    return bought if bought_score == best_score and at >= len_before else best


def _best(
    g: Playing, ch: CharacterState, found: list[Action], score: Callable[[Action], float]
) -> tuple[Action | None, float, int]:
    """The legal action of ``found`` that ``score`` rates highest (the first
    among equals), its score and its index; ``None`` when none is legal."""
    scores = [score(a) for a in found]
    # A stable sort keeps equal scores in listing order, reversed or not.
    for i in sorted(range(len(found)), key=scores.__getitem__, reverse=True):
        a = found[i]
        if RULES[a.type].check(g, ch, a) is None:
            return a, scores[i], i
    return None, 0.0, -1


def perform(g: Playing, a: Action) -> None:
    """Carry out a legal action."""
    s = g.state
    ch = s.character(s.active)
    rules = RULES[a.type]
    if rules.ACTS:
        ch.acted = True
    rules.perform(g, ch, a)


def label(game: Playing, action: Action) -> str:
    """One action in plain words, e.g. "Buy Sokidan (3 Energy)"."""
    rules = RULES.get(action.type)
    return action.type if rules is None else rules.label(game, action)
