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

The screen composes, draws and routes keys; its parts do the rest, each in
a module of its own: the layout, the prompt's words, a card's line and
menu, the pickers, the end-of-turn question, decisions and announcements.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar, overload

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.actions import Action
from dbdeck.games.deckbuilding.engine.panels import HandView, LogLine, Offer, TableView
from dbdeck.games.deckbuilding.tui.play import (
    card_menu,
    describe,
    end_turn,
    keys,
    layout,
    looking,
    options,
    picking,
    prompt,
)
from dbdeck.games.deckbuilding.tui.play.announce import Announcer
from dbdeck.games.deckbuilding.tui.play.bot_moves import BotMoved, BotMoves
from dbdeck.games.deckbuilding.tui.play.decisions import Decisions
from dbdeck.games.deckbuilding.tui.play.keys import BINDINGS, KEYS, OVER_KEYS, Keys
from dbdeck.games.deckbuilding.tui.play.outcomes import outcome_of
from dbdeck.games.deckbuilding.tui.play.shown import Backend
from dbdeck.games.deckbuilding.tui.widgets import (
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
    show_fitted,
)
from dbdeck.tui.backend import Outcome
from dbdeck.tui.frames import HeldScreen
from dbdeck.tui.modal import Dialog
from dbdeck.tui.settings import load_settings

__all__ = ["TableScreen"]

W = TypeVar("W", bound=Widget)


