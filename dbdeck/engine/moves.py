"""The active Character's actions: which are legal, why others are not, and
what each does. Also the card movements they share (draw, restock, …).

``check`` is the single source of legality: ``legal`` enumerates candidate
actions and keeps those ``check`` accepts, so the offered actions and the
accepted ones can never drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations
from typing import TYPE_CHECKING, Any

from dbdeck.engine import combat, rules, words
from dbdeck.engine.actions import Action
from dbdeck.engine.rules import buy_cost, can_buy_exclusive, can_use_exclusive, limit
from dbdeck.engine.state import CharacterState, Unit

if TYPE_CHECKING:
    from dbdeck.engine.game import Game

__all__ = ["check", "draw", "legal", "perform", "restock"]

MARKETS = ("allies", "techniques", "energy", "equipment", "training")
ENERGY_KINDS = ("energy", "concentrated-energy")
MAX_STEAL_DICE = 7


# --- card movements ------------------------------------------------------------------


def units_list(ch: CharacterState, kind: str) -> list[Unit]:
    """The Character's Allies, Equipment or Training in play."""
    return rules.units_of(ch, kind)


def draw(g: Game, ch: CharacterState, count: int) -> int:
    """Draw cards; the discard pile is reshuffled when the deck runs out."""
    drawn = 0
    for _ in range(count):
        if not ch.deck:
            if not ch.discard:
                break
            ch.deck = ch.discard
            ch.discard = []
            g.rng.shuffle(ch.deck)
            g.log("shuffle", f"{g.name('c:' + ch.id)} shuffles the discard pile into a new deck.")
        ch.hand.append(ch.deck.pop())
        drawn += 1
    if drawn:
        g.log(
            "draw",
            f"{g.name('c:' + ch.id)} draws {words.count(drawn, 'card')}.",
            private_to=ch.id,
            character=ch.id,
            count=drawn,
        )
    return drawn


def hand_limit(g: Game, ch: CharacterState) -> int:
    """The hand size a Character draws back up to."""
    return rules.hand_size(g, ch)


def restock(g: Game, market: str) -> None:
    """Refill a market row to four face-up cards."""
    m = g.state.markets[market]
    while len(m.row) < 4 and m.deck:
        m.row.append(m.deck.pop())


def remove_from_market(g: Game, market: str, count: int) -> None:
    """Remove cards from the top of a market deck to the box."""
    m = g.state.markets[market]
    for _ in range(min(count, len(m.deck))):
        g.state.box.append(m.deck.pop())
    g.log("market", f"{words.count(count, 'card')} leave the {market} deck.")


def kind_matches(g: Game, uid: int, kind: str) -> bool:
    """Whether a card is of a kind filter of the effect operations."""
    card = g.card(uid)
    if kind == "any":
        return True
    if kind in ("energy-technique", "physical-technique"):
        return bool(card.kind == "technique" and card.technique_type == kind.split("-")[0])
    if kind == "energy":
        return bool(card.kind in ENERGY_KINDS)
    return bool(card.kind == kind)


def owner_of(g: Game, uid: int) -> tuple[CharacterState, str] | None:
    """Which Character holds a card, and where."""
    for ch in g.state.characters:
        for pile in ("hand", "deck", "discard", "played"):
            if uid in getattr(ch, pile):
                return ch, pile
        for kind in ("ally", "equipment", "training"):
            if any(u.uid == uid for u in units_list(ch, kind)):
                return ch, kind
        if any(p is not None and p.uid == uid for p in ch.time_track):
            return ch, "time-track"
    return None


def remove_card(g: Game, uid: int, *, to_box: bool, owner: CharacterState | None = None) -> None:
    """Discard (to the discard pile) or destroy (to the box) a Character's card."""
    found = owner_of(g, uid)
    if found is None:
        return
    ch, where = found
    followers: list[int] = []
    if where == "time-track":
        slot = next(i for i, p in enumerate(ch.time_track) if p is not None and p.uid == uid)
        prepared = ch.time_track[slot]
        assert prepared is not None
        ch.time_track[slot] = None
        followers = prepared.boosters  # the boosters follow their Technique to the discard
    elif where in ("ally", "equipment", "training"):
        units = units_list(ch, where)
        units.remove(next(u for u in units if u.uid == uid))
        if where == "ally":
            combat.give_balls(g, f"a:{uid}", f"c:{ch.id}", 7)
    else:
        getattr(ch, where).remove(uid)
    (g.state.box if to_box else ch.discard).append(uid)
    ch.discard += followers
    verb = "destroys" if to_box else "discards"
    g.log("destroy" if to_box else "discard", f"{g.name('c:' + ch.id)} {verb} {g.name(uid)}.")


