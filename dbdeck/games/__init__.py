"""The games dbdeck plays, one package each: each brings its engine, its
view types and its screens, and imports no other game."""

GAMES: dict[str, str] = {
    "deckbuilding": "dbdeck.games.deckbuilding.match:open_rules",
}
"""Each game by id: the module and function that open its rules on the card
content (``dbdeck.tabletop.registry`` imports it only when asked)."""
