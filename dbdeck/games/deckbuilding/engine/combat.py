"""Attacks and damage: targets, Armor and Damage Reduction, Guardians,
Block and Power Clash, defeat and elimination, Dragon Balls changing hands,
and the end of the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dbdeck.games.deckbuilding.cards.plain import Minion
from dbdeck.games.deckbuilding.engine import rules
from dbdeck.games.deckbuilding.engine.context import EffectContext
from dbdeck.games.deckbuilding.engine.events import Agree, Name
from dbdeck.games.deckbuilding.engine.holders import (
    VILLAIN,
    AllyRef,
    CharacterRef,
    EnemyRef,
    Holder,
    MarketAllyRef,
    MinionRef,
    VillainRef,
    to_key,
)
from dbdeck.games.deckbuilding.engine.rules import damage_of, max_health, on_players_side, side_of
from dbdeck.games.deckbuilding.engine.state import Option
from dbdeck.games.deckbuilding.engine.tasks import (
    HOLDER,
    Asking,
    Task,
    field_values,
    make,
    optional,
    task_kind,
)
from dbdeck.games.deckbuilding.engine.words import agree, count

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.reach import Reach

__all__ = ["Damage", "Death", "MinionActivates", "Steal", "check_end", "hit", "steal_sources"]

STEAL_FACES = ("blank", "ball", "ball", "damage", "damage", "damage+ball")
"""The six faces of a Steal die ("Attempt a Steal")."""


# --- who can be attacked -----------------------------------------------------------


def enemies_of(g: Reach, side: str) -> list[Holder]:
    """The enemies in play of ``side`` (``players`` or ``villain``): for the
    players the Villain (or its enemies) and its Minions, for the Villain the
    Characters and their Allies."""
    s = g.state
    if side == "players":
        if not g.hooks.arrived(g):
            return []
        keys: list[Holder] = [
            EnemyRef(e) for e in g.villain_card().enemies if e not in s.villain.defeated_enemies
        ] or [VILLAIN]
        return keys + [MinionRef(u.uid) for u in s.villain.minions]
    keys = []
    for ch in s.characters:
        if ch.in_play():
            keys.append(CharacterRef(ch.id))
            keys += [AllyRef(u.uid) for u in ch.allies]
    return keys


def friends_of(g: Reach, side: str) -> list[Holder]:
    """The side's own Characters and Allies in play (for heals)."""
    if side == "players":
        return enemies_of(g, "villain")
    return [VILLAIN, *(MinionRef(u.uid) for u in g.state.villain.minions)]


def guardian_for(g: Reach, key: Holder) -> Holder:
    """Guardian Minions take what is aimed at the Villain ("Guardian")."""
    if key is not VILLAIN and key.__class__ is not EnemyRef:
        return key
    for unit in g.state.villain.minions:
        if "guardian" in g.card_as(unit.uid, Minion).keywords:
            return MinionRef(unit.uid)
    return key


def alive(g: Reach, key: Holder) -> bool:
    """Whether the holder is still in play."""
    s = g.state
    match key:
        case CharacterRef(character_id):
            return s.character(character_id).in_play()
        case AllyRef(uid):
            try:
                g.ally(uid)
            except KeyError:
                return False
            return True
        case MinionRef(uid):
            return any(u.uid == uid for u in s.villain.minions)
        case EnemyRef(enemy_id):
            return enemy_id not in s.villain.defeated_enemies
        case MarketAllyRef(uid):
            return uid in s.markets["allies"].row
    return not s.winner


# --- damage ----------------------------------------------------------------------------


def reduce(g: Reach, target: Holder, amount: int, kind: str) -> int:
    """Damage left after Armor and Damage Reduction ("Types of Damage")."""
    if kind == "unavoidable":
        return amount
    reduction = rules.damage_reduction(g, target)
    if kind == "basic":
        reduction += rules.armor(g, target)
    return max(0, amount - reduction)


