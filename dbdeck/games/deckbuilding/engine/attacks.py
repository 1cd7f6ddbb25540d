"""Attacks as they are made: Character Techniques (Physical Combos and
Energy Techniques leaving the Time Track) and Villain attacks, with the
Power Clash offer; plus the Wish card and the Room of Spirit and Time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dbdeck.games.deckbuilding.cards import plain as fx
from dbdeck.games.deckbuilding.cards.plain import ConcentratedEnergy, Energy, Technique, Training
from dbdeck.games.deckbuilding.engine import combat, rules, zones
from dbdeck.games.deckbuilding.engine.combat import (
    Damage,
    alive,
    enemies_of,
    friends_of,
    guardian_for,
)
from dbdeck.games.deckbuilding.engine.context import EffectContext
from dbdeck.games.deckbuilding.engine.events import Agree, Name, Names
from dbdeck.games.deckbuilding.engine.holders import (
    VILLAIN,
    AllyRef,
    CharacterRef,
    EnemyRef,
    Holder,
    MinionRef,
)
from dbdeck.games.deckbuilding.engine.state import (
    CharacterState,
    Option,
    Unit,
    VillainAttackState,
)
from dbdeck.games.deckbuilding.engine.tasks import (
    HOLDER,
    Asking,
    Task,
    optional,
    read_choice,
    read_holder,
    task_kind,
)
from dbdeck.games.deckbuilding.engine.words import count

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.reach import Reach

__all__ = [
    "AttackUsed",
    "Fire",
    "HealTechnique",
    "Room",
    "Used",
    "VillainAttack",
    "Wish",
    "attack_damage",
    "character_attack",
]


def booster_ops(g: Reach, uid: int) -> list[Any] | None:
    """The booster effect of an Energy card (``None`` without a booster icon)."""
    card = g.card(uid)
    return card.booster if isinstance(card, Energy | ConcentratedEnergy) else None


def _this_attack_bonus(ops: Any) -> int:
    return sum(
        op.amount for op in ops if isinstance(op, fx.DamageBonus) and op.duration == "this-attack"
    )


def attack_damage(
    g: Reach, ch: CharacterState, uids: list[int], attack: str, boosters: list[int], *, combo: bool
) -> tuple[int, str]:
    """An attack's total damage and kind: every card's damage and "this
    attack" bonuses, the Character's bonuses, and the boosters' damage
    bonuses (rules note N14). PIERCING spreads to the whole Combo."""
    cards = [g.card_as(u, Technique) for u in uids]
    damage = sum(c.damage for c in cards)
    for card in cards:
        damage += _this_attack_bonus(card.effects)
        if combo:
            damage += _this_attack_bonus(card.combo_effects)
    for uid in boosters:
        damage += _this_attack_bonus(booster_ops(g, uid) or [])
    damage += rules.card_bonus(g, ch, "damage", attack)
    kinds = {c.damage_kind for c in cards}
    kind = (
        "unavoidable" if "unavoidable" in kinds else "piercing" if "piercing" in kinds else "basic"
    )
    return max(0, damage), kind


def character_attack(
    g: Reach,
    ch: CharacterState,
    uids: list[int],
    target: Holder,
    attack: str,
    *,
    combo: bool,
    boosters: list[int] | None = None,
    penalty: int = 0,
) -> None:
    """Queue a Character's attack: the damage (or healing), then each card's
    effects, Combo effects, and booster effects."""
    boosters = boosters or []
    damage, kind = attack_damage(g, ch, uids, attack, boosters, combo=combo)
    damage = max(0, damage - penalty)
    healing = g.card_as(uids[0], Technique).healing
    actual = target if healing else guardian_for(g, target)
    ctx = EffectContext(CharacterRef(ch.id), target=actual, combo=combo)
    for uid in reversed(boosters):
        if booster_ops(g, uid):
            g.push_ops(g.state.card_ids[uid], "booster", ctx.with_source(uid))
    for uid in reversed(uids):
        card = g.card_as(uid, Technique)
        if combo and card.combo_effects:
            g.push_ops(card.id, "combo_effects", ctx.with_source(uid))
        if card.effects:
            g.push_ops(card.id, "effects", ctx.with_source(uid))
    if healing:
        g.push(HealTechnique(actual, damage))
    else:
        g.push(Damage(CharacterRef(ch.id), actual, damage, kind, attack, technique=True))


@task_kind("heal-technique")
@dataclass(slots=True)
class HealTechnique(Task):
    """A healing Technique's "damage": it heals its target."""

    target: Holder = field(metadata=HOLDER)
    amount: int

    def run(self, g: Reach) -> None:
        """Heal the target."""
        combat.heal(g, self.target, self.amount)


