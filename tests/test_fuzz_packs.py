"""Hostile card packs: whatever a pack folder holds, the loader and ``dbdeck cards
validate`` answer with problems of one line each naming a file, never a traceback,
a hang or a memory blow-up.

The examples per property default to a few dozen so the file runs in seconds;
``DBDECK_FUZZ_EXAMPLES=1000 pytest tests/test_fuzz_packs.py`` fuzzes harder.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from fuzzing import deadline, fuzz_settings
from hypothesis import HealthCheck, event, given
from hypothesis import strategies as st

from dbdeck.cli import main
from dbdeck.games.deckbuilding.cards.catalog import (
    CCG_SUFFIX,
    CardSetError,
    load_catalog,
    shipped_cards_dir,
)

FUZZ = fuzz_settings(40, HealthCheck.data_too_large)
# The second game's files (cards/ccg/*.ccg.json) are not this loader's.
SHIPPED_FILES = sorted(
    p for p in shipped_cards_dir().rglob("*.json") if not p.name.endswith(CCG_SUFFIX)
)
SHIPPED_CARDS: list[dict[str, Any]] = [
    card for path in SHIPPED_FILES for card in json.loads(path.read_text("utf-8"))["cards"]
]

# Placeholders written as JSON strings, then swapped for raw text json.dumps cannot
# (or will not) produce: numbers past Python's 4300-digit limit, deep nesting.
RAW = {
    '"@huge-int@"': "9" * 5000,
    '"@long-int@"': "1" * 40,
    '"@huge-float@"': "1e999999",
    '"@negative-huge@"': "-" + "7" * 4400,
    '"@deep-list@"': "[" * 5000 + "]" * 5000,
    '"@deep-object@"': '{"a":' * 3000 + "1" + "}" * 3000,
    '"@just-deep@"': "[" * 65 + "]" * 65,
    '"@nan@"': "NaN",
    '"@infinity@"': "-Infinity",
}


def hostile_scalars() -> st.SearchStrategy[Any]:
    """Values a card field should not hold, and some it may."""
    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**12), max_value=10**12),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=30),
        st.text(alphabet=st.characters(codec="utf-8"), max_size=10),
        st.sampled_from(list(RAW)).map(lambda key: key.strip('"')),
        st.sampled_from(["", "-", "x" * 5000, "line\nbreak", "\x1b[31mred", "\u202eevil"]),
        st.sampled_from(["ally", "technique", "villain-card", "draw", "damage", "attack"]),
    )


def json_values() -> st.SearchStrategy[Any]:
    """Any JSON shape: scalars, lists and objects nested a few levels."""
    return st.recursive(
        hostile_scalars(),
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.dictionaries(
                st.one_of(
                    st.sampled_from(["kind", "type", "op", "id", "cards", "name", "cost"]),
                    st.text(max_size=8),
                ),
                inner,
                max_size=4,
            ),
        ),
        max_leaves=12,
    )


def dumps(value: Any) -> str:
    """JSON text with the placeholders turned into their raw text."""
    text = json.dumps(value, ensure_ascii=False)
    for placeholder, raw in RAW.items():
        text = text.replace(placeholder, raw)
    return text


def mutate(card: Any, rnd: random.Random, replacement: Any) -> Any:
    """``card`` with one value somewhere inside it (or a new key) replaced."""
    card = json.loads(json.dumps(card))
    node = card
    while True:
        if isinstance(node, dict) and node:
            key = rnd.choice(sorted(node))
            if rnd.random() < 0.15:
                node[rnd.choice([key, "extra", "op", "type", "kind"])] = replacement
                return card
            child = node[key]
        elif isinstance(node, list) and node:
            key = rnd.randrange(len(node))
            child = node[key]
        else:
            return replacement if node is card else card
        if not isinstance(child, dict | list) or not child or rnd.random() < 0.3:
            node[key] = replacement
            return card
        node = child


def problems_through_the_cli(pack: Path) -> tuple[int, list[str], str]:
    """``dbdeck cards validate --pack PACK``, in process: code, stdout lines, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with deadline(30), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["cards", "validate", "--pack", str(pack)])
    return code, out.getvalue().splitlines(), err.getvalue()


