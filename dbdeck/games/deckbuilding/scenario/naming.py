"""Naming things in a scenario: cards by id rather than instance number,
holders by card (``m:freezer-guard``: the first Minion of that card)."""

from __future__ import annotations

from collections.abc import Iterable

from dbdeck.games.deckbuilding.engine import zones
from dbdeck.games.deckbuilding.engine.actions import Action, action_from_json
from dbdeck.games.deckbuilding.engine.game import Game
from dbdeck.games.deckbuilding.engine.holders import (
    AllyRef,
    Holder,
    HolderError,
    MinionRef,
    parse,
)
from dbdeck.games.deckbuilding.engine.state import CharacterState
from dbdeck.games.deckbuilding.scenario.models import ActionSpec

__all__ = ["holder", "holder_id", "holder_key", "resolve_action"]


def resolve_action(g: Game, spec: ActionSpec) -> Action:
    """An action whose cards are named by id, turned into the engine's action."""
    data = spec.as_written()
    kind = data["type"]
    if kind == "choose" and "label" in data:
        pending = g.state.pending
        if pending is None:
            raise KeyError("no decision is pending")
        label = data.pop("label")
        matches = [i for i, o in enumerate(pending.options) if label in o.label]
        if not matches:
            raise KeyError(f"no option matching {label!r} in {[o.label for o in pending.options]}")
        data["option"] = matches[0]
    active = g.state.active
    ch = g.state.character(active) if active not in ("", "villain") else None
    if "card" in data and isinstance(data["card"], str):
        data["card"] = _find(g, ch, data["card"], kind)
    if "cards" in data:
        chosen: list[int] = []
        for c in data["cards"]:
            chosen.append(_find(g, ch, c, kind, exclude=chosen) if isinstance(c, str) else c)
        data["cards"] = chosen
    if "on" in data and isinstance(data["on"], str):
        data["on"] = _find(g, ch, data["on"], "boost-on")
    for name in ("target", "source"):
        if isinstance(data.get(name), str):
            data[name] = holder_key(g, data[name])
    return action_from_json(data)


def _find(
    g: Game, ch: CharacterState | None, card_id: str, kind: str, exclude: Iterable[int] = ()
) -> int:
    s = g.state
    places: list[list[int]] = []
    if ch is not None:
        if kind in ("boost-on",):
            places.append([p.uid for p in ch.time_track if p is not None])
        elif kind == "exhaust":
            # A copy not yet exhausted first: "exhaust the Pistol" with two
            # in play means the one that can still be used.
            units = ch.units()
            places.append([u.uid for u in units if not u.exhausted])
            places.append([u.uid for u in units if u.exhausted])
        elif kind == "destroy":
            places.append([u.uid for u in ch.units()])
        elif kind == "play" and not any(s.card_ids[u] == card_id for u in ch.hand):
            places.append([u.uid for u in ch.units()])
        else:
            places.append(list(ch.hand))
    places.append([u for m in zones.MARKETS for u in s.markets[m].row] + s.sixth[-1:])
    places.append([u for other in s.characters for u in other.hand])  # Duo contributions
    places.append([p.uid for slot in s.villain.time_track for p in slot])
    for place in places:
        for uid in place:
            if s.card_ids[uid] == card_id and uid not in exclude:
                return uid
    raise KeyError(f"no {card_id!r} where the action looks for it")


def holder_key(g: Game, name: str) -> str:
    """``m:freezer-guard`` → the first Minion of that card; ``a:mai-ally`` likewise."""
    s = g.state
    if name.startswith("m:") and not name[2:].isdigit():
        for unit in s.villain.minions:
            if s.card_ids[unit.uid] == name[2:]:
                return f"m:{unit.uid}"
        raise KeyError(f"no Minion {name[2:]!r} in play")
    if name.startswith("a:") and not name[2:].isdigit():
        for ch in s.characters:
            for unit in ch.allies:
                if s.card_ids[unit.uid] == name[2:]:
                    return f"a:{unit.uid}"
        raise KeyError(f"no Ally {name[2:]!r} in play")
    return name


def holder(g: Game, name: str) -> Holder:
    """The holder a scenario names (``m:freezer-guard``: see ``holder_key``)."""
    try:
        return parse(holder_key(g, name))
    except HolderError as exc:
        raise KeyError(str(exc)) from None


def holder_id(g: Game, key: Holder | None) -> str:
    """A holder with card ids for instances (``a:mai-ally``), ``""`` for none."""
    match key:
        case None:
            return ""
        case AllyRef(uid):
            return f"a:{g.state.card_ids[uid]}"
        case MinionRef(uid):
            return f"m:{g.state.card_ids[uid]}"
    return key.key
