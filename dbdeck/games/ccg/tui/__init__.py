"""The CCG's table screen: both players' sides, the turn and Combat, what
the rules offer now, keyboard first, from 80×24.

It draws the seat's ``TableView`` (``dbdeck.games.ccg.table.view``) and
sends the actions (``dbdeck.games.ccg.table.actions``) the backend offers;
it imports nothing of the rules (an import-linter contract keeps it so).

* ``screen``: ``CcgTableScreen``, the table, and its palette of offers;
* ``draw``: the pictures of the sides, the turn, the Location and Combat;
* ``widgets``: the boards, the list of what the turn asks now, the log,
  the key bar and the one list every dialog uses;
* ``offers``: which card an offer names, and the lines of a list;
* ``dialogs``: choices, every action (filterable), questions, the search,
  the hand-off, the end of the game; ``inspector``: one card in full;
* ``keys``: the bindings, the key bar and the help; ``seats``: solo
  practice's seat switching; ``glyphs``: glyphs with ASCII twins.
"""

from __future__ import annotations

__all__ = ["CcgTableScreen"]


def __getattr__(name: str) -> object:
    # The screen (and Textual) load only when a table is opened.
    if name == "CcgTableScreen":
        from dbdeck.games.ccg.tui.screen import CcgTableScreen

        return CcgTableScreen
    raise AttributeError(name)
