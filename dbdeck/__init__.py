"""dbdeck: a terminal tabletop client for the Dragon Ball: Deckbuilding Game."""

__version__ = "0.1.0"