def pile_candidates(
    g: Game, ch: CharacterState, source: str, kind: str, *, voluntary: bool
) -> list[int]:
    """Cards a discard or destroy operation may pick. Starting cards are only
    picked when the player chooses to ("Destroying Cards")."""
    if source in ("hand", "random-from-hand"):
        pool = list(ch.hand)
    elif source == "in-play":
        # Prepared Techniques are in play too, on the Time Track.
        pool = [u.uid for u in ch.units()] + [p.uid for p in ch.time_track if p is not None]
    elif source == "discard-pile":
        pool = list(ch.discard)
    elif source == "deck":
        pool = list(ch.deck)
    else:
        pool = []
    return [
        u
        for u in pool
        if kind_matches(g, u, kind) and (voluntary or not g.card(u).__dict__.get("starting"))
    ]


def search_candidates(g: Game, ch: CharacterState, source: str, kind: str) -> list[int]:
    """Cards a search may find."""
    if source == "market":
        pool = [u for m in MARKETS for u in g.state.markets[m].row]
    else:
        pool = list(ch.deck if source == "deck" else ch.discard)
    return [u for u in pool if kind_matches(g, u, kind)]


def take_searched(g: Game, ch: CharacterState, uid: int, source: str, destination: str) -> None:
    """Move a searched card to its destination."""
    if source == "market":
        for market in MARKETS:
            if uid in g.state.markets[market].row:
                g.state.markets[market].row.remove(uid)
                restock(g, market)
    else:
        (ch.deck if source == "deck" else ch.discard).remove(uid)
        if source == "deck":
            g.rng.shuffle(ch.deck)
    if destination == "hand":
        ch.hand.append(uid)
    elif destination == "in-play" and g.card(uid).kind in ("ally", "equipment", "training"):
        units_list(ch, g.card(uid).kind).append(Unit(uid))
    else:
        ch.discard.append(uid)
    g.log("search", f"{g.name('c:' + ch.id)} takes {g.name(uid)}.")


def summon(g: Game, card_id: str, count: int) -> None:
    """Put Minions into play from their side deck (or new copies)."""
    s = g.state
    side = s.villain.side_decks.get(card_id)
    for _ in range(count):
        if side is not None:
            if not side:
                break
            uid = side.pop()
        else:
            uid = g.new_uid(card_id)
        # A Minion that arrives once the Minion activation phase has begun
        # waits for the next Villain turn; one that arrives earlier (or on a
        # Character's turn) activates at the next Minion activation phase.
        late = s.active == "villain" and s.step in ("villain_reveal", "villain_ready")
        s.villain.minions.append(Unit(uid, exhausted=late))
        g.log("summon", f"{g.name(uid)} enters play.")


# --- legality -------------------------------------------------------------------------------


def _active(g: Game) -> CharacterState | None:
    s = g.state
    if s.step != "char_main" or s.active in ("", "villain"):
        return None
    return s.character(s.active)


def _in_hand(ch: CharacterState, uid: int | None) -> bool:
    return uid is not None and uid in ch.hand


def _market_row(g: Game, market: str | None) -> list[int] | None:
    if market == "sixth":
        return g.state.sixth[-1:]
    if market in g.state.markets:
        return g.state.markets[market].row
    return None


def _spendable(ch: CharacterState, market: str | None) -> int:
    return ch.energy + (ch.training_energy if market == "training" else 0)


def _priced_out(card: Any, change: int | None, spendable: int) -> bool:
    """Whether ``_check_buy`` refuses a market card on its price alone: it
    may not be bought (``change`` is ``None``), or its cost (``buy_cost``:
    ``rules.priced`` with the market's ``rules.price_change``) is more than
    the Character can spend. Allies paid otherwise are never priced out."""
    if card.kind == "ally" and (card.pay_with == "dragon-balls" or card.duo):
        return False
    return change is None or spendable < rules.priced(card, change)


def _check_buy(g: Game, ch: CharacterState, a: Action) -> str | None:
    row = _market_row(g, a.market)
    if row is None:
        return f"no market called {a.market!r}"
    if a.card not in row:
        return "that card is not face up in the market"
    card = g.card(a.card)
    market = a.market or ""
    cost = buy_cost(g, ch, a.card, market)
    if cost is None:
        return f"{g.name('c:' + ch.id)} cannot buy {market}"
    special = card.kind == "ally" and (card.pay_with == "dragon-balls" or card.duo)
    if not special and _spendable(ch, market) < cost:
        return f"{card.name} costs {cost} Energy; you have {_spendable(ch, market)}"
    race = rules.race_of(g, f"c:{ch.id}")
    why = can_buy_exclusive(race, ch.id, card, market)
    if why:
        return why
    if a.amount:
        if race != "god" or card.kind != "training":
            return "only a God equips a Training at once when buying it"
        why = _can_equip(g, ch, card, set())
        if why:
            return why
    if card.kind == "ally" and card.pay_with == "dragon-balls":
        owned = _own_balls(g, ch)
        if owned < int(card.cost):
            return f"{card.name} costs {card.cost} Dragon Balls; you control {owned}"
        return None
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
    if _spendable(ch, market) + contributed < cost:
        return f"{card.name} costs {cost} Energy; you have {_spendable(ch, market) + contributed}"
    return None


