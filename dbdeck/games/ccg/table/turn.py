"""The turn and Combat: each action kind's check and its performance.

A check returns why the action is refused, or ``None``. ``strict`` says
whether the rules that need no card text refuse (adjudication ``apply``);
otherwise the same reasons are only noted in the log (``suggest``) or not
at all (``off``). What the table needs to follow the turn (whose step it
is, which card is where) is checked in every mode.
"""

from __future__ import annotations

from dbdeck.games.ccg.table import actions as a
from dbdeck.games.ccg.table.attack_reading import no_reading_why, read_attack_table
from dbdeck.games.ccg.table.damage import (
    check_victories,
    deal_life,
    deal_stages,
    seven_balls,
    win,
)
from dbdeck.games.ccg.table.fusion import start_of_turn
from dbdeck.games.ccg.table.state import (
    STAGES_ABOVE_ZERO_AT_START,
    Check,
    Combat,
    Entry,
    PendingAttack,
    Perform,
    TableState,
)
from dbdeck.games.ccg.table.zones import ball_in_play, discard_card, draw, locate, put, take

__all__ = ["CHECKS", "ENERGY_COST", "ENERGY_LIFE", "PERFORMS", "capture_allies_of"]

ENERGY_COST = 2
"""An energy attack's cost in power stages unless a card says otherwise
(seed 003, Energy Attacks 1)."""
ENERGY_LIFE = 4
"""An energy attack's life cards of damage unless a card says otherwise."""

COMBAT_TYPES = ("physical-combat", "energy-combat", "combat")

_CAPTURE_ALLIES = {
    # Seed 003, Capturing Dragon Balls 2; seed 002; the digest's longer list.
    "saiyan-2000": ("Bulma", "Krillin", "Saibaimen", "Chi-Chi", "Tien", "Yamcha"),
    "errata-2001": ("Bulma", "Krillin", "Saibaimen", "Chi-Chi", "Tien", "Yamcha"),
    "digest": (
        "Bulma",
        "Chi-Chi",
        "Frieza",
        "Garlic Jr.",
        "Guldo",
        "Krillin",
        "Master Roshi",
        "Saibaimen",
        "Videl",
        "Tien",
        "Yamcha",
    ),
}


def capture_allies_of(profile: str) -> tuple[str, ...]:
    """The Allies that may capture a Dragon Ball instead of dealing damage."""
    return _CAPTURE_ALLIES.get(profile, _CAPTURE_ALLIES["errata-2001"])


def _step(state: TableState, seat: int, step: str, words: str) -> str | None:
    if state.step != step:
        return (
            f"not now: {words} comes in the {_STEP_NAMES[step]} step, and this is the "
            f"{_STEP_NAMES.get(state.step, state.step)} step"
        )
    if state.active != seat:
        return f"it is {state.side(state.active).player}'s turn"
    return None


_STEP_NAMES = {
    "draw": "Draw",
    "non-combat": "Non-Combat",
    "power-up": "Power Up",
    "combat?": "Combat declaration",
    "combat": "Combat",
    "discard": "end-of-turn discard",
    "pass-bonus": "pass bonus",
    "end": "end of turn",
    "over": "game over",
}


def _name(state: TableState, uid: int | None, seat: int) -> str:
    return state.mp_name(seat) if uid is None else state.cards[uid].title


# --- the steps -----------------------------------------------------------------------------


def check_draw_three(state: TableState, x: a.DrawThree, strict: bool) -> str | None:
    return _step(state, x.seat, "draw", "drawing three")


def do_draw_three(state: TableState, x: a.DrawThree) -> None:
    draw(state, x.seat, 3, "the Draw step")
    state.step = "non-combat"


def check_play_card(state: TableState, x: a.PlayCard, strict: bool) -> str | None:
    problem = _step(state, x.seat, "non-combat", "placing a card in play")
    if problem:
        return problem
    side = state.side(x.seat)
    if x.card not in side.hand:
        return "that card is not in your hand"
    card = state.cards[x.card]
    if card.type in COMBAT_TYPES:
        return f"{card.title} is a Combat card: it is played in Combat (seed 003, Combat 3)"
    if card.type in ("mastery", "sensei"):
        return f"a {card.type.title()} card is not played from the hand"
    if x.over is not None and card.type != "personality":
        return "only an Ally overlays another card"
    if x.over is not None and x.over == side.fusion:
        return f"{state.cards[x.over].title} is fused: a Fusion personality is not overlaid"
    if not strict:
        return None
    if card.type == "personality":
        return _ally_problem(state, x.seat, x.card, x.over)
    if card.type == "drill":
        return _drill_problem(state, x.seat, x.card)
    if card.type == "dragon-ball" and card.dragon_ball and ball_in_play(state, card.dragon_ball):
        return (
            f"a {card.title} is already in play: there can only be one of each Dragon "
            "Ball in play at a time (seed 002, Playing Dragon Ball Cards)"
        )
    here = state.location
    if card.type in ("location", "battleground") and here and state.cards[here].title == card.title:
        return f"{card.title} is already in play (seed 001: not another copy of the same one)"
    return None


