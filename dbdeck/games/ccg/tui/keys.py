"""The CCG table's keys: the bindings, the key bar that names them (only
the keys that work now), and the help screen."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from dbdeck.games.ccg.tui.dialogs import CcgDialog

__all__ = [
    "BINDINGS",
    "HELP",
    "KEYS",
    "OVER_KEYS",
    "PLAY_KEYS",
    "WAITING_KEYS",
    "HelpScreen",
    "Keys",
    "play_keys",
]

Keys = tuple[tuple[str, str], ...]
"""A key bar: each key with its word, most important first."""

BINDINGS: list[BindingType] = [
    *[Binding(str(n), f"take({n})", f"Take {n}", show=False) for n in range(1, 10)],
    Binding("a", "actions", "Every action"),
    Binding("e", "end_turn", "End the turn"),
    Binding("p", "pass", "Pass"),
    Binding("F", "final_physical_attack", "Final Physical Attack"),
    Binding("d", "draw", "Draw"),
    Binding("s", "search", "Search"),
    Binding("m", "move", "Move card"),
    Binding("f", "flip", "Flip"),
    Binding("k", "mark_used", "Mark used"),
    Binding("t", "turn_card", "Turn sideways"),
    Binding("A", "attach", "Attach"),
    Binding("r", "shuffle", "Shuffle"),
    Binding("c", "cut", "Cut"),
    Binding("v", "reveal", "Reveal"),
    Binding("x", "fusion", "Fusion"),
    Binding("plus,equals_sign", "counter('stages', 1)", "+ stage", key_display="+"),
    Binding("minus", "counter('stages', -1)", "- stage", key_display="-"),
    Binding("greater_than_sign", "counter('anger', 1)", "+ anger", key_display=">"),
    Binding("less_than_sign", "counter('anger', -1)", "- anger", key_display="<"),
    Binding("right_square_bracket", "counter('level', 1)", "+ level", key_display="]"),
    Binding("left_square_bracket", "counter('level', -1)", "- level", key_display="["),
    Binding("o", "overrule", "Overrule"),
    Binding("i", "inspect", "Inspect"),
    Binding("u", "undo", "Undo"),
    Binding("w", "switch_seat", "Switch seat"),
    Binding("g", "suggest", "Suggest"),
    Binding("l", "log", "Log"),
    Binding("question_mark", "help", "Help"),
    Binding("q", "app.quit", "Quit"),
]

SWITCH_KEY = ("w", "Switch seat")
"""Solo practice: switch to the other seat (shown only where the table can)."""

PLAY_KEYS: tuple[tuple[str, str, frozenset[str]], ...] = (
    ("1-9", "Take", frozenset()),
    ("Enter", "Card", frozenset()),
    ("a", "Actions", frozenset()),
    ("e", "End turn", frozenset({"end-turn"})),
    ("p", "Pass", frozenset({"pass"})),
    ("F", "Final attack", frozenset({"final-physical-attack"})),
    ("d", "Draw", frozenset({"draw-three", "draw-cards"})),
    ("s", "Search", frozenset({"start-search", "search-take", "finish-search"})),
    ("x", "Fusion", frozenset({"fuse", "fusion-timer", "defuse"})),
    ("+/-", "Stages", frozenset({"counter"})),
    ("m", "Move", frozenset({"move-card"})),
    ("i", "Inspect", frozenset()),
    ("u", "Undo", frozenset()),
    ("Tab", "Panels", frozenset()),
    ("q", "Quit", frozenset()),
)
"""The key bar while the seat may act, most important first: each key with
the action kinds it needs offered to show (none: it always shows)."""

KEYS: Keys = tuple((key, what) for key, what, _ in PLAY_KEYS)
"""Every key the bar may show while the seat may act."""


def play_keys(kinds: set[str], *, numbered: bool, switch: bool) -> Keys:
    """The key bar while the seat may act: the keys whose actions are
    offered now (``kinds``), the number keys while a line is numbered, and
    the seat switch of solo practice."""
    bar = [
        (key, what)
        for key, what, needs in PLAY_KEYS
        if (not needs or needs & kinds) and (key != "1-9" or numbered)
    ]
    if switch:
        bar.insert(len(bar) - 1, SWITCH_KEY)
    return tuple(bar)


WAITING_KEYS: Keys = (
    ("Enter", "Card"),
    ("i", "Inspect"),
    ("Tab", "Panels"),
    ("l", "Log"),
    ("q", "Quit"),
)
"""The key bar while another seat acts: the keys that only look."""

OVER_KEYS: Keys = (("i", "Inspect"), ("Tab", "Panels"), ("l", "Log"), ("u", "Undo"), ("q", "Quit"))
"""The key bar once the game is over."""

HELP = """\
Keys on the CCG table

  Tab, Shift+Tab  move between the panels (the other side, the middle,
                  your side); arrows move between its cards, Up and Down
                  between its groups
  Enter      the card's menu: every action offered now that names it
  1-9        take a numbered line of the list of what the turn asks now
             (those about the card under the cursor come first)
  a          every action offered now, filterable (type to filter)
  ctrl+p     the command palette: every action offered, searchable

The turn and Combat
  e          end the turn (asked first while cards can still be played)
  p          pass in Combat (two passes back to back end it)
  F          the Final Physical Attack (asked first: once per Combat,
             and you pass for the rest of it)

By hand, as at a real table
  d          draw: three, one, or a number of cards
  s          search your Life Deck privately (the other player sees only
             that you search); while searching: take cards, then finish
             the search and shuffle
  m f k t    move the card under the cursor to a zone (top or bottom),
             flip it, mark it used, turn it sideways
  A          attach it to a card in play (or detach it)
  r  c  v    shuffle a pile, cut the other Life Deck, reveal hand cards
  x          fusion, as a card allows: fuse two personalities of one
             level into a Fusion personality of your Sensei Deck; while
             fused, its timer card by hand, or defuse (asked first)
  + -        the stages of the personality under the cursor (the Main
             Personality elsewhere)
  > <        anger (the Warrior Sword); ] [ the Main Personality's level
  o          overrule: ask to take back the last action (the other
             player agrees)

Looking
  i          inspect the card under the cursor (or choose one)
  l          the log (beside the table on a wide screen)
  g          what the rules suggest now, and why
  u          undo the last action, where undo may go back; at a shared
             table it asks the other seat: Y agrees, N refuses
  w          solo practice: switch to the other seat
  ?          this help; q quits

Every list opens with nothing highlighted: Down highlights the first
line, Enter chooses it. A key that can do nothing now says why.
"""


class HelpScreen(CcgDialog[None]):
    """Every key of the CCG table (its lines are at most 72 cells: whole at
    80 columns)."""

    DEFAULT_CSS = """
    HelpScreen .ccg-dialog { width: 100%; max-width: 80; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,enter,q", "close", "Close")
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="ccg-dialog"):
            yield Static(HELP, markup=False)

    def action_close(self) -> None:
        """Close."""
        self.dismiss(None)
