"""CCG tables built by hand, as seat views, and a backend that serves them.

Each fixture is a ``TableView`` made directly (no rules run) with the
offers a seat would get: an early turn, a Combat with an attack to answer,
a search in progress (the searcher's view, and the other seat's, which
shows only that a search goes on), and a finished game. ``FakeBackend``
implements the table backend protocol over them and records every action
sent, so a test can say exactly what the screen did.

Seat 0 is Alice playing Goku (the hero); seat 1 is Bob playing Vegeta.
Titles are made up for the tests; the ones only Bob holds start ``Bob's``
so that a scan of the screen can look for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from dbdeck.games.ccg.table import actions as act
from dbdeck.games.ccg.table.view import (
    HIDDEN,
    CardFace,
    CombatPanel,
    LogLine,
    Offer,
    PersonalityPanel,
    SeatPanel,
    TableView,
)
from dbdeck.seating import Seating
from dbdeck.tabletop.game import Advice
from dbdeck.tabletop.game import LogLine as EventLine
from dbdeck.tui.backend import Handoff, Outcome

__all__ = [
    "ALICE_HAND",
    "BOB_SECRETS",
    "FakeBackend",
    "SoloBackend",
    "Table",
    "combat_attacker",
    "combat_defender",
    "early_turn",
    "game_over",
    "leaky_early_turn",
    "search_other",
    "search_own",
]

BOB_SECRETS = ("Bob's Hidden Flash", "Bob's Secret Guard", "Bob's Final Trick")
"""Titles only Bob holds in his hand: never on Alice's screen."""

ALICE_HAND = (
    "Kamehameha Drive",
    "Solar Block",
    "Orange Ki Stance",
    "Four Star Ball",
    "Senzu Pouch",
)


@dataclass(frozen=True, slots=True)
class Table:
    """A seat's view of a table and the offers it gets."""

    view: TableView
    offers: tuple[Offer, ...]
    name: str


def _card(uid: int, title: str, kind: str, owner: int, **more: Any) -> CardFace:
    return CardFace(uid=uid, title=title, type=kind, owner=owner, **more)


def _hidden(owner: int, n: int) -> tuple[CardFace, ...]:
    return tuple(CardFace(HIDDEN, "face-down card", "", owner, face_up=False) for _ in range(n))


def _goku(stages: int = 5, anger: int = 1, *, used: bool = False) -> PersonalityPanel:
    return PersonalityPanel(
        name="Goku",
        title="Goku Level 1",
        level=1,
        levels=(1, 2, 3, 4),
        stages=stages,
        max_stages=10,
        stage_values=(),
        anger=anger,
        pur=3,
        power_used=used,
        alignment="hero",
    )


def _vegeta(stages: int = 5, anger: int = 3) -> PersonalityPanel:
    return PersonalityPanel(
        name="Vegeta",
        title="Vegeta Level 2",
        level=2,
        levels=(1, 2, 3, 4),
        stages=stages,
        max_stages=10,
        stage_values=tuple(1000 * (n + 2) for n in range(11)),
        anger=anger,
        pur=None,
        power_used=True,
        alignment="villain",
    )


def _alice(*, hand_shown: bool, searching: bool = False, search_shown: bool = False) -> SeatPanel:
    hand = (
        tuple(
            _card(101 + n, title, "dragon-ball" if "Ball" in title else "energy-combat", 0)
            for n, title in enumerate(ALICE_HAND)
        )
        if hand_shown
        else _hidden(0, len(ALICE_HAND))
    )
    search = (
        (
            _card(201, "Earth Dragon Ball 2", "dragon-ball", 0),
            _card(202, "Goku Level 2", "personality", 0),
            _card(203, "Krillin's Guard", "physical-combat", 0),
        )
        if search_shown
        else ()
    )
    return SeatPanel(
        seat=0,
        player="Alice",
        main=_goku(),
        life_deck=44 if not searching else 41,
        hand=hand,
        discard=(_card(301, "Spent Punch", "physical-combat", 0),),
        removed=(),
        non_combat=(_card(401, "Capsule House", "non-combat", 0, used=True),),
        drills=(_card(402, "Turtle Drill", "drill", 0),),
        allies=(_card(403, "Krillin Level 1", "personality", 0, stages=3, max_stages=6),),
        dragon_balls=(_card(404, "Earth Dragon Ball 1", "dragon-ball", 0),),
        mastery=None,
        sensei=_card(405, "Master Roshi Sensei", "sensei", 0),
        sensei_deck=(
            (_card(406, "Gotenks Level 1", "personality", 0),) if hand_shown else _hidden(0, 1)
        ),
        set_aside=(),
        tokui_waza="Orange style",
        in_control=None,
        searching=searching,
        search=search,
        counters=(("fusion timer", 0),),
        final_physical_attack_used=False,
    )