def _ally_problem(state: TableState, seat: int, uid: int, over: int | None) -> str | None:
    card = state.cards[uid]
    side = state.side(seat)
    who = card.personality or card.title
    if who in (state.sides[0].main_name, state.sides[1].main_name):
        return f"{who} is a Main Personality at this table: not an Ally (rules notes, R11)"
    if card.alignment in ("hero", "villain") and card.alignment != side.alignment:
        return (
            f"{card.title} is a {card.alignment}; {side.main_name} may have only "
            f"{side.alignment} Allies (seed 003, Allies 3)"
        )
    same = [u for u in side.allies if state.cards[u].personality == card.personality]
    saibaimen = who == "Saibaimen"
    fused = [u for u in side.fused if u not in side.levels]
    if over is None and not saibaimen:
        for u in fused:
            if state.cards[u].personality == card.personality:
                return (
                    f"{who} is fused into {state.cards[side.fusion or u].title}, and a "
                    "component still counts (seed 001): one Personality card of the same "
                    "Ally (seed 003, Allies 4)"
                )
    if over is not None:
        if over not in same:
            return f"{card.title} overlays only a lower level of {who} in play"
        if (state.cards[over].level or 0) >= (card.level or 0):
            return "an Ally overlays a lower level of itself, in numerical order (Allies 6)"
        return None
    if same and not saibaimen:
        return (
            f"{who} is already in play as your Ally: one Personality card of the same Ally "
            "(seed 003, Allies 4)"
        )
    for other in state.sides:
        for u in (*other.allies, *(v for v in other.fused if v not in other.levels)):
            c = state.cards[u]
            if c.personality == card.personality and c.level == card.level:
                if saibaimen:
                    if (
                        sum(
                            1
                            for s in state.sides
                            for v in s.allies
                            if state.cards[v].personality == "Saibaimen"
                            and state.cards[v].level == card.level
                        )
                        >= 3
                    ):
                        return "three Saibaimen of that level are in play (seed 003, Saibaimen 1)"
                    continue
                return (
                    f"a level {card.level} {who} is in play: both players cannot have the same "
                    "level Ally in play (seed 003, Allies 5)"
                )
    return None


def _drill_problem(state: TableState, seat: int, uid: int) -> str | None:
    card = state.cards[uid]
    side = state.side(seat)
    drills = [state.cards[u] for u in side.drills]
    if card.style is not None:
        styles = {d.style for d in drills if d.style is not None}
        if styles and card.style not in styles:
            return (
                f"your Drills in play are {', '.join(sorted(styles))}: only one martial arts "
                "style of Drill in play (seed 003, Drills)"
            )
        if any(d.title == card.title for d in drills):
            return f"{card.title} is in play: no duplicates of the same Drill (seed 003, Drills)"
    elif sum(1 for d in drills if d.title == card.title) >= 4:
        return "four of that Named Drill are in play, the most (seed 003, Drills)"
    return None


def do_play_card(state: TableState, x: a.PlayCard) -> None:
    side = state.side(x.seat)
    card = state.cards[x.card]
    take(state, x.card)
    words = f"{side.player} places {card.title} in play"
    if card.type == "personality":
        if x.over is not None:
            old = state.cards[x.over]
            take(state, x.over)
            put(state, x.over, x.seat, "discard")
            put(state, x.card, x.seat, "allies")
            card.stages = card.max_stages
            words += f" over {old.title}, at its highest stage (seed 003, Allies 6)"
        else:
            put(state, x.card, x.seat, "allies")
            card.stages = min(STAGES_ABOVE_ZERO_AT_START, card.max_stages)
            words += f" as an Ally, {card.stages} stages above 0 (rules notes, T4)"
    elif card.type == "drill":
        put(state, x.card, x.seat, "drills")
    elif card.type == "dragon-ball":
        put(state, x.card, x.seat, "dragon-balls")
        words += ": its powers are used now (seed 003, Dragon Balls 3)"
    elif card.type in ("location", "battleground"):
        if state.location is not None:
            old_uid = state.location
            take(state, old_uid)
            put(state, old_uid, state.cards[old_uid].owner, "removed")
            words += f", removing {state.cards[old_uid].title} from the game"
        put(state, x.card, x.seat, "location")
        state.skip_combat = True
        words += "; Combat is skipped this turn (seed 001)"
    else:
        put(state, x.card, x.seat, "non-combat")
    state.log.append(Entry("play", words + ".", x.seat))
    if state.adjudication == "apply" and card.type == "dragon-ball" and seven_balls(state, x.seat):
        win(
            state,
            x.seat,
            "the seventh Dragon Ball placed from the hand: the Dragon Ball Victory (seed 002).",
        )