def _own_balls(g: Game, ch: CharacterState) -> int:
    keys = {f"c:{ch.id}", *(f"a:{u.uid}" for u in ch.allies)}
    return sum(1 for holder in g.state.balls if holder in keys)


def _check_play(g: Game, ch: CharacterState, a: Action) -> str | None:
    if not _in_hand(ch, a.card):
        return "that card is not in your hand"
    assert a.card is not None
    card = g.card(a.card)
    if card.kind == "capsule":
        return None
    return _can_equip(g, ch, card, set(a.cards))


def _can_equip(g: Game, ch: CharacterState, card: Any, leaving: set[int]) -> str | None:
    """Why a Character may not put this Ally, Equipment or Training into play,
    destroying ``leaving`` to make room; ``None`` when it may."""
    if card.kind not in ("ally", "equipment", "training"):
        return f"{card.name} is not an Ally, Equipment or Training"
    race = rules.race_of(g, f"c:{ch.id}")
    why = can_use_exclusive(race, ch.id, card)
    if why:
        return why
    from dbdeck.engine.effects import condition_holds

    for condition in card.__dict__.get("requirements", ()):
        if not condition_holds(g, condition, {"actor": f"c:{ch.id}"}):
            return f"{card.name}'s requirement is not met"
    units = units_list(ch, card.kind)
    if not leaving <= {u.uid for u in units}:
        return "you can only destroy your own cards of the same kind to make room"
    if len(leaving) > 1:
        return "destroy one card to make room"
    # A new Armor discards the one equipped: that one frees its place before
    # the limit is counted (rules note N23).
    going = leaving | replaced_armor(g, ch, card)
    if card.kind != "ally" and any(
        g.card(u.uid).name == card.name and u.uid not in going for u in units
    ):
        return f"you already have a {card.name} in play"
    if len(units) - len(going) >= limit(race, card.kind):
        return (
            f"you have {len(units)} {card.kind} in play (limit {limit(race, card.kind)}): "
            "destroy one to make room"
        )
    return None


def replaced_armor(g: Game, ch: CharacterState, card: Any) -> set[int]:
    """The equipped Armor a new Armor would discard ("If you already have an
    Armor equipped, it must be discarded to equip the new Armor")."""
    if card.kind != "equipment" or "armor" not in card.keywords:
        return set()
    return {u.uid for u in ch.equipment if "armor" in g.card(u.uid).keywords}


def _physical(g: Game, uid: int) -> bool:
    card = g.card(uid)
    return bool(card.kind == "technique" and card.technique_type == "physical")


def _check_attack(g: Game, ch: CharacterState, a: Action) -> str | None:
    if not a.cards:
        return "choose the Physical Techniques to attack with"
    if len(set(a.cards)) != len(a.cards) or not all(_in_hand(ch, u) for u in a.cards):
        return "the Techniques must be in your hand"
    if not all(_physical(g, u) for u in a.cards):
        return "only Physical Techniques form an attack or a Combo"
    race = rules.race_of(g, f"c:{ch.id}")
    for uid in a.cards:
        why = can_use_exclusive(race, ch.id, g.card(uid))
        if why:
            return why
    healing = [g.card(u).healing for u in a.cards]
    if any(healing) and len(a.cards) > 1:
        return "a healing Technique is used alone"
    side = "villain" if healing[0] else "players"
    targets = (
        combat.enemies_of(g, "players") if side == "players" else combat.friends_of(g, "players")
    )
    if a.target not in targets:
        if side == "players" and not targets:
            return f"{g.name('v')} cannot be attacked yet"
        return "choose a target in play"
    return None


def _check_prepare(g: Game, ch: CharacterState, a: Action) -> str | None:
    if not _in_hand(ch, a.card):
        return "that card is not in your hand"
    assert a.card is not None
    card = g.card(a.card)
    if card.kind != "technique" or card.technique_type != "energy":
        return f"{card.name} is not an Energy Technique"
    why = can_use_exclusive(rules.race_of(g, f"c:{ch.id}"), ch.id, card)
    if why:
        return why
    time = int(card.time or 1)
    if a.amount:
        if rules.race_of(g, f"c:{ch.id}") != "namekian":
            return "only Namekians may pay to cut a Technique's Time"
        if time < 2:
            return "the Time cannot go below 1"
        if ch.energy < 2:
            return "cutting the Time costs 2 Energy"
        time -= 1
    # The printed slot, or one later when it is taken — never two later.
    free = [slot for slot in (time, time + 1) if slot <= 4 and ch.time_track[slot - 1] is None]
    if not free:
        return (
            f"Time slots {time} and {time + 1} are taken (a Technique may move at most "
            "one slot later)"
        )
    if a.slot != free[0]:
        return f"{card.name} goes in Time slot {free[0]}"
    return None


