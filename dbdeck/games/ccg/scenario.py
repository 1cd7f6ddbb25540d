"""The CCG's scenario files: a table set up from two decks, laid out by
hand, then actions and what must hold after each.

```toml
game = "ccg"
name = "An energy attack costs 2 stages and deals 4 life cards"
rulebook = "seed 003, Energy Attacks 1"

[setup]
decks = ["goku", "raditz"]          # shipped decks (cards/ccg/decks), or deck texts
players = ["John", "Sandra"]
seed = 1                            # profile, adjudication: as the setup file
packs = ["pack"]                    # CCG pack folders beside the scenario file
# attack_table = {attacker_up_to = [...], defender_up_to = [...], damage = [[...]]}
#                                   # a Physical Attack Table (else a pack's, if any)

[table.p1]                           # lay a side: p1 (seat 0) or p2 (seat 1)
extra = ["Test Plateau"]             # cards added to the Life Deck (a pack's: setup.packs)
sensei_deck = ["Test Gokuhan Level 1"]   # cards added to the Sensei Deck, face down
top = ["Senzu Bean"]                 # these cards of the Life Deck go on top, in order
hand = ["Mother's Touch"]            # from the Life Deck into the hand
dragon_balls = ["Earth Dragon Ball 3"]   # from the Life Deck into play
only_dragon_balls = true             # every other Life Deck card is removed from the game
stages = 2                           # anger, level (the stack's index from 1)

[[steps]]
action = {kind = "attack", seat = 0, attack = "energy"}
expect = {"p1.stages" = 0, "combat.phase" = "defend"}
expect_log = ["makes an energy attack"]
refused = "cannot be performed"      # instead: the action is refused, with these words
```

An action names cards by title: the acting seat's hand first, then its
cards in play, then the other side's cards in play, then its Sensei Deck,
its Main Personality's cards, its Mastery and Sensei, and its Life Deck.
A step's ``expect_log`` reads the lines its action added; the first step's
reads the setup's lines too (who goes first, the starting stages), so a
first step without an action checks them.
The facts a step checks: ``turn``, ``active``, ``step``, ``winner``,
``result``, ``suggestion``, ``combat.*`` (``phase``, ``passes``,
``acting``) and for each of ``p1``, ``p2``: ``stages``, ``anger``,
``level``, ``life_deck`` (its count), ``life_top``, ``life_bottom``, and the
titles of ``hand``, ``discard``, ``removed``, ``non_combat``, ``drills``,
``allies`` (and ``ally_stages``), ``dragon_balls``, ``location`` (one
title or ``""``), ``sensei_deck``, ``fusion`` (the Fusion personality in
play, or ``""``), ``fused`` (its components) and ``timer`` (how many timer
cards lie beneath the anger counter).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from dbdeck.games.ccg.facts import facts_of
from dbdeck.games.ccg.library import Library, load_library, shipped_ccg_dir
from dbdeck.games.ccg.match import CcgMatch, CcgRules
from dbdeck.games.ccg.profiles import profile as profile_named
from dbdeck.games.ccg.table.setup import table_card
from dbdeck.games.ccg.table.state import Side, TableState
from dbdeck.games.ccg.table.zones import put, take
from dbdeck.packs.reading import CardSetError, one_line
from dbdeck.scenarios.expectations import check_facts, check_log
from dbdeck.scenarios.outcome import GameUnavailable, Outcome, ScenarioFailure
from dbdeck.tabletop.game import IllegalMove, SetupProblem

__all__ = ["CcgScenarioRunner", "ScenarioFile", "scenario_runner"]

_Title = Annotated[str, Field(min_length=1, max_length=120)]
_Titles = Annotated[list[_Title], Field(max_length=90)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Layout(_Strict):
    """How one side is laid out before the first step."""

    extra: _Titles = []
    """Cards added to the Life Deck, by title."""
    sensei_deck: _Titles = []
    """Cards added to the Sensei Deck, by title (face down, as at setup)."""
    top: _Titles = []
    """Cards of the Life Deck put on top, in order."""
    hand: _Titles = []
    """Cards of the Life Deck put into the hand."""
    dragon_balls: _Titles = []
    """Cards of the Life Deck put in play as Dragon Balls."""
    only_dragon_balls: bool = False
    """Every other card of the Life Deck is removed from the game."""
    stages: Annotated[int, Field(ge=0, le=30)] | None = None
    anger: Annotated[int, Field(ge=0, le=5)] | None = None
    level: Annotated[int, Field(ge=1, le=9)] | None = None


class Step(_Strict):
    """One step: an action (or none), and what must hold after it."""

    action: dict[str, Any] | None = None
    expect: dict[Annotated[str, Field(max_length=80)], Any] = {}
    expect_log: Annotated[list[Annotated[str, Field(max_length=300)]], Field(max_length=50)] = []
    expect_log_order: Annotated[
        list[Annotated[str, Field(max_length=300)]], Field(max_length=50)
    ] = []
    refused: Annotated[str, Field(max_length=300)] | None = None
    contains: dict[str, list[Any]] = {}
    lacks: dict[str, list[Any]] = {}


class ScenarioFile(_Strict):
    """A CCG scenario file (the ``game`` key taken off)."""

    name: Annotated[str, Field(max_length=300)] = ""
    rulebook: Annotated[str, Field(min_length=1, max_length=2000)]
    """The passage the scenario pins."""
    setup: dict[str, Any]
    table: dict[Literal["p1", "p2"], Layout] = {}
    steps: Annotated[list[Step], Field(min_length=1, max_length=500)]


def _checked(data: dict[str, Any]) -> ScenarioFile:
    try:
        return ScenarioFile.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the file"
        raise ScenarioFailure(one_line(f"{where}: {first['msg']}")) from None


ROLES = ("p1", "p2")
_CARD_FIELDS = (
    "card",
    "source",
    "discard",
    "keep",
    "ball",
    "over",
    "recipient",
    "personality",
    "fusion",
    "ally",
    "partner",
)


def scenario_runner() -> CcgScenarioRunner:
    """The runner ``dbdeck.games.SCENARIO_RUNNERS`` names."""
    try:
        return CcgScenarioRunner(load_library(include_env_packs=False))
    except Exception as exc:  # the shipped data does not load: no scenario can run
        raise GameUnavailable(f"the CCG's card data does not load: {exc}") from None


class CcgScenarioRunner:
    """Runs the CCG's scenario files."""

    def __init__(self, library: Library) -> None:
        self.rules = CcgRules(library)
        self.shipped = self.rules
        self._with_packs: dict[tuple[Path, ...], CcgRules] = {}

    def run(self, data: dict[str, Any], file: str) -> Outcome:
        """Check the file's shape, set up, lay out, then play and check each step."""
        scenario = _checked(data)
        self.rules = self._rules_for(scenario.setup, file)
        match = self._new(scenario.setup)
        for role, layout in scenario.table.items():
            _lay_side(match.state, match.state.side(ROLES.index(role)), role, layout, self.rules)
        # The first step's log starts with the setup's lines (who goes first,
        # the starting stages), so a step with no action can check them.
        start = 0
        for number, step in enumerate(scenario.steps, 1):
            self._step(match, step, f"step {number}", start)
            start = len(match.state.log)
        return Outcome(file, one_line(scenario.name or file), len(scenario.steps))

    def _rules_for(self, setup: Any, file: str) -> CcgRules:
        """The shipped data, with the packs a scenario names beside it."""
        packs = setup.get("packs", []) if isinstance(setup, dict) else []
        if not packs:
            return self.shipped
        if not isinstance(packs, list) or not all(isinstance(p, str) for p in packs):
            raise ScenarioFailure("setup.packs: folders beside the scenario file")
        folders = tuple((Path(file).parent / p).resolve() for p in packs)
        if folders not in self._with_packs:
            try:
                library = load_library(folders, include_env_packs=False)
            except CardSetError as exc:
                raise ScenarioFailure(f"setup.packs: {one_line(str(exc))}") from None
            self._with_packs[folders] = CcgRules(library)
        return self._with_packs[folders]

    def _new(self, setup: Any) -> CcgMatch:
        if not isinstance(setup, dict):
            raise ScenarioFailure("setup: a table of decks, players, seed …")
        fields = {k: v for k, v in setup.items() if k != "packs"}
        decks = fields.get("decks", ["goku", "raditz"])
        if not isinstance(decks, list) or len(decks) != 2:
            raise ScenarioFailure("setup.decks: two decks")
        fields["decks"] = [_deck_text(d) for d in decks]
        fields.setdefault("players", ["John", "Sandra"])
        table = self.rules.library.attack_table
        if table is not None and "attack_table" not in fields:
            # A pack's Physical Attack Table sits at the table, as with --pack.
            fields["attack_table"] = table.to_json()
        try:
            # Set up as a new table is: the cards' facts recorded (T10).
            return self.rules.new(self.rules.record_facts(self.rules.read_setup(fields)))
        except SetupProblem as exc:
            raise ScenarioFailure(str(exc)) from None

    def _step(self, match: CcgMatch, step: Step, where: str, start: int) -> None:
        if step.action is not None:
            action = self._action(match.state, step.action, where)
            if step.refused is not None:
                reason = match.check(action)
                if reason is None:
                    raise ScenarioFailure(
                        f"{where}: expected a refusal ({step.refused!r}); accepted"
                    )
                if step.refused not in reason:
                    raise ScenarioFailure(f"{where}: refused, but for {reason!r}")
            else:
                try:
                    match.apply(action)
                except IllegalMove as exc:
                    raise ScenarioFailure(f"{where}: refused: {exc.reason}") from None
        lines = [entry.text for entry in match.state.log[start:]]
        check_log(where, lines, step.expect_log, step.expect_log_order)
        lists = {"contains": step.contains, "lacks": step.lacks}
        check_facts(where, facts(match.state), step.expect, lists)

    def _action(self, state: TableState, data: Any, where: str) -> Any:
        if not isinstance(data, dict):
            raise ScenarioFailure(f"{where}: action: a table with kind and seat")
        fields = dict(data)
        seat = fields.get("seat")
        if seat not in (0, 1):
            raise ScenarioFailure(f"{where}: action.seat: 0 or 1")
        for name in _CARD_FIELDS:
            if isinstance(fields.get(name), str):
                fields[name] = _find(state, seat, fields[name], where)
        if fields.get("kind") == "attach" and isinstance(fields.get("to"), str):
            fields["to"] = _find(state, seat, fields["to"], where)
        if isinstance(fields.get("cards"), list):
            fields["cards"] = [
                _find(state, seat, c, where, but=fields["cards"][:i]) if isinstance(c, str) else c
                for i, c in enumerate(fields["cards"])
            ]
        try:
            return self.rules.read_action(fields)
        except ValueError as exc:
            raise ScenarioFailure(f"{where}: {exc}") from None


