"""The turn structure: turn order, the Character turn and the Villain turn.

Each step of a turn is a function that does its work (often by queuing tasks)
and names the next step. ``STEPS[step] is None`` means the engine waits for
the active player (the Actions phase).

The rulebook announces seven Character-turn phases but lists five; dbdeck's
sixth and seventh are "discard the hand and the cards used this turn" and
"draw back up to the hand size" (rules note N12).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dbdeck.games.deckbuilding.engine import zones
from dbdeck.games.deckbuilding.engine.attacks import Fire, Room, VillainAttack
from dbdeck.games.deckbuilding.engine.combat import MinionActivates
from dbdeck.games.deckbuilding.engine.context import EffectContext
from dbdeck.games.deckbuilding.engine.effects import Ops
from dbdeck.games.deckbuilding.engine.events import Agree
from dbdeck.games.deckbuilding.engine.holders import VILLAIN, CharacterRef, MinionRef
from dbdeck.games.deckbuilding.engine.state import CharacterState, GameState, Option
from dbdeck.games.deckbuilding.engine.tasks import (
    Asking,
    OrderItem,
    Task,
    TaskError,
    optional,
    task_kind,
)
from dbdeck.games.deckbuilding.engine.words import count

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.reach import Reach

__all__ = ["STEPS", "Order", "OrderItem", "Wildcard", "order"]


def _reveal(g: Reach) -> None:
    """Reveal the next turn-order card (or play the next prologue turn)."""
    s = g.state
    s.active = ""
    if s.prologue:
        character = s.prologue.pop(0)
        if not s.character(character).defeated:
            g.log("turn", "{} plays before the Villain arrives.", CharacterRef(character))
            _start_character(g, character)
        return
    if not s.turn_deck:
        s.round += 1
        s.turn_deck = list(s.turn_cards)
        g.rng.shuffle(s.turn_deck)
        s.turn_discard = []
        g.log("round", f"Round {s.round} begins: the turn-order deck is shuffled.")
    card = s.turn_deck.pop()
    s.turn_discard.append(card)
    s.revealed = card
    s.turn += 1
    if card.startswith("V"):
        g.log("reveal", f"Turn-order card: {g.hooks.turn_card_name(g, card)}.", card=card)
        s.active = "villain"
        g.hooks.villain_card(g, card)
        s.step = "villain_start"
        return
    if card == "W":
        g.log("reveal", "Turn-order card: Wildcard — the players choose who plays.", card=card)
        g.push(Wildcard())
        return
    ch = next(c for c in s.characters if c.order == int(card))
    g.log("reveal", "Turn-order card: {}.", CharacterRef(ch.id), card=card)
    if ch.defeated:
        g.log("reveal", "{} is defeated: the card plays as a Wildcard.", CharacterRef(ch.id))
        g.hooks.defeated_card_revealed(g, ch.id)
        g.push(Wildcard())
        return
    _start_character(g, ch.id)


@task_kind("wildcard")
@dataclass(slots=True)
class Wildcard(Asking):
    """A Wildcard turn-order card: the players choose who plays."""

    choice: Any = optional(None)
    """The Character id chosen."""

    def run(self, g: Reach) -> None:
        """Ask who plays (unless one Character can), and start their turn."""
        choices = [c for c in g.state.characters if not c.defeated]
        if not choices:
            return
        chosen = g.choose_one(
            self,
            "wildcard",
            "players",
            "Wildcard: which Character plays this turn?",
            [Option(g.name(CharacterRef(c.id)), c.id) for c in choices],
        )
        if chosen is not None:
            _start_character(g, chosen)


def _start_character(g: Reach, character: str) -> None:
    s = g.state
    s.active = character
    s.step = "char_start"


def _char_start(g: Reach) -> None:
    """Phase 1: start-of-turn effects (the player orders them)."""
    s = g.state
    ch = s.character(s.active)
    ch.energy = ch.training_energy = ch.dragon_balls_bought = 0
    ch.acted = ch.market_discarded = ch.balls_given = False
    ch.ability_used = ch.duo_invested = False
    _end_until_next_turn(s, ch)
    for unit in ch.units():
        unit.exhausted = False
    g.log("turn", "{}'s turn.", CharacterRef(ch.id), character=ch.id)
    if ch.room_tokens >= 0:
        s.step = "char_end"
        g.push(Room(ch.id))
        return
    s.step = "char_energy"
    items = _start_effects(g, ch)
    if items:
        order(g, ch.id, items, "Which start-of-turn effect resolves first?")


def _end_until_next_turn(s: GameState, ch: CharacterState) -> None:
    """The bonuses "until your next turn" that ``ch``'s turn ends: its own,
    and those its cards gave other Characters (rules note N53). A bonus
    whose giver was defeated ends at its holder's turn."""
    for holder in s.characters:
        kept = []
        for b in holder.bonuses:
            if b.duration == "until-your-next-turn":
                giver = b.until
                if giver is not None and s.character(giver).defeated:
                    giver = None
                if (giver or holder.id) == ch.id:
                    continue
            kept.append(b)
        if len(kept) != len(holder.bonuses):
            holder.bonuses = kept


