"""The table screen of a game in progress, and its parts, one job a module:
the screen (composing, drawing, routing keys), its layout, the prompt's
words, outcomes, a card's line and menu, pickers, the end-of-turn question,
decisions and announcements."""

from dbdeck.games.deckbuilding.tui.play.layout import PANELS
from dbdeck.games.deckbuilding.tui.play.outcomes import outcome_of
from dbdeck.games.deckbuilding.tui.play.screen import TableScreen
from dbdeck.tui.backend import Seating

__all__ = ["PANELS", "Seating", "TableScreen", "outcome_of"]
