"""The table: every board element, the action list, the log, hot-seat turns.

The screen turns keys into engine actions; the engine decides what is
legal. Only legal actions are offered, and a refused one shows the engine's
reason. The Villain's turn runs in the engine's step mode: the engine stops
after each step that showed something, the table redraws, and the next step
follows after ``pace`` seconds (Space plays the rest at once).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from dbdeck.engine.actions import Action, IllegalAction
from dbdeck.engine.events import Event
from dbdeck.engine.game import Game
from dbdeck.saves import Session
from dbdeck.tui.dialogs import (
    CardPicker,
    ComboDialog,
    DecisionDialog,
    HandoffScreen,
    HelpScreen,
    InspectorScreen,
)
from dbdeck.tui.widgets import (
    CharacterBoard,
    HandPanel,
    MarketPanel,
    TurnOrderPanel,
    VillainBoard,
)
from dbdeck.tui.words import GROUPS, action_group, action_label, option_label

__all__ = ["Seating", "TableScreen"]

COMPACT_WIDTH = 140
COMPACT_HEIGHT = 40


@dataclass
class Seating:
    """Who plays which Character, and the table's hot-seat settings."""

    players: dict[str, str] = field(default_factory=dict)
    """Player name by Character id."""
    hide_hands: bool = False
    """Show a hand-off screen before each turn of another player."""
    pace: float = 0.4
    """Seconds between the Villain's events in the log (0: at once)."""

    def player(self, character: str) -> str:
        return self.players.get(character, "Player")


