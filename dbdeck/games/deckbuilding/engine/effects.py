"""One handler per effect operation, reused by every card.

Operations run as tasks on the game's stack. A handler that needs a choice
(a target, an option, a card) asks for it and is called again with the
answer in ``task.choice``. ``ctx`` (an ``EffectContext``,
``engine/context.py``) says who owns the effect (``actor``), which card it
comes from (``source``), the attack's target (``target``) and whether the
card is part of a Combo (``combo``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from dbdeck.games.deckbuilding.cards import plain as fx
from dbdeck.games.deckbuilding.cards.describe import describe_effects
from dbdeck.games.deckbuilding.cards.plain import Minion
from dbdeck.games.deckbuilding.engine import combat, rules, zones
from dbdeck.games.deckbuilding.engine.combat import (
    alive,
    balls_of,
    enemies_of,
    friends_of,
    give_balls,
)
from dbdeck.games.deckbuilding.engine.context import EffectContext
from dbdeck.games.deckbuilding.engine.events import Agree, Name
from dbdeck.games.deckbuilding.engine.holders import (
    LOCATION,
    VILLAIN,
    Actor,
    AllyRef,
    CharacterRef,
    EnemyRef,
    Holder,
    MarketAllyRef,
    MinionRef,
)
from dbdeck.games.deckbuilding.engine.rules import side_of
from dbdeck.games.deckbuilding.engine.state import Bonus, CharacterState, Option
from dbdeck.games.deckbuilding.engine.tasks import (
    CONTEXT,
    Asking,
    Task,
    optional,
    read_choice,
    task_kind,
)
from dbdeck.games.deckbuilding.engine.words import count

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.reach import Reach

__all__ = ["Op", "Ops", "ops_at", "resolve_targets"]


def ops_at(g: Reach, card_id: str, path: str) -> list[Any]:
    """The operation list found at a dotted path inside a card."""
    node: Any = g.card(card_id)
    for part in path.split("."):
        node = node[int(part)] if part.isdigit() else getattr(node, part)
    return list(node or [])


@task_kind("ops")
@dataclass(slots=True)
class Ops(Task):
    """A card's operations at ``path``, from the ``i``-th on: one runs, the
    rest wait beneath it."""

    card: str
    path: str
    i: int
    ctx: EffectContext = field(metadata=CONTEXT)
    """Who owns the effect and what it is about (see the module)."""

    def run(self, g: Reach) -> None:
        """Queue the ``i``-th operation, and the rest after it."""
        ops = ops_at(g, self.card, self.path)
        i = self.i
        if i >= len(ops):
            return
        if i + 1 < len(ops):
            g.push(Ops(self.card, self.path, i + 1, self.ctx))
        g.push(Op(self.card, self.path, i, self.ctx))


# Set after the class: compiled with mypyc, a constant in a dataclass's body
# becomes one of its fields.
Ops.queues_only = True


@task_kind("op")
@dataclass(slots=True)
class Op(Asking):
    """One operation of a card, run by its handler."""

    card: str
    path: str
    i: int
    ctx: EffectContext = field(metadata=CONTEXT)
    left: int | None = optional(None)
    """A discard or destroy of several cards: how many are still to go."""
    who: str | None = optional(None)
    """The Character a discard or destroy is for, once known: each in turn
    for "each Character", or the one the players chose."""
    choice: Any = optional(None)
    """The answer: a target, a card uid, an option's index."""

    @staticmethod
    def read_answer(value: Any) -> Any:
        """Answers that may be holders, read back (``read_choice``); a
        method, not ``staticmethod(read_choice)``: compiled with mypyc, a
        value assigned in a dataclass's body becomes one of its fields."""
        return read_choice(value)

    def run(self, g: Reach) -> None:
        """Run the operation's handler."""
        op = ops_at(g, self.card, self.path)[self.i]
        HANDLERS[type(op)](g, op, self)


