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

A scenario file is untrusted input: it is read only if it is a regular file
of at most ``MAX_SCENARIO_BYTES``, its nesting and numbers are bounded before
``tomllib`` parses it, and the parsed data is validated (types, known keys,
card ids and kinds, values the table allows) before any of it reaches the
engine. Every problem in a file is a ``ScenarioFailure`` naming the step and
field.
"""

from __future__ import annotations

import random
import re
import tomllib
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    ValidationError,
    ValidationInfo,
)

from dbdeck.cards.catalog import (
    Catalog,
    InputRefused,
    decode_utf8,
    one_line,
    read_regular_file,
)
from dbdeck.cards.effects import Duration
from dbdeck.engine import moves, rules
from dbdeck.engine.actions import ACTION_TYPES, Action, IllegalAction
from dbdeck.engine.game import Game, Setup, SetupError
from dbdeck.engine.state import Prepared, Unit

__all__ = [
    "MAX_SCENARIO_BYTES",
    "ScenarioFailure",
    "check_scenario",
    "read_scenario",
    "run_file",
    "table_view",
]

MAX_SCENARIO_BYTES = 1024 * 1024
"""The largest scenario file read (the biggest in ``tests/scenarios`` is 2.5 KB)."""
_MAX_DEPTH = 32
"""Nesting allowed in a scenario (the real ones nest 5 deep): far below what
``tomllib``'s recursive parser or a ``repr`` could overflow."""
_MAX_DIGITS = 100
"""Digits allowed in one number, checked before parsing: ``tomllib`` would
raise on a decimal integer of more than 4300."""
_MAX_VALUES = 50_000
"""Values allowed in one scenario (the real ones have at most ~120): bounds
the validation errors and the work a file can ask for."""
_MAX_STEPS = 1000
"""Steps allowed in one scenario (the real ones have at most 10)."""


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
    """Run one scenario file; raises ``ScenarioFailure`` on the first failure.

    Whatever the file holds, a problem *in the file* raises nothing but
    ``ScenarioFailure``; any other exception is a bug of the engine.
    """
    return run(catalog, read_scenario(path), str(path))


def read_scenario(path: Path) -> dict[str, Any]:
    """Read and parse a scenario file within the limits; raises
    ``ScenarioFailure`` (``cannot read: …``) for anything else."""
    try:
        text = decode_utf8(read_regular_file(path, MAX_SCENARIO_BYTES))
        refused = _toml_limits_problem(text)
        if refused is not None:
            raise InputRefused(refused)
        data = tomllib.loads(text)
    except InputRefused as exc:
        reason = str(exc).removeprefix("cannot read: ")
        raise ScenarioFailure(f"cannot read: {reason}") from None
    except ValueError as exc:  # TOMLDecodeError, or an int() tomllib did not wrap
        raise ScenarioFailure(f"cannot read: {one_line(str(exc))}") from None
    except RecursionError:
        # _toml_limits_problem stops every nesting tomllib would recurse
        # into; this stays so that a misjudged file is still no crash.
        raise ScenarioFailure(f"cannot read: nested more than {_MAX_DEPTH} deep") from None
    refused = _data_limits_problem(data)
    if refused is not None:
        raise ScenarioFailure(f"cannot read: {refused}")
    return data


# TOML strings and comments are skipped when counting brackets and digits. An
# unterminated string runs to the end of its line (of the text for a
# multi-line one), so a match starts at every opening quote: linear time.
_TOML_SKIPPED = re.compile(
    r'"""(?:[^"\\]|\\.?|"{1,2}(?!"))*+(?:"{3,5}|\Z)'
    r"|'''(?:[^']|'{1,2}(?!'))*+(?:'{3,5}|\Z)"
    r'|"(?:[^"\\\n]|\\.?)*+(?:"|$)'
    r"|'[^'\n]*+(?:'|$)"
    r"|#[^\n]*",
    re.MULTILINE,
)
_LONG_NUMBER = re.compile(rf"[0-9]{{{_MAX_DIGITS + 1},}}")
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_DEPTH_STEPS = str.maketrans("[{]}", "\x01\x01\xff\xff")