@task_kind("fire")
@dataclass(slots=True)
class Fire(Asking):
    """A Character's Energy Technique leaves Time 1 and is used."""

    character: str
    uid: int
    boosters: list[int]
    choice: Any = optional(None)
    """The target the Character chose."""

    @staticmethod
    def read_answer(value: Any) -> Any:
        """Answers that may be holders, read back (``read_choice``); a
        method, not ``staticmethod(read_choice)``: compiled with mypyc, a
        value assigned in a dataclass's body becomes one of its fields."""
        return read_choice(value)

    def run(self, g: Reach) -> None:
        """Choose the Technique's target and attack."""
        _fire(g, self)


def _fire(g: Reach, task: Fire) -> None:
    ch = g.state.character(task.character)
    uid, boosters = task.uid, task.boosters
    card = g.card_as(uid, Technique)
    if task.choice is None:
        # Pushed first, so it runs last: the Technique and its boosters are
        # discarded once their effects have resolved (rules note N45).
        g.push(Used(ch.id, [uid, *boosters]))
    if ch.in_play():
        pool = friends_of(g, "players") if card.healing else enemies_of(g, "players")
        pool = [k for k in pool if alive(g, k)]
        if task.choice is not None and task.choice in pool:
            target = task.choice
        elif len(pool) == 1:
            target = pool[0]
        elif pool:
            g.ask(
                task,
                "target",
                ch.id,
                f"{card.name} is used: choose its target",
                [Option(g.target_label(k), k) for k in pool],
            )
            return
        else:
            target = None
        if target is not None:
            g.log(
                "attack",
                "{} uses {} on {}.",
                CharacterRef(ch.id),
                card.name,
                target,
                card=card.id,
                target=target,
            )
            character_attack(g, ch, [uid], target, "energy", combo=False, boosters=boosters)
        else:
            g.log("fizzle", f"{card.name} has no target and is lost.")


@task_kind("used")
@dataclass(slots=True)
class Used(Task):
    """A used Technique and its boosters go to their owner's discard pile."""

    character: str
    uids: list[int]

    def run(self, g: Reach) -> None:
        """Discard the cards."""
        g.state.character(self.character).discard += self.uids


# --- Villain attacks --------------------------------------------------------------------


@task_kind("vattack")
@dataclass(slots=True)
class VillainAttack(VillainAttackState):
    """A Villain attack resolves: target, Power Clash offer, damage, effects."""

    def run(self, g: Reach) -> None:
        """Take the attack one stage on."""
        _vattack(g, self)


