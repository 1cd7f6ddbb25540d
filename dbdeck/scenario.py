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

import re
import tomllib
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
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

from dbdeck.games.deckbuilding.cards.catalog import (
    Catalog,
    InputRefused,
    decode_utf8,
    one_line,
    read_regular_file,
)
from dbdeck.games.deckbuilding.cards.operations import Duration
from dbdeck.games.deckbuilding.engine import combat, rules, zones
from dbdeck.games.deckbuilding.engine.actions import (
    ACTION_TYPES,
    Action,
    IllegalAction,
    action_from_json,
)
from dbdeck.games.deckbuilding.engine.chance import TableRandom
from dbdeck.games.deckbuilding.engine.game import Game, Setup, SetupError
from dbdeck.games.deckbuilding.engine.holders import (
    VILLAIN,
    AllyRef,
    CharacterRef,
    EnemyRef,
    Holder,
    HolderError,
    MarketAllyRef,
    MinionRef,
    parse,
)
from dbdeck.games.deckbuilding.engine.state import (
    Bonus,
    CharacterState,
    GameState,
    MarketState,
    Prepared,
    Unit,
    VillainState,
    joined_counters,
    split_counters,
)

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


class ScriptedRandom(TableRandom):
    """The game's random generator with its draws fixed in advance.

    Three scripts, each used up in order while anything is left in it:
    ``rolls`` (each ``randint``: a die), ``picks`` (each card taken at
    random: a card id) and ``shuffles`` (each shuffle: the pile's new order,
    top first, as card ids or turn-order cards). Once a script is empty the
    seeded generator takes over.
    """

    def __init__(
        self,
        seed: int,
        rolls: Iterable[int] = (),
        *,
        card_id: Callable[[int], str] = str,
    ) -> None:
        super().__init__(seed)
        self.rolls = list(rolls)
        self.picks: list[str] = []
        self.shuffles: list[list[str]] = []
        self.card_id = card_id
        """The card id of an instance uid (the game's, set by the runner)."""

    def randint(self, a: int, b: int) -> int:
        if self.rolls:
            value = self.rolls.pop(0)
            if not a <= value <= b:
                raise ScenarioFailure(f"scripted roll {value} is outside {a}..{b}")
            return value
        return super().randint(a, b)

    def card_at_random(self, uids: Sequence[int]) -> int:
        if not self.picks:
            return super().card_at_random(uids)
        wanted = self.picks.pop(0)
        for uid in uids:
            if self.card_id(uid) == wanted:
                return uid
        cards = ", ".join(self.card_id(u) for u in uids) or "nothing"
        raise ScenarioFailure(f"scripted pick {wanted!r} is not among the cards ({cards})")

    def shuffle(self, x: Any) -> None:  # the signature random.Random gives it
        if not self.shuffles:
            super().shuffle(x)
            return
        order = self.shuffles.pop(0)
        pool = list(x)
        names = [self.card_id(e) if isinstance(e, int) else str(e) for e in pool]
        if sorted(names) != sorted(order):
            raise ScenarioFailure(
                f"scripted shuffle {order} is not the pile being shuffled ({sorted(names)})"
            )
        # A pile's top is its end: the first card of the script goes last.
        result = []
        for name in reversed(order):
            i = names.index(name)
            result.append(pool.pop(i))
            names.pop(i)
        x[:] = result


@dataclass
class Outcome:
    """What running one scenario gave."""

    file: str
    name: str
    steps: int
    warnings: list[str] = field(default_factory=list)
    """State the scenario's table kept from the game's opening turns without
    listing it (``table_leftovers``)."""


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
    scripts = {key: setup_data.pop(key, []) for key in ("rolls", "picks", "shuffles")}
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
    scripted = ScriptedRandom(setup.seed)
    scripted.setstate(game.rng.getstate())
    _script(scripted, scripts)
    game.rng = scripted
    warnings: list[str] = []
    if "table" in data:
        table = data["table"]
        _check_table(game, table)
        if table.get("clean"):
            game = clean_game(game)
        else:
            warnings = table_leftovers(game, Game.set_up(catalog, setup), table)
        scripted.card_id = game.state.card_ids.__getitem__
        try:
            lay_table(game, table)
        except KeyError as exc:  # a Minion or Ally named by a key is not in play
            raise ScenarioFailure(f"table: {exc.args[0]}") from None
        except ScenarioFailure as exc:
            raise ScenarioFailure(f"table.{exc}") from None
    scripted.card_id = game.state.card_ids.__getitem__
    for number, step in enumerate(data.get("steps", []), 1):
        _run_step(game, step, number)
    return Outcome(name, title, len(data.get("steps", [])), warnings)


