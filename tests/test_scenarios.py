"""Every scenario file in tests/scenarios holds, and the runner reports failures clearly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dbdeck.cli import main
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine import audit
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.scenario import clean_game, run_file
from dbdeck.scenarios import ScenarioFailure

SCENARIOS = sorted(
    p for p in (Path(__file__).parent / "scenarios").rglob("*.toml") if "ccg" not in p.parts
)
"""The deckbuilding game's scenarios (the CCG's are in ``scenarios/ccg``:
``tests/test_ccg_scenarios.py``)."""


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(catalog: Catalog, path: Path) -> None:
    run_file(catalog, path)


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 15


def test_failing_scenario_names_file_step_and_expectation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'name = "wrong on purpose"\n'
        '[setup]\nvillain = "freezer"\ncharacters = ["krillin"]\n'
        '[table]\nactive = "krillin"\n[table.villain]\narrived = true\nminions = []\n'
        '[table.characters.krillin]\nhand = ["knee-strike"]\n'
        '[[steps]]\naction = {type = "attack", cards = ["knee-strike"], target = "v"}\n'
        'expect = {"villain.damage" = 5}\n'
    )
    assert main(["scenario", "run", str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"FAIL {bad}: step 1: expected villain.damage = 5, got 1" in out


def test_unreadable_scenario_is_a_failure_not_a_traceback(catalog: Catalog, tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("name = \n")
    with pytest.raises(ScenarioFailure, match="cannot read"):
        run_file(catalog, broken)


def test_no_shipped_scenario_keeps_unlisted_state(catalog: Catalog) -> None:
    """Every scenario lists what the opening turns left, or lays a clean table."""
    kept = [(p.name, w) for p in SCENARIOS for w in run_file(catalog, p).warnings]
    assert kept == []


def _scenario(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "s.toml"
    path.write_text('[setup]\nvillain = "freezer"\ncharacters = ["goku"]\nseed = 3\n' + body)
    return path


def test_leftover_state_is_warned_and_clean_table_has_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # With this seed Broly's opening turn hurts Goku, prepares an attack and
    # discards a card: a table that lists none of it is warned about each.
    setup = '[setup]\nvillain = "broly"\ncharacters = ["goku"]\nseed = 1\n'
    path = tmp_path / "s.toml"
    path.write_text(setup + '[table]\nactive = "goku"\n')
    assert main(["scenario", "run", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"warn {path}: table keeps characters.goku.damage = 2 from the opening turns" in out
    assert "table keeps villain.time_track = [['broly-trap-shooter'], [], [], []]" in out
    assert "table keeps villain.discard = ['broly-furious-rage']" in out
    listed = "[table.characters.goku]\ndamage = 0\n[table.villain]\ntime_track = [[], [], [], []]\n"
    path.write_text(setup + '[table]\nactive = "goku"\n' + listed + "discard = []\n")
    assert main(["scenario", "run", str(path)]) == 0
    path.write_text(
        setup + '[table]\nclean = true\nactive = "goku"\n[table.markets]\nallies = ["mai-ally"]\n'
    )
    assert main(["scenario", "run", str(path)]) == 0
    assert "warn" not in capsys.readouterr().out.replace(str(tmp_path), "")


def test_clean_table_holds_only_what_is_laid(catalog: Catalog) -> None:
    game = clean_game(Game.new(catalog, Setup(villain="raditz", characters=["goku"], seed=2)))
    s = game.state
    assert s.card_ids == []
    assert [c.id for c in s.characters] == ["goku"]
    assert s.balls == [None] * 7
    assert s.villain.minions == [] and s.villain.deck == [] and s.villain.tokens == {}
    assert all(not m.row and not m.deck for m in s.markets.values())
    assert sorted(s.turn_deck) == sorted(s.turn_cards)
    assert s.round == 1 and s.step == "reveal"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            '[table]\nclean = true\nactive = "goku"\n',
            "table.markets.allies: a clean table needs Allies in the Ally Market",
        ),
        (
            '[table]\nactive = "goku"\n[table.characters.goku]\nallies = ["mai-ally"]\n'
            "ally_damage = [3]\n",
            "table.characters.goku.ally_damage.0: 3 damage would eliminate Mai (Health 3)",
        ),
        (
            '[table]\nactive = "goku"\n[table.characters.goku]\nexhausted = ["scouter"]\n',
            "table.characters.goku.exhausted.0: no ready 'scouter' in play",
        ),
        (
            '[table]\nactive = "goku"\n[table.characters.goku]\nroom_tokens = 2\n',
            "the Room of Spirit and Time is not among its Training",
        ),
        (
            '[table]\nactive = "goku"\n[table.characters.goku]\ndefeated = true\n'
            'equipment = ["scouter"]\n',
            "a defeated Character has no cards in play",
        ),
        (
            '[table]\nactive = "goku"\n[table.characters.goku]\n'
            'bonuses = [{kind = "speed", amount = 1, duration = "this-turn"}]\n',
            "unknown bonus 'speed'",
        ),
        (
            '[table]\nactive = "goku"\ndragon_balls = {"m:freezer-guldo" = 1}\n'
            "[table.villain]\nminions = []\n",
            "no Minion 'freezer-guldo' in play",
        ),
        (
            '[table]\nactive = "goku"\n[table.markets]\nallies = ["mai-ally", "block"]\n',
            "table.markets: the allies market holds only Allies, not 'block' (training)",
        ),
        (
            '[table]\nactive = "goku"\n[table.market_decks]\nenergy = ["mai-ally"]\n',
            "table.market_decks: the energy market holds no Ally, not 'mai-ally'",
        ),
    ],
)
def test_bad_laid_table_is_named(catalog: Catalog, tmp_path: Path, body: str, message: str) -> None:
    with pytest.raises(ScenarioFailure, match=re.escape(message)):
        run_file(catalog, _scenario(tmp_path, body))


_TABLE = (
    '[table]\nclean = true\nactive = "goku"\n[table.markets]\nallies = ["mai-ally"]\n'
    "[table.characters.goku]\n"
)


@pytest.mark.parametrize(
    ("step", "message"),
    [
        (
            'expect_log_order = ["draws 1", "shuffles"]',
            "the log has 'shuffles' only before the line of the text listed before it",
        ),
        ('expect_log_order = ["Kamehameha"]', "the log has 'Kamehameha' nowhere"),
        (
            'shuffles = [["energy", "energy"]]',
            "scripted shuffle ['energy', 'energy'] is not the pile being shuffled",
        ),
        (
            'equals_set = {"characters.goku.hand" = ["energy"]}',
            "expected characters.goku.hand equals set ['energy'], got",
        ),
        (
            'contains = {"characters.goku.hand" = ["energy", "energy", "energy"]}',
            "expected characters.goku.hand contains",
        ),
        ('lacks = {"characters.goku.hand" = ["kikoho"]}', "expected characters.goku.hand lacks"),
        ('contains = {"round" = ["1"]}', "round is not a list: 1"),
    ],
)
def test_failed_order_and_membership_checks_say_what_was_seen(
    catalog: Catalog, tmp_path: Path, step: str, message: str
) -> None:
    # Goku's Scouter: draw 1 with an empty deck (his discard is shuffled), discard 1.
    body = (
        _TABLE + 'hand = ["energy", "kikoho"]\ndiscard = ["energy", "punch-and-kick"]\n'
        'equipment = ["capsule-corp-computer"]\n'
        '[[steps]]\naction = {type = "exhaust", card = "capsule-corp-computer"}\n' + step + "\n"
    )
    with pytest.raises(ScenarioFailure, match=re.escape(message)):
        run_file(catalog, _scenario(tmp_path, body))


def test_scripted_shuffle_and_pick_decide_the_draw(catalog: Catalog, tmp_path: Path) -> None:
    body = (
        _TABLE + 'hand = ["energy"]\ndiscard = ["energy", "punch-and-kick", "kikoho"]\n'
        'equipment = ["capsule-corp-computer"]\n'
        "[[steps]]\n"
        'shuffles = [["kikoho", "energy", "punch-and-kick"]]\n'
        'action = {type = "exhaust", card = "capsule-corp-computer"}\n'
        'expect_log_order = ["shuffles the discard pile", "draws 1"]\n'
        'equals_set = {"characters.goku.hand" = ["energy", "kikoho"]}\n'
        'expect = {"characters.goku.deck_size" = 2}\n'
    )
    run_file(catalog, _scenario(tmp_path, body))


def test_solo_starting_ally_is_in_one_place_for_every_seed(catalog: Catalog) -> None:
    for seed in [*range(40), 860779]:
        game = Game.new(
            catalog,
            Setup(
                villain="broly",
                characters=["vegeta-ss1"],
                starting_ally="piccolo-ally",
                seed=seed,
            ),
        )
        s = game.state
        places = [
            place for place, uid in audit.card_places(game) if s.card_ids[uid] == "piccolo-ally"
        ]
        assert places == ["vegeta-ss1.in-play"], seed
        assert len(s.markets["allies"].row) == 4, seed
        assert audit.problems(game) == [], seed


def test_a_key_that_names_no_holder_is_a_failure_not_a_bug(
    catalog: Catalog, tmp_path: Path
) -> None:
    path = tmp_path / "bad-holder.toml"
    path.write_text(
        'name = "bad holder"\nrulebook = "none"\n[setup]\nvillain = "freezer"\n'
        'characters = ["goku"]\n[table]\ndragon_balls = {"x:goku" = 1}\n'
    )
    with pytest.raises(ScenarioFailure, match=re.escape("table: not a holder: 'x:goku'")):
        run_file(catalog, path)
