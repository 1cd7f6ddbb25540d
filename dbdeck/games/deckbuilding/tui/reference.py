"""Reference inside the app: the rules summary (searchable) and the card browser."""

from __future__ import annotations

from typing import get_args

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input, Select, Static

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.cards.kinds import CardKind
from dbdeck.games.deckbuilding.cards.rows import CardRow, card_rows
from dbdeck.games.deckbuilding.tui.dialogs import InspectorScreen

__all__ = [
    "COACH_RULES",
    "RULES",
    "CardBrowser",
    "RulesScreen",
    "location_rules",
    "villain_rules",
]

RULES: list[tuple[str, str]] = [
    (
        "Character turn",
        """\
1. Start-of-turn effects (you choose their order).
2. Energy Techniques: the Technique at Time 1 is used, then every prepared
   Technique moves one slot closer.
3. You may send one market card to the bottom of its deck.
4. You may give Dragon Balls of your Character or Allies to another
   Character or Ally in play.
5. Actions, in any order and as often as you can pay: play Energy, buy
   cards (the market restocks), buy one unclaimed Dragon Ball (two with the
   Dragon Radar), attempt a Steal, play Allies, Equipment and Training (3 of
   each; destroy one to make room; one Armor; no two of a name), attack with
   Physical Techniques (alone or as a Combo), prepare Energy Techniques,
   attach boosters, exhaust or destroy cards for their effects, use your
   ability, pay a red text to avoid a prepared Villain attack.
6. Discard your hand and every card you used.
7. Draw back up to 5 cards (the discard pile is shuffled when the deck runs out).""",
    ),
    (
        "Villain turn",
        """\
1. Start-of-turn effects (the players choose their order).
2. Energy Techniques: attacks at Time 1 resolve; the others move one slot.
3. Minions hand their Dragon Balls to the Villain.
4. Every ready Minion activates (Search Minions take an unclaimed ball).
5. The top card of the Villain deck is played: a Minion enters play, an
   Energy attack goes on the Time Track (its slot or the first free later
   one), a Physical attack resolves now. Exhausted Minions are readied.
When an attack names no target, the players choose who receives it.""",
    ),
    (
        "Turn order",
        """\
The turn-order deck has cards for each Character, a Wildcard (the players
choose who plays) and the Villain's cards. 1 Character: 2 cards and a
Wildcard; 2: 2 each; 3: 1 each and a Wildcard; 4: 1 each. A defeated
Character's card plays as a Wildcard. When the deck is empty the round ends
and the deck is shuffled again.""",
    ),
    (
        "Damage",
        """\
BASIC damage is reduced by Armor and Damage Reduction; PIERCING only by
Damage Reduction; UNAVOIDABLE by nothing (costs and Steal dice are
UNAVOIDABLE). One attack hits one enemy; damage beyond its Remaining Health
is lost. Guardian Minions take the attacks aimed at the Villain. Eliminate
deals Maximum Health + Armor + Damage Reduction, ignoring damage taken; Army
Minions are immune.""",
    ),
    (
        "Dragon Balls",
        """\
Gain control by being given one, buying an unclaimed one (the cost on your
board, once per turn), a Steal attempt (1 Energy per die, up to 7: blank,
ball, ball, damage, damage, damage and ball), or defeating whoever held them.
A Character defeated by a cost drops them (unclaimed). With all seven the
Characters make a wish.""",
    ),
    (
        "Races",
        """\
Android: cannot heal, can repair. Alien: can buy cards exclusive to other
races (not Saiyan ones). Animal: -1 Allies, Equipment and Training; heals 1
more. Demon: -1 Allies; heals 1 when it eliminates an enemy. God: may equip
a Training it buys at once. Human: +1 Ally. Konatsu: +1 Equipment. Monster:
may use a Technique it buys at once. Namekian: may pay 2 Energy to cut an
Energy Technique's Time by 1. Saiyan: +1 Training. Triclops: can buy
Techniques exclusive to other races.""",
    ),
    (
        "The Wish card",
        """\
When the Characters control all seven Dragon Balls, the active player makes
one wish: resurrect a Character or an eliminated Ally; 15 UNAVOIDABLE damage
(+2 per Level) to the Villain or a Minion; a market card for free to any
Character's discard pile; fully heal or repair a Character or Ally; return
up to 3 eliminated Allies to the Ally deck. Then the balls scatter.""",
    ),
    (
        "Room of Spirit and Time",
        """\
Enter instead of your Actions phase. Each turn inside adds a token (at most
4; on the fifth turn you must leave). While inside you are not in play.
Leaving at the start of a turn gives the reward for the turns spent inside,
and the card is destroyed. If everyone outside is defeated, the game ends.""",
    ),
    (
        "Block and Power Clash",
        """\
Block (Training): when a Physical attack targets you, pay 3 Energy (the
Villain) or 2 (a Minion) and reduce its damage by 1D3.
Power Clash (Training): against a Villain Energy attack of Time 2 or more,
with an Energy Technique prepared: your power is its damage (-1 per slot
above 1) + your Level + the Energy you add; the Villain's is its damage + its
Level + 1D6. Win: the Villain takes the attack's damage +1 per Energy card.
Lose: you take the damage +2. A tie cancels both.""",
    ),
    (
        "Duo cards",
        """\
Solo: set one Energy card per turn beside a Duo card of the Ally Market; it
lowers the cost and is destroyed when you buy the card. Co-op: each other
Character may give one Energy card from their hand to the buyer; given cards
are destroyed.""",
    ),
    (
        "Icons and words",
        """\
Market colours: Allies pink, Techniques blue, Energy green, Equipment
orange, Training yellow, Concentrated Energy cyan. A dimmed tile is one the
active Character cannot afford now; a struck-through one (marked x) one it
may never buy; a diamond (+ in ASCII) marks a card exclusive to a race or
Character. [E4 T2] is an Energy Technique of Damage 4 and Time 2; [P1] a
Physical one; [+2] an Energy card worth 2. A dot (- in ASCII) in a Time slot
is an empty slot. Health always reads left/maximum: 7/10 is 7 Health left
of 10. A filled ball is a held Dragon Ball, an empty one an unclaimed one.""",
    ),
]
"""The rules summary: our own words for the rulebook's turn summaries,
races, special cards and glossary."""


