"""A card set whose every text holds Rich markup: the shipped cards with
each name and text prefixed by ``MARK``, their ids as they were."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dbdeck.games.deckbuilding.cards.catalog import Catalog, load_catalog, shipped_cards_dir

LINK = "[link=https://example.invalid]LNK[/link]"
"""Markup that must be shown as written, not run as a link."""
MARK = f"{LINK} [bold]B[/bold] [red]x ["
"""Prefixed to every text: a link, a style, an unclosed tag and a lone ``[``."""

TEXT_FIELDS = ("name", "text", "setup", "victory_text", "label", "wishes", "title")


def _spoil(node: Any) -> Any:
    if isinstance(node, dict):
        return {
            key: (
                f"{MARK} {value}"
                if key in TEXT_FIELDS and isinstance(value, str)
                else _spoil(value)
            )
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [_spoil(item) for item in node]
    return node


def hostile_cards(folder: Path) -> Path:
    """A copy of the shipped card set in ``folder``, every text marked up."""
    shipped = shipped_cards_dir()
    for path in shipped.rglob("*.json"):
        if "ccg" in path.relative_to(shipped).parts:
            continue
        target = folder / path.relative_to(shipped)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(_spoil(json.loads(path.read_text("utf-8")))), "utf-8")
    return folder


def hostile_catalog(folder: Path) -> Catalog:
    """The hostile card set, loaded in place of the shipped one."""
    return load_catalog([hostile_cards(folder)], include_shipped=False, include_env_packs=False)


__all__ = ["LINK", "MARK", "hostile_cards", "hostile_catalog"]
