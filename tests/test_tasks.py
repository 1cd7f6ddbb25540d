"""Typed tasks and decisions: every kind's JSON round trip, the JSON form
saves have always held, and games saved or cloned mid-decision going on
exactly as the original."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from golden_games import TABLES

from dbdeck.games.deckbuilding.bots import BOTS
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.actions import Choose
from dbdeck.games.deckbuilding.engine.attacks import (
    AttackUsed,
    Fire,
    HealTechnique,
    Room,
    Used,
    VillainAttack,
    Wish,
)
from dbdeck.games.deckbuilding.engine.combat import Damage, Death, MinionActivates, Steal
from dbdeck.games.deckbuilding.engine.context import EffectContext
from dbdeck.games.deckbuilding.engine.effects import Op, Ops
from dbdeck.games.deckbuilding.engine.flow import Order, OrderItem, Wildcard
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.holders import MarketAllyRef, parse
from dbdeck.games.deckbuilding.engine.state import Decision, Option, state_from_data, to_data
from dbdeck.games.deckbuilding.engine.tasks import (
    KINDS,
    Task,
    TaskError,
    VillainTask,
    villain_rules,
)
from dbdeck.games.deckbuilding.engine.villains.androids_17_18 import (
    Android18Wishes,
    StepIn,
    WishEliminates,
)
from dbdeck.games.deckbuilding.engine.villains.androids_19_20 import (
    Absorb,
    AndroidActivation,
    Regeneration,
)
from dbdeck.games.deckbuilding.engine.villains.broly import FuriousRage
from dbdeck.games.deckbuilding.engine.villains.raditz import VictimRoll
from dbdeck.games.deckbuilding.engine.villains.vegeta_nappa import SaiyanActs
from dbdeck.games.deckbuilding.scenario import run_file, steps
from dbdeck.games.deckbuilding.scenario.models import StepSpec

CTX = {"actor": "c:goku", "source": 12, "target": "v", "combo": True}
"""An effect's context as JSON; inside the engine its holders are references."""
LIVE_CTX = EffectContext(parse("c:goku"), 12, target=parse("v"), combo=True)