def check_end_non_combat(state: TableState, x: a.EndNonCombat, strict: bool) -> str | None:
    return _step(state, x.seat, "non-combat", "ending the Non-Combat step")


def do_end_non_combat(state: TableState, x: a.EndNonCombat) -> None:
    state.step = "power-up"


def power_up_stages(state: TableState, seat: int, personality: int | None) -> int | None:
    """What the rules give a personality at Power Up: its PUR, +1 for a
    declared Tokui-Waza's Main Personality (seed 002); ``None`` when no pack
    gives the PUR."""
    side = state.side(seat)
    card = state.cards[side.main if personality is None else personality]
    if card.pur is None:
        return None
    return card.pur + (1 if personality is None and side.tokui_waza else 0)


def check_power_up(state: TableState, x: a.PowerUp, strict: bool) -> str | None:
    problem = _step(state, x.seat, "power-up", "powering up")
    if problem:
        return problem
    side = state.side(x.seat)
    if x.personality is not None and x.personality not in side.allies:
        return "that card is not one of your Allies in play"
    if not 0 <= x.stages <= 20:
        return "a power up is 0 to 20 stages"
    given = power_up_stages(state, x.seat, x.personality)
    if strict and given is not None and x.stages not in (0, given):
        return f"the Power Up Rating gives {given} stages (seed 002)"
    return None


def do_power_up(state: TableState, x: a.PowerUp) -> None:
    side = state.side(x.seat)
    if x.personality is None:
        card = state.cards[side.main]
        before = side.stages
        side.stages = min(card.max_stages, side.stages + x.stages)
        gained, name = side.stages - before, state.mp_name(x.seat)
    else:
        card = state.cards[x.personality]
        before = card.stages or 0
        card.stages = min(card.max_stages, before + x.stages)
        gained, name = card.stages - before, card.title
    state.log.append(
        Entry("power-up", f"{name} powers up {gained} stage{'s' * (gained != 1)}.", x.seat)
        if x.stages
        else Entry("power-up", f"{side.player} does not power up.", x.seat)
    )
    state.step = "combat?"


def check_declare_combat(state: TableState, x: a.DeclareCombat, strict: bool) -> str | None:
    problem = _step(state, x.seat, "combat?", "declaring Combat")
    if problem:
        return problem
    if strict and state.skip_combat:
        return "a Location or Battleground was played this turn: Combat is skipped (seed 001)"
    return None


def do_declare_combat(state: TableState, x: a.DeclareCombat) -> None:
    defender = state.other(x.seat)
    state.combat = Combat(attacker=x.seat, defender=defender, acting=x.seat)
    state.step = "combat"
    for side in state.sides:
        side.final_physical_attack_used = False
        side.attacked = False
        side.in_control = None
        side.ally_powers_used.clear()
    state.log.append(Entry("combat", f"{state.side(x.seat).player} declares Combat.", x.seat))
    draw(state, defender, 3, "the defender draws 3 when Combat is declared")


def check_skip_combat(state: TableState, x: a.SkipCombat, strict: bool) -> str | None:
    return _step(state, x.seat, "combat?", "skipping Combat")


def do_skip_combat(state: TableState, x: a.SkipCombat) -> None:
    state.side(x.seat).attacked = False
    state.log.append(Entry("combat", f"{state.side(x.seat).player} skips Combat.", x.seat))
    _to_discard(state)


# --- Combat -------------------------------------------------------------------------------


def _in_combat(state: TableState, seat: int, phase: str, words: str) -> str | None:
    combat = state.combat
    if combat is None or state.step != "combat":
        return f"not now: {words} is for Combat"
    if combat.acting != seat:
        return f"it is {state.side(combat.acting).player}'s move in Combat"
    if combat.phase != phase:
        return {
            "attack": f"not now: {words} is for an attack phase; answer the attack first",
            "defend": f"not now: {words} answers an attack, and none is waiting",
            "capture": f"not now: {words} follows a capture chance",
        }[phase]
    return None


