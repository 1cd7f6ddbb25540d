"""Androids 19 and 20: the survivor's activation, Android Activation,
Damage Reduction and Regeneration while both stand, the death effect and
Thirst for Revenge.

The two Villain turn-order cards are the Androids' own: ``V1`` activates
Android 19 and ``V2`` Android 20 (the order of the board's ``enemies``). The
active Android is the one whose card came up, or the survivor once it is
eliminated; it uses the Villain card revealed this turn, so its attacks,
repairs and prepared Energy attacks are its own (rules notes T1, T2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dbdeck.games.deckbuilding.cards.plain import AttackBody, Event
from dbdeck.games.deckbuilding.engine import combat, rules, zones
from dbdeck.games.deckbuilding.engine.attacks import VillainAttack
from dbdeck.games.deckbuilding.engine.context import EffectContext
from dbdeck.games.deckbuilding.engine.events import Agree, Name
from dbdeck.games.deckbuilding.engine.holders import VILLAIN, CharacterRef, EnemyRef, Holder
from dbdeck.games.deckbuilding.engine.state import Option, Prepared
from dbdeck.games.deckbuilding.engine.tasks import (
    Asking,
    OrderItem,
    VillainTask,
    optional,
    villain_task,
)
from dbdeck.games.deckbuilding.engine.villains.base import VillainRules
from dbdeck.games.deckbuilding.engine.words import count, sentence

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.reach import Reach

ANDROID_19 = "androids-19-20-android-19"
ANDROID_20 = "androids-19-20-android-20"
ACTIVATION = "androids-19-20-android-activation"
THIRST = "androids-19-20-thirst-for-revenge"


class Androids1920Rules(VillainRules):
    """Androids 19 and 20's own rules (rulebook, "Androids 19 and 20")."""

    # --- who acts -----------------------------------------------------------------------

    def standing(self, g: Reach) -> list[str]:
        """The Androids still in play, in the board's order."""
        defeated = g.state.villain.defeated_enemies
        return [e for e in g.villain_card().enemies if e not in defeated]

    def both_in_play(self, g: Reach) -> bool:
        """Whether neither Android has been eliminated."""
        return len(self.standing(g)) == 2

    def active_android(self, g: Reach) -> str | None:
        """The Android this Villain turn belongs to: the one whose turn-order
        card was revealed; when it is eliminated, the survivor ("If one of
        them is eliminated")."""
        standing = self.standing(g)
        if not standing:
            return None
        enemies = g.villain_card().enemies
        revealed = g.state.revealed
        own = standing[0]
        if revealed[:1] == "V" and revealed[1:].isdigit():
            own = enemies[(int(revealed[1:]) - 1) % len(enemies)]
        return own if own in standing else standing[0]

    @staticmethod
    def _card_owner(g: Reach, card: str) -> str:
        enemies = g.villain_card().enemies
        index = int(card[1:]) - 1 if card[1:].isdigit() else 0
        return str(enemies[index % len(enemies)])

    def turn_card_name(self, g: Reach, card: str) -> str:
        """Android 19's card or Android 20's."""
        return g.name(EnemyRef(self._card_owner(g, card)))

    def villain_card(self, g: Reach, card: str) -> None:
        """Say which Android the revealed card activates."""
        android = self.active_android(g)
        if android is None:
            return
        owner = self._card_owner(g, card)
        if owner == android:
            g.log("activate", "{} activates.", EnemyRef(android), enemy=android)
        else:
            g.log(
                "activate",
                "{} is eliminated: the card activates {}.",
                EnemyRef(owner),
                EnemyRef(android),
                enemy=android,
            )

    # --- the Villain's turn ----------------------------------------------------------------

    def turn_start(self, g: Reach) -> list[OrderItem]:
        """Android Activation resolves when an Android's card comes up."""
        return [OrderItem(g.card(ACTIVATION).name, AndroidActivation())]

    def _activation(self, g: Reach) -> None:
        """Android Activation, top to bottom: a card from a hand, then
        Regeneration; in Extreme Mode, Thirst for Revenge after it (rules
        note T7)."""
        android = self.active_android(g)
        if android is None:
            return
        g.log("activate", "Android Activation: {}.", EnemyRef(android), enemy=android)
        # Pushed last to first: the stack runs them top to bottom.
        if g.state.extreme:
            g.push_ops(THIRST, "effects", EffectContext(EnemyRef(android)))
        g.push(Regeneration())
        g.push(Absorb(android))

    def _absorb(self, g: Reach, task: Absorb) -> None:
        """A card at random from the hand of a Character the players choose:
        an Energy repairs the active Android by its value and is discarded;
        anything else goes back to the hand (rules notes T3, T4)."""
        android = task.enemy
        if android not in self.standing(g):
            return
        hands = [ch for ch in g.state.characters if ch.in_play() and ch.hand]
        if not hands:
            g.log("absorb", "Android Activation: no Character in play has a card in hand.")
            return
        chosen = g.choose_one(
            task,
            "android-activation",
            "players",
            f"Android Activation: {g.name(EnemyRef(android))} takes a card at random from whose "
            "hand?",
            [
                Option(f"{g.name(CharacterRef(ch.id))} ({count(len(ch.hand), 'card')})", ch.id)
                for ch in hands
            ],
        )
        if chosen is None:
            return
        ch = g.state.character(chosen)
        if not ch.hand:
            return
        uid = g.rng.card_at_random(ch.hand)
        who = CharacterRef(ch.id)
        if g.card(uid).kind not in zones.ENERGY_KINDS:
            g.state.known[uid] = ""  # shown to every player, back in the hand (N51)
            g.log(
                "absorb",
                "{} takes {} from {}'s hand: not an Energy, it goes back to the hand.",
                EnemyRef(android),
                Name(uid),
                who,
                card=g.state.card_ids[uid],
            )
            return
        value = g.energy_value(uid)
        ch.hand.remove(uid)
        ch.discard.append(uid)
        g.log(
            "absorb",
            "{} takes {} from {}'s hand and absorbs its {} Energy; the card is discarded.",
            EnemyRef(android),
            Name(uid),
            who,
            value,
            card=g.state.card_ids[uid],
            value=value,
        )
        _repair(g, android, value)

    def _regeneration(self, g: Reach) -> None:
        """While both Androids are in play, Android 19 has Regeneration 1
        (rules note T5)."""
        if self.both_in_play(g):
            _repair(g, ANDROID_19, 1)

    def reveal(self, g: Reach, uid: int) -> None:
        """An event is the active Android's own (its "self" is that Android)."""
        card = g.card(uid)
        if not isinstance(card, Event):
            super().reveal(g, uid)
            return
        android = self.active_android(g)
        g.log(
            "reveal",
            "{} {}",
            Agree(VILLAIN, "reveals", "reveal"),
            sentence(card.name),
            card=card.id,
        )
        g.state.villain.discard.append(uid)
        if card.effects:
            actor = EnemyRef(android) if android else VILLAIN
            g.push_ops(card.id, "effects", EffectContext(actor, uid))

    def play_attack(
        self, g: Reach, uid: int, body: AttackBody, owner: str, half: int | None = None
    ) -> None:
        """The active Android makes the attack. An Energy attack takes the
        first free Time position from its Time on, whichever Android holds
        the others ("Villain Turn", 5; rules note N17)."""
        owner = owner or self.active_android(g) or ""
        if body.attack_type == "physical" or not body.time:
            g.push(VillainAttack(uid, owner, half))
            return
        track = g.state.villain.time_track
        slot = body.time - 1
        while slot < 3 and track[slot]:
            slot += 1
        track[slot].append(Prepared(uid, owner=owner))
        g.log("prepare", "{} is prepared at Time {}.", Name(uid), slot + 1)

    # --- damage ---------------------------------------------------------------------------

    def damage_reduction(self, g: Reach, key: Holder) -> int:
        """While both Androids are in play, Android 20 has Damage Reduction 1."""
        return 1 if key is EnemyRef(ANDROID_20) and self.both_in_play(g) else 0

    def enemy_self(self, g: Reach, enemy: EnemyRef) -> Holder:
        """An Android's "self" is that Android: it repairs its own damage."""
        return enemy

    def on_enemy_defeated(self, g: Reach, enemy: str) -> None:
        """The survivor takes over the Energy attacks the eliminated Android
        had prepared (rules note T2); both down, the Characters win."""
        standing = self.standing(g)
        if standing:
            for slot in g.state.villain.time_track:
                for prepared in slot:
                    if prepared.owner == enemy:
                        prepared.owner = standing[0]
        super().on_enemy_defeated(g, enemy)

    # --- ends -----------------------------------------------------------------------------

    def death_effect(self, g: Reach, character: str) -> None:
        """The Androids capture every unclaimed Dragon Ball (rules note N9);
        with none unclaimed the effect does nothing."""
        if None in g.state.balls:
            super().death_effect(g, character)