def assert_clean_report(code: int, lines: list[str], err: str, files: set[str]) -> None:
    """Exit 0 with the ok line, or exit 1 with one line per problem, each
    starting with a file of the set, and the count on stderr."""
    assert "Traceback" not in err
    if code == 0:
        assert len(lines) == 1 and lines[0].startswith("ok: "), lines
        return
    assert code == 1
    assert lines, "a failed validation lists its problems"
    for line in lines:
        assert any(line.startswith(f"{name}: ") for name in files), line
        assert line.isprintable(), line
    assert err == f"{len(lines)} problem{'' if len(lines) == 1 else 's'} in the card set\n"


def check_pack(files: dict[str, bytes]) -> tuple[int, list[str]]:
    """Write a pack of ``files`` and check the loader and the CLI on it; the
    exit code and problem lines of the CLI."""
    with tempfile.TemporaryDirectory() as tmp:
        pack = Path(tmp) / "pack"
        pack.mkdir()
        for name, content in files.items():
            (pack / name).write_bytes(content)
        names = {str(pack / name) for name in files}
        with deadline(30):
            try:
                load_catalog([pack], include_shipped=False, include_env_packs=False)
            except CardSetError as exc:
                assert exc.problems
                for problem in exc.problems:
                    assert "\n" not in str(problem) and str(problem).isprintable()
                    assert problem.file in names
        code, lines, err = problems_through_the_cli(pack)
        assert_clean_report(code, lines, err, names | {str(p) for p in SHIPPED_FILES})
        return code, lines


def fuzz_pack(files: dict[str, bytes]) -> None:
    """``check_pack`` inside a property, the outcome kept for the statistics."""
    code, lines = check_pack(files)
    event(f"exit {code}: {outcome_of(lines[0])}")


def outcome_of(line: str) -> str:
    """The kind of the first line, for the statistics."""
    if line.startswith("ok: "):
        return "valid"
    rest = line.split(": ", 1)[1]
    return "a card's field" if rest.startswith("card ") else re.sub(r"\d+", "N", rest)[:40]


@FUZZ
@given(value=json_values(), wrap=st.booleans())
def test_random_json_shapes(value: Any, wrap: bool) -> None:
    document = {"cards": value if isinstance(value, list) else [value]} if wrap else value
    fuzz_pack({"random.json": dumps(document).encode()})


@FUZZ
@given(
    card=st.sampled_from(SHIPPED_CARDS),
    replacement=json_values(),
    seed=st.integers(0, 2**32),
    fresh_id=st.booleans(),
)
def test_mutated_real_cards(
    card: dict[str, Any], replacement: Any, seed: int, fresh_id: bool
) -> None:
    mutated = mutate(card, random.Random(seed), replacement)
    if fresh_id and isinstance(mutated, dict):
        mutated["id"] = "fuzz-card"  # no duplicate of the shipped card: the mutation shows
    fuzz_pack({"mutated.json": dumps({"cards": [mutated]}).encode()})


@FUZZ
@given(
    card=st.sampled_from(SHIPPED_CARDS),
    junk=st.binary(min_size=1, max_size=8),
    where=st.floats(0, 1),
)
def test_bytes_spliced_into_real_cards(card: dict[str, Any], junk: bytes, where: float) -> None:
    text = json.dumps({"cards": [card | {"id": "fuzz-card"}]}).encode()
    cut = int(len(text) * where)
    fuzz_pack({"spliced.json": text[:cut] + junk + text[cut:]})


@FUZZ
@given(data=st.binary(max_size=200))
def test_arbitrary_bytes(data: bytes) -> None:
    fuzz_pack({"bytes.json": data})


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ('{"cards": [{"kind": "ally", "cost": @huge-int@}]}', "a number of more than 9 digits"),
        ('{"cards": [{"kind": "ally", "cost": @negative-huge@}]}', "a number of more than 9"),
        ('{"cards": @deep-list@}', "nested more than 64 deep"),
        ('{"cards": [@deep-object@]}', "nested more than 64 deep"),
        ('{"cards": [@just-deep@]}', "nested more than 64 deep"),
        ('{"cards": [' + ",".join(["0"] * 100_001) + "]}", "too many values"),
        ('{"cards": [{"kind": "villain-card", "type": {}, "id": "x"}]}', "card 'x': type: "),
        ('{"cards": [{"kind": "ally", "id": "a\\nb", "name": "\\ud800"}]}', "invalid JSON: "),
        ('{"cards": [{"kind": "ally", "id": "x", "bad\\nkey\\u202e": 1}]}', "bad\\nkey\\u202e"),
        ('{"cards": [{"kind": "ally", "id": "x", "name": "\xff"}]}', "not UTF-8 text"),
    ],
)
def test_known_crashers_are_one_line(raw: str, message: str) -> None:
    for placeholder, text in RAW.items():
        raw = raw.replace(placeholder.strip('"'), text)
    data = raw.encode("utf-8").replace(b"\xc3\xbf", b"\xff")
    code, lines = check_pack({"crasher.json": data})
    assert code == 1
    assert any(message in line for line in lines), lines