def effect_words(g: Reach, task: Op) -> str:
    """The effect an operation belongs to, in words: ``Sokidan: draw 1
    card, then discard 1 card from the hand.`` (a question names what it
    is for)."""
    card = g.catalog.cards.get(task.card)
    name = card.name if card is not None else task.card
    return f"{name}: {describe_effects(ops_at(g, task.card, task.path))}."


# --- targets -------------------------------------------------------------------------


def controller(g: Reach, actor: Actor) -> str:
    """Who decides for an effect's owner: its Character, or the players."""
    match actor:
        case CharacterRef(character_id):
            return character_id
        case AllyRef(uid):
            return g.ally(uid)[0].id
        case "loc":
            return g.state.active if g.state.active not in ("", "villain") else "players"
    return "players"


def _actor_side(g: Reach, ctx: EffectContext) -> str:
    actor: Actor = ctx.actor
    if actor == LOCATION:
        return "villain" if g.state.active == "villain" else "players"
    return side_of(actor)


def _self_key(g: Reach, ctx: EffectContext) -> Holder:
    actor: Actor = ctx.actor
    match actor:
        case AllyRef(uid):
            return CharacterRef(g.ally(uid)[0].id)
        case EnemyRef():
            return g.hooks.enemy_self(g, actor)
        case "loc":
            active = g.state.active
            return VILLAIN if active == "villain" else CharacterRef(active)
    # A Minion's "self" is the Minion (Freezer's Army holds its ball).
    return actor


def resolve_targets(
    g: Reach, name: str, ctx: EffectContext, character: str | None = None
) -> tuple[list[Holder], bool]:
    """The candidates a target names, and whether one must be chosen."""
    side = _actor_side(g, ctx)
    enemies = [k for k in enemies_of(g, side) if alive(g, k)]
    if name == "self":
        return [_self_key(g, ctx)], False
    if name == "this-card":
        # The card's owner: a holder (a Location's effects name no such target).
        return [cast(Holder, ctx.actor)], False
    if name == "chosen-enemy":
        if ctx.target is not None and alive(g, ctx.target):
            return [ctx.target], False
        return enemies, True
    if name == "each-enemy":
        return enemies, False
    if name == "villain":
        keys = [k for k in enemies_of(g, "players") if k.__class__ is not MinionRef]
        if ctx.location:
            # A Location's "the Villain" is each of its enemies, even one not yet
            # arrived at setup (rules notes L1, L4).
            if not keys and ctx.setup:
                keys = [VILLAIN]
            return keys, False
        return keys, len(keys) > 1
    if name in ("chosen-minion", "each-minion"):
        return [k for k in enemies if k.__class__ is MinionRef], name == "chosen-minion"
    characters: list[Holder] = [k for k in enemies_of(g, "villain") if k.__class__ is CharacterRef]
    allies: list[Holder] = [k for k in enemies_of(g, "villain") if k.__class__ is AllyRef]
    if name == "chosen-character":
        return characters, True
    if name == "each-character":
        return characters, False
    if name == "other-characters":
        me = _self_key(g, ctx)
        return [k for k in characters if k is not me], False
    if name == "chosen-ally":
        return allies, True
    if name == "each-ally":
        return allies, False
    if name == "chosen-friend":
        return friends_of(g, side), True
    if name == "active-character":
        active = g.state.active
        return ([CharacterRef(active)] if active not in ("", "villain") else []), False
    if name in ("enemy-with-most-dragon-balls", "character-with-most-dragon-balls"):
        pool = enemies if name.startswith("enemy") else characters
        if side == "players" and name.startswith("character"):
            pool = characters
        most = max((balls_of(g, k) for k in pool), default=0)
        best = [k for k in pool if balls_of(g, k) == most]
        return best, len(best) > 1
    if name == "chosen-enemy-with-dragon-balls":
        return [k for k in enemies if balls_of(g, k)], True
    if name == "enemy-with-least-health":
        least = min((rules.remaining(g, k) for k in enemies), default=0)
        best = [k for k in enemies if rules.remaining(g, k) == least]
        return best, len(best) > 1
    if name == "aggro-holder":
        aggro = g.hooks.aggro_holder(g)
        if aggro is not None and alive(g, aggro):
            return [aggro], False
        return enemies, True
    if name == "attacker":
        return ([ctx.attacker] if ctx.attacker is not None else []), False
    if name == "named-character":
        named = CharacterRef(character) if character else None
        return [k for k in characters if k is named], False
    if name.startswith("ally-market") or name == "kidnapped-victim":
        keys = g.hooks.special_targets(g, name)
        return keys, len(keys) > 1  # the players choose among ties and "-" costs (N2)
    return [], False