def _script(scripted: ScriptedRandom, scripts: dict[str, Any]) -> None:
    """Add a setup's or a step's scripted dice, picks and shuffles."""
    scripted.rolls += list(scripts.get("rolls") or [])
    scripted.picks += list(scripts.get("picks") or [])
    scripted.shuffles += [list(order) for order in scripts.get("shuffles") or []]


def _run_step(game: Game, step: dict[str, Any], number: int) -> None:
    where = f"step {number}"
    assert isinstance(game.rng, ScriptedRandom)
    _script(game.rng, step)
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
        except ScenarioFailure as exc:  # a scripted draw that does not fit
            raise ScenarioFailure(f"{where}: {exc}") from None
        else:
            if expected_error:
                raise ScenarioFailure(
                    f"{where}: expected the error {expected_error!r}, the action was accepted"
                )
        lines = [e.text for e in events]
        text = "\n".join(lines)
        for wanted in step.get("expect_log", []):
            if wanted not in text:
                raise ScenarioFailure(f"{where}: the log lacks {wanted!r}; it says:\n{text}")
        _check_log_order(where, lines, step.get("expect_log_order", []))
    view = table_view(game)
    for path, wanted in step.get("expect", {}).items():
        got = _lookup(view, path)
        if got != wanted:
            raise ScenarioFailure(f"{where}: expected {one_line(path)} = {wanted!r}, got {got!r}")
    for check, holds in _LIST_CHECKS.items():
        for path, cards in step.get(check, {}).items():
            got = _lookup(view, path)
            if not isinstance(got, list):
                raise ScenarioFailure(f"{where}: {one_line(path)} is not a list: {got!r}")
            if not holds(got, cards):
                raise ScenarioFailure(
                    f"{where}: expected {one_line(path)} {check.replace('_', ' ')} "
                    f"{cards!r}, got {got!r}"
                )


def _hashable(value: Any) -> Any:
    return repr(value) if isinstance(value, list | dict) else value


def _contains(got: list[Any], cards: list[Any]) -> bool:
    """Every listed card is there (as many times as listed), in any order."""
    return not Counter(map(_hashable, cards)) - Counter(map(_hashable, got))


def _lacks(got: list[Any], cards: list[Any]) -> bool:
    """None of the listed cards is there."""
    present = set(map(_hashable, got))
    return not any(_hashable(c) in present for c in cards)


def _same_set(got: list[Any], cards: list[Any]) -> bool:
    """The same cards, as many of each, in any order."""
    return Counter(map(_hashable, got)) == Counter(map(_hashable, cards))


_LIST_CHECKS: dict[str, Callable[[list[Any], list[Any]], bool]] = {
    "contains": _contains,
    "lacks": _lacks,
    "equals_set": _same_set,
}
"""A step's order-insensitive expectations on piles and rows."""


