"""The CCG table's rules in one place: who is asked, the legal offers with
their words, check and apply.

What is offered and what is accepted cannot drift: the offers are the
candidates this module makes that pass ``check``. An illegal action raises
``Refused`` and leaves the table as it was.
"""

from __future__ import annotations

from dbdeck.games.ccg.table import actions as a
from dbdeck.games.ccg.table import fusion, manual, turn
from dbdeck.games.ccg.table.attack_reading import read_attack_table
from dbdeck.games.ccg.table.damage import check_victories
from dbdeck.games.ccg.table.state import Check, Entry, Perform, TableState
from dbdeck.games.ccg.table.zones import ZONES, locate

__all__ = ["PHYSICAL_CHOICES", "Refused", "apply", "asked", "check", "offers"]

PHYSICAL_CHOICES = range(1, 7)
"""The stage damage offered for a physical attack by hand: without a
Physical Attack Table file (the sources do not give the table), or after
the table's reading for a card that changes it (rules notes, T1)."""

POWER_UP_CHOICES = range(0, 6)
"""The stages offered at Power Up when no pack gives the PUR."""


class Refused(Exception):
    """An action the table refuses; ``reason`` says why. Nothing changed."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


_CHECKS: dict[str, Check] = {
    **turn.CHECKS,
    **manual.CHECKS,
    **fusion.CHECKS,
}
_PERFORMS: dict[str, Perform] = {**turn.PERFORMS, **manual.PERFORMS, **fusion.PERFORMS}


def asked(state: TableState) -> int | None:
    """The seat that acts now, or ``None`` when the game is over."""
    if state.proposal is not None:
        return state.other(state.proposal[0])
    if state.winner is not None:
        return None
    if state.combat is not None and state.step == "combat":
        return state.combat.acting
    if state.step == "discard" and state.discarding is not None:
        return state.discarding
    return state.active


def check(state: TableState, action: a.Action, *, strict: bool | None = None) -> str | None:
    """Why ``action`` is refused now, or ``None``."""
    if state.winner is not None and state.proposal is None:
        return "the game is over"
    if action.seat not in (0, 1):
        return "seat 0 or 1 acts"
    who = asked(state)
    if who != action.seat:
        return f"it is {state.side(who).player}'s move" if who is not None else "nobody acts now"
    if state.proposal is not None and action.kind != "answer-overrule":
        return "first agree to the overrule, or refuse it"
    problem = manual.searching_elsewhere(state, action.seat, action.kind)
    if problem:
        return problem
    checker = _CHECKS.get(action.kind)
    if checker is None:
        return f"no action is called {action.kind!r}"
    rules_refuse = state.adjudication == "apply" if strict is None else strict
    return checker(state, action, rules_refuse)


def apply(state: TableState, action: a.Action) -> list[Entry]:
    """Perform a legal action; return the log entries it made."""
    problem = check(state, action)
    if problem is not None:
        raise Refused(problem)
    start = len(state.log)
    if state.adjudication == "suggest":
        note = check(state, action, strict=True)
        if note is not None:
            state.log.append(Entry("suggest", f"The rules say: {note}.", action.seat))
    state.suggestion = "" if state.adjudication != "suggest" else state.suggestion
    if action.kind not in ("overrule", "answer-overrule"):
        state.previous = state.before_action()
        state.last_auto = ""
    _PERFORMS[action.kind](state, action)
    if action.kind not in ("overrule", "answer-overrule"):
        words = [e.text for e in state.log[start:] if e.kind != "suggest"]
        state.last_auto = " ".join(words)[:300]
    if state.adjudication == "apply":
        check_victories(state)
    state.version += 1
    return state.log[start:]


# --- offers ---------------------------------------------------------------------------------


def offers(state: TableState, seat: int) -> list[tuple[a.Action, str, str]]:
    """The legal actions of ``seat`` now, each with its words and family."""
    if asked(state) != seat:
        return []
    made: list[tuple[a.Action, str, str]] = []
    for action, label, group in _candidates(state, seat):
        if check(state, action) is None:
            made.append((action, label, group))
    return made


def _title(state: TableState, uid: int | None, seat: int) -> str:
    if uid is None:
        return state.mp_name(seat)
    return state.cards[uid].title


def _candidates(state: TableState, seat: int) -> list[tuple[a.Action, str, str]]:
    side = state.side(seat)
    if state.proposal is not None:
        asker, why = state.proposal
        about = f" ({why})" if why else ""
        name = state.side(asker).player
        return [
            (
                a.AnswerOverrule(seat=seat, agree=True),
                f"Agree with {name}: take back the last action{about}",
                "turn",
            ),
            (a.AnswerOverrule(seat=seat, agree=False), f"Refuse {name}'s overrule", "turn"),
        ]
    if side.searching:
        return _search_candidates(state, seat)
    out: list[tuple[a.Action, str, str]] = []
    step = state.step
    if step == "draw":
        out.append((a.DrawThree(seat=seat), "Draw three cards (the Draw step)", "turn"))
    elif step == "non-combat":
        for uid in side.hand:
            card = state.cards[uid]
            out.append((a.PlayCard(seat=seat, card=uid), f"Place {card.title} in play", "turn"))
            if card.type == "personality":
                for under in side.allies:
                    if state.cards[under].personality == card.personality:
                        out.append(
                            (
                                a.PlayCard(seat=seat, card=uid, over=under),
                                f"Place {card.title} over {state.cards[under].title}",
                                "turn",
                            )
                        )
        out.append((a.EndNonCombat(seat=seat), "End the Non-Combat step: Power Up", "turn"))
    elif step == "power-up":
        out.extend(_power_up_candidates(state, seat))
    elif step == "combat?":
        out.append((a.DeclareCombat(seat=seat), "Declare Combat (the defender draws 3)", "turn"))
        out.append((a.SkipCombat(seat=seat), "Skip Combat this turn", "turn"))
    elif step == "combat" and state.combat is not None:
        out.extend(_combat_candidates(state, seat))
    elif step == "discard":
        out.append((a.DiscardDown(seat=seat), "Discard your whole hand", "turn"))
        for uid in side.hand:
            out.append(
                (
                    a.DiscardDown(seat=seat, keep=uid),
                    f"Keep {state.cards[uid].title}, discard the rest",
                    "turn",
                )
            )
    elif step == "pass-bonus":
        top = state.cards[side.discard[-1]].title if side.discard else ""
        out.append(
            (
                a.PassBonus(seat=seat, take=True),
                f"Pass bonus: put {top} at the bottom of your Life Deck",
                "turn",
            )
        )
        out.append((a.PassBonus(seat=seat, take=False), "No pass bonus", "turn"))
    elif step == "end":
        out.append((a.EndTurn(seat=seat), "End your turn", "turn"))
    out.extend(_manual_candidates(state, seat))
    return out


def _power_up_candidates(state: TableState, seat: int) -> list[tuple[a.Action, str, str]]:
    side = state.side(seat)
    out: list[tuple[a.Action, str, str]] = []
    for personality in (None, *side.allies):
        name = _title(state, personality, seat)
        given = turn.power_up_stages(state, seat, personality)
        choices = (given,) if given is not None else tuple(POWER_UP_CHOICES)[1:]
        for stages in choices:
            why = (
                " (its PUR"
                + (", +1 Tokui-Waza)" if personality is None and side.tokui_waza else ")")
                if given is not None
                else ""
            )
            out.append(
                (
                    a.PowerUp(seat=seat, personality=personality, stages=stages),
                    f"Power up {name} {stages} stage{'s' * (stages != 1)}{why}",
                    "turn",
                )
            )
    out.append((a.PowerUp(seat=seat, stages=0), "Do not power up", "turn"))
    return out


def _stages(n: int) -> str:
    return f"{n} stage{'s' * (n != 1)}"


def _combat_candidates(state: TableState, seat: int) -> list[tuple[a.Action, str, str]]:
    combat = state.combat
    assert combat is not None
    side = state.side(seat)
    out: list[tuple[a.Action, str, str]] = []
    if combat.phase == "attack":
        # Rules notes, T1: the table's reading first, then the stages by hand.
        reading = read_attack_table(state, seat)
        by_hand = ", by hand" if reading is not None else ""
        sources: list[int | None] = [*side.hand, *side.non_combat, *side.drills, None]
        for uid in sources:
            card = None if uid is None else state.cards[uid]
            kind = card.type if card is not None else ""
            with_ = f"with {card.title}" if card is not None else "with a personality power"
            if kind in ("physical-combat", "", "non-combat", "drill"):
                if reading is not None:
                    out.append(
                        (
                            a.Attack(seat=seat, source=uid, attack="physical"),
                            f"Physical attack {with_}: {_stages(reading.stages)} ({reading.words})",
                            "combat",
                        )
                    )
                for stages in PHYSICAL_CHOICES:
                    out.append(
                        (
                            a.Attack(seat=seat, source=uid, attack="physical", stages=stages),
                            f"Physical attack {with_}: {_stages(stages)}{by_hand}",
                            "combat",
                        )
                    )
            if kind in ("energy-combat", "", "non-combat", "drill"):
                out.append(
                    (
                        a.Attack(seat=seat, source=uid, attack="energy"),
                        f"Energy attack {with_}: costs {turn.ENERGY_COST} stages, "
                        f"{turn.ENERGY_LIFE} life cards",
                        "combat",
                    )
                )
            if uid is not None:
                out.append(
                    (
                        a.UseInstead(seat=seat, source=uid),
                        f"Use {card.title if card else ''} in place of an attack",
                        "combat",
                    )
                )
        out.append(
            (a.UseInstead(seat=seat), "Use a personality power in place of an attack", "combat")
        )
        for uid in side.hand:
            title = state.cards[uid].title
            if reading is not None:
                out.append(
                    (
                        a.FinalPhysicalAttack(seat=seat, discard=uid),
                        f"Final Physical Attack, discarding {title}: "
                        f"{_stages(reading.stages)} ({reading.words})",
                        "combat",
                    )
                )
            for stages in PHYSICAL_CHOICES:
                out.append(
                    (
                        a.FinalPhysicalAttack(seat=seat, discard=uid, stages=stages),
                        f"Final Physical Attack, discarding {title}: {_stages(stages)}{by_hand}",
                        "combat",
                    )
                )
        out.append((a.Pass(seat=seat), f"Pass ({combat.passes} of 2 back to back)", "combat"))
    elif combat.phase == "defend":
        sources = [*side.hand, *side.non_combat, *side.drills, None]
        for uid in sources:
            with_ = state.cards[uid].title if uid is not None else "a personality power"
            for stops in ("physical", "energy", "both", "damage"):
                words = {
                    "physical": "stopping the physical attack",
                    "energy": "stopping the energy attack",
                    "both": "stopping the attack (it stops both kinds)",
                    "damage": "preventing the damage",
                }[stops]
                out.append(
                    (
                        a.Defend(seat=seat, source=uid, stops=stops),
                        f"Defend with {with_}, {words}",
                        "combat",
                    )
                )
        out.append(
            (a.AllowAttack(seat=seat), f"Take the attack on {state.mp_name(seat)}", "combat")
        )
        for uid in side.allies:
            out.append(
                (
                    a.AllowAttack(seat=seat, recipient=uid),
                    f"Take the attack on {state.cards[uid].title}",
                    "combat",
                )
            )
    elif combat.phase == "capture" and combat.capture_from is not None:
        for uid in state.side(combat.capture_from).dragon_balls:
            title = state.cards[uid].title
            out.append(
                (
                    a.Capture(seat=seat, ball=uid, powers=True),
                    f"Capture {title} and use all of its powers",
                    "combat",
                )
            )
            out.append((a.Capture(seat=seat, ball=uid), f"Capture {title}, no powers", "combat"))
        out.append((a.Capture(seat=seat), "Capture nothing", "combat"))
    for uid in (None, *side.allies):
        out.append(
            (
                a.TakeControl(seat=seat, personality=uid),
                f"Give control of Combat to {_title(state, uid, seat)}",
                "combat",
            )
        )
    return out


def _manual_candidates(state: TableState, seat: int) -> list[tuple[a.Action, str, str]]:
    side = state.side(seat)
    out: list[tuple[a.Action, str, str]] = []
    out.append((a.DrawCards(seat=seat, count=1), "Draw 1 card by hand", "manual"))
    out.append((a.DrawCards(seat=seat, count=3), "Draw 3 cards by hand", "manual"))
    out.append((a.StartSearch(seat=seat), "Search your Life Deck (privately)", "manual"))
    out.append((a.Shuffle(seat=seat), "Shuffle your Life Deck", "manual"))
    out.append((a.Shuffle(seat=seat, pile="discard"), "Shuffle your discard pile", "manual"))
    out.append((a.Cut(seat=seat), f"Cut {state.side(1 - seat).player}'s Life Deck", "manual"))
    for counter, words in (("stages", "stages"), ("anger", "anger"), ("level", "level")):
        for delta in (1, -1):
            out.append(
                (
                    a.Counter(seat=seat, counter=counter, delta=delta),  # type: ignore[arg-type]
                    f"{state.mp_name(seat)}'s {words} {delta:+d}",
                    "counter",
                )
            )
    for uid in side.allies:
        for delta in (1, -1):
            out.append(
                (
                    a.Counter(seat=seat, counter="ally-stages", delta=delta, card=uid),
                    f"{state.cards[uid].title}'s stages {delta:+d}",
                    "counter",
                )
            )
    for name in side.counters:
        for delta in (1, -1):
            out.append(
                (
                    a.Counter(seat=seat, counter="custom", delta=delta, name=name),
                    f"{name} {delta:+d}",
                    "counter",
                )
            )
    out.extend(_fusion_candidates(state, seat))
    for uid in _movable(state, seat):
        out.extend(_card_candidates(state, seat, uid))
    if side.hand:
        out.append(
            (a.Reveal(seat=seat, cards=tuple(side.hand)), "Reveal your whole hand", "manual")
        )
    out.append((a.Overrule(seat=seat), "Overrule: ask to take back the last action", "manual"))
    return out


def _fusion_candidates(state: TableState, seat: int) -> list[tuple[a.Action, str, str]]:
    """Fuse two of the seat's personalities with a personality card of its
    Sensei Deck; or, while fused, the timer by hand and Defuse."""
    side = state.side(seat)
    out: list[tuple[a.Action, str, str]] = []
    if side.fusion is not None:
        title = state.cards[side.fusion].title
        out.append(
            (
                a.FusionTimer(seat=seat),
                f"Put the top Life Deck card beneath the anger counter: {title}'s timer, "
                f"{len(side.timer) + 1} of {fusion.TIMER_DEFUSES}",
                "manual",
            )
        )
        out.append(
            (
                a.Defuse(seat=seat),
                f"Defuse {title}: it leaves the game, its components return",
                "manual",
            )
        )
        return out
    pairs: list[tuple[int, int | None]] = [(ally, None) for ally in side.allies]
    pairs += [
        (first, second) for n, first in enumerate(side.allies) for second in side.allies[n + 1 :]
    ]
    for uid in side.sensei_deck:
        card = state.cards[uid]
        if card.type not in ("personality", ""):
            continue
        for ally, partner in pairs:
            names = (
                (state.cards[side.main].title, state.cards[ally].title)
                if partner is None
                else (state.cards[ally].title, state.cards[partner].title)
            )
            into = "the Main Personality" if partner is None else "one Ally"
            out.append(
                (
                    a.Fuse(seat=seat, fusion=uid, ally=ally, partner=partner),
                    f"Fuse {names[0]} and {names[1]} into {card.title} ({into})",
                    "manual",
                )
            )
    return out


def _movable(state: TableState, seat: int) -> list[int]:
    side = state.side(seat)
    uids = [
        *side.hand,
        *side.non_combat,
        *side.drills,
        *side.allies,
        *side.dragon_balls,
        *side.set_aside,
        *side.discard,
        *side.removed,
        *side.sensei_deck,
    ]
    if state.location is not None and state.cards[state.location].owner == seat:
        uids.append(state.location)
    return uids


def _card_candidates(state: TableState, seat: int, uid: int) -> list[tuple[a.Action, str, str]]:
    card = state.cards[uid]
    where = locate(state, uid)
    zone = where[1] if where else ""
    out: list[tuple[a.Action, str, str]] = []
    for to in ZONES:
        if to == zone:
            continue
        out.append(
            (
                a.MoveCard(seat=seat, card=uid, to=to),  # type: ignore[arg-type]
                f"Move {card.title} to {manual.zone_words(to)}",
                "card",
            )
        )
        if to in ("life-deck", "discard"):
            out.append(
                (
                    a.MoveCard(seat=seat, card=uid, to=to, bottom=True),  # type: ignore[arg-type]
                    f"Move {card.title} to the bottom of {manual.zone_words(to)}",
                    "card",
                )
            )
    if zone in manual.IN_PLAY or zone == "set-aside":
        out.append((a.Flip(seat=seat, card=uid), f"Flip {card.title}", "card"))
        out.append(
            (
                a.MarkUsed(seat=seat, card=uid),
                f"Mark {card.title} {'not ' if card.used else ''}used",
                "card",
            )
        )
        out.append(
            (
                a.TurnCard(seat=seat, card=uid),
                f"Turn {card.title} {'back' if card.turned else 'sideways'}",
                "card",
            )
        )
    if zone == "hand":
        out.append((a.Reveal(seat=seat, cards=(uid,)), f"Reveal {card.title}", "card"))
        main = state.side(seat).main
        out.append(
            (
                a.Attach(seat=seat, card=uid, to=main, face_down=True),
                f"Store {card.title} face down beneath your Main Personality",
                "card",
            )
        )
    return out


def _search_candidates(state: TableState, seat: int) -> list[tuple[a.Action, str, str]]:
    side = state.side(seat)
    out: list[tuple[a.Action, str, str]] = []
    for uid in side.life_deck:
        title = state.cards[uid].title
        out.append(
            (a.SearchTake(seat=seat, cards=(uid,)), f"Take {title} into your hand", "search")
        )
        out.append(
            (
                a.SearchTake(seat=seat, cards=(uid,), to="set-aside"),
                f"Set {title} aside, shown",
                "search",
            )
        )
    out.append((a.FinishSearch(seat=seat), "Finish the search and shuffle", "search"))
    return out
