"""What an action or an answer would do, worked out by doing it on a copy.

A preview is never a second set of rules: it clones the game, applies the
action (or answers the decision) on the clone, and reads what the clone's
events say happened. So the damage a target picker shows is the damage the
attack deals, after Armor, Damage Reduction, a Guardian's interception and
any bonus, by construction.

Chance is never foretold. When the clone's random generator moved (a die, a
shuffle), the outcome is worked out again under several other generators
and the preview gives the range, never the outcome the real generator holds.
Only numbers and holder names leave a preview, never the text of an event
(which could name a drawn card).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dbdeck.games.deckbuilding.engine import combat, rules
from dbdeck.games.deckbuilding.engine.actions import Action, Choose
from dbdeck.games.deckbuilding.engine.attacks import VillainAttack
from dbdeck.games.deckbuilding.engine.chance import TableRandom
from dbdeck.games.deckbuilding.engine.events import Event
from dbdeck.games.deckbuilding.engine.holders import HOLDER_TYPES, CharacterRef, parse

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

__all__ = [
    "CHANCE_SAMPLES",
    "Hit",
    "StealOdds",
    "attack_preview",
    "decision_card",
    "decision_stakes",
    "moot_answer",
    "steal_odds",
]

CHANCE_SAMPLES = 8
"""Other random generators an outcome is tried under when it depends on chance."""

WAITS = {
    "block": "the target may Block first",
    "power-clash": "a Power Clash may be offered first",
    "target": "a target is chosen first",
}
"""What a preview says when the copy stops at a question before any damage."""

MOOT_OPTIONS = 12
"""Decisions with more options are always asked (comparing them costs too much)."""


@dataclass(frozen=True, slots=True)
class Hit:
    """The first hit an action deals, as a copy of the game dealt it."""

    aimed: str
    """The holder the action aims at."""
    taker: str
    """The holder that takes the damage (a Guardian takes what is aimed at
    the Villain); empty when no damage was dealt."""
    printed: int
    """The damage before Armor and Damage Reduction."""
    reduced: int
    """The damage after Armor and Damage Reduction (what is dealt, unless
    the taker has less Health left: the rest is lost)."""
    dealt: int
    """Damage dealt (the least, when it depends on chance)."""
    most: int
    """The most damage dealt (``dealt`` unless it depends on chance)."""
    kind: str
    """``basic``, ``piercing`` or ``unavoidable``."""
    defeats: bool
    """Whether the taker is defeated or eliminated by it (on every try)."""
    waits: str
    """The kind of question the copy stopped at before any damage (a Block),
    in words, or empty."""

    @property
    def chance(self) -> bool:
        """Whether the damage depends on a die or a shuffle."""
        return self.most != self.dealt

    def amount(self) -> str:
        """The damage in words: ``3`` or ``1-3``."""
        return f"{self.dealt}-{self.most}" if self.chance else str(self.dealt)

    def words(self, game: Playing) -> str:
        """The hit in one line: ``3 damage to Guard (the Guardian takes it)``."""
        if not self.taker:
            return self.waits if self.waits else "deals no damage"
        kind = "" if self.kind == "basic" else f" {self.kind.upper()}"
        text = f"{self.amount()}{kind} damage to {game.name(parse(self.taker))}"
        notes = []
        if self.taker != self.aimed and self.aimed:
            notes.append(f"the Guardian takes what is aimed at {game.name(parse(self.aimed))}")
        if self.printed != self.reduced:
            notes.append(f"{self.printed} before Armor and Damage Reduction")
        if self.most < self.reduced:
            notes.append(f"{self.reduced - self.most} more is lost")
        if self.chance:
            notes.append("depends on a roll")
        if notes:
            text += f" ({'; '.join(notes)})"
        if self.defeats:
            text += ": defeats it" if self.taker[:2] in ("c:", "v", "e:") else ": eliminates it"
        return text


Pick = Callable[[list[Event]], "Event | None"]
"""Finds, among the events of one try, the hit a preview is about."""


def _from(source: str) -> Pick:
    """The first damage ``source`` deals."""

    def pick(events: list[Event]) -> Event | None:
        return next(
            (e for e in events if e.type == "damage" and e.data.get("source") == source), None
        )

    return pick


def _to(key: str) -> Pick:
    """The first damage ``key`` takes before anything new is revealed (the
    rest of a Villain's turn goes on in the copy)."""

    def pick(events: list[Event]) -> Event | None:
        for event in events:
            if event.type == "reveal":
                return None
            if event.type == "damage" and event.data.get("target") == key:
                return event
        return None

    return pick


def _tries(game: Playing, action: Action) -> list[tuple[Playing, list[Event]]]:
    """The action applied on a copy; on several copies with other random
    generators when its outcome depends on chance."""
    twin = game.clone()
    before = twin.rng.getstate()
    events = twin.apply(action)
    if twin.rng.getstate() == before:
        return [(twin, events)]
    tries = []
    for seed in range(CHANCE_SAMPLES):
        other = game.clone()
        other.rng = TableRandom(seed)
        tries.append((other, other.apply(action)))
    return tries


def _observe(game: Playing, action: Action, aimed: str, pick: Pick) -> Hit:
    """The hit ``pick`` finds when ``action`` is applied to copies of ``game``."""
    tries = _tries(game, action)
    hits = [(events, pick(events)) for _, events in tries]
    dealt = [h for _, h in hits if h is not None]
    if not dealt:
        # Only the kind of the question, never its prompt: a copy's prompt
        # could name a card the seat may not see (one drawn on the copy).
        pending = tries[0][0].state.pending
        waits = WAITS.get(pending.kind, "a choice comes first") if pending is not None else ""
        return Hit(aimed, "", 0, 0, 0, 0, "basic", False, waits)
    first = dealt[0]
    taker = str(first.data.get("target", ""))
    amounts = [int(h.data.get("amount", 0)) for h in dealt]
    printed = int(first.data.get("printed", 0))
    kind = str(first.data.get("kind", "basic"))
    return Hit(
        aimed=aimed,
        taker=taker,
        printed=printed,
        reduced=combat.reduce(game, parse(taker), printed, kind),
        dealt=min(amounts),
        most=max(amounts),
        kind=kind,
        defeats=all(h is not None and _falls(events, h, taker) for events, h in hits),
        waits="",
    )


def _falls(events: list[Event], hit: Event, taker: str) -> bool:
    """Whether ``taker`` is defeated or eliminated after ``hit`` and before
    anything new is revealed. What the copy plays after a reveal (the next
    turn-order card, the Villain's next card) is the copy's own future,
    never told (rules note N51)."""
    for event in events[events.index(hit) + 1 :]:
        if event.type == "reveal":
            return False
        if event.type in ("defeat", "eliminate") and event.data.get("target") == taker:
            return True
    return False


def attack_preview(game: Playing, action: Action) -> Hit:
    """What a Character's ``attack`` action deals to its target."""
    attacker = CharacterRef(game.state.active).key
    return _observe(game, action, action.target or "", _from(attacker))


# --- Steal odds -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StealOdds:
    """What a Steal attempt with some number of dice may bring."""

    dice: int
    balls: float
    """Dragon Balls expected (no more than the enemies hold)."""
    damage: float
    """UNAVOIDABLE damage expected."""
    some_ball: float
    """The chance of at least one Dragon Ball."""
    defeat: float
    """The chance that the damage defeats the Character."""

    def words(self) -> str:
        """The odds in one line."""
        text = (
            f"expect {self.balls:.1f} Dragon Balls and {self.damage:.1f} damage; "
            f"{self.some_ball:.0%} chance of at least one ball"
        )
        if self.defeat > 0:
            text += f"; {self.defeat:.0%} chance the damage defeats you"
        return text


def steal_odds(game: Playing, dice: int) -> StealOdds:
    """The odds of a Steal attempt of the active Character with ``dice``
    dice, from the faces of the engine's Steal die ("Attempt a Steal")."""
    faces = combat.STEAL_FACES
    held = combat.side_balls(game, "villain")
    left = rules.remaining(game, CharacterRef(game.state.active))
    kinds = sorted(set(faces))
    weight = {face: faces.count(face) / len(faces) for face in kinds}
    balls = damage = some = defeat = 0.0
    # Every multiset of faces, with its multinomial probability.
    for counts in itertools.product(range(dice + 1), repeat=len(kinds)):
        if sum(counts) != dice:
            continue
        p = float(math.factorial(dice))
        for face, n in zip(kinds, counts, strict=True):
            p = p / math.factorial(n) * weight[face] ** n
        stolen = sum(n for face, n in zip(kinds, counts, strict=True) if "ball" in face)
        hurt = sum(n for face, n in zip(kinds, counts, strict=True) if "damage" in face)
        balls += p * min(stolen, held)
        damage += p * hurt
        some += p if stolen and held else 0.0
        defeat += p if hurt >= left else 0.0
    return StealOdds(dice, balls, damage, some, defeat)


# --- decisions ------------------------------------------------------------------------------


def moot_answer(game: Playing) -> int | None:
    """The answer to give without asking, when the pending decision has a
    single option, or when every option leaves the game exactly the same
    and no chance is drawn on the way ("Who drops a Dragon Ball?" when no
    enemy holds one); ``None`` when the answer matters, or may."""
    pending = game.state.pending
    if pending is None:
        return None
    if len(pending.options) == 1:
        return 0
    if len(pending.options) > MOOT_OPTIONS:
        return None  # a long list is a real choice; comparing it all costs too much
    outcomes = set()
    for option in range(len(pending.options)):
        twin = game.clone()
        before = twin.rng.getstate()
        twin.apply(Choose(option=option))
        if twin.rng.getstate() != before:
            # Chance (a card at random, a die) may make the answers differ
            # where they happen not to now: saying so would foretell it, and
            # the hidden cards it reads (rules note N51).
            return None
        outcomes.add(twin.fingerprint())
        if len(outcomes) > 1:
            return None
    return 0


def _attack_task(game: Playing) -> VillainAttack | None:
    """The Villain attack a pending decision waits in, if it is one."""
    pending = game.state.pending
    task = None if pending is None else pending.task
    return task if isinstance(task, VillainAttack) else None


def decision_card(game: Playing) -> str:
    """The card id of the Villain attack a pending decision is about, or empty."""
    task = _attack_task(game)
    if game.state.pending is None or task is None:
        return ""
    return str(game.state.card_ids[task.uid])


def to_key_text(value: object) -> str:
    """An answer as the events name it: a holder by its key."""
    return value.key if isinstance(value, HOLDER_TYPES) else str(value)


def decision_stakes(game: Playing) -> tuple[str, list[str]]:
    """What a pending decision decides, in words, and what each answer would
    do: for a Villain attack, its name, damage, kind and effect, and the
    damage each possible target would take."""
    pending = game.state.pending
    if pending is None or pending.kind != "target" or len(pending.options) > MOOT_OPTIONS:
        return "", []
    hits = [
        _observe(game, Choose(option=i), key, _to(key))
        for i, key in enumerate(to_key_text(o.value) for o in pending.options)
    ]
    previews = [h.words(game) if h.taker or h.waits else "" for h in hits]
    task = _attack_task(game)
    body = game.hooks.attack_body(game, task) if task is not None else None
    if task is None or body is None:
        return "", previews
    uid = task.uid
    shown = next((h for h in hits if h.taker), None)
    printed = shown.printed if shown is not None else body.damage
    kind = shown.kind if shown is not None else body.damage_kind
    words = "" if kind == "basic" else f" {kind.upper()}"
    text = str(getattr(game.card(uid), "text", "") or "")
    about = f"{printed}{words} damage"
    if body.attack_type not in text.lower():
        about += f", {body.attack_type.capitalize()} attack"
    return about + (f". {text}" if text else "."), previews