def _check_boost(g: Game, ch: CharacterState, a: Action) -> str | None:
    if not _in_hand(ch, a.card):
        return "that card is not in your hand"
    assert a.card is not None
    card = g.card(a.card)
    if card.kind not in ENERGY_KINDS or card.booster is None:
        return f"{card.name} has no booster icon"
    prepared = next((p for p in ch.time_track if p is not None and p.uid == a.on), None)
    if prepared is None:
        return "boost a Technique prepared on your Time Track"
    if len(prepared.boosters) >= g.card(prepared.uid).max_boosters:
        most = words.count(g.card(prepared.uid).max_boosters, "booster")
        return f"{g.name(prepared.uid)} takes at most {most}"
    return None


def _check_exhaust(g: Game, ch: CharacterState, a: Action) -> str | None:
    unit = next((u for u in ch.units() if u.uid == a.card), None)
    if unit is None:
        return "that card is not in play beside your board"
    card = g.card(unit.uid)
    if unit.exhausted:
        return f"{card.name} is exhausted"
    effects = card.__dict__.get("exhaust_effects") or []
    if not effects and "search" not in card.__dict__.get("keywords", ()):
        if card.__dict__.get("rule") == "room-of-spirit-and-time":
            return "use the enter-room action"
        return f"{card.name} has no exhaust effect"
    return _affordable(g, ch, effects)


def _check_destroy(g: Game, ch: CharacterState, a: Action) -> str | None:
    unit = next((u for u in ch.units() if u.uid == a.card), None)
    if unit is None:
        return "that card is not in play beside your board"
    card = g.card(unit.uid)
    effects = card.__dict__.get("destroy_effects") or []
    if not effects:
        return f"{card.name} has no destroy effect"
    return _affordable(g, ch, effects)


def _affordable(g: Game, ch: CharacterState, ops: Any) -> str | None:
    from dbdeck.cards import effects as fx

    for op in ops:
        if isinstance(op, fx.PayEnergy) and ch.energy < op.amount:
            return f"it costs {op.amount} Energy; you have {ch.energy}"
        if isinstance(op, (fx.Discard, fx.Destroy)) and op.source != "this-card":
            found = pile_candidates(g, ch, op.source, op.card_kind, voluntary=True)
            if len(found) < op.count:
                return f"you need {words.count(op.count, op.card_kind + ' card')} to pay for it"
    return None


def _check_ability(g: Game, ch: CharacterState, a: Action) -> str | None:
    ability = g.card(ch.id).special_ability
    if ability is None or ability.trigger != "action":
        return "this Character has no special ability to use as an action"
    if ch.ability_used:
        return f"{ability.name} has already been used this turn"
    if ability.uses != "passive" and ch.ability_tokens <= 0:
        return f"{ability.name} has no special-ability tokens left"
    return _affordable(g, ch, ability.cost)


def _meant(a: Action, prepared: Any) -> bool:
    """Whether an ``avoid`` action means this prepared attack: its card, and
    for one enemy's half of a split card, that enemy (``source``)."""
    return bool(prepared.uid == a.card and a.source in (None, f"e:{prepared.owner}"))


def _check_avoid(g: Game, ch: CharacterState, a: Action) -> str | None:
    for slot in g.state.villain.time_track:
        for prepared in slot:
            if _meant(a, prepared):
                avoid = g.hooks.attack_body(g, prepared).avoid
                if avoid is None:
                    return f"{g.name(prepared.uid)} cannot be avoided"
                from dbdeck.cards import effects as fx

                for op in avoid.cost:
                    if (
                        isinstance(op, (fx.Discard, fx.Destroy))
                        and op.source == "in-play"
                        and not pile_candidates(g, ch, "in-play", op.card_kind, voluntary=True)
                    ):
                        return f"you need a {op.card_kind} in play to avoid it"
                return _affordable(g, ch, avoid.cost)
    return "that attack is not on the Villain's Time Track"


def _check_give(g: Game, ch: CharacterState, a: Action) -> str | None:
    if ch.acted:
        return "Dragon Balls are given before the Actions phase"
    own = {f"c:{ch.id}", *(f"a:{u.uid}" for u in ch.allies)}
    if a.source not in own or combat.balls_of(g, a.source) == 0:
        return "give a Dragon Ball your Character or one of its Allies controls"
    if a.target == a.source or a.target not in combat.enemies_of(g, "villain"):
        return "give it to a Character or Ally in play"
    return None


