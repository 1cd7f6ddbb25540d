"""Play the CCG table screen by hand over one of the hand-made tables (no
rules run): ``python tests/ccg_table_demo.py combat``. The actions the
screen sends are printed when it closes.

Tables: early, early-other, combat, combat-attacker, search, search-other,
over. ``--ascii`` draws in ASCII.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ccg_table_fixtures import (  # the tests folder is not a package
    FakeBackend,
    Table,
    combat_attacker,
    combat_defender,
    early_turn,
    game_over,
    search_other,
    search_own,
)

from dbdeck.tui.shell import TableApp

TABLES = {
    "early": early_turn,
    "early-other": lambda: early_turn(1),
    "combat": combat_defender,
    "combat-attacker": combat_attacker,
    "search": search_own,
    "search-other": search_other,
    "over": game_over,
}


class DemoApp(TableApp):
    """The CCG table on a backend of hand-made views."""

    def __init__(self, table: Table, *, ascii: bool | None = None) -> None:
        super().__init__(ascii=ascii)
        self.backend = FakeBackend(table)

    def on_mount(self) -> None:
        self.push_screen(self.table_screen("ccg", self.backend))


def main(argv: list[str]) -> int:
    """Run the demo on the table named in ``argv``."""
    names = [a for a in argv if not a.startswith("--")]
    name = names[0] if names else "early"
    if name not in TABLES:
        print(f"Tables: {', '.join(TABLES)}", file=sys.stderr)
        return 2
    app = DemoApp(TABLES[name](), ascii=True if "--ascii" in argv else None)
    app.run()
    for action in app.backend.sent:
        print(action)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