def with_targets(
    g: Reach,
    task: Op,
    name: str,
    apply: Callable[[Holder], None],
    character: str | None = None,
    prompt: str = "Choose a target",
) -> None:
    """Apply ``apply`` to the targets an operation names, asking when a
    choice is needed."""
    ctx = task.ctx
    if task.choice is not None:
        if task.choice.__class__ is MarketAllyRef or alive(g, task.choice):
            apply(task.choice)
        return
    keys, choose = resolve_targets(g, name, ctx, character)
    if not keys:
        return
    if choose and len(keys) > 1:
        g.ask(
            task,
            "target",
            controller(g, ctx.actor),
            prompt,
            [Option(g.target_label(k), k) for k in keys],
        )
        return
    for key in keys if not choose else keys[:1]:
        apply(key)


# --- handlers ---------------------------------------------------------------------------


def _damage(g: Reach, op: fx.Damage, task: Op) -> None:
    ctx = task.ctx
    amount = op.amount
    if op.plus_despair:
        amount += g.state.villain.tokens.get("despair", 0)
    source = _source_key(g, ctx)
    side = _actor_side(g, ctx)
    if side == "villain" and op.attack is not None:
        amount += g.state.villain.damage_bonus + g.hooks.attack_bonus(g, source)
        if source is VILLAIN or source.__class__ is EnemyRef:
            # A Location strengthens the Villain's attacks, not its Minions' (rules note L3).
            amount += g.location_bonus(fx.DamageBonus, op.attack)

    def apply(key: Holder) -> None:
        target = combat.guardian_for(g, key) if side == "players" else key
        g.push(
            combat.Damage(
                source,
                target,
                amount,
                op.kind,
                op.attack,
                is_attack=op.attack is not None,
                names_attack=True,
            )
        )

    with_targets(
        g, task, op.target, apply, op.character, f"Who takes {amount} damage from {g.name(source)}?"
    )


def _source_key(g: Reach, ctx: EffectContext) -> Holder:
    actor: Actor = ctx.actor
    if actor == LOCATION:
        return _self_key(g, ctx)
    return actor


def _eliminate(g: Reach, op: fx.Eliminate, task: Op) -> None:
    ctx = task.ctx
    source = _source_key(g, ctx)

    def apply(key: Holder) -> None:
        if key.__class__ is MarketAllyRef:
            g.hooks.eliminate_market_ally(g, key, op.avoidable, source)
            return
        if key.__class__ is MinionRef and "army" in g.card_as(key.uid, Minion).keywords:
            g.log("immune", "{} is an Army: immune to Eliminate.", key)
            return
        amount = combat.eliminate_damage(g, key)
        g.push(combat.Damage(source, key, amount, block=False))

    with_targets(g, task, op.target, apply, prompt="Who is eliminated?")


def _draw(g: Reach, op: fx.Draw, task: Op) -> None:
    def apply(key: Holder) -> None:
        if key.__class__ is CharacterRef:
            zones.draw(g, g.state.character(key.id), op.count)

    with_targets(g, task, op.target, apply, prompt="Who draws?")