def _check_steal(g: Game, ch: CharacterState, a: Action) -> str | None:
    dice = a.amount or 0
    if not 1 <= dice <= MAX_STEAL_DICE:
        return f"roll 1 to {MAX_STEAL_DICE} Steal dice"
    if ch.energy < dice:
        verb = "costs" if dice == 1 else "cost"
        return f"{words.count(dice, 'die')} {verb} {dice} Energy; you have {ch.energy}"
    if combat.side_balls(g, "villain") == 0:
        return "neither the Villain nor its Minions control a Dragon Ball"
    if a.target is not None and a.target not in combat.steal_sources(g):
        return "steal from the Villain or a Minion that controls a Dragon Ball"
    return None


def _check_buy_ball(g: Game, ch: CharacterState, a: Action) -> str | None:
    if "" not in g.state.balls:
        return "no Dragon Ball is unclaimed"
    allowed = 1 + rules.card_bonus(g, ch, "extra-dragon-ball")
    if ch.dragon_balls_bought >= allowed:
        return f"you may buy {words.count(allowed, 'Dragon Ball')} per turn"
    cost = max(0, g.card(ch.id).dragon_ball_cost + rules.cost_bonus(g, ch, "dragon-ball"))
    if ch.energy < cost:
        return f"a Dragon Ball costs {cost} Energy; you have {ch.energy}"
    return None


def _market_discard_over(ch: CharacterState) -> str | None:
    """Why the Market discard (phase 3) is over this turn, or ``None``."""
    if ch.acted or ch.market_discarded:
        return "one market card may be discarded, before the Actions phase"
    if ch.balls_given:
        # Phase 3 comes before phase 4 (rules note N46).
        return "a market card is discarded before any Dragon Ball is given (phases 3 and 4)"
    return None


def _check_market_discard(g: Game, ch: CharacterState, a: Action) -> str | None:
    over = _market_discard_over(ch)
    if over is not None:
        return over
    if a.market not in g.state.markets or a.card not in g.state.markets[a.market].row:
        return "choose a face-up card of one of the five markets"
    return None


def _check_duo(g: Game, ch: CharacterState, a: Action) -> str | None:
    if len(g.state.characters) != 1:
        return "Energy is set beside a Duo card only when playing solo"
    if a.card is None or not _in_hand(ch, a.card) or g.card(a.card).kind not in ENERGY_KINDS:
        return "set an Energy card from your hand"
    row = g.state.markets["allies"].row
    if a.on not in row or not g.card(a.on).duo:
        return "choose a Duo card of the Ally Market"
    if ch.duo_invested:
        return "one Energy card per turn goes beside a Duo card"
    return None


def _check_room(g: Game, ch: CharacterState, a: Action) -> str | None:
    if ch.acted:
        return "the Room is entered instead of the Actions phase"
    room = next(
        (u for u in ch.training if g.card(u.uid).__dict__.get("rule") == "room-of-spirit-and-time"),
        None,
    )
    if room is None:
        return "you need the Room of Spirit and Time in play"
    return None


_CHECKS: dict[str, Callable[[Game, CharacterState, Action], str | None]] = {
    "play-energy": lambda g, ch, a: (
        None
        if a.card is not None and _in_hand(ch, a.card) and g.card(a.card).kind in ENERGY_KINDS
        else "play an Energy card from your hand"
    ),
    "buy": _check_buy,
    "buy-dragon-ball": _check_buy_ball,
    "steal": _check_steal,
    "play": _check_play,
    "attack": _check_attack,
    "prepare": _check_prepare,
    "boost": _check_boost,
    "exhaust": _check_exhaust,
    "destroy": _check_destroy,
    "ability": _check_ability,
    "avoid": _check_avoid,
    "market-discard": _check_market_discard,
    "give-ball": _check_give,
    "duo-invest": _check_duo,
    "enter-room": _check_room,
    "villain-action": lambda g, ch, a: g.hooks.villain_action(g, ch)[1],
    "end-turn": lambda g, ch, a: None,
}


def check(g: Game, action: Action) -> str | None:
    """Why an action is illegal now, or ``None``."""
    ch = _active(g)
    if ch is None:
        return "it is not a Character's Actions phase"
    checker = _CHECKS.get(action.type)
    if checker is None:
        return f"unknown action {action.type!r}"
    return checker(g, ch, action)


