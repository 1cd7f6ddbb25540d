"""What one seat may see: the ``TableView`` every front end draws.

``seat_view(game, seat)`` is the only way a table, a joined table, a
spectator, a hot-seat hand-off or a replay learns about a game. It is a
frozen value made of one panel per board element, with every number the
rules compute (health left and maximum, Armor, Damage Reduction, costs, why
a card cannot be bought) already worked out, so a front end draws and never
rules.

Privacy is by construction: a panel is built only from what its seat may
see. There is no seed, no random generator state, no deck order, no other
hand, no uid of a card the seat cannot see, and no option of another seat's
pending decision. ``seat=None`` is a spectator; ``every_hand=True`` (the
replay of one's own record) adds every hand.

Legal actions reach a seat as ``Offer`` values, labelled by the engine. An
action that names a card of another hand (a co-op Duo purchase takes an
Energy card from each other Character) is offered with that card masked as
``HIDDEN``; ``unmask`` turns what the seat sends back into the real action.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from dbdeck.games.deckbuilding.cards.describe import describe_effects
from dbdeck.games.deckbuilding.cards.facts import card_words
from dbdeck.games.deckbuilding.engine import combat, labels, preview, rules, undone, waste, why
from dbdeck.games.deckbuilding.engine.actions import Action, Buy
from dbdeck.games.deckbuilding.engine.events import Event, starts_turn
from dbdeck.games.deckbuilding.engine.holders import (
    VILLAIN,
    AllyRef,
    CharacterRef,
    EnemyRef,
    Holder,
    MarketAllyRef,
    MinionRef,
    to_key,
)
from dbdeck.games.deckbuilding.engine.panels import (
    HIDDEN,
    MARKET_ORDER,
    MARKET_TITLES,
    BallView,
    CardNote,
    CardView,
    CharacterPanel,
    DecisionPanel,
    EnemyView,
    HandView,
    Health,
    LogLine,
    MarketCard,
    MarketPanel,
    MinionView,
    Offer,
    OptionView,
    PreparedView,
    SideDeckView,
    TableView,
    TurnOrderPanel,
    UnitView,
    VillainPanel,
    WhyNot,
)
from dbdeck.games.deckbuilding.engine.state import CharacterState, Unit
from dbdeck.games.deckbuilding.engine.words import cannot_buy_there

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

__all__ = ["log_lines", "seat_offers", "seat_plays", "seat_view", "unmask"]


# --- building a view ------------------------------------------------------------------------


def seat_plays(game: Playing, seat: int | None) -> frozenset[str]:
    """The Characters a seat plays by the setup (a spectator plays none)."""
    if seat is None:
        return frozenset()
    return frozenset(c.id for c in game.state.characters if c.seat == seat)


def seat_view(
    game: Playing,
    seat: int | None,
    *,
    plays: frozenset[str] | None = None,
    every_hand: bool = False,
) -> TableView:
    """The game as ``seat`` may see it (``None``: a spectator).

    ``plays`` names the Characters the seat plays now, whose hands it sees
    (by default those of its seat in the setup; a shared table may hand a
    Character to another seat); ``every_hand`` is the owner's replay.
    """
    s = game.state
    if every_hand:
        own = frozenset(c.id for c in s.characters)
    else:
        own = seat_plays(game, seat) if plays is None else plays
    names = ", ".join(game.name(CharacterRef(c.id)) for c in s.characters)
    acting = _acts(game, own)
    legal = game.legal_actions() if acting else []
    return TableView(
        version=s.actions,
        seat=seat,
        title=f"{game.name(VILLAIN)} vs {names}",
        villain=_villain(game),
        characters=tuple(_character(game, ch) for ch in s.characters),
        markets=tuple(_market(game, m) for m in MARKET_ORDER),
        turn_order=TurnOrderPanel(
            round=s.round,
            left=len(s.turn_deck),
            revealed=tuple(_turn_card(game, c) for c in s.turn_discard),
            unrevealed=tuple(sorted(_turn_card(game, c) for c in s.turn_deck)),
        ),
        balls=tuple(
            BallView(star, to_key(holder), game.name(holder) if holder else "unclaimed")
            for star, holder in enumerate(s.balls, 1)
        ),
        hands=tuple(
            HandView(
                ch.id,
                game.name(CharacterRef(ch.id)),
                tuple(_card(game, u) for u in ch.hand),
                ch.energy,
                ch.training_energy,
            )
            for ch in s.characters
            if ch.id in own
        ),
        decision=_decision(game, own),
        log=log_lines(game.events, game, seat, every_hand=every_hand),
        active=s.active,
        actor=game.actor() or "",
        paused=s.paused,
        winner=s.winner,
        reason=s.reason,
        location=s.location or "",
        why_not=tuple(WhyNot(k, r) for k, r in why.why_none(game, legal).items()) if acting else (),
        card_notes=tuple(CardNote(n.uid, n.kind, n.reason) for n in why.card_notes(game, legal))
        if acting
        else (),
        # The words name cards of the active Character's hand: told only to
        # the seat that plays it.
        left_undone=undone.left_undone(game, legal) if s.active in own and acting else (),
    )


def _acts(game: Playing, own: frozenset[str]) -> bool:
    """Whether the seat that plays ``own`` is the one that must act now
    (what it may not do is then its own business, and told to it alone)."""
    actor = game.actor()
    return actor is not None and actor in own


def log_lines(
    events: list[Event], game: Playing, seat: int | None, *, every_hand: bool = False
) -> tuple[LogLine, ...]:
    """Events as ``seat`` may read them: words only (an event's data can
    name cards of a hand or a deck, so it never leaves the engine)."""
    del game, seat, every_hand  # every event's text is written for the whole table
    return tuple(LogLine(e.type, e.text, starts_turn(e)) for e in events)


def _card(game: Playing, uid: int) -> CardView:
    card = game.card(uid)
    kind, facts, attack, physical = card_words(card)
    return CardView(uid, game.state.card_ids[uid], str(card.name), kind, facts, attack, physical)


def _health(game: Playing, key: Holder) -> Health:
    maximum = rules.max_health(game, key)
    return Health(max(0, min(maximum, maximum - rules.damage_of(game, key))), maximum)


def _villain(game: Playing) -> VillainPanel:
    s = game.state
    v = s.villain
    board = game.villain_card()
    several = bool(board.enemies)
    enemies = tuple(
        EnemyView(
            key=EnemyRef(enemy).key,
            name=game.name(EnemyRef(enemy)),
            health=_health(game, EnemyRef(enemy)),
            armor=rules.armor(game, EnemyRef(enemy)),
            damage_reduction=rules.damage_reduction(game, EnemyRef(enemy)),
            defeated=enemy in v.defeated_enemies,
            balls=combat.balls_of(game, EnemyRef(enemy)),
        )
        for enemy in board.enemies
    )
    minions = tuple(
        MinionView(
            key=MinionRef(unit.uid).key,
            card=_card(game, unit.uid),
            health=_health(game, MinionRef(unit.uid)),
            armor=rules.armor(game, MinionRef(unit.uid)),
            keywords=tuple(getattr(game.card(unit.uid), "keywords", ())),
            exhausted=unit.exhausted,
            balls=combat.balls_of(game, MinionRef(unit.uid)),
        )
        for unit in v.minions
    )
    side_decks = []
    for name, pile in v.side_decks.items():
        card = game.catalog.cards.get(name)
        title = str(card.name) if card is not None else name
        # Cards laid on a tracker card (Raditz's Kidnapped Victim) lie face
        # up; any other side pile is a face-down deck.
        face_up = getattr(card, "type", "") == "reference"
        cards = tuple(_card(game, u) for u in pile) if face_up else ()
        side_decks.append(SideDeckView(name, title, len(pile), cards, face_up))
    location = game.catalog.cards.get(s.location) if s.location else None
    turn_cards = tuple(
        game.hooks.turn_card_name(game, c) for c in s.turn_cards if c.startswith("V")
    )
    return VillainPanel(
        card=s.villain_id,
        name=game.name(VILLAIN),
        level=int(board.level),
        phase=v.phase,
        difficulty=s.difficulty,
        extreme=s.extreme,
        arrived=game.hooks.arrived(game),
        health=None if several else _health(game, VILLAIN),
        armor=rules.armor(game, VILLAIN),
        damage_reduction=rules.damage_reduction(game, VILLAIN),
        enemies=enemies,
        time_track=tuple(tuple(_card(game, p.uid) for p in slot) for slot in v.time_track),
        minions=minions,
        balls=combat.balls_of(game, VILLAIN),
        deck=len(v.deck),
        discard=len(v.discard),
        tokens=tuple(sorted(_tokens(game))),
        side_decks=tuple(side_decks),
        aggro=_aggro(game),
        location=str(location.name) if location is not None else "",
        location_text=str(location.text) if location is not None else "",
        turn_cards=turn_cards,
    )


def _unit(game: Playing, unit: Unit, ally: bool) -> UnitView:
    key = AllyRef(unit.uid)
    return UnitView(
        card=_card(game, unit.uid),
        exhausted=unit.exhausted,
        health=_health(game, key) if ally else None,
        balls=combat.balls_of(game, key) if ally else 0,
        tokens=tuple(sorted(unit.tokens.items())),
    )


def _character(game: Playing, ch: CharacterState) -> CharacterPanel:
    key = CharacterRef(ch.id)
    board = game.character_card(ch.id)
    race = str(board.race)
    ability = board.special_ability
    return CharacterPanel(
        id=ch.id,
        name=game.name(key),
        order=ch.order,
        seat=ch.seat,
        race=race,
        level=int(board.level),
        active=game.state.active == ch.id,
        defeated=ch.defeated,
        room_tokens=ch.room_tokens,
        health=Health(0, rules.max_health(game, key)) if ch.defeated else _health(game, key),
        armor=rules.armor(game, key),
        damage_reduction=rules.damage_reduction(game, key),
        balls=combat.balls_of(game, key),
        time_track=tuple(
            None
            if p is None
            else PreparedView(_card(game, p.uid), tuple(_card(game, b) for b in p.boosters))
            for p in ch.time_track
        ),
        allies=tuple(_unit(game, u, True) for u in ch.allies),
        equipment=tuple(_unit(game, u, False) for u in ch.equipment),
        training=tuple(_unit(game, u, False) for u in ch.training),
        ally_limit=rules.limit(race, "ally"),
        equipment_limit=rules.limit(race, "equipment"),
        training_limit=rules.limit(race, "training"),
        deck=len(ch.deck),
        discard=len(ch.discard),
        discard_top=_card(game, ch.discard[-1]) if ch.discard else None,
        hand=len(ch.hand),
        played=tuple(_card(game, u) for u in ch.played),
        energy=ch.energy,
        training_energy=ch.training_energy,
        ability=ability.name if ability is not None else "",
        ability_tokens=None if ability is None or ability.uses == "passive" else ch.ability_tokens,
        ball_cost=max(0, int(board.dragon_ball_cost) + rules.cost_bonus(game, ch, "dragon-ball")),
    )


def _market(game: Playing, market: str) -> MarketPanel:
    s = game.state
    if market == "sixth":
        row, deck = s.sixth[-1:], max(0, len(s.sixth) - 1)
    else:
        row, deck = s.markets[market].row, len(s.markets[market].deck)
    active = s.character(s.active) if s.active not in ("", "villain") else None
    closed = ""
    if (
        active is not None
        and market != "sixth"
        and rules.price_change(game, active, market) is None
    ):
        closed = cannot_buy_there(game.name(CharacterRef(active.id)), market)
    return MarketPanel(
        market=market,
        title=MARKET_TITLES[market],
        deck=deck,
        row=tuple(_market_card(game, uid, market, active) for uid in row),
        closed=closed,
    )


def _market_card(game: Playing, uid: int, market: str, active: CharacterState | None) -> MarketCard:
    card = game.card(uid)
    exclusive = getattr(card, "exclusive", None)
    marked = exclusive is not None and bool(exclusive.races or exclusive.characters)
    by_balls = getattr(card, "pay_with", "") == "dragon-balls"
    raw = getattr(card, "cost", None)
    printed = None if raw is None else int(raw)
    forbidden = False
    if active is None:
        cost, why = printed, "no Character is playing"
    else:
        cost = printed if by_balls else rules.buy_cost(game, active, uid, market)
        race = rules.race_of(game, CharacterRef(active.id))
        forbidden = cost is None or bool(rules.can_buy_exclusive(race, active.id, card, market))
        why = game.check(Buy(card=uid, market=market)) or ""
    if cost is None and active is not None:
        price = cannot_buy_there(game.name(CharacterRef(active.id)), market)
    elif cost is None:
        price = "no price"
    elif by_balls:
        price = f"{cost} Dragon Balls"
    else:
        price = f"{cost} Energy"
    damage = rules.damage_of(game, MarketAllyRef(uid)) if market == "allies" else 0
    return MarketCard(
        card=_card(game, uid),
        kind=str(card.kind),
        cost=cost,
        pay_with="dragon-balls" if by_balls else "energy",
        price=price,
        buyable=not why,
        why_not=why,
        forbidden=forbidden,
        exclusive=marked,
        damage=damage,
    )


def _tokens(game: Playing) -> Iterator[tuple[str, int]]:
    """The Villain board's counters in words, each enemy's own included:
    Nappa's Armor tokens read ``Armor (Nappa)``."""
    v = game.state.villain
    for counter, n in v.tokens.items():
        yield _token_label(counter), n
    for enemy, own in v.enemy_tokens.items():
        for counter, n in own.items():
            yield f"{_token_label(counter)} ({game.name(EnemyRef(enemy))})", n


