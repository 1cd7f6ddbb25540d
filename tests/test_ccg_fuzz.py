"""Hostile deck files, CCG packs, Physical Attack Tables and recorded card
facts: whatever they hold, the parser, the checker and ``dbdeck ccg check``
answer with one-line findings (or a one-line refusal), exit 0, 1 or 2, and
never a traceback or a hang.

``DBDECK_FUZZ_EXAMPLES=1000 pytest tests/test_ccg_fuzz.py`` fuzzes harder.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import tempfile
from pathlib import Path
from typing import Any

from fuzzing import deadline, fuzz_settings
from hypothesis import HealthCheck, given
from hypothesis import strategies as st
from test_fuzz_packs import dumps, json_values, mutate

from dbdeck.cli import main
from dbdeck.games.ccg.attack_table import TABLE_FILE, PhysicalAttackTable, table_from_json
from dbdeck.games.ccg.checker import check_deck
from dbdeck.games.ccg.deckfile import SECTIONS, parse_deck
from dbdeck.games.ccg.library import load_library, read_attack_table
from dbdeck.games.ccg.profiles import PROFILES
from dbdeck.games.ccg.rules import RULES
from dbdeck.games.ccg.titles import counted
from dbdeck.games.deckbuilding.cards.catalog import CardSetError

FUZZ = fuzz_settings(40, HealthCheck.data_too_large)
PACK = Path(__file__).parent / "ccg" / "pack"
LIBRARY = load_library([PACK], include_env_packs=False)
TITLES = sorted({c.title for c in LIBRARY.cards.values()})
PACK_CARDS: list[dict[str, Any]] = json.loads((PACK / "test-cards.ccg.json").read_text())["cards"]
FINDING = re.compile(r"^(?P<deck>.+):(?P<line>[0-9]+): (warning: )?(?P<rule>[A-Z-]+): .+ \(.+\)$")


def deck_lines() -> st.SearchStrategy[str]:
    """Lines a deck file might hold, sensible and not."""
    header = st.sampled_from([*SECTIONS, "Side Deck", "", "[", "Life  DECK"]).map(
        lambda s: f"[{s}]"
    )
    count = st.one_of(st.integers(0, 12), st.integers(0, 10**30), st.just(-1))
    title = st.one_of(
        st.sampled_from(TITLES),
        st.sampled_from(TITLES).map(str.upper),
        st.text(max_size=40),
        st.sampled_from(["Goku Level 9", "X Level 0", "\x1b[31mred", "\u202eevil", "(", "#", ")"]),
    )
    printing = st.one_of(
        st.just(""),
        st.sampled_from(
            [" (Saiyan #75)", " (Frieza Promo 1)", " (Saiyan #99999)", " (#)", " ((#1))"]
        ),
    )
    card = st.builds(lambda n, t, p: f"{n} {t}{p}", count, title, printing)
    style = st.sampled_from(["Orange", "red", "Freestyle", "none", "Purple", ""])
    return st.one_of(header, card, style, st.text(max_size=60), st.just("x" * 400))


def assert_findings(text: str) -> None:
    deck = parse_deck(text)
    lines = len(text.splitlines())
    for profile in PROFILES.values():
        verdict = check_deck(deck, LIBRARY, profile, tournament=True)
        for finding in (*verdict.problems, *verdict.warnings):
            assert finding.rule in RULES
            assert 0 <= finding.line <= lines + 1
            said = finding.as_line("deck.txt")
            assert said.isprintable(), said
            assert FINDING.match(said), said


@FUZZ
@given(st.lists(deck_lines(), max_size=40), st.sampled_from(["\n", "\r\n", "\r"]))
def test_random_deck_text(lines: list[str], end: str) -> None:
    assert_findings(end.join(lines))


@FUZZ
@given(st.integers(0, 2**32), st.binary(min_size=1, max_size=6), st.floats(0, 1))
def test_bytes_spliced_into_a_real_deck(seed: int, junk: bytes, where: float) -> None:
    real = (Path(__file__).parent.parent / "cards" / "ccg" / "decks" / "goku.txt").read_bytes()
    cut = int(len(real) * where)
    data = real[:cut] + junk + real[cut:]
    code, out, err = check_through_the_cli(data)
    assert code in (0, 1, 2)
    if code == 2:
        assert out == "" and err.splitlines()[0].endswith(f"(invalid byte at offset {_bad(data)})")


def _bad(data: bytes) -> int:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start
    return -1


def check_through_the_cli(data: bytes) -> tuple[int, str, str]:
    """``dbdeck ccg check`` on a file of ``data``, in process."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "deck.txt"
        path.write_bytes(data)
        out, err = io.StringIO(), io.StringIO()
        with deadline(30), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["ccg", "check", "--rules", random.choice(list(PROFILES)), str(path)])
    said, errors = out.getvalue(), err.getvalue()
    assert "Traceback" not in errors
    for line in said.splitlines():
        match = FINDING.match(line)
        assert match and match["deck"] == str(path) and match["rule"] in RULES, line
    return code, said, errors


@FUZZ
@given(st.binary(max_size=300))
def test_arbitrary_bytes_as_a_deck(data: bytes) -> None:
    code, _, err = check_through_the_cli(data)
    assert code in (0, 1, 2)
    assert (code == 2) == (_bad(data) >= 0)
    assert all(line.isprintable() for line in err.splitlines())


