"""Androids 17 and 18: three turn-order cards, split cards by active Android,
Despair, attacks on the Ally Market, Android 18's Wishes, Android 16 and the
"A Different Future" scenario."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dbdeck.games.deckbuilding.cards.plain import Ally, Reference, SplitCard
from dbdeck.games.deckbuilding.engine import combat, zones
from dbdeck.games.deckbuilding.engine.attacks import discard_attack
from dbdeck.games.deckbuilding.engine.combat import Damage
from dbdeck.games.deckbuilding.engine.context import EffectContext
from dbdeck.games.deckbuilding.engine.events import Name, Names
from dbdeck.games.deckbuilding.engine.holders import (
    VILLAIN,
    CharacterRef,
    EnemyRef,
    Holder,
    MarketAllyRef,
    MinionRef,
)
from dbdeck.games.deckbuilding.engine.state import Bonus, Option, Prepared
from dbdeck.games.deckbuilding.engine.tasks import (
    HOLDER,
    Asking,
    VillainTask,
    optional,
    read_choice,
    villain_task,
)
from dbdeck.games.deckbuilding.engine.villains.base import VillainRules

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.reach import Reach

__all__ = ["Androids1718Rules", "active_androids"]

ANDROID_17 = "androids-17-18-android-17"
ANDROID_18 = "androids-17-18-android-18"
ANDROIDS = (ANDROID_17, ANDROID_18)
ANDROID_16 = "androids-17-18-android-16"
DIFFERENT_FUTURE = "androids-17-18-a-different-future"

ACTIVATES = {"V1": (ANDROID_17,), "V2": (ANDROID_18,), "V3": ANDROIDS}
"""Who each of the Androids' three turn-order cards activates: A17, A18, or
both (the combined card)."""

FALLEN_Z_FIGHTERS = frozenset(
    {
        "goku-ally",
        "vegeta-ally",
        "piccolo-ally",
        "krillin-ally",
        "yamcha-ally",
        "tien-ally",
        "chiaotzu-ally",
        "tien-and-chiaotzu-ally",
    }
)
"""A Different Future: the Allies of the Z Fighters the Androids have killed,
out of the Ally Market."""
DIFFERENT_FUTURE_ALLIES = 15
"""A Different Future: the Ally Market deck's size at every difficulty."""
ONE_ARMED = "gohan-ss2"
"""A Different Future: Gohan lost an arm (maximum hand size 4)."""

RUINED_CITY_ALLIES = 5
"""Allies Ruined City removes against the Androids (instead of 10)."""
WISH_REPAIR_AT = 10
"""Android 18's second wish: repair when an Android has this much damage."""
WISH_DESPAIR = 2
"""Android 18's third wish: the DES tokens it places ..."""
WISH_DESPAIR_BELOW = 3
"""... when Despair holds fewer than this."""
WISH_ELIMINATES = 2
"""Android 18's last wish: the Allies of the market it eliminates."""


def active_androids(g: Reach) -> list[str]:
    """The Androids who act this turn: the one the turn-order card names (both
    for the combined card); a defeated Android's card activates the survivor
    (rules note A3)."""
    s = g.state
    standing = [e for e in ANDROIDS if e not in s.villain.defeated_enemies]
    named = [e for e in ACTIVATES.get(s.revealed, ANDROIDS) if e in standing]
    return named or standing


def _cost_extremes(g: Reach, uids: list[int], *, highest: bool) -> list[int]:
    """The Allies with the highest (or lowest) cost, and every "-" card, which
    the players may count as either (rules note N2)."""
    costs = {u: g.card_as(u, Ally).cost for u in uids}
    numbers = [int(c) for c in costs.values() if c is not None and c != "-"]
    best = (max if highest else min)(numbers, default=None)
    return [u for u in uids if costs[u] == "-" or costs[u] == best]