def _token_label(counter: str) -> str:
    return counter.replace("-", " ").capitalize()


def _aggro(game: Playing) -> str:
    holder = game.hooks.aggro_holder(game)
    return "" if holder is None else game.name(holder)


def _turn_card(game: Playing, card: str) -> str:
    if card.startswith("V"):
        return str(game.hooks.turn_card_name(game, card))
    if card == "W":
        return "Wildcard"
    ch = next((c for c in game.state.characters if str(c.order) == card), None)
    return game.name(CharacterRef(ch.id)) if ch is not None else card


def _decision(game: Playing, own: frozenset[str]) -> DecisionPanel | None:
    pending = game.state.pending
    if pending is None:
        return None
    decider = pending.decider
    mine = decider == "players" or decider in own
    name = "The players" if decider == "players" else game.name(CharacterRef(decider))
    # Another seat's options can name the cards of its hand: only their
    # number is shown.
    about, previews = preview.decision_stakes(game)
    previews += [""] * (len(pending.options) - len(previews))
    options = (
        tuple(OptionView(o.label, bool(o.grim), previews[i]) for i, o in enumerate(pending.options))
        if mine
        else ()
    )
    return DecisionPanel(
        kind=pending.kind,
        decider=decider,
        decider_name=name,
        prompt=pending.prompt,
        options=options,
        count=len(pending.options),
        about=about,
        moot=preview.moot_answer(game) if mine else None,
        about_card=preview.decision_card(game),
    )


