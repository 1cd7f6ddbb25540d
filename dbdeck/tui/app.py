"""The dbdeck Textual application: main menu, setup wizard and the table."""

from __future__ import annotations

import random
from collections.abc import Iterable
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.command import Hit, Hits, Provider
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import (
    Button,
    Checkbox,
    Footer,
    Header,
    Input,
    Label,
    OptionList,
    Select,
    Static,
)
from textual.widgets.option_list import Option

from dbdeck.cards.catalog import Catalog
from dbdeck.engine.game import DIFFICULTIES, Game, Setup, SetupError
from dbdeck.saves import SaveError, Session, list_saves
from dbdeck.tui.table import Seating, TableScreen
from dbdeck.tui.words import action_label

__all__ = ["DbdeckApp"]

CSS = """
Screen { background: $surface; }
.box { border: round $primary-darken-1; padding: 0 1; height: auto; }
#villain { border: round red; }
#turn-order { border: round $accent; }
#body { height: 1fr; }
#body > .panel { width: 1fr; height: 1fr; }
#body > #markets { width: 3fr; }
#market-rows { border: round $secondary; }
#hand { border: round green; }
#body > #characters { width: 2fr; }
#body > #actions { width: 2fr; border: round $accent; }
#action-list { height: 1fr; }
#body > #log { width: 2fr; border: round $primary-darken-2; }
TableScreen.compact #body > .panel { display: none; width: 1fr; }
TableScreen.compact #body > .panel.shown { display: block; }
TableScreen.compact #turn-order { display: none; }
#panel-tabs { display: none; height: 1; }
TableScreen.compact #panel-tabs { display: block; }
.dialog { width: 80%; max-width: 100; height: auto; max-height: 90%;
          border: thick $accent; background: $panel; padding: 1 2; }
.dialog.wide { width: 90%; max-width: 120; }
ModalScreen { align: center middle; background: $background 60%; }
#menu { width: 40; height: auto; border: thick $accent; padding: 1 2; }
MainMenu { align: center middle; }
#wizard { padding: 1 2; }
#wizard Horizontal { height: auto; margin-bottom: 1; }
#wizard Label { width: 16; padding-top: 1; }
#wizard Select { width: 36; }
#wizard Input { width: 28; }
#levels { margin: 1 0; }
#browser-filters { height: auto; }
#browser-filters Select { width: 30; }
"""


class ActionCommands(Provider):
    """The command palette: every legal action of the game on the table."""

    async def search(self, query: str) -> Hits:
        tables = [s for s in self.app.screen_stack if isinstance(s, TableScreen)]
        if not tables:
            return
        table = tables[-1]
        matcher = self.matcher(query)
        for action in list(table.legal):
            label = action_label(table.game, action)
            score = matcher.match(label)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(label),
                    lambda a=action: table.play(a),
                    help="Game action",
                )


class MainMenu(Screen[None]):
    """New game, continue, rules, cards, quit."""

    def compose(self) -> ComposeResult:
        with Vertical(id="menu"):
            yield Static(
                Text("dbdeck\nDragon Ball: Deckbuilding Game", style="bold", justify="center")
            )
            yield OptionList(
                Option("New game", id="new"),
                self._continue_option(),
                Option("Rules reference", id="rules"),
                Option("Card browser", id="cards"),
                Option("Quit", id="quit"),
                id="menu-options",
            )
        yield Footer()

    def _continue_option(self) -> Option:
        app = self.app
        saves = getattr(app, "saves", None)
        running = [s for s in list_saves(saves) if not s.winner] if saves else []
        if not running:
            return Option("Continue (no game in progress)", id="continue", disabled=True)
        latest = running[0]
        return Option(
            f"Continue: {latest.villain} vs {', '.join(latest.characters)}, turn {latest.turn}",
            id="continue",
        )

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def _continue(self, app: DbdeckApp) -> None:
        assert app.saves is not None
        running = [s for s in list_saves(app.saves) if not s.winner]
        save_id = running[0].id
        try:
            session = Session.resume(app.catalog, app.saves, save_id)
        except SaveError as exc:
            if exc.backup is None:
                self.notify(str(exc), title="Cannot continue", severity="error", timeout=20)
                return
            from dbdeck.tui.dialogs import DecisionDialog

            def answer(choice: int | None) -> None:
                if choice != 0:
                    return
                assert app.saves is not None
                try:
                    backup = Session.resume(app.catalog, app.saves, save_id, from_backup=True)
                except SaveError as again:
                    self.notify(str(again), title="Cannot continue", severity="error")
                    return
                app.open_session(backup, Seating(players=backup.players))

            app.push_screen(
                DecisionDialog(
                    "The save cannot be read",
                    str(exc),
                    ["Load the backup (the game one action earlier)", "Cancel"],
                    cancellable=True,
                ),
                answer,
            )
            return
        app.open_session(session, Seating(players=session.players))

    @on(OptionList.OptionSelected, "#menu-options")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        app = self.app
        assert isinstance(app, DbdeckApp)
        choice = event.option.id
        if choice == "new":
            app.push_screen(SetupWizard(app.catalog))
        elif choice == "continue":
            self._continue(app)
        elif choice == "rules":
            from dbdeck.tui.reference import RulesScreen

            app.push_screen(RulesScreen())
        elif choice == "cards":
            from dbdeck.tui.reference import CardBrowser

            app.push_screen(CardBrowser(app.catalog))
        elif choice == "quit":
            app.exit()