def _pile_choice(g: Reach, op: fx.Discard | fx.Destroy, task: Op, destroy: bool) -> None:
    ctx = task.ctx
    if op.source == "this-card":
        source = ctx.source
        if source is not None:
            zones.remove_card(g, source, to_box=destroy)
        return
    key = _whose_pile(g, op, task)
    if key is None:
        return
    ch = g.state.character(key.id)
    count = op.count if task.left is None else task.left
    if count <= 0:
        return
    candidates = zones.pile_candidates(
        g, ch, op.source, op.card_kind, voluntary=ctx.voluntary or not destroy
    )
    if not candidates:
        return
    if op.source == "random-from-hand":
        pick = g.rng.card_at_random(candidates)
    elif task.choice is not None:
        pick, task.choice = task.choice, None
    elif len({g.state.card_ids[u] for u in candidates}) == 1:
        pick = candidates[0]  # identical cards: nothing to choose
    else:
        verb = "destroy" if destroy else "discard"
        g.ask(
            task,
            verb,
            ch.id,
            f"Choose a card to {verb}. {effect_words(g, task)}",
            [Option(g.name(u), u) for u in candidates],
        )
        return
    zones.remove_card(g, pick, to_box=destroy, owner=ch)
    if count > 1:
        g.push(Op(task.card, task.path, task.i, task.ctx, left=count - 1, who=task.who))


def _whose_pile(g: Reach, op: fx.Discard | fx.Destroy, task: Op) -> CharacterRef | None:
    """The Character whose cards a discard or destroy takes; ``None`` when
    that waits for the players' answer, or when no Character is named.

    "Each Character discards" is one discard per Character, each in turn
    with its own choice of card; "a Character the players choose" asks them
    first (rules note N52). Once known, the Character is kept on the task
    (``who``)."""
    if task.who is not None:
        return CharacterRef(task.who)
    if task.choice.__class__ is CharacterRef and alive(g, task.choice):
        task.who, task.choice = task.choice.id, None
        return CharacterRef(task.who)
    keys, choose = resolve_targets(g, op.target, task.ctx)
    characters = [k for k in keys if k.__class__ is CharacterRef]
    if len(characters) <= 1:
        return characters[0] if characters else None
    if choose:
        g.ask(
            task,
            "target",
            controller(g, task.ctx.actor),
            "Who " + ("destroys" if isinstance(op, fx.Destroy) else "discards") + " a card?",
            [Option(g.target_label(k), k) for k in characters],
        )
        return None
    for key in reversed(characters):  # the first Character's discard runs first
        g.push(Op(task.card, task.path, task.i, task.ctx, left=task.left, who=key.id))
    return None


def _discard(g: Reach, op: fx.Discard, task: Op) -> None:
    _pile_choice(g, op, task, destroy=False)


def _destroy(g: Reach, op: fx.Destroy, task: Op) -> None:
    _pile_choice(g, op, task, destroy=True)


def _heal(g: Reach, op: fx.Heal | fx.Repair, task: Op) -> None:
    repair = isinstance(op, fx.Repair)

    def apply(key: Holder) -> None:
        combat.heal(g, key, op.amount, repair=repair)

    with_targets(g, task, op.target, apply, prompt="Who is healed?")


def _own_character(g: Reach, ctx: EffectContext) -> CharacterState | None:
    """The Character an effect belongs to (through its Ally), if any."""
    key = _self_key(g, ctx)
    return g.state.character(key.id) if key.__class__ is CharacterRef else None


def _gain_energy(g: Reach, op: fx.GainEnergy, task: Op) -> None:
    ch = _own_character(g, task.ctx)
    if ch is None:
        return
    if op.market == "training":
        ch.training_energy += op.amount
    else:
        ch.energy += op.amount
    g.log("energy", "{} gains {} Energy.", CharacterRef(ch.id), op.amount)