# --- legal actions for a seat -----------------------------------------------------------------


def _masked(action: Action, others: set[int]) -> Action:
    if not action.cards or not others.intersection(action.cards):
        return action
    return action._replace(cards=tuple(HIDDEN if u in others else u for u in action.cards))


def _other_hands(game: Playing, plays: frozenset[str]) -> set[int]:
    return {u for ch in game.state.characters if ch.id not in plays for u in ch.hand}


def seat_offers(
    game: Playing, seat: int | None, *, plays: frozenset[str] | None = None
) -> list[Offer]:
    """The legal actions as ``seat`` receives them: labelled by the engine,
    with any card of another hand masked. Empty unless the seat may act now:
    the actor is one of the Characters it plays (``plays``, as for
    ``seat_view``), or the players decide together (which a spectator's
    keyboard may answer at a hot-seat table; a server offers nothing to a
    spectator)."""
    own = seat_plays(game, seat) if plays is None else plays
    actor = game.actor()
    if actor is None or (actor != "players" and actor not in own):
        return []
    others = _other_hands(game, own)
    pending = game.state.pending
    offers = []
    for action in game.legal_actions():
        if action.type == "choose" and pending is not None and action.option is not None:
            option = pending.options[action.option]
            label, group = option.label, "Decide"
        else:
            label, group = labels.action_label(game, action), labels.action_group(action)
        foreseen, waste = _foresee(game, action)
        offers.append(Offer(_masked(action, others), label, group, foreseen, waste))
    return offers


