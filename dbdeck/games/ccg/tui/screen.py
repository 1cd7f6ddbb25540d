"""The CCG table: both players' sides, the turn and Combat, what may be done
now, the prompt and the log, keyboard first.

The screen draws the ``TableView`` its backend gives it and offers the
backend's ``Offer``s, nothing else: it never sees the rules, so it can show
only what the seat at the screen may see, and it can do only what the rules
offer. A number key takes a line of the list of what the turn asks now
(those about the card under the cursor first); Enter on a card lists every
offer that names it; ``a`` lists every offer, filterable; the manual moves
of a real table (move, flip, mark used, turn, attach, draw, search,
shuffle, cut, reveal, counters, fusion) each have a key. What cannot be
taken back is asked first (ending the turn with cards still playable, the
Final Physical Attack, defusing). A refused action shows the rules' reason.

Two layouts: from 120×36 the log stands beside the table; below it the
sides are packed on fewer lines and the log opens with ``l``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.command import Hit, Hits, Provider
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from dbdeck.games.ccg.table.view import HIDDEN, Offer, SeatPanel, TableView
from dbdeck.games.ccg.tui import glyphs, keys
from dbdeck.games.ccg.tui.dialogs import (
    ActionsDialog,
    ChoiceDialog,
    ConfirmDialog,
    GameOverDialog,
    HandoffScreen,
    LogScreen,
    NumberDialog,
    TextDialog,
    TickDialog,
)
from dbdeck.games.ccg.tui.draw import SeatShown, whose
from dbdeck.games.ccg.tui.glyphs import sep, styled
from dbdeck.games.ccg.tui.inspector import InspectorScreen, card_facts, main_facts
from dbdeck.games.ccg.tui.offers import (
    KIND_WORDS,
    Entry,
    card_offers,
    entries,
    every_card,
    find_card,
    kind_of,
    main_offers,
    now_offers,
    of_kind,
)
from dbdeck.games.ccg.tui.seats import SeatSwitching
from dbdeck.games.ccg.tui.widgets import (
    ItemChosen,
    ItemFocused,
    MiddleBoard,
    MiddleShown,
    NowPanel,
    NowShown,
    SeatBoard,
    TableLog,
)
from dbdeck.tui.ascii import AsciiFilter
from dbdeck.tui.backend import Outcome, TableBackend
from dbdeck.tui.frames import HeldScreen
from dbdeck.tui.keybar import KeyBar

__all__ = ["WIDE", "CcgTableScreen", "OfferCommands"]

WIDE = (120, 36)
"""From this size (columns, rows) the log stands beside the table."""

Backend = TableBackend[TableView, Offer]
"""What the screen talks to: views of the CCG table and its offers."""


class OfferCommands(Provider):
    """The command palette: every action offered now on the CCG table."""

    async def search(self, query: str) -> Hits:
        """The offers whose label matches ``query``."""
        screen = self.screen
        if not isinstance(screen, CcgTableScreen):
            return
        matcher = self.matcher(query)
        for offer in list(screen.offers):
            score = matcher.match(offer.label)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(offer.label),
                    lambda o=offer: screen.take(o),
                    help=f"{offer.group} action",
                )


class CcgTableScreen(HeldScreen[None]):
    """A CCG game in progress, as the seat at this screen may see it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *keys.BINDINGS,
        Binding("tab", "app.focus_next", "Next panel", show=False),
        Binding("shift+tab", "app.focus_previous", "Previous panel", show=False),
    ]
    COMMANDS: ClassVar[Any] = {OfferCommands}
    AUTO_FOCUS = "#own"

    DEFAULT_CSS = """
    CcgTableScreen { layout: vertical; background: $surface; }
    CcgTableScreen #status { height: 1; background: $panel; padding: 0 1; }
    CcgTableScreen #body { height: 1fr; }
    CcgTableScreen #table { width: 1fr; height: 1fr; scrollbar-size-vertical: 1; }
    CcgTableScreen .side { height: auto; border: round $primary-darken-1; padding: 0 1; }
    CcgTableScreen .side:focus { border: round $accent; }
    CcgTableScreen #own { border: round $success-darken-1; }
    CcgTableScreen #own:focus { border: round $success; }
    CcgTableScreen #middle { border: round $warning-darken-2; }
    CcgTableScreen #middle:focus { border: round $warning; }
    CcgTableScreen #aside { width: 35%; max-width: 64; height: 1fr; }
    CcgTableScreen #now { height: auto; max-height: 14; border: round $accent-darken-1;
                          padding: 0 1; }
    CcgTableScreen #log { height: 1fr; border: round $primary-darken-2; }
    CcgTableScreen #log:focus { border: round $accent; }
    CcgTableScreen #prompt { height: auto; max-height: 2; padding: 0 1; }
    CcgTableScreen #line { height: 1; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    CcgTableScreen #keys { height: 1; background: $panel; }
    CcgTableScreen.-compact #body { layout: vertical; }
    CcgTableScreen.-compact #aside { width: 100%; max-width: 100%; height: auto; }
    CcgTableScreen.-compact #other, CcgTableScreen.-compact #middle,
    CcgTableScreen.-compact #own { border: none; padding: 0 0; }
    CcgTableScreen.-compact #other:focus, CcgTableScreen.-compact #own:focus {
        border: none; background: $primary 20%; }
    CcgTableScreen.-compact #middle { background: $panel; }
    CcgTableScreen.-compact #middle:focus { border: none; background: $primary 20%; }
    CcgTableScreen.-compact #now { border: none; border-top: solid $accent-darken-1;
                                   max-height: 6; padding: 0 0; }
    CcgTableScreen.-compact #log { display: none; }
    CcgTableScreen.-compact #prompt { max-height: 1; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    def __init__(self, backend: Backend) -> None:
        super().__init__()
        self.backend = backend
        self.view: TableView = backend.view()
        """What the screen shows: the backend's view when last drawn."""
        self.offers: list[Offer] = []
        """What the screen offers: the backend's legal actions when last drawn."""
        self.bottom = self.view.viewer if self.view.viewer is not None else 0
        """The seat drawn at the bottom: the seat at the screen (kept while
        the keyboard passes and the view is a spectator's)."""
        self.focus_key: str | None = None
        """What is under a board's cursor (``card:12``, ``main:0``, ``pile:1:discard``)."""
        self.outcome: Text | None = None
        """What the last change did or why it was refused, until the cursor moves."""
        self.compact = True
        self.passing = False
        """A hand-off waits: no hand is drawn."""
        self._over_told = False
        self._handoff_open = False

    # --- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        self.compact = self._is_compact(self.app.size.width, self.app.size.height)
        self.set_class(self.compact, "-compact")
        yield Static(id="status")
        with Horizontal(id="body"):
            with VerticalScroll(id="table"):
                other = SeatBoard(id="other", classes="side")
                other.border_title = "Other side"
                yield other
                middle = MiddleBoard(id="middle", classes="side")
                middle.border_title = "Turn"
                yield middle
                own = SeatBoard(id="own", classes="side")
                own.border_title = "Your side"
                yield own
            with Vertical(id="aside"):
                now = NowPanel(id="now")
                now.border_title = "Now: 1-9 take"
                yield now
                log = TableLog(id="log")
                log.border_title = "Log"
                yield log
        yield Static(id="prompt")
        yield Static(id="line")
        yield KeyBar(id="keys")

    @staticmethod
    def _is_compact(width: int, height: int) -> bool:
        return width < WIDE[0] or height < WIDE[1]

    def on_mount(self) -> None:
        self.title = "dbdeck - Dragon Ball Z CCG"
        # The app draws in ASCII (the terminal, or its caller, said so):
        # the table's glyphs take their ASCII twins.
        glyphs.set_ascii(any(isinstance(f, AsciiFilter) for f in self.app.get_line_filters()))
        self.refresh_table()

    def on_resize(self) -> None:
        compact = self._is_compact(self.size.width, self.size.height)
        if compact != self.compact:
            self.compact = compact
            self.set_class(compact, "-compact")
            self._draw()

    @property
    def closing(self) -> bool:
        """Whether the app was asked to close: nothing is sent or opened then."""
        return self.app.return_code is not None

    # --- drawing ---------------------------------------------------------------------------

    def refresh_table(self) -> None:
        """Draw the backend's view, list its offers, and open what waits: a
        hand-off, the end of the game."""
        if self.closing:
            return
        self.view = self.backend.view()
        self.offers = list(self.backend.legal_actions())
        if self.view.viewer is not None:
            self.bottom = self.view.viewer
        lines = self.backend.events()
        if lines:
            self.outcome = Text(lines[-1].text)
        handoff = self.backend.handoff()
        self.passing = handoff is not None
        if self.passing:
            # What the last change did was said to the seat that made it.
            self.outcome = None
        self._draw()
        if handoff is not None:
            if not self._handoff_open:
                self._handoff_open = True
                passing = HandoffScreen(handoff.player, handoff.characters)
                self.app.push_screen(passing, self._keyboard_taken)
            return
        if (self.view.step == "over" or self.view.result) and not self._over_told:
            self._over_told = True
            self.app.push_screen(GameOverDialog(self._result_title(), self.view.result))

    def _keyboard_taken(self, _: None = None) -> None:
        self._handoff_open = False
        if self.closing:
            return
        self.backend.take_keyboard()
        self.refresh_table()

    def _result_title(self) -> str:
        view = self.view
        if view.winner is None:
            return "The game is over"
        return f"Game over: {whose(view, view.winner)} wins"

    def _draw(self) -> None:
        view = self.view
        top = 1 - self.bottom if len(view.seats) == 2 else 0
        own = view.viewer is not None and view.viewer == self.bottom and not self.passing
        self.query_one("#other", SeatBoard).shown = SeatShown(
            view, top, own=False, hide_hand=self.passing, compact=self.compact
        )
        self.query_one("#middle", MiddleBoard).shown = MiddleShown(view, compact=self.compact)
        bottom = self.query_one("#own", SeatBoard)
        bottom.shown = SeatShown(
            view, self.bottom, own=own, hide_hand=self.passing, compact=self.compact
        )
        bottom.border_title = "Your side" if own else "Bottom side"
        # The seat's log may name a card of its hand: not while the keyboard passes.
        self.query_one(TableLog).show(() if self.passing else view.log)
        self.query_one("#status", Static).update(self._status())
        self.query_one("#prompt", Static).update(self._prompt())
        self._fill_now()
        self._say_line()
        self.query_one(KeyBar).keys = self.keys_now()

    def _status(self) -> Text:
        view = self.view
        text = styled("DBZ CCG", "bold")
        text.append(f" {sep()} ")
        if view.viewer is None:
            text.append("watching" if not self.passing else "the keyboard passes")
        else:
            text.append("you: ")
            text.append(whose(view, view.viewer), style="bold")
        text.append(f" {sep()} Turn {view.turn}, ")
        text.append(whose(view, view.active))
        text.append("'s turn")
        text.append(f" {sep()} {view.profile} {sep()} rules: {view.adjudication}")
        return text

    def _prompt(self) -> Text:
        view = self.view
        text = Text()
        if view.result:
            text.append("Game over: ", style="bold")
            text.append(view.result)
        elif self.passing:
            text.append("The keyboard passes: both hands are hidden.", style="bold")
            return text  # the seat's words may name a card of its hand
        else:
            text.append(view.prompt or view.step_words, style="bold")
        if view.adjudication == "suggest" and view.suggestion:
            text.append("\nThe rules suggest: ", style="bold yellow")
            text.append(view.suggestion)
        return text

    def _fill_now(self) -> None:
        view = self.view
        now = now_offers(self.offers)
        focused: list[Offer] = []
        title = ""
        if self.focus_key is not None:
            about = self.item_offers(self.focus_key)
            focused = [o for o in now if o in about]
            title = self.item_title(self.focus_key)
        rest = [o for o in now if o not in focused]
        manual = [o for o in self.offers if o not in now]
        note = ""
        if not self.offers:
            note = self._why_nothing()
        self.query_one(NowPanel).shown = NowShown(
            tuple(entries(focused, view)),
            title,
            tuple(entries(rest, view)),
            len(entries(manual, view)),
            compact=self.compact,
            note=note,
        )

    def _why_nothing(self) -> str:
        view = self.view
        if self.passing:
            return "The keyboard passes: Enter on the hand-off screen first."
        if view.result or view.step == "over":
            return "The game is over."
        acting = view.combat.acting if view.combat is not None else view.active
        if view.viewer is None:
            return f"Watching: {whose(view, acting)} acts now."
        if acting != view.viewer:
            return f"{whose(view, acting)} acts now: wait for your turn to act."
        return "Nothing is offered now."

    def _say_line(self) -> None:
        line = self.query_one("#line", Static)
        if self.passing:
            line.update("")
        elif self.outcome is not None:
            line.update(styled("> ", "bold") + self.outcome)
        elif self.focus_key is not None:
            line.update(Text(self.describe(self.focus_key), style="dim"))
        else:
            line.update("")

    def keys_now(self) -> keys.Keys:
        """The key bar now: only the keys that work."""
        if self.passing:
            return HandoffScreen.KEYS
        view = self.view
        if view.result or view.step == "over":
            return keys.OVER_KEYS
        switch = isinstance(self.backend, SeatSwitching)
        if not self.offers:
            bar = keys.WAITING_KEYS
            return (*bar[:-1], keys.SWITCH_KEY, bar[-1]) if switch else bar
        numbered = bool(self.query_one(NowPanel).shown.numbered)
        kinds = {kind_of(o) for o in self.offers}
        return keys.play_keys(kinds, numbered=numbered, switch=switch)

    # --- what a thing of the table is and can do ----------------------------------------------

    def _seat_of_key(self, key: str) -> int:
        return int(key.split(":")[1])

    def item_offers(self, key: str) -> list[Offer]:
        """The offers about a thing of the table: those that name a card,
        the Main Personality's own, none for a pile (its cards have them)."""
        kind, _, rest = key.partition(":")
        if kind == "card":
            return card_offers(self.offers, int(rest))
        if kind == "main":
            seat = int(rest)
            return main_offers(self.offers) if seat == self.view.viewer else []
        return []

    def item_title(self, key: str) -> str:
        """A thing of the table in a few words."""
        kind, _, rest = key.partition(":")
        view = self.view
        if kind == "card":
            found = find_card(view, int(rest))
            return found[0].title if found is not None else "a card"
        if kind == "main":
            seat = view.seats[int(rest)]
            return seat.main.title or seat.main.name
        if kind == "pile":
            seat_no, _, pile = rest.partition(":")
            return f"{whose(view, int(seat_no))}'s {self._pile_name(pile)}"
        return key

    @staticmethod
    def _pile_name(pile: str) -> str:
        return {"discard": "discard pile", "removed": "removed cards"}.get(pile, "Sensei Deck")

    def _pile(self, key: str) -> tuple[SeatPanel, str]:
        _, seat_no, pile = key.split(":")
        return self.view.seats[int(seat_no)], pile

    def describe(self, key: str) -> str:
        """One line on a thing of the table: what it is and what it can do now."""
        kind, _, rest = key.partition(":")
        view = self.view
        offered = self.item_offers(key)
        does = f"Enter: {len(offered)} action(s)" if offered else "nothing offered for it now"
        if kind == "card":
            found = find_card(view, int(rest))
            if found is None:
                return ""
            face, where = found
            stages = f", {face.stages}/{face.max_stages} stages" if face.stages is not None else ""
            what = f"{face.title} ({face.type or 'card'}, {where}{stages})"
            return f"{what} {sep()} {does} {sep()} i: inspect"
        if kind == "main":
            seat = view.seats[int(rest)]
            main = seat.main
            return (
                f"{main.title or main.name}: Main Personality,"
                f" stage {main.stages}/{main.max_stages}, anger {main.anger}/5"
                f" {sep()} {does} {sep()} i: inspect"
            )
        if kind == "pile":
            seat, pile = self._pile(key)
            faces = self._pile_faces(seat, pile)
            return f"{self.item_title(key)}: {len(faces)} card(s) {sep()} Enter: see them"
        return ""

    def _pile_faces(self, seat: SeatPanel, pile: str) -> Sequence[Any]:
        if pile == "discard":
            return seat.discard
        if pile == "removed":
            return seat.removed
        return seat.sensei_deck

    @on(ItemFocused)
    def _item_focused(self, event: ItemFocused) -> None:
        if event.key is None and self.focus_key is None:
            return
        self.focus_key = event.key
        if event.by_key or self.outcome is None:
            self.outcome = None
        self._fill_now()
        self._say_line()
        self.query_one(KeyBar).keys = self.keys_now()

    @on(ItemChosen)
    def _item_chosen(self, event: ItemChosen) -> None:
        self.item_menu(event.key)

    def item_menu(self, key: str) -> None:
        """Enter on a thing: its menu (every offer naming it, then inspect);
        a pile lists its cards, each with its own menu."""
        if key.startswith("pile:"):
            self._pile_menu(key)
            return
        offered = self.item_offers(key)
        lines = entries(offered, self.view)
        labels = [e.label + ("" if e.single else " …") for e in lines]
        title = self.item_title(key)

        def done(index: int | None) -> None:
            if index is None:
                return
            if index < len(lines):
                self.take_entry(lines[index])
            else:
                self.inspect(key)

        disabled = [] if lines else ["Nothing is offered for it now."]
        self.app.push_screen(
            ChoiceDialog(title, self.describe(key), [*labels, "Inspect (i)"], disabled=disabled),
            done,
        )

    def _pile_menu(self, key: str) -> None:
        seat, pile = self._pile(key)
        faces = [f for f in reversed(self._pile_faces(seat, pile)) if f.uid != HIDDEN]
        if not faces:
            self.notify(f"{self.item_title(key)}: no card you may see.", severity="information")
            return

        def done(index: int | None) -> None:
            if index is not None:
                self.item_menu(f"card:{faces[index].uid}")

        self.app.push_screen(
            ChoiceDialog(
                self.item_title(key).capitalize(),
                "Top card first. Enter: that card's menu.",
                [f.title for f in faces],
            ),
            done,
        )

    # --- acting ------------------------------------------------------------------------------

    def play(self, action: Any) -> Outcome:
        """Send an action; a refused one shows the rules' reason."""
        if self.closing:
            return Outcome(False, "The table is closing.")
        outcome = self.backend.send(action)
        if not outcome.accepted:
            self.notify(
                outcome.message or "Refused.",
                title="Error" if outcome.error else "Not allowed",
                severity="error" if outcome.error else "warning",
                timeout=30 if outcome.error else 6,
            )
            self.outcome = Text(outcome.message or "Refused.")
        else:
            self.outcome = Text(outcome.message) if outcome.message else None
        self.refresh_table()
        return outcome

    def take(self, offer: Offer) -> None:
        """Take an offer chosen by the player, asking first what cannot be
        taken back."""
        kind = kind_of(offer)
        if kind == "end-turn":
            playable = of_kind(self.offers, "play-card")
            if playable:
                names = sorted({o.label for o in playable})
                self._confirm(
                    "End the turn?",
                    f"Cards can still be played: {'; '.join(names)}.",
                    "end the turn",
                    lambda: self.play(offer.action),
                )
                return
        elif kind == "final-physical-attack":
            self._confirm(
                "The Final Physical Attack?",
                f"{offer.label}. Once per Combat: you must pass for the rest of this Combat.",
                "make the Final Physical Attack",
                lambda: self.play(offer.action),
            )
            return
        elif kind == "defuse":
            self._confirm(
                "Defuse?",
                f"{offer.label}. The timer cards are shuffled into your Life Deck.",
                "defuse",
                lambda: self.play(offer.action),
            )
            return
        elif kind == "overrule":
            self._overrule(offer)
            return
        self.play(offer.action)

    def _confirm(self, title: str, body: str, yes: str, then: Callable[[], object]) -> None:
        def answer(ok: bool | None) -> None:
            if ok:
                then()

        self.app.push_screen(ConfirmDialog(title, body, yes), answer)

    def _overrule(self, offer: Offer) -> None:
        def said(words: str | None) -> None:
            if words is None:
                return
            action = offer.action
            if words and hasattr(action, "reason"):
                action = dataclasses.replace(action, reason=words)
            self.play(action)

        self.app.push_screen(
            TextDialog(offer.label, "Why? (the other player is asked to agree)"), said
        )

    def take_entry(self, entry: Entry) -> None:
        """A line of a list: its offer, or a choice among its offers."""
        if entry.single:
            self.take(entry.offers[0])
            return
        self.choose(entry.label, list(entry.offers))

    def choose(self, title: str, offers: list[Offer], prompt: str = "") -> None:
        """Choose one of ``offers`` (one alone is taken at once)."""
        if len(offers) == 1:
            self.take(offers[0])
            return

        def done(index: int | None) -> None:
            if index is not None:
                self.take(offers[index])

        self.app.push_screen(ChoiceDialog(title, prompt, [o.label for o in offers]), done)

    def nothing(self, kind: str) -> None:
        """Say why a key does nothing now."""
        if self.passing:
            self.notify("Pass the keyboard first.", severity="warning")
            return
        if not self.offers:
            reason = self._why_nothing()
        elif kind:
            reason = f"{KIND_WORDS.get(kind, kind)}: not offered now. {self.view.prompt}".strip()
        else:
            reason = self.view.prompt or "Nothing to do with that key now."
        self.notify(reason, title="Not possible", severity="warning")

    def _kind_key(self, kind: str) -> None:
        """A key for one kind of action: the offers of that kind naming the
        thing under the cursor, else every offer of that kind."""
        offers = of_kind(self.offers, kind)
        if not offers:
            self.nothing(kind)
            return
        if self.focus_key is not None:
            about = [o for o in offers if o in self.item_offers(self.focus_key)]
            if about:
                self.choose(f"{KIND_WORDS[kind]}: {self.item_title(self.focus_key)}", about)
                return
        lines = entries(offers, self.view)
        if len(lines) == 1:
            self.take_entry(lines[0])
            return
        self.app.push_screen(
            ActionsDialog(lines, title=KIND_WORDS[kind]),
            lambda entry: self.take_entry(entry) if entry is not None else None,
        )

    def action_take(self, number: int) -> None:
        """A number key: that line of what the turn asks now."""
        numbered = self.query_one(NowPanel).shown.numbered
        if not 1 <= number <= len(numbered):
            if not self.offers:
                self.nothing("")
            else:
                self.notify(f"No line {number} in the list.", severity="warning")
            return
        self.take_entry(numbered[number - 1])

    def action_actions(self) -> None:
        """Every offer, filterable."""
        if not self.offers:
            self.nothing("")
            return
        self.app.push_screen(
            ActionsDialog(entries(self.offers, self.view)),
            lambda entry: self.take_entry(entry) if entry is not None else None,
        )

    def action_end_turn(self) -> None:
        """End the turn (asked first while cards can still be played)."""
        offers = of_kind(self.offers, "end-turn")
        if not offers:
            self.nothing("end-turn")
            return
        self.take(offers[0])

    def action_pass(self) -> None:
        """Pass in Combat."""
        offers = of_kind(self.offers, "pass")
        if not offers:
            self.nothing("pass")
            return
        self.choose("Pass", offers)

    def action_final_physical_attack(self) -> None:
        """The Final Physical Attack: choose the card to discard, then confirm."""
        self._kind_key("final-physical-attack")

    def action_draw(self) -> None:
        """Draw: three (the turn's step), one, or a number of cards."""
        three = of_kind(self.offers, "draw-three")
        cards = of_kind(self.offers, "draw-cards")
        if not three and not cards:
            self.nothing("draw-cards")
            return
        by_count = {getattr(o.action, "count", 0): o for o in cards}
        offered = [*three, *(by_count[n] for n in (1, 3) if n in by_count)]
        labels = [o.label for o in offered]
        if cards:
            labels.append("Draw a number of cards …")

        def done(index: int | None) -> None:
            if index is None:
                return
            if index < len(offered):
                self.take(offered[index])
            else:
                self._draw_many()

        if len(labels) == 1:
            done(0)
            return
        self.app.push_screen(ChoiceDialog("Draw", "", labels), done)

    def _draw_many(self) -> None:
        cards = of_kind(self.offers, "draw-cards")
        own = self._own_panel()
        life = own.life_deck if own is not None else None

        def counted(number: int | None) -> None:
            if number is None:
                return
            offer = next((o for o in cards if getattr(o.action, "count", 0) == number), None)
            if offer is not None:
                self.take(offer)
            elif cards:
                # The count is the player's: the rules check it like any action.
                self.play(dataclasses.replace(cards[0].action, count=number))

        self.app.push_screen(
            NumberDialog("Draw cards", "How many cards from the top of your Life Deck?", most=life),
            counted,
        )

    def _own_panel(self) -> SeatPanel | None:
        viewer = self.view.viewer
        return self.view.seats[viewer] if viewer is not None else None

    def action_search(self) -> None:
        """Search the Life Deck privately; while searching, take cards or
        finish the search (the Life Deck is shuffled)."""
        own = self._own_panel()
        if own is None or not own.searching:
            start = of_kind(self.offers, "start-search")
            if not start:
                self.nothing("start-search")
                return
            self.take(start[0])
            return
        takes = of_kind(self.offers, "search-take")
        finish = of_kind(self.offers, "finish-search")
        zones = list(dict.fromkeys(str(getattr(o.action, "to", "hand")) for o in takes))
        actions = [f"Take the ticked cards to the {zone.replace('-', ' ')}" for zone in zones]
        actions += [o.label for o in finish]
        cards = [(f.title, f.uid) for f in own.search if f.uid != HIDDEN]

        def done(answer: tuple[tuple[int, ...], int] | None) -> None:
            if answer is None:
                return
            ticked, index = answer
            if index >= len(zones):
                self.take(finish[index - len(zones)])
                return
            zone = zones[index]
            self._send_cards([o for o in takes if getattr(o.action, "to", "hand") == zone], ticked)

        self.app.push_screen(
            TickDialog(
                "Searching your Life Deck",
                "Only you see these cards; the other player sees that you are searching. "
                "The cards you take are shown to them.",
                cards,
                actions,
                untick_actions=frozenset(range(len(zones), len(actions))),
            ),
            done,
        )

    def _send_cards(self, offers: list[Offer], ticked: tuple[int, ...]) -> None:
        """Send the offer for exactly the ticked cards; else the offer's
        kind with the ticked cards, for the rules to check."""
        exact = next(
            (o for o in offers if sorted(getattr(o.action, "cards", ())) == sorted(ticked)), None
        )
        if exact is not None:
            self.take(exact)
        elif offers:
            self.play(dataclasses.replace(offers[0].action, cards=ticked))
        else:
            self.nothing("search-take")

    def action_reveal(self) -> None:
        """Reveal cards of the hand: tick them."""
        offers = of_kind(self.offers, "reveal")
        own = self._own_panel()
        if not offers or own is None:
            self.nothing("reveal")
            return
        named = {uid for o in offers for uid in getattr(o.action, "cards", ())}
        cards = [(f.title, f.uid) for f in own.hand if f.uid in named]

        def done(answer: tuple[tuple[int, ...], int] | None) -> None:
            if answer is not None:
                self._send_cards(offers, answer[0])

        self.app.push_screen(
            TickDialog("Reveal", "Which cards does the other player see?", cards, ["Reveal them"]),
            done,
        )

    def action_move(self) -> None:
        """Move the card under the cursor to a zone, on top or at the bottom."""
        self._kind_key("move-card")

    def action_flip(self) -> None:
        """Flip the card under the cursor."""
        self._kind_key("flip")

    def action_mark_used(self) -> None:
        """Mark the card under the cursor used (or not)."""
        self._kind_key("mark-used")

    def action_turn_card(self) -> None:
        """Turn the card under the cursor sideways (or back)."""
        self._kind_key("turn-card")

    def action_attach(self) -> None:
        """Attach the card under the cursor to a card in play, or detach it."""
        self._kind_key("attach")

    def action_shuffle(self) -> None:
        """Shuffle the Life Deck or the discard pile."""
        self._kind_key("shuffle")

    def action_cut(self) -> None:
        """Cut the other player's Life Deck."""
        self._kind_key("cut")

    def action_fusion(self) -> None:
        """Fusion, as a card allows: fuse two personalities (those about the
        card under the cursor first), the timer by hand, or defuse."""
        offers = of_kind(self.offers, "fuse", "fusion-timer", "defuse")
        if not offers:
            self.nothing("fuse")
            return
        if self.focus_key is not None:
            about = [o for o in offers if o in self.item_offers(self.focus_key)]
            offers = about + [o for o in offers if o not in about]
        lines = entries(offers, self.view)
        if len(lines) == 1:
            self.take_entry(lines[0])
            return
        self.app.push_screen(
            ActionsDialog(lines, title="Fusion"),
            lambda entry: self.take_entry(entry) if entry is not None else None,
        )

    def action_overrule(self) -> None:
        """Ask to take back the last action and what the table did with it (say why)."""
        self._kind_key("overrule")

    def action_counter(self, counter: str, delta: int) -> None:
        """+ and -: a counter of the personality under the cursor (an Ally's
        stages, else the Main Personality's), when the rules offer it."""
        offers = of_kind(self.offers, "counter")
        ally: int | None = None
        if (
            counter == "stages"
            and self.focus_key is not None
            and self.focus_key.startswith("card:")
        ):
            uid = int(self.focus_key.partition(":")[2])
            found = find_card(self.view, uid)
            if found is not None and found[0].stages is not None:
                ally = uid
        name = "ally-stages" if ally is not None else counter
        fits = [
            o
            for o in offers
            if getattr(o.action, "counter", "") == name
            and getattr(o.action, "card", None) == ally
            and getattr(o.action, "delta", 0) * delta > 0
        ]
        if not fits:
            self.nothing("counter")
            return
        fits.sort(key=lambda o: abs(int(getattr(o.action, "delta", 0))))
        self.take(fits[0])

    def action_undo(self) -> None:
        """Undo the last action, where undo may go back; say what it did."""
        if self.closing:
            return
        outcome = self.backend.undo()
        message = outcome.message or ("Undone." if outcome.accepted else "Nothing was undone.")
        self.notify(
            message, title="Undo", severity="information" if outcome.accepted else "warning"
        )
        self.outcome = Text(message)
        self.refresh_table()

    def action_switch_seat(self) -> None:
        """Solo practice: switch to the other seat."""
        backend = self.backend
        if not isinstance(backend, SeatSwitching):
            self.notify(
                "Solo practice only: at this table each seat has its own player.",
                severity="warning",
            )
            return
        outcome = backend.switch_seat()
        if outcome.message:
            self.notify(outcome.message, severity="information" if outcome.accepted else "warning")
        self.focus_key = None
        self.refresh_table()

    def action_suggest(self) -> None:
        """What the rules suggest now, and why."""
        hint = self.backend.suggest()
        said = f"{hint.label}. {hint.why}".strip(". ") if hint.label else hint.why
        if not said and self.view.suggestion:
            said = self.view.suggestion
        self.notify(said or "No suggestion now.", title="Suggestion", timeout=8)

    # --- looking ----------------------------------------------------------------------------

    def inspect(self, key: str) -> None:
        """Open the inspector on a thing of the table."""
        kind, _, rest = key.partition(":")
        view = self.view
        # The card library the backend reads (the inspector looks up only
        # the ids the view gives the cards this seat sees).
        catalog = getattr(self.backend, "catalog", None)
        if kind == "card":
            found = find_card(view, int(rest))
            if found is not None:
                facts = card_facts(found[0], view, found[1], catalog=catalog)
                self.app.push_screen(InspectorScreen(facts))
        elif kind == "main":
            facts = main_facts(view.seats[int(rest)], view, catalog)
            self.app.push_screen(InspectorScreen(facts))
        elif kind == "pile":
            seat, pile = self._pile(key)
            faces = [f for f in self._pile_faces(seat, pile) if f.uid != HIDDEN]
            if faces:
                top = faces[-1]
                facts = card_facts(top, view, self.item_title(key), catalog=catalog)
                self.app.push_screen(InspectorScreen(facts))

    def action_inspect(self) -> None:
        """Inspect the thing under the cursor, else choose a card."""
        if self.focus_key is not None:
            self.inspect(self.focus_key)
            return
        view = self.view
        faces = every_card(view)
        keys_shown = [f"main:{s.seat}" for s in view.seats] + [f"card:{f.uid}" for f in faces]
        labels = [self.item_title(k) for k in keys_shown]

        def done(index: int | None) -> None:
            if index is not None:
                self.inspect(keys_shown[index])

        self.app.push_screen(ChoiceDialog("Inspect which card?", "", labels), done)

    def action_log(self) -> None:
        """The log: beside the table on a wide screen, else in a dialog."""
        if not self.compact:
            self.query_one(TableLog).focus()
            return
        self.app.push_screen(LogScreen(self.view.log))

    def action_help(self) -> None:
        """Every key of the table."""
        self.app.push_screen(keys.HelpScreen())
