"""The Pistol rolls one six-sided die (our card text: "roll 1D6"), by the
game's generator when no roll is scripted.

A scenario scripts its rolls, so it cannot tell a die of six faces from one
of seven: this plays the Pistol's first shot of its scenario unscripted over
many seeds.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.scenario import play

PISTOL = Path(__file__).parent / "scenarios" / "pistol-rolls-its-table.toml"


def test_the_pistols_die_has_six_faces(catalog: Catalog) -> None:
    data = tomllib.loads(PISTOL.read_text(encoding="utf-8"))
    shot = data["steps"][0]
    for key in ("rolls", "expect", "expect_log", "contains"):
        shot.pop(key, None)
    data["steps"] = [shot]
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