def test_many_bad_values_are_counted_not_listed() -> None:
    code, lines = check_pack({"many.json": json.dumps({"cards": list(range(5000))}).encode()})
    assert code == 1
    assert len(lines) == 51
    assert lines[-1].endswith(": 4950 more not shown")


def special_pack(tmp_path: Path, kind: str) -> Path:
    pack = tmp_path / "pack"
    pack.mkdir()
    target = pack / "special.json"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "dev-zero":
        target.symlink_to("/dev/zero")
    elif kind == "dev-null":
        target.symlink_to("/dev/null")
    elif kind == "folder":
        target.mkdir()
        (target / "inner.txt").write_text("not a card file")
    elif kind == "dangling":
        target.symlink_to(tmp_path / "nowhere.json")
    elif kind == "too-large":
        with target.open("wb") as f:
            f.truncate(4 * 1024 * 1024 + 1)  # sparse: no need to write the bytes
    elif kind == "loop":
        (pack / "sub").mkdir()
        (pack / "sub" / "up").symlink_to(pack, target_is_directory=True)
        target.write_text('{"cards": "nope"}')
    return pack


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("fifo", "not a regular file (a named pipe)"),
        ("dev-zero", "not a regular file (a character device)"),
        ("dev-null", "not a regular file (a character device)"),
        ("dangling", "cannot read: No such file or directory"),
        ("too-large", "too large: 4194305 bytes, at most 4194304"),
        ("loop", "cards: Input should be a valid array"),
    ],
)
def test_files_that_are_not_plain_card_files(tmp_path: Path, kind: str, message: str) -> None:
    pack = special_pack(tmp_path, kind)
    code, lines, err = problems_through_the_cli(pack)
    assert code == 1
    assert lines == [f"{pack / 'special.json'}: {message}"]
    assert "Traceback" not in err


def test_a_folder_named_like_a_card_file_is_walked_into(tmp_path: Path) -> None:
    pack = special_pack(tmp_path, "folder")
    code, lines, _ = problems_through_the_cli(pack)
    assert code == 0, lines


def test_a_symlink_to_a_regular_card_file_is_read(tmp_path: Path) -> None:
    real = tmp_path / "elsewhere.json"
    real.write_text(json.dumps({"cards": [SHIPPED_CARDS[0] | {"id": "fuzz-linked"}]}))
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "linked.json").symlink_to(real)
    catalog = load_catalog([pack], include_env_packs=False)
    assert "fuzz-linked" in catalog


def test_a_fifo_beside_good_files_is_reported_alone(tmp_path: Path) -> None:
    pack = special_pack(tmp_path, "fifo")
    (pack / "good.json").write_text(json.dumps({"cards": [SHIPPED_CARDS[0] | {"id": "fuzz-good"}]}))
    code, lines, _ = problems_through_the_cli(pack)
    assert code == 1
    assert lines == [f"{pack / 'special.json'}: not a regular file (a named pipe)"]


def test_env_pack_fifo_does_not_hang(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pack = special_pack(tmp_path, "fifo")
    monkeypatch.setenv("DBDECK_PACKS", str(pack))
    out, err = io.StringIO(), io.StringIO()
    with deadline(30), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["cards", "list"])
    assert code == 1
    assert err.getvalue().splitlines()[0].endswith("not a regular file (a named pipe)")


def test_a_deep_folder_tree_does_not_recurse(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    deep = pack
    for _ in range(600):  # deeper than the recursion limit allows for a recursive walk
        deep = deep / "d"
    deep.mkdir(parents=True)
    (deep / "bad.json").write_text("[]")
    code, lines, _ = problems_through_the_cli(pack)
    assert code == 1
    assert lines == [f"{deep / 'bad.json'}: (file): Input should be an object"]
