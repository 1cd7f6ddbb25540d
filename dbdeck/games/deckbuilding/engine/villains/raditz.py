"""Raditz: the Kidnapped Victim, his six Dragon Balls, the Saibaman deck,
Call for Help and Raditz's Choice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from dbdeck.games.deckbuilding.cards.plain import AttackBody
from dbdeck.games.deckbuilding.engine import combat, rules
from dbdeck.games.deckbuilding.engine.context import EffectContext
from dbdeck.games.deckbuilding.engine.events import Name
from dbdeck.games.deckbuilding.engine.holders import VILLAIN, CharacterRef, Holder
from dbdeck.games.deckbuilding.engine.state import HiddenPile, Option, VillainAttackState
from dbdeck.games.deckbuilding.engine.tasks import OrderItem, VillainTask, villain_task
from dbdeck.games.deckbuilding.engine.villains.base import VillainRules
from dbdeck.games.deckbuilding.engine.words import count, sentence

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.reach import Reach

VICTIM = "raditz-kidnapped-victim"
"""The Kidnapped Victim card; the side deck of that name holds the kidnapped
Ally, face up beside the board."""
VICTIM_TOKENS = "victim"
"""The counter of the tokens on the Kidnapped Victim (``VillainState.tokens``)."""
CALL_FOR_HELP = "raditz-call-for-help"
ATTACK_TOKEN_DAMAGE = 3
"""An attack that deals Raditz this much damage or more adds a Victim token."""

_ANY_ENEMY = frozenset({"chosen-enemy", "enemy-with-most-dragon-balls", "enemy-with-least-health"})
"""Attack targets any enemy can be: under Raditz's Choice they only break ties."""
_CHARACTER_ONLY = frozenset(
    {"chosen-character", "character-with-most-dragon-balls", "active-character"}
)
"""Attack targets that only a Character can be (rules note R7)."""