def _pay_energy(g: Reach, op: fx.PayEnergy, task: Op) -> None:
    ch = _own_character(g, task.ctx)
    if ch is not None:
        ch.energy = max(0, ch.energy - op.amount)


_BONUS_KIND: dict[type[Any], str] = {
    fx.ArmorBonus: "armor",
    fx.DamageReductionBonus: "damage-reduction",
    fx.MaxHealthBonus: "max-health",
    fx.DamageBonus: "damage",
    fx.HandSizeBonus: "hand-size",
    fx.ExtraDragonBallPurchase: "extra-dragon-ball",
}


def _bonus(g: Reach, op: Any, task: Op) -> None:
    if op.duration in ("while-in-play", "this-attack"):
        # While-in-play bonuses are read from the cards in play; a bonus for
        # "this attack" was counted when the attack's damage was added up.
        return
    kind = _BONUS_KIND.get(type(op)) or f"cost:{op.market}"
    # "Until your next turn" is the next turn of the Character whose card
    # gave it, not of the one it was given to (rules note N53).
    giver = _own_character(g, task.ctx) if op.duration == "until-your-next-turn" else None

    def apply(key: Holder) -> None:
        if key.__class__ is CharacterRef:
            ch = g.state.character(key.id)
            until = giver.id if giver is not None and giver.id != ch.id else None
            ch.bonuses.append(
                Bonus(kind, op.amount, op.duration, getattr(op, "attack", None), until)
            )
            g.log("bonus", "{}: {} {}.", key, kind, f"{op.amount:+d}")
        elif key is VILLAIN or key.__class__ is EnemyRef:
            v = g.state.villain
            if kind == "armor":
                v.armor_bonus += op.amount
            elif kind == "damage-reduction":
                v.damage_reduction_bonus += op.amount
            elif kind == "damage":
                v.damage_bonus += op.amount

    with_targets(g, task, op.target, apply, prompt="Who gains the bonus?")


def _take_ball(g: Reach, op: fx.TakeDragonBall, task: Op) -> None:
    takers: set[Holder] = set()

    def apply(key: Holder) -> None:
        taker = VILLAIN if key.__class__ is EnemyRef else key
        if taker in takers:
            return  # the enemies of one Villain hold its balls together
        takers.add(taker)
        took = give_balls(g, None, taker, op.count)
        if took:
            g.log(
                "balls",
                "{} {}.",
                Agree(taker, "takes", "take"),
                count(took, "unclaimed Dragon Ball"),
                to=taker,
                count=took,
            )
        elif op.steal_if_none:
            pool = [k for k in enemies_of(g, side_of(taker)) if balls_of(g, k)]
            if pool:
                victim = max(pool, key=lambda k: balls_of(g, k))
                give_balls(g, victim, taker)
                g.log(
                    "balls",
                    "{} a Dragon Ball from {}.",
                    Agree(taker, "steals", "steal"),
                    victim,
                )

    with_targets(g, task, op.target, apply, prompt="Who takes the Dragon Ball?")


def _drop_ball(g: Reach, op: fx.DropDragonBall, task: Op) -> None:
    def apply(key: Holder) -> None:
        holder = VILLAIN if key.__class__ is EnemyRef else key
        dropped = give_balls(g, holder, None, op.count)
        if dropped:
            g.log(
                "balls",
                "{} {}.",
                Agree(key, "drops", "drop"),
                count(dropped, "Dragon Ball"),
                count=dropped,
            )

    with_targets(g, task, op.target, apply, prompt="Who drops a Dragon Ball?")


def _steal_ball(g: Reach, op: fx.StealDragonBall, task: Op) -> None:
    taker = _self_key(g, task.ctx)

    def apply(key: Holder) -> None:
        holder = VILLAIN if key.__class__ is EnemyRef else key
        took = give_balls(g, holder, taker, op.count)
        if took:
            g.log(
                "balls",
                "{} {} from {}.",
                Agree(taker, "steals", "steal"),
                count(took, "Dragon Ball"),
                key,
            )

    with_targets(g, task, op.target, apply, prompt="Steal from whom?")


