"""The dice of the cards are six-sided: the Villain's Power Clash die
(Glossary, Power Clash / Reflect: "+ 1d6") and the Pistol's (our card text:
"roll 1D6"), rolled by the game's generator when no roll is scripted.

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
    data = tomllib.loads((SCENARIOS / scenario).read_text(encoding="utf-8"))
    roll = data["steps"][step]
    for key in ("rolls", "expect", "expect_log", "contains"):
        roll.pop(key, None)
    data["steps"] = data["steps"][: step + 1]
    faces: list[int] = []
    for seed in range(60):
        data["setup"]["seed"] = seed
        game, _ = play(catalog, data)
        assert game is not None
        dice = [e.data["dice"] for e in game.events if e.type == "roll"]
        assert len(dice) == 1, dice
        assert len(dice[0]) == 1, dice  # one die, not two
        faces += dice[0]
    assert set(faces) == {1, 2, 3, 4, 5, 6}