def _vattack(g: Reach, task: VillainAttack) -> None:
    s = g.state
    uid = task.uid
    body = g.hooks.attack_body(g, task)
    prefix = g.hooks.attack_path(g, task)
    source: Holder = EnemyRef(task.owner) if task.owner else VILLAIN
    if source is not VILLAIN and not alive(g, source):
        source = VILLAIN
    if task.stage == "aim":
        if body is None:
            discard_attack(g, uid)
            return
        keys, choose = g.hooks.attack_targets(g, body, task)
        if s.pending is not None:
            return  # the Villain's rules asked the players first (a Controversy)
        if choose and len(keys) > 1 and task.choice is None:
            g.ask(
                task,
                "target",
                "players",
                f"{g.name(uid)}: the players choose who receives the attack",
                [Option(g.target_label(k), k) for k in keys],
            )
            return
        if task.choice is not None:
            keys, task.choice = [task.choice], None
        elif choose:
            keys = keys[:1]
        task.targets, task.stage = keys, "clash"
        g.log(
            "attack",
            "{} with {}{}{}{}.",
            Agree(source, "attacks", "attack"),
            Name(uid),
            " (" if keys else "",
            Names(keys),
            ")" if keys else "",
            card=s.card_ids[uid],
            targets=keys,
        )
    assert body is not None and task.targets is not None
    damage = body.damage + s.villain.damage_bonus + g.hooks.attack_bonus(g, source)
    damage += g.location_bonus(fx.DamageBonus, body.attack_type)
    if body.plus_despair:
        damage += s.villain.tokens.get("despair", 0)
    if body.plus_power:
        damage += g.hooks.power_damage(g)
    targets = task.targets
    if (
        body.attack_type == "energy"
        and (body.time or 0) >= 2
        and len(targets) == 1
        and task.stage == "clash"
    ):
        clash = _clash_options(g, targets[0], damage)
        if clash:
            task.stage = "clash-offered"
            g.ask(
                task,
                "power-clash",
                targets[0].id,  # type: ignore[union-attr]  # a Character (_clash_options)
                f"Power Clash against {g.name(uid)} ({damage} damage)?",
                clash,
            )
            return
    # Pushed before the damage and effects, so it runs after them: the card
    # is discarded once it has been used (rules note N45).
    g.push(AttackUsed(uid))
    if task.choice not in (None, "decline"):
        _power_clash(g, task, damage, source)
        return
    ctx = EffectContext(source, target=targets[0] if len(targets) == 1 else None, attacker=source)
    if body.effects:
        aimed: list[Holder | None] = list(targets) or [None]
        for key in reversed(aimed):
            g.push_ops(s.card_ids[uid], f"{prefix}effects", ctx.with_target(key))
    if body.damage or body.plus_power or body.plus_despair:
        for key in reversed(targets):
            g.push(
                Damage(source, key, damage, body.damage_kind, body.attack_type, names_attack=True)
            )


@task_kind("attack-used")
@dataclass(slots=True)
class AttackUsed(Task):
    """A Villain attack card has been used: to the discard pile, unless
    another half of it still waits."""

    uid: int

    def run(self, g: Reach) -> None:
        """Discard the attack card."""
        discard_attack(g, self.uid)


def discard_attack(g: Reach, uid: int) -> None:
    """An attack card goes to the discard pile once no half of it is still
    prepared or about to resolve."""
    v = g.state.villain
    on_track = any(p.uid == uid for slot in v.time_track for p in slot)
    resolving = any(
        isinstance(t, VillainAttack | AttackUsed) and t.uid == uid for t in g.state.stack
    )
    if uid not in v.discard and not on_track and not resolving:
        v.discard.append(uid)


def _clash_options(g: Reach, target: Holder, damage: int) -> list[Option]:
    """Power Clash choices: the prepared Technique and how much Energy to add."""
    if target.__class__ is not CharacterRef:
        return []
    ch = g.state.character(target.id)
    clash = next(
        (
            u
            for u in ch.training
            if getattr(g.card(u.uid), "rule", None) == "power-clash" and not u.exhausted
        ),
        None,
    )
    prepared = [(slot, p) for slot, p in enumerate(ch.time_track, 1) if p is not None]
    if clash is None or not prepared:
        return []
    energy = sorted(
        (u for u in ch.hand if g.card(u).kind in zones.ENERGY_KINDS),
        key=lambda u: -g.energy_value(u),
    )
    options = [Option("Do not clash", "decline")]
    for slot, p in prepared:
        for n in range(len(energy) + 1):
            spent = energy[:n]
            value = sum(g.energy_value(u) for u in spent)
            options.append(
                Option(
                    f"Clash with {g.name(p.uid)} (Time {slot}), adding "
                    f"{count(n, 'Energy card')} worth {value}",
                    {"slot": slot, "energy": spent},
                )
            )
    return options