def hit(
    g: Reach,
    source: Holder | None,
    target: Holder,
    amount: int,
    kind: str = "basic",
    *,
    is_attack: bool = True,
    cost: bool = False,
    technique: bool = False,
) -> int:
    """Inflict damage; returns the damage actually dealt (excess is lost).
    ``source`` is ``None`` for the Wish's damage, which no one deals.

    ``cost``: damage a Character suffers paying a cost (it ignores Armor and,
    if it defeats them, their Dragon Balls become unclaimed).
    """
    if not alive(g, target):
        return 0
    if source is target or (
        source.__class__ is AllyRef
        and target.__class__ is CharacterRef
        and g.ally(source.uid)[0].id == target.id
    ):
        cost = True  # self-inflicted damage is a cost: no Armor, balls become unclaimed
    if cost:
        kind = "unavoidable"
    reduced = reduce(g, target, amount, kind)
    left = max(0, max_health(g, target) - damage_of(g, target))
    dealt = min(reduced, left)
    _add_damage(g, target, dealt)
    word = "" if kind == "basic" else f" {kind.upper()}"
    notes = []
    if reduced != amount:
        notes.append(f"{amount} before Armor and Damage Reduction")
    if dealt < reduced:
        notes.append(f"{reduced - dealt} more is lost")
    g.log(
        "damage",
        "{} {}{} damage to {}{}.",
        Agree(source if source is not None else "wish", "deals", "deal"),
        dealt,
        word,
        target,
        f" ({'; '.join(notes)})" if notes else "",
        source=source.key if source is not None else "wish",
        target=target,
        amount=dealt,
        printed=amount,
        kind=kind,
    )
    if (
        is_attack
        and source is not None
        and on_players_side(source)
        and side_of(target) == "villain"
    ):
        g.hooks.on_attacked(g, source, target, amount, dealt, technique)
    if damage_of(g, target) >= max_health(g, target):
        kill(g, target, killer=None if cost else source)
    return dealt


def _add_damage(g: Reach, key: Holder, amount: int) -> None:
    s = g.state
    match key:
        case CharacterRef(character_id):
            s.character(character_id).damage += amount
        case AllyRef(uid):
            g.ally(uid)[1].damage += amount
        case MinionRef(uid):
            g.minion(uid).damage += amount
        case EnemyRef(enemy_id):
            s.villain.enemy_damage[enemy_id] = s.villain.enemy_damage.get(enemy_id, 0) + amount
        case MarketAllyRef(uid):
            # An Ally of the market keeps its damage while in the row (rules note A5).
            damage = s.markets["allies"].damage
            damage[uid] = damage.get(uid, 0) + amount
        case VillainRef():
            s.villain.damage += amount


def eliminate_damage(g: Reach, key: Holder) -> int:
    """What "Eliminate" inflicts: Maximum Health plus Armor plus Damage
    Reduction, ignoring damage already taken (glossary, "Eliminate")."""
    return max_health(g, key) + rules.armor(g, key) + rules.damage_reduction(g, key)


def heal(g: Reach, key: Holder, amount: int | str, *, repair: bool = False) -> int:
    """Remove damage. Androids cannot heal but can repair; only Androids
    repair; Animals heal one point more ("Races")."""
    race = rules.race_of(g, key)
    if on_players_side(key) and repair != (race == "android"):
        return 0
    current = damage_of(g, key)
    if amount == "all":
        amount = current
    amount = int(amount)
    if race == "animal" and not repair and amount > 0:
        amount += 1
    healed = min(current, amount)
    _add_damage(g, key, -healed)
    if healed:
        word = "repairs" if repair else "heals"
        g.log("heal", "{} {} {}.", key, word, healed, target=key, amount=healed)
    return healed


