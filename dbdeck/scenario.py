"""Scenario files: a table set up by hand, actions applied, expectations checked.

A scenario is a TOML file (format in ``docs/scenarios.md``)::

    name = "Krillin's 4 damage against Freezer's Armor 1"
    rulebook = "Armor and Damage Reduction"

    [setup]                      # as for a new game
    villain = "freezer"
    characters = ["krillin"]

    [table.characters.krillin]   # then the table is laid out by hand
    hand = ["punch-and-kick"]

    [[steps]]
    action = {type = "attack", cards = ["punch-and-kick"], target = "v"}
    expect = {"villain.damage" = 3}

Cards are named by id; the runner finds the instance an action means (in
the hand, in play, in a market row …). Dice can be scripted with ``rolls``.
Nothing in a scenario is evaluated as code.
"""

from __future__ import annotations

import random
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dbdeck.cards.catalog import Catalog
from dbdeck.engine import moves, rules
from dbdeck.engine.actions import Action, IllegalAction
from dbdeck.engine.game import Game, Setup, SetupError
from dbdeck.engine.state import Prepared, Unit

__all__ = ["ScenarioFailure", "run_file", "table_view"]


class ScenarioFailure(Exception):
    """A scenario did not hold; the message names the step and expectation."""


class ScriptedRandom(random.Random):
    """A random generator whose dice rolls can be fixed in advance: each
    ``randint`` takes the next scripted number while any are left."""

    def __init__(self, seed: int, rolls: Iterable[int] = ()) -> None:
        super().__init__(seed)
        self.rolls = list(rolls)

    def randint(self, a: int, b: int) -> int:
        if self.rolls:
            value = self.rolls.pop(0)
            if not a <= value <= b:
                raise ScenarioFailure(f"scripted roll {value} is outside {a}..{b}")
            return value
        return super().randint(a, b)


@dataclass
class Outcome:
    """What running one scenario gave."""

    file: str
    name: str
    steps: int


