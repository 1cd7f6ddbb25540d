"""Attacks as they are made: Character Techniques (Physical Combos and
Energy Techniques leaving the Time Track) and Villain attacks, with the
Power Clash offer; plus the Wish card and the Room of Spirit and Time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dbdeck.cards import plain as fx
from dbdeck.engine import combat, rules, zones
from dbdeck.engine.combat import alive, enemies_of, friends_of, guardian_for
from dbdeck.engine.state import VILLAIN, CharacterState, Unit
from dbdeck.engine.words import agree, count

if TYPE_CHECKING:
    from dbdeck.engine.game import Game

__all__ = ["TASKS", "attack_damage", "character_attack"]


def _this_attack_bonus(ops: Any) -> int:
    return sum(
        op.amount for op in ops if isinstance(op, fx.DamageBonus) and op.duration == "this-attack"
    )


def attack_damage(
    g: Game, ch: CharacterState, uids: list[int], attack: str, boosters: list[int], *, combo: bool
) -> tuple[int, str]:
    """An attack's total damage and kind: every card's damage and "this
    attack" bonuses, the Character's bonuses, and the boosters' damage
    bonuses (rules note N14). PIERCING spreads to the whole Combo."""
    cards = [g.card(u) for u in uids]
    damage = sum(c.damage for c in cards)
    for card in cards:
        damage += _this_attack_bonus(card.effects)
        if combo:
            damage += _this_attack_bonus(card.combo_effects)
    for uid in boosters:
        damage += _this_attack_bonus(g.card(uid).booster or [])
    damage += rules.card_bonus(g, ch, "damage", attack)
    kinds = {c.damage_kind for c in cards}
    kind = (
        "unavoidable" if "unavoidable" in kinds else "piercing" if "piercing" in kinds else "basic"
    )
    return max(0, damage), kind


def character_attack(
    g: Game,
    ch: CharacterState,
    uids: list[int],
    target: str,
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
    healing = g.card(uids[0]).healing
    actual = target if healing else guardian_for(g, target)
    ctx = {"actor": f"c:{ch.id}", "target": actual, "combo": combo}
    for uid in reversed(boosters):
        if g.card(uid).booster:
            g.push_ops(g.state.card_ids[uid], "booster", {**ctx, "source": uid})
    for uid in reversed(uids):
        card = g.card(uid)
        if combo and card.combo_effects:
            g.push_ops(card.id, "combo_effects", {**ctx, "source": uid})
        if card.effects:
            g.push_ops(card.id, "effects", {**ctx, "source": uid})
    if healing:
        g.push({"t": "heal-technique", "target": actual, "amount": damage})
    else:
        g.push(
            {
                "t": "damage",
                "source": f"c:{ch.id}",
                "target": actual,
                "amount": damage,
                "kind": kind,
                "attack": attack,
                "is_attack": True,
                "technique": True,
            }
        )


def _heal_technique(g: Game, task: dict[str, Any]) -> None:
    combat.heal(g, task["target"], task["amount"])


def _fire(g: Game, task: dict[str, Any]) -> None:
    """A Character's Energy Technique leaves Time 1 and is used."""
    ch = g.state.character(task["character"])
    uid, boosters = task["uid"], task["boosters"]
    card = g.card(uid)
    if "choice" not in task:
        # Pushed first, so it runs last: the Technique and its boosters are
        # discarded once their effects have resolved (rules note N45).
        g.push({"t": "used", "character": ch.id, "uids": [uid, *boosters]})
    if ch.in_play():
        pool = friends_of(g, "players") if card.healing else enemies_of(g, "players")
        pool = [k for k in pool if alive(g, k)]
        if "choice" in task and task["choice"] in pool:
            target = task["choice"]
        elif len(pool) == 1:
            target = pool[0]
        elif pool:
            g.ask(
                task,
                "target",
                ch.id,
                f"{card.name} is used: choose its target",
                [{"label": g.target_label(k), "value": k} for k in pool],
            )
            return
        else:
            target = ""
        if target:
            g.log(
                "attack",
                f"{g.name('c:' + ch.id)} uses {card.name} on {g.name(target)}.",
                card=card.id,
                target=target,
            )
            character_attack(g, ch, [uid], target, "energy", combo=False, boosters=boosters)
        else:
            g.log("fizzle", f"{card.name} has no target and is lost.")


