"""The table's layout by screen size, and the tabs of its switchable panels.

Below 100 columns the body shows one panel at a time (``1``-``6`` switch);
below 150×45 the action list stays beside one switchable panel; from 150×45
every panel shows at once. At every size the Villain's health and Time
Track, the round, whose turn it is, the Dragon Balls, the hand and the
prompt stay in sight.
"""

from __future__ import annotations

from rich.text import Text

__all__ = [
    "BODY",
    "LAYOUT_CLASSES",
    "NARROW",
    "PANELS",
    "WIDE",
    "brings_into_sight",
    "classes_of",
    "panel_tabs",
    "shown_panel",
    "size_of",
]

NARROW = 100
"""Below this width the body shows one panel at a time."""
WIDE = (150, 45)
"""From this size (columns, rows) every panel shows at once."""

PANELS = {
    "hand": ("1", "Hand"),
    "markets": ("2", "Markets"),
    "characters": ("3", "Boards"),
    "villain": ("4", "Villain"),
    "actions": ("5", "Actions"),
    "log": ("6", "Log"),
}
"""The panels the number keys go to."""

BODY = ("markets", "characters", "actions", "log")
"""The switchable panels of the body."""

SWITCHABLE = ("markets", "characters", "log")
"""The panels a number key brings into sight at every size (the action list
only where it does not stay in sight anyway: below 100 columns)."""

LAYOUT_CLASSES = frozenset({"-narrow", "-medium", "-wide", "compact"})
"""Every class a layout may give the screen."""


def size_of(width: int, height: int) -> str:
    """The layout for a screen size: ``narrow``, ``medium`` or ``wide``."""
    if width < NARROW:
        return "narrow"
    if width < WIDE[0] or height < WIDE[1]:
        return "medium"
    return "wide"


def classes_of(size: str) -> set[str]:
    """The screen's classes for a layout (the compact ones are all but wide)."""
    return {f"-{size}"} | ({"compact"} if size != "wide" else set())


def shown_panel(size: str, shown: str) -> str:
    """The body's panel in sight at a layout: at medium sizes the action
    list is always in sight, so its tab gives way to the markets."""
    if size == "medium" and shown == "actions":
        return "markets"
    return shown


def brings_into_sight(panel: str, size: str) -> bool:
    """Whether going to ``panel`` switches the body's shown panel."""
    return panel in SWITCHABLE or (panel == "actions" and size == "narrow")


def panel_tabs(size: str, shown: str) -> Text:
    """The tabs of the panels, the shown one marked (brackets mark it
    without colour too: NO_COLOR, ASCII)."""
    tabs = Text()
    for panel, (key, name) in PANELS.items():
        if size == "medium" and panel == "actions":
            continue
        on = panel == shown
        label = f"[{key} {name}]" if on else f" {key} {name} "
        tabs.append(label, style="bold reverse" if on else "dim")
    return tabs
