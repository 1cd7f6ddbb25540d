"""The *Dragon Ball: Deckbuilding Game*: its cards, its rules engine, its
bots and its table."""
