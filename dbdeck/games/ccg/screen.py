"""The deck screen: open a CCG deck file, change counts and see the checker's
problems live, save.

Keyboard first and usable at 80×24: the deck's lines in a table, the
problems and warnings below it (beside it from 110 columns), a status line
with the verdict, and every key in the footer. The screen holds no rule: it
edits a ``DeckFile`` and shows what ``check_deck`` says of it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, ClassVar, get_args

from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from dbdeck.games.ccg.checker import Finding, Verdict, check_deck
from dbdeck.games.ccg.deckfile import SECTIONS, DeckUnreadable, Section, parse_deck, read_deck
from dbdeck.games.ccg.library import Library, load_library, shipped_ccg_dir
from dbdeck.games.ccg.profiles import DEFAULT_PROFILE, PROFILES, ProfileName
from dbdeck.games.ccg.titles import counted
from dbdeck.packs.reading import CardSetError, one_line
from dbdeck.tui.modal import Dialog, PlainApp

__all__ = ["AddCard", "ConfirmDiscard", "DeckApp", "DeckScreen", "open_deck_screen"]

_SHORT: dict[Section, str] = {
    "Tokui-Waza": "TW",
    "Main Personality": "MP",
    "Mastery": "Mastery",
    "Sensei": "Sensei",
    "Sensei Deck": "S.Deck",
    "Life Deck": "Life",
}
_NEW_DECK = "".join(f"[{section}]\n" for section in SECTIONS)
_WIDE = 110
"""From this many columns the problems stand beside the deck."""
_TALL = 32
"""Below this many rows the path box takes one row instead of three, so that
the deck's lines get the room (at 80×24 they need it most)."""


def sample_deck() -> Path:
    """The shipped Goku deck: what the path box offers first."""
    return shipped_ccg_dir() / "decks" / "goku.txt"