def run_file(catalog: Catalog, path: Path) -> Outcome:
    """Run one scenario file; raises ``ScenarioFailure`` on the first failure."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ScenarioFailure(f"cannot read: {exc}") from None
    return run(catalog, data, str(path))


def run(catalog: Catalog, data: dict[str, Any], name: str = "<scenario>") -> Outcome:
    """Run one scenario given as data."""
    setup_data = dict(data.get("setup", {}))
    rolls = setup_data.pop("rolls", [])
    try:
        setup = Setup(**setup_data)
        game = Game.new(catalog, setup)
    except (TypeError, SetupError) as exc:
        expected = data.get("expect_setup_error")
        if expected and expected in str(exc):
            return Outcome(name, data.get("name", name), 0)
        raise ScenarioFailure(f"setup: {exc}") from None
    if data.get("expect_setup_error"):
        raise ScenarioFailure("setup: expected an error, the setup was accepted")
    scripted = ScriptedRandom(setup.seed, rolls)
    scripted.setstate(game.rng.getstate())
    game.rng = scripted
    if "table" in data:
        lay_table(game, data["table"])
    for number, step in enumerate(data.get("steps", []), 1):
        _run_step(game, step, number)
    return Outcome(name, data.get("name", name), len(data.get("steps", [])))


def _run_step(game: Game, step: dict[str, Any], number: int) -> None:
    where = f"step {number}"
    if "rolls" in step:
        assert isinstance(game.rng, ScriptedRandom)
        game.rng.rolls += list(step["rolls"])
    if "action" in step:
        try:
            action = resolve_action(game, step["action"])
        except KeyError as exc:
            raise ScenarioFailure(f"{where}: {exc.args[0]}") from None
        expected_error = step.get("expect_error")
        try:
            events = game.apply(action)
        except IllegalAction as exc:
            if expected_error and expected_error in exc.reason:
                events = []
            else:
                raise ScenarioFailure(
                    f"{where}: {action.to_json()} refused: {exc.reason}"
                ) from None
        else:
            if expected_error:
                raise ScenarioFailure(
                    f"{where}: expected the error {expected_error!r}, the action was accepted"
                )
        text = "\n".join(e.text for e in events)
        for wanted in step.get("expect_log", []):
            if wanted not in text:
                raise ScenarioFailure(f"{where}: the log lacks {wanted!r}; it says:\n{text}")
    view = table_view(game)
    for path, wanted in step.get("expect", {}).items():
        got = _lookup(view, path)
        if got != wanted:
            raise ScenarioFailure(f"{where}: expected {path} = {wanted!r}, got {got!r}")


def _lookup(view: dict[str, Any], path: str) -> Any:
    node: Any = view
    for part in path.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return f"<no {path}>"
    return node


# --- laying out the table ------------------------------------------------------------------


def lay_table(g: Game, table: dict[str, Any]) -> None:
    """Replace parts of a freshly set-up game with the scenario's table."""
    s = g.state
    if "dragon_balls" in table.get("villain", {}):
        # The Villain's balls first: a Villain that starts with some (Raditz's
        # six) leaves the Characters' balls unclaimed until it lets them go.
        _set_balls(g, "v", table["villain"]["dragon_balls"])
    for character_id, spec in table.get("characters", {}).items():
        ch = s.character(character_id)
        for pile in ("hand", "deck", "discard"):
            if pile in spec:
                setattr(ch, pile, [g.new_uid(c) for c in spec[pile]])
        for kind, name in (
            ("allies", "allies"),
            ("equipment", "equipment"),
            ("training", "training"),
        ):
            if name in spec:
                setattr(ch, kind, [Unit(g.new_uid(c)) for c in spec[name]])
        if "time_track" in spec:
            ch.time_track = [
                None if c in (None, "", "-") else Prepared(g.new_uid(c)) for c in spec["time_track"]
            ]
        for field in ("damage", "energy", "ability_tokens", "training_energy"):
            if field in spec:
                setattr(ch, field, spec[field])
        if "dragon_balls" in spec:
            _set_balls(g, f"c:{character_id}", spec["dragon_balls"])
        if "bonuses" in spec:
            from dbdeck.engine.state import Bonus

            ch.bonuses = [Bonus(**b) for b in spec["bonuses"]]
    if "villain" in table:
        spec = table["villain"]
        v = s.villain
        for field in ("damage", "phase", "arrived"):
            if field in spec:
                setattr(v, field, spec[field])
        if "minions" in spec:
            v.minions = [Unit(g.new_uid(c)) for c in spec["minions"]]
        if "deck" in spec:
            v.deck = [g.new_uid(c) for c in reversed(spec["deck"])]
        if "time_track" in spec:
            halves: list[Prepared] = []
            v.time_track = [[_prepared(g, c, halves) for c in slot] for slot in spec["time_track"]]
        if "enemy_damage" in spec:
            v.enemy_damage = dict(spec["enemy_damage"])
        if "defeated_enemies" in spec:
            v.defeated_enemies = list(spec["defeated_enemies"])
        if "tokens" in spec:
            v.tokens = dict(spec["tokens"])
        for name, cards in spec.get("side_decks", {}).items():
            # a list names the cards top first; a number is that many copies of the named card
            listed = [name] * cards if isinstance(cards, int) else cards
            v.side_decks[name] = [g.new_uid(c) for c in reversed(listed)]
        if "dragon_balls" in spec:
            _set_balls(g, "v", spec["dragon_balls"])
        if "aggro" in spec:
            v.aggro = _key(g, spec["aggro"]) if spec["aggro"] else ""
    if "turn_deck" in table:
        s.turn_deck = list(reversed(table["turn_deck"]))
    if "revealed" in table:
        s.revealed = table["revealed"]
    for market, cards in table.get("market_decks", {}).items():
        s.markets[market].deck = [g.new_uid(c) for c in reversed(cards)]
    for market, cards in table.get("markets", {}).items():
        s.markets[market].row = [g.new_uid(c) for c in cards]
    for i, damage in enumerate(table.get("market_damage", {}).get("allies", [])):
        if damage:
            s.villain.enemy_damage[f"market:{s.markets['allies'].row[i]}"] = damage
    if "active" in table:
        s.prologue = []
        s.stack = []
        s.pending = None
        s.active = table["active"]
        if s.active == "villain":
            s.step = "villain_start"
            g._advance()
        else:
            s.step = "char_main"


def _prepared(g: Game, spec: str | dict[str, str], halves: list[Prepared]) -> Prepared:
    """A Villain attack on the Time Track: a card id, or ``{card, owner}``
    for the half of a split card one enemy prepared. Two halves of the same
    card prepared by different enemies are one card."""
    if isinstance(spec, str):
        return Prepared(g.new_uid(spec))
    for other in halves:
        if g.state.card_ids[other.uid] == spec["card"] and other.owner != spec["owner"]:
            halves.remove(other)
            return Prepared(other.uid, owner=spec["owner"])
    prepared = Prepared(g.new_uid(spec["card"]), owner=spec["owner"])
    halves.append(prepared)
    return prepared


def _set_balls(g: Game, key: str, count: int) -> None:
    s = g.state
    s.balls = ["" if holder == key else holder for holder in s.balls]
    for i in range(7):
        if count and s.balls[i] == "":
            s.balls[i] = key
            count -= 1


# --- naming cards ---------------------------------------------------------------------------


def resolve_action(g: Game, spec: dict[str, Any]) -> Action:
    """An action whose cards are named by id, turned into the engine's action."""
    data = dict(spec)
    kind = data["type"]
    if kind == "choose" and "label" in data:
        pending = g.state.pending
        if pending is None:
            raise KeyError("no decision is pending")
        label = data.pop("label")
        matches = [i for i, o in enumerate(pending.options) if label in o["label"]]
        if not matches:
            raise KeyError(
                f"no option matching {label!r} in {[o['label'] for o in pending.options]}"
            )
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
    for field in ("target", "source"):
        if isinstance(data.get(field), str):
            data[field] = _key(g, data[field])
    return Action.from_json(data)


