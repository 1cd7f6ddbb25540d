"""The table's keys: what each does, and the key bar that names them."""

from __future__ import annotations

from textual.binding import Binding, BindingType

from dbdeck.games.deckbuilding.tui.play.layout import PANELS

__all__ = [
    "BINDINGS",
    "DECIDING_KEYS",
    "KEYS",
    "OVER_KEYS",
    "PLAY_KEYS",
    "Keys",
    "deciding_keys",
    "waiting_keys",
]

Keys = tuple[tuple[str, str], ...]
"""A key bar: each key with its word, most important first."""

BINDINGS: list[BindingType] = [
    Binding("e", "end_turn", "End turn"),
    Binding("p", "play_energy", "Play Energy"),
    Binding("a", "attack", "Attack"),
    Binding("b", "buy", "Buy"),
    Binding("t", "prepare", "Prepare"),
    Binding("o", "boost", "Boost"),
    Binding("s", "steal", "Steal"),
    Binding("d", "buy_ball", "Buy a Dragon Ball"),
    Binding("x", "exhaust", "Exhaust"),
    Binding("y", "ability", "Ability"),
    Binding("i", "inspect", "Inspect"),
    Binding("g", "suggest", "Suggest"),
    Binding("u", "undo", "Undo"),
    Binding("h", "toggle_hide", "Hide hands"),
    Binding("space", "space", "Skip", show=False, priority=True),
    Binding("question_mark", "help", "Help"),
    Binding("r", "rules", "Rules"),
    Binding("c", "cards", "Cards"),
    Binding("S", "settings", "Settings"),
    Binding("G", "summary", "Game summary", show=False),
    *[Binding(key, f"panel('{panel}')", name, show=False) for panel, (key, name) in PANELS.items()],
    Binding("q", "app.quit", "Quit"),
]

KEYS: Keys = (
    ("Enter", "Card"),
    ("p", "Energy"),
    ("b", "Buy"),
    ("a", "Attack"),
    ("e", "End turn"),
    ("t", "Prepare"),
    ("Tab", "Panels"),
    ("g", "Suggest"),
    ("u", "Undo"),
    ("i", "Inspect"),
    ("s", "Steal"),
    ("d", "Buy ball"),
    ("r", "Rules"),
    ("q", "Quit"),
    ("^p", "Palette"),
)
"""The key bar, most important first (as many as fit show)."""

OVER_KEYS: Keys = (
    ("G", "Summary"),
    ("Tab", "Panels"),
    ("i", "Inspect"),
    ("r", "Rules"),
    ("q", "Quit"),
)
"""The key bar once the game is over."""

DECIDING_KEYS: Keys = (
    ("↓ Enter", "Choose"),
    ("i", "Read a card"),
    ("g", "Suggest"),
    ("^p", "Palette"),
)
"""The key bar while a decision's dialog asks this screen: the dialog's
keys, and the palette (the table's own keys, quitting among them, wait
behind the dialog until it is answered)."""

BANNER_KEYS: Keys = (("Enter", "Play"),)
"""The key bar behind the banner of a new turn."""

DIALOG_KEYS: Keys = (("Esc", "Close the dialog"),)
"""The key bar behind a dialog the player opened (a card's menu, the
end-of-turn question, the attack, help): each writes its own keys in it,
and every one of them closes with Escape."""

PLAY_KEYS = frozenset({"Enter", "p", "b", "a", "e", "t", "g", "u", "s", "d"})
"""The table's keys that act in the game (each waits while a decision is
pending for another screen)."""


def deciding_keys(keys: Keys) -> Keys:
    """The key bar while a decision's dialog is open at a table whose bar
    is ``keys`` (the coach only where the table offers it)."""
    offered = {key for key, _ in keys}
    return tuple((key, what) for key, what in DECIDING_KEYS if key != "g" or "g" in offered)


def waiting_keys(keys: Keys) -> Keys:
    """The key bar while another screen decides: the keys that only look."""
    return tuple((key, what) for key, what in keys if key not in PLAY_KEYS)
