"""The dice of the cards are six-sided: the Villain's Power Clash die
(Glossary, Power Clash / Reflect: "+ 1d6"), the Pistol's (our card text:
"roll 1D6"), and both dice of the Kidnapped Victim's 2D6 (Raditz) and of
Broly's table (Broly, "roll 2D6"), rolled by the game's generator when no
roll is scripted.

A scenario scripts its rolls, so it cannot tell a die of six faces from one
of seven: this plays the roll of a scenario file unscripted over many seeds.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.scenario import play

SCENARIOS = Path(__file__).parent / "scenarios"


@pytest.mark.parametrize(
    ("scenario", "step"),
    [("power-clash-tie.toml", 1), ("pistol-rolls-its-table.toml", 0)],
)
def test_a_die_has_six_faces(catalog: Catalog, scenario: str, step: int) -> None:
    faces: list[int] = []
    for dice in _unscripted_rolls(catalog, scenario, step):
        assert len(dice) == 1, dice  # one die, not two
        faces += dice
    assert set(faces) == {1, 2, 3, 4, 5, 6}


@pytest.mark.parametrize(
    "scenario",
    ["raditz-victim-roll-below-tokens-kills.toml", "broly-activation-physical-attack.toml"],
)
def test_each_of_two_dice_has_six_faces(catalog: Catalog, scenario: str) -> None:
    first: set[int] = set()
    second: set[int] = set()
    for dice in _unscripted_rolls(catalog, scenario, 0):
        assert len(dice) == 2, dice  # 2D6
        first.add(dice[0])
        second.add(dice[1])
    assert first == second == {1, 2, 3, 4, 5, 6}


def _unscripted_rolls(catalog: Catalog, scenario: str, step: int) -> list[list[int]]:
    """The dice of every roll made up to ``step`` of a scenario file, played
    over 60 seeds with its scripted rolls and expectations taken out."""
    data = tomllib.loads((SCENARIOS / scenario).read_text(encoding="utf-8"))
    data["setup"].pop("rolls", None)
    roll = data["steps"][step]
    for key in ("rolls", "expect", "expect_log", "contains"):
        roll.pop(key, None)
    data["steps"] = data["steps"][: step + 1]
    rolls: list[list[int]] = []
    for seed in range(60):
        data["setup"]["seed"] = seed
        game, _ = play(catalog, data)
        assert game is not None
        dice = [list(e.data["dice"]) for e in game.events if e.type == "roll"]
        assert dice, f"{scenario} rolled nothing"
        rolls += dice
    return rolls
