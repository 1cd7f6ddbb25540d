"""A game keeps the card facts it began with (rules notes, T10): a new table's
setup records each card's ladder, PUR and the rest the table reads, never
its text; a save then resumes, rebuilds its log, replays and is hosted
without the packs, and a changed pack changes no replay. An older setup
without the record reads the packs as before; a bad record is refused at
the boundary, naming the field."""

from __future__ import annotations

import asyncio
import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from table_clients import READ_TIMEOUT, RecordingClient, Users

from dbdeck.cli import _setup_file, main
from dbdeck.games.ccg.library import Library, load_library
from dbdeck.games.ccg.match import CcgMatch, CcgRules
from dbdeck.games.ccg.table.card_facts import MAX_RECORDED_CARDS
from dbdeck.games.ccg.table.setup import CcgSetup
from dbdeck.net.protocol import ActionMessage, ViewMessage
from dbdeck.net.server import TableServer
from dbdeck.packs.reading import CardSetError
from dbdeck.saves import SaveError, Session, load_save
from dbdeck.saves.replay import replay_events
from dbdeck.seating import Seating
from dbdeck.tabletop import registry
from dbdeck.tabletop.game import SetupProblem
from dbdeck.tui.local import LocalBackend, ReplayBackend

HERE = Path(__file__).resolve().parent
DECKS = HERE.parent / "cards" / "ccg" / "decks"
PACK = HERE / "scenarios" / "ccg" / "pack-attack-table"
"""Goku's and Raditz's ladders and PURs, and a Physical Attack Table."""
TEXT_PACK = HERE / "ccg" / "pack-text"
"""A card text made up for the tests."""
GOKU_LADDER = [0, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300, 1400]
READ = "on the Physical Attack Table"
"""What the log says when the table read a physical attack's damage."""


@pytest.fixture(autouse=True)
def _no_env_packs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands read no packs but the ones a test names."""
    monkeypatch.delenv("DBDECK_PACKS", raising=False)


@pytest.fixture(scope="module")
def with_pack() -> CcgRules:
    return CcgRules(load_library([PACK], include_env_packs=False))


@pytest.fixture(scope="module")
def bare() -> CcgRules:
    """The shipped data alone: no ladder, no PUR, no table."""
    return CcgRules(load_library(include_env_packs=False))


def _data(rules: CcgRules, **extra: Any) -> dict[str, Any]:
    library: Library = rules.library
    return {
        "players": ["John", "Sandra"],
        "decks": [(DECKS / "goku.txt").read_text(), (DECKS / "raditz.txt").read_text()],
        "seed": 1,
        **(
            {"attack_table": library.attack_table.to_json()}
            if library.attack_table is not None
            else {}
        ),
        **extra,
    }


def _new_setup(rules: CcgRules) -> CcgSetup:
    return rules.record_facts(rules.read_setup(_data(rules)))


def _saved_game(rules: CcgRules, folder: Path, setup: CcgSetup, moves: int = 60) -> str:
    """A game the sparring bot plays at both seats, saved; its id."""
    session: Session[CcgMatch] = Session.start(
        rules, setup, folder, seating=Seating(players={"p1": "John", "p2": "Sandra"})
    )
    rng = random.Random(5)
    for _ in range(moves):
        if session.match.over:
            break
        session.apply(session.match.bot_move(rng))
    session.close()
    return session.id


def _save(folder: Path, save_id: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / f"{save_id}.json").read_text())
    return data


def _without_record(folder: Path, save_id: str) -> None:
    """The save as dbdeck wrote it before setups recorded the facts."""
    data = _save(folder, save_id)
    del data["setup"]["card_facts"]
    (folder / f"{save_id}.json").write_text(json.dumps(data))


def _changed_pack(folder: Path) -> Path:
    """The pack with Goku's ladder ten times higher and his PUR 3."""
    pack = folder / "changed-pack"
    shutil.copytree(PACK, pack)
    ladders = pack / "ladders.ccg.json"
    data = json.loads(ladders.read_text())
    for card in data["cards"]:
        if card["id"] == "goku-level-1":
            card["pur"] = 3
            card["power_stages"] = [10 * p for p in card["power_stages"]]
    ladders.write_text(json.dumps(data))
    return pack


