"""The table: every board element, the hand, the action list, the log.

The screen draws the ``TableView`` its backend gives it and offers the
backend's ``Offer``s; it never sees a ``Game``, so it can show only what the
seat at the screen may see. Keys and cards turn into actions sent to the
backend; a refused one shows the engine's reason, and a key that can do
nothing now says why, in the rulebook's words (the view carries the
reasons). The Villain's turn runs in the engine's step mode on a local
table: the engine stops after each step that showed something, the table
redraws, and the next step follows after ``pace`` seconds (Space plays the
rest at once).

Layout by size: below 100 columns the body shows one panel at a time
(``1``-``6`` switch); below 150×45 the action list stays beside one
switchable panel; from 150×45 every panel shows at once. At every size the
Villain's health and Time Track, the round, whose turn it is, the Dragon
Balls, the hand and the prompt stay in sight.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import TypeVar, overload

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from dbdeck.engine.actions import Action
from dbdeck.engine.table_view import HandView, LogLine, MarketCard, Offer, TableView
from dbdeck.tui.backend import Outcome, Seating, TableBackend
from dbdeck.tui.dialogs import (
    CardPicker,
    ComboDialog,
    DecisionDialog,
    HandoffScreen,
    HelpScreen,
    InspectorScreen,
    TurnBanner,
)
from dbdeck.tui.settings import load_settings, save_settings
from dbdeck.tui.widgets import (
    BUY_BALL,
    LOG_STYLES,
    ActionPanel,
    BallPurchase,
    CardChosen,
    CardFocused,
    CharacterBoard,
    CharacterShown,
    DragonBallTracker,
    Entry,
    HandBoard,
    HandShown,
    KeyBar,
    MarketRows,
    MarketsShown,
    StatusBar,
    StatusShown,
    TableLog,
    TurnOrderBoard,
    TurnOrderShown,
    VillainBoard,
    glyphs,
    show_fitted,
)

__all__ = ["PANELS", "Seating", "TableScreen"]

NARROW = 100
"""Below this width the body shows one panel at a time."""
WIDE = (150, 45)
"""From this size (columns, rows) every panel shows at once."""

PANELS = {
    "hand": ("1", "Hand"),
    "markets": ("2", "Markets"),
    "characters": ("3", "Boards"),
    "villain": ("4", "Villain"),
    "actions": ("5", "Actions"),
    "log": ("6", "Log"),
}
"""The panels the number keys go to."""

BODY = ("markets", "characters", "actions", "log")
"""The switchable panels of the body."""


W = TypeVar("W", bound=Widget)


def _size_of(width: int, height: int) -> str:
    """The layout for a screen size: ``narrow``, ``medium`` or ``wide``."""
    if width < NARROW:
        return "narrow"
    if width < WIDE[0] or height < WIDE[1]:
        return "medium"
    return "wide"


def _classes_of(size: str) -> set[str]:
    """The screen's classes for a layout (the compact ones are all but wide)."""
    return {f"-{size}"} | ({"compact"} if size != "wide" else set())


KIND_WORDS = {
    "attack": "Attack",
    "prepare": "Prepare",
    "boost": "Boost",
    "play": "Put into play",
    "exhaust": "Exhaust",
    "destroy": "Destroy for its effect",
    "market-discard": "Send to the bottom of its deck",
    "give-ball": "Give a Dragon Ball",
    "buy": "Buy",
}
"""What each kind of a card's action is called in its menu."""


ONE_WAY = ("prepare", "boost")
"""The action kinds whose one remaining way is taken without asking (the
Time slot, the booster): the key already said what to do."""


OUTCOMES = frozenset(
    {
        "damage", "heal", "buy", "roll", "balls", "defeat", "eliminate", "absorb", "clash",
        "arrive", "summon", "wish", "victim", "avoid", "immune", "half", "fizzle", "ozaru",
        "calm", "destroy", "game-over",
    }
)  # fmt: skip
"""The log lines that say what an action did to the table, repeated under
the prompt where the log may not be in sight."""

OUTCOMES_SHOWN = 3
"""The latest outcomes said under the prompt."""


def outcome_of(lines: Iterable[LogLine]) -> Text | None:
    """The latest outcomes among new log lines, as one marked line (a glyph
    marks it, not only a colour); ``None`` when none is an outcome."""
    said = [line for line in lines if line.kind in OUTCOMES][-OUTCOMES_SHOWN:]
    if not said:
        return None
    text = Text(glyphs.outcome() + " ", style="bold")
    for index, line in enumerate(said):
        if index:
            text.append(f" {glyphs.sep()} ", style="dim")
        text.append(line.text.rstrip("."), style=LOG_STYLES.get(line.kind, ""))
    return text