class Androids1718Rules(VillainRules):
    """Androids 17 and 18's own rules (rulebook, the Villain's section)."""

    # --- setup ------------------------------------------------------------------------

    def setup(self, g: Reach) -> None:
        """The shuffled deck; in A Different Future, Gohan's hand of 4 and the
        scenario card's own effects (its DES tokens)."""
        super().setup(g)
        if g.state.variant != DIFFERENT_FUTURE:
            return
        for ch in g.state.characters:
            if ch.id == ONE_ARMED:
                ch.bonuses.append(Bonus("hand-size", -1, "permanent"))
                ch.deck.append(ch.hand.pop())  # his fifth card goes back on top
                g.state.known[ch.deck[-1]] = ch.id  # seen by his player (rules note N51)
        g.log("setup", f"{DIFFERENT_FUTURE}: the Androids have ruined the future.")
        g.push_ops(DIFFERENT_FUTURE, "effects", EffectContext(VILLAIN))

    def ally_market(self, g: Reach, allies: list[str]) -> list[str]:
        """25, 20 or 15 Allies by difficulty (the board); A Different Future
        leaves out the fallen Z Fighters and always keeps 15."""
        if g.state.variant == DIFFERENT_FUTURE:
            return [a for a in allies if a not in FALLEN_Z_FIGHTERS][:DIFFERENT_FUTURE_ALLIES]
        return super().ally_market(g, allies)

    def ruined_city_count(self, g: Reach, count: int) -> int:
        """Ruined City removes only the first 5 Allies against the Androids."""
        return min(count, RUINED_CITY_ALLIES)

    # --- turns -------------------------------------------------------------------------

    def turn_card_name(self, g: Reach, card: str) -> str:
        """A17, A18, or both Androids' card."""
        return " and ".join(g.name(EnemyRef(e)) for e in ACTIVATES.get(card, ANDROIDS))

    def villain_card(self, g: Reach, card: str) -> None:
        """Say which Android the turn-order card activates."""
        active = active_androids(g)
        g.log(
            "activate",
            "{} {}.",
            Names((EnemyRef(e) for e in active), " and "),
            "activate" if len(active) > 1 else "activates",
            card=card,
        )
        self._forget_market_damage(g)

    def play_split(self, g: Reach, uid: int, card: SplitCard) -> None:
        """Only the active Android's half is used, or both halves (Android 17's
        first) when the combined card activated both."""
        active = active_androids(g)
        halves = [
            (i, h) for i, h in enumerate(card.halves) if h.enemy in active and h.attack is not None
        ]
        if not halves:
            g.state.villain.discard.append(uid)
            return
        for _, half in halves:
            g.log("half", "{} uses {}.", EnemyRef(half.enemy), half.name, card=card.id)
        # Physical halves are queued and the last queued resolves first.
        for i, half in reversed(halves):
            assert half.attack is not None
            self.play_attack(g, uid, half.attack, half.enemy, i)

    def advance_time_track(self, g: Reach) -> list[Prepared]:
        """Only the active Androids' attacks are used at Time 1 and move left:
        the other Android's wait (rules note A4)."""
        v = g.state.villain
        active = set(active_androids(g))

        def moving(p: Prepared) -> bool:
            return not p.owner or p.owner in active

        track = v.time_track
        fired = [p for p in track[0] if moving(p)]
        new: list[list[Prepared]] = [[p for p in slot if not moving(p)] for slot in track]
        for slot in range(1, 4):
            new[slot - 1] += [p for p in track[slot] if moving(p)]
        v.time_track = new
        order = {e: n for n, e in enumerate(ANDROIDS)}
        fired.sort(key=lambda p: order.get(p.owner, -1))
        return fired

    # --- the Ally Market ---------------------------------------------------------------

    def special_targets(self, g: Reach, name: str) -> list[Holder]:
        """Ally Market targets: any face-up Ally for "the players' choice", else
        the costliest (or cheapest) ones with every "-" card (rules note N2)."""
        row = g.state.markets["allies"].row
        if name == "ally-market-chosen":
            return [MarketAllyRef(u) for u in row]
        if name in ("ally-market-highest-cost", "ally-market-lowest-cost"):
            best = _cost_extremes(g, list(row), highest=name.endswith("highest-cost"))
            return [MarketAllyRef(u) for u in best]
        return super().special_targets(g, name)

    def eliminate_market_ally(
        self, g: Reach, key: MarketAllyRef, avoidable: bool, source: Holder | None
    ) -> None:
        """An Avoidable attack lets a Character step in (rules note A6); an
        Unavoidable one, or nobody stepping in, eliminates the Ally."""
        uid = key.uid
        if uid not in g.state.markets["allies"].row:
            return
        if avoidable and source is not None and any(c.in_play() for c in g.state.characters):
            g.push(StepIn(key, source))
            return
        self._eliminate(g, uid)

    def _eliminate(self, g: Reach, uid: int) -> None:
        """An Ally of the market is eliminated: to the box, among the eliminated
        Allies (rules note A7), and the market refills."""
        s = g.state
        s.markets["allies"].row.remove(uid)
        s.markets["allies"].damage.pop(uid, None)
        s.box.append(uid)
        s.eliminated.append(uid)
        g.log(
            "eliminate",
            "{} is eliminated from the Ally Market.",
            Name(uid),
            target=MarketAllyRef(uid),
        )
        zones.restock(g, "allies")

    def _step_in(self, g: Reach, task: StepIn) -> None:
        """The players decide whether a Character takes an Avoidable attack on
        the Ally Market: the damage that eliminates the Ally, from its Health
        and Armor, whatever damage it already has."""
        key = task.key
        if not combat.alive(g, key):
            return
        amount = combat.eliminate_damage(g, key)
        if task.choice is None:
            options = [Option(f"No one steps in: {g.name(key)} is eliminated", "")]
            options += [
                Option(
                    f"{g.target_label(CharacterRef(c.id))} steps in and takes {amount} damage",
                    CharacterRef(c.id),
                    damage=amount,
                )
                for c in g.state.characters
                if c.in_play()
            ]
            g.ask(
                task,
                "step-in",
                "players",
                f"{g.name(task.source)} attacks {g.name(key)} (Avoidable): does a Character "
                f"step in and take {amount} damage?",
                options,
            )
            return
        choice = task.choice
        if isinstance(choice, CharacterRef) and combat.alive(g, choice):
            g.log("step-in", "{} steps in front of {}.", choice, key, target=choice)
            g.push(Damage(task.source, choice, amount, block=False))
            return
        self._eliminate(g, key.uid)

    def _forget_market_damage(self, g: Reach) -> None:
        """Damage stays on an Ally only while it is in the market (rules note A5)."""
        allies = g.state.markets["allies"]
        for uid in [u for u in allies.damage if u not in allies.row]:
            del allies.damage[uid]

    # --- attacks on the Androids ---------------------------------------------------------

    def on_attacked(
        self, g: Reach, source: Holder, target: Holder, amount: int, dealt: int, technique: bool
    ) -> None:
        """Extreme Mode: Android 16 deals 1 UNAVOIDABLE damage to whoever damages
        Android 17 or 18 with a Technique."""
        if not (technique and dealt > 0 and isinstance(target, EnemyRef) and target.id in ANDROIDS):
            return
        s = g.state
        guard = next((u for u in s.villain.minions if s.card_ids[u.uid] == ANDROID_16), None)
        if guard is None or not combat.alive(g, source):
            return
        g.log("android-16", "{} strikes back at {}.", Name(guard.uid), source)
        g.push(Damage(MinionRef(guard.uid), source, 1, "unavoidable", is_attack=False))

    def on_enemy_defeated(self, g: Reach, enemy: str) -> None:
        """A defeated Android's prepared attacks are discarded (rules note A3);
        both down, the Characters win."""
        v = g.state.villain
        gone = [p for slot in v.time_track for p in slot if p.owner == enemy]
        v.time_track = [[p for p in slot if p.owner != enemy] for slot in v.time_track]
        for prepared in gone:
            discard_attack(g, prepared.uid)
        super().on_enemy_defeated(g, enemy)

    # --- Android 18's Wishes --------------------------------------------------------------

    def check_victory(self, g: Reach) -> None:
        """Android 18 holding all seven Dragon Balls makes a wish (rules note A8)."""
        s = g.state
        if (
            s.balls.count(VILLAIN) == 7
            and ANDROID_18 not in s.villain.defeated_enemies
            and not any(isinstance(t, Android18Wishes) for t in s.stack)
        ):
            g.push(Android18Wishes())

    def _wish(self, g: Reach) -> None:
        """The first wish of "Android 18's Wishes" that can be granted; then the
        seven Dragon Balls become unclaimed."""
        s = g.state
        v = s.villain
        if s.balls.count(VILLAIN) != 7 or ANDROID_18 in v.defeated_enemies:
            return
        wishes = g.card_as("androids-17-18-android-18-wishes", Reference).wishes
        standing = [e for e in ANDROIDS if e not in v.defeated_enemies]
        if ANDROID_17 in v.defeated_enemies:
            wish = 0
            v.defeated_enemies.remove(ANDROID_17)
            v.enemy_damage[ANDROID_17] = 0
        elif any(v.enemy_damage.get(e, 0) >= WISH_REPAIR_AT for e in standing):
            wish = 1
            for enemy in standing:
                v.enemy_damage[enemy] = 0
        elif v.tokens.get("despair", 0) < WISH_DESPAIR_BELOW:
            wish = 2
            self.tokens(g, VILLAIN, "despair", WISH_DESPAIR, EffectContext(VILLAIN))
        else:
            wish = 3
            row = list(s.markets["allies"].row)
            g.push(WishEliminates(row, WISH_ELIMINATES))
        g.log(
            "wish",
            f"{g.name(EnemyRef(ANDROID_18))} holds the seven Dragon Balls and wishes: "
            f"{wishes[wish]}",
            wish=wish,
        )
        s.balls = [None] * 7
        g.log("wish", "The seven Dragon Balls scatter (unclaimed).")

    def _wish_eliminate(self, g: Reach, task: WishEliminates) -> None:
        """One of the costliest Allies of the row the wish saw is eliminated;
        the players choose among ties and "-" cards (rules note N2)."""
        row = g.state.markets["allies"].row
        pool = [u for u in task.row if u in row]
        if task.left <= 0 or not pool:
            return
        best = _cost_extremes(g, pool, highest=True)
        if len(best) > 1 and task.choice is None:
            g.ask(
                task,
                "target",
                "players",
                "Android 18's wish: which Ally of the market is eliminated?",
                [Option(g.target_label(MarketAllyRef(u)), MarketAllyRef(u)) for u in best],
            )
            return
        choice = MarketAllyRef(best[0]) if task.choice is None else task.choice
        task.choice = None
        if task.left > 1:
            g.push(WishEliminates(task.row, task.left - 1))
        assert isinstance(choice, MarketAllyRef)  # the question's options
        self._eliminate(g, choice.uid)