def kill(g: Reach, key: Holder, killer: Holder | None) -> None:
    """Defeat a Character, eliminate an Ally or Minion, or defeat the Villain."""
    s = g.state
    gets = VILLAIN if killer.__class__ is EnemyRef else killer
    match key:
        case CharacterRef(character_id):
            ch = s.character(character_id)
            ch.defeated = True
            g.log("defeat", "{} is defeated!", key, target=key)
            keys: set[Holder] = {key, *(AllyRef(u.uid) for u in ch.allies)}
            _move_balls(g, keys, gets)
            for unit in ch.units():
                s.box.append(unit.uid)
            ch.allies, ch.equipment, ch.training = [], [], []
            for prepared in ch.time_track:
                if prepared is not None:
                    ch.discard += [prepared.uid, *prepared.boosters]
            ch.time_track = [None] * 4
            if s.active == ch.id and s.step.startswith("char_"):
                s.step = "char_end"  # a defeated Character's turn ends at once
            if not s.winner:
                g.push(Death(ch.id))
        case AllyRef(uid):
            ch, unit = g.ally(uid)
            ch.allies.remove(unit)
            s.box.append(unit.uid)
            s.eliminated.append(unit.uid)
            g.log("eliminate", "{} is eliminated.", Name(unit.uid), target=key)
            _move_balls(g, {key}, gets)
        case MinionRef(uid):
            unit = g.minion(uid)
            s.villain.minions.remove(unit)
            card_id = s.card_ids[unit.uid]
            if card_id in s.villain.side_decks:
                s.villain.side_decks[card_id].append(unit.uid)
            else:
                s.box.append(unit.uid)
            g.log("eliminate", "{} is eliminated.", Name(unit.uid), target=key)
            _move_balls(g, {key}, gets)
            _demon_heals(g, killer)
            g.hooks.on_minion_eliminated(g, card_id)
        case EnemyRef(enemy_id):
            s.villain.defeated_enemies.append(enemy_id)
            g.log("defeat", "{} is defeated!", key, target=key)
            _move_balls(g, {key}, gets)
            _demon_heals(g, killer)
            g.hooks.on_enemy_defeated(g, enemy_id)
        case MarketAllyRef():
            g.hooks.eliminate_market_ally(g, key, False, gets)
        case VillainRef():
            g.log("defeat", "{} is defeated!", key, target=key)
            _move_balls(g, {key}, gets)
            end(g, "players", f"{g.name(VILLAIN)} is defeated.")


def _demon_heals(g: Reach, killer: Holder | None) -> None:
    """A Demon, Character or Ally, heals 1 when it eliminates an enemy
    ("Races"; rules note N47)."""
    if (
        killer is not None
        and on_players_side(killer)
        and alive(g, killer)
        and rules.race_of(g, killer) == "demon"
    ):
        heal(g, killer, 1)


def _move_balls(g: Reach, keys: set[Holder], to: Holder | None) -> None:
    s = g.state
    moved = 0
    for i, holder in enumerate(s.balls):
        if holder in keys:
            s.balls[i] = to
            moved += 1
    if moved:
        g.log(
            "balls",
            "{} {} to {}.",
            count(moved, "Dragon Ball"),
            "passes" if moved == 1 else "pass",
            to if to is not None else "unclaimed",
            to=to_key(to),
            count=moved,
        )


def give_balls(g: Reach, source: Holder | None, target: Holder | None, count: int = 1) -> int:
    """Move up to ``count`` balls from ``source`` to ``target`` (``None``:
    unclaimed). A defeated Character takes none (rules note N44)."""
    s = g.state
    if target.__class__ is CharacterRef and not alive(g, target):
        return 0
    moved = 0
    for i, holder in enumerate(s.balls):
        if moved < count and holder is source:
            s.balls[i] = target
            moved += 1
    return moved


def balls_of(g: Reach, key: Holder) -> int:
    """Dragon Balls one holder controls."""
    return g.state.balls.count(key)


def side_balls(g: Reach, side: str) -> int:
    """Dragon Balls one side controls."""
    return sum(1 for holder in g.state.balls if holder is not None and side_of(holder) == side)


# --- tasks ------------------------------------------------------------------------------


