"""The table's pictures, drawn from the seat's view alone: a player's side
(the Main Personality with its scouter and Warrior Sword, the piles, the
cards in play, the hand), the turn's steps, the Location and Combat.

A fusion shows on its side: the Fusion personality, its two components and
its timer's count (the timer cards are face down: their number only).

Every function here is pure: a panel of the ``TableView`` in, a rich
``Text`` out, and each card drawn is recorded in ``Items`` so that a
board's cursor can visit it. Titles and names are data: they are appended
as plain text, never read as markup. A state never shows by colour alone:
the current stage is bracketed, a used card says ``used``, a captured ball
``turned``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from rich.text import Text

from dbdeck.games.ccg.table.view import (
    HIDDEN,
    CardFace,
    CombatPanel,
    PersonalityPanel,
    SeatPanel,
    TableView,
)
from dbdeck.games.ccg.tui import glyphs
from dbdeck.games.ccg.tui.glyphs import pack, sep, styled

__all__ = [
    "ANGER_MAX",
    "HAND_ROW",
    "STEPS",
    "TIMER_DEFUSES",
    "Item",
    "Items",
    "SeatShown",
    "anger_gauge",
    "card_key",
    "card_tile",
    "combat_line",
    "fusion_parts",
    "hidden_hand",
    "main_key",
    "middle_picture",
    "pile_key",
    "scouter",
    "seat_picture",
    "steps_strip",
    "whose",
]

ANGER_MAX = 5
"""The Warrior Sword's marks: 0 to 5 (seed 003, Anger and Levels)."""

TIMER_DEFUSES = 5
"""A fusion defuses at five timer cards (seed 001)."""

HAND_ROW = 20
"""The hand's group row (Up and Down move between rows, in order)."""

STEPS: tuple[tuple[str, str], ...] = (
    ("draw", "Draw"),
    ("non-combat", "Non-Combat"),
    ("power-up", "Power Up"),
    ("combat?", "Combat?"),
    ("combat", "Combat"),
    ("discard", "Discard"),
    ("pass-bonus", "Pass bonus"),
    ("end", "End"),
)
"""The turn's steps in the rulebook's order, each with its short name."""

TYPE_STYLES = {
    "personality": "orchid1",
    "ally": "orchid1",
    "drill": "yellow",
    "non-combat": "green",
    "dragon-ball": "bold yellow",
    "physical-combat": "light_coral",
    "energy-combat": "cyan",
    "combat": "light_coral",
    "mastery": "bright_cyan",
    "sensei": "bright_green",
    "location": "sky_blue1",
    "battleground": "sky_blue1",
}
"""Each card type's colour (a help only: the zone's label says what it is)."""


class Item(NamedTuple):
    """A thing a board's cursor visits: ``key`` says which (``card:12``,
    ``main:0``, ``pile:1:discard``), ``row`` the group it belongs to (Up and
    Down move between groups)."""

    key: str
    row: int = 0


class Items:
    """The items of one drawing, the cursor's drawn reversed as it is added."""

    def __init__(self, cursor: int | None) -> None:
        self.cursor = cursor
        self.items: list[Item] = []

    def add(self, text: Text, key: str, row: int) -> Text:
        """Record ``text`` as the item ``key``; reversed under the cursor."""
        if self.cursor == len(self.items):
            text.stylize("reverse bold")
        self.items.append(Item(key, row))
        return text


def card_key(uid: int) -> str:
    """The item key of a card."""
    return f"card:{uid}"


def main_key(seat: int) -> str:
    """The item key of a seat's Main Personality."""
    return f"main:{seat}"


def pile_key(seat: int, pile: str) -> str:
    """The item key of a seat's pile (``discard``, ``removed``, ``sensei-deck``)."""
    return f"pile:{seat}:{pile}"


def whose(view: TableView, seat: int) -> str:
    """A seat's player in words (their name, else their Main Personality)."""
    panel = view.seats[seat] if 0 <= seat < len(view.seats) else None
    if panel is None:
        return f"seat {seat}"
    return panel.player or panel.main.name


