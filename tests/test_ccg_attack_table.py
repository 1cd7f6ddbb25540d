"""The user's Physical Attack Table (rules notes, T1): its bands, its file
and the one-line problems of a bad one, how it travels in the setup, the
snapshot and a save, and how the table offers, reads and logs it under each
adjudication, for the Main Personality, an Ally and a Final Physical Attack."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from dbdeck.cli import main
from dbdeck.games.ccg.attack_table import PhysicalAttackTable, table_from_json
from dbdeck.games.ccg.library import Library, load_library, read_attack_table
from dbdeck.games.ccg.match import CcgMatch, CcgRules
from dbdeck.games.ccg.schema import attack_table_schema
from dbdeck.games.ccg.table import actions as a
from dbdeck.games.ccg.table.setup import CcgSetup
from dbdeck.packs.reading import CardSetError
from dbdeck.saves import Session
from dbdeck.saves.replay import replay_events
from dbdeck.seating import Seating
from dbdeck.tabletop.game import SetupProblem

HERE = Path(__file__).resolve().parent
DECKS = HERE.parent / "cards" / "ccg" / "decks"
PACK = HERE / "scenarios" / "ccg" / "pack-attack-table"
"""The Example of Play's ladders (Goku 900 and Raditz 1500 at 5 stages) and
a table made up for the tests."""
TABLE_FILE = PACK / "physical-attack-table.ccg.json"
JOHN, SANDRA = 0, 1


@pytest.fixture(scope="module")
def library() -> Library:
    return load_library([PACK], include_env_packs=False)


@pytest.fixture(scope="module")
def shipped() -> Library:
    return load_library(include_env_packs=False)


def _table(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(TABLE_FILE.read_text())
    data.update(changes)
    return data


def _setup(library: Library, *, table: bool = True, **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "players": ["John", "Sandra"],
        "decks": [(DECKS / "goku.txt").read_text(), (DECKS / "raditz.txt").read_text()],
        "seed": 1,
        **extra,
    }
    if table and library.attack_table is not None:
        data["attack_table"] = library.attack_table.to_json()
    return data


def _match(library: Library, *, table: bool = True, **extra: Any) -> CcgMatch:
    rules = CcgRules(library)
    return rules.new(rules.read_setup(_setup(library, table=table, **extra)))


def _do(match: CcgMatch, *actions: a.Action) -> None:
    for action in actions:
        problem = match.check(action)
        assert problem is None, f"{action}: {problem}"
        match.apply(action)


def _to_combat(match: CcgMatch, power: int = 0, *, at: int | None = None) -> None:
    """John declares Combat, having powered up ``power`` stages; ``at``
    sets Goku's stages then (6: the Example of Play's 1,000)."""
    _do(
        match,
        a.DrawThree(seat=JOHN),
        a.EndNonCombat(seat=JOHN),
        a.PowerUp(seat=JOHN, stages=power),
        a.DeclareCombat(seat=JOHN),
    )
    if at is not None:
        match.state.side(JOHN).stages = at


def _physical(match: CcgMatch, seat: int) -> list[tuple[a.Action, str]]:
    return [
        (o.action, o.label)
        for o in match.offers(frozenset({"p1", "p2"}))
        if o.action.seat == seat
        and isinstance(o.action, a.Attack | a.FinalPhysicalAttack)
        and getattr(o.action, "attack", "physical") == "physical"
    ]


# --- the table and its bands -------------------------------------------------------------


def test_a_band_holds_the_powers_up_to_and_including_its_bound() -> None:
    table = PhysicalAttackTable(
        attacker_up_to=(999, 1999, None),
        defender_up_to=(500, 1500),
        damage=((1, 0), (2, 1), (3, 2)),
    )
    assert table.stages(0, 0) == 1
    assert table.stages(999, 500) == 1
    assert table.stages(1000, 500) == 2
    assert table.stages(1000, 501) == 1
    assert table.stages(10**9, 1500) == 2  # the open band holds every higher power
    assert table.stages(1000, 1501) is None  # off the defender's bands
    assert table.stages(-1, 0) is None


def test_the_rulebook_example_is_expressible(library: Library) -> None:
    """Seed 002, Example of Play: "attacking with a power stage of 1000 and
    I'm defending with 1500. That's a 1"."""
    assert library.attack_table is not None
    assert library.attack_table.stages(1000, 1500) == 1
    assert library.attack_table_file == str(TABLE_FILE)
    assert read_attack_table(TABLE_FILE) == library.attack_table


