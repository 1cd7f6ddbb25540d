"""Broly: his Power, Aggro, calming, phase changes, the 2D6 table,
implosion, the death effect and Paragus.

Broly's Power is the ``power`` count of ``VillainState.tokens``; the Aggro
token is ``BrolyState.aggro``, his module's own state (who holds it). His
phase summary (base damage, the thresholds of each phase, the cost to calm
him) is data: the ``phases`` of the "Broly's Power" reference card. Calming
him is the Characters' ``villain-action``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from dbdeck.games.deckbuilding.cards import plain as fx
from dbdeck.games.deckbuilding.cards.plain import Attack, PhaseInfo, Reference
from dbdeck.games.deckbuilding.engine import combat, rules
from dbdeck.games.deckbuilding.engine.attacks import VillainAttack
from dbdeck.games.deckbuilding.engine.context import EffectContext
from dbdeck.games.deckbuilding.engine.effects import resolve_targets
from dbdeck.games.deckbuilding.engine.events import Name
from dbdeck.games.deckbuilding.engine.holders import VILLAIN, AllyRef, CharacterRef, Holder
from dbdeck.games.deckbuilding.engine.state import NO_HOLDER, HiddenPile, Option, VillainOwnState
from dbdeck.games.deckbuilding.engine.tasks import (
    Asking,
    VillainTask,
    optional,
    read_choice,
    villain_task,
)
from dbdeck.games.deckbuilding.engine.villains.base import VillainRules

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.reach import Reach
    from dbdeck.games.deckbuilding.engine.state import CharacterState

__all__ = ["IMPLOSION", "POWER_CARD", "BrolyRules", "phase_info", "power"]

POWER_CARD = "broly-power"
"""The reference card with the 2D6 table and the phase summary."""
FURIOUS_RAGE = "broly-furious-rage"
IMPLOSION = 10
"""Power at which an attack makes Broly implode."""


def power(g: Reach) -> int:
    """Broly's Power: the Power tokens on him."""
    return g.state.villain.tokens.get("power", 0)


def phase_info(g: Reach, phase: int | None = None) -> PhaseInfo:
    """The phase summary row of a phase (the current one by default)."""
    wanted = g.state.villain.phase if phase is None else phase
    rows: list[PhaseInfo] = g.card_as(POWER_CARD, Reference).phases
    return next((row for row in rows if row.phase == wanted), rows[-1])


@dataclass(slots=True)
class BrolyState(VillainOwnState):
    """What Broly's board keeps of its own."""

    IN_EVERY_SNAPSHOT: ClassVar[bool] = True

    aggro: Holder | None = field(default=None, metadata={NO_HOLDER: ""})
    """Who holds his Aggro token."""


def own(g: Reach) -> BrolyState:
    """Broly's own state in a game of his."""
    state = g.state.villain.own
    assert isinstance(state, BrolyState), "a game against Broly"
    return state