# --- the Main Personality -----------------------------------------------------------------


def scouter(main: PersonalityPanel, width: int = 60) -> Text:
    """The scouter strip: every stage from 0 to the level's most, the
    current one bracketed (``0 1 2 [3] 4 5``); stages below it are lit.
    When the strip would be wider than ``width``, the stages around the
    current one are shown and the ends cut with an ellipsis."""
    top = max(main.max_stages, main.stages, 0)
    at = max(0, main.stages)
    marks: list[Text] = []
    for stage in range(top + 1):
        if stage == at:
            marks.append(styled(f"[{stage}]", "bold reverse green"))
        elif stage < at:
            marks.append(styled(str(stage), "green"))
        else:
            marks.append(styled(str(stage), "dim"))
    strip = Text(" ").join(marks)
    if strip.cell_len > width and top > 0:
        # Keep a window around the current stage.
        low, high = at, at
        while True:
            grown = False
            if low > 0:
                candidate = Text(" ").join(marks[low - 1 : high + 1])
                if candidate.cell_len + 8 <= width:
                    low -= 1
                    grown = True
            if high < top:
                candidate = Text(" ").join(marks[low : high + 2])
                if candidate.cell_len + 8 <= width:
                    high += 1
                    grown = True
            if not grown:
                break
        strip = Text()
        if low > 0:
            strip.append(f"0 {glyphs.ellipsis()} ", style="dim")
        strip.append_text(Text(" ").join(marks[low : high + 1]))
        if high < top:
            strip.append(f" {glyphs.ellipsis()} {top}", style="dim")
    return strip


def stage_words(main: PersonalityPanel) -> Text:
    """``stage 3/5`` and the stage's power rating when the pack gives the ladder."""
    text = styled(f"stage {main.stages}/{main.max_stages}", "bold")
    if 0 <= main.stages < len(main.stage_values):
        text.append(f" ({main.stage_values[main.stages]:,})")
    return text


def anger_gauge(anger: int) -> Text:
    """The Warrior Sword: anger 0 to 5 as a gauge, and the number."""
    text = styled("Anger ", "bold")
    text.append_text(glyphs.bar(anger, ANGER_MAX))
    text.append(f" {anger}/{ANGER_MAX}")
    return text


def level_words(main: PersonalityPanel) -> str:
    """``Lv 2 of 4``: the level and the stack's highest level."""
    top = max(main.levels) if main.levels else main.level
    return f"Lv {main.level} of {top}"


def _heading(
    view: TableView, seat: SeatPanel, items: Items, *, own: bool, compact: bool
) -> list[Text]:
    """The seat's first parts: the player, the Main Personality's card and
    level, PUR and power (and, with room, alignment and style). The card is
    an item: its menu, its inspector."""
    main = seat.main
    name = styled(seat.player or main.name, "bold")
    if own and view.viewer is not None:
        name.append(" (you)", style="bold")
    mp = items.add(styled(main.title or main.name, "bold orchid1"), main_key(seat.seat), 0)
    mp.append(f" Fusion, Lv {main.level}" if seat.fusion_is_main else f" {level_words(main)}")
    parts = [name, mp, Text(f"PUR {main.pur if main.pur is not None else '?'}")]
    parts.append(styled("power used", "dim") if main.power_used else Text("power ready"))
    if not compact:
        if main.alignment:
            parts.append(styled(main.alignment, "dim"))
        if seat.tokui_waza:
            parts.append(styled(seat.tokui_waza, "italic"))
    return parts


# --- cards --------------------------------------------------------------------------------


