"""Dialogs: decisions, Combos, the card inspector, hand-offs, help."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.actions import Action
from dbdeck.games.deckbuilding.engine.panels import Offer, TableView
from dbdeck.games.deckbuilding.tui.widgets import glyphs
from dbdeck.games.deckbuilding.tui.widgets.card import card_picture
from dbdeck.games.deckbuilding.tui.widgets.choices import ChoiceList, TickList
from dbdeck.tui.choices import answers
from dbdeck.tui.modal import Dialog, ResultT

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


class HelpedDialog(Dialog[ResultT]):
    """A dialog in which ``?`` opens the table's help, as the key bar under
    every dialog says."""

    BINDINGS = [Binding("question_mark", "help", "Help", show=False)]

    def action_help(self) -> None:
        """Every key of the table."""
        self.app.push_screen(HelpScreen())


class DecisionDialog(Dialog[int | None]):
    """A choice: one the rules hand to a player or to the table (it must be
    answered), or one step of building an action (Escape cancels it).

    ``disabled`` lines are shown below the answers and cannot be chosen:
    what the rules forbid now, with the reason. ``i`` reads a card: the
    one the decision is about (``card``), else one chosen among
    ``inspect`` (label, card id) entries.
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("i", "inspect", "Inspect", show=False),
        Binding("g", "suggest", "Suggest", show=False),
        Binding("question_mark", "help", "Help", show=False),
    ]

    def __init__(
        self,
        title: str,
        prompt: str,
        options: list[str],
        *,
        cancellable: bool = False,
        for_decision: bool = False,
        disabled: list[str] | None = None,
        inspect: list[tuple[str, str]] | None = None,
        card: str = "",
        coach: Callable[[], tuple[int | None, str]] | None = None,
    ) -> None:
        super().__init__()
        self.coach = coach
        """Asked by ``g``: the answer the bot would give, and why."""
        self.title_text = title
        self.prompt = prompt
        self.options = options
        self.forbidden = disabled or []
        """Lines shown disabled: what cannot be done now, and why."""
        self.cancellable = cancellable
        self.for_decision = for_decision
        """A decision of the game (closed by the table once answered elsewhere)."""
        self.inspect_entries = inspect or []
        self.card = card

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text(self.title_text, style="bold"))
            if self.prompt:
                yield Static(Text(self.prompt))
            choices = answers(self.options, self.forbidden, ascii_only=glyphs.ASCII)
            yield ChoiceList(*choices, id="choices")
            keys = "Down, then Enter: choose"
            keys += "  Escape: cancel" if self.cancellable else ""
            if self.card or self.inspect_entries:
                keys += "  i: read a card"
            if self.coach is not None:
                keys += "  g: suggest"
            yield Static(Text(keys, style="dim"), classes="keys")

    def on_mount(self) -> None:
        # Nothing is highlighted (a ChoiceList): an Enter typed for what came
        # before must not answer it. Down first. A decision answered from
        # another seat may close the dialog before it is shown: then there
        # is nothing to focus.
        for choices in self.query(ChoiceList):
            choices.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.dismiss(int(event.option.id))

    def action_cancel(self) -> None:
        """Escape cancels building an action; a decision must be answered."""
        if self.cancellable:
            self.dismiss(None)

    def action_help(self) -> None:
        """Every key of the table (the key bar names ``?`` under every dialog)."""
        self.app.push_screen(HelpScreen())

    def action_suggest(self) -> None:
        """The coach's answer, highlighted, and why."""
        if self.coach is None:
            return
        option, why = self.coach()
        if option is not None:
            self.query_one(ChoiceList).highlighted = option
        self.app.clear_notifications()
        self.notify(why, title="Coach suggests", timeout=8)

    def action_inspect(self) -> None:
        """Read the card the decision is about, or choose one to read."""
        catalog = getattr(self.app, "catalog", None)
        if catalog is None:
            return
        card = catalog.cards.get(self.card) if self.card else None
        if card is not None:
            self.app.push_screen(InspectorScreen(card, catalog))
            return
        if not self.inspect_entries:
            return

        def show(card_id: str | None) -> None:
            chosen = catalog.cards.get(card_id) if card_id else None
            if chosen is not None:
                self.app.push_screen(InspectorScreen(chosen, catalog))

        self.app.push_screen(CardPicker(self.inspect_entries), show)