class SetupWizard(Screen[None]):
    """Villain, difficulty, Extreme Mode, Location, a Villain's scenario card,
    1-4 Characters and their players (and the solo starting Ally), with the
    level rule explained as you choose."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def __init__(self, catalog: Catalog, seed: int | None = None) -> None:
        super().__init__()
        self.catalog = catalog
        self.seed = seed if seed is not None else random.randrange(1, 1_000_000)

    def compose(self) -> ComposeResult:
        villains = [(f"{v.name} (level {v.level})", v.id) for v in self.catalog.villains()]
        characters = [
            (f"{c.name} — {c.race.capitalize()}, level {c.level}", c.id)
            for c in self.catalog.characters()
        ]
        locations = [("None", "none"), ("Random", "random")] + [
            (loc.name, loc.id) for loc in self.catalog.locations()
        ]
        allies = [("None (solo, level 6+)", "none")] + [
            (f"{a.name} (power {a.power})", a.id) for a in self.catalog.of_kind("ally")
        ]
        yield Header()
        with VerticalScroll(id="wizard"):
            with Horizontal():
                yield Label("Villain")
                yield Select(villains, value="freezer", allow_blank=False, id="villain")
                yield Label("Difficulty")
                yield Select(
                    [(d.capitalize(), d) for d in DIFFICULTIES],
                    value="medium",
                    allow_blank=False,
                    id="difficulty",
                )
            with Horizontal():
                yield Label("Location")
                yield Select(locations, value="none", allow_blank=False, id="location")
                yield Checkbox("Extreme Mode", id="extreme")
                yield Checkbox("Hide hands between turns", id="hide")
            with Horizontal():
                yield Label("Scenario")
                yield Select(
                    self._scenarios("freezer"), value="none", allow_blank=False, id="variant"
                )
                yield Label("Starting Ally")
                yield Select(allies, value="none", allow_blank=False, id="starting-ally")
            for seat in range(1, 5):
                with Horizontal():
                    yield Label(f"Character {seat}")
                    yield Select(
                        characters,
                        prompt="(nobody)",
                        id=f"char-{seat}",
                        value="goku" if seat == 1 else "krillin" if seat == 2 else Select.NULL,
                    )
                    yield Input(value=f"Player {seat}", id=f"player-{seat}")
            yield Static(id="levels")
            with Horizontal():
                yield Label("Seed")
                yield Input(value=str(self.seed), id="seed")
                yield Button("Start", variant="primary", id="start")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "New game"
        self._explain()

    def _scenarios(self, villain: str) -> list[tuple[str, str]]:
        """The usual game, then the Villain's scenario cards (A Different Future)."""
        cards = [
            c
            for c in self.catalog.of_kind("villain-card")
            if getattr(c, "villain", "") == villain and getattr(c, "characters", None)
        ]
        return [("Usual game", "none")] + [(c.name, c.id) for c in cards]

    @on(Select.Changed, "#villain")
    def _villain_changed(self, event: Select.Changed) -> None:
        self.query_one("#variant", Select).set_options(self._scenarios(str(event.value)))

    @on(Select.Changed, "#variant")
    def _variant_changed(self, event: Select.Changed) -> None:
        """A scenario card names its Characters: seat them."""
        card = self.catalog.cards.get(str(event.value))
        wanted = list(getattr(card, "characters", None) or [])
        if not wanted:
            return
        for seat in range(1, 5):
            select = self.query_one(f"#char-{seat}", Select)
            if seat <= len(wanted):
                select.value = wanted[seat - 1]
            else:
                select.clear()

    @on(Select.Changed)
    def _changed(self) -> None:
        self._explain()

    def _choice(self) -> tuple[list[str], list[str]]:
        characters, players = [], []
        for seat in range(1, 5):
            value = self.query_one(f"#char-{seat}", Select).value
            if isinstance(value, str):
                characters.append(value)
                players.append(self.query_one(f"#player-{seat}", Input).value or f"Player {seat}")
        return characters, players

    def _explain(self) -> None:
        villain_id = self.query_one("#villain", Select).value
        villain = self.catalog.cards.get(str(villain_id))
        characters, _ = self._choice()
        total = sum(self.catalog[c].level for c in characters)  # type: ignore[union-attr]
        limit = getattr(villain, "level", 0)
        scenario = self.catalog.cards.get(str(self.query_one("#variant", Select).value))
        ok = (
            (total <= limit or scenario is not None)
            and 1 <= len(characters) <= 4
            and len(set(characters)) == len(characters)
        )
        if scenario is not None:
            names = ", ".join(self.catalog[c].name for c in getattr(scenario, "characters", []))
            explained = f"{scenario.name} is played with {names}, whatever their levels. "
        else:
            explained = (
                f"Levels: {total} of at most {limit} "
                f"(the Characters' levels may add up to the Villain's level at most). "
            )
        text = Text(explained, style="green" if ok else "red")
        if len(set(characters)) != len(characters):
            text.append("Each Character can be chosen once.", style="red")
        self.query_one("#levels", Static).update(text)

    @on(Button.Pressed, "#start")
    def _start(self) -> None:
        characters, players = self._choice()
        try:
            seed = int(self.query_one("#seed", Input).value)
        except ValueError:
            self.notify("The seed is a whole number.", severity="error")
            return
        location = str(self.query_one("#location", Select).value)
        variant = str(self.query_one("#variant", Select).value)
        ally = str(self.query_one("#starting-ally", Select).value)
        setup = Setup(
            characters=characters,
            villain=str(self.query_one("#villain", Select).value),
            difficulty=str(self.query_one("#difficulty", Select).value),
            extreme=self.query_one("#extreme", Checkbox).value,
            location=None if location == "none" else location,
            seed=seed,
            seats=seats_of(players),
            variant=None if variant == "none" else variant,
            starting_ally=None if ally == "none" else ally,
        )
        app = self.app
        assert isinstance(app, DbdeckApp)
        names = dict(zip(characters, players, strict=True))
        seating = Seating(players=names, hide_hands=self.query_one("#hide", Checkbox).value)
        try:
            if app.saves is None:
                app.switch_screen(TableScreen(Game.new(self.catalog, setup), seating))
                return
            session = Session.start(self.catalog, setup, app.saves, players=names)
        except SetupError as exc:
            self.notify(str(exc), title="Cannot start", severity="error")
            return
        app.open_session(session, seating)