def _bob(*, hand_shown: bool, leak: bool = False, stages: int = 5) -> SeatPanel:
    if hand_shown:
        hand = tuple(_card(501 + n, t, "physical-combat", 1) for n, t in enumerate(BOB_SECRETS))
    elif leak:
        # A view that (wrongly) carries the titles of unseen cards: the
        # screen still draws only their number.
        hand = tuple(
            _card(501 + n, t, "physical-combat", 1, face_up=False)
            for n, t in enumerate(BOB_SECRETS)
        )
    else:
        hand = _hidden(1, len(BOB_SECRETS))
    return SeatPanel(
        seat=1,
        player="Bob",
        main=_vegeta(stages=stages),
        life_deck=38,
        hand=hand,
        discard=(
            _card(601, "Saiyan Uppercut", "physical-combat", 1),
            _card(602, "Galick Burst", "energy-combat", 1),
        ),
        removed=(_card(603, "Old Scouter", "non-combat", 1),),
        non_combat=(),
        drills=(),
        allies=(_card(604, "Nappa Level 1", "personality", 1, stages=2, max_stages=5),),
        dragon_balls=(
            _card(605, "Namek Dragon Ball 4", "dragon-ball", 1),
            _card(607, "Earth Dragon Ball 6", "dragon-ball", 0, turned=True),
        ),
        mastery=_card(606, "Saiyan Mastery", "mastery", 1),
        sensei=None,
        sensei_deck=_hidden(1, 3) if not hand_shown else (),
        set_aside=(),
        tokui_waza="Saiyan style",
        in_control=None,
        searching=False,
        search=(),
        counters=(),
        final_physical_attack_used=False,
    )


_LOG = (
    LogLine("turn", "Turn 1: Alice (Goku) goes first as the Hero.", 0),
    LogLine("draw", "Alice draws three cards.", 0),
)


def _view(seats: tuple[SeatPanel, SeatPanel], viewer: int | None, **more: Any) -> TableView:
    base = TableView(
        viewer=viewer,
        turn=1,
        active=0,
        step="non-combat",
        step_words="Non-Combat: place Non-Combat cards, Drills, Allies and Dragon Balls.",
        seats=seats,
        location=None,
        combat=None,
        adjudication="suggest",
        profile="errata-2001",
        prompt="Alice: play cards, or end the Non-Combat step.",
        suggestion="Play Four Star Ball: a Dragon Ball's power is used at once.",
        winner=None,
        result="",
        log=_LOG,
    )
    return replace(base, **more)


def _o(action: act.Action, label: str, group: str) -> Offer:
    return Offer(action, label, group)


def _manual(seat: int, cards: Sequence[CardFace]) -> list[Offer]:
    offers: list[Offer] = []
    for face in cards:
        for zone in ("discard", "life-deck", "removed"):
            offers.append(
                _o(
                    act.MoveCard(seat=seat, card=face.uid, to=zone),
                    f"Move {face.title} to {zone}",
                    "manual",
                )
            )
        offers.append(
            _o(
                act.MoveCard(seat=seat, card=face.uid, to="life-deck", bottom=True),
                f"Move {face.title} to the bottom of the Life Deck",
                "manual",
            )
        )
        offers.append(_o(act.Flip(seat=seat, card=face.uid), f"Flip {face.title}", "manual"))
        offers.append(
            _o(act.MarkUsed(seat=seat, card=face.uid), f"Mark {face.title} used", "manual")
        )
    return offers