class TableScreen(Screen[None]):
    """A game in progress, as the seat at this screen may see it."""

    BINDINGS = [
        Binding("e", "end_turn", "End turn"),
        Binding("p", "play_energy", "Play Energy"),
        Binding("a", "attack", "Attack"),
        Binding("b", "buy", "Buy"),
        Binding("t", "prepare", "Prepare"),
        Binding("o", "boost", "Boost"),
        Binding("s", "steal", "Steal"),
        Binding("d", "buy_ball", "Buy a Dragon Ball"),
        Binding("x", "exhaust", "Exhaust"),
        Binding("y", "ability", "Ability"),
        Binding("i", "inspect", "Inspect"),
        Binding("g", "suggest", "Suggest"),
        Binding("u", "undo", "Undo"),
        Binding("h", "toggle_hide", "Hide hands"),
        Binding("space", "space", "Skip", show=False, priority=True),
        Binding("question_mark", "help", "Help"),
        Binding("r", "rules", "Rules"),
        Binding("c", "cards", "Cards"),
        Binding("S", "settings", "Settings"),
        Binding("G", "summary", "Game summary", show=False),
        *[
            Binding(key, f"panel('{panel}')", name, show=False)
            for panel, (key, name) in PANELS.items()
        ],
        Binding("q", "app.quit", "Quit"),
    ]

    KEYS: tuple[tuple[str, str], ...] = (
        ("Enter", "Card"),
        ("p", "Energy"),
        ("b", "Buy"),
        ("a", "Attack"),
        ("e", "End turn"),
        ("t", "Prepare"),
        ("Tab", "Panels"),
        ("g", "Suggest"),
        ("u", "Undo"),
        ("i", "Inspect"),
        ("s", "Steal"),
        ("d", "Buy ball"),
        ("r", "Rules"),
        ("q", "Quit"),
        ("^p", "Palette"),
    )
    """The key bar, most important first (as many as fit show)."""

    OVER_KEYS: tuple[tuple[str, str], ...] = (
        ("G", "Summary"),
        ("Tab", "Panels"),
        ("i", "Inspect"),
        ("r", "Rules"),
        ("q", "Quit"),
    )
    """The key bar once the game is over."""

    AUTO_FOCUS = "#hand"

    announces_turns = True
    """Whether a new turn is announced (a replay moves through turns silently)."""

    def __init__(self, backend: TableBackend) -> None:
        super().__init__()
        self.backend = backend
        self.seating = backend.seating
        self.view: TableView = backend.view()
        """What the screen shows: the backend's view when last drawn."""
        self.offers: list[Offer] = []
        """What the screen offers: the backend's legal actions when last drawn."""
        self.shown_panel = "markets"
        """The body's panel shown where they do not all fit."""
        self.layout_size = ""
        """``narrow``, ``medium`` or ``wide``."""
        self._turn_of = ""
        self._answered = -1
        self._since: list[LogLine] = []
        """The log lines since this screen last acted (a turn's banner shows them)."""
        self.focused_card = ""
        """What the card under a board's cursor is and can do, in words."""
        self._focus: tuple[int, str] | None = None
        """The card under a board's cursor and where it lies (said again,
        as it is now, after every change)."""
        self.outcome: Text | None = None
        """What the last change did (damage, dice, buys, Dragon Balls), on the
        line under the prompt until the cursor moves: below 150×45 the log
        is behind a tab, and a result must still reach the screen."""
        self.settings = load_settings()
        """The player's settings (asking before a turn ends …)."""
        self._summed = False
        self._found: dict[str | type[Widget], Widget] = {}
        self._suggested: Offer | None = None
        """The coach's last suggestion (highlighted where it is offered)."""

    # --- layout ------------------------------------------------------------------------

    @overload
    def _one(self, selector: type[W]) -> W: ...

    @overload
    def _one(self, selector: str, expect: type[W]) -> W: ...

    @overload
    def _one(self, selector: str) -> Widget: ...

    def _one(self, selector: str | type[Widget], expect: type[Widget] = Widget) -> Widget:
        """A widget of the screen, found once: the screen's widgets live as
        long as it does, and a query walks the whole screen every time
        (a redraw asks for a dozen of them)."""
        found = self._found.get(selector)
        if found is None or not found.is_attached:
            if isinstance(selector, str):
                found = self.query_one(selector, expect)
            else:
                found = self.query_one(selector)
            self._found[selector] = found
        return found

    def compose(self) -> ComposeResult:
        # The layout's classes before the widgets mount: set afterwards, each
        # would restyle every widget of the screen once more.
        size = self.layout_size = _size_of(self.app.size.width, self.app.size.height)
        self.add_class(*_classes_of(size))

        def panel(name: str) -> str:
            return "panel shown" if name == self.shown_panel else "panel"

        yield StatusBar(id="status")
        with Horizontal(id="top"):
            yield VillainBoard(id="villain", classes="box")
            with Horizontal(id="side"):
                yield TurnOrderBoard(id="turn-order", classes="box")
                yield DragonBallTracker(id="balls", classes="box")
        yield Static(id="panel-tabs")
        with Grid(id="body"):
            with VerticalScroll(id="markets", classes=panel("markets")):
                yield MarketRows(id="market-rows", classes="box")
            with VerticalScroll(id="characters", classes=panel("characters")):
                for ch in self.view.characters:
                    yield CharacterBoard(ch.id, id=f"char-{ch.id}", classes="box")
            with Vertical(id="actions", classes=panel("actions")):
                yield ActionPanel(id="action-list")
            yield TableLog(id="log", classes=panel("log"))
        yield HandBoard(id="hand", classes="box")
        yield Static("", id="prompt")
        yield Static("", id="card-line")
        yield KeyBar(id="keys")

    def on_mount(self) -> None:
        self.title = f"dbdeck — {self.view.title}"
        self._one(KeyBar).keys = self.KEYS
        self._apply_size(self.size.width, self.size.height)
        self.refresh_table()
        self._one(HandBoard).focus()

    def on_resize(self) -> None:
        self._apply_size(self.size.width, self.size.height)

    def _apply_size(self, width: int, height: int) -> None:
        size = self.layout_size = _size_of(width, height)
        wanted = _classes_of(size)
        # One restyle for all the classes (each call restyles every widget).
        self.remove_class(*({"-narrow", "-medium", "-wide", "compact"} - wanted))
        self.add_class(*wanted)
        shown = self.shown_panel
        if size == "medium" and shown == "actions":
            shown = self.shown_panel = "markets"
        for panel in BODY:
            self._one(f"#{panel}").set_class(panel == shown, "shown")
        tabs = Text()
        for panel, (key, name) in PANELS.items():
            if size == "medium" and panel == "actions":
                continue
            on = panel == shown
            # Brackets mark the shown tab without colour (NO_COLOR, ASCII).
            label = f"[{key} {name}]" if on else f" {key} {name} "
            tabs.append(label, style="bold reverse" if on else "dim")
        self._say("#panel-tabs", tabs)

    def action_panel(self, panel: str) -> None:
        """Go to a panel (shown first where the panels do not all fit)."""
        if panel in ("markets", "characters", "log") or (
            panel == "actions" and self.layout_size == "narrow"
        ):
            self.shown_panel = panel
            self._apply_size(self.size.width, self.size.height)
        target: Widget
        if panel == "markets":
            target = self._one(MarketRows)
        elif panel == "characters":
            boards = list(self.query(CharacterBoard))
            active = [b for b in boards if b.panel is not None and b.panel.active]
            target = (active or boards)[0]
        elif panel == "actions":
            target = self._one(ActionPanel)
        elif panel == "villain":
            target = self._one(VillainBoard)
        elif panel == "log":
            target = self._one(TableLog)
        else:
            target = self._one(HandBoard)
        target.focus()

    @property
    def closing(self) -> bool:
        """Whether the app was asked to close (a quit, a fatal error): from
        then on the table sends nothing and opens nothing, whatever is still
        queued (the callback of a dialog answered just before, a Villain
        step's timer)."""
        return self.app.return_code is not None

    # --- drawing -------------------------------------------------------------------------

    def refresh_table(self) -> None:
        """Draw the backend's view, list its offers, and open whatever the
        game waits for: a hand-off, a decision, the next step of the Villain."""
        if self.closing:
            return
        view = self.view = self.backend.view()
        self.offers = self.backend.legal_actions()
        lines = self.backend.events()
        if lines:  # something happened: say what it did, if anything
            self.outcome = outcome_of(lines)
        self._draw(view)
        self._fill_actions()
        self.write_lines(lines)
        self._close_stale_decision()
        if view.over:
            self._announce_end()
            return
        if view.paused:
            self.set_timer(self.seating.pace, self._continue_villain)
            return
        handoff = self.backend.handoff()
        if handoff is not None:
            if not isinstance(self.app.screen, HandoffScreen):
                self.app.push_screen(HandoffScreen(handoff.player, handoff.characters), self._taken)
            return
        if view.decision is not None and self._decision_offers():
            if view.decision.moot is not None:
                self._answer_moot(view)
                return
            # Another player's turn is announced before its first question.
            if not self._announce_turn():
                self._open_decision()
        else:
            self._announce_turn()

    def _draw(self, view: TableView) -> None:
        self._one(VillainBoard).panel = view.villain
        self._one(TurnOrderBoard).shown = TurnOrderShown.of(view.turn_order, view.characters)
        self._one(DragonBallTracker).balls = view.balls
        self._one(StatusBar).shown = StatusShown(
            view.turn_order.round, view.turn_order.left, self._whose_turn(view), view.balls
        )
        self._one(MarketRows).shown = MarketsShown(view.markets, self._ball_purchase(view))
        for panel in view.characters:
            self._one(f"#char-{panel.id}", CharacterBoard).shown = CharacterShown(
                panel,
                self.seating.player(panel.id) if self.seating.players else "",
                bool(view.villain.aggro) and view.villain.aggro == panel.name,
                away=panel.id in self.seating.away,
            )
        self._one(HandBoard).shown = HandShown(
            self.shown_hand(view),
            self._hand_note(view),
            frozenset(n.uid for n in view.card_notes if not self._card_offers(n.uid)),
        )

    def _whose_turn(self, view: TableView) -> str:
        if view.over:
            return "The game is over"
        if view.active == "villain":
            return f"{view.villain.name}'s turn"
        board = view.character(view.active)
        if board is None:
            return ""
        player = self.seating.players.get(board.id, "")
        return f"{board.name}'s turn" + (f" ({player})" if player else "")

    def _ball_purchase(self, view: TableView) -> BallPurchase | None:
        board = view.character(view.active)
        if board is None:
            return None
        possible = any(o.action.type == "buy-dragon-ball" for o in self.offers)
        return BallPurchase(board.ball_cost, possible, view.why("buy-dragon-ball"))

    @staticmethod
    def shown_hand(view: TableView) -> HandView | None:
        """The hand the hand panel shows: the active Character's, when this
        seat may see it, else the seat's first."""
        return view.hand(view.active) or (view.hands[0] if view.hands else None)

    def _hand_note(self, view: TableView) -> str:
        handoff = self.backend.handoff()
        if handoff is not None:
            return (
                f"{handoff.player}'s turn: every hand stays hidden until "
                f"{handoff.player} takes the keyboard."
            )
        if view.seat is None and self.backend.shared:
            return "You are watching: no hand is shown."
        if view.active == "villain":
            return f"{view.villain.name} is playing."
        return "Hands are hidden between turns."

    def status_text(self, view: TableView) -> Text:
        """The prompt: who acts and the next sensible steps, or what the
        table waits for."""
        if view.paused:
            return Text(
                f"{view.villain.name} is playing… (Space: show the rest at once)", style="italic"
            )
        if view.over:
            return Text("The game is over.", style="bold")
        if self.backend.handoff() is not None:
            return Text("Pass the keyboard.", style="italic")
        decision = view.decision
        if decision is not None:
            if self._decision_offers():
                return Text(decision.prompt, style="bold")
            return Text(f"Waiting for {self._decider(view)} to decide…", style="italic")
        actor = view.actor
        if not actor:
            return Text("")
        board = view.character(actor)
        who = f"{self.seating.named(actor)} — {board.name if board else actor}"
        if not self.offers:
            return Text(f"Waiting for {who}", style="italic")
        text = Text(f"{who}: ", style="bold")
        text.append(self.next_steps())
        return text

    def next_steps(self) -> str:
        """The next sensible steps, with their keys: ``play Energy (p), buy
        (b), attack (a), end the turn (e)``."""
        kinds = {o.action.type for o in self.offers}
        steps = []
        for kind, words in (
            ("play-energy", "play Energy (p)"),
            ("play", "put a card into play (Enter on it)"),
            ("prepare", "prepare (t)"),
            ("boost", "boost (o)"),
            ("attack", "attack (a)"),
            ("buy", "buy (b)"),
        ):
            if kind in kinds:
                steps.append(words)
        steps = steps[:4]
        if "end-turn" in kinds:
            steps.append("end the turn (e)")
        return ", ".join(steps) if steps else "choose an action"

    def _decider(self, view: TableView) -> str:
        decision = view.decision
        assert decision is not None
        if decision.decider == "players":
            return "the players"
        return f"{self.seating.named(decision.decider)} — {decision.decider_name}"

    def _say(self, where: str, text: Text) -> None:
        """Show ``text`` in a line of the screen, when it changed (an update
        lays the screen out again)."""
        line = self._one(where, Static)
        shown = line.content
        if isinstance(shown, Text) and shown.plain == text.plain and shown.spans == text.spans:
            return
        show_fitted(line, text)

    def _fill_actions(self) -> None:
        self._say("#prompt", self.status_text(self.view))
        passing = self.backend.handoff() is not None
        if passing:
            # The card under the cursor may be of a hand no longer shown.
            self._focus = None
        keys = HandoffScreen.KEYS if passing else self.KEYS
        self._one(KeyBar).keys = self.OVER_KEYS if self.view.over else keys
        # Said again from the view now: a cost, an Energy count or an offer
        # said before this change may no longer hold.
        self.focused_card = self.describe(*self._focus) if self._focus is not None else ""
        self._say("#card-line", self.outcome or Text(self.focused_card, style="dim"))
        self._one(ActionPanel).offers = () if self.view.decision is not None else tuple(self.offers)

    # --- the log -------------------------------------------------------------------------

    def write_lines(self, lines: Iterable[LogLine]) -> None:
        """Write log lines, styled by their kind."""
        log = self._one(TableLog)
        for line in lines:
            self._since.append(line)
            log.add(line)

    def say(self, text: Text) -> None:
        """A line of the table's own in the log (chat, comings and goings)."""
        self._one(TableLog).say(text)

    # --- acting --------------------------------------------------------------------------

    def play(self, action: Action) -> Outcome:
        """Send an action; a refused one shows the reason."""
        if self.closing:
            return Outcome(False, "The table is closing.")
        self._since = []
        self._suggested = None
        outcome = self.backend.send(action)
        if not outcome.accepted:
            self.notify(
                outcome.message,
                title="Error" if outcome.error else "Not allowed",
                severity="error" if outcome.error else "warning",
                timeout=30 if outcome.error else 5,
            )
        self.refresh_table()
        return outcome

    def take(self, offer: Offer) -> None:
        """Take an offer chosen by the player (from the list, the palette, a
        card's menu): ending the turn asks first when something is left."""
        if offer.action.type == "end-turn":
            self.end_turn(offer.action)
        elif offer.waste and self._asks():
            self._confirm_waste(offer)
        else:
            self.play(offer.action)

    def _asks(self) -> bool:
        """Whether a move that wastes something is confirmed first (the
        player's setting, and the table's)."""
        return self.settings.confirm_end_turn and self.seating.confirm_end_turn

    def _confirm_waste(self, offer: Offer) -> None:
        """Ask before a move the engine says would waste something."""

        def answer(choice: int | None) -> None:
            if choice == 1:
                self.play(offer.action)

        self.app.push_screen(
            DecisionDialog(
                f"{offer.label}?",
                offer.waste,
                ["Keep playing", f"{offer.label} all the same"],
                cancellable=True,
            ),
            answer,
        )

    @on(ActionPanel.Chosen)
    def _entry_chosen(self, event: ActionPanel.Chosen) -> None:
        self.take_entry(event.entry)

    def take_entry(self, entry: Entry) -> None:
        """A line of the action list: its action, or a choice among its
        actions (a target, a slot, a market card)."""
        if entry.same:
            self.take(entry.offers[0])
            return
        title = entry.label.removesuffix(" ...").removesuffix(" …")
        self.choose_offer(title, entry.prompt, list(entry.offers))

    def choose_offer(self, title: str, prompt: str, offers: list[Offer]) -> None:
        """A dialog to choose one of ``offers``, each with what it would do."""
        labels = [
            o.label + (f" — {o.preview}" if o.preview else "") for o in self._told_apart(offers)
        ]

        def done(index: int | None) -> None:
            if index is not None:
                self.take(offers[index])

        dialog = DecisionDialog(title, prompt, labels, cancellable=True)
        self.app.push_screen(dialog, done)

    def _told_apart(self, offers: list[Offer]) -> list[Offer]:
        """The offers with labels no two alike: where two read the same
        (two Guards), each names its target with its place and health."""
        seen = [o.label for o in offers]
        return [
            dataclasses.replace(o, label=f"{o.label} ({self.view.target_name(o.action.target)})")
            if seen.count(o.label) > 1 and o.action.target
            else o
            for o in offers
        ]

    def _of_kind(self, kind: str) -> list[Offer]:
        return [o for o in self.offers if o.action.type == kind]

    def _nothing(self, kind: str, fallback: str = "") -> None:
        """Say why a key does nothing: the engine's reason for ``kind``."""
        if self.backend.handoff() is not None:
            self.notify("Pass the keyboard first.", severity="warning")
            return
        reason = self.view.why(kind) or self._not_now() or fallback
        self.notify(reason or "Not possible now.", title="Not possible", severity="warning")

    def _not_now(self) -> str:
        """Why this screen may not act at all now, from what it shows."""
        view = self.view
        if view.over:
            return "The game is over."
        if view.paused or view.active == "villain":
            return f"It is {view.villain.name}'s turn."
        if not self.offers:
            board = view.character(view.actor)
            if board is not None:
                return f"It is {self.seating.player(board.id)}'s turn, with {board.name}."
            return "Nobody at this screen may act now."
        if view.decision is not None:
            return f"A decision comes first: {view.decision.prompt}"
        return ""

    def action_end_turn(self) -> None:
        """End the turn (asking first when Energy or playable cards are left)."""
        offers = self._of_kind("end-turn")
        if not offers:
            self._nothing("end-turn", "It is not your turn to end.")
            return
        self.end_turn(offers[0].action)

    def end_turn(self, action: Action) -> None:
        """End the turn; with something left undone, ask first (unless the
        player turned the question off)."""
        left = self.view.left_undone
        if not left or not self._asks():
            self.play(action)
            return
        board = self.view.character(self.view.active)
        name = board.name if board is not None else "this Character"
        body = f"{name} could still: " + "; ".join(left) + "."

        def answer(choice: int | None) -> None:
            if choice == 2:
                self.settings.confirm_end_turn = False
                save_settings(self.settings)
                self.notify("The end of a turn is no longer confirmed (S: settings).")
            if choice in (1, 2):
                self.play(action)

        self.app.push_screen(
            DecisionDialog(
                f"End {name}'s turn?",
                body,
                ["Keep playing", "End the turn", "End the turn, and stop asking"],
                cancellable=True,
            ),
            answer,
        )

    def action_play_energy(self) -> None:
        """Play every Energy card of the hand (one per view at a shared table)."""
        played = 0
        while offers := self._of_kind("play-energy"):
            if not self.play(offers[0].action).accepted:
                break
            played += 1
            if self.backend.shared:
                break
        if not played:
            self._nothing("play-energy")

    def action_attack(self) -> None:
        """Attack: with the cards selected in the hand (Space), choose the
        target; else build an attack or a Combo in a dialog."""
        attacks = self._of_kind("attack")
        if not attacks:
            self._nothing("attack")
            return
        chosen = self._one(HandBoard).selected
        if chosen:
            wanted = tuple(sorted(chosen))
            offers = [o for o in attacks if tuple(sorted(o.action.cards)) == wanted]
            if not offers:
                names = " + ".join(self._card_name(u) for u in wanted)
                self.notify(
                    f"{names} cannot attack together: only Physical Techniques form a "
                    "Combo (a healing Technique is used alone).",
                    title="Not possible",
                    severity="warning",
                )
                return
            names = " + ".join(self._card_name(u) for u in wanted)
            self.choose_offer(f"Attack with {names}", "Which target?", offers)
            return

        def done(action: Action | None) -> None:
            offer = next((o for o in attacks if o.action == action), None)
            if offer is not None:
                self.take(offer)

        self.app.push_screen(ComboDialog(self.view, attacks, self.backend.catalog), done)

    def _pick(
        self,
        title: str,
        prompt: str,
        offers: list[Offer],
        labels: list[str] | None = None,
        kind: str = "",
    ) -> None:
        """A dialog to choose one of ``offers`` (then played)."""
        if not offers:
            self._nothing(kind, f"No {title.lower()} is possible now.")
            return
        if len(offers) == 1 and offers[0].action.type in ONE_WAY:
            # One free Time slot, one Energy card to boost with: nothing to
            # choose, so nothing is asked; the table says what it did.
            self.notify(f"{offers[0].label} (the only way).", title=title, timeout=4)
            self.take(offers[0])
            return
        shown = labels or [o.label + (f" — {o.preview}" if o.preview else "") for o in offers]

        def done(index: int | None) -> None:
            if index is not None:
                self.take(offers[index])

        self.app.push_screen(DecisionDialog(title, prompt, shown, cancellable=True), done)

    def _pick_card_then(self, title: str, prompt: str, kind: str, key: str, then: str) -> None:
        """Choose a card (field ``key`` of the actions), then one of its actions."""
        offers = self._of_kind(kind)
        cards = sorted({getattr(o.action, key) for o in offers})
        if len(cards) <= 1:
            self._pick(title, then, offers, kind=kind)
            return

        def chosen(index: int | None) -> None:
            if index is None:
                return
            matching = [o for o in offers if getattr(o.action, key) == cards[index]]
            if len(matching) == 1:
                # The card was the choice: its one way (a Technique's one
                # free Time slot) needs no second question.
                self.take(matching[0])
                return
            self._pick(title, then, matching)

        names = [self._card_name(uid) for uid in cards]
        self.app.push_screen(DecisionDialog(title, prompt, names, cancellable=True), chosen)

    def _card_name(self, uid: int | None) -> str:
        card = self.view.card(uid) if uid is not None else None
        return card.name if card is not None else "a card"

    def action_prepare(self) -> None:
        """Prepare an Energy Technique: choose it, then its Time slot."""
        self._pick_card_then(
            "Prepare", "Which Energy Technique?", "prepare", "card", "Which Time slot?"
        )

    def action_boost(self) -> None:
        """Attach a booster: choose the prepared Technique, then the Energy card."""
        self._pick_card_then(
            "Boost",
            "Which prepared Technique?",
            "boost",
            "on",
            "Which Energy card goes beneath it?",
        )

    def action_steal(self) -> None:
        """Attempt a Steal: choose how many dice, with the odds of each."""
        offers = self._of_kind("steal")
        aimed = any(o.action.target for o in offers)
        self._pick(
            "Steal",
            "How many Steal dice (1 Energy each), and from whom? The dice take Dragon Balls "
            "from the one you choose first, then from the others that hold some."
            if aimed
            else "How many Steal dice (1 Energy each)? The dice take Dragon Balls from "
            f"{self.view.villain.name} first, then the Minions that hold some.",
            offers,
            [f"{o.label}: {o.preview}" if o.preview else o.label for o in offers],
            kind="steal",
        )

    def action_buy_ball(self) -> None:
        """Buy an unclaimed Dragon Ball (its cost is on the Character board)."""
        offers = self._of_kind("buy-dragon-ball")
        if not offers:
            self._nothing("buy-dragon-ball")
            return
        self.take(offers[0])

    def action_exhaust(self) -> None:
        """Exhaust a card in play for its effect: choose the card."""
        self._pick(
            "Exhaust",
            "Which card? Each says what its effect does.",
            self._of_kind("exhaust"),
            kind="exhaust",
        )

    def action_ability(self) -> None:
        """Use the Character's special ability."""
        offers = self._of_kind("ability")
        if not offers:
            self._nothing("ability")
            return
        self.take(offers[0])

    def action_buy(self) -> None:
        """Go to the markets, on the first card the active Character can buy
        (saying why, when none)."""
        self.action_panel("markets")
        rows = self._one(MarketRows)
        buyable = {o.action.card for o in self._of_kind("buy")}
        for index, item in enumerate(rows.items):
            if item.uid in buyable:
                rows.cursor = index
                rows.action_move(0)
                return
        self._nothing("buy")

    def _continue_villain(self) -> None:
        """Play the next step of a paused Villain turn."""
        if not self.closing and self.backend.view().paused:
            self._report(self.backend.resume())
            self.refresh_table()

    def action_space(self) -> None:
        """Space: during the Villain's turn, show the rest of it at once;
        else what Space does where the focus is (select a card for a Combo)."""
        if self.view.paused or self.backend.view().paused:
            self.action_skip()
            return
        focused = self.focused
        if isinstance(focused, HandBoard):
            focused.action_select()

    def action_skip(self) -> None:
        """Play the rest of the Villain's turn at once."""
        while not self.closing and self.backend.view().paused:
            if not self._report(self.backend.resume()):
                break
        self.refresh_table()

    def _report(self, outcome: Outcome) -> bool:
        if not outcome.accepted:
            self.notify(outcome.message, title="Error", severity="error", timeout=30)
        return outcome.accepted

    def action_undo(self) -> None:
        """Undo the last action, back to the last revealed hidden information."""
        if self.closing:
            return
        outcome = self.backend.undo()
        self.notify(
            outcome.message, title="Undo", severity="information" if outcome.accepted else "warning"
        )
        self.refresh_table()

    def action_settings(self) -> None:
        """The table's settings: ask before a turn ends, or not."""
        ask = self.settings.confirm_end_turn
        labels = [
            "Ask before a move that wastes something (ending a turn with Energy, cards or"
            f" an ability left; an attack for no damage): {'on' if ask else 'off'}"
            " (Enter to switch)",
            "Close",
        ]

        def answer(choice: int | None) -> None:
            if choice == 0:
                self.settings.confirm_end_turn = not ask
                save_settings(self.settings)
                self.notify(f"Ask before a wasted move: {'off' if ask else 'on'}.")

        self.app.push_screen(DecisionDialog("Settings", "", labels, cancellable=True), answer)

    def action_suggest(self) -> None:
        """The coach: the bot's move now, highlighted, and why."""
        hint = self.backend.suggest()
        if hint.action is None:
            self.notify(hint.why, title="Coach", severity="information")
            return
        self.app.clear_notifications()
        self.notify(f"{hint.label}. {hint.why}", title="Coach suggests", timeout=8)
        listing = self._one(ActionPanel)
        offer = next((o for o in self.offers if o.action == hint.action), None)
        self._suggested = offer
        index = listing.index_of(offer) if offer is not None else None
        if index is not None:
            if self.layout_size == "narrow":
                self.action_panel("actions")
            listing.highlighted = index
            listing.focus()

    # --- touching the cards ----------------------------------------------------------------

    def _card_offers(self, uid: int) -> list[Offer]:
        """The offers that name a card (as the card itself, or the card a
        booster or Energy goes on; attacks with this card alone)."""
        found = []
        for offer in self.offers:
            action = offer.action
            if action.type == "attack":
                if action.cards == (uid,):
                    found.append(offer)
            elif action.type == "give-ball":
                if action.source == f"a:{uid}":  # an Ally giving its Dragon Balls
                    found.append(offer)
            elif uid in (action.card, action.on) or uid in action.cards:
                found.append(offer)
        return found

    @on(CardFocused)
    def _card_focused(self, event: CardFocused) -> None:
        """Say what the card under the cursor is, and what it can do now."""
        self._focus = (event.uid, event.where) if event.uid is not None else None
        self.focused_card = self.describe(event.uid, event.where) if event.uid is not None else ""
        if event.by_key or self.outcome is None:
            self.outcome = None
            self._say("#card-line", Text(self.focused_card, style="dim"))

    def describe(self, uid: int, where: str) -> str:
        """One line on a card of the table: what it is, what it can do, why not."""
        view = self.view
        if uid == BUY_BALL:
            board = view.character(view.active)
            cost = f"{board.ball_cost} Energy" if board is not None else "its cost"
            why = view.why("buy-dragon-ball")
            return f"An unclaimed Dragon Ball: {cost}. " + (why or "Enter (or d) to buy it.")
        card = view.card(uid)
        if card is None:
            return ""
        said = [card.name]
        if card.facts:
            said[0] += f" ({card.facts})"
        if where.startswith("market:"):
            offered = next(
                (m for market in view.markets for m in market.row if m.card.uid == uid), None
            )
            if offered is not None:
                said.append(offered.price)
                if offered.why_not and offered.why_not != offered.price:
                    said.append(offered.why_not)
        able = self._card_offers(uid)
        if able:
            said.append("Enter: " + ", ".join(o.label for o in able[:3]))
        if not where.startswith("market:"):
            for note in view.notes_for(uid):
                said.append(note.reason)
        if where == "hand" and card.physical:
            said.append("Space: select for a Combo")
        return ". ".join(s.rstrip(".") for s in said if s) + "."

    def _market_card(self, uid: int) -> MarketCard | None:
        return next(
            (m for market in self.view.markets for m in market.row if m.card.uid == uid), None
        )

    @on(HandBoard.Selected)
    def _hand_selected(self, event: HandBoard.Selected) -> None:
        """Space on a hand card: select it for a Combo (Physical Techniques only)."""
        hand = self._one(HandBoard)
        card = self.view.card(event.uid)
        if card is None:
            return
        if not card.physical:
            self.notify(
                f"{card.name} is not a Physical Technique: only Physical Techniques form a Combo.",
                severity="warning",
            )
            return
        hand.selected = hand.selected ^ {event.uid}
        names = [self._card_name(u) for u in sorted(hand.selected)]
        if names:
            self.notify(f"Combo: {' + '.join(names)}. Press a to choose its target.", timeout=4)

    @on(CardChosen)
    def _card_chosen(self, event: CardChosen) -> None:
        """A card was chosen: its menu of actions (those the rules forbid now
        shown disabled, with the engine's reason), or its text."""
        self.card_menu(event.uid, event.where)

    def card_menu(self, uid: int, where: str) -> None:
        """Open the menu of what one card can do now."""
        view = self.view
        if uid == BUY_BALL:
            self.action_buy_ball()
            return
        card = view.card(uid)
        if card is None:
            return
        offers = self._card_offers(uid)
        disabled: list[str] = []
        if where.startswith("market:"):
            offered = next(
                (m for market in view.markets for m in market.row if m.card.uid == uid), None
            )
            if offered is not None and not offered.buyable and offered.why_not:
                priced = f" ({offered.price})" if offered.cost is not None else ""
                disabled.append(f"Buy{priced}: {offered.why_not}")
        for note in view.notes_for(uid):
            if not any(o.action.type == note.kind for o in offers):
                kind = KIND_WORDS.get(note.kind, note.kind.replace("-", " ").capitalize())
                disabled.append(f"{kind}: {note.reason}")
        labels = [o.label + (f" — {o.preview}" if o.preview else "") for o in offers]
        read = f"Read {card.name} (i)"

        def done(index: int | None) -> None:
            if index is None:
                return
            if index < len(offers):
                self.take(offers[index])
            else:
                self.inspect_card(card.card)

        dialog = DecisionDialog(
            card.name,
            self.describe(uid, where),
            [*labels, read],
            cancellable=True,
            disabled=disabled,
        )
        self.app.push_screen(dialog, done)

    # --- looking at cards ------------------------------------------------------------------

    def inspect_entries(self) -> list[tuple[str, str]]:
        """Every face-up card of the view, labelled by where it lies."""
        view = self.view
        entries: list[tuple[str, str]] = []
        hand = self.shown_hand(view)
        if hand is not None:
            entries += [(f"Hand: {c.name}", c.card) for c in hand.cards]
        for market in view.markets:
            entries += [(f"{market.title}: {m.card.name}", m.card.card) for m in market.row]
        for ch in view.characters:
            entries.append((f"Character: {ch.name}", ch.id))
            for unit in (*ch.allies, *ch.equipment, *ch.training):
                entries.append((f"{ch.name}: {unit.card.name}", unit.card.card))
            for prepared in ch.time_track:
                if prepared is not None:
                    entries.append(
                        (f"{ch.name} Time Track: {prepared.card.name}", prepared.card.card)
                    )
        villain = view.villain
        entries.append((f"Villain: {villain.name}", villain.card))
        entries += [(f"Minion: {m.card.name}", m.card.card) for m in villain.minions]
        for slot in villain.time_track:
            entries += [(f"Villain Time Track: {c.name}", c.card) for c in slot]
        if view.location:
            entries.append((f"Location: {villain.location}", view.location))
        return entries

    def inspect_card(self, card_id: str) -> None:
        """Open the inspector on one card of the catalog."""
        card = self.backend.catalog.cards.get(card_id)
        if card is not None:
            self.app.push_screen(InspectorScreen(card, self.backend.catalog))

    def action_inspect(self) -> None:
        """Read a card in full: the one under the cursor, else choose one."""
        focused = self.focused
        item = getattr(focused, "current", lambda: None)()
        if item is not None and item.uid >= 0:
            card = self.view.card(item.uid)
            if card is not None:
                self.inspect_card(card.card)
                return

        def show(card_id: str | None) -> None:
            if card_id is not None:
                self.inspect_card(card_id)

        self.app.push_screen(CardPicker(self.inspect_entries()), show)

    def action_toggle_hide(self) -> None:
        """Hot-seat: hide or show hands between turns. Showing them is asked
        first: once a hand is on the screen it cannot be unseen."""
        if not self.seating.hide_hands:
            self._set_hidden(True)
            return

        def answer(choice: int | None) -> None:
            if choice == 1:
                self._set_hidden(False)

        dialog = DecisionDialog(
            "Show the hands?",
            "From now on the table shows the hand of whoever acts, to everyone "
            "at the screen, with no hand-off. The game keeps this when it is resumed.",
            ["Keep them hidden", "Show the hands"],
            cancellable=True,
        )
        self.app.push_screen(dialog, answer)

    def _set_hidden(self, hide: bool) -> None:
        outcome = self.backend.hide_hands(hide)
        self.notify(outcome.message, severity="information" if outcome.accepted else "warning")
        self.refresh_table()

    def action_help(self) -> None:
        """Every key of the table."""
        self.app.push_screen(HelpScreen())

    def action_rules(self) -> None:
        """The rules reference."""
        from dbdeck.tui.reference import RulesScreen

        self.app.push_screen(RulesScreen(self.backend.catalog))

    def action_cards(self) -> None:
        """The card browser."""
        from dbdeck.tui.reference import CardBrowser

        self.app.push_screen(CardBrowser(self.backend.catalog))

    # --- decisions, hot-seat, the end ----------------------------------------------------------

    def _decision_offers(self) -> list[Offer]:
        return self._of_kind("choose")

    def _open_decision(self) -> None:
        view = self.view
        decision = view.decision
        assert decision is not None
        screen = self.app.screen
        if isinstance(screen, DecisionDialog) and screen.for_decision:
            return
        if self._answered == view.version:
            return  # answered already (a vote waits for the other seats)
        if decision.decider == "players":
            title = "The players decide"
        else:
            title = f"{self.seating.player(decision.decider)} — {decision.decider_name} decides"
        labels = [
            o.label + (f" — {o.preview}" if o.preview else "") + ("  [Grim Rule]" if o.grim else "")
            for o in decision.options
        ]
        prompt = decision.prompt + (f"\n{decision.about}" if decision.about else "")
        version = view.version

        def answer(option: int | None) -> None:
            if option is None:
                return  # closed because the decision was answered elsewhere
            # Not asked again for this version while the answer travels (or a
            # vote waits for the other seats); asked again if it was refused.
            self._answered = version
            if not self.play(Action("choose", option=option)).accepted:
                self._answered = -1
                self.refresh_table()

        def coach() -> tuple[int | None, str]:
            hint = self.backend.suggest()
            option = hint.action.option if hint.action is not None else None
            return option, (f"{hint.label}. {hint.why}" if hint.label else hint.why)

        dialog = DecisionDialog(
            title,
            prompt,
            labels,
            for_decision=True,
            inspect=self.inspect_entries(),
            card=decision.about_card,
            coach=coach,
        )
        self.app.push_screen(dialog, answer)

    def ask_again(self) -> None:
        """Open the pending decision's dialog again even if this screen
        answered it at this version (a joined table that reconnected: the
        answer may not have reached the server)."""
        self._answered = -1
        self.refresh_table()

    def _close_stale_decision(self) -> None:
        """Close a decision dialog whose decision was answered elsewhere."""
        screen = self.app.screen
        if not isinstance(screen, DecisionDialog) or not screen.for_decision:
            return
        if self.view.decision is None or not self._decision_offers():
            screen.dismiss(None)

    def _answer_moot(self, view: TableView) -> None:
        """A decision whose answer cannot matter is answered without asking
        (a joined table; a local one never shows such a decision)."""
        decision = view.decision
        assert decision is not None and decision.moot is not None
        if self._answered == view.version:
            return
        self._answered = view.version
        self.say(Text(f"Not asked, as only one answer matters: {decision.prompt}", style="dim"))
        self.play(Action("choose", option=decision.moot))

    def _taken(self, _: None) -> None:
        if self.closing:
            return
        self._turn_of = self.view.active  # the hand-off announced the turn
        self.backend.take_keyboard()
        self.refresh_table()

    def _announce_turn(self) -> bool:
        """A new turn: a toast for the same player; for another player's
        turn, a banner that takes no key until read (turns chain: a key
        meant for one turn must never act on the next). Whether a banner
        now stands in the way (the table goes on once it is read)."""
        active = self.view.active
        if isinstance(self.app.screen, TurnBanner):
            return True
        if not self.announces_turns or active in ("", "villain") or active == self._turn_of:
            return False
        before, self._turn_of = self._turn_of, active
        board = self.view.character(active)
        name = board.name if board is not None else active
        hand = self._one(HandBoard)
        hand.selected = frozenset()
        if hand.display:
            hand.focus()  # a new turn starts from the hand
        if self.backend.shared:
            if self.view.hand(active) is not None:
                self.notify(f"Your turn: {name}", title="Your turn")
            return False
        player = self.seating.player(active)
        if not before:
            return False  # the first turn: the status line says whose it is
        if self.seating.player(before) == player or not self.offers:
            self.notify(f"{player} — {name}", title="Next turn")
            return False
        order = self.view.turn_order
        lines = [Text(f"{player}, it is your turn with {name}.")]
        if self._since:
            lines.append(Text("Since the last turn:", style="bold"))
            lines += [
                Text(f"  {line.text}", style=LOG_STYLES.get(line.kind, ""))
                for line in self._since[-8:]
            ]
        banner = TurnBanner(f"Round {order.round} — {name}'s turn", lines)
        self.app.push_screen(banner, lambda _: self.refresh_table())
        return True

    def _announce_end(self) -> None:
        view = self.view
        winner = "The Characters win!" if view.winner == "players" else f"{view.villain.name} wins."
        reason = view.reason[:1].upper() + view.reason[1:]
        self._one("#prompt", Static).update(Text(f"{winner} {reason}", style="bold"))
        from dbdeck.tui.summary import SummaryScreen

        if self._summed or not self.announces_turns:
            return
        self._summed = True

        def chosen(choice: str | None) -> None:
            after = getattr(self.app, "after_game", None)
            if choice and choice != "table" and after is not None:
                after(choice)

        self.app.push_screen(SummaryScreen(view, self.backend.tally(), self.seating), chosen)

    def action_summary(self) -> None:
        """Show the summary of a finished game again."""
        if not self.view.over:
            self.notify("The game is not over yet.", severity="warning")
            return
        self._summed = False
        self._announce_end()
