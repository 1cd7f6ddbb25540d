"""The Villain's Power Clash die is one six-sided die (Glossary, Power Clash /
Reflect: "+ 1d6"), rolled by the game's generator when no roll is scripted.

A scenario scripts its rolls, so it cannot tell a die of six faces from one
of seven: this plays the clash of a scenario file unscripted over many seeds.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.scenario import play

CLASH = Path(__file__).parent / "scenarios" / "power-clash-tie.toml"


def test_the_villains_power_clash_die_has_six_faces(catalog: Catalog) -> None:
    data = tomllib.loads(CLASH.read_text(encoding="utf-8"))
    clash = data["steps"][1]
    for key in ("rolls", "expect", "expect_log"):
        clash.pop(key, None)
    faces: list[int] = []
    for seed in range(60):
        data["setup"]["seed"] = seed
        game, _ = play(catalog, data)
        assert game is not None
        dice = [e.data["dice"] for e in game.events if e.type == "roll"]
        assert len(dice) == 1, dice
        faces += dice[0]
    assert set(faces) == {1, 2, 3, 4, 5, 6}