def _used(g: Game, task: dict[str, Any]) -> None:
    """A used Technique and its boosters go to their owner's discard pile."""
    g.state.character(task["character"]).discard += task["uids"]


# --- Villain attacks --------------------------------------------------------------------


def _vattack(g: Game, task: dict[str, Any]) -> None:
    """A Villain attack resolves: target, Power Clash offer, damage, effects."""
    s = g.state
    uid = task["uid"]
    body = g.hooks.attack_body(g, task)
    prefix = g.hooks.attack_path(g, task)
    source = f"e:{task['owner']}" if task.get("owner") else VILLAIN
    if source != VILLAIN and not alive(g, source):
        source = VILLAIN
    if "targets" not in task:
        if body is None:
            discard_attack(g, uid)
            return
        keys, choose = _attack_targets(g, body, task)
        if s.pending is not None:
            return  # the Villain's rules asked the players first (a Controversy)
        if choose and len(keys) > 1 and "choice" not in task:
            g.ask(
                task,
                "target",
                "players",
                f"{g.name(uid)}: the players choose who receives the attack",
                [{"label": g.target_label(k), "value": k} for k in keys],
            )
            return
        if "choice" in task:
            keys = [task.pop("choice")]
        elif choose:
            keys = keys[:1]
        task["targets"] = keys
        g.log(
            "attack",
            f"{agree(g.name(source), 'attacks', 'attack')} with {g.name(uid)}"
            + (f" ({', '.join(g.name(k) for k in keys)})" if keys else "")
            + ".",
            card=s.card_ids[uid],
            targets=keys,
        )
    damage = body.damage + s.villain.damage_bonus + g.hooks.attack_bonus(g, source)
    damage += g.location_bonus(fx.DamageBonus, body.attack_type)
    if body.plus_despair:
        damage += s.villain.tokens.get("despair", 0)
    if body.plus_power:
        damage += g.hooks.power_damage(g)
    targets = task["targets"]
    if (
        body.attack_type == "energy"
        and (body.time or 0) >= 2
        and len(targets) == 1
        and not task.get("clash_offered")
    ):
        clash = _clash_options(g, targets[0], damage)
        if clash:
            task["clash_offered"] = True
            g.ask(
                task,
                "power-clash",
                targets[0][2:],
                f"Power Clash against {g.name(uid)} ({damage} damage)?",
                clash,
            )
            return
    # Pushed before the damage and effects, so it runs after them: the card
    # is discarded once it has been used (rules note N45).
    g.push({"t": "attack-used", "uid": uid})
    if task.get("choice") not in (None, "decline"):
        _power_clash(g, task, damage, source)
        return
    ctx = {"actor": source, "target": targets[0] if len(targets) == 1 else "", "attacker": source}
    if body.effects:
        for key in reversed(targets or [""]):
            g.push_ops(s.card_ids[uid], f"{prefix}effects", {**ctx, "target": key})
    if body.damage or body.plus_power or body.plus_despair:
        for key in reversed(targets):
            g.push(
                {
                    "t": "damage",
                    "source": source,
                    "target": key,
                    "amount": damage,
                    "kind": body.damage_kind,
                    "attack": body.attack_type,
                    "is_attack": True,
                }
            )


def _attack_used(g: Game, task: dict[str, Any]) -> None:
    discard_attack(g, task["uid"])


def _attack_targets(g: Game, body: Any, task: dict[str, Any]) -> tuple[list[str], bool]:
    targets: tuple[list[str], bool] = g.hooks.attack_targets(g, body, task)
    return targets


_RESOLVING = ("vattack", "attack-used")
"""Tasks that hold a Villain attack card while it resolves."""


def discard_attack(g: Game, uid: int) -> None:
    """An attack card goes to the discard pile once no half of it is still
    prepared or about to resolve."""
    v = g.state.villain
    on_track = any(p.uid == uid for slot in v.time_track for p in slot)
    resolving = any(t["t"] in _RESOLVING and t["uid"] == uid for t in g.state.stack)
    if uid not in v.discard and not on_track and not resolving:
        v.discard.append(uid)


