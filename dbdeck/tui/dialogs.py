"""Dialogs: decisions, Combos, the card inspector, hand-offs, help."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, SelectionList, Static
from textual.widgets.option_list import Option

from dbdeck.cards.catalog import Catalog
from dbdeck.cards.render import card_panel
from dbdeck.engine.actions import Action
from dbdeck.engine.table_view import Offer, TableView

__all__ = [
    "ComboDialog",
    "DecisionDialog",
    "HandoffScreen",
    "HelpScreen",
    "InspectorScreen",
    "TurnBanner",
]

ARM_SECONDS = 0.4
"""How long a turn's announcement ignores Enter: a key typed while the
previous turn played out must not pass it unread."""


class DecisionDialog(ModalScreen[int | None]):
    """A choice: one the rules hand to a player or to the table (it must be
    answered), or one step of building an action (Escape cancels it)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", show=False)]

    def __init__(
        self,
        title: str,
        prompt: str,
        options: list[str],
        *,
        cancellable: bool = False,
        for_decision: bool = False,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.prompt = prompt
        self.options = options
        self.cancellable = cancellable
        self.for_decision = for_decision
        """A decision of the game (closed by the table once answered elsewhere)."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text(self.title_text, style="bold"))
            yield Static(self.prompt)
            yield OptionList(
                *[Option(o, id=str(i)) for i, o in enumerate(self.options)], id="choices"
            )

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))

    def action_cancel(self) -> None:
        """Escape cancels building an action; a decision must be answered."""
        if self.cancellable:
            self.dismiss(None)


class ComboDialog(ModalScreen[Action | None]):
    """Build an attack: pick Physical Techniques (a Combo when several), then
    the target."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, view: TableView, attacks: list[Offer], catalog: Catalog) -> None:
        super().__init__()
        self.view = view
        self.catalog = catalog
        self.actions = [o.action for o in attacks if o.action.type == "attack"]

    def compose(self) -> ComposeResult:
        cards = sorted({u for a in self.actions for u in a.cards})
        targets = sorted({a.target for a in self.actions if a.target})
        with Vertical(classes="dialog"):
            yield Label(
                Text("Attack: choose the Techniques (Space), then the target (Enter)", style="bold")
            )
            yield SelectionList[int](*[(self._card_label(u), u, False) for u in cards], id="cards")
            yield Label("Target")
            yield OptionList(*[Option(self.view.name_of(t), id=t) for t in targets], id="targets")

    def _card_label(self, uid: int) -> str:
        seen = self.view.card(uid)
        if seen is None:
            return f"card {uid}"
        card: Any = self.catalog.cards.get(seen.card)
        kind = getattr(card, "damage_kind", "basic")
        extra = "" if kind == "basic" else f" {kind.upper()}"
        return f"{seen.name} ({getattr(card, 'damage', 0)}{extra})"

    def on_mount(self) -> None:
        self.query_one(SelectionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        chosen = tuple(sorted(self.query_one(SelectionList).selected))
        for action in self.actions:
            if tuple(sorted(action.cards)) == chosen and action.target == event.option.id:
                self.dismiss(action)
                return
        self.notify(
            "Choose one or more Physical Techniques first (Space to tick).", severity="warning"
        )

    def action_cancel(self) -> None:
        self.dismiss(None)


class InspectorScreen(ModalScreen[None]):
    """Any card, drawn in full: stats, text and effects in plain words."""

    BINDINGS = [Binding("escape,enter,i", "close", "Close")]

    def __init__(self, card: Any, catalog: Catalog | None = None) -> None:
        super().__init__()
        self.card = card
        self.catalog = catalog

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog wide"):
            yield Static(card_panel(self.card, self.catalog))

    def action_close(self) -> None:
        self.dismiss(None)


class CardPicker(ModalScreen[str | None]):
    """Pick a card on the table to inspect."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, entries: list[tuple[str, str]]) -> None:
        super().__init__()
        self.entries = entries

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text("Inspect which card?", style="bold"))
            yield OptionList(
                *[Option(label, id=f"{i}") for i, (label, _) in enumerate(self.entries)]
            )

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.entries[int(event.option.id or 0)][1])

    def action_cancel(self) -> None:
        self.dismiss(None)


class _Armed(ModalScreen[None]):
    """A screen that ignores Enter for a moment after it shows: a key typed
    while the previous turn played out must not pass it unread."""

    BINDINGS = [Binding("enter", "ready", "Ready")]

    arm_seconds = ARM_SECONDS
    """Enter is ignored for this long after the screen shows."""

    armed = False

    def on_mount(self) -> None:
        if self.arm_seconds <= 0:
            self.armed = True
        else:
            self.set_timer(self.arm_seconds, self._arm)

    def _arm(self) -> None:
        self.armed = True

    def action_ready(self) -> None:
        """Close, once shown long enough to be read."""
        if self.armed:
            self.dismiss(None)


class TurnBanner(_Armed):
    """A new turn of another player: it is announced, and the table takes no
    key until the player has read it and pressed Enter."""

    BINDINGS = [Binding("enter", "ready", "Play")]

    def __init__(self, title: str, lines: list[Text]) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="turn-banner"):
            yield Label(Text(self.title_text, style="bold"))
            for line in self.lines:
                yield Static(line)
            yield Static(Text("Press Enter to play.", style="italic"))


class HandoffScreen(_Armed):
    """Hot-seat: every hand is hidden, and nothing can be played, until the
    next player takes the keyboard."""

    BINDINGS = [Binding("enter", "ready", "I am ready")]

    def __init__(self, player: str, characters: str) -> None:
        super().__init__()
        self.player = player
        self.characters = characters

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text(f"{self.player} — {self.characters}", style="bold"))
            yield Static(
                f"Pass the keyboard to {self.player}. {self.player}: press Enter when you "
                "are ready to see your hand."
            )


HELP = """\
Keys on the table

  Enter      apply the action highlighted in the action list
  Up/Down    move in the action list (every legal action is listed)
  e          end the turn
  p          play every Energy card in the hand
  a          attack: build a Combo and choose its target
  t          prepare an Energy Technique: choose it, then its Time slot
  o          boost a prepared Technique: choose it, then the Energy card
  s          attempt a Steal: choose how many dice
  b          jump to the Buy actions
  i          inspect a card on the table
  1-4        compact layout: show Markets, Characters, Actions or Log
  h          hide or show hands between turns (hot-seat)
  u          undo the last action (back to the last revealed hidden
             information: a draw, a shuffle, a die, a revealed card)
  space      show the rest of the Villain's turn at once
  r          rules reference
  c          card browser
  ?          this help
  ctrl+p     command palette (every legal action, searchable)
  q          quit

Decisions the rules hand to a player or to the table (targets, Wildcards,
Block, Power Clash, the Wish) open a dialog: choose with Up/Down and Enter.
"""


class HelpScreen(ModalScreen[None]):
    """Every key of the table."""

    BINDINGS = [Binding("escape,question_mark,enter", "close", "Close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog wide"):
            yield Static(HELP)

    def action_close(self) -> None:
        self.dismiss(None)