def controller_stages(state: TableState, seat: int) -> int:
    """The stages of the personality in control of Combat."""
    side = state.side(seat)
    if side.in_control is None:
        return side.stages
    return state.cards[side.in_control].stages or 0


def check_take_control(state: TableState, x: a.TakeControl, strict: bool) -> str | None:
    combat = state.combat
    if combat is None or combat.acting != x.seat or state.step != "combat":
        return "control of Combat changes in Combat, on your move"
    side = state.side(x.seat)
    if x.personality == side.in_control:
        return "that personality is already in control"
    if x.personality is None:
        return None
    if x.personality not in side.allies:
        return "that card is not one of your Allies in play"
    if strict and side.in_control is None and side.stages > 1:
        return (
            f"{state.mp_name(x.seat)} is {side.stages} stages above 0: an Ally takes control when "
            "the Main Personality is at 0 or 1 stage above 0 (seed 003, Allies in Combat 2)"
        )
    return None


def do_take_control(state: TableState, x: a.TakeControl) -> None:
    side = state.side(x.seat)
    side.in_control = x.personality
    state.log.append(
        Entry("control", f"{_name(state, x.personality, x.seat)} takes control of Combat.", x.seat)
    )


def _source_problem(
    state: TableState, seat: int, source: int | None, strict: bool = False
) -> str | None:
    if source is None:
        return None
    side = state.side(seat)
    if source in side.hand:
        card = state.cards[source]
        if strict and card.type not in (*COMBAT_TYPES, ""):
            return (
                f"{card.title} is not a Combat card: from the hand, Combat uses Physical "
                "Combat, Energy Combat and Combat cards; a Non-Combat card is used once in "
                "play (seed 003, Combat 3 and Non-Combat Cards 2)"
            )
        return None
    if source in side.non_combat or source in side.drills:
        return None
    if source == state.location and state.cards[source].owner == seat:
        return None
    return "that card is not in your hand or in play on your side"


def _power_problem(state: TableState, seat: int, source: int | None, strict: bool) -> str | None:
    """A personality power already used: the Main Personality's once per
    turn (seed 001), an Ally's once per Combat (seed 003, Allies in Combat 3)."""
    if not strict or source is not None:
        return None
    side = state.side(seat)
    if side.in_control is None:
        if side.power_used:
            return f"{state.mp_name(seat)}'s power was used this turn (seed 001: once per turn)"
        return None
    if side.in_control in side.ally_powers_used:
        title = state.cards[side.in_control].title
        return (
            f"{title}'s power was used this Combat (seed 003, Allies in Combat 3: once per Combat)"
        )
    return None


def _power_used(state: TableState, seat: int) -> None:
    side = state.side(seat)
    if side.in_control is None:
        side.power_used = True
    else:
        side.ally_powers_used.append(side.in_control)


def check_attack(state: TableState, x: a.Attack, strict: bool) -> str | None:
    problem = _in_combat(state, x.seat, "attack", "an attack")
    if problem:
        return problem
    side = state.side(x.seat)
    if side.final_physical_attack_used:
        return "you made a Final Physical Attack: you pass for the rest of Combat (seed 003)"
    problem = _source_problem(state, x.seat, x.source, strict)
    if problem:
        return problem
    for value, words in ((x.cost, "cost"), (x.stages, "stage damage"), (x.life, "life cards")):
        if value is not None and not 0 <= value <= 30:
            return f"an attack's {words} is 0 to 30"
    cost = _cost(x)
    if _reads_table(x) and read_attack_table(state, x.seat, cost) is None:
        # Rules notes, T1: without a table (or a ladder) the player says it.
        return (
            "give the physical attack's stage damage (the Physical Attack Table: "
            f"{no_reading_why(state, x.seat, cost)})"
        )
    have = controller_stages(state, x.seat)
    if strict and cost > have:
        return (
            f"the attack costs {cost} stages and {_name(state, side.in_control, x.seat)} has "
            f"{have}: an attack whose cost cannot be paid cannot be performed (seed 003, "
            "Energy Attacks 1)"
        )
    problem = _power_problem(state, x.seat, x.source, strict)
    if problem:
        return problem
    return None


def _reads_table(x: a.Attack) -> bool:
    """A physical attack that gives no damage of its own reads the Physical
    Attack Table (seed 003, Combat Timing Sequence 8: "Base Damage is damage
    that is calculated by consulting the Physical Attack Table for physical
    attacks, unless it is already stated on the physical attack")."""
    return x.attack == "physical" and x.stages is None and x.life is None