def _search(g: Reach, op: fx.Search, task: Op) -> None:
    ch = _own_character(g, task.ctx)
    if ch is None:
        return
    candidates = zones.search_candidates(g, ch, op.source, op.card_kind)
    if not candidates:
        return
    chosen = g.choose_one(
        task,
        "search",
        ch.id,
        f"Search the {op.source.replace('-', ' ')}: take which card?",
        [Option(g.name(u), u) for u in candidates],
    )
    if chosen is not None:
        zones.take_searched(g, ch, chosen, op.source, op.destination)


def _ready(g: Reach, op: fx.Ready | fx.Exhaust, task: Op) -> None:
    exhaust = isinstance(op, fx.Exhaust)

    def apply(key: Holder) -> None:
        if key.__class__ is MinionRef:
            g.minion(key.uid).exhausted = exhaust
            g.log(
                "exhaust" if exhaust else "ready",
                "{} is {}.",
                key,
                "exhausted" if exhaust else "readied",
            )
            return
        if key.__class__ is CharacterRef and not exhaust:
            ch = g.state.character(key.id)
            units = [
                u
                for u in ch.units()
                if u.exhausted
                and zones.kind_matches(g, u.uid, op.card_kind)
                and u.uid != task.ctx.source
            ]
            if units:
                units[0].exhausted = False
                g.log("ready", "{} is readied.", Name(units[0].uid))

    target = op.target if not (exhaust and op.target == "self") else "chosen-minion"
    with_targets(g, task, target, apply, prompt="Which card?")


def _tokens(g: Reach, op: fx.AddTokens | fx.RemoveTokens, task: Op) -> None:
    sign = 1 if isinstance(op, fx.AddTokens) else -1

    def apply(key: Holder) -> None:
        g.hooks.tokens(g, key, op.counter, sign * op.amount, task.ctx)

    with_targets(g, task, op.target, apply, prompt="Where do the tokens go?")


def _break_armor(g: Reach, op: fx.BreakArmor, task: Op) -> None:
    actor: Actor = task.ctx.actor
    if op.target == "self" and actor.__class__ is EnemyRef:
        g.hooks.break_armor(g, actor)  # an enemy's own Armor tokens, not the Villain's
        return
    with_targets(
        g, task, op.target, lambda key: g.hooks.break_armor(g, key), prompt="Whose Armor breaks?"
    )


def _summon(g: Reach, op: fx.Summon, task: Op) -> None:
    count = op.count
    if op.per_character:
        count = sum(1 for c in g.state.characters if c.in_play())
    zones.summon(g, op.card, count)


def _activate(g: Reach, op: fx.ActivateCard, task: Op) -> None:
    g.hooks.activate_card(g, op.card)


def _remove_market(g: Reach, op: fx.RemoveFromMarket, task: Op) -> None:
    if task.path == "setup_effects":
        return  # a Location's setup: Game._build_markets did it before the rows were revealed
    zones.remove_from_market(g, op.market, op.count)
    zones.restock(g, op.market)


def _extra_turn(g: Reach, op: fx.ExtraTurn, task: Op) -> None:
    if _actor_side(g, task.ctx) == "villain":
        g.state.villain.extra_turns += 1


def _roll(g: Reach, op: fx.Roll, task: Op) -> None:
    dice = [g.rng.randint(1, 6) for _ in range(2 if op.dice == "2d6" else 1)]
    total = sum(dice) if op.dice != "1d3" else (dice[0] + 1) // 2
    g.log(
        "roll",
        f"{op.dice.upper()} rolls {total} ({', '.join(map(str, dice))}).",
        dice=dice,
        total=total,
    )
    for i, row in enumerate(op.rows):
        if row.low <= total <= row.high:
            g.push_ops(task.card, f"{task.path}.{task.i}.rows.{i}.effects", task.ctx)
            return