class ConfirmDiscard(Dialog[bool]):
    """Leave with unsaved changes? ``y`` leaves, ``n`` or Escape stays."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Discard and leave"),
        Binding("n,escape", "answer(False)", "Stay"),
    ]
    DEFAULT_CSS = """
    ConfirmDiscard { align: center middle; }
    ConfirmDiscard > Vertical { width: 56; height: auto; border: thick $warning;
                                background: $panel; padding: 1 2; }
    """

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("The deck has unsaved changes.")
            yield Label("y: discard them and leave · n: stay (ctrl+s saves)")

    def action_answer(self, leave: bool) -> None:
        """Close with the answer."""
        self.dismiss(leave)


class AddCard(Dialog[str | None]):
    """Type a card line (``3 Senzu Bean``) to add to a section."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    AddCard { align: center middle; }
    AddCard > Vertical { width: 70; max-width: 100%; height: auto; border: thick $accent;
                         background: $panel; padding: 1 2; }
    AddCard #add-to { text-style: bold; }
    AddCard Static { width: 1fr; }
    """

    def __init__(self, section: Section) -> None:
        super().__init__()
        self.section = section

    def compose(self) -> ComposeResult:
        # Two short lines rather than one long one: at 80 columns one line
        # was cut, and the section is what the dialog is about.
        with Vertical():
            yield Static(Text(f"Add a card to [{self.section}]"), id="add-to")
            yield Static(Text("QUANTITY TITLE · Enter adds · Escape cancels"), id="add-how")
            yield Input(placeholder="3 Senzu Bean", id="card-line")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        """Close without adding."""
        self.dismiss(None)


class DeckScreen(Screen[None]):
    """A deck file, its lines and counts, and the checker's verdict, live."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("plus,equals_sign", "count(1)", "+1", key_display="+"),
        Binding("minus", "count(-1)", "-1", key_display="-"),
        Binding("a", "add", "Add card"),
        Binding("r", "rules", "Rules"),
        Binding("o", "open", "Open"),
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("escape", "leave", "Back"),
    ]
    DEFAULT_CSS = """
    DeckScreen #bar { height: 3; }
    DeckScreen #path { width: 1fr; }
    DeckScreen #path-label { display: none; }
    DeckScreen.short #bar { height: 1; }
    DeckScreen.short #path-label { display: block; width: auto; padding: 0 1;
                                   background: $boost; text-style: bold; }
    DeckScreen.short #path { height: 1; border: none; padding: 0 1; }
    DeckScreen.short #path:focus { background: $boost; }
    DeckScreen #status { height: 1; padding: 0 1; background: $boost; }
    DeckScreen #body { height: 1fr; layout: vertical; }
    DeckScreen #lines { height: 1fr; min-height: 5; }
    DeckScreen #findings { height: auto; max-height: 35%; min-height: 2; border: none;
                           border-top: solid $primary; }
    DeckScreen.wide #body { layout: horizontal; }
    DeckScreen.wide #lines { width: 3fr; height: 1fr; }
    DeckScreen.wide #findings { width: 2fr; height: 1fr; max-height: 100%; border: none;
                                border-left: solid $primary; }
    """

    def __init__(
        self, library: Library, path: Path | None = None, rules: str = DEFAULT_PROFILE
    ) -> None:
        super().__init__()
        self.library = library
        self.path = path
        self.rules: ProfileName = rules if rules in PROFILES else DEFAULT_PROFILE  # type: ignore[assignment]
        self.deck = parse_deck(_NEW_DECK)
        self.verdict: Verdict | None = None
        self.dirty = False
        """Whether the deck has changes not saved."""

    # --- layout ---------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="bar"):
            # Without its border (a short terminal) the box needs a name.
            yield Static("Deck file", id="path-label")
            shown = self.path if self.path is not None else sample_deck()
            yield Input(value=str(shown), placeholder="a deck file (Enter opens)", id="path")
        yield Static(id="status")
        with Vertical(id="body"):
            yield DataTable[str | Text](id="lines", cursor_type="row", zebra_stripes=True)
            yield OptionList(id="findings")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "CCG deck"
        table = self.query_one("#lines", DataTable)
        table.add_column("", key="mark", width=1)
        table.add_column("Ln", key="line", width=4)
        table.add_column("Sect.", key="section", width=7)
        table.add_column("Qty", key="count", width=4)
        table.add_column("Card", key="title")
        self._fit(self.app.size)
        if not self._open(self.path if self.path is not None else sample_deck()):
            self.path = None
            self._refresh(rebuild=True)  # an empty deck, the reason in a notification
        table.focus()

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size)

    def _fit(self, size: Size) -> None:
        """The layout for the terminal's size: the problems beside the deck
        when wide, the path box on one row when short."""
        self.set_class(size.width >= _WIDE, "wide")
        self.set_class(size.height < _TALL, "short")

    # --- the deck -------------------------------------------------------------

    def _open(self, path: Path) -> bool:
        """Read ``path`` (a new, empty deck if there is no such file);
        whether it was opened."""
        if not path.exists():
            self.path, self.deck, self.dirty = path, parse_deck(_NEW_DECK), True
            said = f"{one_line(str(path))} does not exist yet: ctrl+s writes it"
            self.notify(said, title="New deck")
        else:
            try:
                deck = read_deck(path)
            except DeckUnreadable as exc:
                self.notify(f"{one_line(str(path))}: {exc}", title="Cannot open", severity="error")
                return False
            self.path, self.deck, self.dirty = path, deck, False
        self.query_one("#path", Input).value = str(self.path)
        self._refresh(rebuild=True)
        return True

    def _refresh(self, *, rebuild: bool = False) -> None:
        """Check the deck again and redraw the table, the problems and the status."""
        self.verdict = check_deck(self.deck, self.library, PROFILES[self.rules])
        marks = self._marks(self.verdict)
        table = self.query_one("#lines", DataTable)
        if rebuild:
            row = table.cursor_row
            table.clear()
            for card in self.deck.cards:
                table.add_row(
                    marks.get(card.line, ""),
                    str(card.line),
                    _SHORT[card.section],
                    str(card.count),
                    Text(one_line(card.title)),  # typed in a file: never markup
                    key=str(card.line),
                )
            if self.deck.cards:
                table.move_cursor(row=min(row, len(self.deck.cards) - 1))
        else:
            for card in self.deck.cards:
                table.update_cell(str(card.line), "count", str(card.count))
                table.update_cell(str(card.line), "mark", marks.get(card.line, ""))
        findings = self.query_one("#findings", OptionList)
        highlighted = findings.highlighted
        findings.clear_options()
        for index, finding in enumerate(self._findings()):
            findings.add_option(Option(self._finding_text(finding), id=str(index)))
        if not self._findings():
            said = Text(f"No problem and no warning under {self.rules}.", style="green")
            findings.add_option(Option(said, disabled=True))
        elif highlighted is not None:
            findings.highlighted = min(highlighted, len(self._findings()) - 1)
        self._status()

    def _findings(self) -> list[Finding]:
        assert self.verdict is not None
        return [*self.verdict.problems, *self.verdict.warnings]

    def _finding_text(self, finding: Finding) -> Text:
        assert self.verdict is not None
        warning = finding in self.verdict.warnings
        text = Text()
        text.append(f"L{finding.line} " if finding.line else "deck ", style="dim")
        text.append(finding.rule, style="yellow" if warning else "bold red")
        text.append(f": {finding.message} ")
        text.append(f"({finding.source})", style="dim")
        return text

    @staticmethod
    def _marks(verdict: Verdict) -> dict[int, Text]:
        marks: dict[int, Text] = {}
        for finding in verdict.warnings:
            marks[finding.line] = Text("?", style="yellow")
        for finding in verdict.problems:
            marks[finding.line] = Text("!", style="bold red")
        return marks

    def _status(self) -> None:
        assert self.verdict is not None
        verdict = self.verdict
        name = self.path.name if self.path is not None else "(new deck)"
        text = Text(f"{one_line(name)}{' *' if self.dirty else ''} · {self.rules} · ")
        text.append(f"{counted(verdict.cards, 'card')} · ")
        if verdict.legal:
            text.append("LEGAL", style="bold green")
        else:
            text.append(counted(len(verdict.problems), "problem"), style="bold red")
        if verdict.warnings:
            text.append(f", {counted(len(verdict.warnings), 'warning')}", style="yellow")
        self.query_one("#status", Static).update(text)

    def _current(self) -> int | None:
        """The file line of the highlighted card line."""
        table = self.query_one("#lines", DataTable)
        if not self.deck.cards or table.cursor_row < 0:
            return None
        return self.deck.cards[min(table.cursor_row, len(self.deck.cards) - 1)].line

    def _highlighted_finding(self) -> Finding | None:
        """The problem or warning highlighted in the list, while the list
        has the focus."""
        findings = self.query_one("#findings", OptionList)
        if not findings.has_focus or findings.highlighted is None:
            return None
        option = findings.get_option_at_index(findings.highlighted)
        return self._findings()[int(option.id)] if option.id is not None else None

    def _place(self, finding: Finding) -> tuple[int | None, Section | None, str | None]:
        """Where a finding is in the deck table: the row of its card line,
        the section it is in, and why there is no row of its own (``None``
        when it is on a card line)."""
        rows = [i for i, c in enumerate(self.deck.cards) if c.line == finding.line]
        if rows:
            return rows[0], self.deck.cards[rows[0]].section, None
        if finding.line == 0:
            return None, None, "a problem of the deck as a whole: no one line to change"
        headed = [section for section, at in self.deck.headers.items() if at == finding.line]
        if headed:
            section = headed[0]
            rows = [i for i, c in enumerate(self.deck.cards) if c.section == section]
            said = f"L{finding.line} is the [{section}] header: a adds a card to it"
            return (rows[0] if rows else None), section, said
        if finding.line == self.deck.tokui_waza_line:
            return (
                None,
                "Tokui-Waza",
                f"L{finding.line} declares the Tokui-Waza: change it in the file",
            )
        return None, None, f"L{finding.line} is no card line: change it in the file"

    def _say(
        self, message: str, *, title: str = "", severity: SeverityLevel = "information"
    ) -> None:
        """A notice that replaces the ones up: they answered an earlier key
        (the rules just left, the problem highlighted before) and, left
        up, would tell of a state the screen no longer shows."""
        self.app.clear_notifications()
        self.notify(message, title=title, severity=severity)

    # --- actions ------------------------------------------------------------------

    def action_count(self, delta: int) -> None:
        """Change the highlighted line's count (never below 0): the deck
        table's, or, from the list of problems, the highlighted problem's."""
        line = self._current()
        finding = self._highlighted_finding()
        if finding is not None:
            row, _, why = self._place(finding)
            if row is None or why is not None:
                # Never another line than the one the problem is about.
                self._say(why or "", title="Nothing changed", severity="warning")
                return
            self.query_one("#lines", DataTable).move_cursor(row=row)
            line = self.deck.cards[row].line
        if line is None:
            return
        card = next(c for c in self.deck.cards if c.line == line)
        if card.count + delta < 0:
            return
        self.deck = self.deck.with_count(line, card.count + delta)
        self.dirty = True
        self._refresh()

    def action_add(self) -> None:
        """Ask for a card line and add it to the highlighted line's section."""
        line = self._current()
        section: Section = next((c.section for c in self.deck.cards if c.line == line), "Life Deck")
        finding = self._highlighted_finding()
        placed = self._place(finding)[1] if finding is not None else None
        if placed is not None and placed != "Tokui-Waza":
            section = placed  # a problem of a section (its header): add to it

        def added(entry: str | None) -> None:
            if entry is None:
                return
            count, _, title = entry.partition(" ")
            if not count.isdigit() or not title.strip():
                count, title = "1", entry
            self.deck = self.deck.with_card(section, int(count), title)
            self.dirty = True
            self._refresh(rebuild=True)
            # The new line is the section's last.
            rows = [i for i, c in enumerate(self.deck.cards) if c.section == section]
            if rows:
                self.query_one("#lines", DataTable).move_cursor(row=rows[-1])

        self.app.push_screen(AddCard(section), added)

    def action_rules(self) -> None:
        """Check under the next rules profile."""
        names: tuple[ProfileName, ...] = get_args(ProfileName)
        self.rules = names[(names.index(self.rules) + 1) % len(names)]
        self._refresh()
        self._say(PROFILES[self.rules].title, title=f"Rules: {self.rules}")

    def action_open(self) -> None:
        """Focus the path box (Enter there opens the file)."""
        self.query_one("#path", Input).focus()

    @on(Input.Submitted, "#path")
    def _path_submitted(self, event: Input.Submitted) -> None:
        path = Path(event.value.strip()).expanduser()
        if not event.value.strip():
            return

        def answered(leave: bool | None) -> None:
            if leave and self._open(path):
                self.query_one("#lines", DataTable).focus()

        if self.dirty and path != self.path:
            self.app.push_screen(ConfirmDiscard(), answered)
        else:
            answered(True)

    @on(OptionList.OptionSelected, "#findings")
    def _jump(self, event: OptionList.OptionSelected) -> None:
        """Enter on a problem highlights its line in the deck (a section's
        problem: the section's first line), so that ``+`` and ``-`` act on
        it. A problem with no card line (the deck as a whole, a line the
        format cannot read) keeps the list in front and says why: the deck's
        highlighted line is then another line."""
        finding = self._findings()[int(event.option.id or 0)]
        row, _, why = self._place(finding)
        if row is None:
            self._say(why or "", title="No card line")
            return
        if why is not None:
            self._say(why)
        table = self.query_one("#lines", DataTable)
        table.move_cursor(row=row)
        table.focus()

    def action_save(self) -> None:
        """Write the deck to the file in the path box (its own file, or
        another name typed there), every other line kept as it was."""
        typed = self.query_one("#path", Input).value.strip()
        target = Path(typed).expanduser() if typed else self.path
        if target is None:
            self.notify("Type a file name in the path box (o) first.", severity="error")
            return
        if _is_shipped(target):
            self.notify(
                "This is a sample deck shipped with dbdeck: type another file name in the "
                "path box (o), then ctrl+s.",
                title="Save elsewhere",
                severity="warning",
                timeout=10,
            )
            return
        try:
            _write(target, self.deck.text())
        except OSError as exc:
            self.notify(f"{exc.strerror or exc}", title="Cannot save", severity="error")
            return
        self.path, self.dirty = target, False
        self._status()
        self.notify(f"Saved {one_line(str(target))}")

    def action_leave(self) -> None:
        """Go back, asking first when there are unsaved changes."""

        def answered(leave: bool | None) -> None:
            if leave:
                self.dismiss(None)

        if self.dirty:
            self.app.push_screen(ConfirmDiscard(), answered)
        else:
            self.dismiss(None)