def _start_effects(g: Reach, ch: CharacterState) -> list[OrderItem]:
    items = []
    for unit in ch.units():
        card = g.card(unit.uid)
        if getattr(card, "start_of_turn_effects", None):
            ctx = EffectContext(CharacterRef(ch.id), unit.uid)
            items.append(OrderItem(card.name, Ops(card.id, "start_of_turn_effects", 0, ctx)))
    location = g.location_card()
    if location is not None and location.character_turn_start:
        ctx = EffectContext(CharacterRef(ch.id), location=True)
        items.append(OrderItem(location.name, Ops(location.id, "character_turn_start", 0, ctx)))
    ability = g.character_card(ch.id).special_ability
    if (
        ability is not None
        and ability.trigger == "start-of-turn"
        and ability.effects
        and (ability.uses == "passive" or ch.ability_tokens > 0)
    ):
        if ability.uses != "passive":
            ch.ability_tokens -= 1
        items.append(
            OrderItem(
                ability.name,
                Ops(ch.id, "special_ability.effects", 0, EffectContext(CharacterRef(ch.id))),
            )
        )
    return items


@task_kind("order")
@dataclass(slots=True)
class Order(Asking):
    """Several simultaneous effects, resolved in the order the decider picks."""

    decider: str
    items: list[OrderItem]
    prompt: str
    choice: Any = optional(None)
    """The index of the item to resolve first."""

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Task:
        """An order from JSON, its items' tasks read too."""
        items = data.get("items")
        if not isinstance(items, list):
            raise TaskError("an 'order' task needs its 'items'")
        return cls(
            str(data["decider"]),
            [OrderItem(str(i["label"]), Task.from_json(i["task"])) for i in items],
            str(data["prompt"]),
            data.get("choice"),
        )

    def run(self, g: Reach) -> None:
        """Ask which effect resolves first; it runs, then the rest are ordered."""
        items = self.items
        if len(items) == 1:
            g.push(items[0].task)
            return
        if self.choice is None:
            g.ask(
                self,
                "order",
                self.decider,
                self.prompt,
                [Option(item.label, i) for i, item in enumerate(items)],
            )
            return
        first = items[self.choice]
        rest = [item for i, item in enumerate(items) if i != self.choice]
        order(g, self.decider, rest, self.prompt)
        g.push(first.task)


def order(g: Reach, decider: str, items: list[OrderItem], prompt: str) -> None:
    """Queue simultaneous effects, to be resolved in the order ``decider`` picks."""
    g.push(Order(decider, items, prompt))


def _char_energy(g: Reach) -> None:
    """Phase 2: use the Technique at Time 1, then move the others one step."""
    s = g.state
    ch = s.character(s.active)
    fired = ch.time_track[0]
    ch.time_track = [*ch.time_track[1:], None]
    s.step = "char_main_enter"
    if fired is not None:
        g.push(Fire(ch.id, fired.uid, fired.boosters))