def card_tile(face: CardFace, view: TableView, seat: int) -> Text:
    """One card as a tile: ``[Title 3/5 used]``; a ball of another owner
    says whose; cards beneath are counted."""
    tile = Text("[")
    if face.uid == HIDDEN:
        tile.append(face.title or "face-down card", style="dim italic")
        tile.append("]")
        return tile
    style = TYPE_STYLES.get(face.type, "")
    if face.type == "dragon-ball":
        tile.append(f"{glyphs.ball()} ", style="bold yellow")
    tile.append(face.title, style=style)
    if face.stages is not None:
        most = f"/{face.max_stages}" if face.max_stages is not None else ""
        tile.append(f" {face.stages}{most}", style="bold")
    if not face.face_up:
        tile.append(" face down", style="italic")
    if face.used:
        tile.append(" used", style="italic")
    if face.turned:
        tile.append(" turned", style="bold")
    if face.owner != seat and 0 <= face.owner < len(view.seats):
        tile.append(" (")
        tile.append(whose(view, face.owner))
        tile.append("'s)")
    if face.beneath:
        tile.append(f" +{len(face.beneath)} beneath", style="dim")
    tile.append("]")
    if face.used or not face.face_up:
        tile.stylize("dim")
    return tile


def hidden_hand(seat: SeatPanel) -> Text:
    """Another seat's hand: its size, and any card shown by a reveal."""
    return styled(f"Hand {len(seat.hand)}", "bold")


@dataclass(frozen=True, slots=True)
class SeatShown:
    """What a seat's board draws: the view, whose side, and how."""

    view: TableView
    seat: int
    own: bool
    """The side of the seat at the screen (its hand face up)."""
    hide_hand: bool = False
    """Hot-seat: the keyboard passes, so no hand is shown at all."""
    compact: bool = False
    """Pack the groups on shared lines (small screens)."""


def _pile(seat: SeatPanel, name: str, faces: Sequence[CardFace], items: Items, row: int) -> Text:
    text = styled(f"{name} {len(faces)}", "bold")
    if faces and faces[-1].uid != HIDDEN and name == "Discard":
        text.append(" top: ")
        text.append(faces[-1].title)
    key = {"Discard": "discard", "Removed": "removed", "Sensei Deck": "sensei-deck"}[name]
    return items.add(text, pile_key(seat.seat, key), row) if faces else text


def _counts(shown: SeatShown, seat: SeatPanel, items: Items) -> list[Text]:
    parts = [styled(f"Life Deck {seat.life_deck}", "bold")]
    if seat.searching:
        if shown.own:
            parts.append(styled(f"SEARCHING ({len(seat.search)} cards: s)", "bold reverse"))
        else:
            parts.append(styled("searching the Life Deck", "bold reverse"))
    if not shown.own:
        parts.append(hidden_hand(seat))
    parts.append(_pile(seat, "Discard", seat.discard, items, 1))
    parts.append(_pile(seat, "Removed", seat.removed, items, 1))
    if seat.sensei_deck:
        if shown.own:
            parts.append(_pile(seat, "Sensei Deck", seat.sensei_deck, items, 1))
        else:
            parts.append(styled(f"Sensei Deck {len(seat.sensei_deck)}", "bold"))
    if seat.final_physical_attack_used:
        parts.append(styled("Final Physical Attack made", "italic"))
    for name, value in seat.counters:
        counter = Text()
        counter.append(name)
        counter.append(f" {value}", style="bold")
        parts.append(counter)
    return parts


def _group(
    label: str, faces: Sequence[CardFace], view: TableView, seat: SeatPanel, items: Items, row: int
) -> list[Text]:
    """A group's parts: its label with the first tile (never parted), then
    the other tiles."""
    parts: list[Text] = []
    for face in faces:
        tile = card_tile(face, view, seat.seat)
        parts.append(items.add(tile, card_key(face.uid), row) if face.uid != HIDDEN else tile)
    if parts:
        parts[0] = styled(f"{label}: ", "bold") + parts[0]
    return parts


