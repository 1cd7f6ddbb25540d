"""What a screen shows, as plain text, for tests that read the table."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from textual.app import App
from textual.widgets import OptionList, RichLog, Static

__all__ = ["plain", "widget_texts"]


def plain(renderable: Any) -> str:
    """A renderable's text, without styles."""
    if isinstance(renderable, str):
        return renderable
    # Drawn into memory: never onto the terminal running the tests.
    console = Console(file=io.StringIO(), width=300, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def widget_texts(app: App[Any]) -> str:
    """Everything the widget trees of every screen hold, as plain text."""
    parts: list[str] = []
    for screen in app.screen_stack:
        for widget in screen.query("*"):
            if isinstance(widget, Static):
                parts.append(plain(widget.content))
            elif isinstance(widget, OptionList):
                for i in range(widget.option_count):
                    parts.append(plain(widget.get_option_at_index(i).prompt))
            elif isinstance(widget, RichLog):
                parts += [line.text for line in widget.lines]
    return "\n".join(parts)