def _power_clash(g: Reach, task: VillainAttack, damage: int, source: Holder) -> None:
    """The glossary's Power Clash: compare powers; the winner deals damage."""
    assert task.targets is not None
    target = task.targets[0]
    assert isinstance(target, CharacterRef)  # only a Character is offered a clash
    ch = g.state.character(target.id)
    choice, task.choice = task.choice, None
    slot, spent = choice["slot"], choice["energy"]
    prepared = ch.time_track[slot - 1]
    assert prepared is not None
    clash = next(u for u in ch.training if getattr(g.card(u.uid), "rule", None) == "power-clash")
    clash.exhausted = True
    technique_damage, _ = attack_damage(
        g, ch, [prepared.uid], "energy", prepared.boosters, combo=False
    )
    energy_value = sum(g.energy_value(u) for u in spent)
    for uid in spent:
        ch.hand.remove(uid)
        ch.discard.append(uid)
    level = g.villain_card().level
    die = g.rng.randint(1, 6)
    villain_power = damage + level + die
    player_power = (
        max(0, technique_damage - (slot - 1)) + g.character_card(ch.id).level + energy_value
    )
    g.log(
        "roll",
        "Power Clash: {} {} (die {}) against {} {}.",
        source,
        villain_power,
        die,
        CharacterRef(ch.id),
        player_power,
        dice=[die],
    )
    ch.time_track[slot - 1] = None
    ch.discard += [prepared.uid, *prepared.boosters]
    if player_power > villain_power:
        g.push(
            Damage(
                CharacterRef(ch.id),
                guardian_for(g, source),
                damage + len(spent),
                attack="energy",
                technique=True,
            )
        )
    elif player_power < villain_power:
        g.push(Damage(source, CharacterRef(ch.id), damage + 2, attack="energy"))
    else:
        g.log("clash", "The attacks cancel each other out.")


# --- the Wish card -------------------------------------------------------------------------


def _read_wish(value: Any) -> Any:
    """A wish read from JSON: the holder it names (``key``) read back."""
    if isinstance(value, dict) and isinstance(value.get("key"), str):
        return {**value, "key": read_holder(value["key"])}
    return value


@task_kind("wish")
@dataclass(slots=True)
class Wish(Asking):
    """The Characters hold all seven Dragon Balls: the game pauses for a wish."""

    choice: Any = optional(None)
    """The wish made (the value of one of ``_wish_options``)."""

    @staticmethod
    def read_answer(value: Any) -> Any:
        """A wish read from JSON, with the holder it names."""
        return _read_wish(value)

    def run(self, g: Reach) -> None:
        """Ask for the wish, then grant it."""
        _wish(g, self)


def _wish(g: Reach, task: Wish) -> None:
    s = g.state
    if combat.side_balls(g, "players") != 7:
        return
    decider = s.active if s.active not in ("", "villain") else "players"
    if task.choice is None:
        g.ask(task, "wish", decider, "Shenron appears! Make a wish.", _wish_options(g))
        return
    wish = task.choice
    kind = wish["wish"]
    if kind == "resurrect":
        _resurrect(g, wish["key"])
    elif kind == "damage":
        target = wish["key"]
        level = g.villain_card().level if target.__class__ is not MinionRef else 0
        combat.hit(g, None, target, 15 + 2 * level, "unavoidable", is_attack=False)
    elif kind == "card":
        market, uid, who = wish["market"], wish["uid"], wish["character"]
        if market == "sixth":
            s.sixth.remove(uid)
        else:
            s.markets[market].row.remove(uid)
            zones.restock(g, market)
        s.character(who).discard.append(uid)
        g.log("wish", "{} goes to {}'s discard pile.", Name(uid), CharacterRef(who))
    elif kind == "heal":
        combat.heal(g, wish["key"], "all", repair=rules.race_of(g, wish["key"]) == "android")
    elif kind == "return-allies":
        eliminated = [u for u in s.box if u in s.eliminated]
        g.rng.shuffle(eliminated)
        for uid in eliminated[:3]:
            s.box.remove(uid)
            s.eliminated.remove(uid)
            s.markets["allies"].deck.insert(0, uid)
            s.known[uid] = ""  # put beneath the deck in front of every player (N51)
        zones.restock(g, "allies")
    for i in range(7):
        s.balls[i] = None
    g.log("wish", "The wish is granted; the seven Dragon Balls scatter (unclaimed).")