def early_turn(viewer: int = 0) -> Table:
    """Turn 1, Alice's Non-Combat step, seen by ``viewer``."""
    view = _view((_alice(hand_shown=viewer == 0), _bob(hand_shown=viewer == 1)), viewer)
    if viewer != 0:
        return Table(replace(view, prompt="Alice acts now.", suggestion=""), (), "early-other")
    seat = 0
    alice = view.seats[0]
    offers = [
        _o(act.PlayCard(seat=seat, card=104), "Play Four Star Ball", "turn"),
        _o(act.PlayCard(seat=seat, card=103), "Play Orange Ki Stance", "turn"),
        _o(act.EndNonCombat(seat=seat), "End the Non-Combat step", "turn"),
        _o(act.EndTurn(seat=seat), "End the turn", "turn"),
        *_manual(seat, [*alice.hand, *alice.non_combat, *alice.allies]),
        _o(act.DrawCards(seat=seat, count=1), "Draw 1 card", "manual"),
        _o(act.DrawCards(seat=seat, count=3), "Draw 3 cards", "manual"),
        _o(act.StartSearch(seat=seat), "Search your Life Deck", "manual"),
        _o(act.Shuffle(seat=seat), "Shuffle your Life Deck", "manual"),
        _o(act.Shuffle(seat=seat, pile="discard"), "Shuffle your discard pile", "manual"),
        _o(act.Counter(seat=seat, counter="stages", delta=1), "Goku: +1 stage", "manual"),
        _o(act.Counter(seat=seat, counter="stages", delta=-1), "Goku: -1 stage", "manual"),
        _o(act.Counter(seat=seat, counter="anger", delta=1), "Goku: +1 anger", "manual"),
        _o(act.Counter(seat=seat, counter="anger", delta=-1), "Goku: -1 anger", "manual"),
        _o(
            act.Counter(seat=seat, counter="ally-stages", delta=1, card=403),
            "Krillin: +1 stage",
            "manual",
        ),
        _o(act.Reveal(seat=seat, cards=(101,)), "Reveal Kamehameha Drive", "manual"),
        _o(act.Attach(seat=seat, card=402, to=403), "Attach Turtle Drill to Krillin", "manual"),
    ]
    return Table(view, tuple(offers), "early")


def leaky_early_turn() -> Table:
    """Alice's early turn with a view that carries Bob's hand titles face down."""
    table = early_turn(0)
    seats = (table.view.seats[0], _bob(hand_shown=False, leak=True))
    return Table(replace(table.view, seats=seats), table.offers, "early-leaky")


_COMBAT = CombatPanel(
    attacker=0,
    defender=1,
    phase="defender defends",
    acting=1,
    passes=1,
    attack="Kamehameha Drive: energy attack, 4 life cards (cost 2 stages)",
)


def combat_defender() -> Table:
    """Turn 3, Combat: Alice's energy attack waits for Bob's answer (Bob's view)."""
    view = _view(
        (_alice(hand_shown=False), _bob(hand_shown=True, stages=4)),
        1,
        turn=3,
        step="combat",
        step_words="Combat: attacks and defences until both players pass back to back.",
        combat=_COMBAT,
        location=_card(701, "Kami's Lookout", "location", 0),
        prompt="Bob: defend against Kamehameha Drive, or take the attack.",
        suggestion="Take the attack on Nappa: Vegeta keeps his stages.",
    )
    seat = 1
    offers = [
        _o(
            act.Defend(seat=seat, source=502, stops="energy"),
            "Defend with Bob's Secret Guard",
            "combat",
        ),
        _o(
            act.Defend(seat=seat, source=None, stops="energy"),
            "Defend with Vegeta's power",
            "combat",
        ),
        _o(act.AllowAttack(seat=seat), "Take the attack on Vegeta", "combat"),
        _o(act.AllowAttack(seat=seat, recipient=604), "Take the attack on Nappa", "combat"),
        _o(act.TakeControl(seat=seat, personality=604), "Nappa takes control of Combat", "combat"),
        _o(act.Counter(seat=seat, counter="stages", delta=-1), "Vegeta: -1 stage", "manual"),
    ]
    return Table(view, tuple(offers), "combat")


def combat_attacker() -> Table:
    """Turn 3, Combat, Alice's turn to attack (Alice's view): passes and the
    Final Physical Attack are offered."""
    table = combat_defender()
    combat = replace(_COMBAT, phase="attacker attacks", acting=0, passes=1, attack="")
    view = replace(
        table.view,
        viewer=0,
        seats=(_alice(hand_shown=True), _bob(hand_shown=False, stages=4)),
        combat=combat,
        prompt="Alice: attack, or pass (one more pass ends Combat).",
        suggestion="",
    )
    seat = 0
    offers = [
        _o(
            act.Attack(seat=seat, source=101, attack="energy"),
            "Attack with Kamehameha Drive",
            "combat",
        ),
        _o(act.Attack(seat=seat, attack="physical"), "Physical attack with Goku", "combat"),
        _o(act.Pass(seat=seat), "Pass", "combat"),
        _o(
            act.FinalPhysicalAttack(seat=seat, discard=102),
            "Final Physical Attack, discarding Solar Block",
            "combat",
        ),
        _o(
            act.FinalPhysicalAttack(seat=seat, discard=105),
            "Final Physical Attack, discarding Senzu Pouch",
            "combat",
        ),
    ]
    return Table(view, tuple(offers), "combat-attacker")