class ComboDialog(HelpedDialog[Action | None]):
    """Build an attack: pick Physical Techniques (a Combo when several), then
    the target, each target showing the damage it would take (after Armor,
    Damage Reduction and a Guardian's interception, as the engine foresees
    it)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    TICK_FIRST = (
        "No target can be chosen before a Technique is ticked: Shift+Tab back to the "
        "Techniques, Down, then Space."
    )
    """What Up or Down on the targets says while nothing is ticked."""

    def __init__(self, view: TableView, attacks: list[Offer]) -> None:
        super().__init__()
        self.view = view
        self.offers = [o for o in attacks if o.action.type == "attack"]
        self.targets = sorted({o.action.target for o in self.offers if o.action.target})

    def compose(self) -> ComposeResult:
        cards = sorted({u for o in self.offers for u in o.action.cards})
        with Vertical(classes="dialog"):
            yield Label(
                Text("Attack: tick the Techniques (Space), then the target (Enter)", style="bold")
            )
            yield TickList(*[(Text(self._card_label(u)), u, False) for u in cards], id="cards")
            yield Label("Target")
            yield ChoiceList(id="targets", none_enabled=self.TICK_FIRST)
            yield Static(
                Text(
                    "Down, then Space: tick  Tab: to the targets, Down, then Enter  Escape: cancel",
                    style="dim",
                ),
                classes="keys",
            )

    def _card_label(self, uid: int) -> str:
        seen = self.view.card(uid)
        if seen is None:
            return "a card"
        return f"{seen.name} ({seen.facts})" if seen.facts else seen.name

    def chosen(self) -> tuple[int, ...]:
        """The ticked Techniques."""
        return tuple(sorted(self.query_one(TickList).selected))

    def offer_for(self, target: str) -> Offer | None:
        """The attack of the ticked Techniques on ``target``, if legal."""
        chosen = self.chosen()
        return next(
            (
                o
                for o in self.offers
                if tuple(sorted(o.action.cards)) == chosen and o.action.target == target
            ),
            None,
        )

    def _show_targets(self) -> None:
        listing = self.query_one("#targets", ChoiceList)
        listing.clear_options()
        for target in self.targets:
            offer = self.offer_for(target)
            name = self.view.target_name(target)
            if offer is None:
                # Without a ticked Technique no target can be chosen; say so
                # in words, not by the dimmed colour alone.
                waiting = not self.chosen()
                label = Text(f"{name} (tick a Technique first)" if waiting else name, style="dim")
                listing.add_option(Option(label, id=target, disabled=waiting))
            else:
                listing.add_option(Option(Text(f"{name} — {offer.preview}"), id=target))
        # Nothing highlighted, as in every list: Tab then Enter attacks nobody.
        listing.highlighted = None

    def on_mount(self) -> None:
        self._show_targets()
        self.query_one(TickList).focus()

    def on_selection_list_selected_changed(self) -> None:
        self._show_targets()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        offer = self.offer_for(str(event.option.id))
        if offer is not None:
            self.dismiss(offer.action)
            return
        self.notify(
            "Choose one or more Physical Techniques first (Space to tick).", severity="warning"
        )

    def action_cancel(self) -> None:
        self.dismiss(None)


class InspectorScreen(HelpedDialog[None]):
    """Any card, drawn in full: stats, text and effects in plain words."""

    BINDINGS = [Binding("escape,enter,i", "close", "Close")]

    def __init__(self, card: Any, catalog: Catalog | None = None) -> None:
        super().__init__()
        self.card = card
        self.catalog = catalog

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog wide"):
            yield Static(card_picture(self.card, self.catalog))

    def action_close(self) -> None:
        self.dismiss(None)


class CardPicker(HelpedDialog[str | None]):
    """Pick a card on the table to inspect."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, entries: list[tuple[str, str]]) -> None:
        super().__init__()
        self.entries = entries

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text("Inspect which card?", style="bold"))
            yield ChoiceList(
                *[Option(Text(label), id=f"{i}") for i, (label, _) in enumerate(self.entries)]
            )

    def on_mount(self) -> None:
        self.query_one(ChoiceList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.entries[int(event.option.id or 0)][1])

    def action_cancel(self) -> None:
        self.dismiss(None)


