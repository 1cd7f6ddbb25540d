"""The cheap legality contract: the listing may leave candidates out before
asking ``check`` (cards the Character cannot pay for, market discards after
acting, Steals with more dice than Energy, Dragon Balls given after acting,
…), but only ones ``check`` refuses.

Over many seeded positions (random and greedy bots, every Villain) this
test builds the whole candidate space itself — every action type with every
plausible argument — and proves that the legal actions are exactly the
members of that space ``check`` accepts: each skipped one is refused, each
listed one accepted.

An action some fields of which say the same thing two ways has one written
form in the space, the one the listing uses: a Combo names its Techniques
in hand order; a Steal or an avoid names whom it aims at only when there is
a choice (several holders of Dragon Balls, one enemy's half of a split
card); a co-op Duo purchase takes each other Character's best Energy card.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from itertools import combinations

import pytest

from dbdeck.games.deckbuilding.bots import BOTS
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.cards.plain import Technique
from dbdeck.games.deckbuilding.engine import combat
from dbdeck.games.deckbuilding.engine.actions import (
    ACTION_TYPES,
    Ability,
    Action,
    Attack,
    Avoid,
    Boost,
    Buy,
    BuyDragonBall,
    Destroy,
    DuoInvest,
    EndTurn,
    EnterRoom,
    Exhaust,
    GiveBall,
    MarketDiscard,
    Play,
    PlayEnergy,
    Prepare,
    Steal,
    VillainAction,
)
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.holders import VILLAIN
from dbdeck.games.deckbuilding.engine.state import CharacterState
from dbdeck.games.deckbuilding.engine.zones import ENERGY_KINDS, MARKETS

TABLES = [
    Setup(villain="freezer", characters=["goku", "krillin"]),
    Setup(villain="freezer", characters=["goku"], difficulty="hard", extreme=True),
    Setup(villain="raditz", characters=["piccolo", "krillin"], location="random"),
    Setup(villain="vegeta-nappa", characters=["piccolo", "tien"], extreme=True),
    Setup(villain="androids-19-20", characters=["goku", "krillin", "yamcha"], location="random"),
    Setup(villain="androids-17-18", characters=["supreme-kai", "tapion"]),
    Setup(villain="broly", characters=["vegeta-ss1"], starting_ally="piccolo-ally"),
    Setup(villain="broly", characters=["pikkon", "dabura", "goku"], extreme=True),
]
SEEDS = range(2)
ACTION_CAP = 160
"""Actions played per game at most."""
MAX_STEAL_DICE = 7


def _holders(g: Game) -> list[str]:
    """Every holder key of the table, in play or not."""
    s = g.state
    keys = [VILLAIN.key, *(f"e:{e}" for e in g.villain_card().enemies)]
    keys += [f"m:{u.uid}" for u in s.villain.minions]
    keys += [f"c:{ch.id}" for ch in s.characters]
    keys += [f"a:{u.uid}" for ch in s.characters for u in ch.allies]
    return keys


def _best_gifts(g: Game, ch: CharacterState) -> tuple[int, ...]:
    """Each other Character in play gives its best Energy card."""
    gifts = []
    for other in g.state.characters:
        energy = [u for u in other.hand if g.card(u).kind in ENERGY_KINDS]
        if other is not ch and other.in_play() and energy:
            gifts.append(max(energy, key=g.energy_value))
    return tuple(gifts)


def space(g: Game, ch: CharacterState) -> list[Action]:
    """Every action of every type the active Character might mean now."""
    s = g.state
    holders = _holders(g)
    units = [u.uid for u in ch.units()]
    prepared = [p.uid for c in s.characters for p in c.time_track if p is not None]
    out: list[Action] = [EndTurn(), BuyDragonBall(), Ability(), EnterRoom(), VillainAction()]
    for uid in ch.hand:
        out.append(PlayEnergy(card=uid))
        out += [Boost(card=uid, on=p) for p in prepared]
        out += [DuoInvest(card=uid, on=d) for d in s.markets["allies"].row]
        out.append(Play(card=uid))
        out += [Play(card=uid, cards=(u,)) for u in units]
        out += [Prepare(card=uid, slot=slot) for slot in range(1, 6)]
        out += [Prepare(card=uid, slot=slot, amount=1) for slot in range(1, 6)]
        out += [Exhaust(card=uid), Destroy(card=uid)]
    physical = [
        u
        for u in ch.hand
        if isinstance(card := g.card(u), Technique) and card.technique_type == "physical"
    ]
    combos = {c for size in range(1, len(physical) + 1) for c in combinations(physical, size)}
    combos |= {c for size in (1, 2) for c in combinations(ch.hand, size)}
    for combo in sorted(combos):
        out += [Attack(cards=combo, target=t) for t in holders]
    gifts = _best_gifts(g, ch)
    for market in (*MARKETS, "sixth"):
        row = s.sixth[-1:] if market == "sixth" else s.markets[market].row
        for uid in row:
            out += [Buy(market=market, card=uid, amount=n) for n in (None, 1)]
            if gifts and market == "allies":
                out.append(Buy(market=market, card=uid, cards=gifts))
            out.append(MarketDiscard(market=market, card=uid))
    sources = combat.steal_sources(g)
    aims: list[str | None] = [None] if len(sources) <= 1 else list(holders)
    for dice in range(MAX_STEAL_DICE + 2):
        out += [Steal(amount=dice, target=aim) for aim in aims]
    for uid in units:
        out += [Exhaust(card=uid), Destroy(card=uid)]
    for slot in s.villain.time_track:
        for attack in slot:
            owner = f"e:{attack.owner}" if attack.owner else None
            out.append(Avoid(card=attack.uid, source=owner))
    own = [f"c:{c.id}" for c in s.characters] + [
        f"a:{u.uid}" for c in s.characters for u in c.allies
    ]
    out += [GiveBall(source=a, target=b) for a in own for b in holders]
    return out


def _positions(catalog: Catalog, setup: Setup, bot: str, seed: int) -> list[Game]:
    """The game at each point of a seeded bot game where a Character acts."""
    game = Game.new(catalog, dataclasses.replace(setup, seed=seed))
    rng = random.Random(seed)
    found = []
    played = 0
    while not game.over and played < ACTION_CAP:
        if game.state.paused:
            game.resume()
            continue
        if game.state.pending is None and game.state.step == "char_main":
            found.append(game.clone())
        game.apply(BOTS[bot](game, rng))
        played += 1
    return found


def breaches(game: Game, skipped: Counter[str]) -> list[str]:
    """Where the listing and ``check`` disagree over the candidate space at
    this position; ``skipped`` counts the refused candidates left out."""
    listed = game.legal_actions()
    found = [f"listed twice: {a}" for a, n in Counter(listed).items() if n > 1]
    candidates = set(space(game, game.state.character(game.state.active)))
    found += [f"listed outside the candidate space: {a}" for a in listed if a not in candidates]
    shown = set(listed)
    for action in candidates:
        reason = game.check(action)
        if action in shown and reason is not None:
            found.append(f"listed but refused: {action} ({reason})")
        elif action not in shown:
            if reason is None:
                found.append(f"accepted but not listed: {action}")
            skipped[action.type] += 1
    return found


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_the_listing_is_what_check_accepts_of_every_candidate(catalog: Catalog, bot: str) -> None:
    skipped: Counter[str] = Counter()
    positions = 0
    for setup in TABLES:
        for seed in SEEDS:
            for game in _positions(catalog, setup, bot, seed):
                positions += 1
                assert breaches(game, skipped) == []
    assert positions > 200
    # The space is wider than the listing for every kind the listing prunes.
    assert {"buy", "market-discard", "steal", "give-ball"} <= set(skipped)
    assert set(skipped) <= set(ACTION_TYPES)


def test_a_pruning_that_drops_a_legal_action_is_caught(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Were every market card priced out, affordable cards would go missing
    from the listing, and the contract says so."""
    from dbdeck.games.deckbuilding.engine.actions import buy

    monkeypatch.setattr(buy, "priced_out", lambda *_: True)
    found = [
        breach
        for game in _positions(catalog, TABLES[0], "greedy", 0)
        for breach in breaches(game, Counter())
    ]
    assert any(b.startswith("accepted but not listed: Buy(") for b in found)
