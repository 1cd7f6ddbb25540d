"""An effect's context: who owns an effect and what it is about.

Every operation of a card runs with one (``effects.Ops`` and ``effects.Op``
hold it): the owner (``actor``), the card instance it comes from
(``source``), an attack's target and attacker, whether the card is part of a
Combo, and the few marks a rule reads (a Location's effect, one of its
set-up effects, an effect its owner chose to use, a Minion's attack).

A context is frozen: the tasks of one effect share it, and a rule that
needs a variant makes a new one (``with_source``, ``with_target``).

Its JSON form is the object saves have always held (``{"actor": "c:goku",
"source": 12}``): holders as their keys, each key there only while it says
something. An attack's context always names its target, ``""`` for an
attack on several (``combo`` or ``attacker`` is then set), as the saves of
earlier versions wrote it. This module imports only the holders: the tasks
and every rule below the effects can name it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dbdeck.games.deckbuilding.engine.holders import LOCATION, Actor, Holder, HolderError, parse

__all__ = ["ContextError", "EffectContext"]


class ContextError(ValueError):
    """JSON data that is not an effect's context."""


@dataclass(frozen=True, slots=True)
class EffectContext:
    """Who owns an effect and what it is about."""

    actor: Actor
    """Who owns the effect: a holder, or the Location in play (``"loc"``)."""
    source: int | None = None
    """The card instance the effect comes from, when it is one."""
    target: Holder | None = None
    """An attack's target (``None`` for an attack on several)."""
    attacker: Holder | None = None
    """Who makes a Villain's attack, for the effects of that attack."""
    combo: bool | None = None
    """A Character's attack: whether the card is part of a Combo (``None``
    outside a Character's attack)."""
    location: bool = False
    """The Location's own effect."""
    setup: bool = False
    """One of the Location's set-up effects."""
    voluntary: bool = False
    """An effect its owner chose to use (an ability, an exhausted card…)."""
    attack: str | None = None
    """The kind of attack that made the effect (``minion``)."""

    def with_source(self, source: int) -> EffectContext:
        """The same context, for the effects of the card ``source``."""
        return EffectContext(
            self.actor,
            source,
            self.target,
            self.attacker,
            self.combo,
            self.location,
            self.setup,
            self.voluntary,
            self.attack,
        )

    def with_target(self, target: Holder | None) -> EffectContext:
        """The same context, aimed at ``target``."""
        return EffectContext(
            self.actor,
            self.source,
            target,
            self.attacker,
            self.combo,
            self.location,
            self.setup,
            self.voluntary,
            self.attack,
        )

    def __copy__(self) -> EffectContext:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> EffectContext:
        # Frozen, and holding only holders (never copied) and plain values:
        # the tasks of a clone share it.
        return self

    # --- JSON --------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The object saves hold: holders as keys, unset keys left out."""
        actor = self.actor
        data: dict[str, Any] = {"actor": actor if actor == LOCATION else actor.key}
        if self.source is not None:
            data["source"] = self.source
        if self.target is not None or self.combo is not None or self.attacker is not None:
            data["target"] = "" if self.target is None else self.target.key
        if self.combo is not None:
            data["combo"] = self.combo
        if self.attacker is not None:
            data["attacker"] = self.attacker.key
        if self.location:
            data["location"] = True
        if self.setup:
            data["setup"] = True
        if self.voluntary:
            data["voluntary"] = True
        if self.attack is not None:
            data["attack"] = self.attack
        return data

    @classmethod
    def from_json(cls, data: Any) -> EffectContext:
        """The context ``to_json`` wrote (or a save of an earlier version
        held); ``ContextError`` for anything else."""
        if not isinstance(data, Mapping):
            raise ContextError("an effect's context is a JSON object")
        unknown = set(data) - _KEYS
        if unknown:
            raise ContextError(f"an effect's context has no {sorted(unknown)[0]!r}")
        if "actor" not in data:
            raise ContextError("an effect's context names its actor")
        actor = data["actor"]
        source = data.get("source")
        combo = data.get("combo")
        attack = data.get("attack")
        if source is not None and (not isinstance(source, int) or isinstance(source, bool)):
            raise ContextError("an effect's source is a card instance")
        if combo is not None and not isinstance(combo, bool):
            raise ContextError("an effect's combo is true or false")
        if attack is not None and not isinstance(attack, str):
            raise ContextError("an effect's attack is a word")
        location, setup, voluntary = (data.get(k, False) for k in _MARKS)
        if not (isinstance(location, bool) and isinstance(setup, bool)) or not isinstance(
            voluntary, bool
        ):
            raise ContextError("an effect's marks are true or false")
        return cls(
            LOCATION if actor == LOCATION else _holder(actor),
            source,
            _holder_or_none(data.get("target")),
            _holder_or_none(data.get("attacker")),
            combo,
            location,
            setup,
            voluntary,
            attack,
        )


_MARKS = ("location", "setup", "voluntary")
_KEYS = frozenset(
    {"actor", "source", "target", "attacker", "combo", "location", "setup", "voluntary", "attack"}
)


def _holder(value: Any) -> Holder:
    try:
        return parse(value)
    except HolderError as exc:
        raise ContextError(str(exc)) from None


def _holder_or_none(value: Any) -> Holder | None:
    # Written "" (no target: an attack on several).
    return None if value is None or value == "" else _holder(value)
