"""The CCG as the shared layers drive it: ``CcgRules`` and ``CcgMatch`` on
the game protocol (``dbdeck.tabletop.game``).

Two roles, ``p1`` and ``p2``, at seats 0 and 1. The table has no turn of
its own (nothing waits for ``go_on``); undo stops at anything that brought
hidden cards to light (a draw, a shuffle, a search, life cards of damage).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dbdeck.games.ccg.attack_table import PhysicalAttackTable, table_problems
from dbdeck.games.ccg.library import Library, load_library
from dbdeck.games.ccg.table import rules
from dbdeck.games.ccg.table.actions import Action
from dbdeck.games.ccg.table.card_facts import CardFacts
from dbdeck.games.ccg.table.determinize import redeal, told
from dbdeck.games.ccg.table.seat_view import log_lines, seat_view
from dbdeck.games.ccg.table.setup import CcgSetup, DeckProblem, new_table, recorded_setup
from dbdeck.games.ccg.table.snapshot import state_from_json, state_to_json
from dbdeck.games.ccg.table.state import Entry, TableState
from dbdeck.games.ccg.table.view import HIDDEN, CardFace, Offer, TableView
from dbdeck.tabletop.game import (
    Advice,
    Asked,
    Event,
    IllegalMove,
    LogLine,
    Result,
    Role,
    SetupProblem,
    Summary,
    Unasked,
)

__all__ = ["GAME_ID", "ROLES", "CcgMatch", "CcgRules", "CcgStory", "open_rules"]

GAME_ID = "ccg"
ROLES = ("p1", "p2")
"""The role of each seat."""

REVEALING = frozenset(
    {"draw", "shuffle", "search", "damage", "cut", "reveal", "fuse", "timer", "defuse"}
)
"""Kinds of log entry that bring hidden cards to light (a fusion's card
comes out of the Sensei Deck, a timer card is seen by its owner, a defusing
shuffles): undo stops there."""


class CcgStory:
    """A game's numbers: turns, attacks, life cards discarded."""

    def __init__(self) -> None:
        self.attacks = [0, 0]
        self.life_lost = [0, 0]

    def add(self, match: Any, events: Sequence[Event]) -> None:
        """Count what an action did."""
        for event in events:
            if isinstance(event, Entry) and event.seat in (0, 1):
                if event.kind == "attack":
                    self.attacks[event.seat] += 1
                elif (
                    event.kind == "damage"
                    and "life card" in event.text
                    and "discards" in event.text
                ):
                    words = event.text.split("discards ", 1)[1].split(" ", 1)[0]
                    if words.isdigit():
                        self.life_lost[event.seat] += int(words)

    def to_json(self) -> dict[str, Any]:
        """The numbers as JSON data."""
        return {"attacks": list(self.attacks), "life_lost": list(self.life_lost)}