def _candidates(g: Game, ch: CharacterState) -> Iterator[Action]:
    s = g.state
    yield Action("end-turn")
    for uid in ch.hand:
        card = g.card(uid)
        if card.kind in ENERGY_KINDS:
            yield Action("play-energy", card=uid)
            for prepared in ch.time_track:
                if prepared is not None:
                    yield Action("boost", card=uid, on=prepared.uid)
            for duo in s.markets["allies"].row:
                if g.card(duo).duo and len(s.characters) == 1:
                    yield Action("duo-invest", card=uid, on=duo)
        elif card.kind in ("ally", "equipment", "training"):
            yield Action("play", card=uid)
            for unit in units_list(ch, card.kind):
                yield Action("play", card=uid, cards=(unit.uid,))
        elif card.kind == "capsule":
            yield Action("play", card=uid)
        elif card.kind == "technique" and card.technique_type == "energy":
            time = int(card.time or 1)
            for slot in (time, time + 1):
                yield Action("prepare", card=uid, slot=slot)
            if time >= 2:
                for slot in (time - 1, time):
                    yield Action("prepare", card=uid, slot=slot, amount=1)
    physical = [u for u in ch.hand if _physical(g, u)]
    targets = combat.enemies_of(g, "players")
    friends = combat.friends_of(g, "players")
    for size in range(1, len(physical) + 1):
        for combo in combinations(physical, size):
            for target in friends if g.card(combo[0]).healing else targets:
                yield Action("attack", cards=combo, target=target)
    discarding = _market_discard_over(ch) is None
    for market in (*MARKETS, "sixth"):
        spendable = _spendable(ch, market)
        change = 0 if market == "sixth" else rules.price_change(g, ch, market)
        for uid in _market_row(g, market) or []:
            # A card the Character could never pay for now is refused by
            # _check_buy's price test whatever else holds: not worth offering.
            if not _priced_out(g.card(uid), change, spendable):
                yield Action("buy", market=market, card=uid)
                if market == "training":
                    yield Action("buy", market=market, card=uid, amount=1)
            if market == "allies" and g.card(uid).duo:
                yield from _duo_contributions(g, ch, uid)
            if market != "sixth" and discarding:
                yield Action("market-discard", market=market, card=uid)
    yield Action("buy-dragon-ball")
    # With several holders the player says whom the dice take from first.
    sources = combat.steal_sources(g)
    aims: list[str | None] = [None] if len(sources) <= 1 else list(sources)
    for dice in range(1, min(MAX_STEAL_DICE, ch.energy) + 1):
        for aim in aims:
            yield Action("steal", amount=dice, target=aim)
    for unit in ch.units():
        yield Action("exhaust", card=unit.uid)
        yield Action("destroy", card=unit.uid)
    yield Action("ability")
    for attacks in s.villain.time_track:
        for villain_attack in attacks:
            owner = f"e:{villain_attack.owner}" if villain_attack.owner else None
            yield Action("avoid", card=villain_attack.uid, source=owner)
    # Dragon Balls are given before the Actions phase (_check_give).
    for source in () if ch.acted else (f"c:{ch.id}", *(f"a:{u.uid}" for u in ch.allies)):
        if combat.balls_of(g, source):
            for target in combat.enemies_of(g, "villain"):
                yield Action("give-ball", source=source, target=target)
    yield Action("enter-room")
    yield Action("villain-action")


def _duo_contributions(g: Game, ch: CharacterState, uid: int) -> Iterator[Action]:
    """The co-op Duo purchase: each other Character gives its best Energy card."""
    gifts = []
    for other in g.state.characters:
        if other is ch or not other.in_play():
            continue
        energy = [u for u in other.hand if g.card(u).kind in ENERGY_KINDS]
        if energy:
            gifts.append(max(energy, key=g.energy_value))
    if gifts:
        yield Action("buy", market="allies", card=uid, cards=tuple(gifts))


def legal(g: Game) -> list[Action]:
    """Every legal action of the active Character."""
    ch = _active(g)
    if ch is None:
        return []
    return [a for a in _candidates(g, ch) if _CHECKS[a.type](g, ch, a) is None]


# --- performing -----------------------------------------------------------------------------


def perform(g: Game, a: Action) -> None:
    """Carry out a legal action."""
    s = g.state
    ch = s.character(s.active)
    if a.type not in ("give-ball", "market-discard", "end-turn"):
        ch.acted = True
    _PERFORM[a.type](g, ch, a)


def _play_energy(g: Game, ch: CharacterState, a: Action) -> None:
    assert a.card is not None
    ch.hand.remove(a.card)
    ch.played.append(a.card)
    value = g.energy_value(a.card)
    ch.energy += value
    ch.training_energy += max(0, g.energy_value(a.card, "training") - value)
    g.log("energy", f"{g.name('c:' + ch.id)} plays {g.name(a.card)} (+{value} Energy).")
    card = g.card(a.card)
    if card.__dict__.get("effects"):
        g.push_ops(card.id, "effects", {"actor": f"c:{ch.id}", "source": a.card})


