"""Hostile scenario files: whatever a file holds, ``run_file`` either runs it or
raises ``ScenarioFailure`` with one line naming the step and field, and
``dbdeck scenario run`` reports it and goes on with the other files.

The examples per property default to a few dozen so the file runs in seconds;
``DBDECK_FUZZ_EXAMPLES=1000 pytest tests/test_fuzz_scenarios.py`` fuzzes harder.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import math
import os
import random
import shutil
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import pytest
from fuzzing import deadline, fuzz_settings
from hypothesis import HealthCheck, event, given
from hypothesis import strategies as st

from dbdeck.cli import main
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.scenario import DeckbuildingScenarios, run_file
from dbdeck.scenarios import Outcome, ScenarioFailure

FUZZ = fuzz_settings(40, HealthCheck.data_too_large)
SCENARIOS = sorted(
    p for p in (Path(__file__).parent / "scenarios").rglob("*.toml") if "ccg" not in p.parts
)
"""The deckbuilding game's scenarios, whose runner these tests fuzz."""
GOOD = Path(__file__).parent / "scenarios" / "block-example.toml"
REAL = [tomllib.loads(path.read_text("utf-8")) for path in SCENARIOS]

# Placeholders written as strings, then swapped for raw TOML the writer below
# cannot produce: numbers past Python's 4300-digit limit, deep nesting, dates.
RAW = {
    '"@huge-int@"': "9" * 5000,
    '"@huge-hex@"': "0x" + "f" * 40,
    '"@long-int@"': "1" * 101,
    '"@deep-array@"': "[" * 5000 + "]" * 5000,
    '"@deep-table@"': "{a = " * 200 + "1" + "}" * 200,
    '"@just-deep@"': "[" * 33 + "]" * 33,
    '"@datetime@"': "1979-05-27T07:32:00Z",
    '"@date@"': "1979-05-27",
    '"@time@"': "07:32:00",
}
WORDS = [
    "setup",
    "table",
    "steps",
    "action",
    "type",
    "cards",
    "card",
    "target",
    "hand",
    "villain",
    "characters",
    "krillin",
    "goku",
    "freezer",
    "expect",
    "rolls",
    "time_track",
    "side_decks",
    "markets",
    "allies",
    "attack",
    "choose",
    "label",
    "v",
    "c:krillin",
    "m:freezer-guldo",
    "nope",
    "punch-and-kick",
    "freezer-death-beam",
    "freezer-guldo",
]


