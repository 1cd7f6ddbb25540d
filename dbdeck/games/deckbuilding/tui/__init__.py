"""The deckbuilding game's screens: the table (``play``), its board widgets
(``widgets``), dialogs, the game's summary, the rules reference and how to
play, the replay, the app with its main menu and new-game wizard, and the
joined table's app. They draw the game's seat views and talk to the shared
backends of ``dbdeck.tui``."""