def _clash_options(g: Game, target: str, damage: int) -> list[dict[str, Any]]:
    """Power Clash choices: the prepared Technique and how much Energy to add."""
    if not target.startswith("c:"):
        return []
    ch = g.state.character(target[2:])
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
    options: list[dict[str, Any]] = [{"label": "Do not clash", "value": "decline"}]
    for slot, p in prepared:
        for n in range(len(energy) + 1):
            spent = energy[:n]
            value = sum(g.energy_value(u) for u in spent)
            options.append(
                {
                    "label": f"Clash with {g.name(p.uid)} (Time {slot}), adding "
                    f"{count(n, 'Energy card')}"
                    f" worth {value}",
                    "value": {"slot": slot, "energy": spent},
                }
            )
    return options


def _power_clash(g: Game, task: dict[str, Any], damage: int, source: str) -> None:
    """The glossary's Power Clash: compare powers; the winner deals damage."""
    ch = g.state.character(task["targets"][0][2:])
    choice = task.pop("choice")
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
    level = g.card(g.state.villain_id).level
    die = g.rng.randint(1, 6)
    villain_power = damage + level + die
    player_power = max(0, technique_damage - (slot - 1)) + g.card(ch.id).level + energy_value
    g.log(
        "roll",
        f"Power Clash: {g.name(source)} {villain_power} (die {die}) against "
        f"{g.name('c:' + ch.id)} {player_power}.",
        dice=[die],
    )
    ch.time_track[slot - 1] = None
    ch.discard += [prepared.uid, *prepared.boosters]
    if player_power > villain_power:
        g.push(
            {
                "t": "damage",
                "source": f"c:{ch.id}",
                "target": guardian_for(g, source),
                "amount": damage + len(spent),
                "kind": "basic",
                "attack": "energy",
                "is_attack": True,
                "technique": True,
            }
        )
    elif player_power < villain_power:
        g.push(
            {
                "t": "damage",
                "source": source,
                "target": f"c:{ch.id}",
                "amount": damage + 2,
                "kind": "basic",
                "attack": "energy",
                "is_attack": True,
            }
        )
    else:
        g.log("clash", "The attacks cancel each other out.")


# --- the Wish card -------------------------------------------------------------------------


def _wish(g: Game, task: dict[str, Any]) -> None:
    """The Characters hold all seven Dragon Balls: the game pauses for a wish."""
    s = g.state
    if combat.side_balls(g, "players") != 7:
        return
    decider = s.active if s.active not in ("", "villain") else "players"
    if "choice" not in task:
        g.ask(task, "wish", decider, "Shenron appears! Make a wish.", _wish_options(g))
        return
    wish = task["choice"]
    kind = wish["wish"]
    if kind == "resurrect":
        _resurrect(g, wish["key"])
    elif kind == "damage":
        target = wish["key"]
        level = g.card(s.villain_id).level if not target.startswith("m:") else 0
        combat.hit(g, "wish", target, 15 + 2 * level, "unavoidable", is_attack=False)
    elif kind == "card":
        market, uid, who = wish["market"], wish["uid"], wish["character"]
        if market == "sixth":
            s.sixth.remove(uid)
        else:
            s.markets[market].row.remove(uid)
            zones.restock(g, market)
        s.character(who).discard.append(uid)
        g.log("wish", f"{g.name(uid)} goes to {g.name('c:' + who)}'s discard pile.")
    elif kind == "heal":
        combat.heal(g, wish["key"], "all", repair=rules.race_of(g, wish["key"]) == "android")
    elif kind == "return-allies":
        eliminated = [u for u in s.box if u in s.eliminated]
        g.rng.shuffle(eliminated)
        for uid in eliminated[:3]:
            s.box.remove(uid)
            s.eliminated.remove(uid)
            s.markets["allies"].deck.insert(0, uid)
        zones.restock(g, "allies")
    for i in range(7):
        s.balls[i] = ""
    g.log("wish", "The wish is granted; the seven Dragon Balls scatter (unclaimed).")


