"""The card inspector (``i``): one card, or a Main Personality, in full.

What the seat's view shows of it: a card's title, type, owner, stages,
whether it is face up, used or turned, and the cards beneath it; a Main
Personality's stack, scouter, anger, PUR and power. Then what dbdeck knows
of the card, looked up by the id the view gives a card the seat sees: its
identity (printing, personality and level, style, Dragon Ball, where the
sources name it, dbdeck's notes), the rulings of 7 June 2001 on it under
the table's rules profile, and its text when a pack gives it (drawn as
plain text, never markup: no card text is shipped). A card the seat may not
see says only that: the view gives it no title and no id.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import PurePath
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from dbdeck.games.ccg.profiles import PROFILES
from dbdeck.games.ccg.table.view import HIDDEN, CardFace, SeatPanel, TableView
from dbdeck.games.ccg.titles import fold
from dbdeck.games.ccg.tui.dialogs import CcgDialog
from dbdeck.games.ccg.tui.draw import ANGER_MAX, TIMER_DEFUSES, level_words, scouter, whose
from dbdeck.games.ccg.tui.glyphs import bar, styled

if TYPE_CHECKING:
    from dbdeck.games.ccg.library import CardRecord, Library

__all__ = ["InspectorScreen", "card_facts", "card_lore", "main_facts"]


def _row(text: Text, name: str, value: str | Text) -> None:
    text.append(f"\n{name:<14}", style="bold")
    if isinstance(value, Text):
        text.append_text(value)
    else:
        text.append(value)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def card_facts(
    face: CardFace,
    view: TableView,
    where: str,
    *,
    depth: int = 0,
    catalog: Library | None = None,
) -> Text:
    """Everything the view shows of one card, in rows, then what
    ``catalog`` (the card library) knows of it."""
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
    if depth == 0:
        text.append_text(card_lore(face.card_id, catalog, view.profile))
    return text


def main_facts(seat: SeatPanel, view: TableView, catalog: Library | None = None) -> Text:
    """Everything the view shows of a seat's Main Personality, in rows, then
    what ``catalog`` knows of its current level's card."""
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
    text.append_text(card_lore(main.card_id, catalog, view.profile))
    return text


def _heading(text: Text, words: str) -> None:
    text.append(f"\n\n{words}", style="bold underline")


def _paragraphs(text: Text, lines: Iterable[str]) -> None:
    for line in lines:
        text.append("\n")
        text.append(line)


def card_lore(card_id: str, catalog: Library | None, profile: str) -> Text:
    """What dbdeck knows of the card ``card_id``: its identity, the rulings
    on it under ``profile`` (rules note R20) and a pack's text. Every value
    comes from data files and is appended as plain text, never markup."""
    text = Text()
    _heading(text, "What dbdeck knows")
    record = _record(catalog, card_id)
    if record is None or catalog is None:
        text.append("\n")
        text.append(
            "The card library is not at hand at this screen."
            if catalog is None and card_id
            else "Nothing: the card library does not know this card.",
            style="italic",
        )
        return text
    _identity(text, record, catalog)
    _rulings(text, catalog, record.id, profile)
    _heading(text, "Text")
    if record.text:
        _paragraphs(text, record.text.splitlines())
    else:
        text.append("\n")
        text.append("No pack gives this card's text (dbdeck ships none).", style="italic")
    return text


def _record(catalog: Any, card_id: str) -> CardRecord | None:
    """The library's record of ``card_id``, when the screen has a CCG
    library (a screen made for tests may have none)."""
    cards = getattr(catalog, "cards", None)
    if not card_id or cards is None or not hasattr(cards, "get"):
        return None
    found: CardRecord | None = cards.get(card_id)
    return found


def _identity(text: Text, card: CardRecord, catalog: Library) -> None:
    _row(text, "Card id", card.id)
    printing = card.printing or "not known"
    if card.other_numbers:
        printing += f" (also given as {', '.join(card.other_numbers)})"
    _row(text, "Printing", printing)
    if card.personality is not None:
        levels = "-".join(str(n) for n in card.all_levels)
        _row(text, "Personality", f"{card.personality}, level {levels}")
        character = catalog.character(card.personality)
        alignment = card.alignment or (character.alignment if character is not None else None)
        _row(text, "Alignment", alignment or "not known")
    _row(text, "Style", card.style or "none (style-less)")
    if card.dragon_ball is not None:
        _row(text, "Dragon Ball", f"{card.dragon_ball[0]} {card.dragon_ball[1]}")
    for name, value in (
        ("PUR", card.pur),
        ("Power stages", ", ".join(f"{n:,}" for n in card.power_stages) or None),
        ("Endurance", card.endurance),
        ("Only", ", ".join(card.only) or None),
    ):
        if value is not None:
            _row(text, name, str(value))
    if card.pack_file is not None:
        _row(text, "From a pack", PurePath(card.pack_file).name)
    if card.seen_in:
        _heading(text, "Where the sources name it")
        _paragraphs(text, card.seen_in)
    if card.notes:
        _heading(text, "Notes")
        _paragraphs(text, card.notes)
    lists = [
        f"{lst.title} ({lst.source})"
        for lst in catalog.lists.values()
        if _listed(card, lst.of, lst.entries)
    ]
    if lists:
        _heading(text, "On the reference lists")
        _paragraphs(text, lists)


def _listed(card: CardRecord, of: str, entries: tuple[str, ...]) -> bool:
    if of == "cards":
        return card.id in entries
    return card.personality is not None and fold(card.personality) in {fold(e) for e in entries}


def _rulings(text: Text, catalog: Library, card_id: str, profile: str) -> None:
    rulings = catalog.rulings_on(card_id)
    rules = PROFILES.get(profile)  # type: ignore[call-overload]
    applies = rules is not None and rules.applies_rulings
    _heading(text, f"Rulings under {profile}")
    if not rulings:
        text.append("\n")
        text.append("None on this card.", style="italic")
        return
    if not applies:
        text.append("\n")
        text.append(
            f"The rulings of 7 June 2001 do not apply under {profile} (rules note R20); "
            "they would say:",
            style="italic",
        )
    for ruling in rulings:
        text.append("\n")
        text.append(ruling.source, style="bold")
        text.append(": ")
        text.append(ruling.summary)


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