def _check_log_order(where: str, lines: list[str], wanted: list[str]) -> None:
    """Each wanted text is in a log line after the line of the one before it."""
    at = 0
    for text in wanted:
        found = next((i for i in range(at, len(lines)) if text in lines[i]), None)
        if found is None:
            earlier = any(text in line for line in lines[:at])
            why = "only before the line of the text listed before it" if earlier else "nowhere"
            raise ScenarioFailure(
                f"{where}: the log has {text!r} {why}; it says:\n" + "\n".join(lines)
            )
        at = found + 1


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
    """Lay the scenario's table: every listed pile or value replaces what
    the game held (on a clean table, nothing was there)."""
    s = g.state
    if "dragon_balls" in table.get("villain", {}):
        # The Villain's balls first: a Villain that starts with some (Raditz's
        # six) leaves the Characters' balls unclaimed until it lets them go.
        _set_balls(g, VILLAIN, table["villain"]["dragon_balls"])
    for character_id, spec in table.get("characters", {}).items():
        _lay_character(g, s.character(character_id), spec)
    if "villain" in table:
        _lay_villain(g, table["villain"])
    if "turn_deck" in table:
        s.turn_deck = list(reversed(table["turn_deck"]))
    if "revealed" in table:
        s.revealed = table["revealed"]
    for market, cards in table.get("market_decks", {}).items():
        s.markets[market].deck = [g.new_uid(c) for c in reversed(cards)]
    for market, cards in table.get("markets", {}).items():
        s.markets[market].row = [g.new_uid(c) for c in cards]
    if "sixth" in table:
        s.sixth = [g.new_uid(c) for c in reversed(table["sixth"])]
    for i, damage in enumerate(table.get("market_damage", {}).get("allies", [])):
        if damage:
            s.markets["allies"].damage[s.markets["allies"].row[i]] = damage
    if "box" in table:
        s.box = [g.new_uid(c) for c in table["box"]]
    if "eliminated" in table:
        s.eliminated = [g.new_uid(c) for c in table["eliminated"]]
        s.box += s.eliminated
    for holder, count in table.get("dragon_balls", {}).items():
        key = _holder(g, holder)
        if not combat.alive(g, key) and key is not VILLAIN:
            raise ScenarioFailure(f"dragon_balls.{_clip(holder)}: not in play")
        if count > s.balls.count(None) + s.balls.count(key):
            raise ScenarioFailure(f"dragon_balls.{_clip(holder)}: more than seven Dragon Balls")
        _set_balls(g, key, count)
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
    elif table.get("clean"):
        g._advance()  # the first turn-order card is revealed


def _lay_character(g: Game, ch: CharacterState, spec: dict[str, Any]) -> None:
    where = f"characters.{ch.id}"
    for pile in ("hand", "deck", "discard"):
        if pile in spec:
            setattr(ch, pile, [g.new_uid(c) for c in spec[pile]])
    for kind in ("allies", "equipment", "training"):
        if kind in spec:
            setattr(ch, kind, [Unit(g.new_uid(c)) for c in spec[kind]])
    if "time_track" in spec:
        ch.time_track = [
            None if c in (None, "", "-") else Prepared(g.new_uid(c)) for c in spec["time_track"]
        ]
    for field_name in ("damage", "energy", "ability_tokens", "training_energy"):
        if field_name in spec:
            setattr(ch, field_name, spec[field_name])
    for i, damage in enumerate(spec.get("ally_damage", [])):
        if i >= len(ch.allies):
            raise ScenarioFailure(
                f"{where}.ally_damage: {i + 1} values for {len(ch.allies)} Allies"
            )
        _lay_damage(g, ch.allies[i], AllyRef(ch.allies[i].uid), damage, f"{where}.ally_damage.{i}")
    _exhaust(g, ch.units(), spec.get("exhausted", []), f"{where}.exhausted")
    if "room_tokens" in spec:
        room = next(
            (u for u in ch.training if getattr(g.card(u.uid), "rule", None) == _ROOM_RULE), None
        )
        if room is None:
            raise ScenarioFailure(
                f"{where}.room_tokens: the Room of Spirit and Time is not among its Training"
            )
        ch.room_tokens, ch.room_card = spec["room_tokens"], room.uid
    if "bonuses" in spec:
        ch.bonuses = [Bonus(**b) for b in spec["bonuses"]]
    if spec.get("defeated"):
        _lay_defeat(g, ch, spec)
    if "dragon_balls" in spec:
        if not ch.in_play() and ch.room_tokens < 0 and spec["dragon_balls"]:
            raise ScenarioFailure(f"{where}.dragon_balls: a defeated Character holds none")
        _set_balls(g, CharacterRef(ch.id), spec["dragon_balls"])


def _lay_defeat(g: Game, ch: CharacterState, spec: dict[str, Any]) -> None:
    """A defeated Character keeps nothing in play (Defeated Characters): what
    the table did not list goes where a defeat sends it."""
    where = f"characters.{ch.id}"
    for name in ("allies", "equipment", "training", "time_track"):
        if spec.get(name) and any(c not in ("", "-") for c in spec[name]):
            raise ScenarioFailure(f"{where}.{name}: a defeated Character has no cards in play")
    g.state.box += [u.uid for u in ch.units()]
    ch.allies, ch.equipment, ch.training = [], [], []
    for prepared in ch.time_track:
        if prepared is not None:
            ch.discard += [prepared.uid, *prepared.boosters]
    ch.time_track = [None] * 4
    ch.defeated = True
    ch.room_tokens = -1
    key = CharacterRef(ch.id)
    g.state.balls = [None if holder is key else holder for holder in g.state.balls]
    if "damage" not in spec:
        ch.damage = rules.max_health(g, key)


