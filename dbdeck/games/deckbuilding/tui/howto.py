"""How to play, inside the app: the goal, a Character's turn, the Villain's
turn, damage, the Time Track, the Dragon Balls, and the table's keys; one
section a page, turned with the arrows."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, Static

__all__ = ["HOW_TO_PLAY", "HowToPlay"]

HOW_TO_PLAY: list[tuple[str, str]] = [
    (
        "The goal",
        """\
One to four Characters fight one Villain together. The Characters win by
taking all the Villain's Health (41/50 on its board means 41 Health left of
50). The Villain wins by its own conditions, shown on its board in the rules
reference: against Freezer, if he and his Minions hold all seven Dragon
Balls, if every Character is defeated, or if the Ally Market runs empty.""",
    ),
    (
        "Turns",
        """\
The turn-order deck decides who plays next: a Character's card, the
Villain's card, or the Wildcard (the players choose who plays). When the
deck is empty the round ends and it is shuffled again, so a Villain can play
several turns in a row. The status line at the top always says the round and
whose turn it is.""",
    ),
    (
        "A Character's turn",
        """\
1. Start-of-turn effects resolve.
2. Energy Techniques: the one at Time 1 fires; the others move one slot left.
3. You may send one market card to the bottom of its deck (optional).
4. You may give your Dragon Balls to another Character or Ally (optional).
5. Actions, in any order: play Energy (p), buy cards (b) and one unclaimed
   Dragon Ball (d), attack with Physical Techniques alone or as a Combo (a),
   prepare Energy Techniques (t), boost them (o), put Allies, Equipment and
   Training into play, exhaust cards (x), use your ability (y), Steal (s).
6. End the turn (e): your hand and used cards are discarded; draw back to 5.
The table asks before a turn ends with Energy unspent or cards still playable.""",
    ),
    (
        "The Villain's turn",
        """\
The table plays it step by step (Space shows the rest at once): its
start-of-turn effects, its Energy attacks at Time 1, its Minions give it
their Dragon Balls and activate, then the top card of its deck: a Minion
joins, an Energy attack goes on its Time Track, a Physical attack strikes
now. When an attack names no target, the players choose who takes it: the
dialog shows the attack's damage and what each target would take.""",
    ),
    (
        "Damage",
        """\
BASIC damage is reduced by Armor and Damage Reduction (DR); PIERCING only by
Damage Reduction; UNAVOIDABLE by nothing. An attack aimed at the Villain is
taken by a Guardian Minion while one is in play. Damage beyond the Health
left is lost. A Combo is several Physical Techniques played as one attack:
their damage adds up and Armor counts once. The target picker shows the
damage each target would take, worked out by the rules before you choose.""",
    ),
    (
        "The Time Track",
        """\
Each board has four Time slots. An Energy Technique is prepared at its Time
(one slot later when that one is taken) and fires when it starts a turn at
Time 1. Energy cards with a booster effect can go beneath a prepared
Technique: their effect joins when it fires. The Villain's Energy attacks
move along its own Time Track the same way.""",
    ),
    (
        "Dragon Balls",
        """\
Seven balls, shown on the status line and on the tracker. Buy an unclaimed
one (its cost is on your board; one a turn), Steal them from the Villain and
its Minions (1 Energy per die, up to 7; each die may win a ball, hurt you,
both, or nothing: the Steal dialog shows the odds), or defeat whoever holds
them. With all seven the Characters make a wish.""",
    ),
    (
        "The table's keys",
        """\
Tab, Shift+Tab or 1-6 move between the hand (1), the markets (2), the
Character boards (3), the Villain (4), the action list (5) and the log (6).
On a board, the arrows move between its cards and Enter opens the card's
menu: what it can do now, and what it cannot, with the reason. In the hand,
Space selects Physical Techniques for a Combo; then a attacks with them.
The action list holds every legal action, grouped. g asks the coach for a
move, u undoes, i reads a card, ? lists every key, r opens the rules
reference, q quits. Every action is saved: dbdeck continue resumes.""",
    ),
]
"""The screen's sections: a title and its text."""


class HowToPlay(Screen[None]):
    """How to play, one section a page: → or n for the next, ← or p for the
    previous, Escape to leave."""

    BINDINGS = [
        Binding("right,n,pagedown", "turn(1)", "Next"),
        Binding("left,p,pageup", "turn(-1)", "Previous"),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
        Binding("escape,q", "app.pop_screen", "Back"),
    ]

    page: reactive[int] = reactive(0)
    """The section shown, from 0."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="howto"):
            yield Static(id="howto-page")
        yield Static(id="howto-keys", classes="keys")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "How to play"
        self.query_one(VerticalScroll).focus()
        self.watch_page(self.page)

    def watch_page(self, page: int) -> None:
        """Show one section, and where it stands among the others."""
        title, body = HOW_TO_PLAY[page]
        text = Text()
        text.append(f"{title}\n\n", style="bold underline")
        text.append(body)
        self.query_one("#howto-page", Static).update(text)
        keys = Text(f"Page {page + 1} of {len(HOW_TO_PLAY)}   ")
        if page > 0:
            keys.append(f"← or p: {HOW_TO_PLAY[page - 1][0]}   ")
        if page < len(HOW_TO_PLAY) - 1:
            keys.append(f"→ or n: {HOW_TO_PLAY[page + 1][0]}   ")
        keys.append("Escape: back")
        self.query_one("#howto-keys", Static).update(keys)
        self.query_one(VerticalScroll).scroll_home(animate=False)

    def action_turn(self, step: int) -> None:
        """The next or previous page; the first and last stay put."""
        self.page = max(0, min(len(HOW_TO_PLAY) - 1, self.page + step))

    def action_first(self) -> None:
        """The first page."""
        self.page = 0

    def action_last(self) -> None:
        """The last page."""
        self.page = len(HOW_TO_PLAY) - 1