# --- the record -----------------------------------------------------------------------------


def test_a_new_setup_records_what_the_table_reads_of_each_card(with_pack: CcgRules) -> None:
    setup = _new_setup(with_pack)
    assert setup.card_facts is not None
    recorded = {card.written: card for card in setup.card_facts}
    goku = recorded["Goku Level 1"]
    assert goku.card_id == "goku-level-1" and goku.type == "personality"
    assert (goku.personality, goku.level, goku.alignment) == ("Goku", 1, "hero")
    assert goku.pur == 1 and list(goku.ladder) == GOKU_LADDER
    assert recorded["Raditz Level 1"].alignment == "villain"
    balls = [card.dragon_ball for card in setup.card_facts if card.dragon_ball is not None]
    assert balls and all(ball[0] == "Earth" for ball in balls)
    data = json.loads(json.dumps(with_pack.setup_json(setup)))
    assert with_pack.read_setup(data) == setup, "the record reads back as written"
    # A table from the record is the table the packs give.
    assert (
        with_pack.new(setup).fingerprint()
        == with_pack.new(with_pack.read_setup(_data(with_pack))).fingerprint()
    )


def test_no_card_text_is_recorded(bare: CcgRules) -> None:
    rules = CcgRules(load_library([TEXT_PACK], include_env_packs=False))
    text = json.loads((TEXT_PACK / "texts.ccg.json").read_text())["cards"][0]["text"]
    setup = _new_setup(rules)
    assert setup.card_facts is not None
    punch = next(c for c in setup.card_facts if c.written == "Orange Standing Fist Punch")
    assert punch.type == "physical-combat", "the card's facts are recorded"
    written = json.dumps(rules.setup_json(setup))
    assert text not in written and "Test words" not in written
    assert all("text" not in card for card in json.loads(written)["card_facts"])


def test_an_old_setup_without_the_record_reads_the_packs(
    with_pack: CcgRules, bare: CcgRules
) -> None:
    old = with_pack.read_setup(_data(with_pack))
    assert old.card_facts is None and "card_facts" not in with_pack.setup_json(old)
    table = with_pack.new(old).state
    assert table.cards[table.side(0).main].ladder == tuple(GOKU_LADDER)
    state = bare.new(bare.read_setup(_data(with_pack))).state
    assert state.cards[state.side(0).main].ladder == (), "without the pack, no ladder"


def test_a_title_unknown_when_recorded_stays_unknown(tmp_path: Path) -> None:
    deck = (DECKS / "goku.txt").read_text() + "1 Card Not Yet In Any Pack\n"
    rules = CcgRules(load_library([PACK], include_env_packs=False))
    data = {**_data(rules), "decks": [deck, (DECKS / "raditz.txt").read_text()]}
    data["allow_illegal"] = True
    setup = rules.record_facts(rules.read_setup(data))
    assert setup.card_facts is not None
    assert all(c.written != "Card Not Yet In Any Pack" for c in setup.card_facts)
    pack = tmp_path / "later"
    shutil.copytree(PACK, pack)
    (pack / "new.ccg.json").write_text(
        json.dumps({"cards": [{"id": "new-card", "title": "Card Not Yet In Any Pack"}]})
    )
    later = CcgRules(load_library([pack], include_env_packs=False))
    state = later.new(later.read_setup(json.loads(json.dumps(rules.setup_json(setup))))).state
    card = next(c for c in state.cards.values() if c.title == "Card Not Yet In Any Pack")
    assert card.card_id == "", "still unknown: the pack came after the table was set up"
    fresh = later.new(later.read_setup(data)).state
    assert any(c.card_id == "new-card" for c in fresh.cards.values())


# --- a save without its pack ----------------------------------------------------------------