def _toml_limits_problem(text: str) -> str | None:
    """Why ``text`` nests too deep or has too long a number to parse, or
    ``None``. Regular expressions and a running sum only: no recursion."""
    bare = _TOML_SKIPPED.sub('""', text)
    if _LONG_NUMBER.search(bare):
        return f"a number of more than {_MAX_DIGITS} digits"
    steps = _NOT_BRACKETS.sub("", bare).translate(_DEPTH_STEPS).encode("latin-1")
    if max(accumulate(array("b", steps)), default=0) > _MAX_DEPTH:
        return f"nested more than {_MAX_DEPTH} deep"
    return None


def _data_limits_problem(data: dict[str, Any]) -> str | None:
    """Why parsed data nests too deep (dotted keys nest without brackets), is
    too big, or holds an integer beyond 64 bits (hex needs no digits), or
    ``None``. Walks with a stack: nothing here recurses."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    values = 0
    while stack:
        node, depth = stack.pop()
        values += 1
        if values > _MAX_VALUES:
            return f"too many values (more than {_MAX_VALUES})"
        if isinstance(node, dict | list):
            if depth > _MAX_DEPTH:
                return f"nested more than {_MAX_DEPTH} deep"
            items = node.values() if isinstance(node, dict) else node
            stack += [(item, depth + 1) for item in items]
        elif isinstance(node, int) and node.bit_length() > 63:
            return "an integer beyond 64 bits"
    return None


def run(catalog: Catalog, data: dict[str, Any], name: str = "<scenario>") -> Outcome:
    """Run one scenario given as data; it is checked first (``check_scenario``)."""
    check_scenario(catalog, data)
    setup_data = dict(data["setup"])
    rolls = setup_data.pop("rolls", [])
    title = one_line(data.get("name", name))
    try:
        setup = Setup(**setup_data)
        game = Game.new(catalog, setup)
    except SetupError as exc:
        expected = data.get("expect_setup_error")
        if expected and expected in str(exc):
            return Outcome(name, title, 0)
        raise ScenarioFailure(f"setup: {exc}") from None
    if data.get("expect_setup_error"):
        raise ScenarioFailure("setup: expected an error, the setup was accepted")
    scripted = ScriptedRandom(setup.seed, rolls)
    scripted.setstate(game.rng.getstate())
    game.rng = scripted
    if "table" in data:
        _check_table(game, data["table"])
        try:
            lay_table(game, data["table"])
        except KeyError as exc:  # a Minion or Ally named by a key is not in play
            raise ScenarioFailure(f"table: {exc.args[0]}") from None
    for number, step in enumerate(data.get("steps", []), 1):
        _run_step(game, step, number)
    return Outcome(name, title, len(data.get("steps", [])))


def _run_step(game: Game, step: dict[str, Any], number: int) -> None:
    where = f"step {number}"
    if "rolls" in step:
        assert isinstance(game.rng, ScriptedRandom)
        game.rng.rolls += list(step["rolls"])
    if "action" in step:
        try:
            action = resolve_action(game, step["action"])
        except (KeyError, ValueError) as exc:
            raise ScenarioFailure(f"{where}: {exc.args[0]}") from None
        known = len(game.state.card_ids)
        for uid in (action.card, action.on, *action.cards):
            if uid is not None and not 0 <= uid < known:
                raise ScenarioFailure(f"{where}: no card instance {uid} (there are {known})")
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
            raise ScenarioFailure(f"{where}: expected {one_line(path)} = {wanted!r}, got {got!r}")


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


# --- checking a scenario ----------------------------------------------------------------------
#
# The models below only check: the runner goes on reading the plain data they
# accepted (strict mode, so that data already has exactly the types named).


_PLAYER_KINDS = (
    "ally",
    "technique",
    "energy",
    "equipment",
    "training",
    "concentrated-energy",
    "capsule",
)
_VILLAIN_DECK_TYPES = ("attack", "minion", "split", "event", "transformation")


def _clip(text: str, width: int = 64) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _card(*kinds: str, empty: bool = False) -> AfterValidator:
    """A card id the catalog (in the validation context) knows, of one of
    ``kinds`` (any kind when none given); a Villain's card must belong to
    the game's Villain. With ``empty``, ``""`` and ``"-"`` (an empty Time
    Track slot) pass too."""

    def check(value: str, info: ValidationInfo) -> str:
        if empty and value in ("", "-"):
            return value
        context = info.context if isinstance(info.context, dict) else {}
        catalog = context.get("catalog")
        if not isinstance(catalog, Catalog):
            return value
        card = catalog.cards.get(value)
        if card is None:
            raise ValueError(f"unknown card {_clip(value)!r}")
        kind = card.type if card.kind == "villain-card" else card.kind
        if kinds and kind not in kinds:
            raise ValueError(f"{value!r} is a {kind}, expected {' or '.join(kinds)}")
        villain = context.get("villain")
        if card.kind == "villain-card" and villain is not None and card.villain != villain:
            raise ValueError(f"{value!r} is a card of {card.villain!r}, not of {villain!r}")
        return value

    return AfterValidator(check)


def _one_of(what: str, allowed: Iterable[str]) -> AfterValidator:
    choices = tuple(allowed)

    def check(value: str) -> str:
        if value not in choices:
            raise ValueError(
                f"unknown {what} {_clip(value)!r}; expected one of {', '.join(choices)}"
            )
        return value

    return AfterValidator(check)


def _tagger(**tags: type) -> Callable[[Any], str | None]:
    """A discriminator telling union members apart by the value's Python
    type, so a wrong value gets one clear error rather than one per member."""

    def tag(value: Any) -> str | None:
        for name, kind in tags.items():
            if isinstance(value, kind):
                return name
        return None

    return tag


_Count = Annotated[int, Field(ge=0, le=10_000)]
_Signed = Annotated[int, Field(ge=-10_000, le=10_000)]
_Balls = Annotated[int, Field(ge=0, le=7)]
_Uid = Annotated[int, Field(ge=0)]
_AnyCard = Annotated[str, _card()]
_PlayerCard = Annotated[str, _card(*_PLAYER_KINDS)]
_AttackCard = Annotated[str, _card("attack", "split")]
_EnemyCard = Annotated[str, _card("enemy")]
_Market = Annotated[str, _one_of("market", moves.MARKETS)]
_CardOrUid = Annotated[
    Annotated[_AnyCard, Tag("id")] | Annotated[_Uid, Tag("uid")],
    Discriminator(
        _tagger(id=str, uid=int),
        custom_error_type="card_ref",
        custom_error_message="expected a card id or a card instance number",
    ),
]


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _SetupSpec(_Spec):
    villain: str
    characters: list[str]
    difficulty: str | None = None
    extreme: bool | None = None
    location: str | None = None
    seed: Annotated[int, Field(ge=-(2**63), lt=2**63)] | None = None
    seats: list[Annotated[int, Field(ge=0, le=64)]] | None = None
    starting_ally: str | None = None
    ignore_levels: bool | None = None
    variant: str | None = None
    rolls: list[_Signed] | None = None


class _BonusSpec(_Spec):
    kind: str
    amount: _Signed
    duration: Duration
    attack: str | None = None


_TimeSlots = Field(min_length=4, max_length=4)


class _CharacterSpec(_Spec):
    hand: list[_PlayerCard] | None = None
    deck: list[_PlayerCard] | None = None
    discard: list[_PlayerCard] | None = None
    allies: list[Annotated[str, _card("ally")]] | None = None
    equipment: list[Annotated[str, _card("equipment")]] | None = None
    training: list[Annotated[str, _card("training")]] | None = None
    time_track: (
        Annotated[list[Annotated[str, _card("technique", empty=True)]], _TimeSlots] | None
    ) = None
    damage: _Count | None = None
    energy: _Count | None = None
    ability_tokens: _Count | None = None
    training_energy: _Count | None = None
    dragon_balls: _Balls | None = None
    bonuses: list[_BonusSpec] | None = None


class _HalfSpec(_Spec):
    card: _AttackCard
    owner: _EnemyCard


_Prepared = Annotated[
    Annotated[_AttackCard, Tag("id")] | Annotated[_HalfSpec, Tag("half")],
    Discriminator(
        _tagger(id=str, half=dict),
        custom_error_type="prepared",
        custom_error_message="expected a card id or {card, owner}",
    ),
]
_SideDeck = Annotated[
    Annotated[list[Annotated[str, _card("minion", "ally")]], Tag("cards")]
    | Annotated[Annotated[int, Field(ge=0, le=100)], Tag("count")],
    Discriminator(
        _tagger(cards=list, count=int),
        custom_error_type="side_deck",
        custom_error_message="expected a list of card ids or a number of copies",
    ),
]


class _VillainSpec(_Spec):
    damage: _Count | None = None
    phase: Annotated[int, Field(ge=1, le=9)] | None = None
    arrived: bool | None = None
    minions: list[Annotated[str, _card("minion")]] | None = None
    deck: list[Annotated[str, _card(*_VILLAIN_DECK_TYPES)]] | None = None
    time_track: Annotated[list[list[_Prepared]], _TimeSlots] | None = None
    enemy_damage: dict[_EnemyCard, _Count] | None = None
    defeated_enemies: list[_EnemyCard] | None = None
    tokens: dict[str, _Signed] | None = None
    side_decks: dict[Annotated[str, _card("minion", "reference")], _SideDeck] | None = None
    dragon_balls: _Balls | None = None
    aggro: str | None = None


class _MarketDamageSpec(_Spec):
    allies: list[_Count] | None = None


class _TableSpec(_Spec):
    active: str | None = None
    turn_deck: list[str] | None = None
    revealed: str | None = None
    characters: dict[str, _CharacterSpec] | None = None
    villain: _VillainSpec | None = None
    markets: dict[_Market, list[_PlayerCard]] | None = None
    market_decks: dict[_Market, list[_PlayerCard]] | None = None
    market_damage: _MarketDamageSpec | None = None


class _ActionSpec(_Spec):
    type: Annotated[str, _one_of("action type", ACTION_TYPES)]
    card: _CardOrUid | None = None
    cards: list[_CardOrUid] | None = None
    on: _CardOrUid | None = None
    target: str | None = None
    source: str | None = None
    market: str | None = None
    slot: _Signed | None = None
    amount: _Signed | None = None
    option: _Signed | None = None
    label: str | None = None


class _StepSpec(_Spec):
    rolls: list[_Signed] | None = None
    action: _ActionSpec | None = None
    expect_error: str | None = None
    expect_log: list[str] | None = None
    expect: dict[str, Any] | None = None


class _ScenarioSpec(_Spec):
    name: str | None = None
    rulebook: str | None = None
    expect_setup_error: str | None = None
    setup: _SetupSpec
    table: _TableSpec | None = None
    steps: Annotated[list[_StepSpec], Field(max_length=_MAX_STEPS)] | None = None


def check_scenario(catalog: Catalog, data: dict[str, Any]) -> None:
    """Check a scenario's data before running it: known keys, value types
    and ranges, card ids the catalog knows and of the kind each place holds.
    Raises ``ScenarioFailure`` naming the step and field of the first
    problem (and how many more there are)."""
    setup = data.get("setup")
    villain = setup.get("villain") if isinstance(setup, dict) else None
    known = isinstance(villain, str) and villain in catalog and catalog[villain].kind == "villain"
    context = {"catalog": catalog, "villain": villain if known else None}
    try:
        _ScenarioSpec.model_validate(data, context=context)
    except ValidationError as exc:
        raise ScenarioFailure(_describe(data, exc)) from None


_MESSAGES = {
    "missing": "missing field",
    "extra_forbidden": "unknown field",
    # pydantic names Python types; a scenario author writes TOML
    "model_type": "expected a table",
    "dict_type": "expected a table",
    "list_type": "expected an array",
    "string_type": "expected a string",
    "int_type": "expected an integer",
    "bool_type": "expected true or false",
}


def _describe(data: dict[str, Any], exc: ValidationError) -> str:
    """The first validation error as ``step N: field.path: message``."""
    errors = exc.errors(include_url=False, include_input=False)
    error = errors[0]
    loc = list(error["loc"])
    parts: list[str] = []
    node: Any = data
    for i, step in enumerate(loc):
        if isinstance(node, dict) and step in node:
            node = node[step]
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            node = node[step]
        elif error["type"] == "missing" and i == len(loc) - 1:
            pass  # the missing field: named, nothing to descend into
        else:
            continue  # a union member's tag or a dict's "[key]" that pydantic adds
        parts.append(_clip(str(step)))
    if len(parts) >= 2 and parts[0] == "steps":
        where = [f"step {int(parts[1]) + 1}", ".".join(parts[2:])]
    else:
        where = [".".join(parts)]
    kind = error["type"]
    message = _MESSAGES.get(kind) or str(error["msg"]).removeprefix("Value error, ")
    text = ": ".join([w for w in where if w] + [_clip(message, 300)])
    if len(errors) > 1:
        text += f" (and {len(errors) - 1} more problem(s))"
    return one_line(text)


def _check_table(g: Game, table: dict[str, Any]) -> None:
    """What the table may hold that only the game set up shows: its
    Characters, its turn-order cards, its Villain's phases."""
    s = g.state
    ids = [ch.id for ch in s.characters]

    def fail(where: str, message: str) -> None:
        raise ScenarioFailure(one_line(f"table.{where}: {message}"))

    for character in table.get("characters", {}):
        if character not in ids:
            fail(
                f"characters.{_clip(character)}", f"not a Character of this game ({', '.join(ids)})"
            )
    active = table.get("active")
    if active is not None and active not in (*ids, "villain"):
        fail("active", f"{_clip(active)!r} is neither a Character of this game nor 'villain'")
    turn_cards = sorted(set(s.turn_cards))
    for i, card in enumerate(table.get("turn_deck", [])):
        if card not in turn_cards:
            fail(f"turn_deck.{i}", f"{_clip(card)!r} is not one of {', '.join(turn_cards)}")
    if "revealed" in table and table["revealed"] not in turn_cards:
        fail("revealed", f"{_clip(table['revealed'])!r} is not one of {', '.join(turn_cards)}")
    villain = table.get("villain", {})
    phases = g.card(s.villain_id).phases
    if villain.get("phase", 1) > phases:
        fail("villain.phase", f"{g.card(s.villain_id).name} has {phases} phase(s)")
    aggro = villain.get("aggro", "")
    holder = aggro[2:]
    if aggro and not (
        (aggro.startswith("c:") and holder in ids)
        or (aggro[:2] in ("a:", "m:") and holder in g.catalog and not holder.isdigit())
    ):
        fail("villain.aggro", f"{_clip(aggro)!r} is not c:CHARACTER, a:ALLY or m:MINION")
    markets = table.get("markets", {})
    row = markets.get("allies", s.markets["allies"].row)
    damage = table.get("market_damage", {}).get("allies", [])
    if len(damage) > len(row):
        fail("market_damage.allies", f"{len(damage)} values for {len(row)} Allies in the row")
