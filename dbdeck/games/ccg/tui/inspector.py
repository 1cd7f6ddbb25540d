"""The card inspector (``i``): what the seat's view shows of one card, or
of a Main Personality, in full.

It reads the view alone: a card's title, type, owner, stages, whether it
is face up, used or turned, and the cards beneath it; a Main
Personality's stack, scouter, anger, PUR and power. No card text is shown
(none is shipped); a card the seat may not see says only that.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from dbdeck.games.ccg.table.view import HIDDEN, CardFace, SeatPanel, TableView
from dbdeck.games.ccg.tui.dialogs import CcgDialog
from dbdeck.games.ccg.tui.draw import ANGER_MAX, TIMER_DEFUSES, level_words, scouter, whose
from dbdeck.games.ccg.tui.glyphs import bar, styled

__all__ = ["InspectorScreen", "card_facts", "main_facts"]


def _row(text: Text, name: str, value: str | Text) -> None:
    text.append(f"\n{name:<14}", style="bold")
    if isinstance(value, Text):
        text.append_text(value)
    else:
        text.append(value)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def card_facts(face: CardFace, view: TableView, where: str, *, depth: int = 0) -> Text:
    """Everything the view shows of one card, in rows."""
    text = Text()
    text.append(face.title if face.uid != HIDDEN else "A face-down card", style="bold")
    if face.uid == HIDDEN:
        text.append("\nYou may not see this card.", style="italic")
        if where:
            _row(text, "Where", where)
        return text
    _row(text, "Type", face.type or "unknown")
    _row(text, "Owner", whose(view, face.owner))
    if where:
        _row(text, "Where", where)
    if face.stages is not None:
        most = f" of {face.max_stages}" if face.max_stages is not None else ""
        _row(text, "Stages", f"{face.stages}{most} above 0")
    _row(text, "Face up", _yes(face.face_up))
    _row(text, "Used", _yes(face.used))
    _row(text, "Turned", _yes(face.turned))
    _row(text, "Table uid", str(face.uid))
    if face.beneath:
        _row(text, "Beneath", f"{len(face.beneath)} card(s)")
        for below in face.beneath:
            inner = card_facts(below, view, "", depth=depth + 1)
            indented = Text("\n")
            for n, line in enumerate(inner.split("\n")):
                if n:
                    indented.append("\n")
                indented.append("    " * (depth + 1))
                indented.append_text(line)
            text.append_text(indented)
    return text


def main_facts(seat: SeatPanel, view: TableView) -> Text:
    """Everything the view shows of a seat's Main Personality, in rows."""
    main = seat.main
    text = Text()
    text.append(main.title or main.name, style="bold")
    _row(text, "Player", seat.player or "-")
    _row(text, "Personality", main.name)
    _row(text, "Alignment", main.alignment or "-")
    _row(text, "Level", f"{level_words(main)} (stack: {', '.join(map(str, main.levels)) or '-'})")
    _row(text, "Stages", f"{main.stages} of {main.max_stages} above 0")
    _row(text, "Scouter", scouter(main, 70))
    if main.stage_values:
        values = ", ".join(f"{n}: {v:,}" for n, v in enumerate(main.stage_values))
        _row(text, "Ladder", values)
    sword = bar(main.anger, ANGER_MAX)
    sword.append(f" anger {main.anger}/{ANGER_MAX}")
    _row(text, "Warrior Sword", sword)
    _row(text, "PUR", str(main.pur) if main.pur is not None else "not given: say how many stages")
    _row(text, "Power", "used this turn" if main.power_used else "ready")
    _row(text, "Tokui-Waza", seat.tokui_waza or "none declared")
    control = "the Main Personality"
    if seat.in_control is not None:
        ally = next((a for a in seat.allies if a.uid == seat.in_control), None)
        control = ally.title if ally is not None else "an Ally"
    _row(text, "In control", control)
    if seat.fusion is not None:
        what = "the Main Personality" if seat.fusion_is_main else "an Ally"
        _row(text, "Fused", f"{seat.fusion.title} ({what})")
        _row(text, "Components", ", ".join(f.title for f in seat.fused) or "-")
        timer = f"{len(seat.timer)} of {TIMER_DEFUSES} cards, face down beneath the anger counter"
        seen = [f.title for f in seat.timer if f.uid != HIDDEN]
        if seen:
            timer += f": {', '.join(seen)}"
        _row(text, "Timer", timer)
    return text


class InspectorScreen(CcgDialog[None]):
    """One card (or Main Personality) as the view shows it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,i", "close", "Close")]

    def __init__(self, facts: Text) -> None:
        super().__init__()
        self.facts = facts

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="ccg-dialog"):
            yield Static(self.facts)
            yield Static(styled("Escape, Enter or i: close", "dim"), classes="keys")

    def action_close(self) -> None:
        """Close."""
        self.dismiss(None)
