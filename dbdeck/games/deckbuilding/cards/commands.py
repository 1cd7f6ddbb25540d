"""The ``dbdeck cards`` commands: validate, list, show, schema.

Each command returns a process exit code and never lets a traceback reach the
user: a card set with problems prints them, one line each, and exits 1.
"""

from __future__ import annotations

import difflib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from dbdeck.games.deckbuilding.cards.catalog import CardSetError, Catalog, load_catalog
from dbdeck.games.deckbuilding.cards.kinds import MARKET_OF_KIND
from dbdeck.games.deckbuilding.cards.plain import Card

__all__ = ["cmd_list", "cmd_schema", "cmd_show", "cmd_validate", "listing"]


def _problems(n: int) -> str:
    """``1 problem``, ``3 problems``."""
    return f"{n} problem{'' if n == 1 else 's'}"


def _load(packs: Sequence[Path], out: TextIO) -> Catalog | None:
    try:
        return load_catalog(packs)
    except CardSetError as err:
        for problem in err.problems:
            print(problem, file=out)
        print(f"{_problems(len(err.problems))} in the card set", file=sys.stderr)
        return None


def cmd_validate(packs: Sequence[Path]) -> int:
    """Check the shipped set and the packs; exit 0 when clean."""
    catalog = _load(packs, sys.stdout)
    if catalog is None:
        return 1
    files = len(set(catalog.files.values()))
    print(f"ok: {len(catalog)} cards in {files} files")
    return 0


def listing(card: Card) -> dict[str, Any]:
    """One card as a row of ``cards list --json``."""
    row: dict[str, Any] = {
        "id": card.id,
        "name": card.name,
        "kind": card.kind,
        "copies": getattr(card, "copies", 1),
    }
    if card.kind == "character":
        row |= {"race": card.race, "level": card.level}
    elif card.kind == "villain":
        row |= {"level": card.level}
    elif card.kind == "villain-card":
        row |= {"type": card.type, "villain": card.villain, "phase": card.phase}
    elif card.kind in MARKET_OF_KIND:
        row |= {
            "cost": getattr(card, "cost", None),
            "market": None if getattr(card, "starting", False) else MARKET_OF_KIND[card.kind],
            "starting": getattr(card, "starting", False),
        }
        if card.kind == "ally":
            row |= {"race": card.race, "power": card.power}
    return row


def cmd_list(packs: Sequence[Path], kind: str | None, as_json: bool) -> int:
    """List the cards, optionally of one kind, as a table or JSON."""
    catalog = _load(packs, sys.stderr)
    if catalog is None:
        return 1
    rows = [listing(c) for c in catalog.cards.values() if kind is None or c.kind == kind]
    if as_json:
        json.dump(rows, sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(title=f"{len(rows)} cards", expand=False)
    for column in ("id", "name", "kind", "copies", "details"):
        table.add_column(column, overflow="fold")
    for row in rows:
        details = ", ".join(
            f"{k} {v}"
            for k, v in row.items()
            if k not in ("id", "name", "kind", "copies") and v is not None and v is not False
        )
        # A pack's words are shown as written, never run as markup.
        table.add_row(
            *(Text(str(v)) for v in (row["id"], row["name"], row["kind"], row["copies"])),
            Text(details),
        )
    Console().print(table)
    return 0


def cmd_show(packs: Sequence[Path], card_id: str) -> int:
    """Draw one card as a panel."""
    catalog = _load(packs, sys.stderr)
    if catalog is None:
        return 1
    if card_id not in catalog:
        close = difflib.get_close_matches(card_id, list(catalog.cards), n=5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        print(f"no card {card_id!r}{hint}", file=sys.stderr)
        return 1
    from rich.console import Console

    from dbdeck.games.deckbuilding.cards.render import card_panel

    Console().print(card_panel(catalog[card_id], catalog))
    return 0


def cmd_schema(output: Path | None) -> int:
    """Write the JSON Schema of card files to a file or standard output."""
    from dbdeck.games.deckbuilding.cards.schema import card_file_schema
    from dbdeck.packs.schema import write_schema  # ast and inspect: only here

    return write_schema(card_file_schema(), output)