def _is_shipped(path: Path) -> bool:
    """Whether ``path`` is one of dbdeck's own files (the sample decks)."""
    try:
        return path.resolve().is_relative_to(shipped_ccg_dir().resolve())
    except OSError:
        return False


def _write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same
    folder, so a failed write leaves the old file whole."""
    folder = path.parent if str(path.parent) else Path(".")
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o777)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def open_deck_screen(app: App[Any], rules: str = DEFAULT_PROFILE) -> None:
    """Push the deck screen on ``app`` (from the main menu), or say why the
    CCG packs cannot be loaded."""
    try:
        library = load_library()
    except CardSetError as err:
        first = str(err.problems[0]) if err.problems else "unknown problem"
        app.notify(
            f"{first} ({counted(len(err.problems), 'problem')}; dbdeck ccg cards lists them)",
            title="The CCG card packs have problems",
            severity="error",
            timeout=20,
        )
        return
    app.push_screen(DeckScreen(library, None, rules))


class DeckApp(PlainApp):
    """The deck screen on its own (``dbdeck ccg edit``)."""

    TITLE = "dbdeck"

    def __init__(self, library: Library, path: Path | None, rules: str = DEFAULT_PROFILE) -> None:
        super().__init__()
        self.library = library
        self.path = path
        self.rules = rules

    def on_mount(self) -> None:
        self.push_screen(DeckScreen(self.library, self.path, self.rules), lambda _: self.exit())