EXAMPLES: list[tuple[Task, dict[str, Any]]] = [
    # Each task with the JSON saves have always held for it.
    (
        Ops("goku", "effects", 1, LIVE_CTX),
        {"t": "ops", "card": "goku", "path": "effects", "i": 1, "ctx": CTX},
    ),
    (
        Op("goku", "effects", 0, LIVE_CTX),
        {"t": "op", "card": "goku", "path": "effects", "i": 0, "ctx": CTX},
    ),
    (
        Op("goku", "effects", 2, LIVE_CTX, left=2, choice=7),
        {"t": "op", "card": "goku", "path": "effects", "i": 2, "ctx": CTX, "left": 2, "choice": 7},
    ),
    # A card's Damage operation names its attack type, even none.
    (
        Damage(parse("v"), parse("c:goku"), 3, "basic", None, is_attack=False, names_attack=True),
        {
            "t": "damage",
            "source": "v",
            "target": "c:goku",
            "amount": 3,
            "kind": "basic",
            "attack": None,
            "is_attack": False,
        },
    ),
    # Android 16 strikes back: no attack type at all.
    (
        Damage(parse("m:4"), parse("c:goku"), 1, "unavoidable", is_attack=False),
        {
            "t": "damage",
            "source": "m:4",
            "target": "c:goku",
            "amount": 1,
            "kind": "unavoidable",
            "is_attack": False,
        },
    ),
    # An Eliminate: no Block.
    (
        Damage(parse("v"), parse("a:9"), 8, block=False),
        {
            "t": "damage",
            "source": "v",
            "target": "a:9",
            "amount": 8,
            "kind": "basic",
            "is_attack": True,
            "block": False,
        },
    ),
    # A Technique's damage, with a Block answered.
    (
        Damage(parse("c:goku"), parse("v"), 5, "piercing", "physical", technique=True, choice=1),
        {
            "t": "damage",
            "source": "c:goku",
            "target": "v",
            "amount": 5,
            "kind": "piercing",
            "attack": "physical",
            "is_attack": True,
            "technique": True,
            "choice": 1,
        },
    ),
    (Death("goku"), {"t": "death", "character": "goku"}),
    (MinionActivates(31), {"t": "minion", "uid": 31}),
    (Steal("goku", 2), {"t": "steal", "character": "goku", "dice": 2}),
    (Steal("goku", 3, parse("m:5")), {"t": "steal", "character": "goku", "dice": 3, "from": "m:5"}),
    (HealTechnique(parse("c:goku"), 4), {"t": "heal-technique", "target": "c:goku", "amount": 4}),
    (
        Fire("goku", 40, [41, 42]),
        {"t": "fire", "character": "goku", "uid": 40, "boosters": [41, 42]},
    ),
    (
        Fire("goku", 40, [], choice=parse("m:3")),
        {"t": "fire", "character": "goku", "uid": 40, "boosters": [], "choice": "m:3"},
    ),
    (Used("goku", [40, 41]), {"t": "used", "character": "goku", "uids": [40, 41]}),
    (AttackUsed(50), {"t": "attack-used", "uid": 50}),
    (Wish(), {"t": "wish"}),
    (
        Wish({"wish": "heal", "key": parse("c:goku")}),
        {"t": "wish", "choice": {"wish": "heal", "key": "c:goku"}},
    ),
    (Room("goku"), {"t": "room", "character": "goku"}),
    (Room("goku", "stay"), {"t": "room", "character": "goku", "choice": "stay"}),
    # A Villain attack at each stage, and from each origin.
    (VillainAttack(50, "", None), {"t": "vattack", "uid": 50, "owner": "", "half": None}),
    (
        VillainAttack(50, "nappa", origin="prepared"),
        {"t": "vattack", "uid": 50, "owner": "nappa", "prepared": True},
    ),
    (
        VillainAttack(50, "", origin="chosen", stage="clash", targets=[parse("c:goku")]),
        {"t": "vattack", "uid": 50, "owner": "", "targets": ["c:goku"]},
    ),
    (
        VillainAttack(50, "", 1, choice=parse("a:3")),
        {"t": "vattack", "uid": 50, "owner": "", "half": 1, "choice": "a:3"},
    ),
    (
        VillainAttack(
            50,
            "",
            None,
            stage="clash-offered",
            targets=[parse("c:goku")],
            controversy=True,
            precedence="card",
            choice="decline",
        ),
        {
            "t": "vattack",
            "uid": 50,
            "owner": "",
            "half": None,
            "controversy": True,
            "precedence": "card",
            "targets": ["c:goku"],
            "clash_offered": True,
            "choice": "decline",
        },
    ),
    (Wildcard(), {"t": "wildcard"}),
    (Wildcard("goku"), {"t": "wildcard", "choice": "goku"}),
    (
        Order(
            "players",
            [OrderItem("Guard", MinionActivates(3)), OrderItem("Raditz", VictimRoll())],
            "Which first?",
            choice=1,
        ),
        {
            "t": "order",
            "decider": "players",
            "items": [
                {"label": "Guard", "task": {"t": "minion", "uid": 3}},
                {"label": "Raditz", "task": {"t": "villain", "rule": "victim"}},
            ],
            "prompt": "Which first?",
            "choice": 1,
        },
    ),
    (
        SaiyanActs(60, "vegeta", None),
        {"t": "vegeta-nappa", "uid": 60, "enemy": "vegeta", "half": None},
    ),
    (SaiyanActs(60, "nappa", 0), {"t": "vegeta-nappa", "uid": 60, "enemy": "nappa", "half": 0}),
    (
        StepIn(MarketAllyRef(7), parse("e:android-17")),
        {"t": "villain", "do": "step-in", "key": "market:7", "source": "e:android-17"},
    ),
    (
        StepIn(MarketAllyRef(7), parse("v"), ""),
        {"t": "villain", "do": "step-in", "key": "market:7", "source": "v", "choice": ""},
    ),
    (Android18Wishes(), {"t": "villain", "do": "wish"}),
    (
        WishEliminates([7, 8], 2, parse("market:8")),
        {"t": "villain", "do": "wish-eliminate", "row": [7, 8], "left": 2, "choice": "market:8"},
    ),
    (FuriousRage(), {"t": "villain", "do": "furious-rage"}),
    (VictimRoll(), {"t": "villain", "rule": "victim"}),
    (AndroidActivation(), {"t": "villain", "rule": "activation"}),
    (Absorb("android-20"), {"t": "villain", "rule": "absorb", "enemy": "android-20"}),
    (Regeneration(), {"t": "villain", "rule": "regeneration"}),
]


def _key(data: dict[str, Any]) -> tuple[str, ...]:
    if data["t"] != "villain":
        return (data["t"],)
    rule = "do" if "do" in data else "rule"
    return ("villain", rule, data[rule])


