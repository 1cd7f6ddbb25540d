"""The table: every board element, the action list, the log, hot-seat turns.

The screen draws the ``TableView`` its backend gives it and offers the
backend's ``Offer``s; it never sees a ``Game``, so it can show only what the
seat at the screen may see. Keys turn into actions sent to the backend; a
refused one shows the engine's reason. The Villain's turn runs in the
engine's step mode on a local table: the engine stops after each step that
showed something, the table redraws, and the next step follows after
``pace`` seconds (Space plays the rest at once).
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from dbdeck.engine.actions import Action
from dbdeck.engine.table_view import GROUPS, HandView, LogLine, Offer, TableView
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
    CardChosen,
    CharacterBoard,
    HandBoard,
    MarketRows,
    TurnOrderBoard,
    VillainBoard,
)

__all__ = ["Seating", "TableScreen"]

COMPACT_WIDTH = 140
COMPACT_HEIGHT = 40

LOG_STYLES = {
    "damage": "red",
    "defeat": "bold red",
    "game-over": "bold",
    "reveal": "bold",
    "roll": "cyan",
    "balls": "yellow",
    "undo": "italic",
}
"""How the log draws each kind of line."""


class TableScreen(Screen[None]):
    """A game in progress, as the seat at this screen may see it."""

    BINDINGS = [
        Binding("e", "end_turn", "End turn"),
        Binding("p", "play_energy", "Play Energy"),
        Binding("a", "attack", "Attack"),
        Binding("b", "jump('Buy')", "Buy"),
        Binding("t", "prepare", "Prepare", show=False),
        Binding("o", "boost", "Boost", show=False),
        Binding("s", "steal", "Steal", show=False),
        Binding("i", "inspect", "Inspect"),
        Binding("h", "toggle_hide", "Hide hands", show=False),
        Binding("u", "undo", "Undo"),
        Binding("g", "suggest", "Suggest"),
        Binding("x", "settings", "Settings", show=False),
        Binding("space", "skip", "Skip", show=False),
        Binding("question_mark", "help", "Help"),
        Binding("r", "rules", "Rules"),
        Binding("c", "cards", "Cards", show=False),
        Binding("1", "panel('markets')", "Markets", show=False),
        Binding("2", "panel('characters')", "Characters", show=False),
        Binding("3", "panel('actions')", "Actions", show=False),
        Binding("4", "panel('log')", "Log", show=False),
        Binding("q", "app.quit", "Quit"),
    ]

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
        self.shown_panel = "actions"
        self._turn_of = ""
        self._answered = -1
        self._since: list[LogLine] = []
        """The log lines since this screen last acted (a turn's banner shows them)."""
        self.settings = load_settings()
        """The player's settings (asking before a turn ends …)."""

    # --- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield VillainBoard(id="villain", classes="box")
        yield TurnOrderBoard(id="turn-order", classes="box")
        yield HandBoard(self.backend.catalog, id="hand", classes="box")
        yield Static(id="panel-tabs")
        with Horizontal(id="body"):
            with VerticalScroll(id="markets", classes="panel"):
                yield MarketRows(id="market-rows", classes="box")
            with VerticalScroll(id="characters", classes="panel"):
                for ch in self.view.characters:
                    yield CharacterBoard(ch.id, id=f"char-{ch.id}", classes="box")
            with Vertical(id="actions", classes="panel"):
                yield Static("", id="prompt")
                yield OptionList(id="action-list")
            yield RichLog(id="log", classes="panel", wrap=True, markup=False, min_width=20)
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"dbdeck — {self.view.title}"
        self._apply_size(self.size.width, self.size.height)
        self.refresh_table()

    def on_resize(self) -> None:
        self._apply_size(self.size.width, self.size.height)

    def _apply_size(self, width: int, height: int) -> None:
        compact = width < COMPACT_WIDTH or height < COMPACT_HEIGHT
        self.set_class(compact, "compact")
        tabs = Text()
        for key, panel in enumerate(("markets", "characters", "actions", "log"), 1):
            self.query_one(f"#{panel}").set_class(panel == self.shown_panel, "shown")
            style = "bold reverse" if panel == self.shown_panel else "dim"
            tabs.append(f" {key} {panel.capitalize()} ", style=style)
            tabs.append(" ")
        self.query_one("#panel-tabs", Static).update(tabs)

    def action_panel(self, panel: str) -> None:
        """Compact layout: show one panel of the body."""
        self.shown_panel = panel
        self._apply_size(self.size.width, self.size.height)
        if panel == "actions":
            self.query_one("#action-list").focus()

    # --- drawing -------------------------------------------------------------------------

    def refresh_table(self) -> None:
        """Draw the backend's view, list its offers, and open whatever the
        game waits for: a hand-off, a decision, the next step of the Villain."""
        view = self.view = self.backend.view()
        self.offers = self.backend.legal_actions()
        self._draw(view)
        self._fill_actions()
        self.write_lines(self.backend.events())
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
            self._open_decision()
        else:
            self._announce_turn()

    def _draw(self, view: TableView) -> None:
        self.query_one(VillainBoard).panel = view.villain
        order = self.query_one(TurnOrderBoard)
        order.order = view.turn_order
        order.balls = view.balls
        self.query_one(MarketRows).markets = view.markets
        for panel in view.characters:
            self.query_one(f"#char-{panel.id}", CharacterBoard).panel = panel
        hand = self.query_one(HandBoard)
        hand.note = self._hand_note(view)
        hand.hand = self.shown_hand(view)

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
        """The line above the action list: who acts, or what the table waits for."""
        if view.paused:
            return Text(
                f"{view.villain.name} is playing… (Space: show the rest at once)", style="italic"
            )
        if view.over:
            return Text("")
        if self.backend.handoff() is not None:
            return Text("Pass the keyboard.", style="italic")
        decision = view.decision
        if decision is not None:
            if self._decision_offers():
                return Text("")
            return Text(f"Waiting for {self._decider(view)} to decide…", style="italic")
        actor = view.actor
        if not actor:
            return Text("")
        board = view.character(actor)
        who = f"{self.seating.player(actor)} — {board.name if board else actor}"
        if not self.offers:
            return Text(f"Waiting for {who}", style="italic")
        return Text(f"{who}: choose an action", style="bold")

    def _decider(self, view: TableView) -> str:
        decision = view.decision
        assert decision is not None
        if decision.decider == "players":
            return "the players"
        return f"{self.seating.player(decision.decider)} — {decision.decider_name}"

    def _fill_actions(self) -> None:
        listing = self.query_one("#action-list", OptionList)
        listing.clear_options()
        self.query_one("#prompt", Static).update(self.status_text(self.view))
        if self.view.decision is not None:
            return
        options: list[Option] = []
        for group, _kinds in GROUPS:
            members = [(i, o) for i, o in enumerate(self.offers) if o.group == group]
            if not members:
                continue
            options.append(Option(Text(f"— {group} —", style="bold"), disabled=True))
            options += [Option(o.label, id=str(i)) for i, o in members]
        listing.add_options(options)
        # Nothing is highlighted after a change: a stray Enter (one more than
        # a dialog needed) must never play whatever action now sits there.
        listing.highlighted = None

    # --- the log -------------------------------------------------------------------------

    def write_lines(self, lines: Iterable[LogLine]) -> None:
        """Write log lines, styled by their kind."""
        log = self.query_one("#log", RichLog)
        for line in lines:
            self._since.append(line)
            log.write(Text(line.text, style=LOG_STYLES.get(line.kind, "")))

    def say(self, text: Text) -> None:
        """A line of the table's own in the log (chat, comings and goings)."""
        self.query_one("#log", RichLog).write(text)

    # --- acting --------------------------------------------------------------------------

    def play(self, action: Action) -> Outcome:
        """Send an action; a refused one shows the reason."""
        self._since = []
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

    @on(OptionList.OptionSelected, "#action-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.take(self.offers[int(event.option.id)])

    def take(self, offer: Offer) -> None:
        """Take an offer chosen by the player (from the list, the palette, a
        card's menu): ending the turn asks first when something is left."""
        if offer.action.type == "end-turn":
            self.end_turn(offer.action)
        else:
            self.play(offer.action)

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

    def left_undone(self) -> list[str]:
        """What the active Character could still do this turn, in words (the
        end-turn confirmation lists it)."""
        left: list[str] = []
        hand = self.view.hand(self.view.active)
        if hand is not None and hand.energy:
            left.append(f"{hand.energy} Energy unspent")
        energy = self._of_kind("play-energy")
        if energy:
            cards = len({o.action.card for o in energy})
            left.append(f"{cards} Energy card{'s' if cards > 1 else ''} still in hand")
        for kind, verb in (("play", "put into play"), ("prepare", "prepare")):
            names = sorted(
                {
                    self._card_name(o.action.card)
                    for o in self._of_kind(kind)
                    if o.action.card is not None
                }
            )
            if names:
                left.append(f"{verb} {', '.join(names)}")
        attacks = sorted(
            {self._card_name(u) for o in self._of_kind("attack") for u in o.action.cards}
        )
        if attacks:
            left.append(f"attack with {', '.join(attacks)}")
        if self._of_kind("boost"):
            left.append("boost a prepared Technique")
        return left

    def end_turn(self, action: Action) -> None:
        """End the turn; with something left undone, ask first (unless the
        player turned the question off)."""
        left = self.left_undone()
        if not left or not (self.settings.confirm_end_turn and self.seating.confirm_end_turn):
            self.play(action)
            return
        board = self.view.character(self.view.active)
        name = board.name if board is not None else "this Character"
        body = f"{name} could still: " + "; ".join(left) + "."

        def answer(choice: int | None) -> None:
            if choice == 2:
                self.settings.confirm_end_turn = False
                save_settings(self.settings)
                self.notify("The end of a turn is no longer confirmed (x: settings).")
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

    def action_settings(self) -> None:
        """The table's settings: ask before a turn ends, or not."""
        ask = self.settings.confirm_end_turn
        labels = [
            f"Ask before ending a turn with Energy or cards left: {'on' if ask else 'off'}"
            " (Enter to switch)",
            "Close",
        ]

        def answer(choice: int | None) -> None:
            if choice == 0:
                self.settings.confirm_end_turn = not ask
                save_settings(self.settings)
                self.notify(f"Ask before ending a turn: {'off' if ask else 'on'}.")

        self.app.push_screen(DecisionDialog("Settings", "", labels, cancellable=True), answer)

    def action_suggest(self) -> None:
        """The coach: the bot's move now, highlighted, and why."""
        hint = self.backend.suggest()
        if hint.action is None:
            self.notify(hint.why, title="Coach", severity="information")
            return
        self.notify(f"{hint.label}. {hint.why}", title="Coach suggests", timeout=15)
        listing = self.query_one("#action-list", OptionList)
        for index in range(listing.option_count):
            option = listing.get_option_at_index(index)
            if option.id is not None and self.offers[int(option.id)].action == hint.action:
                if self.has_class("compact"):
                    self.action_panel("actions")
                listing.highlighted = index
                listing.focus()
                return

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
        """Build an attack or a Combo, then choose its target."""
        attacks = self._of_kind("attack")
        if not attacks:
            self._nothing("attack")
            return

        def done(action: Action | None) -> None:
            if action is not None:
                self.play(action)

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
        shown = labels or [o.label for o in offers]

        def done(index: int | None) -> None:
            if index is not None:
                self.play(offers[index].action)

        self.app.push_screen(DecisionDialog(title, prompt, shown, cancellable=True), done)

    def _pick_card_then(self, title: str, prompt: str, kind: str, key: str, then: str) -> None:
        """Choose a card (field ``key`` of the actions), then one of its actions."""
        offers = self._of_kind(kind)
        cards = sorted({getattr(o.action, key) for o in offers})
        if len(cards) <= 1:
            self._pick(title, then, offers, kind=kind)
            return

        def chosen(index: int | None) -> None:
            if index is not None:
                self._pick(
                    title, then, [o for o in offers if getattr(o.action, key) == cards[index]]
                )

        names = [self._card_name(uid) for uid in cards]
        self.app.push_screen(DecisionDialog(title, prompt, names, cancellable=True), chosen)

    def _card_name(self, uid: int) -> str:
        card = self.view.card(uid)
        return card.name if card is not None else f"card {uid}"

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
        """Attempt a Steal: choose how many dice."""
        offers = self._of_kind("steal")
        self._pick(
            "Steal",
            "How many Steal dice (1 Energy each)?",
            offers,
            [f"{o.label}: {o.preview}" if o.preview else o.label for o in offers],
            kind="steal",
        )

    def action_jump(self, group: str) -> None:
        """Highlight the first action of a group in the action list."""
        listing = self.query_one("#action-list", OptionList)
        for index in range(listing.option_count):
            option = listing.get_option_at_index(index)
            if option.id is not None and self.offers[int(option.id)].group == group:
                if self.has_class("compact"):
                    self.action_panel("actions")
                listing.highlighted = index
                listing.focus()
                return
        kind = {"Buy": "buy"}.get(group, "")
        self._nothing(kind, f"No {group} action now.")

    def _continue_villain(self) -> None:
        """Play the next step of a paused Villain turn."""
        if self.backend.view().paused:
            self._report(self.backend.resume())
            self.refresh_table()

    def action_skip(self) -> None:
        """Play the rest of the Villain's turn at once."""
        while self.backend.view().paused:
            if not self._report(self.backend.resume()):
                break
        self.refresh_table()

    def _report(self, outcome: Outcome) -> bool:
        if not outcome.accepted:
            self.notify(outcome.message, title="Error", severity="error", timeout=30)
        return outcome.accepted

    def action_undo(self) -> None:
        """Undo the last action, back to the last revealed hidden information."""
        outcome = self.backend.undo()
        self.notify(
            outcome.message, title="Undo", severity="information" if outcome.accepted else "warning"
        )
        self.refresh_table()

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
        """Choose a card on the table and read it in full."""

        def show(card_id: str | None) -> None:
            if card_id is not None:
                self.inspect_card(card_id)

        self.app.push_screen(CardPicker(self.inspect_entries()), show)

    @on(CardChosen)
    def _card_clicked(self, event: CardChosen) -> None:
        """A card was clicked: offer what may be done with it, or read it."""
        card = self.view.card(event.uid)
        if card is None:
            return
        offers = [
            o
            for o in self.offers
            if event.uid in (o.action.card, o.action.on) or event.uid in o.action.cards
        ]
        if not offers:
            self.inspect_card(card.card)
            return
        labels = [o.label for o in offers] + [f"Read {card.name}"]

        def done(index: int | None) -> None:
            if index is None:
                return
            if index == len(offers):
                self.inspect_card(card.card)
            else:
                self.play(offers[index].action)

        self.app.push_screen(DecisionDialog(card.name, "What now?", labels, cancellable=True), done)

    def action_toggle_hide(self) -> None:
        """Hot-seat: hide or show hands between turns."""
        outcome = self.backend.hide_hands(not self.seating.hide_hands)
        self.notify(outcome.message, severity="information" if outcome.accepted else "warning")
        self.refresh_table()

    def action_help(self) -> None:
        """Every key of the table."""
        self.app.push_screen(HelpScreen())

    def action_rules(self) -> None:
        """The rules reference."""
        from dbdeck.tui.reference import RulesScreen

        self.app.push_screen(RulesScreen())

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

        dialog = DecisionDialog(title, prompt, labels, for_decision=True)
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
        self._turn_of = self.view.active  # the hand-off announced the turn
        self.backend.take_keyboard()
        self.refresh_table()

    def _announce_turn(self) -> None:
        """A new turn: a toast for the same player; for another player's
        turn, a banner that takes no key until read (turns chain: a key
        meant for one turn must never act on the next)."""
        active = self.view.active
        if not self.announces_turns or active in ("", "villain") or active == self._turn_of:
            return
        before, self._turn_of = self._turn_of, active
        board = self.view.character(active)
        name = board.name if board is not None else active
        if self.backend.shared:
            if self.view.hand(active) is not None:
                self.notify(f"Your turn: {name}", title="Your turn")
            return
        player = self.seating.player(active)
        if not before or self.seating.player(before) == player or not self.offers:
            self.notify(f"{player} — {name}", title="Next turn")
            return
        if isinstance(self.app.screen, TurnBanner):
            return
        order = self.view.turn_order
        lines = [Text(f"{player}, it is your turn with {name}.")]
        if self._since:
            lines.append(Text("Since the last turn:", style="bold"))
            lines += [
                Text(f"  {line.text}", style=LOG_STYLES.get(line.kind, ""))
                for line in self._since[-8:]
            ]
        self.app.push_screen(TurnBanner(f"Round {order.round} — {name}'s turn", lines))

    def _announce_end(self) -> None:
        view = self.view
        winner = "The Characters win!" if view.winner == "players" else f"{view.villain.name} wins."
        self.query_one("#prompt", Static).update(Text(f"{winner} {view.reason}", style="bold"))
        self.notify(f"{winner} {view.reason}", title="Game over", timeout=30)