def _lay_damage(g: Game, unit: Unit, key: Holder, damage: int, where: str) -> None:
    health = rules.max_health(g, key)
    if damage >= health:
        raise ScenarioFailure(
            f"{where}: {damage} damage would eliminate {g.name(unit.uid)} (Health {health})"
        )
    unit.damage = damage


def _exhaust(g: Game, units: list[Unit], cards: list[str], where: str) -> None:
    for i, card in enumerate(cards):
        unit = next((u for u in units if g.state.card_ids[u.uid] == card and not u.exhausted), None)
        if unit is None:
            raise ScenarioFailure(f"{where}.{i}: no ready {_clip(card)!r} in play")
        unit.exhausted = True


def _lay_villain(g: Game, spec: dict[str, Any]) -> None:
    v = g.state.villain
    for field_name in (
        "damage",
        "phase",
        "arrived",
        "armor_bonus",
        "damage_bonus",
        "damage_reduction_bonus",
    ):
        if field_name in spec:
            setattr(v, field_name, spec[field_name])
    if "minions" in spec:
        v.minions = [Unit(g.new_uid(c)) for c in spec["minions"]]
    for i, damage in enumerate(spec.get("minion_damage", [])):
        if i >= len(v.minions):
            raise ScenarioFailure(
                f"villain.minion_damage: {i + 1} values for {len(v.minions)} Minions"
            )
        _lay_damage(
            g, v.minions[i], MinionRef(v.minions[i].uid), damage, f"villain.minion_damage.{i}"
        )
    _exhaust(g, v.minions, spec.get("exhausted_minions", []), "villain.exhausted_minions")
    if "deck" in spec:
        v.deck = [g.new_uid(c) for c in reversed(spec["deck"])]
    if "discard" in spec:
        v.discard = [g.new_uid(c) for c in spec["discard"]]
    if "time_track" in spec:
        halves: list[Prepared] = []
        v.time_track = [[_prepared(g, c, halves) for c in slot] for slot in spec["time_track"]]
    if "enemy_damage" in spec:
        v.enemy_damage = dict(spec["enemy_damage"])
    if "defeated_enemies" in spec:
        v.defeated_enemies = list(spec["defeated_enemies"])
    if "tokens" in spec:
        # A scenario names an enemy's own counters ``armor:<enemy>``.
        v.tokens, v.enemy_tokens = split_counters(dict(spec["tokens"]))
    for name, cards in spec.get("side_decks", {}).items():
        # a list names the cards top first; a number is that many copies of the named card
        listed = [name] * cards if isinstance(cards, int) else cards
        v.side_decks[name] = [g.new_uid(c) for c in reversed(listed)]
    if "dragon_balls" in spec:
        _set_balls(g, VILLAIN, spec["dragon_balls"])
    if "aggro" in spec:
        v.aggro = _holder(g, spec["aggro"]) if spec["aggro"] else None


_ROOM_RULE = "room-of-spirit-and-time"


def clean_game(g: Game) -> Game:
    """The game's setup with an empty table: its Villain, Characters (with
    their seats and turn order), Location and turn-order cards, but no card
    anywhere, no damage, no token, no Dragon Ball held, and no turn played.
    A scenario with ``clean = true`` lays everything else itself."""
    s = g.state
    fresh = GameState(
        villain_id=s.villain_id,
        difficulty=s.difficulty,
        extreme=s.extreme,
        location=s.location,
        seed=s.seed,
        variant=s.variant,
    )
    fresh.characters = [CharacterState(c.id, c.order, c.seat) for c in s.characters]
    fresh.villain = VillainState(id=s.villain.id)
    fresh.villain.side_decks = {name: [] for name in s.villain.side_decks}
    fresh.markets = {name: MarketState() for name in s.markets}
    fresh.turn_cards = list(s.turn_cards)
    fresh.turn_deck = list(s.turn_cards)
    g.rng.shuffle(fresh.turn_deck)
    return Game(g.catalog, fresh, g.rng)