def _wish_options(g: Game) -> list[dict[str, Any]]:
    s = g.state
    options: list[dict[str, Any]] = []
    for ch in s.characters:
        if ch.defeated:
            options.append(
                {
                    "label": f"Resurrect {g.name('c:' + ch.id)}",
                    "value": {"wish": "resurrect", "key": f"c:{ch.id}"},
                }
            )
    for uid in s.eliminated:
        options.append(
            {"label": f"Resurrect {g.name(uid)}", "value": {"wish": "resurrect", "key": f"a:{uid}"}}
        )
    for key in enemies_of(g, "players"):
        if alive(g, key):
            options.append(
                {
                    "label": f"15 UNAVOIDABLE damage (+2 per Level) to {g.name(key)}",
                    "value": {"wish": "damage", "key": key},
                }
            )
    for market in (*zones.MARKETS, "sixth"):
        row = s.sixth[-1:] if market == "sixth" else s.markets[market].row
        for uid in row:
            for ch in s.characters:
                if ch.in_play() and _level_allows(g, uid, ch):
                    options.append(
                        {
                            "label": f"{g.name(uid)} for {g.name('c:' + ch.id)}",
                            "value": {
                                "wish": "card",
                                "market": market,
                                "uid": uid,
                                "character": ch.id,
                            },
                        }
                    )
    for key in friends_of(g, "players"):
        if rules.damage_of(g, key):
            options.append(
                {"label": f"Fully heal {g.name(key)}", "value": {"wish": "heal", "key": key}}
            )
    if s.eliminated:
        options.append(
            {
                "label": "Return up to 3 eliminated Allies to the Ally deck",
                "value": {"wish": "return-allies"},
            }
        )
    if not options:
        options.append({"label": "Wish for nothing", "value": {"wish": "none"}})
    return options


def _level_allows(g: Game, uid: int, ch: CharacterState) -> bool:
    """A wished card ignores every requirement but a Level the Character
    lacks (The Wish Card)."""
    for condition in getattr(g.card(uid), "requirements", ()):
        if isinstance(condition, fx.LevelAtLeast) and g.card(ch.id).level < condition.level:
            return False
    return True


def _resurrect(g: Game, key: str) -> None:
    s = g.state
    if key.startswith("c:"):
        ch = s.character(key[2:])
        ch.defeated = False
        ch.damage = 0
        g.log("wish", f"{g.name(key)} returns to the fight!")
        return
    uid = int(key[2:])
    s.box.remove(uid)
    s.eliminated.remove(uid)
    active = (
        s.character(s.active)
        if s.active not in ("", "villain")
        else next(c for c in s.characters if c.in_play())
    )
    active.allies.append(Unit(uid))
    g.log("wish", f"{g.name(uid)} returns to the fight beside {g.name('c:' + active.id)}!")


# --- the Room of Spirit and Time --------------------------------------------------------------


def _room(g: Game, task: dict[str, Any]) -> None:
    """A turn of a Character inside the Room: stay (one more token) or leave."""
    ch = g.state.character(task["character"])
    if ch.room_tokens < 4 and "choice" not in task:
        g.ask(
            task,
            "room",
            ch.id,
            f"{g.name('c:' + ch.id)} has trained {count(ch.room_tokens, 'turn')} in the Room of "
            "Spirit and Time.",
            [
                {"label": "Stay and train another turn", "value": "stay"},
                {"label": "Leave and claim the reward", "value": "leave"},
            ],
        )
        return
    if task.get("choice") == "stay":
        ch.room_tokens += 1
        g.log("room", f"{g.name('c:' + ch.id)} trains on ({count(ch.room_tokens, 'token')}).")
        return
    tokens = ch.room_tokens
    room = next((u for u in ch.training if u.uid == ch.room_card), None)
    ch.room_tokens = -1
    g.log(
        "room",
        f"{g.name('c:' + ch.id)} leaves the Room of Spirit and Time after {count(tokens, 'turn')}.",
    )
    g.state.step = "char_energy"
    if room is None:
        return
    card = g.card(room.uid)
    ch.training.remove(room)
    g.state.box.append(room.uid)
    rewards = [i for i, r in enumerate(card.rewards) if r.turns <= tokens]
    if rewards:
        best = max(rewards, key=lambda i: card.rewards[i].turns)
        g.push_ops(card.id, f"rewards.{best}.effects", {"actor": f"c:{ch.id}"})


TASKS = [
    ("fire", _fire),
    ("used", _used),
    ("vattack", _vattack),
    ("attack-used", _attack_used),
    ("heal-technique", _heal_technique),
    ("wish", _wish),
    ("room", _room),
]