def test_a_table_that_does_not_fit_its_bands_is_refused() -> None:
    with pytest.raises(ValueError, match=r"damage\.0: one entry per defender band: 2, not 1"):
        PhysicalAttackTable(attacker_up_to=(5,), defender_up_to=(1, 2), damage=((1,),))
    with pytest.raises(ValueError, match=r"attacker_up_to\.0: only the last band is open"):
        PhysicalAttackTable(attacker_up_to=(None, 5), defender_up_to=(1,), damage=((1,), (1,)))


def test_the_schema_documents_every_field() -> None:
    schema = attack_table_schema()
    assert schema["title"] == "dbdeck CCG Physical Attack Table"
    assert "1000" in schema["description"]
    for name in ("$schema", "title", "attacker_up_to", "defender_up_to", "damage"):
        assert schema["properties"][name]["description"], name
    assert schema["additionalProperties"] is False


# --- bad files ---------------------------------------------------------------------------


BAD_TABLES = [
    (_table(damage=[[2, 1, 1, 0], [3, 2, 1], [4, 3, 2, 1], [5, 4, 3, 2]]), "damage.1: one entry"),
    (_table(damage=[[2, 1, 1, 0]]), "damage: one row per attacker band: 4 rows, not 1"),
    (_table(attacker_up_to=[999, 1499, 1200, None]), "attacker_up_to.2: the bounds rise"),
    (_table(defender_up_to=[None, 1499, 1999, 2500]), "defender_up_to.0: only the last band"),
    (_table(damage=[[2, 1, 1, 31], [3, 2, 1, 1], [4, 3, 2, 1], [5, 4, 3, 2]]), "damage.0.3: "),
    (_table(attacker_up_to=[999, "high", 1999, None]), "attacker_up_to.1: "),
    (_table(colour="red"), "colour: unknown field"),
    (_table(title="bad\x1b[31m"), "title: holds"),
    ({"damage": [[1]], "defender_up_to": [1]}, "attacker_up_to: missing field"),
]


@pytest.mark.parametrize("data,said", BAD_TABLES, ids=[s for _, s in BAD_TABLES])
def test_a_bad_table_file_is_one_line_naming_the_file_and_field(
    tmp_path: Path, data: dict[str, Any], said: str
) -> None:
    path = tmp_path / "physical-attack-table.ccg.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CardSetError) as caught:
        read_attack_table(path)
    first = str(caught.value.problems[0])
    assert "\n" not in first and first.startswith(str(path)) and said in first, first
    # The same file in a pack folder is refused the same way.
    with pytest.raises(CardSetError) as again:
        load_library([tmp_path], include_env_packs=False)
    assert said in str(again.value.problems[0])


def test_a_table_that_is_not_json_says_where(tmp_path: Path) -> None:
    path = tmp_path / "pat.json"
    path.write_text('{"attacker_up_to": [1,\n')
    with pytest.raises(CardSetError, match=r"pat\.json: invalid JSON at line 2"):
        read_attack_table(path)
    with pytest.raises(CardSetError, match=r"nope\.json: cannot read"):
        read_attack_table(tmp_path / "nope.json")


def test_two_tables_across_the_packs_are_refused(tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / TABLE_FILE.name).write_text(TABLE_FILE.read_text())
    with pytest.raises(CardSetError, match="a second Physical Attack Table"):
        load_library([PACK, other], include_env_packs=False)


