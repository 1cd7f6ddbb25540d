"""The full list of legal actions: grouped, de-duplicated, never cut.

The engine offers one action per card, slot, target and combination, so the
raw list repeats itself ("Play Energy" three times, an attack row per
target). The list shown here has one entry per distinct thing to do:
identical actions are one entry (taking it takes one of them), an attack is
one entry per set of cards (its targets are chosen next, each with the
damage it would take), and the optional steps before the Actions phase
(discarding a market card, handing over Dragon Balls) are one line each.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from dbdeck.games.deckbuilding.engine.panels import GROUPS, Offer
from dbdeck.games.deckbuilding.tui.widgets import glyphs
from dbdeck.games.deckbuilding.tui.widgets.choices import ChoiceList

__all__ = ["ActionPanel", "Entry", "entries"]


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the action list."""

    label: str
    group: str
    offers: tuple[Offer, ...]
    """The actions behind the line: one, several identical ones (``same``),
    or several to choose from (its ``prompt`` asks which)."""
    same: bool = True
    """Whether the offers do the same (taking the line takes the first)."""
    prompt: str = ""
    """The question that chooses among the offers, when they differ."""

    @property
    def kind(self) -> str:
        """The action kind of the line."""
        return self.offers[0].action.type


COLLAPSED = {
    "market-discard": (
        "Discard a market card to the bottom of its deck (optional, before acting)",
        "Which market card goes to the bottom of its deck?",
    ),
    "give-ball": (
        "Give a Dragon Ball to another Character or Ally (optional, before acting)",
        "Which Dragon Ball goes to whom?",
    ),
}
"""Optional steps shown as one line each: the line, then the question."""


def _attack_key(offer: Offer) -> str:
    """An attack's cards in words (``Punch and Kick + Tear Apart``)."""
    label = offer.label
    return label.split(" with ", 1)[1] if " with " in label else label


def entries(offers: list[Offer]) -> list[Entry]:
    """The list's lines, in the order of ``GROUPS`` (decisions are answered
    in their dialog, never here)."""
    lines: dict[tuple[str, str], list[Offer]] = {}
    prompts: dict[tuple[str, str], str] = {}
    for offer in offers:
        kind: str = offer.action.type
        if kind == "choose":
            continue
        if kind in COLLAPSED:
            label, prompt = COLLAPSED[kind]
            key = (kind, label)
            prompts[key] = prompt
        elif kind == "attack":
            cards = _attack_key(offer)
            combo = " (Combo)" if " + " in cards else ""
            key = ("attack", f"Attack with {cards.removesuffix(' (Combo)')}{combo}")
            prompts[key] = f"Attack with {cards.removesuffix(' (Combo)')}: which target?"
        elif kind == "play" and offer.action.cards and ", destroying " in offer.label:
            name = offer.label.removeprefix("Play ").split(", destroying ")[0]
            key = ("play", f"Play {name}, destroying a card to make room")
            prompts[key] = f"Play {name}: which card is destroyed to make room?"
        elif kind == "prepare":
            name = offer.label.removeprefix("Prepare ").split(" at Time ")[0]
            key = ("prepare", f"Prepare {name}")
            prompts[key] = f"Prepare {name}: which Time slot?"
        else:
            key = (kind, offer.label)
        lines.setdefault(key, []).append(offer)
    out: list[Entry] = []
    for key, grouped in lines.items():
        kind, label = key
        first = grouped[0]
        labels = {o.label for o in grouped}
        same = len(labels) == 1 and kind not in COLLAPSED
        if kind == "attack" and len(grouped) == 1:
            label = first.label + (f" — {first.preview}" if first.preview else "")
        elif kind == "prepare" and len(grouped) == 1:
            label = first.label
        elif same and len(grouped) > 1:
            label = f"{label} (x{len(grouped)})"
        elif not same:
            label += f" {glyphs.more()}"
        out.append(Entry(label, first.group, tuple(grouped), same, prompts.get(key, "")))
    order = {name: i for i, (name, _kinds) in enumerate(GROUPS)}
    return sorted(out, key=lambda e: order.get(e.group, len(order)))


class ActionPanel(ChoiceList):
    """The action list: every legal action, grouped under headings (a
    ``ChoiceList``: nothing highlighted after any change)."""

    class Chosen(Message):
        """A line of the list was chosen."""

        def __init__(self, entry: Entry) -> None:
            super().__init__()
            self.entry = entry

    def __init__(self, **kwargs: Any) -> None:
        # Labels are plain text: a card name is never read as markup.
        super().__init__(markup=False, **kwargs)
        self.lines: list[Entry] = []
        """The lines shown, in order (headings excepted)."""

    offers: reactive[tuple[Offer, ...]] = reactive((), always_update=True, init=False)
    """The legal actions listed. Every assignment, even of the same
    actions, leaves nothing highlighted, so that a stray Enter plays
    nothing."""

    def watch_offers(self, offers: tuple[Offer, ...]) -> None:
        """List the new actions, nothing highlighted."""
        lines = entries(list(offers))
        if lines == self.lines and self.option_count:
            self.highlighted = None
            return  # the same list: drawing it again costs more than the rest
        self.lines = lines
        options: list[Option] = []
        group = ""
        for index, entry in enumerate(self.lines):
            if entry.group != group:
                group = entry.group
                options.append(Option(Text(f"{group}", style="bold underline"), disabled=True))
            options.append(Option(Text(entry.label), id=str(index)))
        self.clear_options()
        self.add_options(options)
        self.highlighted = None

    def index_of(self, offer: Offer) -> int | None:
        """The option that holds ``offer``, if shown."""
        for index in range(self.option_count):
            option = self.get_option_at_index(index)
            if option.id is not None and offer in self.lines[int(option.id)].offers:
                return index
        return None

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """A line was chosen: the table takes it."""
        event.stop()
        index = event.option_index
        shown = index < self.option_count and self.get_option_at_index(index) is event.option
        # An Enter taken before the list was drawn anew chose a line that is
        # gone: it does nothing (the list changed under it).
        if shown and event.option.id is not None:
            self.post_message(self.Chosen(self.lines[int(event.option.id)]))
