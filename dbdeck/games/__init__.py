"""The games dbdeck plays, one package each: each brings its engine, its
view types and its screens, and imports no other game."""

GAMES: dict[str, str] = {
    "deckbuilding": "dbdeck.games.deckbuilding.match:open_rules",
    "ccg": "dbdeck.games.ccg.match:open_rules",
}
"""Each game by id: the module and function that open its rules on the card
content (``dbdeck.tabletop.registry`` imports it only when asked)."""

SCENARIO_RUNNERS: dict[str, str] = {
    "deckbuilding": "dbdeck.games.deckbuilding.scenario:scenario_runner",
    "ccg": "dbdeck.games.ccg.scenario:scenario_runner",
}
"""Each game's scenario runner by id: the module and function that make it
(``dbdeck.scenarios`` imports it only when a file of that game is run)."""

TABLE_SCREENS: dict[str, str] = {
    "deckbuilding": "dbdeck.games.deckbuilding.tui.play:TableScreen",
    "ccg": "dbdeck.games.ccg.tui.screen:CcgTableScreen",
}
"""Each game's table screen by id, made on a backend of that game
(``dbdeck.tui.shell.TableApp.table_screen``)."""

SHARED_TABLE_SCREENS: dict[str, str] = {
    "deckbuilding": "dbdeck.games.deckbuilding.tui.shared_table:SharedTableScreen",
    "ccg": "dbdeck.games.ccg.tui.shared:CcgSharedScreen",
}
"""A game's table screen for a seat at a shared table (``dbdeck join``), made
on a ``RemoteBackend``, when it is not its table screen (a game left out
here joins with its table screen)."""

REPLAY_SCREENS: dict[str, str] = {
    "deckbuilding": "dbdeck.games.deckbuilding.tui.replay:ReplayScreen",
    "ccg": "dbdeck.games.ccg.tui.replay:CcgReplayScreen",
}
"""A game's screen for a saved game stepped through (``dbdeck replay``), made
on a ``ReplayBackend``, when it is not its table screen."""

SCREENS: dict[str, list[tuple[str, str, str]]] = {
    "ccg": [
        ("ccg-play", "CCG → New game", "dbdeck.games.ccg.play:open_new_game"),
        ("ccg-decks", "CCG → Decks", "dbdeck.games.ccg.screen:open_deck_screen"),
        ("ccg-howto", "CCG → How to play", "dbdeck.games.ccg.tui.howto:open_how_to_play"),
    ],
}
"""The screens each game offers in another game's main menu, by game id: the
entry's id and words, and the function that opens it on the app
(``dbdeck.tabletop.registry.menu_screens`` imports it only when chosen)."""
