"""Vegeta and Nappa: Coldness, the Saibaman deck, Armor tokens per enemy,
Vegeta's single-hit defeat, Ozaru Form and the death effect.

Who acts: a card names its Saiyan in ``acts`` (the other one uses it when
that one is out of play); a double activation card is a split card with one
part for each, Nappa's first (rules notes V1, V4). Vegeta gains Coldness
before each card he uses (V2, V3).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dbdeck.games.deckbuilding.cards import plain as fx
from dbdeck.games.deckbuilding.cards.plain import AttackBody, Event, Reference, SplitCard
from dbdeck.games.deckbuilding.engine import attacks, combat, rules
from dbdeck.games.deckbuilding.engine.attacks import VillainAttack
from dbdeck.games.deckbuilding.engine.context import EffectContext
from dbdeck.games.deckbuilding.engine.events import Agree, Name
from dbdeck.games.deckbuilding.engine.holders import VILLAIN, CharacterRef, EnemyRef, Holder
from dbdeck.games.deckbuilding.engine.state import CharacterState, Prepared, Unit
from dbdeck.games.deckbuilding.engine.tasks import Task, task_kind
from dbdeck.games.deckbuilding.engine.villains.base import VillainRules
from dbdeck.games.deckbuilding.engine.words import count, sentence

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.reach import Reach

VEGETA = "vegeta-nappa-vegeta"
NAPPA = "vegeta-nappa-nappa"
COLDNESS = "vegeta-nappa-coldness"
OZARU = "vegeta-nappa-ozaru-form"
POWER_BALL = "vegeta-nappa-vegeta-power-ball"

ARMOR_BREAKING_HIT = 4
"""An attack of this much damage (before Armor) breaks an Armor token."""
USELESS = 10
"""Nappa's Remaining Health at which Vegeta, gaining Coldness, eliminates him."""
COLDNESS_PER_DAMAGE = 2
"""Coldness tokens per point of damage Vegeta's attacks gain once Nappa is gone."""
CUT_THE_TAIL = 5
"""Energy a Character pays to end Ozaru Form."""
TAIL_DAMAGE = 3
"""UNAVOIDABLE damage the Saiyan suffers when his tail is cut."""

TASK = "vegeta-nappa"
"""The task of a Saiyan acting after what comes before him (Coldness, or
Nappa's part of a double activation card)."""


ARMOR = "armor"
"""A Saiyan's own counter of Armor tokens (``VillainState.enemy_tokens``)."""
OZARU_TOKEN = "ozaru"
"""A Saiyan's own counter marking him as the one who wears the Ozaru Form card."""


def _own(g: Reach, enemy: str) -> dict[str, int]:
    """One Saiyan's own token counters (read only: an empty dict when none)."""
    return g.state.villain.enemy_tokens.get(enemy, {})


def _set_own(g: Reach, enemy: str, counter: str, value: int) -> None:
    g.state.villain.enemy_tokens.setdefault(enemy, {})[counter] = value