def _if(g: Reach, op: fx.If, task: Op) -> None:
    branch = "then" if condition_holds(g, op.condition, task.ctx) else "otherwise"
    g.push_ops(task.card, f"{task.path}.{task.i}.{branch}", task.ctx)


def _choose_one(g: Reach, op: fx.ChooseOne, task: Op) -> None:
    if task.choice is None:
        g.ask(
            task,
            "choose-one",
            controller(g, task.ctx.actor),
            "Choose one",
            [Option(o.label, i) for i, o in enumerate(op.options)],
        )
        return
    g.push_ops(task.card, f"{task.path}.{task.i}.options.{task.choice}.effects", task.ctx)


def condition_holds(g: Reach, cond: Any, ctx: EffectContext) -> bool:
    """Whether a condition holds for an effect's owner."""
    subject = _self_key(g, ctx)
    if getattr(cond, "subject", "self") == "target" and ctx.target is not None:
        subject = ctx.target
    if isinstance(cond, fx.InCombo):
        return bool(ctx.combo)
    if isinstance(cond, fx.RaceIs):
        return rules.race_of(g, subject) in cond.races
    if isinstance(cond, fx.VillainPhase):
        return g.state.villain.phase in cond.phases
    if isinstance(cond, fx.ControlsDragonBalls):
        return balls_of(g, subject) >= cond.at_least
    if isinstance(cond, fx.IsDamaged):
        return rules.damage_of(g, subject) >= cond.at_least
    if isinstance(cond, fx.CharacterIs):
        return subject.__class__ is CharacterRef and subject.id in cond.characters
    if isinstance(cond, fx.LevelAtLeast):
        return (
            subject.__class__ is CharacterRef and g.character_card(subject.id).level >= cond.level
        )
    if isinstance(cond, fx.HasInPlay):
        if subject.__class__ is not CharacterRef:
            return False
        ch = g.state.character(subject.id)
        return sum(zones.kind_matches(g, u.uid, cond.card_kind) for u in ch.units()) >= cond.count
    if isinstance(cond, fx.UnclaimedDragonBalls):
        return g.state.balls.count(None) >= cond.at_least
    if isinstance(cond, fx.AlliedEnemyAlive):
        return cond.enemy not in g.state.villain.defeated_enemies
    return False


HANDLERS: dict[type[Any], Callable[[Reach, Any, Op], None]] = {
    fx.Damage: _damage,
    fx.Eliminate: _eliminate,
    fx.Draw: _draw,
    fx.Discard: _discard,
    fx.Destroy: _destroy,
    fx.Heal: _heal,
    fx.Repair: _heal,
    fx.GainEnergy: _gain_energy,
    fx.PayEnergy: _pay_energy,
    fx.CostChange: _bonus,
    fx.ArmorBonus: _bonus,
    fx.DamageReductionBonus: _bonus,
    fx.MaxHealthBonus: _bonus,
    fx.DamageBonus: _bonus,
    fx.HandSizeBonus: _bonus,
    fx.ExtraDragonBallPurchase: _bonus,
    fx.TakeDragonBall: _take_ball,
    fx.DropDragonBall: _drop_ball,
    fx.StealDragonBall: _steal_ball,
    fx.Search: _search,
    fx.Ready: _ready,
    fx.Exhaust: _ready,
    fx.AddTokens: _tokens,
    fx.RemoveTokens: _tokens,
    fx.BreakArmor: _break_armor,
    fx.Summon: _summon,
    fx.ActivateCard: _activate,
    fx.RemoveFromMarket: _remove_market,
    fx.ExtraTurn: _extra_turn,
    fx.Roll: _roll,
    fx.If: _if,
    fx.ChooseOne: _choose_one,
}
"""The handler of each operation."""