class TableScreen(Screen[None]):
    """A game in progress."""

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

    def __init__(
        self, game: Game, seating: Seating | None = None, session: Session | None = None
    ) -> None:
        super().__init__()
        self.game = game
        self.session = session
        """The saved game, when there is one: every action is saved at once."""
        self.seating = seating or Seating()
        self.legal: list[Action] = []
        game.step_mode = self.seating.pace > 0
        self.last_seat_character = ""
        self.shown_panel = "actions"

    # --- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        yield VillainBoard(id="villain", classes="box")
        yield TurnOrderPanel(id="turn-order", classes="box")
        yield HandPanel(id="hand", classes="box")
        yield Static(id="panel-tabs")
        with Horizontal(id="body"):
            with VerticalScroll(id="markets", classes="panel"):
                yield MarketPanel(id="market-rows", classes="box")
            with VerticalScroll(id="characters", classes="panel"):
                for ch in self.game.state.characters:
                    yield CharacterBoard(ch.id, id=f"char-{ch.id}", classes="box")
            with Vertical(id="actions", classes="panel"):
                yield Static("", id="prompt")
                yield OptionList(id="action-list")
            yield RichLog(id="log", classes="panel", wrap=True, markup=False, min_width=20)
        yield Footer()

    def on_mount(self) -> None:
        names = ", ".join(self.game.name("c:" + c.id) for c in self.game.state.characters)
        self.title = f"dbdeck — {self.game.name('v')} vs {names}"
        self._apply_size(self.size.width, self.size.height)
        self.write_events(self.game.events)
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
        """Redraw what changed, list the legal actions, open any decision."""
        game = self.game
        for widget in self.query(
            "VillainBoard, TurnOrderPanel, MarketPanel, HandPanel, CharacterBoard"
        ):
            widget.show(game)  # type: ignore[attr-defined]
        self.legal = game.legal_actions()
        self._fill_actions()
        if game.over:
            self._announce_end()
            return
        if game.state.paused:
            self.set_timer(self.seating.pace, self._continue_villain)
            return
        if game.state.pending is not None:
            self._open_decision()
        else:
            self._hot_seat()

    def _fill_actions(self) -> None:
        listing = self.query_one("#action-list", OptionList)
        listing.clear_options()
        prompt = self.query_one("#prompt", Static)
        game = self.game
        if game.state.paused:
            prompt.update(
                Text(f"{game.name('v')} is playing… (Space: show the rest at once)", style="italic")
            )
            return
        if game.over or game.state.pending is not None:
            prompt.update("")
            return
        active = game.state.active
        who = game.name("c:" + active) if active not in ("", "villain") else ""
        player = self.seating.player(active)
        prompt.update(Text(f"{player} — {who}: choose an action", style="bold"))
        options: list[Option] = []
        for group, _kinds in GROUPS:
            members = [(i, a) for i, a in enumerate(self.legal) if action_group(a) == group]
            if not members:
                continue
            options.append(Option(Text(f"— {group} —", style="bold"), disabled=True))
            options += [Option(action_label(game, a), id=str(i)) for i, a in members]
        listing.add_options(options)
        listing.highlighted = next((i for i, o in enumerate(options) if not o.disabled), None)

    # --- the log -------------------------------------------------------------------------

    def write_events(self, events: Iterable[Event]) -> None:
        """Write events to the log in plain words."""
        log = self.query_one("#log", RichLog)
        for event in events:
            style = {
                "damage": "red",
                "defeat": "bold red",
                "game-over": "bold",
                "reveal": "bold",
                "roll": "cyan",
                "balls": "yellow",
            }.get(event.type, "")
            log.write(Text(event.text, style=style))

    def _resume(self) -> list[Event]:
        if self.session is not None:
            return self.session.resume_villain()
        return self.game.resume()

    def _continue_villain(self) -> None:
        """Play the next step of a paused Villain turn."""
        if self.game.state.paused:
            self._guarded(lambda: self.write_events(self._resume()))
            self.refresh_table()

    def action_skip(self) -> None:
        """Play the rest of the Villain's turn at once."""
        while self.game.state.paused:
            if not self._guarded(lambda: self.write_events(self._resume())):
                break
        self.refresh_table()

    def action_undo(self) -> None:
        """Undo the last action, back to the last revealed hidden information."""
        session = self.session
        if session is None:
            self.notify("Undo needs a saved game.", severity="warning")
            return
        if session.undoable() <= 0:
            self.notify(
                f"Nothing to undo: hidden information was revealed since ({session.floor_reason})",
                title="Undo",
                severity="warning",
            )
            return
        session.undo()
        self.game = session.game
        self.query_one("#log", RichLog).write(Text("Undone.", style="italic"))
        self.refresh_table()
        self.notify(
            f"{session.undoable()} more action(s) can be undone; undo stops at: "
            f"{session.floor_reason}",
            title="Undo",
        )

    def _guarded(self, work: Callable[[], object]) -> bool:
        """Run rules work; an unexpected error never shows a traceback: the game
        is saved (as it was before the error), a crash report is written and
        the table reloads the save."""
        try:
            work()
        except IllegalAction:
            raise
        except Exception as exc:  # the table must survive any bug in the rules
            where = "the game could not be saved"
            if self.session is not None:
                report = self.session.crash_report(exc)
                where = f"crash report: {report}"
                self.session.close()
                try:
                    resumed = Session.resume(
                        self.session.catalog, self.session.folder, self.session.id
                    )
                except Exception:  # keep the table open whatever happens
                    self.session.lock()
                else:
                    self.session = resumed
                    self.game = resumed.game
            self.notify(
                f"Something went wrong; the game is saved. {where}",
                title="Error",
                severity="error",
                timeout=30,
            )
            return False
        return True

    # --- acting --------------------------------------------------------------------------

    def play(self, action: Action) -> bool:
        """Apply an action; a refused one shows the engine's reason. Returns
        whether it was applied."""
        apply = self.session.apply if self.session is not None else self.game.apply
        try:
            done = self._guarded(lambda: self.write_events(apply(action)))
        except IllegalAction as exc:
            self.notify(exc.reason, title="Not allowed", severity="warning")
            return False
        self.refresh_table()
        return done

    @on(OptionList.OptionSelected, "#action-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.play(self.legal[int(event.option.id)])

    def _first(self, kind: str) -> Action | None:
        return next((a for a in self.legal if a.type == kind), None)

    def action_end_turn(self) -> None:
        action = self._first("end-turn")
        if action is None:
            self.notify("It is not your turn to end.", severity="warning")
            return
        self.play(action)

    def action_play_energy(self) -> None:
        played = 0
        while (action := self._first("play-energy")) is not None and self.play(action):
            played += 1
        if not played:
            self.notify("No Energy card to play.", severity="warning")

    def action_attack(self) -> None:
        if not any(a.type == "attack" for a in self.legal):
            self.notify("No attack is possible now.", severity="warning")
            return

        def done(action: Action | None) -> None:
            if action is not None:
                self.play(action)

        self.app.push_screen(ComboDialog(self.game, self.legal), done)

    def _pick(
        self, title: str, prompt: str, actions: list[Action], labels: list[str] | None = None
    ) -> None:
        """A dialog to choose one of ``actions`` (then applied)."""
        if not actions:
            self.notify(f"No {title.lower()} is possible now.", severity="warning")
            return
        labels = labels or [action_label(self.game, a) for a in actions]

        def done(index: int | None) -> None:
            if index is not None:
                self.play(actions[index])

        self.app.push_screen(DecisionDialog(title, prompt, labels, cancellable=True), done)

    def _pick_card_then(
        self, title: str, prompt: str, kind: str, key: str, then_prompt: str
    ) -> None:
        """Choose a card (``key`` of the actions), then one of its actions."""
        actions = [a for a in self.legal if a.type == kind]
        cards = sorted({getattr(a, key) for a in actions})
        if len(cards) <= 1:
            self._pick(title, then_prompt, actions)
            return

        def chosen(index: int | None) -> None:
            if index is not None:
                mine = [a for a in actions if getattr(a, key) == cards[index]]
                self._pick(title, then_prompt, mine)

        labels = [self.game.name(uid) for uid in cards]
        self.app.push_screen(DecisionDialog(title, prompt, labels, cancellable=True), chosen)

    def action_prepare(self) -> None:
        self._pick_card_then(
            "Prepare", "Which Energy Technique?", "prepare", "card", "Which Time slot?"
        )

    def action_boost(self) -> None:
        self._pick_card_then(
            "Boost",
            "Which prepared Technique?",
            "boost",
            "on",
            "Which Energy card goes beneath it?",
        )

    def action_steal(self) -> None:
        actions = [a for a in self.legal if a.type == "steal"]
        self._pick(
            "Steal",
            "How many Steal dice (1 Energy each)?",
            actions,
            [f"{a.amount} dice" for a in actions],
        )

    def action_jump(self, group: str) -> None:
        listing = self.query_one("#action-list", OptionList)
        for index in range(listing.option_count):
            option = listing.get_option_at_index(index)
            if option.id is not None and action_group(self.legal[int(option.id)]) == group:
                listing.highlighted = index
                listing.focus()
                return
        self.notify(f"No {group} action now.", severity="warning")

    def action_inspect(self) -> None:
        game = self.game
        s = game.state
        entries: list[tuple[str, str]] = []
        active = s.character(s.active) if s.active not in ("", "villain") else None
        if active is not None and not self.query_one(HandPanel).hidden:
            entries += [(f"Hand: {game.name(u)}", s.card_ids[u]) for u in active.hand]
        for market, m in s.markets.items():
            entries += [(f"{market.capitalize()}: {game.name(u)}", s.card_ids[u]) for u in m.row]
        entries += [(f"Sixth pile: {game.name(u)}", s.card_ids[u]) for u in s.sixth[-1:]]
        for ch in s.characters:
            entries.append((f"Character: {game.name('c:' + ch.id)}", ch.id))
            entries += [
                (f"{game.name('c:' + ch.id)}: {game.name(u.uid)}", s.card_ids[u.uid])
                for u in ch.units()
            ]
            entries += [
                (f"{game.name('c:' + ch.id)} Time Track: {game.name(p.uid)}", s.card_ids[p.uid])
                for p in ch.time_track
                if p is not None
            ]
        entries.append((f"Villain: {game.name('v')}", s.villain_id))
        entries += [(f"Minion: {game.name(u.uid)}", s.card_ids[u.uid]) for u in s.villain.minions]
        entries += [
            (f"Villain Time Track: {game.name(p.uid)}", s.card_ids[p.uid])
            for slot in s.villain.time_track
            for p in slot
        ]
        if s.location:
            entries.append((f"Location: {game.name(s.location)}", s.location))

        def show(card_id: str | None) -> None:
            if card_id is not None:
                self.app.push_screen(InspectorScreen(game.card(card_id), game.catalog))

        self.app.push_screen(CardPicker(entries), show)

    def action_toggle_hide(self) -> None:
        self.seating.hide_hands = not self.seating.hide_hands
        state = "on" if self.seating.hide_hands else "off"
        self.notify(f"Hide hands between turns: {state}.")

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_rules(self) -> None:
        from dbdeck.tui.reference import RulesScreen

        self.app.push_screen(RulesScreen())

    def action_cards(self) -> None:
        from dbdeck.tui.reference import CardBrowser

        self.app.push_screen(CardBrowser(self.game.catalog))

    # --- decisions, hot-seat, the end ----------------------------------------------------------

    def _open_decision(self) -> None:
        pending = self.game.state.pending
        assert pending is not None
        if isinstance(self.app.screen, DecisionDialog):
            return
        decider = pending.decider
        if decider == "players":
            title = "The players decide"
        else:
            title = f"{self.seating.player(decider)} — {self.game.name('c:' + decider)} decides"

        def answer(option: int | None) -> None:
            self.play(Action("choose", option=option or 0))

        labels = [option_label(o) for o in pending.options]
        self.app.push_screen(DecisionDialog(title, pending.prompt, labels), answer)

    def _hot_seat(self) -> None:
        active = self.game.state.active
        if active in ("", "villain") or active == self.last_seat_character:
            return
        previous = self.last_seat_character
        self.last_seat_character = active
        player = self.seating.player(active)
        name = self.game.name("c:" + active)
        self.notify(f"{player} — {name}", title="Next turn")
        hand = self.query_one(HandPanel)
        changed_player = previous and self.seating.player(previous) != player
        if self.seating.hide_hands and changed_player:
            hand.hidden = True
            hand.show(self.game)

            def reveal(_: None) -> None:
                hand.hidden = False
                hand.show(self.game)

            self.app.push_screen(HandoffScreen(player, name), reveal)

    def _announce_end(self) -> None:
        s = self.game.state
        winner = "The Characters win!" if s.winner == "players" else f"{self.game.name('v')} wins."
        self.query_one("#prompt", Static).update(Text(f"{winner} {s.reason}", style="bold"))
        self.notify(f"{winner} {s.reason}", title="Game over", timeout=30)