def check_pack(files: dict[str, bytes]) -> None:
    """Load a pack of ``files`` and list it through the CLI: every problem
    one printable line naming a file of the pack; exit 0 or 1."""
    with tempfile.TemporaryDirectory() as tmp:
        pack = Path(tmp) / "pack"
        pack.mkdir()
        for name, content in files.items():
            (pack / name).write_bytes(content)
        names = {str(pack / name) for name in files}
        with deadline(30):
            try:
                load_library([pack], include_env_packs=False)
            except CardSetError as exc:
                for problem in exc.problems:
                    assert str(problem).isprintable() and problem.file in names
        out, err = io.StringIO(), io.StringIO()
        with deadline(30), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["ccg", "cards", "--json", "--pack", str(pack)])
    assert "Traceback" not in err.getvalue()
    assert code in (0, 1)
    if code == 1:
        *problems, count = err.getvalue().splitlines()
        assert count == f"{counted(len(problems), 'problem')} in the CCG card packs"
        assert all(any(p.startswith(f"{n}: ") for n in names) for p in problems), problems
    else:
        json.loads(out.getvalue())


@FUZZ
@given(value=json_values(), wrap=st.booleans())
def test_random_json_as_a_pack(value: Any, wrap: bool) -> None:
    document = {"cards": value if isinstance(value, list) else [value]} if wrap else value
    check_pack({"random.ccg.json": dumps(document).encode()})


@FUZZ
@given(
    card=st.sampled_from(PACK_CARDS),
    replacement=json_values(),
    seed=st.integers(0, 2**32),
)
def test_mutated_pack_cards(card: dict[str, Any], replacement: Any, seed: int) -> None:
    mutated = mutate(card, random.Random(seed), replacement)
    check_pack({"mutated.ccg.json": dumps({"cards": [mutated]}).encode()})


@FUZZ
@given(data=st.binary(max_size=200))
def test_arbitrary_bytes_as_a_pack(data: bytes) -> None:
    check_pack({"bytes.ccg.json": data})


TABLE = json.loads(
    (Path(__file__).parent / "scenarios" / "ccg" / "pack-attack-table" / TABLE_FILE).read_text()
)
"""The test pack's Physical Attack Table, as JSON data."""


@FUZZ
@given(value=json_values(), seed=st.integers(0, 2**32), whole=st.booleans())
def test_hostile_physical_attack_tables(value: Any, seed: int, whole: bool) -> None:
    """A table file whose value somewhere is anything (or that is anything):
    in a pack folder it is one-line problems naming the file, or a table
    whose every reading is a stage count in range; its JSON as a save holds
    it reads back the same, or is a ``ValueError``."""
    document = value if whole else mutate(TABLE, random.Random(seed), value)
    check_pack({TABLE_FILE: dumps(document).encode()})
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / TABLE_FILE
        path.write_text(dumps(document), encoding="utf-8")
        try:
            table = read_attack_table(path)
        except CardSetError as exc:
            assert all("\n" not in str(p) and p.file == str(path) for p in exc.problems)
        else:
            for attacker in (0, 999, 1000, 10**6):
                stages = table.stages(attacker, 1500)
                assert stages is None or 0 <= stages <= 30
            assert table_from_json(json.loads(json.dumps(table.to_json()))) == table
    try:
        saved = table_from_json(document)
    except (ValueError, TypeError):
        return
    assert isinstance(saved, PhysicalAttackTable)


TABLE_PACK = Path(__file__).parent / "scenarios" / "ccg" / "pack-attack-table"
"""Goku's and Raditz's ladders and a Physical Attack Table."""


def _recorded_setup() -> dict[str, Any]:
    from dbdeck.games.ccg.match import CcgRules

    decks = Path(__file__).resolve().parent.parent / "cards" / "ccg" / "decks"
    rules = CcgRules(load_library([TABLE_PACK], include_env_packs=False))
    setup = rules.read_setup(
        {
            "players": ["Ann", "Bob"],
            "decks": [(decks / "goku.txt").read_text(), (decks / "raditz.txt").read_text()],
        }
    )
    data: dict[str, Any] = json.loads(json.dumps(rules.setup_json(rules.record_facts(setup))))
    return data


RECORDED = _recorded_setup()
"""A new table's setup, with the facts of its cards recorded (rules notes, T10)."""


@FUZZ
@given(value=json_values(), seed=st.integers(0, 2**32))
def test_hostile_card_fact_records(value: Any, seed: int) -> None:
    """A setup whose record of the cards' facts holds anything somewhere is
    a one-line ``SetupProblem`` naming the record's field, or a setup that
    writes back as it reads and sits at a table (or says in one line why
    its decks cannot)."""
    from dbdeck.games.ccg.match import CcgRules
    from dbdeck.tabletop.game import SetupProblem

    rules = CcgRules(load_library(include_env_packs=False))
    data = {**RECORDED, "card_facts": mutate(RECORDED["card_facts"], random.Random(seed), value)}
    try:
        setup = rules.read_setup(data)
    except SetupProblem as exc:
        said = str(exc)
        assert "\n" not in said and said.startswith("setup.card_facts"), said
        return
    assert rules.read_setup(json.loads(json.dumps(rules.setup_json(setup)))) == setup
    try:
        match = rules.new(setup)
    except SetupProblem as exc:
        assert "\n" not in str(exc)
        return
    assert match.state.cards and all(s.stages >= 0 for s in match.state.sides)