def toml_value(value: Any) -> str:
    """``value`` as an inline TOML value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value).replace("\x7f", "\\u007f")
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    return toml_value(str(value))  # a date or time tomllib gave back


def toml_document(data: dict[str, Any]) -> str:
    """``data`` as TOML (every top-level key inline), placeholders swapped."""
    text = "".join(f"{json.dumps(key)} = {toml_value(v)}\n" for key, v in data.items())
    for placeholder, raw in RAW.items():
        text = text.replace(placeholder, raw)
    return text


def hostile_scalars() -> st.SearchStrategy[Any]:
    """Values a scenario field should not hold, and some it may."""
    return st.one_of(
        st.booleans(),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.integers(min_value=-3, max_value=12),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=20),
        st.sampled_from(WORDS),
        st.sampled_from(list(RAW)).map(lambda key: key.strip('"')),
        st.sampled_from(["", "-", "a\nb", "\x1b[2J", "\u202e", "\u2028"]),
        st.integers(100, 5000).map(lambda n: "x" * n),
    )


def toml_values() -> st.SearchStrategy[Any]:
    return st.recursive(
        hostile_scalars(),
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.dictionaries(
                st.one_of(st.sampled_from(WORDS), st.text(max_size=6)), inner, max_size=4
            ),
        ),
        max_leaves=10,
    )


def mutate(data: dict[str, Any], rnd: random.Random, replacement: Any) -> dict[str, Any]:
    """``data`` with one value somewhere inside it (or a new key) replaced."""
    data = copy.deepcopy(data)
    node: Any = data
    while True:
        if isinstance(node, dict) and node:
            key: Any = rnd.choice(sorted(node))
            if rnd.random() < 0.1:
                node[rnd.choice([key, "extra", *WORDS[:8]])] = replacement
                return data
        elif isinstance(node, list) and node:
            key = rnd.randrange(len(node))
        else:
            return data
        child = node[key]
        if not isinstance(child, dict | list) or not child or rnd.random() < 0.25:
            node[key] = replacement
            return data
        node = child


def assert_one_line_failure(exc: ScenarioFailure) -> None:
    message = str(exc)
    # An expect_log failure prints the log below its line, on purpose.
    first = message.split("\n", 1)[0] if "; it says:\n" in message else message
    assert first and first.isprintable(), message


def outcome_of(exc: ScenarioFailure) -> str:
    """The kind of a failure, for the statistics: where it was found."""
    where = str(exc).split(":", 1)[0]
    return "step N" if where.startswith("step ") else where


def check_file(catalog: Catalog, content: bytes) -> None:
    """Run one scenario file holding ``content``: a result or a one-line
    ``ScenarioFailure``, nothing else; then the CLI on it beside a good file."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        bad = folder / "fuzzed.toml"
        bad.write_bytes(content)
        with deadline(30):
            try:
                run_file(catalog, bad)
            except ScenarioFailure as exc:
                assert_one_line_failure(exc)
                event(f"refused: {outcome_of(exc)}")
                failed = True
            else:
                event("ran to the end")
                failed = False
        shutil.copy(GOOD, folder / "good.toml")
        code, lines, err = run_cli(folder)
        assert "Traceback" not in err
        assert f"ok   {folder / 'good.toml'}: " in "\n".join(lines)
        verdict = [line for line in lines if line.startswith(f"FAIL {bad}: ")]
        assert len(verdict) == (1 if failed else 0), lines
        assert "internal error" not in "\n".join(lines)
        assert lines[-1] == ("1 passed, 1 failed" if failed else "2 passed, 0 failed")
        assert code == (1 if failed else 0)


