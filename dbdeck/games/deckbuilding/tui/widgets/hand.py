"""The hand: cards as tiles in the game's colours, with the Energy
available this turn; Space selects Physical Techniques for a Combo."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.console import RenderableType
from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive

from dbdeck.games.deckbuilding.engine.panels import CardView, HandView, market_of
from dbdeck.games.deckbuilding.tui.widgets import glyphs
from dbdeck.games.deckbuilding.tui.widgets.board import Board, Items
from dbdeck.games.deckbuilding.tui.widgets.glyphs import TILE_COLOURS, card_text, pack, styled

__all__ = ["HandBoard", "HandShown"]


@dataclass(frozen=True, slots=True)
class HandShown:
    """What the hand panel shows: a hand (its cards carry their printed
    facts), or a note while no hand is to be shown."""

    hand: HandView | None = None
    """The hand shown; ``None`` shows ``note`` instead."""
    note: str = ""
    """What to say while no hand is shown (``Bob's hand is hidden until Bob
    takes the keyboard.``)."""
    blocked: frozenset[int] = field(default_factory=frozenset)
    """Cards of the hand that cannot be used now (drawn dimmed; their menu
    says why)."""


class HandBoard(Board):
    """A hand, its cards numbered; or, while the hand is not to be shown, a
    note. Cards selected for a Combo are marked."""

    BINDINGS = [
        *Board.BINDINGS,
        Binding("space", "select", "Select for a Combo", show=False),
    ]

    where = "hand"
    shown: reactive[HandShown] = reactive(HandShown)
    """The hand (or the note) shown, and its dimmed cards."""
    selected: reactive[frozenset[int]] = reactive(frozenset())
    """Cards selected for a Combo (the player's choice, kept to the cards
    still in the hand)."""

    class Selected(Message):
        """Space was pressed on a card of the hand."""

        def __init__(self, uid: int) -> None:
            super().__init__()
            self.uid = uid

    @property
    def hand(self) -> HandView | None:
        """The hand shown, if any."""
        return self.shown.hand

    def watch_shown(self) -> None:
        """Redraw from a new hand (cards that left it leave the selection)."""
        hand = self.shown.hand
        if hand is not None:
            uids = frozenset(c.uid for c in hand.cards)
            if not self.selected <= uids:
                # Drawn below with the rest: not a second redraw.
                self.set_reactive(HandBoard.selected, self.selected & uids)
        self.redraw()

    def watch_selected(self) -> None:
        """Redraw with other cards marked."""
        self.redraw()

    def picture(self, width: int, items: Items) -> RenderableType:
        """The hand's picture."""
        hand = self.shown.hand
        if hand is None:
            return Text(self.shown.note, style="italic")
        lead = styled(f"{hand.name}'s hand", "bold")
        lead.append(f" {glyphs.sep()} Energy {hand.energy}")
        if hand.training_energy:
            lead.append(f" (+{hand.training_energy} for Training)")
        lead.append(":")
        if not hand.cards:
            lead.append(" no card", style="dim italic")
            return lead
        tiles = [self._tile(i, card, items) for i, card in enumerate(hand.cards, 1)]
        return pack(tiles, width, lead=lead, indent=2)

    def _tile(self, number: int, card: CardView, items: Items) -> Text:
        colour = TILE_COLOURS[market_of(card.kind)]
        chosen = card.uid in self.selected
        tile = Text("[")
        mark = ("v" if glyphs.ASCII else "✓") if chosen else str(number)
        tile.append(f"{mark} ", style="bold green" if chosen else "bold")
        tile.append_text(card_text(card, self.where, f"bold {colour}" if chosen else colour))
        if card.facts:
            tile.append(f" {card.facts}")
        tile.append("]")
        if card.uid in self.shown.blocked and not chosen:
            tile.stylize("dim")
        if chosen:
            tile.stylize("underline")
        return items.add(tile, card.uid, self.where)

    def action_select(self) -> None:
        """Space: select (or unselect) the card under the cursor for a Combo."""
        item = self.current()
        if item is not None:
            self.post_message(self.Selected(item.uid))