def seats_of(players: Iterable[str]) -> list[int]:
    """One seat per distinct player name: one person may run several Characters."""
    seats: dict[str, int] = {}
    return [seats.setdefault(p, len(seats)) for p in players]


class DbdeckApp(App[None]):
    """dbdeck in a terminal."""

    CSS = CSS
    TITLE = "dbdeck"
    COMMANDS = App.COMMANDS | {ActionCommands}
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False)]

    def __init__(
        self,
        catalog: Catalog,
        game: Game | None = None,
        seating: Seating | None = None,
        *,
        session: Session | None = None,
        saves: Path | None = None,
        start: Screen[None] | None = None,
    ) -> None:
        super().__init__()
        self.catalog = catalog
        self.start_game = session.game if session is not None else game
        self.session = session
        self.seating = seating
        self.saves = saves
        """The saves folder; ``None`` plays without saving (tests, demos)."""
        self.start_screen = start

    def on_mount(self) -> None:
        if self.start_screen is not None:
            self.push_screen(self.start_screen)
        elif self.start_game is not None:
            self.push_screen(TableScreen(self.start_game, self.seating, self.session))
        else:
            self.push_screen(MainMenu())

    def open_session(self, session: Session, seating: Seating) -> None:
        """Show the table of a saved game (closing the previous one)."""
        if self.session is not None and self.session is not session:
            self.session.close()
        self.session = session
        self.switch_screen(TableScreen(session.game, seating, session))

    def on_unmount(self) -> None:
        if self.session is not None:
            self.session.close()

    def _fatal_error(self) -> None:
        """An unexpected error anywhere in the interface: no traceback on the
        screen, a crash report beside the saves instead. The game itself was
        saved after its last action."""
        from dbdeck.saves import saves_dir, write_crash_report

        error = self._exception or RuntimeError("unknown error")
        folder = self.saves or saves_dir()
        about = f"save: {self.session.id}\n" if self.session is not None else ""
        try:
            report = str(write_crash_report(folder, error, about))
        except OSError as exc:
            report = f"(could not be written: {exc})"
        saved = " The game is saved after its last action." if self.session else ""
        self._exit_renderables.append(
            Text(f"dbdeck stopped on an unexpected error.{saved} Crash report: {report}")
        )
        self._close_messages_no_wait()