class CcgRules:
    """The CCG bound to its library (shipped identities and the user's packs)."""

    game_id = GAME_ID
    title = "Dragon Ball Z Collectible Card Game"

    def __init__(self, library: Library) -> None:
        self.library = library

    def read_setup(self, data: Mapping[str, Any]) -> CcgSetup:
        """A setup from JSON data; ``SetupProblem`` naming the field."""
        from pydantic import ValidationError

        from dbdeck.games.ccg.edge_models import SetupModel

        try:
            checked = SetupModel.model_validate(dict(data))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = "".join(f".{part}" for part in first["loc"])
            message = str(first["msg"]).removeprefix("Value error, ")
            raise SetupProblem(f"setup{where}: {message}") from None
        fields = checked.model_dump(exclude={"attack_table", "card_facts"})
        if checked.card_facts is not None:
            fields["card_facts"] = tuple(
                CardFacts(
                    **card.model_dump(exclude={"dragon_ball", "ladder"}),
                    dragon_ball=(card.dragon_ball.set, card.dragon_ball.number)
                    if card.dragon_ball is not None
                    else None,
                    ladder=tuple(card.ladder),
                )
                for card in checked.card_facts
            )
        table = checked.attack_table
        if table is not None:
            wrong = table_problems(table.attacker_up_to, table.defender_up_to, table.damage)
            if wrong:
                where, message = wrong[0]
                raise SetupProblem(f"setup.attack_table.{where}: {message}")
            fields["attack_table"] = PhysicalAttackTable(
                attacker_up_to=tuple(table.attacker_up_to),
                defender_up_to=tuple(table.defender_up_to),
                damage=tuple(tuple(row) for row in table.damage),
                title=table.title,
            )
        return CcgSetup(**fields)

    def setup_json(self, setup: Any) -> dict[str, Any]:
        """A setup as JSON data."""
        s = _setup(setup)
        return {
            "players": list(s.players),
            "decks": list(s.decks),
            "profile": s.profile,
            "adjudication": s.adjudication,
            "seed": s.seed,
            "allow_illegal": s.allow_illegal,
            # Written only when given: a setup without one reads as before.
            **({"attack_table": s.attack_table.to_json()} if s.attack_table is not None else {}),
            **(
                {"card_facts": [_card_facts_json(card) for card in s.card_facts]}
                if s.card_facts is not None
                else {}
            ),
        }

    def record_facts(self, setup: Any) -> CcgSetup:
        """A new table's setup, checked by sitting it at a table, with the
        facts its table reads of every card recorded from the library as it
        is now (rules notes, T10): its save, replay and shared table then
        read those, whatever packs are present later. ``SetupProblem`` when
        a deck cannot be played."""
        try:
            recorded = recorded_setup(_setup(setup), self.library)
        except DeckProblem as exc:
            raise SetupProblem(str(exc)) from None
        # What is recorded is what a save reads back: the same bounds.
        return self.read_setup(json.loads(json.dumps(self.setup_json(recorded))))

    def setup_seed(self, setup: Any) -> int:
        """The seed of the table's chance."""
        return _setup(setup).seed

    def save_name(self, setup: Any) -> str:
        """A save's id begins ``ccg``."""
        return "ccg"

    def new(self, setup: Any) -> CcgMatch:
        """A new match; ``SetupProblem`` when a deck cannot be played."""
        try:
            return CcgMatch(new_table(_setup(setup), self.library), self.library)
        except DeckProblem as exc:
            raise SetupProblem(str(exc)) from None

    def match_from_json(self, data: Mapping[str, Any]) -> CcgMatch:
        """A match ``CcgMatch.to_json`` wrote."""
        match = CcgMatch(state_from_json(data), self.library)
        match.offers(frozenset(ROLES))
        return match

    def read_snapshot(self, data: Any) -> dict[str, Any]:
        """A snapshot checked by reading it (``ValueError`` when it is not one)."""
        if not isinstance(data, dict):
            raise ValueError("not a CCG table: a snapshot is a JSON object")
        state_from_json(data)
        return data

    def read_action(self, data: Any) -> Action:
        """An action from JSON: exactly its kind's fields."""
        from dbdeck.games.ccg.edge_models import read_action

        return read_action(data)

    def action_json(self, action: object) -> dict[str, Any]:
        """An action as JSON data."""
        return _action(action).to_json()

    def story(self) -> CcgStory:
        """A new, empty story."""
        return CcgStory()

    @property
    def content(self) -> Library:
        """The library."""
        return self.library

    def read_view(self, data: Any) -> TableView:
        """A view from the wire."""
        from dbdeck.games.ccg.edge_models import read_view

        return read_view(data)

    def read_offer(self, data: Any) -> Offer:
        """An offer from the wire."""
        from dbdeck.games.ccg.edge_models import read_offer

        return read_offer(data)

    def read_story(self, data: Any) -> dict[str, Any]:
        """The story's numbers from the wire."""
        if not isinstance(data, dict):
            raise ValueError("not the numbers of a game")
        return data


def _card_facts_json(card: CardFacts) -> dict[str, Any]:
    """One card's recorded facts as JSON data (what is unknown, left out)."""
    data: dict[str, Any] = {"written": card.written, "title": card.title}
    for name in ("card_id", "type", "personality", "level", "alignment", "pur"):
        value = getattr(card, name)
        if value not in (None, ""):
            data[name] = value
    if card.dragon_ball is not None:
        data["dragon_ball"] = {"set": card.dragon_ball[0], "number": card.dragon_ball[1]}
    if card.ladder:
        data["ladder"] = list(card.ladder)
    if card.fusion is not None:
        data["fusion"] = card.fusion
    return data


def _setup(setup: Any) -> CcgSetup:
    if not isinstance(setup, CcgSetup):
        raise SetupProblem("not a setup of the CCG")
    return setup