class BrolyRules(VillainRules):
    OFFERS_ACTION = True  # calming Broly
    """Broly's own rules (rulebook, "Broly")."""

    OWN_STATE = BrolyState

    # --- setup and activation ---------------------------------------------------------

    def setup(self, g: Reach) -> None:
        """Broly's cards form his deck unshuffled: the 2D6 table of "Broly's
        Power" picks the card he plays, he never draws. Power starts at 0."""
        board = g.villain_card()
        g.state.villain.deck = [g.new_uid(e.card) for e in board.deck for _ in range(e.copies)]
        g.state.villain.tokens["power"] = 0

    def hidden_piles(self, g: Reach) -> list[HiddenPile]:
        """Nothing of Broly's is hidden but his side decks: his deck is a
        table the 2D6 look cards up in, never drawn from, so its order
        tells nothing (rules note N51)."""
        return self.hidden_side_decks(g)

    def activate(self, g: Reach) -> None:
        """Roll 2D6 on the table of "Broly's Power" and apply the row. A row
        that activates an attack already prepared on the Time Track is
        ignored and the dice are rolled again (rules note B1)."""
        table = g.card_as(POWER_CARD, Reference).roll_table[0]
        assert isinstance(table, fx.Roll)
        v = g.state.villain
        prepared = {g.state.card_ids[p.uid] for slot in v.time_track for p in slot}
        while True:
            dice = [g.rng.randint(1, 6), g.rng.randint(1, 6)]
            total = sum(dice)
            g.log(
                "roll",
                "{} rolls 2D6 on his table: {} ({}, {}).",
                VILLAIN,
                total,
                dice[0],
                dice[1],
                dice=dice,
                total=total,
            )
            index = next(
                (i for i, row in enumerate(table.rows) if row.low <= total <= row.high), None
            )
            if index is None:
                return
            row = table.rows[index]
            named = [op.card for op in row.effects if isinstance(op, fx.ActivateCard)]
            again = [card for card in named if card in prepared]
            if not again:
                break
            g.log(
                "reroll",
                "{} is already prepared: {} rolls again.",
                g.card(again[0]).name,
                VILLAIN,
            )
        g.log("activate", "{}: {}", VILLAIN, row.text)
        g.push_ops(POWER_CARD, f"roll_table.0.rows.{index}.effects", EffectContext(VILLAIN))

    def activate_card(self, g: Reach, card_id: str) -> None:
        """Prepare (or make) the attack a row of the table names. Furious Rage
        waits for the players when the Aggro token points elsewhere (the
        Controversy)."""
        if card_id == FURIOUS_RAGE and len(self._rage_targets(g)) > 1:
            g.push(FuriousRage())
            return
        super().activate_card(g, card_id)

    # --- attacks ----------------------------------------------------------------------

    def power_damage(self, g: Reach) -> int:
        """Each attack adds the base damage of Broly's phase (1 / 3 / 5) and
        his Power ("When Broly attacks")."""
        return phase_info(g).base_damage + power(g)

    def villain_action_worth(self, g: Reach, ch: CharacterState) -> float | None:
        """Calming Broly is worth its Energy when his next attack would
        defeat the calmer (or its Ally) holding the Aggro token, or when his
        Power is about to move him to a worse phase or already makes every
        attack heavy."""
        aggro = self.aggro_holder(g)
        info = phase_info(g)
        hit = info.base_damage + power(g) + 2  # a typical card prints 0 to 3 more
        own: set[Holder] = {CharacterRef(ch.id), *(AllyRef(u.uid) for u in ch.allies)}
        if aggro is not None and aggro in own and rules.remaining(g, aggro) <= hit:
            return 65  # before buying: survive the next attack
        if info.power_at is not None and power(g) >= info.power_at - 1:
            return 45
        if power(g) >= 4:
            return 40
        return -1

    def villain_action(self, g: Reach, ch: CharacterState) -> tuple[str, str | None]:
        """Calm Broly: the phase's Energy for one Power token less (B4)."""
        cost = phase_info(g).calm_cost
        if cost is None:
            return "", f"{g.name(VILLAIN)} cannot be calmed"
        words = f"Calm {g.name(VILLAIN)} ({cost} Energy: 1 Power token less)"
        if power(g) <= 0:
            return words, f"{g.name(VILLAIN)} has no Power token to discard"
        if ch.energy < cost:
            return words, f"calming {g.name(VILLAIN)} costs {cost} Energy; you have {ch.energy}"
        return words, None

    def take_villain_action(self, g: Reach, ch: CharacterState) -> None:
        """Calming Broly: one Power token less; the Aggro token is discarded
        when the calming Character or one of its Allies holds it (B4)."""
        cost = int(phase_info(g).calm_cost or 0)
        ch.energy -= cost
        g.log("calm", "{} spends {} Energy to calm {}.", CharacterRef(ch.id), cost, VILLAIN)
        ctx = EffectContext(CharacterRef(ch.id))
        self.tokens(g, VILLAIN, "power", -1, ctx)
        aggro = own(g).aggro
        if aggro in (CharacterRef(ch.id), *(AllyRef(u.uid) for u in ch.allies)):
            self.tokens(g, aggro, "aggro", -1, ctx)

    def on_attacked(
        self, g: Reach, source: Holder, target: Holder, amount: int, dealt: int, technique: bool
    ) -> None:
        """An attack dealing more than Broly's Power (after Armor and Damage
        Reduction) enrages him: +1 Power, and the attacker takes the Aggro
        token. Reaching 10 Power this way makes him implode (rules notes B2, B8)."""
        if target is not VILLAIN or g.state.winner:
            return
        before = power(g)
        if dealt > before:
            v = g.state.villain
            v.tokens["power"] = before + 1
            own(g).aggro = source
            g.log(
                "tokens",
                "{} is enraged: Power {}; {} takes the Aggro token.",
                VILLAIN,
                before + 1,
                source,
                counter="power",
                value=before + 1,
            )
            if before + 1 >= IMPLOSION:
                combat.end(
                    g,
                    "players",
                    f"an attack raised {g.name(VILLAIN)}'s Power to {before + 1}: he implodes.",
                )
                return
        self._update_phase(g)

    def aggro_holder(self, g: Reach) -> Holder | None:
        """Who holds Broly's Aggro token."""
        return own(g).aggro

    def _rage_targets(self, g: Reach) -> list[Holder]:
        """Furious Rage's possible targets when the Aggro token and the card
        disagree: the Aggro holder and the enemies with the most Dragon Balls.
        One target (or none) when they agree."""
        aggro = own(g).aggro
        if aggro is None or not combat.alive(g, aggro):
            return []
        most, _ = resolve_targets(g, g.card_as(FURIOUS_RAGE, Attack).target, EffectContext(VILLAIN))
        return [aggro] if aggro in most else [aggro, *most]

    def _furious_rage(self, g: Reach, task: FuriousRage) -> None:
        """The Controversy: the players choose Furious Rage's target between
        the Aggro holder and the enemy with the most Dragon Balls; the Grim
        Rule's option is marked (rules notes N43, B6)."""
        keys = self._rage_targets(g)
        if len(keys) < 2:
            super().activate_card(g, FURIOUS_RAGE)
            return
        if task.choice is None:
            aggro = own(g).aggro
            grim = self._grim_target(g, keys)
            options = []
            for key in keys:
                why = "holds the Aggro token" if key is aggro else "controls the most Dragon Balls"
                # Only the Grim Rule's answer is marked; the others say nothing.
                marked = True if key is grim else None
                options.append(Option(f"{g.target_label(key)}: {why}", key, grim=marked))
            g.ask(
                task,
                "target",
                "players",
                "Controversy: Furious Rage hits the enemy with the most Dragon Balls, the "
                "Aggro token names another. Who is Broly's target?",
                options,
            )
            return
        target = task.choice if task.choice in keys else keys[0]
        v = g.state.villain
        piles = (v.deck, v.discard)
        uid = next((u for p in piles for u in p if g.state.card_ids[u] == FURIOUS_RAGE), None)
        if uid is None:
            return
        (v.deck if uid in v.deck else v.discard).remove(uid)
        g.log(
            "attack",
            "{} attacks with {} ({}).",
            VILLAIN,
            Name(uid),
            target,
            card=FURIOUS_RAGE,
            targets=[target],
        )
        g.push(VillainAttack(uid, "", origin="chosen", stage="clash", targets=[target]))

    def _grim_target(self, g: Reach, keys: list[Holder]) -> Holder:
        """The target the Grim Rule picks: the hit that defeats a Character,
        else one that eliminates an Ally, else a Character over an Ally, else
        the most damage dealt, else the most Dragon Balls lost (rules note B6)."""
        body = g.card_as(FURIOUS_RAGE, Attack)
        damage = (
            body.damage
            + g.state.villain.damage_bonus
            + self.attack_bonus(g, VILLAIN)
            + self.power_damage(g)
        )

        def harm(key: Holder) -> tuple[bool, bool, bool, int, int]:
            left = rules.remaining(g, key)
            dealt = min(left, combat.reduce(g, key, damage, body.damage_kind))
            character = key.__class__ is CharacterRef
            defeats = dealt >= left
            return (defeats and character, defeats, character, dealt, combat.balls_of(g, key))

        return max(keys, key=harm)

    # --- tokens and phases ------------------------------------------------------------

    def tokens(self, g: Reach, key: Holder, counter: str, amount: int, ctx: EffectContext) -> None:
        """Power tokens move Broly's phase on; the Aggro token goes to whoever
        gains it, and its discarding is told."""
        if counter == "aggro":
            state = own(g)
            if amount < 0 and state.aggro is not None:
                g.log("tokens", "{}'s Aggro token is discarded.", state.aggro, counter="aggro")
            state.aggro = key if amount > 0 else None
            return
        super().tokens(g, key, counter, amount, ctx)
        if counter == "power":
            self._update_phase(g)

    def _update_phase(self, g: Reach) -> None:
        """Broly transforms once his damage passes his phase's limit (30, 100)
        or his Power reaches its mark (5, 8); he never goes back, and may go
        through both at once (rules note B3)."""
        v = g.state.villain
        last = max(row.phase for row in g.card_as(POWER_CARD, Reference).phases)
        while v.phase < last:
            info = phase_info(g)
            hurt = info.damage_above is not None and v.damage > info.damage_above
            angry = info.power_at is not None and power(g) >= info.power_at
            if not (hurt or angry):
                return
            v.phase += 1
            now = phase_info(g)
            g.log(
                "transform",
                f"{g.name(VILLAIN)} transforms: Phase {v.phase} (base damage {now.base_damage}"
                + (f", calming costs {now.calm_cost} Energy" if now.calm_cost else "")
                + ").",
                phase=v.phase,
            )

    # --- ends -------------------------------------------------------------------------

    def check_victory(self, g: Reach) -> None:
        """Not a victory check for Broly: damage dealt outside an attack (a
        wish) moves his phase on too, and an Aggro token whose holder was
        defeated or eliminated is discarded (rules note B5)."""
        self._update_phase(g)
        state = own(g)
        if state.aggro is not None and not combat.alive(g, state.aggro):
            holder = state.aggro
            inside = (
                isinstance(holder, CharacterRef) and g.state.character(holder.id).room_tokens >= 0
            )
            if not inside:
                state.aggro = None
                g.log("tokens", "{} has left play: the Aggro token is discarded.", holder)


@villain_task("do", "furious-rage")
@dataclass(slots=True)
class FuriousRage(VillainTask, Asking):
    """The Furious Rage Controversy: the players choose Broly's target."""

    choice: Any = optional(None)
    """The target chosen."""
    read_answer = staticmethod(read_choice)

    def run(self, g: Reach) -> None:
        """Ask, then make the attack."""
        rules = g.hooks
        assert isinstance(rules, BrolyRules)
        rules._furious_rage(g, self)