def test_every_task_kind_has_an_example() -> None:
    covered = {_key(data) for _, data in EXAMPLES}
    kinds: set[tuple[str, ...]] = {(k,) for k in KINDS if k != "villain"}
    kinds |= {("villain", key, rule) for key, rule in villain_rules()}
    assert covered == kinds


@pytest.mark.parametrize(("task", "data"), EXAMPLES, ids=lambda x: type(x).__name__)
def test_a_task_writes_the_json_saves_have_always_held(task: Task, data: dict[str, Any]) -> None:
    # Key order counts: fingerprints and saves are JSON text.
    assert json.dumps(task.to_json()) == json.dumps(data)


@pytest.mark.parametrize(("task", "data"), EXAMPLES, ids=lambda x: type(x).__name__)
def test_a_task_reads_back_equal(task: Task, data: dict[str, Any]) -> None:
    back = Task.from_json(json.loads(json.dumps(task.to_json())))
    assert type(back) is type(task)
    assert back == task
    assert back.to_json() == task.to_json()


@pytest.mark.parametrize(("task", "data"), EXAMPLES, ids=lambda x: type(x).__name__)
def test_a_copied_task_is_equal_and_shares_nothing(task: Task, data: dict[str, Any]) -> None:
    twin = copy.deepcopy(task)
    assert twin == task and twin is not task
    for name in task.__dataclass_fields__:  # type: ignore[attr-defined]
        value = getattr(task, name)
        if isinstance(value, list | dict | Task):
            assert getattr(twin, name) is not value, name


def test_reading_a_task_shares_nothing_with_its_data() -> None:
    data = {"t": "used", "character": "goku", "uids": [1, 2]}
    task = Task.from_json(data)
    assert isinstance(task, Used)
    task.uids.append(3)
    assert data["uids"] == [1, 2]


@pytest.mark.parametrize(
    "data",
    [
        {"t": "no-such-task"},
        {"uid": 3},
        {"t": "villain", "do": "no-such-rule"},
        {"t": "villain"},
        {"t": "damage", "source": "v"},
        {"t": "order", "decider": "players", "prompt": "?"},
        [1, 2],
    ],
)
def test_data_that_is_no_task_is_refused(data: Any) -> None:
    with pytest.raises(TaskError):
        Task.from_json(data)


def test_villain_tasks_are_villain_kinds() -> None:
    for (key, rule), kind in villain_rules().items():
        assert issubclass(kind, VillainTask) and kind.tag == "villain"
        assert kind.dialect == (key, rule)


def test_a_villain_attack_past_its_aim_needs_targets() -> None:
    with pytest.raises(TaskError):
        VillainAttack(50, stage="clash")


def test_a_decision_writes_its_old_form_without_its_task() -> None:
    task = Wildcard()
    decision = Decision(
        "target",
        "players",
        "Who?",
        [
            Option("Goku", "c:goku"),
            Option("Raditz's Choice", "raditz-choice", grim=False),
            Option("Krillin steps in", "c:krillin", damage=6),
            Option("Nobody", "", grim=True),
        ],
        task,
    )
    data = to_data(decision)
    assert data == {
        "kind": "target",
        "decider": "players",
        "prompt": "Who?",
        "options": [
            {"label": "Goku", "value": "c:goku"},
            {"label": "Raditz's Choice", "value": "raditz-choice", "grim": False},
            {"label": "Krillin steps in", "value": "c:krillin", "damage": 6},
            {"label": "Nobody", "value": "", "grim": True},
        ],
    }
    assert Decision.from_json(data, task) == decision


# --- games saved and cloned while a decision waits ------------------------------------------


def _games_at_decisions(catalog: Catalog, per_kind: int = 3) -> list[tuple[str, Game]]:
    """Seeded bot games stopped at pending decisions, a few of each kind
    (the question's and the waiting task's)."""
    found: list[tuple[str, Game]] = []
    kinds: dict[tuple[str, str], int] = {}
    for table in TABLES:
        for bot_name in ("greedy", "random"):
            game = Game.new(catalog, Setup(**{**table.setup.to_json(), "seed": 5}))
            rng = random.Random(5)
            bot = BOTS[bot_name]
            for _ in range(250):
                if game.over:
                    break
                pending = game.state.pending
                kind = ("", "") if pending is None else (pending.kind, type(pending.task).__name__)
                if pending is not None and kinds.get(kind, 0) < per_kind:
                    kinds[kind] = kinds.get(kind, 0) + 1
                    found.append((f"{table.name}/{bot_name}/{pending.kind}", game.clone()))
                game.apply(bot(game, rng))
    return found