@task_kind("damage")
@dataclass(slots=True)
class Damage(Asking):
    """Damage reaching one target: an attack's, an effect's, an Eliminate's.
    A Physical attack on a Character first offers them a Block."""

    source: Holder = field(metadata=HOLDER)
    """Who deals it."""
    target: Holder = field(metadata=HOLDER)
    amount: int
    """The damage before Armor, Damage Reduction and Block."""
    kind: str = "basic"
    """``basic``, ``piercing`` or ``unavoidable`` ("Types of Damage")."""
    attack: str | None = field(
        default=None,
        metadata={"omit": lambda task, value: value is None and not task.names_attack},
    )
    """``physical`` or ``energy`` for an attack's damage."""
    is_attack: bool = True
    """Whether it is an attack (the Villain's hooks hear of those)."""
    block: bool = optional(True)
    """Whether a Block may be offered (not against an Eliminate)."""
    technique: bool = optional(False)
    """Whether a Technique deals it (Android 16 strikes back at those)."""
    cost: bool = optional(False)
    """Damage paid as a cost: no Armor, and a defeat leaves the balls unclaimed."""
    choice: Any = optional(None)
    """The Block answer: 1 to block, 0 to take the hit."""
    names_attack: bool = field(default=False, repr=False, metadata={"omit": lambda t, v: True})
    """Whether the JSON names the attack type even when there is none: a
    card's Damage operation always has (``"attack": null``), an Eliminate,
    a Character stepping in and Android 16 never. Kept so a saved stack
    reads as it always has; set by ``attack`` itself when it is given."""

    def __post_init__(self) -> None:
        if self.attack is not None:
            self.names_attack = True

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Task:
        """A damage task from JSON; ``names_attack`` is whether it has the key."""
        return cls(**{**field_values(cls, data), "names_attack": "attack" in data})

    def run(self, g: Reach) -> None:
        """Offer a Block if one may be made, then deal the damage."""
        target = self.target
        if not alive(g, target):
            return
        amount = self.amount
        if self.block and self.attack == "physical" and target.__class__ is CharacterRef:
            character = target.id
            cost = 3 if self.source is VILLAIN or self.source.__class__ is EnemyRef else 2
            if self.choice is None:
                payment = _payment(g, character, cost)
                block = next(
                    (
                        u
                        for u in g.state.character(character).training
                        if getattr(g.card(u.uid), "rule", None) == "block"
                    ),
                    None,
                )
                if block is not None and payment is not None and amount > 0:
                    g.ask(
                        self,
                        "block",
                        character,
                        f"Block {amount} damage from {g.name(self.source)}? "
                        f"Costs {cost} Energy (1D3 less damage).",
                        [Option("Take the hit", 0), Option(f"Block (pay {cost} Energy)", 1)],
                    )
                    return
            elif self.choice == 1:
                ch = g.state.character(character)
                for uid in _payment(g, ch.id, cost) or []:
                    ch.hand.remove(uid)
                    ch.discard.append(uid)
                roll = g.rng.randint(1, 6)
                blocked = (roll + 1) // 2
                amount = max(0, amount - blocked)
                g.log(
                    "roll",
                    "{} blocks: 1D3 rolls {} (die {}).",
                    target,
                    blocked,
                    roll,
                    dice=[roll],
                    result=blocked,
                )
        hit(
            g,
            self.source,
            target,
            amount,
            self.kind,
            is_attack=self.is_attack,
            cost=self.cost,
            technique=self.technique,
        )


def _payment(g: Reach, character: str, cost: int) -> list[int] | None:
    """Energy cards from hand that pay ``cost`` outside one's turn: the fewest
    cards, then the least overpaid (rules note N15)."""
    ch = g.state.character(character)
    energy = sorted(
        (u for u in ch.hand if g.card(u).kind in ("energy", "concentrated-energy")),
        key=lambda u: -g.energy_value(u),
    )
    chosen: list[int] = []
    total = 0
    for uid in energy:
        if total >= cost:
            break
        chosen.append(uid)
        total += g.energy_value(uid)
    return chosen if total >= cost else None


@task_kind("death")
@dataclass(slots=True)
class Death(Task):
    """The Villain's death effect after a Character is defeated."""

    character: str

    def run(self, g: Reach) -> None:
        """Let the Villain's rules apply their death effect."""
        g.hooks.death_effect(g, self.character)


@task_kind("minion")
@dataclass(slots=True)
class MinionActivates(Task):
    """A Minion activates: Search, then its effect; then it is exhausted."""

    uid: int

    def run(self, g: Reach) -> None:
        """Activate the Minion, if it is still in play."""
        uid = self.uid
        if not any(u.uid == uid for u in g.state.villain.minions):
            return
        unit = g.minion(uid)
        unit.exhausted = True
        card = g.card_as(uid, Minion)
        g.log("activate", f"{card.name} activates.", card=card.id)
        minion = MinionRef(uid)
        if "search" in card.keywords and give_balls(g, None, minion):
            g.log("balls", f"{card.name} finds an unclaimed Dragon Ball.")
        if card.effects:
            g.push_ops(card.id, "effects", EffectContext(minion, uid, attack="minion"))


def steal_sources(g: Reach) -> list[Holder]:
    """Whom a Steal can take Dragon Balls from, in the order the dice take
    them (rules note N26): the Villain, then its Minions in the order they
    came into play, then each of its enemies; only those holding balls."""
    holders: list[Holder] = [
        VILLAIN,
        *(MinionRef(u.uid) for u in g.state.villain.minions),
        *(EnemyRef(e) for e in g.villain_card().enemies),
    ]
    return [h for h in holders if balls_of(g, h)]


