"""``dbdeck ccg``: exit codes, problem lines, JSON, unreadable decks, bad
packs, the card listing, ``show``, ``rules`` and ``schema``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from dbdeck.cli import main
from dbdeck.games.ccg.rules import RULES
from dbdeck.games.deckbuilding.cards.catalog import load_catalog

REPO = Path(__file__).resolve().parent.parent
GOKU = REPO / "cards" / "ccg" / "decks" / "goku.txt"
RADITZ = REPO / "cards" / "ccg" / "decks" / "raditz.txt"
PACK = REPO / "tests" / "ccg" / "pack"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["ccg", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def write(tmp_path: Path, text: str, name: str = "deck.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_sample_decks_pass(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", str(GOKU), str(RADITZ))
    assert code == 0 and out == ""
    assert err.splitlines() == [
        f"{GOKU}: legal under errata-2001 (50 cards, 0 warnings)",
        f"{RADITZ}: legal under errata-2001 (50 cards, 0 warnings)",
    ]
    for rules in ("saiyan-2000", "digest"):
        assert run(capsys, "check", "--rules", rules, str(GOKU), str(RADITZ))[0] == 0


def test_an_illegal_deck_gives_one_line_per_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = GOKU.read_text().replace("1 Goku's Lucky Break", "2 Goku's Lucky Break")
    deck = write(tmp_path, text)
    code, out, err = run(capsys, "check", str(deck))
    assert code == 1
    [line] = out.splitlines()
    number = text.splitlines().index("2 Goku's Lucky Break (Saiyan #202)") + 1
    assert line.startswith(f"{deck}:{number}: RESTRICTED: 2 copies of 'Goku's Lucky Break'; ")
    assert line.endswith(f"({RULES['RESTRICTED'].sources['errata-2001']})")
    assert "SIZE-MIN" not in out  # 51 cards is fine
    assert err == f"{deck}: not legal, 1 problem under errata-2001 (51 cards, 0 warnings)\n"


def test_the_summary_counts_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = write(tmp_path, "[Main Personality]\n1 Goku Level 1\n")
    code, _, err = run(capsys, "check", str(deck))
    assert code == 1
    assert err == f"{deck}: not legal, 2 problems under errata-2001 (1 card, 0 warnings)\n"
    deck = write(tmp_path, GOKU.read_text().replace("3 Senzu Bean", "2 Senzu Bean\n1 Senzu Bea"))
    code, _, err = run(capsys, "check", str(deck))
    assert code == 0
    assert err == f"{deck}: legal under errata-2001 (50 cards, 1 warning)\n"


def test_warnings_do_not_fail_a_deck(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = write(tmp_path, GOKU.read_text().replace("Senzu Bean (Saiyan #43)", "Senzu Beans"))
    code, out, _ = run(capsys, "check", str(deck))
    assert code == 0
    [line] = out.splitlines()
    assert ": warning: UNKNOWN-CARD: unknown card 'Senzu Beans'; did you mean 'Senzu Bean'" in line


def test_json_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = write(
        tmp_path, "[Main Personality]\n1 Goku Level 1\n[Life Deck]\n4 Senzu Bean\n2 Senzu Beanz\n"
    )
    code, out, _ = run(capsys, "check", "--json", str(GOKU), str(bad))
    assert code == 1
    verdicts = json.loads(out)
    assert [v["deck"] for v in verdicts] == [str(GOKU), str(bad)]
    assert verdicts[0] == {
        "deck": str(GOKU),
        "legal": True,
        "rules": "errata-2001",
        "cards": 50,
        "problems": [],
        "warnings": [],
    }
    assert verdicts[1]["legal"] is False
    rules = {p["rule"] for p in verdicts[1]["problems"]}
    assert rules == {"SIZE-MIN", "MP-LEVELS", "COPIES"}
    for finding in verdicts[1]["problems"] + verdicts[1]["warnings"]:
        assert set(finding) == {"line", "rule", "message", "source"}
        assert finding["source"] == RULES[finding["rule"]].sources["errata-2001"]
    assert [w["rule"] for w in verdicts[1]["warnings"]] == ["UNKNOWN-CARD"]


@pytest.mark.parametrize("kind", ["missing", "folder", "fifo", "not-utf8", "too-large"])
def test_an_unreadable_deck_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    path = tmp_path / "deck.txt"
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "not-utf8":
        path.write_bytes(b"[Life Deck]\n3 Senzu \xff\n")
    elif kind == "too-large":
        path.write_text("# " + "x" * 300_000)
    code, out, err = run(capsys, "check", str(path), str(GOKU))
    assert code == 2
    assert out == ""
    first = err.splitlines()[0]
    assert first.startswith(f"{path}: ") and "Traceback" not in err
    code, out, _ = run(capsys, "check", "--json", str(path))
    assert code == 2
    [verdict] = json.loads(out)
    assert verdict["legal"] is False and verdict["error"]


def test_a_bad_pack_names_file_card_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    cards = [
        {"id": "my-goku-4", "title": "Goku Level 4", "personality": "Goku", "level": 4, "pur": "x"},
        {"id": "my-card", "title": "My Card", "colour": "red"},
    ]
    (pack / "mine.ccg.json").write_text(json.dumps({"cards": cards}))
    code, out, err = run(capsys, "check", "--pack", str(pack), str(GOKU))
    assert code == 1 and out == ""
    lines = err.splitlines()
    assert lines[0].startswith(f"{pack / 'mine.ccg.json'}: card 'my-goku-4': pur: Input should be")
    assert lines[1] == f"{pack / 'mine.ccg.json'}: card 'my-card': colour: unknown field"
    assert lines[2] == "2 problems in the CCG card packs"
    assert "Traceback" not in err


def test_a_pack_adds_facts_to_a_shipped_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    card = {"id": "senzu-bean", "title": "Senzu Bean", "text": "Some printed text."}
    (pack / "printed.ccg.json").write_text(json.dumps({"cards": [card]}))
    monkeypatch.setenv("DBDECK_PACKS", str(pack))
    code, out, _ = run(capsys, "show", "senzu bean")
    assert code == 0
    assert "text: Some printed text." in out and f"(from {pack / 'printed.ccg.json'})" in out
    wrong = {"id": "senzu-bean", "title": "Senzu Beans"}
    (pack / "printed.ccg.json").write_text(json.dumps({"cards": [wrong]}))
    code, _, err = run(capsys, "cards")
    assert code == 1
    assert "card 'senzu-bean': title: the shipped card of this id is titled 'Senzu Bean'" in err


def test_the_first_game_ignores_ccg_files(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "mine.ccg.json").write_text('{"cards": [{"id": "x", "title": "X"}]}')
    catalog = load_catalog([pack], include_env_packs=False)
    assert "x" not in catalog


def test_cards_lists_every_identity_without_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "cards", "--json")
    assert code == 0
    rows = json.loads(out)
    assert len(rows) >= 180
    by_title = {r["title"]: r for r in rows}
    assert by_title["Earth Dragon Ball 3"]["dragon_ball"] == {"set": "Earth", "number": 3}
    assert by_title["Goku Level 1"]["alignment"] == "hero"
    assert by_title["Raditz Level 4"]["alignment"] == "villain"
    assert by_title["Orange Standing Fist Punch"]["style"] == "Orange"
    assert by_title["Bulma Finds a Dragon Ball"]["dragon_ball"] is None
    assert all("text" not in r for r in rows)
    code, out, _ = run(capsys, "cards")
    assert code == 0 and f"{len(rows)} CCG cards (no card text is shipped)" in out


def test_show_gives_facts_rulings_and_lists(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "NAPPA'S ENERGY AURA")
    assert code == 0
    assert "Nappa's Energy Aura  (Saiyan #120)" in out
    assert "Errata 7 June 2001, Saiyan #120: " in out
    assert "Restricted to one copy per deck (Errata 7 June 2001, Banned & Restricted list)" in out
    assert "errata-2001: type not known; restricted to 1" in out
    assert "saiyan-2000: type not known; 3 copies (4 in a Nappa deck)" in out
    code, out, _ = run(capsys, "show", "Bulma Finds a Dragon Ball")
    assert "This card is not a Dragon Ball. [not-dragon-ball]" in out
    code, out, _ = run(capsys, "show", "Piccolo")
    assert code == 0 and "Rogues" in out and "Namekian Heritage" in out


def test_show_an_unknown_title_suggests(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "show", "Senzu Beans")
    assert code == 1 and out == ""
    assert err == "no card 'Senzu Beans'; did you mean 'Senzu Bean'?\n"


def test_rules_lists_every_rule_with_its_sources(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules")
    assert code == 0
    for rule in RULES.values():
        assert f"{rule.id}: {rule.title}" in out
    code, out, _ = run(capsys, "rules", "--rules", "saiyan-2000")
    assert "BANNED" not in out and "SIZE-MIN" in out


def test_schema_documents_the_pack_fields(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "schema")
    assert code == 0
    schema = json.loads(out)
    card = schema["$defs"]["PackCard"]
    assert "Sensei Deck may hold" in card["properties"]["sensei_capacity"]["description"]
    assert card["additionalProperties"] is False
    target = tmp_path / "schema.json"
    assert run(capsys, "schema", "-o", str(target))[0] == 0
    assert json.loads(target.read_text()) == schema
    assert run(capsys, "schema", "-o", str(tmp_path / "no" / "such" / "file"))[0] == 1


def test_saiyan_2000_tournament_size(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = REPO / "tests" / "ccg" / "goku-75.txt"
    deck = write(tmp_path, big.read_text() + "1 Goku Anger Attack\n")
    code, out, _ = run(capsys, "check", "--rules", "saiyan-2000", str(deck))
    assert code == 0 and "warning: SIZE-MAX" in out
    code, out, _ = run(capsys, "check", "--rules", "saiyan-2000", "--tournament", str(deck))
    assert code == 1 and ": SIZE-MAX: 76 cards; a tournament deck holds at most 75" in out


def test_packs_are_read_from_the_test_pack(capsys: pytest.CaptureFixture[str]) -> None:
    deck = REPO / "tests" / "ccg" / "piccolo-namekian-90.txt"
    assert run(capsys, "check", "--rules", "digest", "--pack", str(PACK), str(deck))[0] == 0
    code, out, _ = run(capsys, "check", "--pack", str(PACK), str(deck))
    assert code == 1 and "SIZE-MAX: 90 cards; a deck holds at most 75" in out