COACH_RULES = """\
The coach (key g) shows the move the greedy bot would make now, and why;
where the move is a real choice (what to buy, whom to attack, when to end
the turn), it thinks up to a second with the planner instead, playing the
greedy bot's best moves out two rounds on shuffles your seat cannot tell
from the real game, and says how the move fared against the next best.
The bot plays only legal moves. In the Actions phase it weighs them in this
order: put Allies, Equipment and Training into play; prepare Energy
Techniques (the earliest slot first); attach boosters; exhaust cards for
their effects; attack with as many Physical Techniques at once as it can
(a Combo is one attack, so Armor counts once), aiming at a Minion that
holds Dragon Balls, then a Guardian, then the Villain; use the special
ability; buy an unclaimed Dragon Ball when the Villain holds three or more,
or Steal when he holds four or more and its health allows; play Energy;
buy the dearest card it can afford; end the turn. For the players' choice
of who takes a Villain attack, it picks whoever survives it best, sparing
the Characters and the Allies that hold Dragon Balls."""
"""What the coach's bot considers (``games/deckbuilding/coach.py`` plays by it), for the
rules reference."""


def villain_rules(catalog: Catalog) -> list[tuple[str, str]]:
    """Each Villain's own rules, from its board: what it is, how the game is
    set up against it (its arrival), its phases, its death effect, its
    Extreme Mode and its victory."""
    sections = []
    for villain in catalog.villains():
        body = [
            villain.text,
            f"Setup and arrival: {villain.setup}",
            f"Death effect: {villain.death_effect_text}",
            f"Victory: {villain.victory_text}",
        ]
        if villain.extreme_mode:
            body.append(f"Extreme Mode: {villain.extreme_mode}")
        sections.append((f"Villain: {villain.name} (level {villain.level})", "\n".join(body)))
    return sections


def location_rules(catalog: Catalog) -> list[tuple[str, str]]:
    """Each Location's text, as the card says it (what it changes for the
    whole game)."""
    return [(f"Location: {place.name}", place.text) for place in catalog.locations()]


