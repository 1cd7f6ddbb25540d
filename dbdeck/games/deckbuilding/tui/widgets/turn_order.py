"""The turn order: the round, the cards left, the last revealed, what the
deck still holds (in no order: only its order is secret), and the order
tokens of the Characters."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rich.console import RenderableType
from rich.text import Text
from textual.reactive import reactive

from dbdeck.games.deckbuilding.engine.panels import CharacterPanel, TurnOrderPanel
from dbdeck.games.deckbuilding.tui.widgets.board import Board, Items
from dbdeck.games.deckbuilding.tui.widgets.glyphs import pack, sep, styled

__all__ = ["TurnOrderBoard", "TurnOrderShown"]


@dataclass(frozen=True, slots=True)
class TurnOrderShown:
    """What the turn-order board shows."""

    order: TurnOrderPanel
    """The round and the turn-order deck."""
    tokens: tuple[tuple[int, str], ...] = ()
    """Each Character's order token and name."""

    @classmethod
    def of(cls, order: TurnOrderPanel, characters: tuple[CharacterPanel, ...]) -> TurnOrderShown:
        """The turn order, with the order tokens of ``characters``."""
        return cls(order, tuple((c.order, c.name) for c in characters))


class TurnOrderBoard(Board, can_focus=False):
    """The round and the turn-order deck."""

    shown: reactive[TurnOrderShown | None] = reactive(None)
    """The turn order and the Characters' order tokens."""

    def watch_shown(self) -> None:
        """Redraw from a new turn order."""
        self.redraw()

    def picture(self, width: int, items: Items) -> RenderableType:
        """The board's picture."""
        if self.shown is None:
            return Text()
        order = self.shown.order
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
        if self.shown.tokens:
            tokens = [Text(f"{number} {name}") for number, name in self.shown.tokens]
            lines.append(pack(tokens, width, lead=styled("Order: ", "dim"), indent=2))
        return Text("\n").join(lines)