class RaditzRules(VillainRules):
    """Raditz's own rules (rulebook, "Raditz")."""

    # --- setup ------------------------------------------------------------------------

    def setup(self, g: Reach) -> None:
        """Shuffle Raditz's cards and put Call for Help at the bottom, so it
        is the last card of the deck (the Saibamen form their own deck; the
        Kidnapped Victim and Raditz's Choice lie beside the board; rules
        note R5)."""
        board = g.villain_card()
        deck: list[int] = []
        bottom: list[int] = []
        for entry in board.deck:
            pile = bottom if entry.card == CALL_FOR_HELP else deck
            pile += [g.new_uid(entry.card) for _ in range(entry.copies)]
        g.rng.shuffle(deck)
        g.state.villain.deck = bottom + deck  # the top is the end of the list

    def hidden_piles(self, g: Reach) -> list[HiddenPile]:
        """The shuffled deck with "Call for Help" kept at the bottom, and the
        Saibaman deck; the Kidnapped Victim lies face up (rules note N51)."""
        v = g.state.villain
        ids = g.state.card_ids
        groups = tuple(None if ids[uid] == CALL_FOR_HELP else 0 for uid in v.deck)
        return [HiddenPile(v.deck, groups), *self.hidden_side_decks(g)]

    def markets_built(self, g: Reach) -> None:
        """Before the Ally Market is set up, an Ally at random becomes the
        Kidnapped Victim (rules note R1): the top card of the shuffled Ally
        deck, laid beside the board with no token on it."""
        s = g.state
        allies = s.markets["allies"].deck
        s.villain.side_decks[VICTIM] = [allies.pop()] if allies else []
        s.villain.tokens[VICTIM_TOKENS] = 0
        if allies:
            victim = s.villain.side_decks[VICTIM][0]
            g.log("victim", "Raditz holds {} as his Kidnapped Victim.", Name(victim))

    def victim(self, g: Reach) -> int | None:
        """The kidnapped Ally (its uid), or ``None`` when there is none."""
        pile = g.state.villain.side_decks.get(VICTIM, [])
        return pile[0] if pile else None

    # --- the Kidnapped Victim ---------------------------------------------------------

    def turn_start(self, g: Reach) -> list[OrderItem]:
        """The 2D6 roll for the Kidnapped Victim, at the start of each of
        Raditz's turns."""
        if self.victim(g) is None:
            return []
        return [OrderItem("Kidnapped Victim", VictimRoll())]

    def victim_roll(self, g: Reach) -> None:
        """Roll 2D6: below the number of Victim tokens, Raditz kills the
        Kidnapped Victim and wins the game (rules note R2)."""
        victim = self.victim(g)
        if victim is None:
            return
        tokens = g.state.villain.tokens.get(VICTIM_TOKENS, 0)
        dice = [g.rng.randint(1, 6), g.rng.randint(1, 6)]
        total = sum(dice)
        g.log(
            "roll",
            f"Kidnapped Victim: 2D6 rolls {total} ({dice[0]}, {dice[1]}) against "
            f"{count(tokens, 'Victim token')}.",
            dice=dice,
            total=total,
        )
        if total >= tokens:
            return
        s = g.state
        s.villain.side_decks[VICTIM].remove(victim)
        s.box.append(victim)
        g.log("victim", "Raditz kills {}, the Kidnapped Victim!", Name(victim))
        combat.end(g, "villain", "Raditz kills the Kidnapped Victim.")

    def on_attacked(
        self, g: Reach, source: Holder, target: Holder, amount: int, dealt: int, technique: bool
    ) -> None:
        """An attack that deals Raditz 3 or more damage puts a token on the
        Kidnapped Victim (rules note R3)."""
        if target is VILLAIN and dealt >= ATTACK_TOKEN_DAMAGE and self.victim(g) is not None:
            g.log("victim", f"Raditz takes {dealt} damage and turns on his hostage.")
            self.tokens(g, VILLAIN, VICTIM_TOKENS, 1, EffectContext(VILLAIN))

    def special_targets(self, g: Reach, name: str) -> list[Holder]:
        """``kidnapped-victim``: the Kidnapped Victim card, where the death
        effect and Threaten the Hostage put their tokens. It holds no Dragon
        Ball and takes no damage; its tokens lie on the Villain's board (the
        ``victim`` counter), so the Villain stands for it."""
        if name == "kidnapped-victim":
            return [VILLAIN] if self.victim(g) is not None else []
        return super().special_targets(g, name)

    # --- Call for Help ----------------------------------------------------------------

    def on_event(self, g: Reach, card_id: str) -> None:
        """A card the board names in a ``card-revealed`` victory (Call for
        Help) wins the game for Raditz when it is revealed (rules note R5)."""
        board = g.villain_card()
        if any(v.condition == "card-revealed" and v.card == card_id for v in board.victory):
            combat.end(g, "villain", sentence(f"{g.name(VILLAIN)} reveals {g.card(card_id).name}"))

    # --- Extreme Mode: Raditz's Choice ------------------------------------------------

    def attack_targets(
        self, g: Reach, body: AttackBody, task: VillainAttackState
    ) -> tuple[list[Holder], bool]:
        """Raditz's Choice (Extreme Mode): Raditz's attack hits the enemy who
        controls the most Dragon Balls; the card's own target only breaks a
        tie (rules note R6). When the card can only hit a Character and every
        such enemy is an Ally, the players decide which card takes precedence,
        the Grim Rule marking the harsher one (rules note R7)."""
        own = self.attack_target(g, body, task)
        enemies = [k for k in combat.enemies_of(g, "villain") if combat.alive(g, k)]
        if not g.state.extreme or own not in _ANY_ENEMY | _CHARACTER_ONLY or not enemies:
            # Attacks on each Character (or each enemy) have no single target.
            return super().attack_targets(g, body, task)
        most = max(combat.balls_of(g, k) for k in enemies)
        richest = [k for k in enemies if combat.balls_of(g, k) == most]
        pool = richest
        if own in _CHARACTER_ONLY:
            pool = [k for k in richest if k.__class__ is CharacterRef]
            if not pool:
                return self._controversy(g, body, task, richest)
        if own == "enemy-with-least-health":
            least = min(rules.remaining(g, k) for k in pool)
            pool = [k for k in pool if rules.remaining(g, k) == least]
        return pool, len(pool) > 1

    def _controversy(
        self, g: Reach, body: AttackBody, task: VillainAttackState, richest: list[Holder]
    ) -> tuple[list[Holder], bool]:
        """Raditz's Choice names Allies, the attack card a Character: the
        players choose which card decides the target."""
        if task.precedence is None:
            if task.controversy and task.choice is not None:
                task.precedence, task.choice = task.choice, None
            else:
                task.controversy = True
                own, _ = super().attack_targets(g, body, task)
                amount = body.damage + g.state.villain.damage_bonus + self.attack_bonus(g, VILLAIN)
                # The players pick among a card's targets, so each card is as
                # harsh as its mildest target.
                choice_harm = min(_harm(g, k, amount, body.damage_kind) for k in richest)
                card_harm = min(
                    (_harm(g, k, amount, body.damage_kind) for k in own), default=_NO_HARM
                )
                names = ", ".join(g.name(k) for k in richest)
                card = g.name(task.uid)
                g.ask(
                    task,
                    "controversy",
                    "players",
                    f"Controversy: {card} targets a Character, but Raditz's Choice "
                    f"targets {names}. Which card takes precedence?",
                    [
                        Option(
                            f"Raditz's Choice: the attack hits {names}",
                            "raditz-choice",
                            grim=choice_harm >= card_harm,
                        ),
                        Option(
                            f"{card}: the attack hits a Character",
                            "card",
                            grim=choice_harm < card_harm,
                        ),
                    ],
                )
                return [], False
        if task.precedence == "raditz-choice":
            return richest, len(richest) > 1
        return super().attack_targets(g, body, task)


_NO_HARM = (False, False, 0, 0, False)


def _harm(g: Reach, key: Holder, amount: int, kind: str) -> tuple[bool, bool, int, int, bool]:
    """How badly an attack of ``amount`` hurts the players when it hits
    ``key``, worst first: a Character defeated, an Ally eliminated, Dragon
    Balls passing to Raditz, the damage dealt, a Character hit."""
    left = rules.remaining(g, key)
    dealt = min(combat.reduce(g, key, amount, kind), left)
    falls = dealt >= left
    character = key.__class__ is CharacterRef
    balls = combat.balls_of(g, key) if falls else 0
    return (falls and character, falls, balls, dealt, character)


@villain_task("rule", "victim")
@dataclass(slots=True)
class VictimRoll(VillainTask):
    """The 2D6 roll for the Kidnapped Victim, at the start of Raditz's turn."""

    def run(self, g: Reach) -> None:
        """Roll for the Victim."""
        rules = g.hooks
        assert isinstance(rules, RaditzRules)
        rules.victim_roll(g)