class RulesScreen(Screen[None]):
    """The rules summary, filtered by what you type; with a catalog, each
    Villain's own rules and each Location's text; and what the coach weighs."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def __init__(self, catalog: Catalog | None = None) -> None:
        super().__init__()
        self.sections = list(RULES)
        if catalog is not None:
            self.sections += villain_rules(catalog)
            self.sections += location_rules(catalog)
        self.sections.append(("The coach (suggest key g)", COACH_RULES))

    def compose(self) -> ComposeResult:
        yield Header()
        yield Input(
            placeholder="Search the rules (e.g. Armor, Wish, Saiyan, Kame House)", id="search"
        )
        with VerticalScroll(id="rules"):
            yield Static(id="rules-text")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "Rules reference"
        self._show("")
        self.query_one(Input).focus()

    @on(Input.Changed, "#search")
    def _search(self, event: Input.Changed) -> None:
        self._show(event.value)

    def _show(self, query: str) -> None:
        words = query.lower().split()
        text = Text()
        for title, body in self.sections:
            haystack = f"{title}\n{body}".lower()
            if all(w in haystack for w in words):
                text.append(f"{title}\n", style="bold underline")
                text.append(f"{body}\n\n")
        if not text:
            text.append("Nothing matches.", style="italic")
        self.query_one("#rules-text", Static).update(text)


NAME_WIDTH = 28
"""Cells of the card browser's Name column (a longer name ends with "…")."""

KIND_WORDS = {"villain-card": "Villain card", "concentrated-energy": "Conc. Energy"}
"""A kind of card as the browser names it, where not its id capitalised."""


class CardBrowser(Screen[None]):
    """Every card of the set, one row per card (copies as a count, cards
    printed alike together), filtered by kind and name; Enter inspects."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]
    KINDS = get_args(CardKind)

    def __init__(self, catalog: Catalog) -> None:
        super().__init__()
        self.catalog = catalog
        self.rows: dict[str, CardRow] = {}
        """The rows shown, by the id of the card each inspects."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="browser-filters"):
            yield Select([(k, k) for k in self.KINDS], prompt="Any kind", id="kind")
            yield Input(placeholder="Name contains…", id="name")
        yield DataTable(id="card-table", cursor_type="row")
        yield Static(id="card-details")
        with Vertical():
            yield Footer()

    def on_mount(self) -> None:
        self.title = "Card browser"
        table = self.query_one(DataTable)
        table.add_column("Name", width=NAME_WIDTH)
        table.add_columns("Kind", "Copies", "Cost", "Details")
        self._fill()

    @on(Select.Changed, "#kind")
    @on(Input.Changed, "#name")
    def _fill(self) -> None:
        kind = self.query_one("#kind", Select).value
        name = self.query_one("#name", Input).value.lower()
        table = self.query_one(DataTable)
        table.clear()
        chosen = [
            card
            for card in self.catalog.cards.values()
            if (not isinstance(kind, str) or card.kind == kind)
            and (not name or name in card.name.lower())
        ]
        self.rows = {row.ids[0]: row for row in card_rows(self.catalog, chosen)}
        for key, row in self.rows.items():
            # Names and texts are data: plain Text, never markup.
            title = Text(row.name)
            title.truncate(NAME_WIDTH, overflow="ellipsis")
            table.add_row(
                title,
                KIND_WORDS.get(row.kind, row.kind.capitalize()),
                Text(str(row.copies), justify="right"),
                Text(row.cost, justify="right"),
                Text(row.details),
                key=key,
            )
        if not self.rows:
            self.query_one("#card-details", Static).update(Text("No card matches.", style="italic"))

    @on(DataTable.RowHighlighted, "#card-table")
    def _explain(self, event: DataTable.RowHighlighted) -> None:
        """The highlighted row whole, under the table: its details may not
        fit their column at 80 columns."""
        row = self.rows.get(str(event.row_key.value))
        if row is None:
            return
        text = Text(row.name, style="bold")
        copies = f"{row.copies} {'copy' if row.copies == 1 else 'copies'}"
        cost = f", cost {row.cost}" if row.cost and row.cost != "starting" else ""
        text.append(f" · {KIND_WORDS.get(row.kind, row.kind.capitalize())}, {copies}{cost}\n")
        text.append(row.details)
        text.append("  (Enter: read the card)", style="dim")
        self.query_one("#card-details", Static).update(text)

    @on(DataTable.RowSelected, "#card-table")
    def _inspect(self, event: DataTable.RowSelected) -> None:
        card_id = event.row_key.value
        if card_id is not None:
            self.app.push_screen(InspectorScreen(self.catalog[card_id], self.catalog))