def _deck_text(deck: Any) -> str:
    if not isinstance(deck, str):
        raise ScenarioFailure("setup.decks: a shipped deck's name or a deck's text")
    if "\n" in deck:
        return deck
    path = shipped_ccg_dir() / "decks" / f"{deck}.txt"
    if not path.is_file():
        raise ScenarioFailure(f"setup.decks: no shipped deck {deck!r}")
    return path.read_text(encoding="utf-8")


def _add_card(
    state: TableState, side: Side, title: str, role: str, rules: CcgRules, key: str = "extra"
) -> None:
    """A card added to the Life Deck (or the Sensei Deck), as the library
    knows it."""
    found = rules.library.find(title)
    if not found:
        raise ScenarioFailure(f"table.{role}.{key}: the library has no card {title!r}")
    facts = facts_of(found[0], profile_named(state.profile), rules.library)
    uid = max(state.cards) + 1
    state.cards[uid] = table_card(uid, side.seat, facts)
    state.cards[uid].face_up = False
    (side.sensei_deck if key == "sensei_deck" else side.life_deck).append(uid)


def _pull(state: TableState, side: Side, title: str, role: str) -> int:
    uid = next((u for u in side.life_deck if state.cards[u].title == title), None)
    if uid is None:
        raise ScenarioFailure(f"table.{role}: no {title!r} in the Life Deck")
    return uid


