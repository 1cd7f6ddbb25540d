"""A Time Track: four slots on one line that never wraps.

Each slot shows what is prepared there (a Technique or a Villain attack),
its printed Damage and kind (as the view's card carries them), and its
boosters; a slot too narrow for its name cuts the name, never the line.
The Villain board and every Character board draw their track with
``track_line``.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from dbdeck.games.deckbuilding.engine.panels import CardView, PreparedView
from dbdeck.games.deckbuilding.tui.widgets import glyphs
from dbdeck.games.deckbuilding.tui.widgets.board import Items
from dbdeck.games.deckbuilding.tui.widgets.glyphs import card_text, fit, styled

__all__ = ["SLOTS", "prepared_cells", "slot_widths", "track_line", "villain_cells"]

SLOTS = 4
"""Time positions 1 to 4."""


def villain_cells(slots: Sequence[Sequence[CardView]], items: Items, where: str) -> list[Text]:
    """The Villain's four slots, each attack a card the cursor visits."""
    cells = []
    for attacks in slots:
        cell = Text()
        for i, attack in enumerate(attacks):
            if i:
                cell.append(" / ")
            part = card_text(attack, where, "bold")
            if attack.attack:
                part.append(f" {attack.attack}")
            cell.append_text(items.add(part, attack.uid, where, row=1))
        cells.append(cell)
    return cells


def prepared_cells(slots: Sequence[PreparedView | None], items: Items, where: str) -> list[Text]:
    """A Character's four slots, each prepared Technique a card the cursor
    visits, with its boosters' count."""
    cells = []
    for prepared in slots:
        cell = Text()
        if prepared is not None:
            part = card_text(prepared.card, where, "bold")
            if prepared.card.attack:
                part.append(f" {prepared.card.attack}")
            if prepared.boosters:
                part.append(f" +{len(prepared.boosters)} booster")
                part.append("s" if len(prepared.boosters) > 1 else "")
            cell.append_text(items.add(part, prepared.card.uid, where, row=1))
        cells.append(cell)
    return cells


def track_line(cells: list[Text], width: int, label: str = "Time ") -> Text:
    """The four slots on one line of ``width`` cells: ``1 Sokidan 2E | 2 - …``."""
    empty = "-" if glyphs.ASCII else "·"
    bar = "|" if glyphs.ASCII else "│"
    line = Text(label, style="dim")
    room = max(8, width - len(label))
    bodies = []
    for slot in range(SLOTS):
        cell = cells[slot] if slot < len(cells) else Text()
        body = styled(f"{slot + 1} ", "bold")
        body.append_text(cell if cell.plain else Text(empty, style="dim"))
        bodies.append(body)
    widths = slot_widths([b.cell_len for b in bodies], room - (SLOTS - 1))
    for slot, (body, each) in enumerate(zip(bodies, widths, strict=True)):
        body = fit(body, each)
        body.pad_right(each - body.cell_len)
        if slot:
            line.append(bar, style="dim")
        line.append_text(body)
    return fit(line, width)


def slot_widths(needs: list[int], room: int) -> list[int]:
    """The width of each slot: equal columns when every slot fits its share
    (the tracks of the boards line up), else a short slot (an empty one)
    keeps only what it needs and gives the rest to those with long names,
    so that a name is cut only when the whole line is too narrow."""
    count = len(needs)
    each = max(6, room // count)
    if all(n <= each for n in needs):
        return [each] * count
    widths = [0] * count
    left, open_slots = room, list(range(count))
    # Water-filling: a slot needing less than an even share of what is left
    # takes its need; the others share the rest evenly.
    while open_slots:
        share = max(3, left // len(open_slots))
        small = [i for i in open_slots if needs[i] <= share]
        if not small:
            for n, i in enumerate(open_slots):
                widths[i] = share + (1 if n < left - share * len(open_slots) else 0)
            break
        for i in small:
            widths[i] = needs[i]
            left -= needs[i]
        open_slots = [i for i in open_slots if i not in small]
    return widths
