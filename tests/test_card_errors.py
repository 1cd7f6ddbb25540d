"""Crafted bad card files each give one clear line: file, card id, field, message."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from card_samples import ALLY

from dbdeck.cli import main
from dbdeck.games.deckbuilding.cards.catalog import CardSetError, load_catalog


def problems_of(pack: Path, *, shipped: bool = False) -> list[str]:
    """The problem lines for a pack (alone, or on top of the shipped set)."""
    with pytest.raises(CardSetError) as err:
        load_catalog([pack], include_shipped=shipped, include_env_packs=False)
    return [str(p) for p in err.value.problems]


def test_unknown_operation_names_file_card_and_field(write_pack: Callable[..., Path]) -> None:
    ally = ALLY | {"exhaust_effects": [{"op": "teleport", "count": 1}]}
    pack = write_pack(allies=[ally])
    [line] = problems_of(pack)
    assert line.startswith(
        f"{pack / 'allies.json'}: card 'test-bulma-ally': exhaust_effects.0.op: "
    )
    assert "unknown op 'teleport'" in line
    assert "'draw'" in line  # the message lists what is allowed


def test_unknown_field_is_refused(write_pack: Callable[..., Path]) -> None:
    pack = write_pack(allies=[ALLY | {"hitpoints": 4}])
    assert problems_of(pack) == [
        f"{pack / 'allies.json'}: card 'test-bulma-ally': hitpoints: unknown field"
    ]


def test_unknown_field_inside_an_operation(write_pack: Callable[..., Path]) -> None:
    pack = write_pack(allies=[ALLY | {"exhaust_effects": [{"op": "draw", "count": 1, "x": 1}]}])
    assert problems_of(pack) == [
        f"{pack / 'allies.json'}: card 'test-bulma-ally': exhaust_effects.0.x: unknown field"
    ]


def test_wrong_type(write_pack: Callable[..., Path]) -> None:
    pack = write_pack(allies=[ALLY | {"power": "strong"}])
    [line] = problems_of(pack)
    assert line.startswith(f"{pack / 'allies.json'}: card 'test-bulma-ally': power: ")
    assert "integer" in line


def test_missing_field(write_pack: Callable[..., Path]) -> None:
    ally = {k: v for k, v in ALLY.items() if k != "race"}
    pack = write_pack(allies=[ally])
    assert problems_of(pack) == [
        f"{pack / 'allies.json'}: card 'test-bulma-ally': race: missing field"
    ]


def test_unknown_kind(write_pack: Callable[..., Path]) -> None:
    pack = write_pack(misc=[{"kind": "spaceship", "id": "capsule-one", "name": "Capsule One"}])
    [line] = problems_of(pack)
    assert line.startswith(f"{pack / 'misc.json'}: card 'capsule-one': kind: unknown kind ")


def test_every_problem_of_a_file_is_reported(write_pack: Callable[..., Path]) -> None:
    second = ALLY | {"id": "test-chichi-ally", "race": "saiyajin"}
    pack = write_pack(allies=[ALLY | {"power": -1}, second])
    lines = problems_of(pack)
    assert len(lines) == 2
    assert "card 'test-bulma-ally': power:" in lines[0]
    assert "card 'test-chichi-ally': race:" in lines[1]


def test_duplicate_id_names_both_files(write_pack: Callable[..., Path]) -> None:
    pack = write_pack(
        techniques=[
            {
                "kind": "technique",
                "id": "sokidan",
                "name": "Fan Sokidan",
                "cost": 2,
                "technique_type": "physical",
                "damage": 1,
            }
        ]
    )
    [line] = problems_of(pack, shipped=True)
    assert line.startswith(f"{pack / 'techniques.json'}: card 'sokidan': id: duplicate id")
    assert "techniques.json" in line.split("already defined in", 1)[1]


def test_dangling_reference(write_pack: Callable[..., Path]) -> None:
    pack = write_pack(minions=[ALLY | {"destroy_effects": [{"op": "summon", "card": "nobody"}]}])
    assert problems_of(pack) == [
        f"{pack / 'minions.json'}: card 'test-bulma-ally': destroy_effects.0.card: "
        "unknown card 'nobody'"
    ]


def test_reference_to_wrong_kind(write_pack: Callable[..., Path]) -> None:
    character = {
        "kind": "character",
        "id": "test-hero",
        "name": "Test Hero",
        "race": "human",
        "level": 0,
        "max_health": 10,
        "dragon_ball_cost": 4,
        "cost_modifiers": {},
        "starting_cards": [{"card": "freezer", "copies": 1}],
    }
    [line] = problems_of(write_pack(heroes=[character]), shipped=True)
    assert line.endswith(
        "card 'test-hero': starting_cards.0.card: 'freezer' is a villain, expected ally or "
        "technique or energy or equipment or training"
    )


def test_broken_json_gives_line_and_column(write_pack: Callable[..., Path]) -> None:
    pack = write_pack(broken='{"cards": [\n  {"kind": "ally",}\n]}')
    [line] = problems_of(pack)
    assert line.startswith(f"{pack / 'broken.json'}: invalid JSON at line 2 column ")


def test_villain_deck_must_list_its_cards(write_pack: Callable[..., Path]) -> None:
    attack = {
        "kind": "villain-card",
        "type": "attack",
        "id": "freezer-fan-beam",
        "name": "Fan Beam",
        "villain": "freezer",
        "attack_type": "physical",
        "damage": 2,
    }
    [line] = problems_of(write_pack(extra=[attack]), shipped=True)
    assert line.endswith(
        "card 'freezer': deck: villain card 'freezer-fan-beam' is in none of deck, side_decks, "
        "reference_cards, starting_minions, enemies or extreme_cards"
    )


def test_cli_validate_exit_codes(
    write_pack: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cards", "validate"]) == 0
    assert capsys.readouterr().out.startswith("ok: ")
    pack = write_pack(allies=[ALLY | {"hitpoints": 4}])
    assert main(["cards", "validate", "--pack", str(pack)]) == 1
    out = capsys.readouterr()
    assert out.out.splitlines() == [
        f"{pack / 'allies.json'}: card 'test-bulma-ally': hitpoints: unknown field"
    ]
    assert "Traceback" not in out.err


def test_env_packs_are_loaded(
    write_pack: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pack = write_pack(allies=[ALLY])
    monkeypatch.setenv("DBDECK_PACKS", str(pack))
    assert main(["cards", "show", "test-bulma-ally"]) == 0
    assert "Test Bulma" in capsys.readouterr().out


def test_missing_pack_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nowhere"
    assert main(["cards", "validate", "--pack", str(missing)]) == 1
    assert capsys.readouterr().out.splitlines() == [f"{missing}: not a folder of card files"]


def test_problems_catalogs_and_their_errors_copy_and_pickle() -> None:
    """Immutable as they are, problems and their errors copy, deep-copy and
    pickle whole (a worker process may send them back); a catalog copies
    (its read-only mappings are shared, never copied)."""
    import copy
    import pickle

    from dbdeck.games.deckbuilding.cards.catalog import load_catalog
    from dbdeck.packs.reading import CardSetError, Problem

    problem = Problem("cards/x.json", "duplicate id", "goku", "id")
    catalog = load_catalog(include_env_packs=False)
    error = CardSetError([problem])
    assert copy.copy(problem) == problem == copy.deepcopy(problem)
    assert pickle.loads(pickle.dumps(problem)) == problem
    assert copy.copy(catalog) == catalog
    again = pickle.loads(pickle.dumps(error))
    assert again.problems == (problem,) and str(again) == str(error)
