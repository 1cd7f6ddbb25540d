"""The hand: cards as tiles in the game's colours, with the Energy
available this turn; Space selects Physical Techniques for a Combo."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive

from dbdeck.cards.catalog import Catalog
from dbdeck.engine.table_view import CardView, HandView, market_of
from dbdeck.tui.widgets import glyphs
from dbdeck.tui.widgets.board import Board, Items
from dbdeck.tui.widgets.glyphs import TILE_COLOURS, card_text, pack, styled

__all__ = ["HandBoard", "card_facts"]


def card_facts(catalog: Catalog, card: CardView) -> str:
    """A hand card's printed facts, short: ``P1``, ``E2 T1``, ``+1``, ``Ally``."""
    printed: Any = catalog.cards.get(card.card)
    kind = str(getattr(printed, "kind", ""))
    if kind == "technique":
        form = "E" if getattr(printed, "technique_type", "") == "energy" else "P"
        facts = f"{form}{getattr(printed, 'damage', 0)}"
        damage_kind = str(getattr(printed, "damage_kind", "basic"))
        if damage_kind != "basic":
            facts += f" {damage_kind.upper()}"
        time = getattr(printed, "time", None)
        if time:
            facts += f" T{time}"
        if getattr(printed, "healing", False):
            facts += " heal"
        return facts
    if kind in ("energy", "concentrated-energy"):
        facts = f"+{getattr(printed, 'value', 0)}"
        if getattr(printed, "booster", None):
            facts += " boost"
        return facts
    return {"ally": "Ally", "equipment": "Equip", "training": "Train", "capsule": "Capsule"}.get(
        kind, ""
    )


class HandBoard(Board):
    """A hand, its cards numbered; or, while the hand is not to be shown, a
    note. Cards selected for a Combo are marked."""

    BINDINGS = [
        *Board.BINDINGS,
        Binding("space", "select", "Select for a Combo", show=False),
    ]

    where = "hand"
    hand: reactive[HandView | None] = reactive(None)
    """The hand shown; ``None`` shows ``note`` instead."""
    note: reactive[str] = reactive("")
    """What to say while no hand is shown (``Bob's hand is hidden until Bob
    takes the keyboard.``)."""
    blocked: reactive[frozenset[int]] = reactive(frozenset())
    """Cards of the hand that cannot be used now (drawn dimmed; their menu
    says why)."""
    selected: reactive[frozenset[int]] = reactive(frozenset())
    """Cards selected for a Combo."""

    class Selected(Message):
        """Space was pressed on a card of the hand."""

        def __init__(self, uid: int) -> None:
            super().__init__()
            self.uid = uid

    def __init__(self, catalog: Catalog, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.catalog = catalog
        """For the printed facts of a card: a Technique's Damage and Time, an
        Energy card's value."""

    def watch_hand(self) -> None:
        """Redraw from a new hand (cards that left it leave the selection)."""
        self._keep_selection()
        self.redraw()

    def _keep_selection(self) -> None:
        if self.hand is not None:
            uids = frozenset(c.uid for c in self.hand.cards)
            if not self.selected <= uids:
                self.set_reactive(HandBoard.selected, self.selected & uids)

    def show(self, hand: HandView | None, note: str, blocked: frozenset[int]) -> None:
        """A new hand, note and dimmed cards, drawn once (not once each)."""
        if hand == self.hand and note == self.note and blocked == self.blocked:
            return
        self.set_reactive(HandBoard.hand, hand)
        self.set_reactive(HandBoard.note, note)
        self.set_reactive(HandBoard.blocked, blocked)
        self._keep_selection()
        self.redraw()

    def watch_note(self) -> None:
        """Redraw with a new note."""
        self.redraw()

    def watch_blocked(self) -> None:
        """Redraw with other cards dimmed."""
        self.redraw()

    def watch_selected(self) -> None:
        """Redraw with other cards marked."""
        self.redraw()

    def picture(self, width: int, items: Items) -> RenderableType:
        """The hand's picture."""
        hand = self.hand
        if hand is None:
            return Text(self.note, style="italic")
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
        printed = self.catalog.cards.get(card.card)
        colour = TILE_COLOURS[market_of(str(getattr(printed, "kind", "")))]
        chosen = card.uid in self.selected
        tile = Text("[")
        mark = ("v" if glyphs.ASCII else "✓") if chosen else str(number)
        tile.append(f"{mark} ", style="bold green" if chosen else "bold")
        tile.append_text(card_text(card, self.where, f"bold {colour}" if chosen else colour))
        facts = card_facts(self.catalog, card)
        if facts:
            tile.append(f" {facts}")
        tile.append("]")
        if card.uid in self.blocked and not chosen:
            tile.stylize("dim")
        if chosen:
            tile.stylize("underline")
        return items.add(tile, card.uid, self.where)

    def action_select(self) -> None:
        """Space: select (or unselect) the card under the cursor for a Combo."""
        item = self.current()
        if item is not None:
            self.post_message(self.Selected(item.uid))