def _by_hand_note(state: TableState, seat: int, stages: int, paying: int = 0) -> str:
    """What the Physical Attack Table would have given, when the player
    gave another stage damage by hand (a card's effect: rules notes, T1)."""
    reading = read_attack_table(state, seat, paying)
    if reading is None or reading.stages == stages:
        return ""
    return f" (given by hand; {reading.words})"


def _cost(x: a.Attack) -> int:
    if x.cost is not None:
        return x.cost
    return ENERGY_COST if x.attack == "energy" else 0


def do_attack(state: TableState, x: a.Attack) -> None:
    combat = state.combat
    assert combat is not None
    side = state.side(x.seat)
    cost = _cost(x)
    paid = min(cost, controller_stages(state, x.seat))
    reading = read_attack_table(state, x.seat, paid) if _reads_table(x) else None
    note = (
        _by_hand_note(state, x.seat, x.stages, paid)
        if x.attack == "physical" and x.stages is not None
        else ""
    )
    if side.in_control is None:
        side.stages -= paid
    else:
        ally = state.cards[side.in_control]
        ally.stages = (ally.stages or 0) - paid
    if x.source is None:
        _power_used(state, x.seat)
    life = x.life if x.life is not None else (ENERGY_LIFE if x.attack == "energy" else 0)
    stages = reading.stages if reading is not None else (x.stages or 0)
    by = _name(state, side.in_control, x.seat)
    with_ = "a personality power" if x.source is None else state.cards[x.source].title
    damage = (
        " and ".join(
            part
            for part in (
                f"{stages} stage{'s' * (stages != 1)}" if stages else "",
                f"{life} life card{'s' * (life != 1)}" if life else "",
            )
            if part
        )
        or "no damage"
    )
    words = (
        f"{by} makes {'an energy' if x.attack == 'energy' else 'a physical'} attack with "
        f"{with_}: {damage}"
        + (f" ({reading.words})" if reading is not None else note)
        + (f", paying {paid} stage{'s' * (paid != 1)}" if paid else "")
    )
    if x.source is not None:
        _used(state, x.source)
    combat.attack = PendingAttack(
        seat=x.seat,
        attack=x.attack,
        source=x.source,
        by=side.in_control,
        stages=stages,
        life=life,
        words=words,
    )
    side.attacked = True
    combat.passes = 0
    combat.phase = "defend"
    combat.acting = state.other(x.seat)
    state.log.append(Entry("attack", words + ".", x.seat))


def _used(state: TableState, uid: int) -> None:
    """A card used in Combat: discarded after its effects (seed 003, Other
    Timing Rules 4), unless it is a Drill or in play and stays."""
    card = state.cards[uid]
    where = locate(state, uid)
    if where is None:
        return
    if where[1] in ("drills", "location"):
        card.used = True
        return
    discard_card(state, uid, adjudicated=state.adjudication != "off")


def check_use_instead(state: TableState, x: a.UseInstead, strict: bool) -> str | None:
    problem = _in_combat(state, x.seat, "attack", "using a card in place of an attack")
    if problem:
        return problem
    if state.side(x.seat).final_physical_attack_used:
        return "you made a Final Physical Attack: you pass for the rest of Combat (seed 003)"
    return _source_problem(state, x.seat, x.source, strict) or _power_problem(
        state, x.seat, x.source, strict
    )


def do_use_instead(state: TableState, x: a.UseInstead) -> None:
    combat = state.combat
    assert combat is not None
    side = state.side(x.seat)
    what = "a personality power" if x.source is None else state.cards[x.source].title
    if x.source is None:
        _power_used(state, x.seat)
    if x.source is not None:
        _used(state, x.source)
    side.attacked = True
    combat.passes = 0
    combat.acting = state.other(x.seat)
    state.log.append(
        Entry(
            "combat",
            f"{side.player} uses {what} in place of an attack; its effects are resolved by "
            "hand (seed 003, Combat Cards 1).",
            x.seat,
        )
    )


def check_final_physical_attack(
    state: TableState, x: a.FinalPhysicalAttack, strict: bool
) -> str | None:
    problem = _in_combat(state, x.seat, "attack", "a Final Physical Attack")
    if problem:
        return problem
    side = state.side(x.seat)
    if side.final_physical_attack_used:
        return "a Final Physical Attack is made once per Combat (seed 001)"
    if x.discard not in side.hand:
        return "a Final Physical Attack discards a card from your hand"
    if x.stages is not None and not 0 <= x.stages <= 30:
        return "an attack's stage damage is 0 to 30"
    if x.stages is None and read_attack_table(state, x.seat) is None:
        return (
            "give the Final Physical Attack's stage damage (the Physical Attack Table: "
            f"{no_reading_why(state, x.seat)})"
        )
    return None