def _pay(ch: CharacterState, cost: int, market: str | None) -> None:
    if market == "training":
        from_training = min(ch.training_energy, cost)
        ch.training_energy -= from_training
        cost -= from_training
    ch.energy -= cost


def _buy(g: Game, ch: CharacterState, a: Action) -> None:
    assert a.card is not None and a.market is not None
    s = g.state
    card = g.card(a.card)
    cost = buy_cost(g, ch, a.card, a.market) or 0
    if card.kind == "ally" and card.pay_with == "dragon-balls":
        keys = [f"c:{ch.id}", *(f"a:{u.uid}" for u in ch.allies)]
        left = int(card.cost)
        for key in keys:
            left -= combat.give_balls(g, key, "", left)
        g.log("balls", f"{g.name('c:' + ch.id)} gives up {card.cost} Dragon Balls.")
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
    g.log("buy", f"{g.name('c:' + ch.id)} buys {card.name}.", card=card.id, market=a.market)
    race = rules.race_of(g, f"c:{ch.id}")
    if a.amount and race == "god" and card.kind == "training":
        ch.training.append(Unit(a.card))
        g.log("play", f"{g.name('c:' + ch.id)} equips {card.name} at once (God).")
    elif race == "monster" and card.kind == "technique":
        ch.hand.append(a.card)
        g.log("buy", f"{g.name('c:' + ch.id)} may use {card.name} at once (Monster).")
    else:
        ch.discard.append(a.card)


def _buy_ball(g: Game, ch: CharacterState, a: Action) -> None:
    cost = max(0, g.card(ch.id).dragon_ball_cost + rules.cost_bonus(g, ch, "dragon-ball"))
    ch.energy -= cost
    ch.dragon_balls_bought += 1
    combat.give_balls(g, "", f"c:{ch.id}")
    g.log("balls", f"{g.name('c:' + ch.id)} buys an unclaimed Dragon Ball ({cost} Energy).")


def _steal(g: Game, ch: CharacterState, a: Action) -> None:
    assert a.amount is not None
    ch.energy -= a.amount
    g.push(combat.Steal(ch.id, a.amount, a.target))


def _play(g: Game, ch: CharacterState, a: Action) -> None:
    assert a.card is not None
    card = g.card(a.card)
    if card.kind == "capsule":
        ch.hand.remove(a.card)
        g.state.box.append(a.card)
        g.log("play", f"{g.name('c:' + ch.id)} uses {card.name}.")
        g.push_ops(card.id, "effects", {"actor": f"c:{ch.id}", "source": a.card})
        return
    for uid in a.cards:
        remove_card(g, uid, to_box=True, owner=ch)
    for uid in replaced_armor(g, ch, card):
        remove_card(g, uid, to_box=False, owner=ch)
    ch.hand.remove(a.card)
    units_list(ch, card.kind).append(Unit(a.card))
    g.log("play", f"{g.name('c:' + ch.id)} puts {card.name} into play.", card=card.id)


def _attack(g: Game, ch: CharacterState, a: Action) -> None:
    assert a.target is not None
    cards = [g.card(u) for u in a.cards]
    for uid in a.cards:
        ch.hand.remove(uid)
        ch.played.append(uid)
    combo = len(cards) > 1
    names = " + ".join(c.name for c in cards)
    g.log(
        "attack",
        f"{g.name('c:' + ch.id)} attacks {g.name(a.target)} with {names}"
        + (" (Combo)" if combo else "")
        + ".",
        cards=[c.id for c in cards],
        target=a.target,
    )
    from dbdeck.engine import attacks

    attacks.character_attack(g, ch, list(a.cards), a.target, "physical", combo=combo)


def _prepare(g: Game, ch: CharacterState, a: Action) -> None:
    from dbdeck.engine.state import Prepared

    assert a.card is not None and a.slot is not None
    if a.amount:
        ch.energy -= 2
    ch.hand.remove(a.card)
    ch.time_track[a.slot - 1] = Prepared(a.card)
    g.log("prepare", f"{g.name('c:' + ch.id)} prepares {g.name(a.card)} at Time {a.slot}.")


def _boost(g: Game, ch: CharacterState, a: Action) -> None:
    assert a.card is not None
    prepared = next(p for p in ch.time_track if p is not None and p.uid == a.on)
    ch.hand.remove(a.card)
    prepared.boosters.append(a.card)
    g.log("boost", f"{g.name('c:' + ch.id)} boosts {g.name(prepared.uid)} with {g.name(a.card)}.")


