"""The games dbdeck plays, one package each: each brings its engine, its
view types and its screens, and imports no other game."""

GAMES: dict[str, str] = {
    "deckbuilding": "dbdeck.games.deckbuilding.match:open_rules",
}
"""Each game by id: the module and function that open its rules on the card
content (``dbdeck.tabletop.registry`` imports it only when asked)."""

SCENARIO_RUNNERS: dict[str, str] = {
    "deckbuilding": "dbdeck.games.deckbuilding.scenario:scenario_runner",
}
"""Each game's scenario runner by id: the module and function that make it
(``dbdeck.scenarios`` imports it only when a file of that game is run)."""