def do_final_physical_attack(state: TableState, x: a.FinalPhysicalAttack) -> None:
    combat = state.combat
    assert combat is not None
    side = state.side(x.seat)
    title = state.cards[x.discard].title
    # Seed 003, Physical Attacks 2: "Just compare the Main Personality/Ally's
    # power stages on the Physical Attack Table" (rules notes, T1).
    reading = read_attack_table(state, x.seat) if x.stages is None else None
    note = _by_hand_note(state, x.seat, x.stages) if x.stages is not None else ""
    discard_card(state, x.discard, adjudicated=state.adjudication != "off")
    side.final_physical_attack_used = True
    side.attacked = True
    stages = reading.stages if reading is not None else (x.stages or 0)
    words = (
        f"{_name(state, side.in_control, x.seat)} makes a Final Physical Attack, discarding "
        f"{title}: {stages} stage{'s' * (stages != 1)}"
        + (f" ({reading.words})" if reading is not None else note)
        + f"; {side.player} passes for the rest of Combat"
    )
    combat.attack = PendingAttack(
        seat=x.seat,
        attack="physical",
        source=None,
        by=side.in_control,
        stages=stages,
        life=0,
        final=True,
        words=words,
    )
    combat.passes = 0
    combat.phase = "defend"
    combat.acting = state.other(x.seat)
    state.log.append(Entry("attack", words + ".", x.seat))


def check_defend(state: TableState, x: a.Defend, strict: bool) -> str | None:
    problem = _in_combat(state, x.seat, "defend", "a defence")
    if problem:
        return problem
    combat = state.combat
    assert combat is not None and combat.attack is not None
    side = state.side(x.seat)
    if side.final_physical_attack_used:
        return "you made a Final Physical Attack: you cannot defend for the rest of Combat"
    problem = _source_problem(state, x.seat, x.source, strict)
    if problem:
        return problem
    kind = combat.attack.attack
    if strict and x.stops not in (kind, "both", "damage"):
        return (
            f"a defence that stops {x.stops} attacks does not stop this {kind} attack "
            "(seed 003, Combat 4: only if it stops some or all of the damage)"
        )
    problem = _power_problem(state, x.seat, x.source, strict)
    if problem:
        return problem
    return None


def do_defend(state: TableState, x: a.Defend) -> None:
    combat = state.combat
    assert combat is not None and combat.attack is not None
    side = state.side(x.seat)
    what = "a personality power" if x.source is None else state.cards[x.source].title
    if x.source is None:
        _power_used(state, x.seat)
    if x.source is not None:
        _used(state, x.source)
    stopped = "its damage" if x.stops == "damage" else "the attack"
    state.log.append(
        Entry("defend", f"{side.player} defends with {what}: {stopped} is stopped.", x.seat)
    )
    _after_attack(state)


def check_allow_attack(state: TableState, x: a.AllowAttack, strict: bool) -> str | None:
    problem = _in_combat(state, x.seat, "defend", "taking an attack")
    if problem:
        return problem
    if x.recipient is not None and x.recipient not in state.side(x.seat).allies:
        return "the damage goes to your Main Personality or one of your Allies in play"
    return None


def do_allow_attack(state: TableState, x: a.AllowAttack) -> None:
    combat = state.combat
    assert combat is not None and combat.attack is not None
    attack = combat.attack
    seat = x.seat
    target = _name(state, x.recipient, seat)
    state.log.append(
        Entry("combat", f"The attack is not stopped: it succeeds, against {target}.", seat)
    )
    if state.adjudication != "apply":
        words = _suggested_damage(state, attack, seat, x.recipient)
        if state.adjudication == "suggest":
            state.suggestion = words
            state.log.append(Entry("suggest", "The rules suggest: " + words, seat))
        _after_attack(state)
        return
    rest = deal_stages(state, seat, x.recipient, attack.stages)
    life = attack.life + rest
    attacker = state.side(attack.seat)
    capturer = attack.by is not None and (
        state.cards[attack.by].personality in capture_allies_of(state.profile)
    )
    if life and capturer and state.side(seat).dragon_balls and x.recipient is None:
        _capture_chance(
            state,
            seat,
            life,
            f"{state.cards[attack.by or 0].title} may capture a Dragon Ball instead of "
            f"dealing {life} life card{'s' * (life != 1)} (seed 003, Capturing Dragon "
            "Balls 2).",
        )
        return
    dealt = deal_life(state, seat, life)
    if state.winner is not None:
        return
    if dealt >= 5 and state.side(seat).dragon_balls:
        _capture_chance(
            state,
            seat,
            0,
            f"{attacker.player} may capture one of {state.side(seat).player}'s Dragon "
            f"Balls: {dealt} life cards were discarded (seed 003, Capturing Dragon Balls 1).",
        )
        return
    _after_attack(state)


