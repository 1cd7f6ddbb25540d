"""The table screen of a game in progress, and its parts, one job a module:
the screen (composing, drawing, routing keys), its layout, the prompt's
words, outcomes, a card's line and menu, pickers, the end-of-turn question,
decisions and announcements."""

from dbdeck.tui.backend import Seating
from dbdeck.tui.play.layout import PANELS
from dbdeck.tui.play.outcomes import outcome_of
from dbdeck.tui.play.screen import TableScreen

__all__ = ["PANELS", "Seating", "TableScreen", "outcome_of"]