def _repair(g: Reach, android: str, amount: int) -> None:
    """An Android repairs damage (none to repair: nothing changes)."""
    if amount > 0 and rules.damage_of(g, EnemyRef(android)) > 0:
        combat.heal(g, EnemyRef(android), amount, repair=True)


def _rules(g: Reach) -> Androids1920Rules:
    rules = g.hooks
    assert isinstance(rules, Androids1920Rules)
    return rules


@villain_task("rule", "activation")
@dataclass(slots=True)
class AndroidActivation(VillainTask):
    """Android Activation, at the start of the Villain's turn."""

    def run(self, g: Reach) -> None:
        """Queue the active Android's absorbing and the Regeneration."""
        _rules(g)._activation(g)


@villain_task("rule", "absorb")
@dataclass(slots=True)
class Absorb(VillainTask, Asking):
    """The active Android takes a card at random from a hand the players choose."""

    enemy: str
    """The active Android."""
    choice: Any = optional(None)
    """The Character whose hand it is."""

    def run(self, g: Reach) -> None:
        """Ask whose hand, then absorb."""
        _rules(g)._absorb(g, self)


@villain_task("rule", "regeneration")
@dataclass(slots=True)
class Regeneration(VillainTask):
    """Android 19's Regeneration while both Androids are in play."""

    def run(self, g: Reach) -> None:
        """Repair Android 19."""
        _rules(g)._regeneration(g)
