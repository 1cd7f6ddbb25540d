"""How to play the CCG at dbdeck's table, in a few pages: the turn, Combat,
damage, Dragon Balls and the victories, in our own words (the rules are
the source documents', the table's decisions are the rules notes)."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Label, Static

from dbdeck.games.ccg.tui.dialogs import CcgDialog

__all__ = ["PAGES", "HowToPlay", "open_how_to_play"]

PAGES: tuple[tuple[str, str], ...] = (
    (
        "The table",
        "Each player brings a deck: a Main Personality of several levels, and a "
        "Life Deck. Your Main Personality starts at level 1, five stages above 0 "
        "on its scouter, with no anger. The Hero goes first.\n\n"
        "Your Life Deck is your life: cards you lose as damage go from its top "
        "to your discard pile, and a player whose Life Deck runs out loses.\n\n"
        "dbdeck keeps every zone of the table, applies every rule it can without "
        "the cards' texts, and leaves the rest to you: a card's own effect is "
        "done by hand (move, flip, counters), and the log says who did what.",
    ),
    (
        "A turn",
        "1. Draw three cards.\n"
        "2. Non-Combat: place Non-Combat cards, Drills, Allies, Dragon Balls, and a "
        "Location or Battleground (which skips Combat this turn).\n"
        "3. Power Up: raise your stages by the Power Up Rating (+1 with a "
        "declared Tokui-Waza). Without a pack giving the PUR, you say how much.\n"
        "4. Combat, or not: declaring it makes the defender draw three.\n"
        "5. Everyone discards down to one card. A player who never attacked may "
        "put the top card of the discard pile at the bottom of the Life Deck.",
    ),
    (
        "Combat",
        "The attacker attacks, uses a card in place of an attack, or passes; then "
        "the defender answers an attack (a card or power that stops it, or takes "
        "it), and attacks in turn. Combat ends when both players pass back to back.\n\n"
        "An energy attack costs 2 stages and deals 4 life cards unless its card "
        "says otherwise; you cannot make it without the stages, and the cost is paid "
        "even when it is stopped. A physical attack deals stages by the Physical "
        "Attack Table: with your table file and both power ladders the table reads "
        "it and offers it first; otherwise the attacker gives the number.\n\n"
        "Once per Combat you may discard a card for a Final Physical Attack; you "
        "then pass for the rest of Combat. An Ally takes control of Combat when "
        "your Main Personality is at 0 or 1 stage above 0.",
    ),
    (
        "Damage and anger",
        "Stage damage lowers the stages toward 0; every stage left over is one "
        "life card. All of one attack goes to one personality.\n\n"
        "A Dragon Ball revealed as damage does not count: it goes to the bottom "
        "of the Life Deck, or out of the game when one like it is in play. A "
        "player whose Life Deck holds only Dragon Balls loses when dealt life cards.\n\n"
        "Five anger raises your Main Personality a level: anger back to 0, the "
        "highest stage, your Drills discarded. Reaching level 4 wins the Most "
        "Powerful Personality Victory.\n\n"
        "A card may fuse two personalities of one level into a Fusion personality "
        "of your Sensei Deck (x). At the start of each of your turns a Life Deck card "
        "goes beneath the anger counter; at five it defuses.",
    ),
    (
        "Dragon Balls and victory",
        "One Dragon Ball of each number may be in play at a time, and once in play "
        "it stays. An attack that makes you discard five or more life cards lets the "
        "attacker capture one of your Dragon Balls; some Allies in control capture "
        "instead of dealing damage.\n\n"
        "Seven Dragon Balls placed from your hand win at once; a captured seventh "
        "wins at the start of your next turn if you still hold all seven.\n\n"
        "Made a mistake? Press u to undo, back to the last card revealed, or o to ask the "
        "other player to agree to take the last action back.",
    ),
)
"""Each page: its title and its words (plain text, our own)."""


class HowToPlay(CcgDialog[None]):
    """How to play, a page at a time."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,n,space", "page(1)", "Next"),
        Binding("left,b", "page(-1)", "Previous"),
        Binding("escape,enter,q", "close", "Close"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.page = 0

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="ccg-dialog"):
            yield Label(id="title")
            yield Static(id="words")
            yield Static(
                Text("Right: next page  Left: previous  Escape: close", style="dim"), classes="keys"
            )

    def on_mount(self) -> None:
        self._show()

    def _show(self) -> None:
        title, words = PAGES[self.page]
        self.query_one("#title", Label).update(
            Text(f"How to play ({self.page + 1} of {len(PAGES)}): {title}", style="bold")
        )
        self.query_one("#words", Static).update(Text(words))

    def action_page(self, delta: int) -> None:
        """Another page (the first and last stay put)."""
        self.page = max(0, min(len(PAGES) - 1, self.page + delta))
        self._show()

    def action_close(self) -> None:
        """Back."""
        self.dismiss(None)


def open_how_to_play(app: Any) -> None:
    """From the main menu."""
    app.push_screen(HowToPlay())