def _exhaust(g: Game, ch: CharacterState, a: Action) -> None:
    unit = next(u for u in ch.units() if u.uid == a.card)
    unit.exhausted = True
    card = g.card(unit.uid)
    owner = f"a:{unit.uid}" if card.kind == "ally" else f"c:{ch.id}"
    g.log("exhaust", f"{g.name('c:' + ch.id)} exhausts {card.name}.")
    if "search" in card.__dict__.get("keywords", ()) and combat.give_balls(g, "", owner):
        g.log("balls", f"{card.name} finds an unclaimed Dragon Ball.")
    if card.__dict__.get("exhaust_effects"):
        g.push_ops(
            card.id, "exhaust_effects", {"actor": owner, "source": unit.uid, "voluntary": True}
        )


def _destroy(g: Game, ch: CharacterState, a: Action) -> None:
    assert a.card is not None
    card = g.card(a.card)
    owner = f"a:{a.card}" if card.kind == "ally" else f"c:{ch.id}"
    # The effect belongs to the card's owner even though the card leaves play
    # first: an Ally's Dragon Balls go back to its Character (rules note N39).
    remove_card(g, a.card, to_box=True, owner=ch)
    g.push_ops(
        card.id,
        "destroy_effects",
        {
            "actor": f"c:{ch.id}" if owner.startswith("a:") else owner,
            "source": a.card,
            "voluntary": True,
        },
    )


def _ability(g: Game, ch: CharacterState, a: Action) -> None:
    ability = g.card(ch.id).special_ability
    ch.ability_used = True
    if ability.uses != "passive":
        ch.ability_tokens -= 1
    g.log("ability", f"{g.name('c:' + ch.id)} uses {ability.name}.")
    ctx = {"actor": f"c:{ch.id}", "voluntary": True}
    g.push_ops(ch.id, "special_ability.effects", ctx)
    g.push_ops(ch.id, "special_ability.cost", ctx)


def _avoid(g: Game, ch: CharacterState, a: Action) -> None:
    from dbdeck.engine import attacks

    v = g.state.villain
    for slot in v.time_track:
        for prepared in slot:
            if _meant(a, prepared):
                slot.remove(prepared)
                attacks.discard_attack(g, prepared.uid)
                g.log("avoid", f"{g.name('c:' + ch.id)} avoids {g.name(prepared.uid)}.")
                path = g.hooks.attack_path(g, prepared) + "avoid.cost"
                g.push_ops(
                    g.state.card_ids[prepared.uid], path, {"actor": f"c:{ch.id}", "voluntary": True}
                )
                return


def _market_discard(g: Game, ch: CharacterState, a: Action) -> None:
    assert a.market is not None and a.card is not None
    m = g.state.markets[a.market]
    m.row.remove(a.card)
    m.deck.insert(0, a.card)
    restock(g, a.market)
    ch.market_discarded = True
    g.log(
        "market",
        f"{g.name('c:' + ch.id)} sends {g.name(a.card)} to the bottom of the {a.market} deck.",
    )


def _give(g: Game, ch: CharacterState, a: Action) -> None:
    assert a.source is not None and a.target is not None
    combat.give_balls(g, a.source, a.target)
    ch.balls_given = True
    g.log("balls", f"{g.name(a.source)} gives a Dragon Ball to {g.name(a.target)}.")


def _duo(g: Game, ch: CharacterState, a: Action) -> None:
    assert a.card is not None and a.on is not None
    ch.hand.remove(a.card)
    ch.duo_energy.setdefault(a.on, []).append(a.card)
    ch.duo_invested = True
    g.log("duo", f"{g.name('c:' + ch.id)} sets {g.name(a.card)} beside {g.name(a.on)}.")


def _enter_room(g: Game, ch: CharacterState, a: Action) -> None:
    room = next(
        u for u in ch.training if g.card(u.uid).__dict__.get("rule") == "room-of-spirit-and-time"
    )
    ch.room_tokens = 1
    ch.room_card = room.uid
    g.log("room", f"{g.name('c:' + ch.id)} enters the Room of Spirit and Time.")
    g.state.step = "char_end"


def _end_turn(g: Game, ch: CharacterState, a: Action) -> None:
    g.state.step = "char_end"


_PERFORM: dict[str, Callable[[Game, CharacterState, Action], None]] = {
    "play-energy": _play_energy,
    "buy": _buy,
    "buy-dragon-ball": _buy_ball,
    "steal": _steal,
    "play": _play,
    "attack": _attack,
    "prepare": _prepare,
    "boost": _boost,
    "exhaust": _exhaust,
    "destroy": _destroy,
    "ability": _ability,
    "avoid": _avoid,
    "market-discard": _market_discard,
    "give-ball": _give,
    "duo-invest": _duo,
    "enter-room": _enter_room,
    "villain-action": lambda g, ch, a: g.hooks.take_villain_action(g, ch),
    "end-turn": _end_turn,
}