def _find(g: Game, ch: Any, card_id: str, kind: str, exclude: Iterable[int] = ()) -> int:
    s = g.state
    places: list[list[int]] = []
    if ch is not None:
        if kind in ("boost-on",):
            places.append([p.uid for p in ch.time_track if p is not None])
        elif kind in ("exhaust", "destroy"):
            places.append([u.uid for u in ch.units()])
        elif kind == "play" and not any(s.card_ids[u] == card_id for u in ch.hand):
            places.append([u.uid for u in ch.units()])
        else:
            places.append(list(ch.hand))
    places.append([u for m in moves.MARKETS for u in s.markets[m].row] + s.sixth[-1:])
    places.append([u for other in s.characters for u in other.hand])  # Duo contributions
    places.append([p.uid for slot in s.villain.time_track for p in slot])
    for place in places:
        for uid in place:
            if s.card_ids[uid] == card_id and uid not in exclude:
                return uid
    raise KeyError(f"no {card_id!r} where the action looks for it")


def _key(g: Game, name: str) -> str:
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


# --- what scenarios look at --------------------------------------------------------------------


def _holder_id(g: Game, key: str) -> str:
    """A holder key with card ids for instances (``a:mai-ally``), ``""`` for none."""
    if key[:2] in ("a:", "m:"):
        return f"{key[:2]}{g.state.card_ids[int(key[2:])]}"
    return key


def table_view(g: Game) -> dict[str, Any]:
    """The table with card ids instead of instance numbers, for expectations."""
    s = g.state
    ids = s.card_ids

    def units(items: list[Unit]) -> list[str]:
        return [ids[u.uid] for u in items]

    balls: dict[str, int] = {"v": 0, "unclaimed": 0, **{f"c:{c.id}": 0 for c in s.characters}}
    for holder in s.balls:
        name = holder or "unclaimed"
        if holder[:2] in ("a:", "m:"):
            name = f"{holder[:2]}{ids[int(holder[2:])]}"
        balls[name] = balls.get(name, 0) + 1
    return {
        "characters": {
            ch.id: {
                "damage": ch.damage,
                "defeated": ch.defeated,
                "max_health": rules.max_health(g, f"c:{ch.id}"),
                "hand_size": rules.hand_size(g, ch),
                "hand": [ids[u] for u in ch.hand],
                "discard": [ids[u] for u in ch.discard],
                "deck_size": len(ch.deck),
                "allies": units(ch.allies),
                "ally_damage": [u.damage for u in ch.allies],
                "equipment": units(ch.equipment),
                "training": units(ch.training),
                "exhausted": [ids[u.uid] for u in ch.units() if u.exhausted],
                "time_track": ["" if p is None else ids[p.uid] for p in ch.time_track],
                "boosters": [
                    [] if p is None else [ids[b] for b in p.boosters] for p in ch.time_track
                ],
                "energy": ch.energy,
                "ability_tokens": ch.ability_tokens,
                "room_tokens": ch.room_tokens,
                "armor": rules.armor(g, f"c:{ch.id}"),
            }
            for ch in s.characters
        },
        "villain": {
            "damage": s.villain.damage,
            "phase": s.villain.phase,
            "arrived": s.villain.arrived,
            "max_health": {k: rules.max_health(g, k) for k in _villain_keys(g)},
            "armor": {k: rules.armor(g, k) for k in _villain_keys(g)},
            "minions": units(s.villain.minions),
            "minion_damage": [u.damage for u in s.villain.minions],
            "exhausted_minions": [ids[u.uid] for u in s.villain.minions if u.exhausted],
            "time_track": [[ids[p.uid] for p in slot] for slot in s.villain.time_track],
            "time_track_owners": [[p.owner for p in slot] for slot in s.villain.time_track],
            "tokens": dict(s.villain.tokens),
            "deck_size": len(s.villain.deck),
            "enemy_damage": dict(s.villain.enemy_damage),
            "defeated_enemies": list(s.villain.defeated_enemies),
            "side_decks": {
                k: [ids[u] for u in reversed(d)] for k, d in s.villain.side_decks.items()
            },
            "deck": [ids[u] for u in reversed(s.villain.deck)],
            "aggro": _holder_id(g, s.villain.aggro),
        },
        "markets": {m: [ids[u] for u in s.markets[m].row] for m in s.markets},
        "market_decks": {m: len(s.markets[m].deck) for m in s.markets},
        "market_damage": {
            "allies": [rules.damage_of(g, f"market:{u}") for u in s.markets["allies"].row]
        },
        "round": s.round,
        "location": s.location or "",
        "balls": balls,
        "winner": s.winner,
        "reason": s.reason,
        "active": s.active,
        "step": s.step,
        "pending": "" if s.pending is None else s.pending.kind,
        "options": [] if s.pending is None else [o["label"] for o in s.pending.options],
        "grim": []
        if s.pending is None
        else [o["label"] for o in s.pending.options if o.get("grim")],
        "turn_deck": sorted(s.turn_deck + s.turn_discard),
    }


def _villain_keys(g: Game) -> list[str]:
    """The Villain's holder keys: ``v``, or one ``e:`` key per enemy."""
    enemies = g.card(g.state.villain_id).enemies
    return [f"e:{e}" for e in enemies] or ["v"]