# --- the Androids' tasks --------------------------------------------------------------------


def _rules(g: Reach) -> Androids1718Rules:
    rules = g.hooks
    assert isinstance(rules, Androids1718Rules)
    return rules


@villain_task("do", "step-in")
@dataclass(slots=True)
class StepIn(VillainTask, Asking):
    """An Avoidable attack on an Ally of the market: does a Character step in?"""

    key: MarketAllyRef = field(metadata=HOLDER)
    """The Ally of the market attacked."""
    source: Holder = field(metadata=HOLDER)
    """Who attacks."""
    choice: Any = optional(None)
    """The Character stepping in, or ``""`` for no one."""
    read_answer = staticmethod(read_choice)

    def run(self, g: Reach) -> None:
        """Ask, then deal the damage to the Character or eliminate the Ally."""
        _rules(g)._step_in(g, self)


@villain_task("do", "wish")
@dataclass(slots=True)
class Android18Wishes(VillainTask):
    """Android 18 holds the seven Dragon Balls: her wish (rules note A8)."""

    def run(self, g: Reach) -> None:
        """Grant the first wish that can be granted."""
        _rules(g)._wish(g)


@villain_task("do", "wish-eliminate")
@dataclass(slots=True)
class WishEliminates(VillainTask, Asking):
    """Android 18's wish eliminates the costliest Allies of the market."""

    row: list[int]
    """The Ally Market's row as the wish saw it."""
    left: int
    """How many Allies are still to be eliminated."""
    choice: Any = optional(None)
    """The Ally chosen among ties."""
    read_answer = staticmethod(read_choice)

    def run(self, g: Reach) -> None:
        """Eliminate one of them, asking among ties."""
        _rules(g)._wish_eliminate(g, self)
