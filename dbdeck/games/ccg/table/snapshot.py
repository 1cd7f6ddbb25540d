"""The CCG table's state as JSON data and back: every card, both sides,
Combat, the log and the random generator, so a save resumes exactly."""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Mapping
from typing import Any

from dbdeck.games.ccg.attack_table import table_from_json
from dbdeck.games.ccg.table.state import (
    Combat,
    Entry,
    PendingAttack,
    Side,
    TableCard,
    TableState,
)

__all__ = ["SNAPSHOT_VERSION", "restore", "state_from_json", "state_to_json"]

SNAPSHOT_VERSION = 1
"""The form of a CCG table snapshot."""


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, set):
        return sorted(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def state_to_json(state: TableState) -> dict[str, Any]:
    """The whole table as JSON data, with the table before the last action
    (kept for an overrule) inside it."""
    version, internal, gauss = state.rng.getstate()
    return {
        "snapshot": SNAPSHOT_VERSION,
        "cards": [_plain(state.cards[uid]) for uid in sorted(state.cards)],
        "sides": [_plain(side) for side in state.sides],
        "profile": state.profile,
        "adjudication": state.adjudication,
        "rng": [version, list(internal), gauss],
        "turn": state.turn,
        "active": state.active,
        "step": state.step,
        "location": state.location,
        "combat": _plain(state.combat) if state.combat is not None else None,
        "skip_combat": state.skip_combat,
        "discarding": state.discarding,
        "winner": state.winner,
        "result": state.result,
        "suggestion": state.suggestion,
        "log": [_plain(entry) for entry in state.log],
        "version": state.version,
        "last_auto": state.last_auto,
        "previous": state_to_json(state.previous) if state.previous is not None else None,
        "proposal": list(state.proposal) if state.proposal is not None else None,
        **(
            {"attack_table": state.attack_table.to_json()} if state.attack_table is not None else {}
        ),
    }


def _card(data: Mapping[str, Any]) -> TableCard:
    fields = dict(data)
    ball = fields.get("dragon_ball")
    fields["dragon_ball"] = (str(ball[0]), int(ball[1])) if ball is not None else None
    fields["ladder"] = tuple(fields.get("ladder", ()))
    fields["beneath"] = list(fields.get("beneath", ()))
    return TableCard(**fields)


def _side(data: Mapping[str, Any]) -> Side:
    fields = dict(data)
    fields["shown"] = set(fields.get("shown", ()))
    fields["counters"] = dict(fields.get("counters", {}))
    fields["ally_powers_used"] = list(fields.get("ally_powers_used", ()))
    return Side(**fields)


def _combat(data: Mapping[str, Any] | None) -> Combat | None:
    if data is None:
        return None
    fields = dict(data)
    attack = fields.get("attack")
    fields["attack"] = PendingAttack(**attack) if attack is not None else None
    return Combat(**fields)


def state_from_json(data: Mapping[str, Any]) -> TableState:
    """A table ``state_to_json`` wrote; ``ValueError`` when it is not one.
    The table owns copies: playing on never changes ``data`` (a save's
    undo floor is read again and again)."""
    data = copy.deepcopy(data)
    try:
        if data["snapshot"] != SNAPSHOT_VERSION:
            raise ValueError(f"a CCG table snapshot of form {data['snapshot']!r}")
        cards = {card.uid: card for card in (_card(c) for c in data["cards"])}
        sides = [_side(s) for s in data["sides"]]
        if len(sides) != 2:
            raise ValueError("a CCG table has two sides")
        rng = random.Random()
        version, internal, gauss = data["rng"]
        rng.setstate((version, tuple(internal), gauss))
        return TableState(
            cards=cards,
            sides=(sides[0], sides[1]),
            profile=data["profile"],
            adjudication=data["adjudication"],
            rng=rng,
            turn=data["turn"],
            active=data["active"],
            step=data["step"],
            location=data["location"],
            combat=_combat(data["combat"]),
            skip_combat=data["skip_combat"],
            discarding=data["discarding"],
            winner=data["winner"],
            result=data["result"],
            suggestion=data["suggestion"],
            log=[Entry(**e) for e in data["log"]],
            version=data["version"],
            last_auto=data["last_auto"],
            previous=state_from_json(data["previous"]) if data.get("previous") else None,
            proposal=(int(data["proposal"][0]), str(data["proposal"][1]))
            if data.get("proposal") is not None
            else None,
            # A snapshot written before tables were supplied holds none.
            attack_table=table_from_json(data["attack_table"])
            if data.get("attack_table") is not None
            else None,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a CCG table: {exc}") from None


_KEPT = frozenset({"log", "version", "previous", "proposal"})
"""What going back keeps: the log (the record says what happened), the
action count, and no second level of going back."""


def restore(state: TableState, earlier: TableState) -> None:
    """Put ``state`` back as ``earlier`` (its ``before_action`` copy) holds
    it, keeping its log and its action count."""
    for f in dataclasses.fields(TableState):
        if f.name not in _KEPT:
            setattr(state, f.name, getattr(earlier, f.name))
    state.previous = None