def fusion_parts(
    view: TableView, seat: SeatPanel, items: Items, row: int, *, compact: bool = False
) -> list[Text]:
    """A fusion's parts: the Fusion personality (the Main Personality or an
    Ally), its components (items of the cursor), and its timer's count."""
    if seat.fusion is None:
        return []
    lead = styled("Fused: ", "bold")
    lead.append(seat.fusion.title, style="bold orchid1")
    lead.append(" (the Main Personality)" if seat.fusion_is_main else " (an Ally)")
    parts = [lead]
    for n, face in enumerate(seat.fused):
        tile = card_tile(face, view, seat.seat)
        if face.uid != HIDDEN:
            tile = items.add(tile, card_key(face.uid), row)
        parts.append(Text("of " if n == 0 else "+ ") + tile)
    timer = styled(f"Timer {len(seat.timer)}/{TIMER_DEFUSES}", "bold")
    if not compact:
        timer.append(" face down, beneath the anger counter", style="dim")
    parts.append(timer)
    return parts


def _in_play(shown: SeatShown, seat: SeatPanel, items: Items) -> list[list[Text]]:
    view = shown.view
    groups: list[list[Text]] = []
    fused = fusion_parts(view, seat, items, 2, compact=shown.compact)
    if fused:
        groups.append(fused)
    named: list[tuple[str, Sequence[CardFace]]] = [
        ("Allies", seat.allies),
        ("Drills", seat.drills),
        ("Non-Combat", seat.non_combat),
        ("Dragon Balls", seat.dragon_balls),
        ("Mastery", [seat.mastery] if seat.mastery is not None else []),
        ("Sensei", [seat.sensei] if seat.sensei is not None else []),
        ("Set aside", seat.set_aside),
    ]
    for row, (label, faces) in enumerate(named, start=3):
        if faces:
            groups.append(_group(label, faces, view, seat, items, row))
    if seat.in_control is not None:
        ally = next((a for a in seat.allies if a.uid == seat.in_control), None)
        note = styled("In control: ", "bold")
        note.append(ally.title if ally is not None else "an Ally")
        groups.append([note])
    return groups


def _hand(shown: SeatShown, seat: SeatPanel, items: Items) -> list[Text]:
    """The hand's parts: the own hand face up and numbered; while the
    keyboard passes, its size only."""
    lead = styled(f"Hand {len(seat.hand)}:", "bold")
    if shown.hide_hand:
        return [lead + styled(" hidden until the next player takes the keyboard", "italic")]
    if not seat.hand:
        return [lead + styled(" no card", "dim italic")]
    parts = []
    for number, face in enumerate(seat.hand, 1):
        tile = card_tile(face, shown.view, seat.seat)
        tile = items.add(tile, card_key(face.uid), HAND_ROW) if face.uid != HIDDEN else tile
        parts.append(Text(f"{number} ", style="bold") + tile if number <= 9 else tile)
    parts[0] = lead + " " + parts[0]
    return parts


def _shown_cards(shown: SeatShown, seat: SeatPanel, items: Items) -> list[Text]:
    """Another seat's hand cards it has shown (a reveal), never the rest."""
    if shown.hide_hand:
        return []
    faces = [f for f in seat.hand if f.uid != HIDDEN and f.face_up]
    if not faces:
        return []
    return _group("Shown from the hand", faces, shown.view, seat, items, HAND_ROW)


def seat_picture(shown: SeatShown, width: int, items: Items) -> Text:
    """One player's side of the table, fitted to ``width`` cells. Compact:
    everything but the hand in one flow of parts, then the hand."""
    view, compact = shown.view, shown.compact
    seat = view.seats[shown.seat]
    heading = _heading(view, seat, items, own=shown.own, compact=compact)
    gauges = [styled("Scouter ", "bold") + scouter(seat.main, max(20, width - 40))]
    if not compact:
        gauges.append(stage_words(seat.main))
    elif 0 <= seat.main.stages < len(seat.main.stage_values):
        gauges[0].append(f" ({seat.main.stage_values[seat.main.stages]:,})")
    gauges.append(anger_gauge(seat.main.anger))
    counts = _counts(shown, seat, items)
    groups = _in_play(shown, seat, items)
    lines: list[Text] = []
    if compact:
        flow = [*heading, *gauges, *counts, *(part for group in groups for part in group)]
        lines.append(pack(flow, width, between="  ", indent=0))
    else:
        lines.append(pack(heading, width, between=f" {sep()} "))
        lines.append(pack(gauges, width, between="  "))
        lines.append(pack(counts, width, between=f" {sep()} "))
        lines += [pack(group, width) for group in groups]
    if shown.own:
        lines.append(pack(_hand(shown, seat, items), width))
    else:
        revealed = _shown_cards(shown, seat, items)
        if revealed:
            lines.append(pack(revealed, width))
    return Text("\n").join(lines)


