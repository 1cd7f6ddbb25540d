"""What every Villain does, as named hooks a Villain's own module overrides.

The hooks: ``setup`` (the deck), ``prologue``, ``turn_start``, ``activate``
(reveal the top card), ``on_attacked``, ``death_effect``, ``check_victory``,
and a few smaller ones. A Villain whose mechanics are all card data needs no
module of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from dbdeck.games.deckbuilding.cards.plain import (
    Attack,
    AttackBody,
    Event,
    Minion,
    SplitCard,
    Transformation,
)
from dbdeck.games.deckbuilding.engine import combat, zones
from dbdeck.games.deckbuilding.engine.attacks import VillainAttack
from dbdeck.games.deckbuilding.engine.context import EffectContext
from dbdeck.games.deckbuilding.engine.effects import resolve_targets
from dbdeck.games.deckbuilding.engine.events import Agree, Name
from dbdeck.games.deckbuilding.engine.holders import (
    VILLAIN,
    CharacterRef,
    EnemyRef,
    Holder,
    MarketAllyRef,
)
from dbdeck.games.deckbuilding.engine.state import (
    CharacterState,
    HiddenPile,
    Prepared,
    Unit,
    VillainAttackState,
    VillainOwnState,
)
from dbdeck.games.deckbuilding.engine.tasks import OrderItem
from dbdeck.games.deckbuilding.engine.words import sentence

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.reach import Reach

__all__ = ["VillainRules"]


class VillainRules:
    """The default hooks, following the rulebook's general Villain rules."""

    OFFERS_ACTION = False
    """Whether the Villain's rules offer the Characters an action of their
    own (``villain_action``); without one it is always refused."""
    OWN_STATE: ClassVar[type[VillainOwnState]] = VillainOwnState
    """The class of what the Villain's module keeps on the board
    (``VillainState.own``); the general rules keep nothing."""

    # --- setup ------------------------------------------------------------------------

    def setup(self, g: Reach) -> None:
        """Build and shuffle the Villain deck (the top is the end of the list)."""
        board = g.villain_card()
        deck = [g.new_uid(e.card) for e in board.deck for _ in range(e.copies)]
        g.rng.shuffle(deck)
        g.state.villain.deck = deck

    def extreme_minions(self, g: Reach, starting: list[str]) -> list[str]:
        """Minions in play at the start in Extreme Mode."""
        board = g.villain_card()
        extra = [c for c in board.extreme_cards if isinstance(g.card(c), Minion)]
        return starting + extra

    def prologue(self, g: Reach) -> list[str]:
        """Characters who play before the turn-order deck starts."""
        return []

    def ruined_city_count(self, g: Reach, count: int) -> int:
        """How many Allies Ruined City removes."""
        return count

    def markets_built(self, g: Reach) -> None:
        """The market decks are built and shuffled; no row is dealt yet and no
        Location has removed cards (Raditz takes his Kidnapped Victim here)."""

    def ally_market(self, g: Reach, allies: list[str]) -> list[str]:
        """The Ally Market deck at setup, from every Ally of the game (card ids,
        shuffled): the board's number of Allies for the difficulty, when the
        board sets one."""
        size = g.villain_card().ally_market_size
        return allies if size is None else allies[: size.at(g.state.difficulty)]

    # --- turns -----------------------------------------------------------------------

    def turn_card_name(self, g: Reach, card: str) -> str:
        """The name a Villain turn-order card (``V1``, ``V2`` …) shows: the
        Villain, or the enemy the card belongs to."""
        return g.name(VILLAIN)

    def villain_card(self, g: Reach, card: str) -> None:
        """A Villain turn-order card was revealed."""

    def defeated_card_revealed(self, g: Reach, character: str) -> None:
        """A defeated Character's turn-order card was revealed."""

    def arrived(self, g: Reach) -> bool:
        """Whether the Villain is at the table: until then neither the
        Villain nor the Minions can be attacked (Freezer's ship lands later)."""
        return True

    def minions_present(self, g: Reach) -> bool:
        """Whether the Minions in play activate this turn."""
        return True

    def turn_start(self, g: Reach) -> list[OrderItem]:
        """The Villain's start-of-turn effects, as ordered items."""
        return []

    def advance_time_track(self, g: Reach) -> list[Prepared]:
        """The Energy Techniques phase: take the attacks at Time 1 off the Time
        Track (they are used now) and move the others one position left."""
        v = g.state.villain
        fired = v.time_track[0]
        v.time_track = [*v.time_track[1:], []]
        return fired

    def activate(self, g: Reach) -> None:
        """Play the top card of the Villain deck ("Villain activation phase").
        An empty deck is rebuilt from the discard pile (rules note N16)."""
        v = g.state.villain
        if not v.deck:
            if not v.discard:
                g.log("activate", "{} no card to play.", Agree(VILLAIN, "has", "have"))
                return
            v.deck = v.discard
            v.discard = []
            g.rng.shuffle(v.deck)
            g.log("shuffle", "{}'s discard pile becomes a new deck.", VILLAIN)
        self.reveal(g, v.deck.pop())

    def reveal(self, g: Reach, uid: int) -> None:
        """Resolve one revealed Villain card."""
        v = g.state.villain
        card = g.card(uid)
        g.log(
            "reveal",
            # The sentence ends with the card's name: it decides the full stop.
            "{} {}",
            Agree(VILLAIN, "reveals", "reveal"),
            sentence(card.name),
            card=card.id,
        )
        if isinstance(card, Minion):
            v.minions.append(Unit(uid))
        elif isinstance(card, Attack):
            self.play_attack(g, uid, card, "")
        elif isinstance(card, SplitCard):
            self.play_split(g, uid, card)
        elif isinstance(card, Transformation):
            self.transform(g, uid, card)
        elif isinstance(card, Event):
            v.discard.append(uid)
            if card.effects:
                g.push_ops(card.id, "effects", EffectContext(VILLAIN, uid))
            self.on_event(g, card.id)
        else:
            v.discard.append(uid)

    def play_attack(
        self, g: Reach, uid: int, body: AttackBody, owner: str, half: int | None = None
    ) -> None:
        """An Energy attack goes on the Time Track; a Physical one resolves now."""
        if body.attack_type == "physical" or not body.time:
            g.push(VillainAttack(uid, owner, half))
            return
        track = g.state.villain.time_track
        slot = body.time - 1
        # The printed slot, else the first free one after it; when none is free
        # the attack waits in the last slot (rules note N17).
        while slot < 3 and any(p.owner == owner for p in track[slot]):
            slot += 1
        track[slot].append(Prepared(uid, owner=owner))
        g.log("prepare", "{} is prepared at Time {}.", Name(uid), slot + 1)

    def play_split(self, g: Reach, uid: int, card: SplitCard) -> None:
        """A split card: both halves act (a Villain module narrows this)."""
        attacks = [(i, h) for i, h in enumerate(card.halves) if h.attack is not None]
        for i, half in attacks:
            assert half.attack is not None
            self.play_attack(g, uid, half.attack, half.enemy, i)
        if not attacks:
            g.state.villain.discard.append(uid)

    def transform(self, g: Reach, uid: int, card: Transformation) -> None:
        """The Villain changes phase and keeps the new form's bonuses."""
        v = g.state.villain
        v.phase = card.to_phase
        v.armor_bonus += card.armor_bonus
        v.damage_bonus += card.damage_bonus
        v.damage_reduction_bonus += card.damage_reduction_bonus
        v.last_form = uid
        v.discard.append(uid)
        g.log(
            "transform",
            "{}: Phase {}.",
            Agree(VILLAIN, "transforms", "transform"),
            card.to_phase,
            phase=card.to_phase,
        )
        if card.effects:
            g.push_ops(card.id, "effects", EffectContext(VILLAIN, uid))

    def on_event(self, g: Reach, card_id: str) -> None:
        """An event card was revealed."""

    def activate_card(self, g: Reach, card_id: str) -> None:
        """Prepare a named attack card (Broly's table)."""
        v = g.state.villain
        for pile in (v.deck, v.discard):
            for uid in pile:
                if g.state.card_ids[uid] == card_id:
                    pile.remove(uid)
                    card = g.card(uid)
                    if isinstance(card, Attack):
                        self.play_attack(g, uid, card, "")
                    return

    # --- attacks ------------------------------------------------------------------------

    def attack_body(self, g: Reach, task: Prepared | VillainAttackState) -> AttackBody | None:
        """The attack a prepared card or task stands for."""
        card = g.card(_uid(task))
        if isinstance(card, SplitCard):
            return card.halves[_half(card, task)].attack
        return card if isinstance(card, AttackBody) else None

    def attack_path(self, g: Reach, task: Prepared | VillainAttackState) -> str:
        """The path prefix of the attack inside its card (for its operations)."""
        card = g.card(_uid(task))
        if isinstance(card, SplitCard):
            return f"halves.{_half(card, task)}.attack."
        return ""

    def attack_target(self, g: Reach, body: AttackBody, task: VillainAttackState) -> str:
        """The target rule of an attack."""
        return body.target

    def attack_targets(
        self, g: Reach, body: AttackBody, task: VillainAttackState
    ) -> tuple[list[Holder], bool]:
        """Who an attack may hit, and whether the players choose among them.
        A Villain may leave a decision pending here (a Controversy over the
        target): the attack waits, and this is asked again with the answer in
        ``task.choice``."""
        return resolve_targets(g, self.attack_target(g, body, task), EffectContext(VILLAIN))

    def attack_bonus(self, g: Reach, source: Holder) -> int:
        """Extra damage on every attack of the Villain's side."""
        return 0

    def power_damage(self, g: Reach) -> int:
        """Damage an attack "plus Power" adds (Broly)."""
        return g.state.villain.tokens.get("power", 0)

    def on_attacked(
        self, g: Reach, source: Holder, target: Holder, amount: int, dealt: int, technique: bool
    ) -> None:
        """A Character's attack hit the Villain's side: ``amount`` is its
        damage before Armor and Damage Reduction, ``dealt`` what it inflicted,
        ``technique`` whether a Technique made it. Called before a defeat is
        checked (damage that reaches the target's Maximum Health defeats it)."""

    def damage_reduction(self, g: Reach, key: Holder) -> int:
        """Extra Damage Reduction of the Villain or an enemy."""
        return 0

    def aggro_holder(self, g: Reach) -> Holder | None:
        """Who holds the Villain's Aggro token (Broly's), if anyone: the
        ``aggro-holder`` target of the cards."""
        return None

    def enemy_self(self, g: Reach, enemy: EnemyRef) -> Holder:
        """Who "self" means in an effect one of the Villain's enemies owns:
        the Villain, whose board holds the
        Dragon Balls and tokens, unless the module says the enemy itself."""
        return VILLAIN

    def max_health_bonus(self, g: Reach, key: EnemyRef) -> int:
        """Extra Maximum Health of one enemy of a
        several-enemy Villain (Vegeta's Ozaru Form)."""
        return 0

    # --- the Characters' actions ------------------------------------------------------

    def villain_action_worth(self, g: Reach, ch: CharacterState) -> float | None:
        """How much a sensible player wants this Villain's own action now, on
        the bots' scale (``bots.greedy``: a buy scores 10 and more, an
        attack 70 and more; below 0, never): the bots' habit for this
        board. ``None``: nothing to tell, the bots' usual worth."""
        return None

    def villain_action(self, g: Reach, ch: CharacterState) -> tuple[str, str | None]:
        """The Villain's own action a Character may take in the Actions phase
        (the ``villain-action`` action: cut Ozaru's tail …): the action in
        words, and why ``ch`` may not take it now (``None`` when they may).
        No words: this Villain offers no such action."""
        return "", f"{g.name(VILLAIN)} offers no action of this kind"

    def take_villain_action(self, g: Reach, ch: CharacterState) -> None:
        """``ch`` takes the Villain's own action (``villain_action`` allowed it)."""

    def special_targets(self, g: Reach, name: str) -> list[Holder]:
        """Targets outside the table: Ally Market cards, the Kidnapped Victim."""
        row = g.state.markets["allies"].row
        if not row:
            return []
        if name == "ally-market-chosen":
            return [MarketAllyRef(row[0])]
        costs = {uid: _cost(g, uid) for uid in row}
        pick = max if name == "ally-market-highest-cost" else min
        best = pick(costs.values())
        return [MarketAllyRef(next(u for u in row if costs[u] == best))]

    def eliminate_market_ally(
        self, g: Reach, key: MarketAllyRef, avoidable: bool, source: Holder | None
    ) -> None:
        """An attack eliminates an Ally of the market (the Androids)."""
        uid = key.uid
        row = g.state.markets["allies"].row
        if uid not in row:
            return
        row.remove(uid)
        g.state.box.append(uid)
        g.log("eliminate", "{} is eliminated from the Ally Market.", Name(uid))
        zones.restock(g, "allies")

    # --- tokens ---------------------------------------------------------------------------

    def tokens(self, g: Reach, key: Holder, counter: str, amount: int, ctx: EffectContext) -> None:
        """Add (or remove, when negative) tokens of a kind."""
        v = g.state.villain
        if key.__class__ is CharacterRef and counter == "special-ability":
            ch = g.state.character(key.id)
            ch.ability_tokens = max(0, ch.ability_tokens + amount)
            return
        v.tokens[counter] = max(0, v.tokens.get(counter, 0) + amount)
        g.log(
            "tokens",
            f"{counter.capitalize()} tokens: {v.tokens[counter]}.",
            counter=counter,
            value=v.tokens[counter],
        )

    def break_armor(self, g: Reach, key: Holder) -> None:
        """Remove an Armor token (an enemy's own, or the Villain's)."""
        v = g.state.villain
        tokens = v.enemy_tokens.get(key.id, {}) if key.__class__ is EnemyRef else v.tokens
        if tokens.get("armor", 0) > 0:
            tokens["armor"] -= 1
            g.log("tokens", "{} loses an Armor token.", key)

    # --- ends ------------------------------------------------------------------------------

    def death_effect(self, g: Reach, character: str) -> None:
        """The board's death effect after a Character is defeated."""
        board = g.villain_card()
        if board.death_effect:
            g.log("death-effect", "{}'s death effect: {}", VILLAIN, board.death_effect_text)
            g.push_ops(board.id, "death_effect", EffectContext(VILLAIN))

    def on_minion_eliminated(self, g: Reach, card_id: str) -> None:
        """A Minion was eliminated."""

    def on_enemy_defeated(self, g: Reach, enemy: str) -> None:
        """One enemy of a several-enemy Villain is defeated; all of them down
        means the Characters win."""
        board = g.villain_card()
        if set(board.enemies) <= set(g.state.villain.defeated_enemies):
            combat.end(g, "players", f"{g.name(VILLAIN)} are defeated.")

    def check_victory(self, g: Reach) -> None:
        """Villain-specific victory checks."""

    # --- what no player knows -----------------------------------------------------------

    def hidden_piles(self, g: Reach) -> list[HiddenPile]:
        """The Villain's piles whose order no player knows (rules note N51):
        the shuffled deck, any card of it taking any place ("Take all of
        this Villain's cards and shuffle them"), and the face-down side
        decks (a tracker card's cards lie face up, as the seat views show
        them). A Villain whose deck is built in another way says how."""
        v = g.state.villain
        return [HiddenPile(v.deck), *self.hidden_side_decks(g)]

    def hidden_side_decks(self, g: Reach) -> list[HiddenPile]:
        """The face-down side decks (the Saibamen's): every side deck but
        those laid on a reference card (Raditz's Kidnapped Victim)."""
        piles = []
        for name, pile in g.state.villain.side_decks.items():
            card = g.catalog.cards.get(name)
            if getattr(card, "type", "") != "reference":
                piles.append(HiddenPile(pile))
        return piles


def _uid(task: Prepared | VillainAttackState) -> int:
    return task.uid


def _half(card: SplitCard, task: Prepared | VillainAttackState) -> int:
    """Which half of a split card a prepared attack or task is."""
    if isinstance(task, VillainAttackState) and task.half is not None:
        return task.half
    return next(i for i, h in enumerate(card.halves) if h.enemy == task.owner)


def _cost(g: Reach, uid: int) -> int:
    return g.card(uid).printed_cost