def test_play_refuses_a_bad_table_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "mine.json"
    bad.write_text(json.dumps(_table(damage=[[1, 1, 1, 1]] * 3)))
    code = main(["ccg", "play", "--attack-table", str(bad), "--saves", str(tmp_path / "s")])
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Traceback" not in err
    assert "cannot read the Physical Attack Table" in err and str(bad) in err
    assert "damage: one row per attacker band" in err
    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / TABLE_FILE.name).write_text(bad.read_text())
    assert main(["ccg", "play", "--pack", str(folder), "--saves", str(tmp_path / "s")]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and f"{folder / TABLE_FILE.name}: damage:" in err


def test_resume_takes_no_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["ccg", "play", "--resume", "x", "--attack-table", str(TABLE_FILE)]
    assert main([*args, "--saves", str(tmp_path)]) == 2
    assert "keeps the Physical Attack Table it was set up with" in capsys.readouterr().err


# --- the setup, the snapshot and a save ----------------------------------------------------


def test_the_setup_carries_the_table_and_a_setup_without_one_reads_as_before(
    library: Library,
) -> None:
    rules = CcgRules(library)
    setup = rules.read_setup(_setup(library))
    assert isinstance(setup, CcgSetup) and setup.attack_table == library.attack_table
    data = json.loads(json.dumps(rules.setup_json(setup)))
    assert rules.read_setup(data) == setup
    plain = rules.read_setup(_setup(library, table=False))
    assert plain.attack_table is None and "attack_table" not in rules.setup_json(plain)
    assert _match(library, table=False).state.attack_table is None


def test_a_bad_table_in_a_setup_names_the_field(library: Library) -> None:
    rules = CcgRules(library)
    table = _table(defender_up_to=[1, 2])
    with pytest.raises(SetupProblem, match=r"setup\.attack_table\.damage\.0: one entry"):
        rules.read_setup(_setup(library, table=False, attack_table=table))
    table = _table(damage=[[99, 1, 1, 0], [3, 2, 1, 1], [4, 3, 2, 1], [5, 4, 3, 2]])
    with pytest.raises(SetupProblem, match=r"setup\.attack_table\.damage\.0\.0: "):
        rules.read_setup(_setup(library, table=False, attack_table=table))


def test_the_setup_file_for_a_shared_table_holds_the_packs_table(tmp_path: Path) -> None:
    out = tmp_path / "table.json"
    args = ["ccg", "setup", "--players", "ann,bob", "--seed", "3", "--pack", str(PACK)]
    assert main([*args, "-o", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["attack_table"]["damage"][1][2] == 1
    own = tmp_path / "own.json"
    own.write_text(json.dumps(_table(damage=[[6] * 4] * 4)))
    assert main([*args, "--attack-table", str(own), "-o", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["attack_table"]["damage"] == [[6] * 4] * 4  # the file named wins
    rules = CcgRules(load_library([PACK], include_env_packs=False))
    match = rules.new(rules.read_setup(data))
    assert match.state.attack_table is not None and match.state.attack_table.stages(0, 0) == 6


def test_the_snapshot_keeps_the_table_and_an_old_snapshot_has_none(library: Library) -> None:
    rules = CcgRules(library)
    match = _match(library)
    data = json.loads(json.dumps(match.to_json()))
    assert data["attack_table"] == _table()
    again = rules.match_from_json(data)
    assert again.fingerprint() == match.fingerprint()
    del data["attack_table"]
    assert rules.match_from_json(data).state.attack_table is None
    data["attack_table"] = {"attacker_up_to": [1], "defender_up_to": [1], "damage": [[1, 2]]}
    with pytest.raises(ValueError, match=r"not a CCG table: damage\.0"):
        rules.match_from_json(data)
    with pytest.raises(ValueError, match="no field 'x'"):
        table_from_json({"x": 1})


def test_a_saved_game_resumes_and_replays_with_its_table(library: Library, tmp_path: Path) -> None:
    rules = CcgRules(library)
    setup = rules.read_setup(_setup(library))
    session: Session[CcgMatch] = Session.start(
        rules, setup, tmp_path, seating=Seating(players={"p1": "John", "p2": "Sandra"})
    )
    rng = random.Random(5)
    for _ in range(60):
        session.apply(session.match.bot_move(rng))
    fingerprint = session.match.fingerprint()
    session.close()
    # Resumed with no pack at all, the game keeps the table it began with.
    resumed: Session[CcgMatch] = Session.resume(CcgRules(library), tmp_path, session.id)
    assert resumed.match.state.attack_table == library.attack_table
    assert resumed.match.fingerprint() == fingerprint
    resumed.close()
    data = json.loads((tmp_path / f"{session.id}.json").read_text())
    *_, (_, last, _) = replay_events(rules, data)
    assert last.fingerprint() == fingerprint
    logged = [e.text for e in last.state.log]
    assert any("on the Physical Attack Table" in t for t in logged), "the bot read the table"


# --- the offers, the reading and the log ---------------------------------------------------


def test_the_tables_damage_is_the_first_physical_attack_offered(library: Library) -> None:
    match = _match(library)
    _to_combat(match, power=2)  # Goku 1100 against Raditz 1500: the test table's 1
    offers = _physical(match, JOHN)
    punch = [(act, label) for act, label in offers if getattr(act, "source", None) is not None]
    first_action, first_label = punch[0]
    assert isinstance(first_action, a.Attack) and first_action.stages is None
    assert first_label.endswith(
        ": 1 stage (1,100 against 1,500: 1 stage on the Physical Attack Table)"
    )
    by_hand = [act for act, label in punch[1:7]]
    assert [getattr(act, "stages", None) for act in by_hand] == [1, 2, 3, 4, 5, 6]
    assert all(label.endswith(", by hand") for _, label in punch[1:7])
    finals = [(act, label) for act, label in offers if isinstance(act, a.FinalPhysicalAttack)]
    assert finals[0][0].stages is None and "1,100 against 1,500" in finals[0][1]


def test_without_a_table_or_without_ladders_the_offers_are_as_before(
    library: Library, shipped: Library
) -> None:
    for match in (
        _match(library, table=False),
        _match(shipped, table=False, attack_table=_table()),
    ):
        _to_combat(match)
        offers = _physical(match, JOHN)
        assert offers and all(getattr(act, "stages", 0) is not None for act, _ in offers)
        assert not any(
            "Physical Attack Table" in label or "by hand" in label for _, label in offers
        )
        assert {getattr(act, "stages", None) for act, _ in offers} == set(range(1, 7))
        refused = match.check(a.Attack(seat=JOHN, attack="physical"))
        assert refused is not None and refused.startswith("give the physical attack's stage")
    no_ladder = _match(shipped, table=False, attack_table=library.attack_table.to_json())  # type: ignore[union-attr]
    _to_combat(no_ladder)
    assert "no pack gives Goku's power ladder" in (
        no_ladder.check(a.Attack(seat=JOHN, attack="physical")) or ""
    )
    bare = _match(library, table=False)
    _to_combat(bare)
    final = a.FinalPhysicalAttack(seat=JOHN, discard=bare.state.side(JOHN).hand[0])
    assert "(the Physical Attack Table: the table has no Physical Attack Table file)" in (
        bare.check(final) or ""
    )


def test_a_power_off_the_table_is_not_read(library: Library) -> None:
    closed = _table(attacker_up_to=[999, 1499, 1999, 2000], defender_up_to=[999, 1099, 1199, 1299])
    match = _match(library, table=False, attack_table=closed)
    _to_combat(match)  # Goku 900 against Raditz 1500: above the defender's last band
    reason = match.check(a.Attack(seat=JOHN, attack="physical"))
    assert reason is not None and "Raditz's 1,500 is off the Physical Attack Table" in reason
    assert "(its defender bands stop at 1,299)" in reason
    assert not any(getattr(act, "stages", 0) is None for act, _ in _physical(match, JOHN))


def test_the_cost_is_paid_before_the_table_is_read(library: Library) -> None:
    match = _match(library)
    _to_combat(match, power=2)  # 1100; paying 2 stages leaves 900: the test table's 1 still
    _do(match, a.Pass(seat=JOHN))
    _do(match, a.Attack(seat=SANDRA, attack="physical", cost=5))  # Raditz 1500 pays 5: 0
    text = match.state.log[-1].text
    assert "(0 against 1,100: 1 stage on the Physical Attack Table), paying 5 stages" in text
    assert match.state.combat is not None and match.state.combat.attack is not None
    assert match.state.combat.attack.stages == 1


def test_an_ally_in_control_is_read_by_its_own_ladder(library: Library) -> None:
    match = _match(library)
    _to_combat(match)
    state = match.state
    sandra = state.side(SANDRA)
    ally = next(u for u in sandra.life_deck if state.cards[u].title == "Vegeta Level 1")
    sandra.life_deck.remove(ally)
    sandra.allies.append(ally)
    state.cards[ally].ladder = (0, 2000, 2100)
    state.cards[ally].stages = 2
    state.cards[ally].face_up = True
    sandra.stages = 1
    _do(match, a.Pass(seat=JOHN), a.TakeControl(seat=SANDRA, personality=ally))
    _do(match, a.Attack(seat=SANDRA, attack="physical"))  # 2100 against Goku's 900: open row, 5
    said = "Vegeta Level 1 makes a physical attack with a personality power: 5 stages"
    assert f"{said} (2,100 against 900: 5 stages on the Physical" in state.log[-1].text


def test_suggest_mode_suggests_the_tables_damage(library: Library) -> None:
    match = _match(library, adjudication="suggest")
    _to_combat(match, at=6)  # 1000 against 1500
    _do(match, a.Attack(seat=JOHN, attack="physical"), a.AllowAttack(seat=SANDRA))
    assert match.state.side(SANDRA).stages == 5  # suggested, not dealt
    assert match.state.suggestion.startswith("Raditz loses 1 stage and Sandra discards 0")
    assert any(
        "1,000 against 1,500: 1 stage on the Physical Attack Table" in e.text
        for e in match.state.log
    )


def test_with_the_rules_off_the_table_is_still_read_and_nothing_dealt(library: Library) -> None:
    match = _match(library, adjudication="off")
    _to_combat(match, at=6)
    first = _physical(match, JOHN)[0][0]
    assert first == a.Attack(seat=JOHN, source=match.state.side(JOHN).hand[0], attack="physical")
    _do(match, a.Attack(seat=JOHN, attack="physical"), a.AllowAttack(seat=SANDRA))
    assert "1,000 against 1,500: 1 stage" in match.state.log[-2].text
    assert match.state.side(SANDRA).stages == 5


def test_a_final_physical_attack_reads_the_table(library: Library) -> None:
    match = _match(library)
    _to_combat(match, at=6)
    card = match.state.side(JOHN).hand[0]
    _do(match, a.FinalPhysicalAttack(seat=JOHN, discard=card), a.AllowAttack(seat=SANDRA))
    assert any(
        "Final Physical Attack" in e.text
        and "1 stage (1,000 against 1,500: 1 stage on the Physical Attack Table)" in e.text
        for e in match.state.log
    )
    assert match.state.side(SANDRA).stages == 4


def test_the_sparring_bot_reads_the_table(library: Library) -> None:
    match = _match(library)
    rng = random.Random(3)
    read = 0
    for _ in range(400):
        if match.over:
            break
        action = match.bot_move(rng)
        if isinstance(action, a.Attack) and action.attack == "physical":
            assert action.stages is None
            read += 1
        match.apply(action)
    assert read > 0