def _action(action: object) -> Action:
    if not isinstance(action, Action):
        raise TypeError(f"not an action of the CCG: {type(action).__name__}")
    return action


def _seat_of(plays: frozenset[str], state: TableState) -> int | None:
    seats = [ROLES.index(r) for r in plays if r in ROLES]
    if len(seats) == 1:
        return seats[0]
    if len(seats) == 2:
        return rules.asked(state) if rules.asked(state) is not None else state.active
    return None


class CcgMatch:
    """One CCG game at a two-seat table."""

    __slots__ = ("_events", "library", "state")

    game_id = GAME_ID

    def __init__(self, state: TableState, library: Library) -> None:
        self.state = state
        self.library = library
        self._events: list[Entry] = list(state.log) if state.version == 0 else []

    @property
    def over(self) -> bool:
        """Whether someone has won."""
        return self.state.winner is not None

    @property
    def version(self) -> int:
        """How many actions the match has taken."""
        return self.state.version

    def result(self) -> Result | None:
        """The winner and the victory."""
        if self.state.winner is None:
            return None
        return Result(self.state.side(self.state.winner).player, self.state.result)

    def summary(self) -> Summary:
        """The game in a few words."""
        a, b = self.state.sides
        winner = self.state.side(self.state.winner).player if self.state.winner is not None else ""
        return Summary(
            title=f"{a.main_name} vs {b.main_name}",
            opponent=f"{b.player} ({b.main_name})",
            sides=(f"{a.player} ({a.main_name})",),
            turn=self.state.turn,
            round=(self.state.turn + 1) // 2,
            winner=winner,
        )

    def roles(self) -> tuple[Role, ...]:
        """The two players."""
        return tuple(Role(ROLES[side.seat], side.main_name, side.seat) for side in self.state.sides)

    def asked(self) -> Asked:
        """The player who acts now."""
        seat = rules.asked(self.state)
        return Asked(frozenset({ROLES[seat]})) if seat is not None else Asked()

    def role_name(self, role: str) -> str:
        """A role in words: the player's name."""
        return self.state.side(ROLES.index(role)).player if role in ROLES else role

    def offers(self, plays: frozenset[str]) -> list[Offer]:
        """The asked player's legal actions, when that seat plays its role."""
        seat = rules.asked(self.state)
        if seat is None or ROLES[seat] not in plays:
            return []
        return [
            Offer(action, label, group) for action, label, group in rules.offers(self.state, seat)
        ]

    def check(self, action: object) -> str | None:
        """Why the action is refused now, or ``None``."""
        if not isinstance(action, Action):
            return "not an action of this game"
        return rules.check(self.state, action)

    def apply(self, action: object) -> list[Entry]:
        """Apply a legal action; ``IllegalMove`` saying why and changing
        nothing otherwise."""
        if not isinstance(action, Action):
            raise IllegalMove("not an action of this game")
        try:
            self._events = rules.apply(self.state, action)
        except rules.Refused as exc:
            raise IllegalMove(exc.reason) from None
        return self._events

    def waiting(self) -> bool:
        """The table plays no turn of its own."""
        return False

    def go_on(self) -> list[Entry]:
        """Nothing waits."""
        return []

    @property
    def rules_turn(self) -> str:
        """No turn is the rules' own."""
        return ""

    @property
    def stepping(self) -> bool:
        """Nothing steps."""
        return False

    def set_stepping(self, stepping: bool) -> None:
        """Nothing steps."""

    def view(
        self, seat: int | None, plays: frozenset[str], *, every_hand: bool = False
    ) -> TableView:
        """The table as that seat may see it (a seat playing both roles, in
        solo practice, sees as the player asked now)."""
        viewer = None if seat is None else _seat_of(plays, self.state)
        return seat_view(self.state, viewer, every_hand=every_hand)

    def frame(self) -> TableView:
        """Both hands: the owner's replay."""
        return seat_view(self.state, None, every_hand=True)

    def unasked(self) -> Unasked | None:
        """No decision answers itself here."""
        return None

    def advice(self) -> Advice:
        """What the sparring bot would do now."""
        seat = rules.asked(self.state)
        if seat is None:
            return Advice(None, "", "the game is over")
        action = self.bot_move(random.Random(self.state.version))
        label = next((lab for act, lab, _ in rules.offers(self.state, seat) if act == action), "")
        return Advice(action, label, "the sparring bot's habit: it cannot read card texts")

    @property
    def content(self) -> Library:
        """The library."""
        return self.library

    def log(self, events: Sequence[Event], seat: int | None) -> tuple[LogLine, ...]:
        """Events as a seat may read them."""
        entries = [e for e in events if isinstance(e, Entry)]
        return tuple(
            LogLine(line.kind, line.text, starts_turn=line.kind == "turn")
            for line in log_lines(entries, seat)
        )

    def unmask(self, plays: frozenset[str], action: object) -> Action:
        """Offers name only the seat's own visible cards: nothing is masked."""
        return _action(action)

    def names_unseen(self, seat: int | None, plays: frozenset[str], action: object) -> bool:
        """Whether the action names a card the seat cannot see."""
        act = _action(action)
        named: list[int] = []
        for field in (
            "card",
            "over",
            "source",
            "discard",
            "recipient",
            "ball",
            "keep",
            "personality",
            "to",
            "fusion",
            "ally",
            "partner",
        ):
            value = getattr(act, field, None)
            if isinstance(value, int) and not isinstance(value, bool):
                named.append(value)
        named.extend(getattr(act, "cards", ()))
        if not named:
            return False
        seen = _seen(self.view(seat, plays))
        seen.update(uid for side in self.state.sides for uid in side.levels)
        return any(uid == HIDDEN or uid not in seen for uid in named)

    def reveals(self, events: Sequence[Event]) -> str | None:
        """The first entry that brought hidden cards to light."""
        return next((e.text for e in events if e.type in REVEALING), None)

    def break_tie(self, tied: Sequence[int]) -> int:
        """Two players never vote."""
        return tied[0]

    def bot_move(self, rng: random.Random, think: float | None = None) -> Action:
        """The sparring bot's move (``dbdeck.games.ccg.table.bot``); it does
        not think ahead, so ``think`` changes nothing."""
        from dbdeck.games.ccg.table.bot import sparring_move

        return sparring_move(self.state, rng)

    def latest_events(self) -> list[Entry]:
        """What the last change did."""
        return list(self._events)

    def fingerprint(self) -> str:
        """A canonical text of the whole table."""
        return json.dumps(state_to_json(self.state), sort_keys=True, separators=(",", ":"))

    def to_json(self) -> dict[str, Any]:
        """The whole table as JSON data."""
        return state_to_json(self.state)

    def same_as(self, snapshot: Mapping[str, Any]) -> bool:
        """Whether this is the table ``snapshot`` holds."""
        return bool(json.loads(json.dumps(self.to_json())) == snapshot)

    def clone(self) -> CcgMatch:
        """An independent copy that continues identically."""
        twin = CcgMatch(state_from_json(json.loads(json.dumps(self.to_json()))), self.library)
        twin._events = list(self._events)
        return twin

    def determinize(self, plays: frozenset[str], rng: random.Random) -> CcgMatch:
        """A table the seat playing ``plays`` cannot tell from this one: the
        Life Deck orders, the other hand and Sensei Deck dealt again, the
        generator reseeded (``table/determinize.py``)."""
        twin = self.clone()
        seats = frozenset(ROLES.index(role) for role in plays if role in ROLES)
        redeal(twin.state, seats, rng)
        twin._events = told(twin._events, seats)
        twin.state.rng = random.Random(rng.getrandbits(64))
        return twin


def _seen(view: TableView) -> set[int]:
    """Every card uid a view shows."""
    seen: set[int] = set()

    def add(face: CardFace | None) -> None:
        if face is None or face.uid == HIDDEN:
            return
        seen.add(face.uid)
        for child in face.beneath:
            add(child)

    for panel in view.seats:
        for group in (
            panel.hand,
            panel.discard,
            panel.removed,
            panel.non_combat,
            panel.drills,
            panel.allies,
            panel.dragon_balls,
            panel.sensei_deck,
            panel.set_aside,
            panel.search,
            panel.fused,
            panel.timer,
        ):
            for face in group:
                add(face)
        add(panel.mastery)
        add(panel.sensei)
        add(panel.fusion)
    add(view.location)
    return seen


def open_rules(packs: Sequence[Path]) -> CcgRules:
    """The CCG on the shipped identities and ``packs``."""
    return CcgRules(load_library(list(packs)))