def table_leftovers(g: Game, set_up: Game, table: dict[str, Any]) -> list[str]:
    """What the game's opening turns changed on the table (``g`` against the
    same game ``set_up``, before its first turn) that the scenario's table
    does not list: it would carry over into the scenario unseen."""
    found: list[str] = []
    now, before = _leftover_fields(g), _leftover_fields(set_up)
    characters = table.get("characters", {})
    villain = table.get("villain", {})
    for path, value in now.items():
        if before.get(path) == value:
            continue
        place, *rest = path.split(".")
        if place == "characters":
            listed = characters.get(rest[0], {})
            names = {rest[1]} | _LISTED_WITH.get(rest[1], set())
        else:
            listed, names = villain, {rest[0]} | _LISTED_WITH.get(rest[0], set())
        if names & set(listed):
            continue
        found.append(
            f"table keeps {path} = {value!r} from the opening turns: list it, or set clean = true"
        )
    return found


_LISTED_WITH = {
    "ally_damage": {"allies"},
    "damage": {"defeated"},
    "minion_damage": {"minions"},
}
"""Table keys that lay a leftover field too."""


def _leftover_fields(g: Game) -> dict[str, Any]:
    """The parts of a table that turns change and a scenario may not think
    of listing, by their table path."""
    s = g.state
    ids = s.card_ids
    fields: dict[str, Any] = {}
    for ch in s.characters:
        where = f"characters.{ch.id}"
        fields[f"{where}.damage"] = ch.damage
        fields[f"{where}.time_track"] = ["" if p is None else ids[p.uid] for p in ch.time_track]
        fields[f"{where}.bonuses"] = [b.kind for b in ch.bonuses]
        fields[f"{where}.ally_damage"] = [u.damage for u in ch.allies]
        fields[f"{where}.defeated"] = ch.defeated
    v = s.villain
    fields["villain.damage"] = v.damage
    fields["villain.enemy_damage"] = {k: n for k, n in v.enemy_damage.items() if n}
    fields["villain.minions"] = sorted(ids[u.uid] for u in v.minions)
    fields["villain.minion_damage"] = [u.damage for u in v.minions]
    fields["villain.time_track"] = [[ids[p.uid] for p in slot] for slot in v.time_track]
    fields["villain.discard"] = [ids[u] for u in v.discard]
    fields["villain.tokens"] = {
        k: n for k, n in joined_counters(v.tokens, v.enemy_tokens).items() if n
    }
    return fields


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


def _set_balls(g: Game, key: Holder, count: int) -> None:
    s = g.state
    s.balls = [None if holder is key else holder for holder in s.balls]
    for i in range(7):
        if count and s.balls[i] is None:
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
            data[name] = _key(g, data[name])
    return action_from_json(data)


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
    places.append([u for m in zones.MARKETS for u in s.markets[m].row] + s.sixth[-1:])
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


def _holder(g: Game, name: str) -> Holder:
    """The holder a scenario names (``m:freezer-guard``: see ``_key``)."""
    try:
        return parse(_key(g, name))
    except HolderError as exc:
        raise KeyError(str(exc)) from None


def _holder_id(g: Game, key: Holder | None) -> str:
    """A holder with card ids for instances (``a:mai-ally``), ``""`` for none."""
    match key:
        case None:
            return ""
        case AllyRef(uid):
            return f"a:{g.state.card_ids[uid]}"
        case MinionRef(uid):
            return f"m:{g.state.card_ids[uid]}"
    return key.key


