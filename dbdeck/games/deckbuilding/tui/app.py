"""The dbdeck Textual application: main menu, setup wizard and the table."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import RenderableType
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.command import Hit, Hits, Provider
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
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

from dbdeck.games.deckbuilding.cards.catalog import Catalog, load_catalog
from dbdeck.games.deckbuilding.cards.plain import Ally
from dbdeck.games.deckbuilding.engine.game import (
    DIFFICULTIES,
    Game,
    Setup,
    SetupError,
    level_note,
    setup_problem,
)
from dbdeck.games.deckbuilding.match import (
    GAME_ID,
    DeckbuildingMatch,
    DeckbuildingRules,
    DeckbuildingStory,
)
from dbdeck.games.deckbuilding.tui.play import TableScreen
from dbdeck.games.deckbuilding.tui.widgets.choices import ChoiceList
from dbdeck.games.deckbuilding.tui.widgets.tickbox import TickBox
from dbdeck.saves import SaveError, Session
from dbdeck.tabletop.game import GameRules
from dbdeck.tabletop.registry import has_table_screen, known, menu_screens, open_rules, title_of
from dbdeck.tui.backend import Seating
from dbdeck.tui.local import LocalBackend
from dbdeck.tui.shell import TableApp

if TYPE_CHECKING:
    from dbdeck.saves.reading import SaveInfo

__all__ = ["DbdeckApp"]


def _list_saves(folder: Path) -> list[SaveInfo]:
    """The saves in ``folder``. Their checker (pydantic) is imported only
    here, for the menu: a table opened from the command line never needs it."""
    from dbdeck.saves.reading import list_saves

    return list_saves(folder)


def _running(folder: Path) -> list[SaveInfo]:
    """The games in ``folder`` that go on, of every game this dbdeck plays
    at a table screen (a save of another game is no game to continue here),
    latest first."""
    return [
        s
        for s in _list_saves(folder)
        if not s.winner and known(s.game) and has_table_screen(s.game)
    ]


class ActionCommands(Provider):
    """The command palette: every legal action of the game on the table."""

    async def search(self, query: str) -> Hits:
        tables = [s for s in self.app.screen_stack if isinstance(s, TableScreen)]
        if not tables:
            return
        table = tables[-1]
        matcher = self.matcher(query)
        # The table's offers: empty while a hand-off waits, or while this
        # screen may not act.
        for offer in list(table.offers):
            score = matcher.match(offer.label)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(offer.label),
                    lambda o=offer: table.take(o),
                    help="Game action",
                )


class MainMenu(Screen[None]):
    """New game, continue, rules, cards, quit."""

    def compose(self) -> ComposeResult:
        with Vertical(id="menu"):
            yield Static(
                Text("dbdeck\nDragon Ball: Deckbuilding Game", style="bold", justify="center")
            )
            # The menu follows the one rule of every list: it opens with
            # nothing highlighted (Down highlights New game), never wraps,
            # and Enter with nothing highlighted only says so.
            yield ChoiceList(
                Option("New game", id="new"),
                self._continue_option(),
                Option("How to play", id="howto"),
                Option("Rules reference", id="rules"),
                Option("Card browser", id="cards"),
                # The other games' screens (the CCG's decks), by the registry.
                *(Option(s.label, id=s.id) for s in menu_screens(besides=GAME_ID)),
                Option("Quit", id="quit"),
                id="menu-options",
            )
        yield Footer()

    def _continue_option(self) -> Option:
        app = self.app
        saves = getattr(app, "saves", None)
        running = _running(saves) if saves else []
        if not running:
            return Option("Continue (no game in progress)", id="continue", disabled=True)
        latest = running[0]
        # With its game's title: the saves of every game are continued here.
        # Names from a file: plain text, never markup.
        words = Text(
            f"Continue: {latest.villain} vs {', '.join(latest.characters)}, turn {latest.turn}"
        )
        words.append(f" ({title_of(latest.game)})", style="dim")
        return Option(words, id="continue")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def _continue(self, app: DbdeckApp) -> None:
        assert app.saves is not None
        running = _running(app.saves)
        if not running:  # it ended or went away since the menu was drawn
            self.notify("No game in progress.", title="Cannot continue", severity="error")
            return
        save_id, game = running[0].id, running[0].game
        try:
            rules = app.rules_of(game)
        except Exception as exc:  # the game's content does not load: said, never raised
            self.notify(str(exc), title="Cannot continue", severity="error", timeout=20)
            return
        try:
            session = Session.resume(rules, app.saves, save_id)
        except SaveError as exc:
            if exc.backup is None:
                self.notify(str(exc), title="Cannot continue", severity="error", timeout=20)
                return
            from dbdeck.games.deckbuilding.tui.dialogs import DecisionDialog

            def answer(choice: int | None) -> None:
                if choice != 0:
                    return
                assert app.saves is not None
                try:
                    backup = Session.resume(rules, app.saves, save_id, from_backup=True)
                except SaveError as again:
                    self.notify(str(again), title="Cannot continue", severity="error")
                    return
                app.open_session(backup, backup.seating)

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
        app.open_session(session, session.seating)

    @on(OptionList.OptionSelected, "#menu-options")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        app = self.app
        assert isinstance(app, DbdeckApp)
        if not self.is_active:
            return  # a second Enter of a burst: the first one's screen is in front
        choice = event.option.id
        if choice == "new":
            app.push_screen(SetupWizard(app.catalog))
        elif choice == "continue":
            self._continue(app)
        elif choice == "rules":
            from dbdeck.games.deckbuilding.tui.reference import RulesScreen

            app.push_screen(RulesScreen(app.catalog))
        elif choice == "howto":
            from dbdeck.games.deckbuilding.tui.howto import HowToPlay

            app.push_screen(HowToPlay())
        elif choice == "cards":
            from dbdeck.games.deckbuilding.tui.reference import CardBrowser

            app.push_screen(CardBrowser(app.catalog))
        elif screen := next((s for s in menu_screens(besides=GAME_ID) if s.id == choice), None):
            screen.open(app)
        elif choice == "quit":
            app.exit()


class SetupWizard(Screen[None]):
    """Villain, difficulty, Extreme Mode, Location, a Villain's scenario card,
    1-4 Characters and their players (and the solo starting Ally), with the
    level rule explained as you choose."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("ctrl+s", "start", "Start the game", priority=True),
    ]

    def __init__(self, catalog: Catalog, seed: int | None = None) -> None:
        super().__init__()
        self.catalog = catalog
        self.seed = seed if seed is not None else random.randrange(1, 1_000_000)

    def compose(self) -> ComposeResult:
        villains = [(Text(f"{v.name} (level {v.level})"), v.id) for v in self.catalog.villains()]
        characters = [
            (Text(f"{c.name} — {c.race.capitalize()}, level {c.level}"), c.id)
            for c in self.catalog.characters()
        ]
        # Each Location with its effect under its name, as the list opens.
        locations: list[tuple[RenderableType, str]] = [("None", "none"), ("Random", "random")]
        for place in self.catalog.locations():
            prompt = Text(place.name)
            prompt.append(f"\n{place.text}", style="dim")
            locations.append((prompt, place.id))
        allies: list[tuple[RenderableType, str]] = [("None", "none")]
        allies += [
            (Text(f"{a.name} (power {a.power})"), a.id)
            for a in self.catalog.of_kind("ally")
            if isinstance(a, Ally) and not a.starting  # a board's own card is no choice
        ]
        yield Header()
        with VerticalScroll(id="wizard"):
            # Label and control pairs in a grid: four columns (two pairs a
            # line) where there is room, two below 100 columns.
            with Grid(id="wizard-grid"):
                yield Label("Villain")
                yield Select(villains, value="freezer", allow_blank=False, id="villain")
                yield Label("Difficulty")
                yield Select(
                    [(d.capitalize(), d) for d in DIFFICULTIES],
                    value="medium",
                    allow_blank=False,
                    id="difficulty",
                )
                yield Label("Location")
                yield Select(locations, value="none", allow_blank=False, id="location")
                yield Label("Scenario")
                yield Select(
                    self._scenarios("freezer"), value="none", allow_blank=False, id="variant"
                )
                yield Label("Options")
                yield TickBox("Extreme Mode", id="extreme")
                yield Label("")
                yield TickBox("Hide hands between turns", id="hide")
                for seat in range(1, 5):
                    yield Label(f"Character {seat}")
                    yield Select(
                        characters,
                        prompt="(nobody)",
                        id=f"char-{seat}",
                        value="goku" if seat == 1 else "krillin" if seat == 2 else Select.NULL,
                    )
                    yield Label(f"Player {seat}")
                    yield Input(value=f"Player {seat}", id=f"player-{seat}")
                yield Label("Starting Ally", id="starting-ally-label")
                yield Select(allies, value="none", allow_blank=False, id="starting-ally")
            yield Static(id="location-text")
            yield Static(id="levels")
            with Horizontal(id="wizard-start"):
                yield Label("Seed")
                yield Input(value=str(self.seed), id="seed")
                yield Button("Start (Ctrl+S)", variant="primary", id="start")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "New game"
        self._explain()
        self.set_class(self.size.width < 100, "-narrow")

    def on_resize(self) -> None:
        self.set_class(self.size.width < 100, "-narrow")

    def _scenarios(self, villain: str) -> list[tuple[RenderableType, str]]:
        """The usual game, then the Villain's scenario cards (A Different Future)."""
        cards = [
            c
            for c in self.catalog.of_kind("villain-card")
            if getattr(c, "villain", "") == villain and getattr(c, "characters", None)
        ]
        usual: list[tuple[RenderableType, str]] = [("Usual game", "none")]
        return usual + [(Text(c.name), c.id) for c in cards]

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

    def _setup(self, seed: int) -> Setup:
        """The setup the wizard would start as chosen so far."""
        characters, players = self._choice()
        location = str(self.query_one("#location", Select).value)
        variant = str(self.query_one("#variant", Select).value)
        ally = str(self.query_one("#starting-ally", Select).value)
        return Setup(
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

    def _ally_allowed(self, setup: Setup) -> bool:
        """Whether the rules allow a starting Ally for this setup (one
        Character against a Villain of level 6 or more), as the engine says."""
        if setup.starting_ally is not None:
            problem = setup_problem(self.catalog, setup) or ""
            return "starting Ally is only for" not in problem
        probe = next(
            (a.id for a in self.catalog.of_kind("ally") if not getattr(a, "starting", False)),
            None,
        )
        if probe is None or not setup.characters:
            return False
        problem = setup_problem(self.catalog, replace(setup, starting_ally=probe)) or ""
        return "starting Ally is only for" not in problem

    def _explain(self) -> None:
        """Say what the engine says of the setup as chosen: the level rule as
        it applies (green), and the reason the game cannot start (red). The
        starting Ally shows only where the rules allow one."""
        # The seed never decides whether a setup is allowed.
        setup = self._setup(seed=0)
        allowed = self._ally_allowed(setup)
        for name in ("#starting-ally", "#starting-ally-label"):
            self.query_one(name).display = allowed
        if not allowed and setup.starting_ally is not None:
            self.query_one("#starting-ally", Select).value = "none"
            setup = replace(setup, starting_ally=None)
        self._explain_location(setup.location)
        problem = setup_problem(self.catalog, setup)
        text = Text(level_note(self.catalog, setup), style="green" if problem is None else "red")
        if problem is not None:
            text.append(f"\nCannot start: {problem}.", style="bold red")
        self.query_one("#levels", Static).update(text)

    def _explain_location(self, chosen: str | None) -> None:
        """What the chosen Location does for the whole game, in its own text."""
        shown = self.query_one("#location-text", Static)
        location = self.catalog.cards.get(chosen or "")
        shown.display = chosen is not None
        if chosen == "random":
            shown.update(
                Text("Random: a Location is drawn as the game starts; the board names it.")
            )
        elif location is not None:
            text = Text(f"{location.name}: ", style="bold")
            text.append(location.text)
            shown.update(text)

    def action_start(self) -> None:
        """Ctrl+S: start the game as chosen."""
        self._start()

    @on(Button.Pressed, "#start")
    def _start(self) -> None:
        if not self.is_active:
            return  # started already (a second Enter of a burst)
        characters, players = self._choice()
        try:
            seed = int(self.query_one("#seed", Input).value)
        except ValueError:
            self.notify("The seed is a whole number.", severity="error")
            return
        setup = self._setup(seed)
        app = self.app
        assert isinstance(app, DbdeckApp)
        names = dict(zip(characters, players, strict=True))
        seating = Seating(players=names, hide_hands=self.query_one("#hide", Checkbox).value)
        try:
            if app.saves is None:
                app.open_game(Game.new(self.catalog, setup), seating)
                return
            session = Session.start(
                DeckbuildingRules(self.catalog), setup, app.saves, seating=seating
            )
        except (SetupError, SaveError) as exc:
            self.notify(str(exc), title="Cannot start", severity="error")
            return
        app.open_session(session, session.seating)


def seats_of(players: Iterable[str]) -> list[int]:
    """One seat per distinct player name: one person may run several Characters."""
    seats: dict[str, int] = {}
    return [seats.setdefault(p, len(seats)) for p in players]


class DbdeckApp(TableApp):
    """dbdeck in a terminal: the deckbuilding game's app, with its main
    menu, its new-game wizard and its card browser."""

    # Absolute: Textual resolves a relative CSS_PATH beside the file of the
    # instance's class, so a subclass elsewhere (a test's) would not find it.
    CSS_PATH = Path(__file__).with_name("dbdeck.tcss")
    TITLE = "dbdeck"
    COMMANDS = App.COMMANDS | {ActionCommands}
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False)]

    def __init__(
        self,
        catalog: Catalog | None,
        game: Game | None = None,
        seating: Seating | None = None,
        *,
        session: Session[Any] | None = None,
        saves: Path | None = None,
        start: Screen[None] | None = None,
    ) -> None:
        """``catalog``: the card set of the menus (``None``: the session's,
        when it is of this game, else the shipped set once a menu needs it).
        ``session``: a saved game of any game, opened in its game's table
        screen."""
        from dbdeck.games.deckbuilding.tui.widgets import glyphs

        # The table's glyphs follow the terminal, and so does the rest.
        super().__init__(session=session, saves=saves, ascii=glyphs.ASCII)
        if catalog is None and session is not None and isinstance(session.rules.content, Catalog):
            catalog = session.rules.content
        self._catalog = catalog
        self.start_game = game
        self.seating = seating
        self.start_screen = start

    @property
    def catalog(self) -> Catalog:
        """The deckbuilding card set the menus, the wizard and the card
        browser show (loaded once a menu needs it, at a table of another game)."""
        if self._catalog is None:
            self._catalog = load_catalog()
        return self._catalog

    @catalog.setter
    def catalog(self, catalog: Catalog) -> None:
        self._catalog = catalog

    def rules_of(self, game_id: str) -> GameRules[Any]:
        """The rules of a save's game: this game's on the app's card set,
        another's from the registry (its own error when they cannot open)."""
        if game_id == GAME_ID:
            return DeckbuildingRules(self.catalog)
        return open_rules(game_id)

    def on_mount(self) -> None:
        if self.start_screen is not None:
            self.push_screen(self.start_screen)
        elif self.session is not None:
            backend = self._backend(self.session, self.seating)
            # The table screen of the save's game, as the registry lists it.
            self.push_screen(self.table_screen(self.session.rules.game_id, backend))
        elif self.start_game is not None:
            self.push_screen(TableScreen(self._unsaved(self.start_game, self.seating)))
        else:
            self.push_screen(MainMenu())

    def open_session(self, session: Session[Any], seating: Seating) -> None:
        """Show the table of a saved game of any game (closing the previous one)."""
        if self.session is not None and self.session is not session:
            self.session.close()
        self.session = session
        # The table screen of the save's game, as the registry lists it.
        self.switch_screen(
            self.table_screen(session.rules.game_id, self._backend(session, seating))
        )

    def open_game(self, game: Game, seating: Seating) -> None:
        """Show the table of a game that is not saved (tests, demos)."""
        self.switch_screen(TableScreen(self._unsaved(game, seating)))

    @staticmethod
    def _unsaved(game: Game, seating: Seating | None) -> LocalBackend:
        """The backend of a game that is not saved; it keeps its own counts."""
        return LocalBackend(DeckbuildingMatch(game), seating, story=DeckbuildingStory())

    def _backend(self, session: Session[Any], seating: Seating | None) -> LocalBackend:
        def reloaded(session: Session[Any]) -> None:
            # After an unexpected error the backend reloads the save.
            self.session = session

        return LocalBackend(session, seating, on_crash=reloaded)

    def after_game(self, choice: str) -> None:
        """What follows a game's summary: ``new``, ``replay``, ``menu`` or ``quit``."""
        if choice == "quit":
            self.exit()
            return
        if choice == "replay":
            if self.session is None:
                self.notify("Only a saved game can be replayed.", severity="warning")
                return
            from dbdeck.tui.local import ReplayBackend

            replay = ReplayBackend(self.session.rules, self.session.data())
            self.push_screen(self.table_screen(self.session.rules.game_id, replay, "replay"))
            return
        if self.session is not None:
            self.session.close()
            self.session = None
        self.switch_screen(MainMenu())
        if choice == "new":
            self.push_screen(SetupWizard(self.catalog))