# --- the turn, the Location, Combat -------------------------------------------------------


def steps_strip(step: str, *, short: bool = False) -> Text:
    """The turn's steps, the current one bracketed (``Draw › [Power Up] › …``;
    ``short`` says ``Bonus`` for the pass bonus)."""
    if step == "over":
        return styled("Game over", "bold reverse")
    between = " > " if glyphs.ASCII else " › "
    strip = Text()
    for n, (key, name) in enumerate(STEPS):
        if n:
            strip.append(between, style="dim")
        if short and key == "pass-bonus":
            name = "Bonus"
        if key == step:
            strip.append(f"[{name}]", style="bold reverse")
        else:
            strip.append(name, style="dim")
    return strip


def combat_line(view: TableView, combat: CombatPanel) -> list[Text]:
    """Combat in parts: who attacks whom, the phase, who acts, the passes
    (``passes 1/2``: two back to back end it), the attack to answer."""
    head = styled("COMBAT ", "bold reverse light_coral")
    head.append(" ")
    head.append(whose(view, combat.attacker), style="bold")
    head.append(f" {glyphs.arrow()} ")
    head.append(whose(view, combat.defender), style="bold")
    parts = [head, Text(combat.phase, style="italic")]
    acting = Text()
    acting.append(whose(view, combat.acting), style="bold")
    acting.append(" acts")
    parts.append(acting)
    parts.append(styled(f"passes {combat.passes}/2", "bold"))
    if combat.attack:
        attack = styled("Attack: ", "bold light_coral")
        attack.append(combat.attack)
        parts.append(attack)
    return parts


def middle_picture(view: TableView, width: int, items: Items, *, compact: bool) -> Text:
    """The middle of the table: the turn's steps, what the step asks (the
    prompt says it on a small screen), the Location or Battleground,
    Combat, and a finished game's result."""
    lines: list[Text] = []
    over = view.step == "over" or bool(view.result)
    if not over:
        lines.append(pack([steps_strip(view.step, short=width < 84)], width, indent=0))
    if over:
        ended = styled(f"GAME OVER (turn {view.turn})", "bold reverse")
        ended.append(" ")
        if view.winner is not None:
            ended.append(whose(view, view.winner), style="bold")
            ended.append(" wins. ")
        ended.append(view.result)
        lines.append(pack([ended], width))
    elif view.step_words and not compact:
        lines.append(pack([Text(view.step_words, style="italic")], width))
    parts: list[Text] = []
    if view.location is not None:
        location = styled("Location: ", "bold")
        tile = card_tile(view.location, view, view.location.owner)
        if view.location.uid != HIDDEN:
            tile = items.add(tile, card_key(view.location.uid), 0)
        location.append_text(tile)
        if 0 <= view.location.owner < len(view.seats):
            location.append(" (")
            location.append(whose(view, view.location.owner))
            location.append("'s)")
        parts.append(location)
    elif not compact and not over:
        parts.append(styled("No Location in play", "dim"))
    if view.combat is not None and not compact:
        if parts:
            lines.append(pack(parts, width))
        combat = combat_line(view, view.combat)
        attack = [p for p in combat if p.plain.startswith("Attack: ")]
        lines.append(pack([p for p in combat if p not in attack], width, between=f" {sep()} "))
        if attack:
            lines.append(pack(attack, width))
        return Text("\n").join(lines)
    if view.combat is not None:
        parts += combat_line(view, view.combat)
    elif not compact and not over:
        parts.append(styled("No Combat", "dim"))
    if parts:
        lines.append(pack(parts, width, between="  "))
    return Text("\n").join(lines)
