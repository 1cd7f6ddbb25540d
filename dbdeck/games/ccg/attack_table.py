"""The Physical Attack Table a user supplies: bands of the attacker's power
against bands of the defender's power, giving the stages of damage.

No source prints the table (rules notes, T1): a user types theirs into a
``physical-attack-table.ccg.json`` file (``models.PhysicalAttackTableFile``
reads it at the edge). This module is plain Python: the table's record,
the rules of its shape (shared by the file's reader and a saved table's),
and the lookup the table's rules make on the hot path.

A band is given by its upper bound, the highest power it holds: the first
band holds the powers from 0 up to and including its bound, each next band
the powers above the previous bound up to its own. ``None`` as the last
bound makes the last band open: it holds every higher power. A power above
every bound is off the table (no damage is read; the players say it).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "MAX_BANDS",
    "MAX_POWER",
    "MAX_STAGE_DAMAGE",
    "TABLE_FILE",
    "PhysicalAttackTable",
    "table_from_json",
    "table_problems",
]

TABLE_FILE = "physical-attack-table.ccg.json"
"""The name of a pack folder's Physical Attack Table file."""

MAX_BANDS = 60
"""The most bands of power on either side of the table."""

MAX_POWER = 10**15
"""The highest power rating a bound may name."""

MAX_STAGE_DAMAGE = 30
"""The most stages of damage one entry may give (as an attack's stage
damage: rules notes, T1)."""


Bounds = tuple[int | None, ...]


@dataclass(frozen=True, slots=True)
class PhysicalAttackTable:
    """A Physical Attack Table: ``damage[a][d]`` is the stages of damage an
    attacker of band ``a`` deals a defender of band ``d``."""

    attacker_up_to: Bounds
    """The attacker's bands, by their upper bounds (``None`` last: open)."""
    defender_up_to: Bounds
    """The defender's bands, likewise."""
    damage: tuple[tuple[int, ...], ...]
    """One row per attacker band, one entry per defender band."""
    title: str = ""
    """What the user calls the table, if anything."""

    def __post_init__(self) -> None:
        problems = table_problems(self.attacker_up_to, self.defender_up_to, self.damage)
        if problems:
            path, message = problems[0]
            raise ValueError(f"{path}: {message}")

    def stages(self, attacker: int, defender: int) -> int | None:
        """The stages of damage ``attacker``'s power deals ``defender``'s,
        or ``None`` when either power is off the table."""
        row = _band(self.attacker_up_to, attacker)
        column = _band(self.defender_up_to, defender)
        if row is None or column is None:
            return None
        return self.damage[row][column]

    def covers(self, power: int, *, attacker: bool) -> bool:
        """Whether the attacker's (or defender's) bands hold ``power``."""
        return _band(self.attacker_up_to if attacker else self.defender_up_to, power) is not None

    def highest(self, *, attacker: bool) -> int | None:
        """The highest power the bands hold (``None``: open at the top)."""
        return (self.attacker_up_to if attacker else self.defender_up_to)[-1]

    def to_json(self) -> dict[str, Any]:
        """The table as JSON data (as its file and a setup hold it)."""
        data: dict[str, Any] = {}
        if self.title:
            data["title"] = self.title
        data["attacker_up_to"] = list(self.attacker_up_to)
        data["defender_up_to"] = list(self.defender_up_to)
        data["damage"] = [list(row) for row in self.damage]
        return data


def _band(bounds: Bounds, power: int) -> int | None:
    if power < 0:
        return None
    finite = [b for b in bounds if b is not None]
    index = bisect_left(finite, power)
    if index < len(finite):
        return index
    return len(finite) if bounds[-1] is None else None


def table_problems(
    attacker_up_to: Sequence[Any], defender_up_to: Sequence[Any], damage: Sequence[Any]
) -> list[tuple[str, str]]:
    """What is wrong with a table's shape, as (field path, message): bounds
    rising, ``None`` only last, one row per attacker band and one entry per
    defender band, each entry 0 to ``MAX_STAGE_DAMAGE``."""
    problems: list[tuple[str, str]] = []
    for name, bounds in (("attacker_up_to", attacker_up_to), ("defender_up_to", defender_up_to)):
        if not 1 <= len(bounds) <= MAX_BANDS:
            problems.append((name, f"gives 1 to {MAX_BANDS} bands, not {len(bounds)}"))
            continue
        previous = -1
        for i, bound in enumerate(bounds):
            if bound is None:
                if i != len(bounds) - 1:
                    problems.append((f"{name}.{i}", "only the last band is open (null)"))
                continue
            if not isinstance(bound, int) or isinstance(bound, bool):
                problems.append((f"{name}.{i}", "a bound is a whole number of power"))
            elif not 0 <= bound <= MAX_POWER:
                problems.append((f"{name}.{i}", f"a bound is 0 to {MAX_POWER:,}"))
            elif bound <= previous:
                problems.append((f"{name}.{i}", f"the bounds rise: {bound:,} follows {previous:,}"))
            else:
                previous = bound
    if problems:
        return problems
    if len(damage) != len(attacker_up_to):
        problems.append(
            (
                "damage",
                f"one row per attacker band: {len(attacker_up_to)} rows, not {len(damage)}",
            )
        )
        return problems
    for r, row in enumerate(damage):
        if not isinstance(row, Sequence) or isinstance(row, str):
            problems.append((f"damage.{r}", "a row is a list of stages"))
            continue
        if len(row) != len(defender_up_to):
            problems.append(
                (
                    f"damage.{r}",
                    f"one entry per defender band: {len(defender_up_to)}, not {len(row)}",
                )
            )
            continue
        for c, stages in enumerate(row):
            if (
                not isinstance(stages, int)
                or isinstance(stages, bool)
                or not 0 <= stages <= MAX_STAGE_DAMAGE
            ):
                problems.append(
                    (f"damage.{r}.{c}", f"stages of damage are 0 to {MAX_STAGE_DAMAGE}")
                )
    return problems


def table_from_json(data: Mapping[str, Any]) -> PhysicalAttackTable:
    """A table ``PhysicalAttackTable.to_json`` wrote (a save's); ``ValueError``
    saying what is wrong."""
    if not isinstance(data, Mapping):
        raise ValueError("a Physical Attack Table is a JSON object")
    unknown = sorted(set(data) - {"title", "attacker_up_to", "defender_up_to", "damage"})
    if unknown:
        raise ValueError(f"a Physical Attack Table has no field {unknown[0]!r}")
    title = data.get("title", "")
    if not isinstance(title, str) or len(title) > 120 or not title.isprintable():
        raise ValueError("title: a short line of printable text")
    fields = {}
    for name in ("attacker_up_to", "defender_up_to", "damage"):
        value = data.get(name)
        if not isinstance(value, list):
            raise ValueError(f"{name}: a list")
        fields[name] = value
    return PhysicalAttackTable(
        attacker_up_to=tuple(fields["attacker_up_to"]),
        defender_up_to=tuple(fields["defender_up_to"]),
        damage=tuple(tuple(row) if isinstance(row, list) else row for row in fields["damage"]),
        title=title,
    )