class TableScreen(HeldScreen[None]):
    """A game in progress, as the seat at this screen may see it."""

    BINDINGS = BINDINGS
    KEYS: tuple[tuple[str, str], ...] = KEYS
    """The key bar, most important first (as many as fit show)."""
    OVER_KEYS: tuple[tuple[str, str], ...] = OVER_KEYS
    """The key bar once the game is over."""

    AUTO_FOCUS = "#hand"

    announces_turns = True
    """Whether a new turn is announced (a replay moves through turns silently)."""

    def __init__(self, backend: Backend) -> None:
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
        self._found: dict[str | type[Widget], Widget] = {}
        self._suggested: Offer | None = None
        """The coach's last suggestion (highlighted where it is offered)."""
        self.decisions = Decisions(self)
        """The game's decisions, asked once a version."""
        self.announcer = Announcer(self)
        """What the table says when a turn changes hands or the game ends."""
        self.bot_moves = BotMoves(self, backend, self._bot_played)
        """The bot's teammate moves, thought over on a worker thread."""

    @property
    def catalog(self) -> Catalog:
        """The game's cards."""
        catalog = self.backend.catalog
        assert isinstance(catalog, Catalog), "this table draws the deckbuilding game's cards"
        return catalog

    # --- layout ------------------------------------------------------------------------

    @overload
    def one(self, selector: type[W]) -> W: ...

    @overload
    def one(self, selector: str, expect: type[W]) -> W: ...

    @overload
    def one(self, selector: str) -> Widget: ...

    def one(self, selector: str | type[Widget], expect: type[Widget] = Widget) -> Widget:
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
        size = self.layout_size = layout.size_of(self.app.size.width, self.app.size.height)
        self.add_class(*layout.classes_of(size))

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
        self.one(KeyBar).keys = self.KEYS
        self._apply_size(self.size.width, self.size.height)
        self.refresh_table()
        self.one(HandBoard).focus()

    def on_resize(self) -> None:
        self._apply_size(self.size.width, self.size.height)

    def _apply_size(self, width: int, height: int) -> None:
        size = self.layout_size = layout.size_of(width, height)
        wanted = layout.classes_of(size)
        # One restyle for all the classes (each call restyles every widget).
        self.remove_class(*(layout.LAYOUT_CLASSES - wanted))
        self.add_class(*wanted)
        shown = self.shown_panel = layout.shown_panel(size, self.shown_panel)
        for panel in layout.BODY:
            self.one(f"#{panel}").set_class(panel == shown, "shown")
        self._say("#panel-tabs", layout.panel_tabs(size, shown))

    def action_panel(self, panel: str) -> None:
        """Go to a panel (shown first where the panels do not all fit)."""
        if layout.brings_into_sight(panel, self.layout_size):
            self.shown_panel = panel
            self._apply_size(self.size.width, self.size.height)
        target: Widget
        if panel == "markets":
            target = self.one(MarketRows)
        elif panel == "characters":
            boards = list(self.query(CharacterBoard))
            active = [b for b in boards if b.panel is not None and b.panel.active]
            target = (active or boards)[0]
        elif panel == "actions":
            target = self.one(ActionPanel)
        elif panel == "villain":
            target = self.one(VillainBoard)
        elif panel == "log":
            target = self.one(TableLog)
        else:
            target = self.one(HandBoard)
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
        self.offers = list(self.backend.legal_actions())
        lines = self.backend.events()
        if lines:  # something happened: say what it did, if anything
            self.outcome = outcome_of(lines)
        bot_moving = not (view.over or view.paused) and self.bot_moves.due(self.seating.pace)
        self._draw(view)
        self._fill_actions()
        self.write_lines(lines)
        self.decisions.close_stale()
        if view.over:
            self.announcer.end()
            return
        if view.paused:
            self.set_timer(self.seating.pace, self._continue_villain)
            return
        if bot_moving:  # the table redraws after each of the bot's moves
            return
        handoff = self.backend.handoff()
        if handoff is not None:
            from dbdeck.games.deckbuilding.tui.dialogs import HandoffScreen

            if not isinstance(self.app.screen, HandoffScreen):
                self.app.push_screen(
                    HandoffScreen(handoff.player, handoff.characters), self.announcer.taken
                )
            return
        if view.decision is not None and self.decisions.offers():
            if view.decision.moot is not None:
                self.decisions.answer_moot()
                return
            # Another player's turn is announced before its first question.
            if not self.announcer.turn():
                self.decisions.open()
        else:
            self.announcer.turn()

    def _draw(self, view: TableView) -> None:
        self.one(VillainBoard).panel = view.villain
        self.one(TurnOrderBoard).shown = TurnOrderShown.of(view.turn_order, view.characters)
        self.one(DragonBallTracker).balls = view.balls
        self.one(StatusBar).shown = StatusShown(
            view.turn_order.round,
            view.turn_order.left,
            prompt.whose_turn(view, self.seating),
            view.balls,
        )
        self.one(MarketRows).shown = MarketsShown(view.markets, self._ball_purchase(view))
        for panel in view.characters:
            self.one(f"#char-{panel.id}", CharacterBoard).shown = CharacterShown(
                panel,
                self.seating.seated(panel.id) if self.seating.players else "",
                bool(view.villain.aggro) and view.villain.aggro == panel.name,
                away=panel.id in self.seating.away,
            )
        self.one(HandBoard).shown = HandShown(
            self.shown_hand(view),
            prompt.hand_note(view, self.backend.handoff(), self.backend.shared),
            frozenset(n.uid for n in view.card_notes if not self._card_offers(n.uid)),
        )

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
        return looking.shown_hand(view)

    def status_text(self, view: TableView) -> Text:
        """The prompt: who acts and the next sensible steps, or what the
        table waits for."""
        return prompt.status_line(
            view,
            self.offers,
            self.seating,
            passing=self.backend.handoff() is not None,
            deciding=bool(self.decisions.offers()),
            bot=self.bot_moves.thinking.who if self.bot_moves.thinking is not None else "",
        )

    def _say(self, where: str, text: Text) -> None:
        """Show ``text`` in a line of the screen, when it changed (an update
        lays the screen out again)."""
        line = self.one(where, Static)
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
        self.one(KeyBar).keys = self.keys_now(passing)
        # Said again from the view now: a cost, an Energy count or an offer
        # said before this change may no longer hold.
        self.focused_card = self.describe(*self._focus) if self._focus is not None else ""
        self._say("#card-line", self.outcome or Text(self.focused_card, style="dim"))
        self.one(ActionPanel).offers = () if self.view.decision is not None else tuple(self.offers)

    def on_screen_suspend(self) -> None:
        """A dialog opened over the table: the bar names the one key every
        such dialog has (its own keys are written in it). A hand-off and a
        decision of the players keep the bar ``keys_now`` gives them."""
        top = self.app.screen
        if not isinstance(top, Dialog):
            return
        from dbdeck.games.deckbuilding.tui.dialogs import DecisionDialog, HandoffScreen, TurnBanner

        if isinstance(top, HandoffScreen):
            return
        if isinstance(top, DecisionDialog) and not top.cancellable:
            return  # the players' decisions: nothing closes them
        bar = keys.BANNER_KEYS if isinstance(top, TurnBanner) else keys.DIALOG_KEYS
        self.one(KeyBar).keys = bar

    def on_screen_resume(self) -> None:
        """Back at the table: the bar names the table's keys again."""
        if self.is_mounted and not self.closing:
            self.one(KeyBar).keys = self.keys_now(self.backend.handoff() is not None)

    def keys_now(self, passing: bool) -> Keys:
        """The key bar now: only the keys that work (a hand-off's, a
        decision's dialog's, the looking keys while another screen decides
        or plays its turn)."""
        view = self.view
        if view.over:
            return self.OVER_KEYS
        if passing:
            from dbdeck.games.deckbuilding.tui.dialogs import HandoffScreen

            return HandoffScreen.KEYS
        if view.decision is not None:
            if self.decisions.offers():
                return keys.deciding_keys(self.KEYS)
            return keys.waiting_keys(self.KEYS)
        if not self.offers:  # another seat's turn, or the Villain's
            return keys.waiting_keys(self.KEYS)
        return self.KEYS

    # --- the log -------------------------------------------------------------------------

    def write_lines(self, lines: Iterable[LogLine]) -> None:
        """Write log lines, styled by their kind."""
        log = self.one(TableLog)
        for line in lines:
            self.announcer.since.append(line)
            log.add(line)

    def say(self, text: Text) -> None:
        """A line of the table's own in the log (chat, comings and goings)."""
        self.one(TableLog).say(text)

    # --- acting --------------------------------------------------------------------------

    def play(self, action: Action) -> Outcome:
        """Send an action; a refused one shows the reason."""
        if self.closing:
            return Outcome(False, "The table is closing.")
        self.announcer.since = []
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
            end_turn.end_turn(self, offer.action)
        elif offer.waste and end_turn.asks(self):
            end_turn.confirm_waste(self, offer)
        else:
            self.play(offer.action)

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
        picking.choose_offer(self, title, prompt, offers)

    def _of_kind(self, kind: str) -> list[Offer]:
        return [o for o in self.offers if o.action.type == kind]

    def nothing(self, kind: str, fallback: str = "") -> None:
        """Say why a key does nothing: the engine's reason for ``kind``."""
        if self.backend.handoff() is not None:
            self.notify("Pass the keyboard first.", severity="warning")
            return
        reason = self.view.why(kind) or prompt.not_now(self.view, self.offers, self.seating)
        reason = reason or fallback
        self.notify(reason or "Not possible now.", title="Not possible", severity="warning")

    def action_end_turn(self) -> None:
        """End the turn (asking first when Energy or playable cards are left)."""
        offers = self._of_kind("end-turn")
        if not offers:
            self.nothing("end-turn", "It is not your turn to end.")
            return
        end_turn.end_turn(self, offers[0].action)

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
            self.nothing("play-energy")

    def action_attack(self) -> None:
        """Attack: with the cards selected in the hand (Space), choose the
        target; else build an attack or a Combo in a dialog."""
        picking.pick_attack(self, self.one(HandBoard).selected)

    def action_prepare(self) -> None:
        """Prepare an Energy Technique: choose it, then its Time slot."""
        picking.pick_card_then(
            self, "Prepare", "Which Energy Technique?", "prepare", "card", "Which Time slot?"
        )

    def action_boost(self) -> None:
        """Attach a booster: choose the prepared Technique, then the Energy card."""
        picking.pick_card_then(
            self,
            "Boost",
            "Which prepared Technique?",
            "boost",
            "on",
            "Which Energy card goes beneath it?",
        )

    def action_steal(self) -> None:
        """Attempt a Steal: choose how many dice, with the odds of each."""
        offers = self._of_kind("steal")
        picking.pick(
            self,
            "Steal",
            picking.steal_prompt(self.view, offers),
            offers,
            [f"{o.label}: {o.preview}" if o.preview else o.label for o in offers],
            kind="steal",
        )

    def action_buy_ball(self) -> None:
        """Buy an unclaimed Dragon Ball (its cost is on the Character board)."""
        offers = self._of_kind("buy-dragon-ball")
        if not offers:
            self.nothing("buy-dragon-ball")
            return
        self.take(offers[0])

    def action_exhaust(self) -> None:
        """Exhaust a card in play for its effect: choose the card."""
        picking.pick(
            self,
            "Exhaust",
            "Which card? Each says what its effect does.",
            self._of_kind("exhaust"),
            kind="exhaust",
        )

    def action_ability(self) -> None:
        """Use the Character's special ability."""
        offers = self._of_kind("ability")
        if not offers:
            self.nothing("ability")
            return
        self.take(offers[0])

    def action_buy(self) -> None:
        """Go to the markets, on the first card the active Character can buy
        (saying why, when none)."""
        self.action_panel("markets")
        rows = self.one(MarketRows)
        buyable = {o.action.card for o in self._of_kind("buy")}
        for index, item in enumerate(rows.items):
            if item.uid in buyable:
                rows.cursor = index
                rows.action_move(0)
                return
        self.nothing("buy")

    @on(BotMoved)
    def _bot_moved(self, moved: BotMoved) -> None:
        self.bot_moves.play(moved)

    def _bot_played(self, outcome: Outcome) -> None:
        """After each of the bot's moves: say what failed, if anything (a
        move thought over for a table that moved on is simply thought over
        again), and draw the table."""
        if outcome.error and not self.closing:
            self.notify(outcome.message, title="Error", severity="error", timeout=30)
        self.refresh_table()

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
        """The table's settings: ask before a move that wastes something, or not."""
        options.ask_settings(self)

    def action_suggest(self) -> None:
        """The coach: the bot's move now, highlighted, and why."""
        hint = self.backend.suggest()
        if hint.action is None:
            self.notify(hint.why, title="Coach", severity="information")
            return
        self.app.clear_notifications()
        self.notify(f"{hint.label}. {hint.why}", title="Coach suggests", timeout=8)
        listing = self.one(ActionPanel)
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
        return describe.card_offers(self.offers, uid)

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
        return describe.describe(self.view, self.offers, uid, where)

    @on(HandBoard.Selected)
    def _hand_selected(self, event: HandBoard.Selected) -> None:
        """Space on a hand card: select it for a Combo (Physical Techniques only)."""
        hand = self.one(HandBoard)
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
        names = [describe.card_name(self.view, u) for u in sorted(hand.selected)]
        if names:
            self.notify(f"Combo: {' + '.join(names)}. Press a to choose its target.", timeout=4)

    @on(CardChosen)
    def _card_chosen(self, event: CardChosen) -> None:
        """A card was chosen: its menu of actions (those the rules forbid now
        shown disabled, with the engine's reason), or its text."""
        self.card_menu(event.uid, event.where)

    def card_menu(self, uid: int, where: str) -> None:
        """Open the menu of what one card can do now."""
        card_menu.card_menu(self, uid, where)

    # --- looking at cards ------------------------------------------------------------------

    def inspect_entries(self) -> list[tuple[str, str]]:
        """Every face-up card of the view, labelled by where it lies."""
        return looking.face_up(self.view)

    def inspect_card(self, card_id: str) -> None:
        """Open the inspector on one card of the catalog."""
        card = self.backend.catalog.cards.get(card_id)
        if card is not None:
            from dbdeck.games.deckbuilding.tui.dialogs import InspectorScreen

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

        from dbdeck.games.deckbuilding.tui.dialogs import CardPicker

        self.app.push_screen(CardPicker(self.inspect_entries()), show)

    def action_toggle_hide(self) -> None:
        """Hot-seat: hide or show hands between turns (showing them is asked first)."""
        options.toggle_hide(self)

    def action_help(self) -> None:
        """Every key of the table."""
        from dbdeck.games.deckbuilding.tui.dialogs import HelpScreen

        self.app.push_screen(HelpScreen())

    def action_rules(self) -> None:
        """The rules reference."""
        from dbdeck.games.deckbuilding.tui.reference import RulesScreen

        self.app.push_screen(RulesScreen(self.backend.catalog))

    def action_cards(self) -> None:
        """The card browser."""
        from dbdeck.games.deckbuilding.tui.reference import CardBrowser

        self.app.push_screen(CardBrowser(self.backend.catalog))

    # --- decisions, the end ------------------------------------------------------------------

    def ask_again(self) -> None:
        """Open the pending decision's dialog again even if this screen
        answered it at this version (a joined table that reconnected: the
        answer may not have reached the server)."""
        self.decisions.forget_answer()
        self.refresh_table()

    def action_summary(self) -> None:
        """Show the summary of a finished game again."""
        self.announcer.summary_again()