def table_view(g: Game) -> dict[str, Any]:
    """The table with card ids instead of instance numbers, for expectations."""
    s = g.state
    ids = s.card_ids

    def units(items: list[Unit]) -> list[str]:
        return [ids[u.uid] for u in items]

    balls: dict[str, int] = {"v": 0, "unclaimed": 0, **{f"c:{c.id}": 0 for c in s.characters}}
    for holder in s.balls:
        name = _holder_id(g, holder) or "unclaimed"
        balls[name] = balls.get(name, 0) + 1
    return {
        "characters": {
            ch.id: {
                "damage": ch.damage,
                "defeated": ch.defeated,
                "max_health": rules.max_health(g, CharacterRef(ch.id)),
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
                "armor": rules.armor(g, CharacterRef(ch.id)),
                "bonuses": [_bonus(b) for b in ch.bonuses],
            }
            for ch in s.characters
        },
        "villain": {
            "damage": s.villain.damage,
            "phase": s.villain.phase,
            "arrived": s.villain.arrived,
            "max_health": {k.key: rules.max_health(g, k) for k in _villain_keys(g)},
            "armor": {k.key: rules.armor(g, k) for k in _villain_keys(g)},
            "minions": units(s.villain.minions),
            "minion_damage": [u.damage for u in s.villain.minions],
            "exhausted_minions": [ids[u.uid] for u in s.villain.minions if u.exhausted],
            "time_track": [[ids[p.uid] for p in slot] for slot in s.villain.time_track],
            "time_track_owners": [[p.owner for p in slot] for slot in s.villain.time_track],
            "tokens": joined_counters(s.villain.tokens, s.villain.enemy_tokens),
            "deck_size": len(s.villain.deck),
            "enemy_damage": dict(s.villain.enemy_damage),
            "defeated_enemies": list(s.villain.defeated_enemies),
            "side_decks": {
                k: [ids[u] for u in reversed(d)] for k, d in s.villain.side_decks.items()
            },
            "deck": [ids[u] for u in reversed(s.villain.deck)],
            "discard": [ids[u] for u in s.villain.discard],
            "aggro": _holder_id(g, s.villain.aggro),
            "bonuses": {
                "armor": s.villain.armor_bonus,
                "damage": s.villain.damage_bonus,
                "damage_reduction": s.villain.damage_reduction_bonus,
            },
        },
        "markets": {m: [ids[u] for u in s.markets[m].row] for m in s.markets},
        "market_decks": {m: len(s.markets[m].deck) for m in s.markets},
        "market_bottom": {m: ids[d[0]] if (d := s.markets[m].deck) else "" for m in s.markets},
        "sixth": [ids[u] for u in reversed(s.sixth)],
        "market_damage": {
            "allies": [rules.damage_of(g, MarketAllyRef(u)) for u in s.markets["allies"].row]
        },
        "round": s.round,
        "location": s.location or "",
        "balls": balls,
        "winner": s.winner,
        "reason": s.reason,
        "active": s.active,
        "step": s.step,
        "pending": "" if s.pending is None else s.pending.kind,
        "options": [] if s.pending is None else [o.label for o in s.pending.options],
        "grim": [] if s.pending is None else [o.label for o in s.pending.options if o.grim],
        "turn_deck": sorted(s.turn_deck + s.turn_discard),
        "turn_phase": turn_phase(g),
        "box": [ids[u] for u in s.box],
        "eliminated": [ids[u] for u in s.eliminated],
    }


def _bonus(b: Bonus) -> dict[str, Any]:
    shown: dict[str, Any] = {"kind": b.kind, "amount": b.amount, "duration": b.duration}
    if b.attack is not None:
        shown["attack"] = b.attack
    return shown


# Each step of a turn names the step after it before its own work is done,
# so a game stopped in a step's decision shows the next step's name.
_PHASE_BEFORE_STEP = {
    "char_start": "turn-order",
    "char_energy": "start",
    "char_main_enter": "energy",
    "char_end": "end",
    "reveal": "turn-order",
    "villain_start": "turn-order",
    "villain_energy": "villain-start",
    "villain_balls": "villain-energy",
    "villain_minions": "villain-dragon-balls",
    "villain_reveal": "villain-minions",
    "villain_ready": "villain-activation",
}


def turn_phase(g: Game) -> str:
    """The phase of the turn the game is in, in the rulebook's order:
    ``start``, ``energy``, ``market-discard``, ``dragon-balls``, ``actions``,
    ``end`` for a Character; ``villain-start``, ``villain-energy``,
    ``villain-dragon-balls``, ``villain-minions``, ``villain-activation`` for
    the Villain; ``turn-order`` between turns; ``over`` once the game ends."""
    s = g.state
    if s.winner:
        return "over"
    if s.step == "char_main":
        ch = s.character(s.active)
        if ch.acted:
            return "actions"
        return "dragon-balls" if ch.market_discarded or ch.balls_given else "market-discard"
    in_room = s.active not in ("", "villain") and s.character(s.active).room_tokens >= 0
    if s.step == "char_end" and in_room and s.pending is not None:
        return "start"  # the Room's stay-or-leave comes at the start of the turn
    return _PHASE_BEFORE_STEP.get(s.step, s.step)


