"""The table's dialogs: a choice, the filterable list of every action, a
question before something that cannot be taken back, a number, ticking
cards (a search, a reveal), a reason, the hand-off, the end of the game.

Every dialog closes once (``Dialog``), opens with nothing highlighted, and
Escape closes it unless it must be answered. Labels are plain text.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Input, Label, OptionList, SelectionList, Static
from textual.widgets.option_list import Option
from textual.widgets.selection_list import Selection

from dbdeck.games.ccg.table.view import LogLine
from dbdeck.games.ccg.tui import glyphs
from dbdeck.games.ccg.tui.offers import Entry
from dbdeck.games.ccg.tui.widgets import LOG_STYLES, ChoiceList, TickList
from dbdeck.tui.choices import answers
from dbdeck.tui.modal import Dialog, ResultT

__all__ = [
    "ActionsDialog",
    "CcgDialog",
    "ChoiceDialog",
    "ConfirmDialog",
    "GameOverDialog",
    "HandoffScreen",
    "LogScreen",
    "NumberDialog",
    "TextDialog",
    "TickDialog",
]

ARM_SECONDS = 0.4
"""How long the hand-off ignores Enter: a key typed for the table before
it showed must not pass it unread."""


class CcgDialog(Dialog[ResultT]):
    """A dialog of the CCG table: a box in the middle of the screen."""

    DEFAULT_CSS = """
    CcgDialog { align: center middle; background: $background 60%; }
    CcgDialog .ccg-dialog { width: 80%; max-width: 100; height: auto; max-height: 90%;
                            border: thick $accent; background: $panel; padding: 0 1; }
    CcgDialog .ccg-dialog > Label { width: 100%; }
    CcgDialog .ccg-dialog OptionList { height: auto; max-height: 16; }
    CcgDialog .ccg-dialog SelectionList { height: auto; max-height: 12; }
    CcgDialog .keys { margin-top: 1; }
    """


def _keys(text: str) -> Static:
    return Static(Text(text, style="dim"), classes="keys")


class ChoiceDialog(CcgDialog[int | None]):
    """Choose one of ``options`` (Down, then Enter); ``disabled`` lines show
    below them and cannot be chosen (what cannot be done now, and why)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", show=False)]

    def __init__(
        self,
        title: str,
        prompt: str,
        options: list[str],
        *,
        disabled: list[str] | None = None,
        cancellable: bool = True,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.prompt = prompt
        self.options = options
        self.forbidden = disabled or []
        self.cancellable = cancellable

    def compose(self) -> ComposeResult:
        with Vertical(classes="ccg-dialog"):
            yield Label(Text(self.title_text, style="bold"))
            if self.prompt:
                yield Static(Text(self.prompt))
            choices = answers(self.options, self.forbidden, ascii_only=glyphs.ASCII)
            yield ChoiceList(*choices, id="choices")
            keys = "Down, then Enter: choose"
            yield _keys(keys + ("  Escape: cancel" if self.cancellable else ""))

    def on_mount(self) -> None:
        self.query_one(ChoiceList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.dismiss(int(event.option.id))

    def action_cancel(self) -> None:
        """Close without choosing."""
        if self.cancellable:
            self.dismiss(None)


class ActionsDialog(CcgDialog[Entry | None]):
    """Every action offered now, under its group's heading; typing filters
    the list (by words of the label or of the group)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("down", "to_list", "To the list", show=False),
    ]

    def __init__(self, entries: list[Entry], *, title: str = "Every action offered now") -> None:
        super().__init__()
        self.entries = entries
        self.title_text = title
        self.shown: list[Entry] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="ccg-dialog"):
            yield Label(Text(self.title_text, style="bold"))
            yield Input(placeholder="type to filter (move, draw, attack …)", id="filter")
            yield ChoiceList(id="actions")
            yield _keys("Type: filter  Down: the list  Enter: choose  Escape: cancel")

    def on_mount(self) -> None:
        self._fill("")
        self.query_one(Input).focus()

    def _fill(self, query: str) -> None:
        words = query.lower().split()

        def words_of(entry: Entry) -> str:
            return " ".join([entry.label, entry.group, *(o.label for o in entry.offers)]).lower()

        self.shown = [e for e in self.entries if all(w in words_of(e) for w in words)]
        listing = self.query_one(ChoiceList)
        listing.clear_options()
        group = None
        options: list[Option] = []
        for index, entry in enumerate(self.shown):
            if entry.group != group:
                group = entry.group
                options.append(
                    Option(Text(group or "other", style="bold underline"), disabled=True)
                )
            label = entry.label + ("" if entry.single else f" {glyphs.ellipsis()}")
            options.append(Option(Text(label), id=str(index)))
        if not options:
            options.append(Option(Text("No action matches.", style="italic"), disabled=True))
        listing.add_options(options)
        listing.highlighted = None

    @on(Input.Changed, "#filter")
    def _filtered(self, event: Input.Changed) -> None:
        self._fill(event.value)

    @on(Input.Submitted, "#filter")
    def _submitted(self) -> None:
        """Enter in the filter: the only line left, else the list."""
        if len(self.shown) == 1:
            self.dismiss(self.shown[0])
            return
        self.action_to_list()

    def action_to_list(self) -> None:
        """Down from the filter: into the list, on its first line."""
        listing = self.query_one(ChoiceList)
        if not listing.has_focus:
            listing.focus()
            listing.action_cursor_down()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.dismiss(self.shown[int(event.option.id)])

    def action_cancel(self) -> None:
        """Close without choosing."""
        self.dismiss(None)


class ConfirmDialog(CcgDialog[bool]):
    """A question before something that cannot be taken back: ``y`` does
    it, ``n`` or Escape does not."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, title: str, body: str, yes: str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.yes = yes

    def compose(self) -> ComposeResult:
        with Vertical(classes="ccg-dialog"):
            yield Label(Text(self.title_text, style="bold"))
            yield Static(Text(self.body))
            yield _keys(f"y: {self.yes}  n or Escape: not now")

    def action_answer(self, yes: bool) -> None:
        """Close with the answer."""
        self.dismiss(yes)


class NumberDialog(CcgDialog[int | None]):
    """Type a number (how many cards to draw)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", show=False)]

    def __init__(self, title: str, prompt: str, *, most: int | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.prompt = prompt
        self.most = most

    def compose(self) -> ComposeResult:
        with Vertical(classes="ccg-dialog"):
            yield Label(Text(self.title_text, style="bold"))
            yield Static(Text(self.prompt))
            yield Input(type="integer", id="number")
            yield _keys("Enter: done  Escape: cancel")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        try:
            number = int(event.value)
        except ValueError:
            self.notify("Type a number.", severity="warning")
            return
        if number < 1 or (self.most is not None and number > self.most):
            most = f" to {self.most}" if self.most is not None else " or more"
            self.notify(f"Type a number from 1{most}.", severity="warning")
            return
        self.dismiss(number)

    def action_cancel(self) -> None:
        """Close without a number."""
        self.dismiss(None)


class TextDialog(CcgDialog[str | None]):
    """Type a line of words (why a consequence is overruled)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", show=False)]

    def __init__(self, title: str, prompt: str) -> None:
        super().__init__()
        self.title_text = title
        self.prompt = prompt

    def compose(self) -> ComposeResult:
        with Vertical(classes="ccg-dialog"):
            yield Label(Text(self.title_text, style="bold"))
            yield Static(Text(self.prompt))
            yield Input(id="words", max_length=200)
            yield _keys("Enter: done  Escape: cancel")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        # A line of words only: control characters never reach the rules.
        self.dismiss("".join(c for c in event.value if c.isprintable()).strip())

    def action_cancel(self) -> None:
        """Close without words."""
        self.dismiss(None)


class TickDialog(CcgDialog[tuple[tuple[int, ...], int] | None]):
    """Tick cards (Space), then choose what to do with them (Enter on one of
    ``actions``): a search's cards taken, hand cards revealed. The answer
    is the ticked uids and the index of the action."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", show=False)]

    def __init__(
        self,
        title: str,
        prompt: str,
        cards: list[tuple[str, int]],
        actions: list[str],
        *,
        untick_actions: frozenset[int] = frozenset(),
    ) -> None:
        """``untick_actions``: the actions that need no ticked card (finish
        a search)."""
        super().__init__()
        self.title_text = title
        self.prompt = prompt
        self.cards = cards
        self.actions = actions
        self.untick_actions = untick_actions

    def compose(self) -> ComposeResult:
        with Vertical(classes="ccg-dialog"):
            yield Label(Text(self.title_text, style="bold"))
            if self.prompt:
                yield Static(Text(self.prompt))
            yield TickList(
                *[Selection(Text(label), uid, False) for label, uid in self.cards], id="cards"
            )
            yield ChoiceList(*[Option(Text(a), id=str(i)) for i, a in enumerate(self.actions)])
            yield _keys(
                "Down, then Space: tick  Tab: to the choices  Enter: choose  Escape: cancel"
            )

    def on_mount(self) -> None:
        if self.cards:
            cards = self.query_one(SelectionList)
            # Nothing highlighted, as in every list: Down first, then Space.
            cards.highlighted = None
            cards.focus()
        else:
            self.query_one(ChoiceList).focus()

    def ticked(self) -> tuple[int, ...]:
        """The ticked cards, in the order shown."""
        chosen = set(self.query_one(SelectionList).selected)
        return tuple(uid for _, uid in self.cards if uid in chosen)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if isinstance(event.option_list, SelectionList) or event.option.id is None:
            return
        index = int(event.option.id)
        ticked = self.ticked()
        if not ticked and index not in self.untick_actions:
            self.notify("Tick one or more cards first (Space).", severity="warning")
            return
        self.dismiss((ticked, index))

    def action_cancel(self) -> None:
        """Close without doing anything."""
        self.dismiss(None)


class HandoffScreen(CcgDialog[None]):
    """Hot-seat: the keyboard passes. Both hands are hidden (the screen
    covers the whole table) until the next player presses Enter."""

    DEFAULT_CSS = """
    HandoffScreen { background: $background 100%; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "ready", "I am ready"),
        Binding("q,ctrl+q", "app.quit", "Quit"),
        Binding("ctrl+c", "app.quit", "Quit", show=False),
        Binding("escape", "stay", "Stay", show=False),
    ]

    KEYS: tuple[tuple[str, str], ...] = (("Enter", "I am ready"), ("q", "Quit"))
    """The key bar while the keyboard passes."""

    arm_seconds = ARM_SECONDS
    armed = False

    def __init__(self, player: str, what: str) -> None:
        super().__init__()
        self.player = player
        self.what = what

    def compose(self) -> ComposeResult:
        with Vertical(classes="ccg-dialog"):
            head = Text()
            head.append(self.player, style="bold")
            if self.what:
                head.append(" - ")
                head.append(self.what)
            yield Label(head)
            body = Text("Pass the keyboard to ")
            body.append(self.player)
            body.append(". Both hands stay hidden until ")
            body.append(self.player)
            body.append(" presses Enter.")
            yield Static(body)
            yield _keys("Enter: I am ready  q: quit")

    def on_mount(self) -> None:
        if self.arm_seconds <= 0:
            self.armed = True
        else:
            self.set_timer(self.arm_seconds, self._arm)

    def _arm(self) -> None:
        self.armed = True

    def action_ready(self) -> None:
        """The next player is at the keyboard (once shown long enough to be read)."""
        if self.armed:
            self.dismiss(None)

    def action_stay(self) -> None:
        """Escape: the table stays hidden."""
        self.notify("The hands stay hidden until the next player presses Enter; q quits.")


class GameOverDialog(CcgDialog[None]):
    """The end of the game: who won and how."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,escape", "close", "Close"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, title: str, result: str) -> None:
        super().__init__()
        self.title_text = title
        self.result = result

    def compose(self) -> ComposeResult:
        with Vertical(classes="ccg-dialog"):
            yield Label(Text(self.title_text, style="bold"))
            if self.result:
                yield Static(Text(self.result))
            yield _keys("Enter: back to the table (q quits)")

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)


class LogScreen(CcgDialog[None]):
    """The log, on a screen too small to show it beside the table."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,l", "close", "Close")]

    def __init__(self, lines: tuple[LogLine, ...]) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> ComposeResult:
        text = Text()
        for n, line in enumerate(self.lines):
            if n:
                text.append("\n")
            text.append(line.text, style=LOG_STYLES.get(line.kind, ""))
        with VerticalScroll(classes="ccg-dialog"):
            yield Label(Text("Log", style="bold"))
            yield Static(text if self.lines else Text("Nothing yet.", style="italic"))
            yield _keys("Escape, Enter or l: close")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).scroll_end(animate=False)

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)