def _foresee(game: Playing, action: Action) -> tuple[str, str]:
    """What an offer would do, when the engine can foresee it on a copy, and
    what it would waste (rules notes N19, N49)."""
    if action.type == "attack":
        hit = preview.attack_preview(game, action)
        return hit.words(game), waste.attack_waste(game, hit)
    if action.type == "steal" and action.amount:
        return preview.steal_odds(game, action.amount).words(), ""
    if action.type == "prepare":
        return "", waste.waste_of(game, action)
    if action.type == "exhaust" and action.card is not None:
        return _exhaust_words(game, action.card), ""
    return "", ""


def _exhaust_words(game: Playing, uid: int) -> str:
    """What exhausting a card does, in words (its Search, then its exhaust
    effect): the question that chooses the card says it."""
    card = game.card(uid)
    said = []
    if "search" in getattr(card, "keywords", ()):
        said.append("Search: takes an unclaimed Dragon Ball")
    effects = getattr(card, "exhaust_effects", None)
    if effects:
        said.append(describe_effects(effects))
    return "; then ".join(said)


def unmask(
    game: Playing, seat: int | None, action: Action, *, plays: frozenset[str] | None = None
) -> Action:
    """The real action behind one a seat sent: the legal action whose masked
    form it is (an action without masked cards is returned as it is)."""
    if HIDDEN not in action.cards:
        return action
    others = _other_hands(game, seat_plays(game, seat) if plays is None else plays)
    for legal in game.legal_actions():
        if _masked(legal, others) == action:
            return legal
    return action