def _capture_chance(state: TableState, victim: int, held: int, words: str) -> None:
    """The attacker may capture one of ``victim``'s Dragon Balls now (in
    place of ``held`` life cards of damage, for a capturing Ally)."""
    combat = state.combat
    assert combat is not None and combat.attack is not None
    combat.phase = "capture"
    combat.acting = combat.attack.seat
    combat.capture_from = victim
    combat.held_life = held
    state.log.append(Entry("capture", words, combat.attack.seat))


def _suggested_damage(
    state: TableState, attack: PendingAttack, seat: int, recipient: int | None
) -> str:
    have = state.side(seat).stages if recipient is None else (state.cards[recipient].stages or 0)
    lost = min(attack.stages, have)
    life = attack.life + attack.stages - lost
    name = _name(state, recipient, seat)
    return (
        f"{name} loses {lost} stage{'s' * (lost != 1)} and {state.side(seat).player} "
        f"discards {life} life card{'s' * (life != 1)}"
        + ("; five or more may capture a Dragon Ball." if life >= 5 else ".")
    )


def check_capture(state: TableState, x: a.Capture, strict: bool) -> str | None:
    problem = _in_combat(state, x.seat, "capture", "a capture")
    if problem:
        return problem
    combat = state.combat
    assert combat is not None and combat.capture_from is not None
    if x.ball is not None and x.ball not in state.side(combat.capture_from).dragon_balls:
        return "that is not one of the defender's Dragon Balls in play"
    if x.ball is not None and x.powers and state.profile == "saiyan-2000" and strict:
        return "capturing a Dragon Ball does NOT allow you to use its powers (seed 002)"
    return None


def do_capture(state: TableState, x: a.Capture) -> None:
    combat = state.combat
    assert combat is not None and combat.capture_from is not None
    victim = combat.capture_from
    held = combat.held_life
    side = state.side(x.seat)
    if x.ball is None:
        state.log.append(Entry("capture", f"{side.player} captures no Dragon Ball.", x.seat))
        if held:
            deal_life(state, victim, held)
    else:
        ball = state.cards[x.ball]
        take(state, x.ball)
        put(state, x.ball, x.seat, "dragon-balls")
        ball.turned = True
        powers = (
            "and uses all of its powers (seed 003, Capturing Dragon Balls 3)"
            if x.powers
            else "and uses none of its powers"
        )
        state.log.append(Entry("capture", f"{side.player} captures {ball.title} {powers}.", x.seat))
        if seven_balls(state, x.seat):
            side.seven_captured_on = state.turn
            state.log.append(
                Entry(
                    "capture",
                    f"{side.player} controls seven Dragon Balls: if they still do at the start "
                    "of their next turn, they win (seed 003, Dragon Ball Victory 2).",
                    x.seat,
                )
            )
    combat.capture_from = None
    combat.held_life = 0
    if state.winner is None:
        _after_attack(state)


def _after_attack(state: TableState) -> None:
    """The attack is over: its card goes, and the defender attacks in turn."""
    combat = state.combat
    if combat is None:
        return
    attack = combat.attack
    combat.attack = None
    combat.phase = "attack"
    combat.passes = 0
    combat.acting = state.other(attack.seat) if attack is not None else combat.acting
    if state.adjudication == "apply":
        check_victories(state)


def check_pass(state: TableState, x: a.Pass, strict: bool) -> str | None:
    return _in_combat(state, x.seat, "attack", "passing")


def do_pass(state: TableState, x: a.Pass) -> None:
    combat = state.combat
    assert combat is not None
    combat.passes += 1
    state.log.append(Entry("pass", f"{state.side(x.seat).player} passes.", x.seat))
    if combat.passes >= 2:
        state.log.append(Entry("combat", "Both players passed back to back: Combat is over.", None))
        for side in state.sides:
            side.in_control = None
        state.combat = None
        _to_discard(state)
        return
    combat.acting = state.other(x.seat)


# --- the end of the turn ------------------------------------------------------------------


def _to_discard(state: TableState) -> None:
    """The end of the turn: every player discards down to one card, the
    player whose turn it is first (seed 003, Discarding 1)."""
    state.step = "discard"
    state.discarding = None
    for seat in (state.active, state.other(state.active)):
        if len(state.side(seat).hand) > 1:
            state.discarding = seat
            return
    _after_discard(state)