def _villain_keys(g: Game) -> list[Holder]:
    """The Villain, or each of its enemies."""
    enemies = g.villain_card().enemies
    return [EnemyRef(e) for e in enemies] or [VILLAIN]


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
_Market = Annotated[str, _one_of("market", zones.MARKETS)]
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
    picks: list[_AnyCard] | None = None
    shuffles: list[list[str]] | None = None


_BONUS_KINDS = (
    "armor",
    "damage-reduction",
    "max-health",
    "damage",
    "hand-size",
    "extra-dragon-ball",
    *(f"cost:{m}" for m in (*zones.MARKETS, "dragon-ball", "sixth", "any")),
)


class _BonusSpec(_Spec):
    kind: Annotated[str, _one_of("bonus", _BONUS_KINDS)]
    amount: _Signed
    duration: Duration
    attack: Annotated[str, _one_of("attack kind", ("physical", "energy"))] | None = None


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
    defeated: bool | None = None
    ally_damage: list[_Count] | None = None
    exhausted: list[_PlayerCard] | None = None
    room_tokens: Annotated[int, Field(ge=1, le=4)] | None = None


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
    minion_damage: list[_Count] | None = None
    exhausted_minions: list[Annotated[str, _card("minion")]] | None = None
    discard: list[Annotated[str, _card(*_VILLAIN_DECK_TYPES)]] | None = None
    armor_bonus: _Signed | None = None
    damage_bonus: _Signed | None = None
    damage_reduction_bonus: _Signed | None = None


class _MarketDamageSpec(_Spec):
    allies: list[_Count] | None = None


class _TableSpec(_Spec):
    clean: bool | None = None
    active: str | None = None
    turn_deck: list[str] | None = None
    revealed: str | None = None
    characters: dict[str, _CharacterSpec] | None = None
    villain: _VillainSpec | None = None
    markets: dict[_Market, list[_PlayerCard]] | None = None
    market_decks: dict[_Market, list[_PlayerCard]] | None = None
    market_damage: _MarketDamageSpec | None = None
    sixth: list[Annotated[str, _card("concentrated-energy")]] | None = None
    box: list[_AnyCard] | None = None
    eliminated: list[Annotated[str, _card("ally")]] | None = None
    dragon_balls: dict[str, _Balls] | None = None


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
    picks: list[_AnyCard] | None = None
    shuffles: list[list[str]] | None = None
    action: _ActionSpec | None = None
    expect_error: str | None = None
    expect_log: list[str] | None = None
    expect_log_order: list[str] | None = None
    expect: dict[str, Any] | None = None
    contains: dict[str, list[Any]] | None = None
    lacks: dict[str, list[Any]] | None = None
    equals_set: dict[str, list[Any]] | None = None


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
        more = len(errors) - 1
        text += f" (and {more} more problem{'' if more == 1 else 's'})"
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
    phases = g.villain_card().phases
    if villain.get("phase", 1) > phases:
        fail("villain.phase", f"{g.villain_card().name} has {phases} phase(s)")
    aggro = villain.get("aggro", "")
    holder = aggro[2:]
    if aggro and not (
        (aggro.startswith("c:") and holder in ids)
        or (aggro[:2] in ("a:", "m:") and holder in g.catalog and not holder.isdigit())
    ):
        fail("villain.aggro", f"{_clip(aggro)!r} is not c:CHARACTER, a:ALLY or m:MINION")
    markets = table.get("markets", {})
    if table.get("clean") and not (
        markets.get("allies") or table.get("market_decks", {}).get("allies")
    ):
        fail(
            "markets.allies",
            "a clean table needs Allies in the Ally Market: an empty one ends the game",
        )
    row = markets.get("allies", s.markets["allies"].row)
    damage = table.get("market_damage", {}).get("allies", [])
    if len(damage) > len(row):
        fail("market_damage.allies", f"{len(damage)} values for {len(row)} Allies in the row")
