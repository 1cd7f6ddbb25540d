"""The turn order: the round, the cards left, the last revealed, what the
deck still holds (in no order: only its order is secret), and the order
tokens of the Characters."""

from __future__ import annotations

from collections import Counter

from rich.console import RenderableType
from rich.text import Text
from textual.reactive import reactive

from dbdeck.engine.table_view import CharacterPanel, TurnOrderPanel
from dbdeck.tui.widgets.board import Board, Items
from dbdeck.tui.widgets.glyphs import pack, sep, styled

__all__ = ["TurnOrderBoard"]


class TurnOrderBoard(Board, can_focus=False):
    """The round and the turn-order deck."""

    order: reactive[TurnOrderPanel | None] = reactive(None)
    """The round and the turn-order deck."""
    characters: reactive[tuple[CharacterPanel, ...]] = reactive(())
    """The Characters, for their order tokens."""

    def watch_order(self) -> None:
        """Redraw from a new turn-order panel."""
        self.redraw()

    def watch_characters(self) -> None:
        """Redraw with new order tokens."""
        self.redraw()

    def show(self, order: TurnOrderPanel, characters: tuple[CharacterPanel, ...]) -> None:
        """A new turn order and new order tokens, drawn once."""
        if order == self.order and characters == self.characters:
            return
        self.set_reactive(TurnOrderBoard.order, order)
        self.set_reactive(TurnOrderBoard.characters, characters)
        self.redraw()

    def picture(self, width: int, items: Items) -> RenderableType:
        """The board's picture."""
        order = self.order
        if order is None:
            return Text()
        self.border_title = f" Round {order.round} "
        lines = []
        head = styled(f"{order.left} card{'' if order.left == 1 else 's'} left", "bold")
        if order.revealed:
            head.append(f" {sep()} last: ")
            head.append(order.revealed[-1], style="bold reverse")
        lines.append(head)
        if len(order.revealed) > 1:
            before = [Text(c + ",") for c in order.revealed[:-2]] + [Text(order.revealed[-2])]
            lines.append(pack(before, width, lead=styled("Before: ", "dim"), indent=2))
        if order.unrevealed:
            counted = Counter(order.unrevealed)
            names = [f"{n}x {c}" if n > 1 else c for c, n in sorted(counted.items())]
            parts = [Text(n + ("," if i < len(names) - 1 else "")) for i, n in enumerate(names)]
            lines.append(pack(parts, width, lead=styled("To come: ", "dim"), indent=2))
        if self.characters:
            tokens = [Text(f"{c.order} {c.name}") for c in self.characters]
            lines.append(pack(tokens, width, lead=styled("Order: ", "dim"), indent=2))
        return Text("\n").join(lines)