def test_a_game_played_with_a_pack_resumes_and_rebuilds_its_log_without_it(
    with_pack: CcgRules, bare: CcgRules, tmp_path: Path
) -> None:
    save_id = _saved_game(with_pack, tmp_path, _new_setup(with_pack))
    data = _save(tmp_path, save_id)
    assert "card_facts" in data["setup"]
    loaded = load_save(tmp_path, save_id, rules=bare)
    assert loaded.replays, "rebuilt from its setup and actions, not only its snapshot"
    resumed: Session[CcgMatch] = Session.resume(bare, tmp_path, save_id)
    try:
        main_card = resumed.match.state.cards[resumed.match.state.side(0).main]
        assert main_card.pur == 1 and list(main_card.ladder) == GOKU_LADDER
        lines = [line.text for line in LocalBackend(resumed).events()]
    finally:
        resumed.close()
    assert not any("cannot be rebuilt" in line for line in lines)
    assert "The game goes on from here." in lines
    assert any(READ in line for line in lines), "the rebuilt log holds the table's readings"
    *_, (_, last, _) = replay_events(bare, data)
    assert last.fingerprint() == loaded.match.fingerprint()
    # Without the record (a save written before it) the same game does not replay.
    _without_record(tmp_path, save_id)
    assert not load_save(tmp_path, save_id, rules=bare).replays