def run_cli(*paths: Path) -> tuple[int, list[str], str]:
    """``dbdeck scenario run PATHS``, in process: code, stdout lines, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with deadline(60), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["scenario", "run", *map(str, paths)])
    return code, out.getvalue().splitlines(), err.getvalue()


@FUZZ
@given(
    scenario=st.sampled_from(REAL),
    replacement=toml_values(),
    seed=st.integers(0, 2**32),
)
def test_mutated_real_scenarios(
    catalog: Catalog, scenario: dict[str, Any], replacement: Any, seed: int
) -> None:
    mutated = mutate(scenario, random.Random(seed), replacement)
    check_file(catalog, toml_document(mutated).encode())


def same_type_values(catalog: Catalog) -> st.SearchStrategy[Any]:
    """Values of the types scenario fields have: what passes the checks as
    often as not, to reach the engine with odd but well-typed tables."""
    return st.one_of(
        st.integers(-2, 12),
        st.booleans(),
        st.sampled_from(sorted(catalog.cards)),
        st.sampled_from(WORDS),
        st.lists(st.sampled_from(sorted(catalog.cards)), max_size=5),
    )


def retype(value: Any, rnd: random.Random, options: list[Any]) -> Any:
    """A replacement for ``value`` of the same type, when one is offered."""
    same = [o for o in options if type(o) is type(value)]
    return rnd.choice(same) if same else value


@FUZZ
@given(
    scenario=st.sampled_from(REAL),
    seed=st.integers(0, 2**32),
    picks=st.data(),
)
def test_well_typed_mutations_reach_the_engine_safely(
    catalog: Catalog, scenario: dict[str, Any], seed: int, picks: st.DataObject
) -> None:
    rnd = random.Random(seed)
    values = [picks.draw(same_type_values(catalog)) for _ in range(6)]
    mutated = scenario
    for _ in range(rnd.randint(1, 3)):
        mutated = mutate_same_type(mutated, rnd, values)
    check_file(catalog, toml_document(mutated).encode())


def mutate_same_type(data: dict[str, Any], rnd: random.Random, values: list[Any]) -> dict[str, Any]:
    """``data`` with one scalar (or list of scalars) replaced by one of its type."""
    data = copy.deepcopy(data)
    node: Any = data
    while True:
        if isinstance(node, dict) and node:
            key: Any = rnd.choice(sorted(node))
        elif isinstance(node, list) and node:
            key = rnd.randrange(len(node))
        else:
            return data
        child = node[key]
        descend = isinstance(child, dict) or (isinstance(child, list) and rnd.random() < 0.7)
        if descend and child:
            node = child
            continue
        node[key] = retype(child, rnd, values)
        return data


@FUZZ
@given(
    document=st.dictionaries(
        st.sampled_from([*WORDS[:3], "name", "game"]), toml_values(), max_size=4
    )
)
def test_random_documents(catalog: Catalog, document: dict[str, Any]) -> None:
    check_file(catalog, toml_document(document).encode())


@FUZZ
@given(
    text=st.lists(
        st.sampled_from([*"[]{}=\"'#.,\n 0123456789abcxtrue-_:\\", *WORDS]), max_size=80
    ).map("".join)
)
def test_toml_ish_text(catalog: Catalog, text: str) -> None:
    check_file(catalog, text.encode())


@FUZZ
@given(
    path=st.sampled_from(SCENARIOS),
    junk=st.binary(min_size=1, max_size=8),
    where=st.floats(0, 1),
)
def test_bytes_spliced_into_real_scenarios(
    catalog: Catalog, path: Path, junk: bytes, where: float
) -> None:
    data = path.read_bytes()
    cut = int(len(data) * where)
    check_file(catalog, data[:cut] + junk + data[cut:])


SETUP = '[setup]\nvillain = "freezer"\ncharacters = ["krillin"]\n'


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            SETUP + '[table.characters.krillin]\nhand = ["nope"]\n',
            ("table.characters.krillin.hand.0: unknown card 'nope'"),
        ),
        ("setup = 5\n", "setup: expected a table"),
        ("name = 1\n" + SETUP, "name: expected a string"),
        ('[setup]\nvillain = "freezer"\n', "setup.characters: missing field"),
        (
            SETUP + '[[steps]]\naction = {type = "teleport"}\n',
            ("step 1: action.type: unknown action type 'teleport'; expected one of choose, "),
        ),
        (
            SETUP + '[[steps]]\n[[steps]]\naction = {type = "attack", cards = [1.5]}\n',
            ("step 2: action.cards.0: expected a card id or a card instance number"),
        ),
        (
            SETUP + '[[steps]]\naction = {type = "attack", cards = ["nope"]}\n',
            ("step 1: action.cards.0: unknown card 'nope'"),
        ),
        (
            SETUP + '[[steps]]\naction = {type = "attack", cards = [99999], target = "v"}\n',
            ("step 1: no card instance 99999"),
        ),
        (
            SETUP + '[[steps]]\naction = {type = "attack", cards = [1]}\n',
            ("step 1: attack: 'target' is missing"),
        ),
        (
            SETUP + '[[steps]]\naction = {type = "end-turn", label = "x"}\n',
            ("step 1: end-turn has no field 'label' (it has none)"),
        ),
        (
            SETUP + '[[steps]]\naction = {type = "end-turn", amount = 3, on = 2}\n',
            ("step 1: end-turn has no field 'amount' (it has none)"),
        ),
        (
            SETUP + '[[steps]]\naction = {type = "steal", amount = 1, slot = 2}\n',
            ("step 1: steal has no field 'slot' (its fields: target, amount)"),
        ),
        (SETUP + "[[steps]]\nexpect = 3\n", "step 1: expect: expected a table"),
        (SETUP + "[[steps]]\nexpected = {}\n", "step 1: expected: unknown field"),
        (
            SETUP + '[table.characters.krillin]\nhand = ["freezer-death-beam"]\n',
            ("hand.0: 'freezer-death-beam' is a attack, expected ally or technique"),
        ),
        (
            SETUP + '[table.villain]\nminions = ["raditz-saibaman"]\n',
            ("table.villain.minions.0: 'raditz-saibaman' is a card of 'raditz', not of 'freezer'"),
        ),
        (
            SETUP + "[table.characters.goku]\ndamage = 1\n",
            ("table.characters.goku: not a Character of this game (krillin)"),
        ),
        (
            SETUP + '[table]\nturn_deck = ["9"]\n',
            "table.turn_deck.0: '9' is not one of 1, V1, V2, W",
        ),
        (SETUP + "[table.villain]\nphase = 9\n", "table.villain.phase: Freezer has 4 phase(s)"),
        (SETUP + "[table.villain]\ndragon_balls = -1\n", "dragon_balls: Input should be greater"),
        (
            SETUP + '[table.villain]\naggro = "m:freezer-guldo"\n',
            "table: no Minion 'freezer-guldo'",
        ),
        (
            SETUP + '[table.villain]\nside_decks = {"freezer-guldo" = 1e9}\n',
            ("side_decks.freezer-guldo: expected a list of card ids or a number of copies"),
        ),
        (
            SETUP + '[table.villain]\nside_decks = {"freezer-guldo" = 1000000000}\n',
            ("side_decks.freezer-guldo: Input should be less than or equal to 100"),
        ),
        (
            SETUP + '[table.markets]\nspaceship = ["nope"]\n',
            ("table.markets.spaceship: unknown market 'spaceship'"),
        ),
        (
            SETUP + "[table.market_damage]\nallies = [1, 1, 1, 1, 1, 1, 1, 1, 1]\n",
            ("table.market_damage.allies: 9 values for "),
        ),
        (
            SETUP + '[table.characters.krillin]\ntime_track = ["", ""]\n',
            ("time_track: List should have at least 4 items"),
        ),
        (SETUP + '[[steps]]\nexpect = {"a\\nb" = 1}\n', "step 1: expected a\\nb = 1"),
        ("a = @huge-int@\n", "cannot read: a number of more than 100 digits"),
        ("a = @huge-hex@\n", "cannot read: an integer beyond 64 bits"),
        ("a = @deep-array@\n", "cannot read: nested more than 32 deep"),
        ("a = @deep-table@\n", "cannot read: nested more than 32 deep"),
        ("a = @just-deep@\n", "cannot read: nested more than 32 deep"),
        ("a" + ".a" * 40 + " = 1\n", "cannot read: nested more than 32 deep"),
        ("[" + ".".join(["t"] * 40) + "]\n", "cannot read: nested more than 32 deep"),
        ('a = """[[[[' + "[" * 100 + '"""\n' + SETUP, "a: unknown field"),
        ("a = [" + ",".join(["0"] * 50_001) + "]\n", "cannot read: too many values"),
        ("name = \n", "cannot read: Invalid value"),
        ('name = "\xff"\n', "cannot read: not UTF-8 text (invalid byte at offset 8)"),
        (SETUP + "[[steps]]\n" * 1001, "steps: List should have at most 1000 items"),
    ],
)
def test_known_bad_files_are_one_line(
    catalog: Catalog, tmp_path: Path, text: str, message: str
) -> None:
    for placeholder, raw in RAW.items():
        text = text.replace(placeholder.strip('"'), raw)
    path = tmp_path / "bad.toml"
    path.write_bytes(text.encode().replace(b"\xc3\xbf", b"\xff"))
    with deadline(30), pytest.raises(ScenarioFailure) as failure:
        run_file(catalog, path)
    assert message in str(failure.value)
    assert_one_line_failure(failure.value)


def special_file(folder: Path, kind: str) -> Path:
    target = folder / "special.toml"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "dev-zero":
        target.symlink_to("/dev/zero")
    elif kind == "too-large":
        with target.open("wb") as f:
            f.truncate(1024 * 1024 + 1)
    elif kind == "dangling":
        target.symlink_to(folder / "nowhere.toml")
    return target


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("fifo", "cannot read: not a regular file (a named pipe)"),
        ("dev-zero", "cannot read: not a regular file (a character device)"),
        ("too-large", "cannot read: too large: 1048577 bytes, at most 1048576"),
        ("dangling", "cannot read: No such file or directory"),
    ],
)
def test_files_that_are_not_plain_scenarios(tmp_path: Path, kind: str, message: str) -> None:
    special = special_file(tmp_path, kind)
    shutil.copy(GOOD, tmp_path / "good.toml")
    code, lines, err = run_cli(tmp_path)
    assert code == 1
    assert lines == [
        f"ok   {tmp_path / 'good.toml'}: " + lines[0].split(": ", 1)[1],
        f"FAIL {special}: {message}",
        "1 passed, 1 failed",
    ]
    assert "Traceback" not in err


def test_a_bad_file_does_not_stop_the_others(tmp_path: Path) -> None:
    (tmp_path / "a-bad.toml").write_text(SETUP + '[table.characters.krillin]\nhand = ["nope"]\n')
    (tmp_path / "b-setup.toml").write_text("setup = 5\n")
    shutil.copy(GOOD, tmp_path / "c-good.toml")
    code, lines, _ = run_cli(tmp_path, tmp_path / "missing.toml")
    assert code == 1
    assert lines[0] == (
        f"FAIL {tmp_path / 'a-bad.toml'}: table.characters.krillin.hand.0: unknown card 'nope'"
    )
    assert lines[1] == f"FAIL {tmp_path / 'b-setup.toml'}: setup: expected a table"
    assert lines[2].startswith(f"ok   {tmp_path / 'c-good.toml'}: ")
    assert lines[3].startswith(f"FAIL {tmp_path / 'missing.toml'}: cannot read: ")
    assert lines[4] == "1 passed, 3 failed"


def test_an_engine_crash_is_one_line_and_the_run_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_run = DeckbuildingScenarios.run

    def crashing(self: DeckbuildingScenarios, data: dict[str, Any], file: str) -> Outcome:
        if file.endswith("a-crash.toml"):
            raise RuntimeError("engine bug\nsecond line")
        return real_run(self, data, file)

    monkeypatch.setattr(DeckbuildingScenarios, "run", crashing)
    shutil.copy(GOOD, tmp_path / "a-crash.toml")
    shutil.copy(GOOD, tmp_path / "b-good.toml")
    code, lines, err = run_cli(tmp_path)
    assert code == 1
    assert lines[0] == (
        f"FAIL {tmp_path / 'a-crash.toml'}: internal error (a bug): RuntimeError: "
        "engine bug\\nsecond line"
    )
    assert lines[1].startswith(f"ok   {tmp_path / 'b-good.toml'}: ")
    assert lines[2] == "1 passed, 1 failed"
    assert "Traceback" not in err


def test_an_undecodable_file_name_prints(tmp_path: Path) -> None:
    folder = Path(os.fsdecode(bytes(tmp_path) + b"/\xff-odd"))
    folder.mkdir()
    shutil.copy(GOOD, folder / "x\nname.toml")
    code, lines, _ = run_cli(folder)
    assert code == 0
    assert lines[0].startswith("ok   ") and "\\udcff-odd/x\\nname.toml: " in lines[0]