def _lay_side(state: TableState, side: Side, role: str, layout: Layout, rules: CcgRules) -> None:
    for title in layout.extra:
        _add_card(state, side, title, role, rules)
    for title in layout.sensei_deck:
        _add_card(state, side, title, role, rules, "sensei_deck")
    for title in layout.hand:
        uid = _pull(state, side, title, role)
        take(state, uid)
        put(state, uid, side.seat, "hand")
    for title in layout.dragon_balls:
        uid = _pull(state, side, title, role)
        take(state, uid)
        put(state, uid, side.seat, "dragon-balls")
    top = [_pull_distinct(state, side, t, role, i, layout.top) for i, t in enumerate(layout.top)]
    side.life_deck[:] = top + [u for u in side.life_deck if u not in top]
    if layout.only_dragon_balls:
        for uid in [u for u in side.life_deck if state.cards[u].dragon_ball is None]:
            take(state, uid)
            put(state, uid, side.seat, "removed")
    if layout.level is not None:
        if layout.level > len(side.levels):
            raise ScenarioFailure(f"table.{role}.level: 1 to {len(side.levels)}")
        side.level_index = layout.level - 1
    if layout.stages is not None:
        side.stages = layout.stages
    if layout.anger is not None:
        side.anger = layout.anger


def _pull_distinct(
    state: TableState, side: Side, title: str, role: str, index: int, titles: list[str]
) -> int:
    """The ``index``-th card of ``titles``: copies of one title are
    different cards."""
    before = titles[:index].count(title)
    found = [u for u in side.life_deck if state.cards[u].title == title]
    if len(found) <= before:
        raise ScenarioFailure(f"table.{role}.top: not {before + 1} {title!r} in the Life Deck")
    return found[before]