def _continue(game: Game, twin: Game, steps: int = 40) -> None:
    rng = random.Random(11)
    for _ in range(steps):
        assert twin.fingerprint() == game.fingerprint()
        if game.over:
            return
        action = BOTS["random"](game, rng)
        assert [e.to_json() for e in twin.apply(action)] == [
            e.to_json() for e in game.apply(action)
        ]
    assert twin.fingerprint() == game.fingerprint()


@pytest.fixture(scope="module")
def decisions(catalog: Catalog) -> list[tuple[str, Game]]:
    """Games waiting for a decision, of many kinds."""
    return _games_at_decisions(catalog)


def test_the_decisions_cover_many_kinds(decisions: list[tuple[str, Game]]) -> None:
    kinds = {name.rsplit("/", 1)[1] for name, _ in decisions}
    assert {"target", "order", "wildcard", "wish", "step-in", "discard"} <= kinds, kinds
    waiting = {type(game.state.pending.task) for _, game in decisions if game.state.pending}
    assert {VillainAttack, Order, Op, Wildcard, Wish, StepIn, Absorb} <= waiting, waiting


def test_a_pending_decision_points_at_the_task_on_top(decisions: list[tuple[str, Game]]) -> None:
    for name, game in decisions:
        pending = game.state.pending
        assert pending is not None, name
        assert pending.task is game.state.stack[-1], name


def test_a_game_saved_mid_decision_loads_and_goes_on_identically(
    catalog: Catalog, decisions: list[tuple[str, Game]]
) -> None:
    for name, game in decisions:
        loaded = Game.from_json(catalog, json.loads(json.dumps(game.to_json())))
        pending = loaded.state.pending
        assert pending is not None and pending.task is loaded.state.stack[-1], name
        assert loaded.fingerprint() == game.fingerprint(), name
        _continue(game.clone(), loaded)


def test_a_clone_mid_decision_answers_its_own_task(decisions: list[tuple[str, Game]]) -> None:
    for name, game in decisions:
        twin = game.clone()
        pending, original = twin.state.pending, game.state.pending
        assert pending is not None and original is not None
        assert pending.task is twin.state.stack[-1], name
        assert pending.task is not original.task, name
        before = game.fingerprint()
        twin.apply(Choose(option=0))
        assert game.fingerprint() == before, f"{name}: answering the clone changed the original"


def test_state_data_round_trips_through_typed_tasks(decisions: list[tuple[str, Game]]) -> None:
    for name, game in decisions:
        data = to_data(game.state)
        assert to_data(state_from_data(data)) == data, name


def test_a_saved_decision_needs_its_task_on_top(decisions: list[tuple[str, Game]]) -> None:
    _, game = decisions[0]
    data = to_data(game.state)
    for stack in ([], [{"t": "used", "character": "goku", "uids": []}]):
        with pytest.raises(ValueError, match="without the task waiting for it"):
            state_from_data({**data, "stack": stack})


# --- every decision of the scenarios, answered after a trip through JSON ----------------------

DECIDING = sorted(
    p
    for p in (Path(__file__).parent / "scenarios").rglob("*.toml")
    if 'type = "choose"' in p.read_text(encoding="utf-8")
)


@pytest.mark.parametrize("path", DECIDING, ids=[p.stem for p in DECIDING])
def test_scenario_decisions_survive_a_save(
    catalog: Catalog, path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before each step a decision waits for, the game's state is written to
    JSON and read back; the scenario's expectations must hold all the same
    (a Power Clash offered, a Block, a Controversy …)."""
    run_step = steps.run_step
    reloaded: list[str] = []

    def step_after_a_save(game: Game, step: StepSpec, number: int) -> None:
        pending = game.state.pending
        if pending is not None:
            data = json.loads(json.dumps(to_data(game.state)))
            game.state = state_from_data(data)
            reloaded.append(pending.kind)
            assert game.state.pending is not None
            assert game.state.pending.task is game.state.stack[-1]
        run_step(game, step, number)

    monkeypatch.setattr(steps, "run_step", step_after_a_save)
    run_file(catalog, path)
    assert reloaded, "no step of the scenario met a decision"


def test_scenario_decisions_cover_the_attack_stages() -> None:
    names = {p.stem for p in DECIDING}
    assert {"power-clash-win", "block-example", "broly-furious-rage-controversy"} <= names
    assert any(n.startswith("raditz-choice-controversy") for n in names)