@task_kind("steal")
@dataclass(slots=True)
class Steal(Task):
    """A Steal attempt: its dice rolled and resolved ("Attempt a Steal")."""

    character: str
    dice: int
    holder: Holder | None = optional(None, key="from", holder=True)
    """The holder the player named to take balls from first (rules note N26)."""

    def run(self, g: Reach) -> None:
        """Roll the Steal dice and resolve them."""
        _steal(g, self)


def _steal(g: Reach, task: Steal) -> None:
    ch = g.state.character(task.character)
    faces = [STEAL_FACES[g.rng.randint(1, 6) - 1] for _ in range(task.dice)]
    stolen = sum("ball" in f for f in faces)
    hurt = sum("damage" in f for f in faces)
    key = CharacterRef(ch.id)
    g.log(
        "roll",
        "{} rolls {}: {}.",
        key,
        count(task.dice, "Steal die"),
        ", ".join(faces),
        dice=faces,
    )
    took = 0
    for _ in range(stolen):
        holders = steal_sources(g)
        chosen = task.holder
        if chosen in holders:
            holders.remove(chosen)
            holders.insert(0, chosen)  # the one the player named goes first (N26)
        if not holders:
            break
        took += give_balls(g, holders[0], key)
    if took:
        g.log(
            "balls",
            "{} {}.",
            Agree(key, "steals", "steal"),
            count(took, "Dragon Ball"),
            to=key,
            count=took,
        )
    if hurt:
        hit(g, VILLAIN, key, hurt, "unavoidable", is_attack=False)


# --- the end of the game ------------------------------------------------------------------


def end(g: Reach, winner: str, reason: str) -> None:
    """End the game."""
    s = g.state
    if s.winner:
        return
    s.winner = winner
    s.reason = reason
    # Unfinished work stays on the stack (never run again): cards it holds are
    # still accounted for.
    s.pending = None
    g.log(
        "game-over",
        "{}: {}",
        Agree("The Characters" if winner == "players" else VILLAIN, "wins", "win"),
        reason,
        winner=winner,
    )


def check_end(g: Reach, *, health: bool = False) -> None:
    """Check every victory condition; with ``health``, also defeat Characters
    whose damage reached a Maximum Health that shrank (a bonus left play)."""
    # Run after nearly every task of the rules (about three times an action):
    # its counts are taken with as few Python steps as they need.
    s = g.state
    if s.winner:
        return
    characters = s.characters
    if health:
        for ch in characters:
            # A Maximum Health bonus that left play can leave a Character with
            # damage reaching their health: they are defeated then ("Health Bonuses").
            damage = ch.damage
            if (
                damage
                and not ch.defeated
                and ch.room_tokens < 0  # in play (``CharacterState.in_play``)
                and damage >= rules.character_max_health(g, ch)
            ):
                kill(g, CharacterRef(ch.id), killer=None)
    in_play = inside = defeated = 0
    for ch in characters:
        if ch.defeated:
            defeated += 1
        elif ch.room_tokens >= 0:
            inside += 1
        else:
            in_play += 1
    if defeated == len(characters):
        end(g, "villain", "all the Characters are defeated.")
        return
    if not in_play and inside and defeated:
        end(g, "villain", "every Character outside the Room of Spirit and Time is defeated.")
        return
    conditions = g.victory_conditions
    if "ally-market-empty" in conditions:
        allies = s.markets.get("allies")
        if allies is not None and not allies.deck and not allies.row:
            end(g, "villain", "the Ally Market is empty.")
            return
    balls = s.balls
    held = [holder.__class__ for holder in balls if holder is not None]
    players_balls = held.count(CharacterRef) + held.count(AllyRef)
    villain_balls = len(held) - players_balls
    if "controls-all-dragon-balls" in conditions and villain_balls == 7:
        end(
            g, "villain", f"{agree(g.name(VILLAIN), 'controls', 'control')} all seven Dragon Balls."
        )
        return
    g.hooks.check_victory(g)
    if not s.winner and players_balls == 7 and not any(t.tag == "wish" for t in s.stack):
        g.push(make("wish"))


def enemy_remaining(g: Reach, key: Holder) -> int:
    """Remaining Health of an enemy."""
    return rules.remaining(g, key)