def _find(state: TableState, seat: int, title: str, where: str, but: Sequence[Any] = ()) -> int:
    mine, theirs = state.side(seat), state.side(1 - seat)
    for zone in (
        mine.hand,
        mine.allies,
        mine.non_combat,
        mine.drills,
        mine.dragon_balls,
        theirs.dragon_balls,
        theirs.allies,
        mine.sensei_deck,
        mine.levels,
        [u for u in (mine.mastery, mine.sensei) if u is not None],
        mine.life_deck,
        mine.discard,
    ):
        for uid in zone:
            if state.cards[uid].title == title and uid not in but:
                return uid
    raise ScenarioFailure(f"{where}: no card {title!r} the action can name")


def facts(state: TableState) -> dict[str, Any]:
    """The facts a scenario's step checks."""
    out: dict[str, Any] = {
        "turn": state.turn,
        "active": state.active,
        "step": state.step,
        "winner": state.winner,
        "result": state.result,
        "suggestion": state.suggestion,
        "combat": {
            "phase": state.combat.phase if state.combat else "",
            "passes": state.combat.passes if state.combat else 0,
            "acting": state.combat.acting if state.combat else None,
        },
    }

    def titles(uids: list[int]) -> list[str]:
        return [state.cards[u].title for u in uids]

    for side in state.sides:
        location = state.location
        out[ROLES[side.seat]] = {
            "stages": side.stages,
            "anger": side.anger,
            "level": state.cards[side.main].level,
            "life_deck": len(side.life_deck),
            "life_top": state.cards[side.life_deck[0]].title if side.life_deck else "",
            "life_bottom": state.cards[side.life_deck[-1]].title if side.life_deck else "",
            "hand": titles(side.hand),
            "discard": titles(side.discard),
            "removed": titles(side.removed),
            "non_combat": titles(side.non_combat),
            "drills": titles(side.drills),
            "allies": titles(side.allies),
            "ally_stages": [state.cards[u].stages for u in side.allies],
            "dragon_balls": titles(side.dragon_balls),
            "location": state.cards[location].title
            if location is not None and state.cards[location].owner == side.seat
            else "",
            "sensei_deck": titles(side.sensei_deck),
            "fusion": state.cards[side.fusion].title if side.fusion is not None else "",
            "fused": titles(side.fused),
            "timer": len(side.timer),
        }
    return out