def _wish_options(g: Reach) -> list[Option]:
    s = g.state
    options: list[Option] = []
    for ch in s.characters:
        if ch.defeated:
            options.append(
                Option(
                    f"Resurrect {g.name(CharacterRef(ch.id))}",
                    {"wish": "resurrect", "key": CharacterRef(ch.id)},
                )
            )
    for uid in s.eliminated:
        options.append(
            Option(f"Resurrect {g.name(uid)}", {"wish": "resurrect", "key": AllyRef(uid)})
        )
    for key in enemies_of(g, "players"):
        if alive(g, key):
            options.append(
                Option(
                    f"15 UNAVOIDABLE damage (+2 per Level) to {g.name(key)}",
                    {"wish": "damage", "key": key},
                )
            )
    for market in (*zones.MARKETS, "sixth"):
        row = s.sixth[-1:] if market == "sixth" else s.markets[market].row
        for uid in row:
            for ch in s.characters:
                if ch.in_play() and _level_allows(g, uid, ch):
                    options.append(
                        Option(
                            f"{g.name(uid)} for {g.name(CharacterRef(ch.id))}",
                            {"wish": "card", "market": market, "uid": uid, "character": ch.id},
                        )
                    )
    for key in friends_of(g, "players"):
        if rules.damage_of(g, key):
            options.append(Option(f"Fully heal {g.name(key)}", {"wish": "heal", "key": key}))
    if s.eliminated:
        options.append(
            Option("Return up to 3 eliminated Allies to the Ally deck", {"wish": "return-allies"})
        )
    if not options:
        options.append(Option("Wish for nothing", {"wish": "none"}))
    return options


def _level_allows(g: Reach, uid: int, ch: CharacterState) -> bool:
    """A wished card ignores every requirement but a Level the Character
    lacks (The Wish Card)."""
    for condition in getattr(g.card(uid), "requirements", ()):
        if (
            isinstance(condition, fx.LevelAtLeast)
            and g.character_card(ch.id).level < condition.level
        ):
            return False
    return True


def _resurrect(g: Reach, key: Holder) -> None:
    s = g.state
    if isinstance(key, CharacterRef):
        ch = s.character(key.id)
        ch.defeated = False
        ch.damage = 0
        g.log("wish", "{} returns to the fight!", key)
        return
    assert isinstance(key, AllyRef)  # the wish's options (_wish_options)
    uid = key.uid
    s.box.remove(uid)
    s.eliminated.remove(uid)
    active = (
        s.character(s.active)
        if s.active not in ("", "villain")
        else next(c for c in s.characters if c.in_play())
    )
    active.allies.append(Unit(uid))
    g.log("wish", "{} returns to the fight beside {}!", Name(uid), CharacterRef(active.id))


# --- the Room of Spirit and Time --------------------------------------------------------------


@task_kind("room")
@dataclass(slots=True)
class Room(Asking):
    """A turn of a Character inside the Room: stay (one more token) or leave."""

    character: str
    choice: Any = optional(None)
    """``stay`` or ``leave``."""

    def run(self, g: Reach) -> None:
        """Ask, then stay or leave."""
        _room(g, self)


def _room(g: Reach, task: Room) -> None:
    ch = g.state.character(task.character)
    if ch.room_tokens < 4 and task.choice is None:
        g.ask(
            task,
            "room",
            ch.id,
            f"{g.name(CharacterRef(ch.id))} has trained {count(ch.room_tokens, 'turn')} in the "
            "Room of "
            "Spirit and Time.",
            [
                Option("Stay and train another turn", "stay"),
                Option("Leave and claim the reward", "leave"),
            ],
        )
        return
    if task.choice == "stay":
        ch.room_tokens += 1
        g.log("room", "{} trains on ({}).", CharacterRef(ch.id), count(ch.room_tokens, "token"))
        return
    tokens = ch.room_tokens
    room = next((u for u in ch.training if u.uid == ch.room_card), None)
    ch.room_tokens = -1
    g.log(
        "room",
        "{} leaves the Room of Spirit and Time after {}.",
        CharacterRef(ch.id),
        count(tokens, "turn"),
    )
    g.state.step = "char_energy"
    if room is None:
        return
    card = g.card_as(room.uid, Training)
    ch.training.remove(room)
    g.state.box.append(room.uid)
    rewards = [i for i, r in enumerate(card.rewards) if r.turns <= tokens]
    if rewards:
        best = max(rewards, key=lambda i: card.rewards[i].turns)
        g.push_ops(card.id, f"rewards.{best}.effects", EffectContext(CharacterRef(ch.id)))