class _Armed(HelpedDialog[None]):
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

    BINDINGS = [
        Binding("enter", "ready", "I am ready"),
        Binding("question_mark", "help", "Help"),
        Binding("q,ctrl+q", "app.quit", "Quit"),
        Binding("ctrl+c", "app.quit", "Quit", show=False),
        Binding("escape", "stay", "Stay", show=False),
    ]

    KEYS: tuple[tuple[str, str], ...] = (("Enter", "I am ready"), ("?", "Help"), ("q", "Quit"))
    """The key bar while the keyboard passes: only the keys that work here."""

    def __init__(self, player: str, characters: str) -> None:
        super().__init__()
        self.player = player
        self.characters = characters

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text(f"{self.player} — {self.characters}", style="bold"))
            yield Static(
                Text(
                    f"Pass the keyboard to {self.player}. {self.player}: press Enter when "
                    "you are ready to see your hand."
                )
            )
            yield Static(Text("Enter: I am ready · ?: help · q: quit (the game is saved)"))

    def action_help(self) -> None:
        """Every key of the table (nothing of a hand is on it)."""
        self.app.push_screen(HelpScreen())

    def action_stay(self) -> None:
        """Escape: the table stays hidden until the next player is ready."""
        self.notify(
            f"Every hand stays hidden until {self.player} presses Enter; q quits.",
            severity="information",
        )


HELP = """\
Keys on the table

  Tab, Shift+Tab  move between the panels
  1-6        the hand, markets, Character boards, Villain, action list, log
             (shown first where they do not all fit)
  arrows     move between the cards of a board (Up/Down: its rows)
  Enter      a card's menu: what it can do now, and what not and why;
             in the action list, the highlighted action
  Space      in the hand: select a Physical Technique for a Combo;
             during the Villain's turn: show the rest of it at once
  p          play every Energy card in the hand
  b          go to the markets, on the first card you can buy
  d          buy an unclaimed Dragon Ball
  a          attack: with the selected cards, choose the target; else build
             a Combo (each target shows the damage it would take)
  t          prepare an Energy Technique (choose it, then its Time slot)
  o          boost a prepared Technique with an Energy card
  s          attempt a Steal: choose how many dice (the odds are shown)
  x          exhaust a card in play for its effect
  y          use the Character's special ability
  e          end the turn (asked first when Energy or cards are left)
  g          the coach: the move the bot would make now, and why
  u          undo the last action (back to the last revealed hidden
             information: a draw, a shuffle, a die, a revealed card); at a
             shared table it asks every seat: Y agrees, N refuses
  i          read the card under the cursor, or choose one
  h          hide or show hands between turns (hot-seat)
  S          settings (ask before ending a turn, or not)
  G          the game's summary, once it is over
  r          rules reference (each Villain's rules too)
  c          card browser
  ?          this help; H: how to play
  ctrl+p     command palette (every legal action, searchable)
  q          quit (every action is saved)

Every list and dialog opens with nothing highlighted: Down highlights the
first item (marked with an arrow), Up and Down move and stop at the ends,
Enter chooses (with nothing highlighted it does nothing and says so).
Decisions the rules hand to a player or to the table (targets, Wildcards,
Block, Power Clash, the Wish) open such a dialog; i reads the card at
stake. A key that can do nothing now says why.
"""


class HelpScreen(Dialog[None]):
    """Every key of the table."""

    BINDINGS = [
        Binding("escape,question_mark,enter", "close", "Close"),
        Binding("H", "how_to_play", "How to play"),
    ]

    def action_how_to_play(self) -> None:
        """The How to play screen."""
        from dbdeck.games.deckbuilding.tui.howto import HowToPlay

        self.dismiss(None)
        self.app.push_screen(HowToPlay())

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog wide"):
            yield Static(HELP)

    def action_close(self) -> None:
        self.dismiss(None)