def _after_discard(state: TableState) -> None:
    side = state.side(state.active)
    if not side.attacked and side.discard:
        state.step = "pass-bonus"
    else:
        state.step = "end"


def check_discard_down(state: TableState, x: a.DiscardDown, strict: bool) -> str | None:
    if state.step != "discard" or state.discarding is None:
        return "not now: discarding down comes at the end of the turn"
    if state.discarding != x.seat:
        return f"{state.side(state.discarding).player} discards down now"
    if x.keep is not None and x.keep not in state.side(x.seat).hand:
        return "the card kept must be in your hand"
    return None


def do_discard_down(state: TableState, x: a.DiscardDown) -> None:
    side = state.side(x.seat)
    gone = [u for u in side.hand if u != x.keep]
    titles = [state.cards[u].title for u in gone]
    for uid in gone:
        discard_card(state, uid, adjudicated=state.adjudication != "off")
    state.log.append(
        Entry(
            "discard",
            f"{side.player} discards down to {len(side.hand)} card"
            f"{'s' * (len(side.hand) != 1)}: {', '.join(titles) or 'none'}.",
            x.seat,
        )
    )
    if x.seat == state.active and len(state.side(state.other(x.seat)).hand) > 1:
        state.discarding = state.other(x.seat)
        return
    state.discarding = None
    _after_discard(state)


def check_pass_bonus(state: TableState, x: a.PassBonus, strict: bool) -> str | None:
    return _step(state, x.seat, "pass-bonus", "the pass bonus")


def do_pass_bonus(state: TableState, x: a.PassBonus) -> None:
    side = state.side(x.seat)
    if x.take and side.discard:
        uid = side.discard[-1]
        take(state, uid)
        put(state, uid, x.seat, "life-deck", bottom=True)
        state.log.append(
            Entry(
                "pass-bonus",
                f"{side.player} passed the Combat step and puts {state.cards[uid].title} from "
                "the discard pile at the bottom of the Life Deck (seed 003, Discarding 2).",
                x.seat,
            )
        )
    else:
        state.log.append(Entry("pass-bonus", f"{side.player} takes no pass bonus.", x.seat))
    state.step = "end"


def check_end_turn(state: TableState, x: a.EndTurn, strict: bool) -> str | None:
    return _step(state, x.seat, "end", "ending the turn")


def do_end_turn(state: TableState, x: a.EndTurn) -> None:
    state.active = state.other(x.seat)
    state.turn += 1
    state.step = "draw"
    state.skip_combat = False
    state.suggestion = ""
    for side in state.sides:
        side.power_used = False
        side.attacked = False
        side.final_physical_attack_used = False
        side.in_control = None
    new = state.side(state.active)
    state.log.append(Entry("turn", f"Turn {state.turn}: {new.player}'s turn.", state.active))
    if new.seven_captured_on is not None:
        if seven_balls(state, state.active) and state.adjudication == "apply":
            win(
                state,
                state.active,
                "seven Dragon Balls still controlled at the start of the "
                "turn: the Dragon Ball Victory (seed 003).",
            )
        new.seven_captured_on = None
    start_of_turn(state)


CHECKS: dict[str, Check] = {
    "draw-three": check_draw_three,
    "play-card": check_play_card,
    "end-non-combat": check_end_non_combat,
    "power-up": check_power_up,
    "declare-combat": check_declare_combat,
    "skip-combat": check_skip_combat,
    "take-control": check_take_control,
    "attack": check_attack,
    "use-instead": check_use_instead,
    "final-physical-attack": check_final_physical_attack,
    "defend": check_defend,
    "allow-attack": check_allow_attack,
    "capture": check_capture,
    "pass": check_pass,
    "discard-down": check_discard_down,
    "pass-bonus": check_pass_bonus,
    "end-turn": check_end_turn,
}
"""Each turn kind's check."""

PERFORMS: dict[str, Perform] = {
    "draw-three": do_draw_three,
    "play-card": do_play_card,
    "end-non-combat": do_end_non_combat,
    "power-up": do_power_up,
    "declare-combat": do_declare_combat,
    "skip-combat": do_skip_combat,
    "take-control": do_take_control,
    "attack": do_attack,
    "use-instead": do_use_instead,
    "final-physical-attack": do_final_physical_attack,
    "defend": do_defend,
    "allow-attack": do_allow_attack,
    "capture": do_capture,
    "pass": do_pass,
    "discard-down": do_discard_down,
    "pass-bonus": do_pass_bonus,
    "end-turn": do_end_turn,
}
"""Each turn kind's performance (the check passed)."""