class VegetaNappaRules(VillainRules):
    OFFERS_ACTION = True  # cutting Ozaru's tail
    """Vegeta and Nappa's own rules (rulebook, the Villain's section)."""

    # --- setup ------------------------------------------------------------------------

    def setup(self, g: Reach) -> None:
        """The shuffled deck, and each Saiyan's Armor tokens: one from the
        board plus what the difficulty adds (his card's Armor)."""
        super().setup(g)
        for enemy in g.villain_card().enemies:
            _set_own(g, enemy, ARMOR, self._starting_armor(g, enemy))

    def extreme_minions(self, g: Reach, starting: list[str]) -> list[str]:
        """Extreme Mode: the Saibamen come out of the Saibaman deck, so no
        more than its 4 cards are ever in play."""
        v = g.state.villain
        rest = []
        for card in g.villain_card().extreme_cards:
            side = v.side_decks.get(card)
            if side is None:
                rest.append(card)
            elif side:
                v.minions.append(Unit(side.pop()))
        return starting + rest

    # --- who acts ---------------------------------------------------------------------

    def reveal(self, g: Reach, uid: int) -> None:
        """A card a Saiyan uses: Nappa's part first; Vegeta gains Coldness
        before his part (rulebook: "Nappa's activation, Vegeta gains Coldness,
        Vegeta eliminates Nappa, and then Vegeta performs his card's
        activation")."""
        card = g.card(uid)
        parts = self._parts(g, card)
        if parts is None:
            super().reveal(g, uid)
            return
        g.log(
            "reveal",
            "{} {}",
            Agree(VILLAIN, "reveals", "reveal"),
            sentence(card.name),
            card=card.id,
        )
        if not parts:
            g.state.villain.discard.append(uid)
            return
        # The stack runs last-pushed first: push the parts from the end.
        for enemy, half in reversed(parts):
            body = self._body(card, half)
            if body is not None and body.damage and body.attack_type == "physical":
                # A physical attack waits on the stack as the attack itself, so
                # the card is accounted for while Nappa's part resolves.
                self.play_attack(g, uid, body, enemy, half)
            else:
                g.push(SaiyanActs(uid, enemy, half))
            if enemy == VEGETA:
                g.push_ops(COLDNESS, "effects", EffectContext(EnemyRef(VEGETA)))

    def _parts(self, g: Reach, card: Any) -> list[tuple[str, int | None]] | None:
        """Who acts on a card, in order, with the half each uses; ``None`` for
        a card of the Villain as a whole (Saibaman Seeds, Scouter Reading)."""
        if isinstance(card, SplitCard):
            # A double activation card: a defeated Saiyan's part is lost (V1).
            return [
                (half.enemy, i)
                for i, half in enumerate(card.halves)
                if combat.alive(g, EnemyRef(half.enemy))
            ]
        if not card.acts:
            return None
        # "If that Saiyan is out of play, the other one uses the card" (V4).
        standing = self._standing(g)
        user = next((e for e in card.acts if e in standing), standing[0] if standing else None)
        return [] if user is None else [(user, None)]

    @staticmethod
    def _body(card: Any, half: int | None) -> AttackBody | None:
        """The attack of a card or of one of its halves (``None``: an event)."""
        if half is not None:
            return card.halves[half].attack  # type: ignore[no-any-return]
        return card if isinstance(card, AttackBody) else None

    def _act_task(self, g: Reach, task: SaiyanActs) -> None:
        """A Saiyan acts, after the Coldness or the part that came before."""
        uid, enemy, half = task.uid, task.enemy, task.half
        v = g.state.villain
        if uid in v.discard:
            v.discard.remove(uid)  # Nappa's part resolved first and set it aside
        card = g.card(uid)
        body = self._body(card, half)
        if isinstance(card, Event):
            v.discard.append(uid)
            if card.id == POWER_BALL:
                self._power_ball(g, enemy)
            elif card.effects:
                g.push_ops(card.id, "effects", EffectContext(EnemyRef(enemy), uid))
        elif body is not None and not body.damage:
            # A part that deals no damage is no attack: its effects happen.
            path = "effects" if half is None else f"halves.{half}.attack.effects"
            g.push_ops(card.id, path, EffectContext(EnemyRef(enemy), uid))
            attacks.discard_attack(g, uid)  # unless its other part is prepared
        elif body is not None:
            self.play_attack(g, uid, body, enemy, half)
        else:
            attacks.discard_attack(g, uid)

    def _standing(self, g: Reach) -> list[str]:
        """The Saiyans still in play."""
        v = g.state.villain
        return [e for e in g.villain_card().enemies if e not in v.defeated_enemies]

    def play_attack(
        self, g: Reach, uid: int, body: AttackBody, owner: str, half: int | None = None
    ) -> None:
        """One Time Track for both Saiyans: an Energy attack takes its slot, or
        the first free one after it; only the two parts of one double
        activation card share a slot (V7)."""
        if body.attack_type == "physical" or not body.time:
            g.push(VillainAttack(uid, owner, half))
            return
        track = g.state.villain.time_track
        slot = body.time - 1
        while slot < 3 and any(p.uid != uid for p in track[slot]):
            slot += 1
        track[slot].append(Prepared(uid, owner=owner))
        if owner:
            g.log("prepare", "{}: {} is prepared at Time {}.", EnemyRef(owner), Name(uid), slot + 1)
        else:
            g.log("prepare", "{} is prepared at Time {}.", Name(uid), slot + 1)

    # --- Coldness ---------------------------------------------------------------------

    def tokens(self, g: Reach, key: Holder, counter: str, amount: int, ctx: EffectContext) -> None:
        """Armor tokens are each Saiyan's own; gaining Coldness may make
        Vegeta eliminate Nappa."""
        if counter == "armor":
            actor = ctx.actor
            enemies = [actor.id] if isinstance(actor, EnemyRef) else self._standing(g)
            for enemy in enemies:
                self._change_armor(g, enemy, amount)
            return
        if counter == "coldness":
            v = g.state.villain
            v.tokens["coldness"] = max(0, v.tokens.get("coldness", 0) + amount)
            g.log(
                "tokens",
                "{} gains Coldness: {}.",
                EnemyRef(VEGETA),
                count(v.tokens["coldness"], "token"),
                counter=counter,
                value=v.tokens["coldness"],
            )
            if amount > 0:
                self._cold_blood(g)
            return
        super().tokens(g, key, counter, amount, ctx)

    def _cold_blood(self, g: Reach) -> None:
        """ "A Saiyan who can't fight is useless": gaining Coldness, Vegeta
        eliminates Nappa when Nappa has 10 or less Remaining Health (V3)."""
        nappa = EnemyRef(NAPPA)
        if not combat.alive(g, nappa) or not combat.alive(g, EnemyRef(VEGETA)):
            return
        if rules.remaining(g, nappa) > USELESS:
            return
        g.log(
            "coldness",
            f"{g.name(EnemyRef(VEGETA))} eliminates {g.name(nappa)} himself: "
            "a Saiyan who can't fight is useless.",
        )
        combat.kill(g, nappa, killer=None)

    def attack_bonus(self, g: Reach, source: Holder) -> int:
        """Ozaru Form's damage bonus, and Coldness once Nappa is gone: +1
        damage for every 2 Coldness tokens on Vegeta."""
        enemy = self._saiyan(g, source)
        if enemy is None:
            return 0
        v = g.state.villain
        bonus = 0
        if _own(g, enemy).get(OZARU_TOKEN):
            bonus += _ozaru_bonus(g, fx.DamageBonus)
        if enemy == VEGETA and NAPPA in v.defeated_enemies:
            bonus += v.tokens.get("coldness", 0) // COLDNESS_PER_DAMAGE
        return bonus

    def _saiyan(self, g: Reach, source: Holder) -> str | None:
        """The Saiyan behind an attack: its enemy, or for the Villain as a
        whole (an attack whose Saiyan is gone) the one still standing."""
        if isinstance(source, EnemyRef):
            return source.id
        if source is VILLAIN:
            standing = self._standing(g)
            return standing[0] if len(standing) == 1 else None
        return None

    # --- Ozaru Form -------------------------------------------------------------------

    def _power_ball(self, g: Reach, enemy: str) -> None:
        """The Saiyan takes Ozaru Form, or stomps if he already has it."""
        if _own(g, enemy).get(OZARU_TOKEN):
            g.log("ozaru", "{} is already an Ozaru: he stomps.", EnemyRef(enemy))
            g.push_ops(POWER_BALL, "effects", EffectContext(EnemyRef(enemy)))
            return
        _set_own(g, enemy, OZARU_TOKEN, 1)
        g.log(
            "transform",
            f"{g.name(EnemyRef(enemy))} looks at the Power Ball and takes Ozaru Form "
            f"(+{_ozaru_bonus(g, fx.MaxHealthBonus)} Maximum Health, "
            f"+{_ozaru_bonus(g, fx.DamageBonus)} damage).",
        )

    def max_health_bonus(self, g: Reach, key: EnemyRef) -> int:
        """Ozaru Form's Maximum Health bonus."""
        if _own(g, key.id).get(OZARU_TOKEN):
            return _ozaru_bonus(g, fx.MaxHealthBonus)
        return 0

    def villain_action(self, g: Reach, ch: CharacterState) -> tuple[str, str | None]:
        """Cut the tail: pay 5 Energy to end Ozaru Form."""
        ozaru = self._ozaru_saiyan(g)
        if ozaru is None:
            return "", "no Saiyan is in Ozaru Form"
        words = (
            f"Cut {g.name(EnemyRef(ozaru))}'s tail ({CUT_THE_TAIL} Energy): Ozaru Form ends, "
            f"{TAIL_DAMAGE} UNAVOIDABLE damage"
        )
        if ch.energy < CUT_THE_TAIL:
            return words, f"cutting the tail costs {CUT_THE_TAIL} Energy; you have {ch.energy}"
        return words, None

    def take_villain_action(self, g: Reach, ch: CharacterState) -> None:
        ozaru = self._ozaru_saiyan(g)
        assert ozaru is not None
        ch.energy -= CUT_THE_TAIL
        del g.state.villain.enemy_tokens[ozaru][OZARU_TOKEN]
        key = EnemyRef(ozaru)
        g.log("ozaru", "{} cuts {}'s tail: Ozaru Form ends.", CharacterRef(ch.id), key)
        # Losing the Maximum Health bonus can leave his damage at his health:
        # the hit then defeats him ("Health Bonuses").
        combat.hit(g, CharacterRef(ch.id), key, TAIL_DAMAGE, "unavoidable", is_attack=False)

    def _ozaru_saiyan(self, g: Reach) -> str | None:
        """The Saiyan in play who wears the Ozaru Form card."""
        return next((e for e in self._standing(g) if _own(g, e).get(OZARU_TOKEN)), None)

    # --- Saiyan Armor and the single hit -----------------------------------------------

    @staticmethod
    def _starting_armor(g: Reach, enemy: str) -> int:
        return int(g.enemy_card(enemy).armor.at(g.state.difficulty))

    def break_armor(self, g: Reach, key: Holder) -> None:
        """Remove one of a Saiyan's own Armor tokens."""
        if isinstance(key, EnemyRef):
            self._change_armor(g, key.id, -1)
        else:
            super().break_armor(g, key)

    def _change_armor(self, g: Reach, enemy: str, amount: int) -> None:
        """Give back (or take) Armor tokens: never below 0 nor above the
        starting number."""
        start = self._starting_armor(g, enemy)
        now = _own(g, enemy).get(ARMOR, start)
        new = max(0, min(start, now + amount))
        _set_own(g, enemy, ARMOR, new)
        if new < now:
            g.log("tokens", "{} loses an Armor token ({} left).", EnemyRef(enemy), new)
        elif new > now:
            g.log("tokens", "{} gets an Armor token back ({}).", EnemyRef(enemy), new)

    def on_attacked(
        self, g: Reach, source: Holder, target: Holder, amount: int, dealt: int, technique: bool
    ) -> None:
        """Vegeta falls to one hit of the difficulty's size (after Armor);
        an attack of 4 or more (before Armor) cracks an Armor token (V5, V6)."""
        if not isinstance(target, EnemyRef):
            return
        enemy = g.enemy_card(target.id)
        single = enemy.defeat_by_single_hit
        if (
            single is not None
            and dealt >= single.at(g.state.difficulty)
            and rules.remaining(g, target) > 0
        ):
            g.log(
                "defeat",
                f"A single hit of {dealt}: {enemy.name} is defeated outright.",
            )
            # His damage reaches his health: the hit then defeats him.
            g.state.villain.enemy_damage[enemy.id] = rules.max_health(g, target)
            return
        if amount >= ARMOR_BREAKING_HIT:
            self.break_armor(g, target)

    # --- ends -------------------------------------------------------------------------

    def on_enemy_defeated(self, g: Reach, enemy: str) -> None:
        """A defeated Saiyan's Ozaru Form card is set aside."""
        _own(g, enemy).pop(OZARU_TOKEN, None)
        super().on_enemy_defeated(g, enemy)


def _ozaru_bonus(g: Reach, op_type: type) -> int:
    """A bonus the Ozaru Form card gives, read from its effects."""
    return sum(
        int(getattr(op, "amount", 0))
        for op in g.card_as(OZARU, Reference).effects
        if isinstance(op, op_type)
    )


@task_kind(TASK)
@dataclass(slots=True)
class SaiyanActs(Task):
    """One Saiyan's part of a Villain card, after the part before it."""

    uid: int
    """The Villain card."""
    enemy: str
    """The Saiyan acting."""
    half: int | None
    """The half of a double activation card that is theirs (``None``: the
    whole card)."""

    def run(self, g: Reach) -> None:
        """Let the Saiyan act."""
        rules = g.hooks
        assert isinstance(rules, VegetaNappaRules)
        rules._act_task(g, self)
