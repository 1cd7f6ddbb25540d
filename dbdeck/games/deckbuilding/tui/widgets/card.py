"""A card drawn in full for the inspector: its numbers, its text and its
effects in plain words, with every card named by its name (never its id)."""

from __future__ import annotations

import re
from typing import Any

from rich.box import ASCII as ASCII_BOX
from rich.box import ROUNDED
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.cards.describe import describe_effects
from dbdeck.games.deckbuilding.cards.kinds import MARKET_OF_KIND
from dbdeck.games.deckbuilding.cards.render import EFFECT_FIELDS, card_stats
from dbdeck.games.deckbuilding.tui.widgets import glyphs
from dbdeck.games.deckbuilding.tui.widgets.glyphs import TILE_COLOURS

__all__ = ["card_picture", "named"]


NAMING = ("Starting cards", "Begins equipped", "Exclusive to", "Villain")
"""Rows whose words are card ids, every one of them."""

_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def named(catalog: Catalog | None, text: str, *, every: bool = False) -> str:
    """``text`` with card ids replaced by card names: ids with a hyphen
    always, every id when ``every`` (a row that lists cards)."""
    if catalog is None:
        return text

    def name(match: re.Match[str]) -> str:
        token = match.group(0)
        card = catalog.cards.get(token)
        if card is None or not (every or "-" in token):
            return token
        return str(card.name)

    return _ID.sub(name, text)


def card_picture(card: Any, catalog: Catalog | None = None) -> Panel:
    """The card as a bordered panel in its market's colour."""
    colour = TILE_COLOURS.get(MARKET_OF_KIND.get(card.kind, ""), "white")
    stats = Table.grid(padding=(0, 2))
    stats.add_column(style="bold")
    stats.add_column()
    for label, value in card_stats(card, catalog):
        every = label in NAMING
        # Names from the card set are data: plain Text, never markup.
        stats.add_row(
            Text(named(catalog, label, every=True)), Text(named(catalog, value, every=every))
        )
    parts: list[Table | Text] = [stats]
    if card.text:
        parts += [Text(""), Text(card.text, style="italic")]
    effects = Table.grid(padding=(0, 2))
    effects.add_column(style="bold")
    effects.add_column()
    for field, label in EFFECT_FIELDS:
        ops = getattr(card, field, None)
        if ops:
            effects.add_row(label, Text(named(catalog, describe_effects(ops))))
    for reward in getattr(card, "rewards", []):
        turns = "1 turn" if reward.turns == 1 else f"{reward.turns} turns"
        effects.add_row(f"After {turns}", Text(named(catalog, describe_effects(reward.effects))))
    if effects.row_count:
        parts += [Text(""), effects]
    if card.kind == "villain-card":
        villain = named(catalog, str(card.villain), every=True)
        subtitle = f"{card.type} {glyphs.sep()} {villain}"
    else:
        subtitle = str(card.kind).replace("-", " ")
    return Panel(
        Group(*parts),
        title=Text(str(card.name), style="bold"),
        subtitle=Text(subtitle),
        border_style=colour,
        box=ASCII_BOX if glyphs.ASCII else ROUNDED,
        expand=False,
    )
