"""Buy a card from a market row or the sixth pile ("Player Turn", 5 b: "Pay
the Energy point cost of a Market card … The Market automatically restocks
after a card is bought"), with Allies paid in Dragon Balls (rules notes N3, N34),
Duo cards bought with the other Characters' Energy (N33), and the God's and
the Monster's "can" (N37)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

from dbdeck.games.deckbuilding.cards.plain import Ally
from dbdeck.games.deckbuilding.engine import combat, rules
from dbdeck.games.deckbuilding.engine.actions import Action, Buy
from dbdeck.games.deckbuilding.engine.actions.base import (
    can_equip,
    market_row,
    own_balls,
    sentence,
    spendable,
)
from dbdeck.games.deckbuilding.engine.holders import AllyRef, CharacterRef, Holder
from dbdeck.games.deckbuilding.engine.rules import buy_cost, can_buy_exclusive
from dbdeck.games.deckbuilding.engine.state import CharacterState, Unit
from dbdeck.games.deckbuilding.engine.words import cannot_buy_there
from dbdeck.games.deckbuilding.engine.zones import ENERGY_KINDS, owner_of, restock

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

TYPE = "buy"
ACTS = True


def priced_out(card: Any, change: int | None, spendable: int) -> bool:
    """Whether ``check`` refuses a market card on its price alone: it
    may not be bought (``change`` is ``None``), or its cost (``buy_cost``:
    ``rules.priced`` with the market's ``rules.price_change``) is more than
    the Character can spend. Allies paid otherwise are never priced out."""
    if card.kind == "ally" and (card.pay_with == "dragon-balls" or card.duo):
        return False
    return change is None or spendable < rules.priced(card, change)


class RowTerms(NamedTuple):
    """What holds for every card of one market's row (``market_terms``)."""

    change: int | None
    """The Character's price change there (``rules.price_change``; none for
    the sixth pile, bought at its printed cost)."""
    spendable: int
    """The Energy the Character may spend there."""
    equips_at_once: bool
    """Whether a bought Training may be equipped at once: a God's, and only
    in the Training market (rules note N37)."""


def market_terms(g: Playing, ch: CharacterState, market: str) -> RowTerms:
    """The terms on which the Character buys from one market's row."""
    change = 0 if market == "sixth" else rules.price_change(g, ch, market)
    god = market == "training" and rules.race_of(g, CharacterRef(ch.id)) == "god"
    return RowTerms(change, spendable(ch, market), god)


def ally_out_of_reach(g: Playing, ch: CharacterState, uid: int, market: str, spend: int) -> bool:
    """Whether ``check`` refuses buying an Ally paid otherwise than in plain
    Energy, bought as it is (no Energy given by the others): one paid in
    Dragon Balls the Character's side controls too few of, a Duo costing
    more (less the Energy set beside it) than the Character can spend."""
    card = g.card_as(uid, Ally)
    if card.pay_with == "dragon-balls":
        return own_balls(g, ch) < card.printed_cost
    cost = buy_cost(g, ch, uid, market)
    return cost is None or spend < cost


def from_market(
    g: Playing, ch: CharacterState, market: str, uid: int, terms: RowTerms, out: list[Action]
) -> None:
    """Buying a face-up card: as it is, equipped at once (a God's Training),
    or a Duo with the other Characters' Energy; ``terms`` are the row's."""
    card = g.card(uid)
    # A card the Character could never pay for now is refused by check's
    # price test whatever else holds: not worth offering.
    if card.kind == "ally" and (card.pay_with == "dragon-balls" or card.duo):
        out_of_reach = ally_out_of_reach(g, ch, uid, market, terms.spendable)
    else:
        out_of_reach = priced_out(card, terms.change, terms.spendable)
    if not out_of_reach:
        out.append(Buy(market=market, card=uid))
        if terms.equips_at_once:
            out.append(Buy(market=market, card=uid, amount=1))
    if market == "allies" and card.kind == "ally" and card.duo:
        out.extend(duo_contributions(g, ch, uid))


def duo_contributions(g: Playing, ch: CharacterState, uid: int) -> Iterator[Action]:
    """The co-op Duo purchase: each other Character gives its best Energy card."""
    gifts = []
    for other in g.state.characters:
        if other is ch or not other.in_play():
            continue
        energy = [u for u in other.hand if g.card(u).kind in ENERGY_KINDS]
        if energy:
            gifts.append(max(energy, key=g.energy_value))
    if not gifts or g.card_as(uid, Ally).pay_with == "dragon-balls":
        return  # check refuses Energy given for an Ally paid in Dragon Balls
    # Nor is it offered when even with the gifts the price is out of reach.
    cost = buy_cost(g, ch, uid, "allies")
    if cost is None or spendable(ch, "allies") + sum(map(g.energy_value, gifts)) < cost:
        return
    yield Buy(market="allies", card=uid, cards=tuple(gifts))


def check(g: Playing, ch: CharacterState, a: Buy) -> str | None:
    """The card is face up, the Character may buy there, and can pay."""
    row = market_row(g, a.market)
    if row is None:
        return f"no market called {a.market!r}"
    if a.card not in row:
        return "that card is not face up in the market"
    card = g.card(a.card)
    market = a.market
    cost = buy_cost(g, ch, a.card, market)
    if cost is None:
        return cannot_buy_there(g.name(CharacterRef(ch.id)), market)
    special = card.kind == "ally" and (card.pay_with == "dragon-balls" or card.duo)
    if not special and spendable(ch, market) < cost:
        return f"{card.name} costs {cost} Energy; you have {spendable(ch, market)}"
    race = rules.race_of(g, CharacterRef(ch.id))
    why = can_buy_exclusive(race, ch.id, card, market)
    if why:
        return why
    if a.amount:
        if race != "god" or card.kind != "training":
            return "only a God equips a Training at once when buying it"
        why = can_equip(g, ch, card, set())
        if why:
            return why
    if card.kind == "ally" and card.pay_with == "dragon-balls":
        owned = own_balls(g, ch)
        if owned < card.printed_cost:
            return f"{card.name} costs {card.cost} Dragon Balls; you control {owned}"
        # Paid in Dragon Balls (rules note N3), not in Energy: only a Duo card
        # takes Energy from the other Characters (N33).
        return "only Duo cards take Energy from the other Characters" if a.cards else None
    contributed = 0
    if a.cards:
        if not (card.kind == "ally" and card.duo):
            return "only Duo cards take Energy from the other Characters"
        givers = set()
        for uid in a.cards:
            found = owner_of(g, uid)
            if found is None or found[1] != "hand" or found[0] is ch or not found[0].in_play():
                return "contributions are Energy cards from other Characters' hands"
            if g.card(uid).kind not in ENERGY_KINDS or found[0].id in givers:
                return "each other Character may contribute one Energy card"
            givers.add(found[0].id)
            contributed += g.energy_value(uid)
    if spendable(ch, market) + contributed < cost:
        return f"{card.name} costs {cost} Energy; you have {spendable(ch, market) + contributed}"
    return None


def _pay(ch: CharacterState, cost: int, market: str | None) -> None:
    if market == "training":
        from_training = min(ch.training_energy, cost)
        ch.training_energy -= from_training
        cost -= from_training
    ch.energy -= cost


def perform(g: Playing, ch: CharacterState, a: Buy) -> None:
    """Pay, take the card from its row (the row restocks) and put it where
    the Character's race says: the discard pile, the hand or into play."""
    s = g.state
    card = g.card(a.card)
    cost = buy_cost(g, ch, a.card, a.market) or 0
    if card.kind == "ally" and card.pay_with == "dragon-balls":
        keys: list[Holder] = [CharacterRef(ch.id), *(AllyRef(u.uid) for u in ch.allies)]
        left = card.printed_cost
        for key in keys:
            left -= combat.give_balls(g, key, None, left)
        g.log("balls", "{} gives up {} Dragon Balls.", CharacterRef(ch.id), card.printed_cost)
    else:
        for uid in a.cards:
            found = owner_of(g, uid)
            assert found is not None
            found[0].hand.remove(uid)
            s.box.append(uid)
            cost -= g.energy_value(uid)
        _pay(ch, max(0, cost), a.market)
    if a.market == "sixth":
        s.sixth.pop()
    else:
        s.markets[a.market].row.remove(a.card)
        restock(g, a.market)
    for uid in ch.duo_energy.pop(a.card, []):
        s.box.append(uid)
    g.log("buy", "{} buys {}.", CharacterRef(ch.id), card.name, card=card.id, market=a.market)
    race = rules.race_of(g, CharacterRef(ch.id))
    if a.amount and race == "god" and card.kind == "training":
        ch.training.append(Unit(a.card))
        g.log("play", "{} equips {} at once (God).", CharacterRef(ch.id), card.name)
    elif race == "monster" and card.kind == "technique":
        ch.hand.append(a.card)
        g.log("buy", "{} may use {} at once (Monster).", CharacterRef(ch.id), card.name)
    else:
        ch.discard.append(a.card)


def label(game: Playing, action: Buy) -> str:
    """The action in plain words, e.g. "Buy Sokidan (3 Energy)"."""
    s = game.state
    active = s.character(s.active) if s.active not in ("", "villain") else None
    assert active is not None
    cost = rules.buy_cost(game, active, action.card, action.market)
    what = game.card(action.card)
    price = (
        f"{what.printed_cost} Dragon Balls"
        if getattr(what, "pay_with", "") == "dragon-balls"
        else f"{cost} Energy"
    )
    extra = ""
    if action.cards:
        # Name who gives, not what: the cards come from other hands.
        givers = [_hand_of(game, u) for u in action.cards]
        extra = " with an Energy card from " + ", ".join(givers)
    if action.amount:
        extra += ", equipped at once"
    return f"Buy {game.name(action.card)} ({price}){extra}"


def _hand_of(game: Playing, uid: int) -> str:
    """The Character in whose hand a card is."""
    for ch in game.state.characters:
        if uid in ch.hand:
            return game.name(CharacterRef(ch.id))
    return "another Character"


def why_none(game: Playing, ch: CharacterState) -> str:
    """Why no card can be bought: the cheapest price against the Energy, or
    the first card's reason."""
    s = game.state
    rows = [(m, list(s.markets[m].row)) for m in s.markets]
    rows.append(("sixth", s.sixth[-1:]))
    reasons = [(game.check(Buy(card=u, market=m)), u, m) for m, row in rows for u in row]
    if not reasons:
        return "Every market is empty."
    costs = [
        cost
        for _, u, m in reasons
        if (cost := rules.buy_cost(game, ch, u, m)) is not None
        and getattr(game.card(u), "pay_with", "") != "dragon-balls"
        and not rules.can_buy_exclusive(
            rules.race_of(game, CharacterRef(ch.id)), ch.id, game.card(u), m
        )
    ]
    name = game.name(CharacterRef(ch.id))
    if costs:
        cheapest = min(costs)
        energy = ch.energy
        text = f"{name} has {energy} Energy; the cheapest card {name} may buy costs {cheapest}."
        if any(game.card(u).kind in ENERGY_KINDS for u in ch.hand):
            text += " Play Energy cards from the hand first."
        return text
    return sentence(next(r for r, _, _ in reasons if r))