def test_dbdeck_replay_of_a_save_without_its_pack(
    with_pack: CcgRules,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from dbdeck.games.deckbuilding.tui.app import DbdeckApp

    save_id = _saved_game(with_pack, tmp_path, _new_setup(with_pack))
    opened: list[ReplayBackend] = []

    def run(app: DbdeckApp, **_: Any) -> None:
        opened.append(app.start_screen.backend)  # type: ignore[union-attr]

    monkeypatch.setattr(DbdeckApp, "run", run)
    for seat in (None, 0, 1):
        argv = ["--saves", str(tmp_path), "replay", save_id]
        assert main([*argv, *(["--seat", str(seat)] if seat is not None else [])]) == 0
        assert "cannot" not in capsys.readouterr().err
        backend = opened[-1]
        assert isinstance(backend, ReplayBackend) and len(backend.frames) > 3
        backend.go(len(backend.frames) - 1)
        view = backend.view()
        assert view.viewer == seat
        assert list(view.seats[0].main.stage_values) == GOKU_LADDER
        assert view.seats[0].main.pur == 2  # the PUR 1, +1 for the Orange Tokui-Waza
        lines = [line.text for frame in backend.frames for line in frame[1]]
        assert any(READ in line for line in lines)
    assert main(["--saves", str(tmp_path), "log", save_id]) == 0
    assert READ in capsys.readouterr().out
    _without_record(tmp_path, save_id)
    assert main(["--saves", str(tmp_path), "replay", save_id]) == 1
    assert "its actions play differently" in capsys.readouterr().err


def test_a_changed_pack_does_not_change_a_replay(with_pack: CcgRules, tmp_path: Path) -> None:
    save_id = _saved_game(with_pack, tmp_path, _new_setup(with_pack))
    data = _save(tmp_path, save_id)
    changed = CcgRules(load_library([_changed_pack(tmp_path)], include_env_packs=False))
    new_goku = changed.new(changed.read_setup(_data(changed))).state
    assert new_goku.cards[new_goku.side(0).main].pur == 3, "the pack did change"
    loaded = load_save(tmp_path, save_id, rules=changed)
    assert loaded.replays
    frames = [m.fingerprint() for _, m, _ in replay_events(with_pack, data)]
    again = [m.fingerprint() for _, m, _ in replay_events(changed, data)]
    assert again == frames, "every step of the replay is the game that was played"
    main_card = loaded.match.state.cards[loaded.match.state.side(0).main]
    assert main_card.pur == 1 and list(main_card.ladder) == GOKU_LADDER
    # An old save reads the pack of the day, so the changed pack changes it.
    _without_record(tmp_path, save_id)
    old = _save(tmp_path, save_id)
    first_old = next(replay_events(changed, old))[1]
    assert first_old.state.cards[first_old.state.side(0).main].pur == 3


# --- a shared table ---------------------------------------------------------------------------


def test_a_setup_file_is_hosted_without_the_pack(tmp_path: Path) -> None:
    out = tmp_path / "table.json"
    args = ["ccg", "setup", "--players", "ann,bob", "--seed", "3", "--pack", str(PACK)]
    assert main([*args, "-o", str(out)]) == 0
    written = json.loads(out.read_text())
    goku = next(c for c in written["card_facts"] if c["written"] == "Goku Level 1")
    assert goku["ladder"] == GOKU_LADDER and goku["pur"] == 1
    rules = registry.open_rules("ccg")  # the host's: no pack
    assert isinstance(rules, CcgRules) and not rules.library.find("Goku Level 1")[0].power_stages
    setup = _setup_file(out, rules)
    labels = asyncio.run(_host(rules, setup, tmp_path))
    assert any("(its PUR, +1 Tokui-Waza)" in label for label in labels), (
        "Power Up offers the recorded PUR"
    )
    assert any(READ in label for label in labels), "the attack reads the recorded ladders"


async def _host(rules: CcgRules, setup: CcgSetup, folder: Path) -> list[str]:
    """Ann plays her first turn at a served table to her first physical
    attack, from the offers the wire brings; every label she was offered."""
    session: Session[CcgMatch] = Session.start(rules, setup, folder, save_id="ccg")
    users = Users()
    server = TableServer(
        session,
        "club",
        socket_path=folder / "club.sock",
        owner="ann",
        identify=users,
        admits=lambda user: user in ("ann", "bob"),
        bot_delay=0.0,
        announce=False,
    )
    await server.start()
    labels: list[str] = []
    try:
        clients = []
        for user, seat in (("ann", 0), ("bob", 1)):
            users.next.append(user)
            client = await RecordingClient.connect(socket_path=server.socket_path)
            assert isinstance(client, RecordingClient)
            await client.hello(game="ccg", seat=seat)
            clients.append(client)
        ann = clients[0]
        plan = ["Draw three cards", "End the Non-Combat step", "Power up Goku", "Declare Combat"]
        while True:
            message = await asyncio.wait_for(ann.receive(), READ_TIMEOUT)
            assert message is not None, "the connection closed"
            if not isinstance(message, ViewMessage) or not message.legal:
                continue
            offers = [rules.read_offer(o) for o in message.legal]
            labels += [o.label for o in offers]
            assert message.view["seats"][0]["main"]["stage_values"] == GOKU_LADDER
            if not plan:
                return labels
            step = plan.pop(0)
            chosen = next(o for o in offers if o.label.startswith(step))
            await ann.send(
                ActionMessage(
                    type="action", version=message.version, action=chosen.action.to_json()
                )
            )
    finally:
        await server.close()


# --- a bad record ---------------------------------------------------------------------------


def _record(**changes: Any) -> dict[str, Any]:
    card: dict[str, Any] = {
        "written": "Goku Level 1",
        "title": "Goku Level 1",
        "card_id": "goku-level-1",
        "type": "personality",
        "personality": "Goku",
        "level": 1,
        "pur": 1,
        "ladder": GOKU_LADDER,
    }
    card.update(changes)
    return card


@pytest.mark.parametrize(
    ("records", "said"),
    [
        ([_record(text="as printed")], "setup.card_facts.0.text: Extra inputs are not permitted"),
        ([_record(ladder=[500, 600])], "setup.card_facts.0: the ladder starts at stage 0"),
        ([_record(ladder=[0] * 32)], "setup.card_facts.0.ladder: List should have at most 31"),
        ([_record(ladder=[0, 10**16])], "setup.card_facts.0.ladder.1: Input should be less"),
        ([_record(pur=21)], "setup.card_facts.0.pur: Input should be less than or equal to 20"),
        ([_record(written="Goku\x1b[2J")], "setup.card_facts.0.written: String should match"),
        ([_record(card_id="Goku!")], "setup.card_facts.0.card_id"),
        ([_record(type="ultimate")], "setup.card_facts.0.type"),
        (
            [_record(), _record(written="goku  level 1")],
            "setup.card_facts: a second record of the title 'goku  level 1'",
        ),
        (
            [_record(written=f"Card {n}") for n in range(MAX_RECORDED_CARDS + 1)],
            f"setup.card_facts: List should have at most {MAX_RECORDED_CARDS} items",
        ),
        ({"written": "x"}, "setup.card_facts: Input should be a valid list"),
    ],
)
def test_a_bad_record_is_refused_naming_the_field(bare: CcgRules, records: Any, said: str) -> None:
    with pytest.raises(SetupProblem) as refused:
        bare.read_setup(_data(bare, card_facts=records))
    assert str(refused.value).startswith(said), str(refused.value)
    assert "\n" not in str(refused.value)


def test_a_bad_record_in_a_save_or_a_setup_file_is_one_clear_line(
    with_pack: CcgRules, bare: CcgRules, tmp_path: Path
) -> None:
    save_id = _saved_game(with_pack, tmp_path, _new_setup(with_pack), moves=4)
    data = _save(tmp_path, save_id)
    data["setup"]["card_facts"][0]["ladder"] = [7]
    (tmp_path / f"{save_id}.json").write_text(json.dumps(data))
    with pytest.raises(SaveError) as refused:
        load_save(tmp_path, save_id, rules=bare)
    assert "setup.card_facts.0: the ladder starts at stage 0" in str(refused.value)
    file = tmp_path / "table.json"
    file.write_text(json.dumps({**data["setup"], "card_facts": [_record(pur=-1)]}))
    with pytest.raises(SetupProblem, match=r"^--setup .*table\.json: setup\.card_facts\.0\.pur:"):
        _setup_file(file, bare)


def test_decks_naming_more_cards_than_a_record_holds_are_refused(
    bare: CcgRules, tmp_path: Path
) -> None:
    pack = tmp_path / "many"
    pack.mkdir()
    cards = [
        {"id": f"test-card-{n}", "title": f"Test Card {n}", "type": "non-combat"}
        for n in range(MAX_RECORDED_CARDS + 1)
    ]
    (pack / "many.ccg.json").write_text(json.dumps({"cards": cards}))
    rules = CcgRules(load_library([pack], include_env_packs=False))
    deck = (DECKS / "goku.txt").read_text() + "".join(f"1 Test Card {n}\n" for n in range(501))
    data = {**_data(rules), "decks": [deck, (DECKS / "raditz.txt").read_text()]}
    setup = rules.read_setup({**data, "allow_illegal": True})
    with pytest.raises(SetupProblem, match=r"the decks name \d+ different known cards; a table"):
        rules.record_facts(setup)
    assert rules.new(setup).state.cards, "the same decks still sit at a table of the day"


def test_a_pack_ladder_holds_powers_a_record_can_keep(tmp_path: Path) -> None:
    pack = tmp_path / "negative"
    pack.mkdir()
    card = {"id": "goku-level-1", "title": "Goku Level 1", "power_stages": [0, -500, 600]}
    (pack / "mine.ccg.json").write_text(json.dumps({"cards": [card]}))
    with pytest.raises(CardSetError) as refused:
        load_library([pack], include_env_packs=False)
    said = str(refused.value)
    assert "card 'goku-level-1': power_stages.1: Input should be greater than or equal to 0" in said


def test_whether_a_pack_calls_a_card_a_fusion_personality_is_recorded() -> None:
    """Fuse reads it (rules notes, T9): a save keeps it without the pack."""
    fusion_pack = HERE / "scenarios" / "ccg" / "pack-fusion"
    rules = CcgRules(load_library([fusion_pack], include_env_packs=False))
    deck = (DECKS / "goku.txt").read_text() + "\n[Sensei Deck]\n1 Test Gokuhan Level 1\n"
    data = {**_data(rules), "decks": [deck, (DECKS / "raditz.txt").read_text()]}
    data["allow_illegal"] = True
    setup = rules.record_facts(rules.read_setup(data))
    assert setup.card_facts is not None
    recorded = {card.title: card for card in setup.card_facts}
    assert recorded["Test Gokuhan Level 1"].fusion is True
    assert recorded["Goku Level 1"].fusion is None  # no pack says
    again = _bare_rules().read_setup(rules.setup_json(setup))
    assert again.card_facts is not None
    assert {c.title: c.fusion for c in again.card_facts}["Test Gokuhan Level 1"] is True


def _bare_rules() -> CcgRules:
    return CcgRules(load_library(include_env_packs=False))