def _char_main_enter(g: Reach) -> None:
    """Phases 3 to 5 are played by the player; bonuses "until your next
    Actions phase" end here."""
    s = g.state
    ch = s.character(s.active)
    ch.bonuses = [b for b in ch.bonuses if b.duration != "until-next-actions-phase"]
    s.step = "char_main"


def _char_end(g: Reach) -> None:
    """Phases 6 and 7: discard the hand and used cards, draw back up."""
    s = g.state
    ch = s.character(s.active)
    if not ch.defeated:
        ch.discard += ch.hand + ch.played
        ch.hand = []
        ch.played = []
        ch.bonuses = [b for b in ch.bonuses if b.duration not in ("this-turn", "this-attack")]
        ch.energy = ch.training_energy = 0
        # The hand was just discarded: a whole new hand is drawn.
        zones.draw(g, ch, max(0, zones.hand_limit(g, ch)))
    g.log("turn-end", "{}'s turn ends.", CharacterRef(ch.id), character=ch.id)
    s.step = "reveal"


# --- the Villain's turn ---------------------------------------------------------------


def _villain_start(g: Reach) -> None:
    """Phase 1: the Villain's start-of-turn effects."""
    s = g.state
    s.step = "villain_energy"
    items = []
    location = g.location_card()
    if location is not None and location.villain_turn_start:
        ctx = EffectContext(VILLAIN, location=True)
        items.append(OrderItem(location.name, Ops(location.id, "villain_turn_start", 0, ctx)))
    items += g.hooks.turn_start(g)
    if items:
        order(g, "players", items, "Which of the Villain's start-of-turn effects resolves first?")


def _villain_energy(g: Reach) -> None:
    """Phase 2: the Villain's attacks at Time 1 resolve; the others advance."""
    s = g.state
    fired = g.hooks.advance_time_track(g)
    s.step = "villain_balls"
    for prepared in reversed(fired):
        g.push(VillainAttack(prepared.uid, prepared.owner, origin="prepared"))


def _villain_balls(g: Reach) -> None:
    """Phase 3: Minions hand their Dragon Balls to the Villain."""
    s = g.state
    minion_keys = {MinionRef(u.uid) for u in s.villain.minions}
    moved = 0
    for i, holder in enumerate(s.balls):
        if holder in minion_keys:
            s.balls[i] = VILLAIN
            moved += 1
    if moved:
        g.log("balls", "The Minions hand {} to {}.", count(moved, "Dragon Ball"), VILLAIN)
    s.step = "villain_minions"


def _villain_minions(g: Reach) -> None:
    """Phase 4: every ready Minion activates, in the order the players choose."""
    s = g.state
    s.step = "villain_reveal"
    if not g.hooks.minions_present(g):
        return
    ready = [u.uid for u in s.villain.minions if not u.exhausted]
    items = [OrderItem(g.name(uid), MinionActivates(uid)) for uid in ready]
    if len({g.state.card_ids[uid] for uid in ready}) <= 1:
        for item in reversed(items):
            g.push(item.task)
    elif items:
        order(g, "players", items, "Which Minion activates first?")


def _villain_reveal(g: Reach) -> None:
    """Phase 5: play the top card of the Villain deck."""
    s = g.state
    s.step = "villain_ready"
    g.hooks.activate(g)


def _villain_ready(g: Reach) -> None:
    s = g.state
    for unit in s.villain.minions:
        unit.exhausted = False
    if s.villain.extra_turns > 0:
        s.villain.extra_turns -= 1
        g.log("turn", "{} another turn.", Agree(VILLAIN, "takes", "take"))
        s.step = "villain_start"
        return
    s.step = "reveal"


STEPS: dict[str, Callable[[Reach], None] | None] = {
    "reveal": _reveal,
    "char_start": _char_start,
    "char_energy": _char_energy,
    "char_main_enter": _char_main_enter,
    "char_main": None,
    "char_end": _char_end,
    "villain_start": _villain_start,
    "villain_energy": _villain_energy,
    "villain_balls": _villain_balls,
    "villain_minions": _villain_minions,
    "villain_reveal": _villain_reveal,
    "villain_ready": _villain_ready,
}
