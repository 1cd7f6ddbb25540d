"""Reading the Physical Attack Table for a physical attack.

"You're attacking with a power stage of 1000 and I'm defending with 1500.
That's a 1" (seed 002, Example of Play); "compare the Main
Personality/Ally's power stages on the Physical Attack Table" (seed 003,
Physical Attacks 2). The table reads the power rating of the attacker's
personality in control of Combat (its current stage on its pack's ladder)
against the defender's, on the user's table (rules notes, T1). Without a
table, or without both ladders, nothing is read: the player says the
stage damage, as before.
"""

from __future__ import annotations

from dataclasses import dataclass

from dbdeck.games.ccg.table.state import TableState

__all__ = ["TableReading", "no_reading_why", "power_of", "read_attack_table"]


@dataclass(frozen=True, slots=True)
class TableReading:
    """What the Physical Attack Table gives one attack."""

    attacker: int
    """The attacker's power rating."""
    defender: int
    """The defender's power rating."""
    stages: int
    """The stages of damage the table gives."""

    @property
    def words(self) -> str:
        """``1,000 against 1,500: 1 stage on the Physical Attack Table``."""
        return (
            f"{self.attacker:,} against {self.defender:,}: {self.stages} "
            f"stage{'s' * (self.stages != 1)} on the Physical Attack Table"
        )


def _in_control(state: TableState, seat: int) -> tuple[str, tuple[int, ...], int]:
    """The personality in control of ``seat``'s Combat: its name, its
    ladder and its stages above 0."""
    side = state.side(seat)
    if side.in_control is None:
        card = state.cards[side.main]
        return side.main_name, card.ladder, side.stages
    ally = state.cards[side.in_control]
    return ally.title, ally.ladder, ally.stages or 0


def power_of(state: TableState, seat: int, paying: int = 0) -> int | None:
    """The power rating of ``seat``'s personality in control (``paying``
    stages lower), when its pack gives the ladder."""
    _, ladder, stages = _in_control(state, seat)
    stages = max(0, stages - paying)
    return ladder[stages] if 0 <= stages < len(ladder) else None


def read_attack_table(state: TableState, seat: int, paying: int = 0) -> TableReading | None:
    """The Physical Attack Table's damage for a physical attack by ``seat``
    now, once it has paid ``paying`` stages of cost (seed 003, Combat Timing
    Sequence: costs are paid in phase 2, the Base Damage read in phase 8);
    ``None`` when it cannot be read (``no_reading_why`` says why)."""
    table = state.attack_table
    if table is None:
        return None
    attacker = power_of(state, seat, paying)
    defender = power_of(state, state.other(seat))
    if attacker is None or defender is None:
        return None
    stages = table.stages(attacker, defender)
    if stages is None:
        return None
    return TableReading(attacker, defender, stages)


def no_reading_why(state: TableState, seat: int, paying: int = 0) -> str:
    """Why the Physical Attack Table gives ``seat``'s attack no damage now,
    in words (``""`` when it does)."""
    table = state.attack_table
    if table is None:
        return "the table has no Physical Attack Table file"
    for who, attacking in ((seat, True), (state.other(seat), False)):
        name, _, _ = _in_control(state, who)
        power = power_of(state, who, paying if attacking else 0)
        if power is None:
            return f"no pack gives {name}'s power ladder"
        if not table.covers(power, attacker=attacking):
            top = table.highest(attacker=attacking) or 0
            side = "attacker" if attacking else "defender"
            return (
                f"{name}'s {power:,} is off the Physical Attack Table (its {side} bands "
                f"stop at {top:,})"
            )
    return ""