def search_own() -> Table:
    """Alice searches her Life Deck: she sees its cards."""
    view = _view(
        (_alice(hand_shown=True, searching=True, search_shown=True), _bob(hand_shown=False)),
        0,
        prompt="Alice: take the cards you searched for, then finish the search.",
        suggestion="",
    )
    seat = 0
    offers = [
        _o(act.SearchTake(seat=seat, cards=(uid,)), f"Take {title} to the hand", "manual")
        for uid, title in (
            (201, "Earth Dragon Ball 2"),
            (202, "Goku Level 2"),
            (203, "Krillin's Guard"),
        )
    ]
    offers.append(_o(act.FinishSearch(seat=seat), "Finish search & shuffle", "manual"))
    return Table(view, tuple(offers), "search")


def search_other() -> Table:
    """Bob's view while Alice searches: only that she is searching."""
    view = _view(
        (_alice(hand_shown=False, searching=True), _bob(hand_shown=True)),
        1,
        prompt="Alice is searching her Life Deck.",
        suggestion="",
    )
    return Table(view, (), "search-other")


def game_over() -> Table:
    """The game is over: Alice won."""
    view = _view(
        (_alice(hand_shown=True), _bob(hand_shown=False)),
        0,
        turn=9,
        step="over",
        step_words="The game is over.",
        winner=0,
        result="Goku reached his highest level: Personality victory.",
        prompt="",
        suggestion="",
    )
    return Table(view, (), "over")


@dataclass
class FakeBackend:
    """A table backend over hand-made views, recording what the screen sends.

    ``next_tables`` are shown one after the other as actions are accepted;
    ``refuse`` makes every action refused with that reason.
    """

    table: Table
    next_tables: list[Table] = field(default_factory=list)
    pending_handoff: Handoff | None = None
    refuse: str = ""
    events_waiting: list[EventLine] = field(default_factory=list)
    sent: list[Any] = field(default_factory=list)
    undone: int = 0
    keyboard_taken: int = 0
    seating: Seating = field(default_factory=Seating)
    shared: bool = False
    catalog: Any = None

    def view(self) -> TableView:
        """The current view."""
        return self.table.view

    def legal_actions(self) -> Sequence[Offer]:
        """The current offers (none while a hand-off waits)."""
        return () if self.pending_handoff is not None else self.table.offers

    def send(self, action: Any) -> Outcome:
        """Record the action; move to the next table, if any."""
        self.sent.append(action)
        if self.refuse:
            return Outcome(False, self.refuse)
        if self.next_tables:
            self.table = self.next_tables.pop(0)
        self.events_waiting.append(EventLine("note", f"Done: {action.kind}."))
        return Outcome(True)

    def undo(self) -> Outcome:
        """Count the undo."""
        self.undone += 1
        return Outcome(True, "Undone: the last action was taken back.")

    def events(self) -> list[EventLine]:
        """The lines not yet drawn."""
        lines, self.events_waiting = self.events_waiting, []
        return lines

    def resume(self) -> Outcome:
        """Nothing is paused at this table."""
        return Outcome(True)

    def handoff(self) -> Handoff | None:
        """The hand-off waiting, if any."""
        return self.pending_handoff

    def take_keyboard(self) -> None:
        """The next player is at the keyboard."""
        self.keyboard_taken += 1
        self.pending_handoff = None

    def hide_hands(self, hide: bool) -> Outcome:
        """Hands are as the views say."""
        return Outcome(False, "The views decide.")

    def suggest(self) -> Advice:
        """The view's suggestion."""
        return Advice(None, "", self.table.view.suggestion)

    def tally(self) -> object:
        """No counts here."""
        return None


@dataclass
class SoloBackend(FakeBackend):
    """Solo practice: the screen may switch seats."""

    other: Table | None = None
    switched: int = 0

    def switch_seat(self) -> Outcome:
        """Show the other seat's table."""
        self.switched += 1
        if self.other is not None:
            self.table, self.other = self.other, self.table
        return Outcome(True, "Now at the other seat.")
