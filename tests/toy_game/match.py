"""The toy game on the game protocol (``dbdeck.tabletop.game``).

Two players share one shuffled deck of number cards (1 to ``deck``). Each
starts with ``hand`` cards. On a turn the player draws (while the deck
lasts and the hand holds fewer than ``HAND_LIMIT``), and plays one card of
the hand, scoring its number; playing ends the turn. A player with no card
to draw or play passes. The game ends once the deck and both hands are
empty: the higher score wins.

A hand is private: the other seat sees how many cards it holds, never
which; the deck is seen as a count. A draw reveals a card, so undo stops
there.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from dbdeck.tabletop.game import (
    Advice,
    Asked,
    IllegalMove,
    LogLine,
    Match,
    Result,
    Role,
    SetupProblem,
    Summary,
    Unasked,
)
from toy_game import GAME_ID

__all__ = [
    "HAND_LIMIT",
    "ROLES",
    "Draw",
    "Pass",
    "Play",
    "ToyEvent",
    "ToyMatch",
    "ToyOffer",
    "ToyRules",
    "ToySetup",
    "ToyStory",
    "ToyView",
    "open_rules",
]

HAND_LIMIT = 3
"""A hand holds at most this many cards: a player draws up to it."""

ROLES = ("a", "b")
"""The two roles' ids, in seating order."""


# --- setup ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ToySetup:
    """What a toy game starts from."""

    seed: int
    """The number the deck's shuffle comes from."""
    players: tuple[str, str] = ("Ann", "Bob")
    """The two players' names."""
    deck: int = 10
    """The deck holds the cards 1 to ``deck``."""
    hand: int = 2
    """The cards each player draws as the game starts."""
    seats: tuple[int, int] = (0, 1)
    """The seat of each player (one seat may play both: hot-seat)."""


_SETUP_KEYS = ("seed", "players", "deck", "hand", "seats")


def _whole(data: Mapping[str, Any], key: str, low: int, high: int, default: int | None) -> int:
    value = data.get(key, default)
    if type(value) is not int or not low <= value <= high:  # ``True`` is no number
        raise SetupProblem(f"{key}: a whole number from {low} to {high}")
    return value


def _pair(data: Mapping[str, Any], key: str, default: tuple[Any, Any]) -> list[Any]:
    value = data.get(key, list(default))
    if not isinstance(value, list) or len(value) != 2:
        raise SetupProblem(f"{key}: a list of two, one per player")
    return value


def read_setup(data: Mapping[str, Any]) -> ToySetup:
    """A toy setup from JSON data; ``SetupProblem`` saying what is wrong."""
    if not isinstance(data, Mapping):
        raise SetupProblem("a toy setup is a JSON object")
    unknown = sorted(str(key) for key in data if key not in _SETUP_KEYS)
    if unknown:
        raise SetupProblem(f"{unknown[0]}: not a toy setup's key (it has {', '.join(_SETUP_KEYS)})")
    seed = _whole(data, "seed", 0, 2**63, None)
    deck = _whole(data, "deck", 2, 60, 10)
    hand = _whole(data, "hand", 0, HAND_LIMIT, 2)
    if 2 * hand > deck:
        raise SetupProblem(f"hand: {hand} cards each do not come from a deck of {deck}")
    players = _pair(data, "players", ("Ann", "Bob"))
    for name in players:
        if not isinstance(name, str) or not name.strip() or len(name) > 30:
            raise SetupProblem("players: two names of 1 to 30 characters")
        if not name.isprintable():
            raise SetupProblem("players: a name holds printable characters only")
    seats = _pair(data, "seats", (0, 1))
    if any(type(seat) is not int or seat not in (0, 1) for seat in seats):
        raise SetupProblem("seats: each player's seat, 0 or 1")
    return ToySetup(seed, (players[0], players[1]), deck, hand, (seats[0], seats[1]))


# --- actions -------------------------------------------------------------------------------


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Draw(_Action):
    """Draw the deck's top card."""

    type: Literal["draw"] = "draw"


class Play(_Action):
    """Play a card of the hand: its number scores, and the turn ends."""

    type: Literal["play"] = "play"
    card: Annotated[int, Field(ge=1, le=60)]
    """The card's number."""


class Pass(_Action):
    """End the turn with no card to draw or play."""

    type: Literal["pass"] = "pass"


ToyAction = Annotated[Draw | Play | Pass, Field(discriminator="type")]

_ACTIONS: TypeAdapter[Draw | Play | Pass] = TypeAdapter(ToyAction)


# --- events, offers, views -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ToyEvent:
    """One thing that happened."""

    type: str
    """``deal``, ``draw``, ``play``, ``pass``, ``turn`` or ``over``."""
    text: str
    """The event in words, for every seat."""
    role: str = ""
    """The player it happened to."""
    card: int = 0
    """The card drawn (the drawer's secret) or played."""


class _Wire(BaseModel):
    """A value the host sends: exactly its fields (JSON lists read as tuples)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class ToyOffer(_Wire):
    """A legal action as a seat receives it, in words."""

    action: ToyAction
    label: str

    def to_json(self) -> dict[str, Any]:
        """The offer as JSON data."""
        return self.model_dump(mode="json")


class ToyHand(_Wire):
    """A player's hand as a seat sees it."""

    role: str
    name: str
    count: int
    """How many cards it holds (every seat sees this)."""
    cards: tuple[int, ...] | None = None
    """Its cards, for the seat that plays it (``None``: hidden)."""
    score: int = 0
    pile: tuple[int, ...] = ()
    """The cards it played, face up."""


class ToyView(_Wire):
    """The table as one seat may see it."""

    seat: int | None
    hands: tuple[ToyHand, ToyHand]
    deck: int
    """The cards left in the deck (a count: the order is nobody's)."""
    active: str
    """The role whose turn it is (empty once the game is over)."""
    turn: int
    winner: str = ""
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        """The view as JSON data, as the wire sends it."""
        return self.model_dump(mode="json")


class ToyStory:
    """The game in numbers: the cards each player played."""

    def __init__(self, plays: dict[str, int] | None = None) -> None:
        self.plays = dict(plays or dict.fromkeys(ROLES, 0))

    def add(self, match: Match, events: Sequence[Any]) -> None:
        """Count the cards played."""
        for event in events:
            if isinstance(event, ToyEvent) and event.type == "play":
                self.plays[event.role] = self.plays.get(event.role, 0) + 1

    def to_json(self) -> dict[str, Any]:
        """The counts as JSON data."""
        return {"plays": dict(self.plays)}


# --- the match -----------------------------------------------------------------------------


class _Snapshot(BaseModel):
    """A saved toy match, checked for shape."""

    model_config = ConfigDict(extra="forbid", strict=True)

    setup: dict[str, Any]
    deck: list[Annotated[int, Field(ge=1, le=60)]]
    hands: Annotated[list[list[int]], Field(min_length=2, max_length=2)]
    piles: Annotated[list[list[int]], Field(min_length=2, max_length=2)]
    active: Annotated[int, Field(ge=0, le=1)]
    turn: Annotated[int, Field(ge=1)]
    version: Annotated[int, Field(ge=0)]


class ToyMatch:
    """One toy game in play."""

    game_id = GAME_ID

    def __init__(self, setup: ToySetup, deck: list[int]) -> None:
        self.setup = setup
        self.deck = deck
        """The deck, its top card last."""
        self.hands: list[list[int]] = [[], []]
        self.piles: list[list[int]] = [[], []]
        self.active = 0
        self.turn = 1
        self._version = 0
        self.stepping = False
        self.events: list[ToyEvent] = []

    # --- what the game is ----------------------------------------------------------------

    @property
    def over(self) -> bool:
        """The deck and both hands are empty."""
        return not self.deck and not any(self.hands)

    @property
    def version(self) -> int:
        """How many actions were taken."""
        return self._version

    def score(self, index: int) -> int:
        """A player's score: the numbers they played."""
        return sum(self.piles[index])

    def result(self) -> Result | None:
        """Who won, once it is over."""
        if not self.over:
            return None
        first, second = self.score(0), self.score(1)
        if first == second:
            return Result("nobody", f"a tie at {first}")
        won = 0 if first > second else 1
        return Result(self.setup.players[won], f"{max(first, second)} to {min(first, second)}")

    def summary(self) -> Summary:
        """The game in a few words."""
        result = self.result()
        first, second = self.setup.players
        return Summary(
            f"{first} vs {second}", first, (second,), self.turn, 0, result.winner if result else ""
        )

    def roles(self) -> tuple[Role, ...]:
        """The two players."""
        return tuple(
            Role(role, self.setup.players[i], self.setup.seats[i]) for i, role in enumerate(ROLES)
        )

    def role_name(self, role: str) -> str:
        """A player's name."""
        return self.setup.players[ROLES.index(role)] if role in ROLES else role

    def asked(self) -> Asked:
        """The player whose turn it is."""
        return Asked() if self.over else Asked(frozenset({ROLES[self.active]}))

    # --- offers, check, apply ------------------------------------------------------------

    def _candidates(self) -> list[Draw | Play | Pass]:
        hand = self.hands[self.active]
        return [Draw(), *(Play(card=card) for card in sorted(set(hand))), Pass()]

    def _legal(self) -> list[Draw | Play | Pass]:
        return [a for a in self._candidates() if self.check(a) is None]

    def label(self, action: Draw | Play | Pass) -> str:
        """An action in words."""
        if isinstance(action, Draw):
            return "Draw a card"
        if isinstance(action, Play):
            return f"Play {action.card}"
        return "Pass"

    def offers(self, plays: frozenset[str]) -> list[ToyOffer]:
        """The legal actions, for the seat of the player whose turn it is."""
        if self.over or ROLES[self.active] not in plays:
            return []
        return [ToyOffer(action=a, label=self.label(a)) for a in self._legal()]

    def check(self, action: object) -> str | None:
        """Why ``action`` is illegal now, or ``None``."""
        if not isinstance(action, (Draw, Play, Pass)):
            return "not an action of the toy game"
        if self.over:
            return "the game is over"
        hand = self.hands[self.active]
        name = self.setup.players[self.active]
        if isinstance(action, Draw):
            if not self.deck:
                return "the deck is empty"
            if len(hand) >= HAND_LIMIT:
                return f"a hand holds {HAND_LIMIT} cards at most"
            return None
        if isinstance(action, Play):
            return None if action.card in hand else f"{name} holds no {action.card}"
        if hand or self.deck:
            return "only a player with no card to draw or play passes"
        return None

    def apply(self, action: object) -> list[ToyEvent]:
        """Apply a legal action (``IllegalMove`` otherwise, changing nothing)."""
        reason = self.check(action)
        if reason is not None:
            raise IllegalMove(reason)
        me = self.active
        role, name = ROLES[me], self.setup.players[me]
        events: list[ToyEvent] = []
        if isinstance(action, Draw):
            card = self.deck.pop()
            self.hands[me].append(card)
            events.append(ToyEvent("draw", f"{name} draws a card.", role, card))
        else:
            if isinstance(action, Play):
                self.hands[me].remove(action.card)
                self.piles[me].append(action.card)
                said = f"{name} plays {action.card} (score {self.score(me)})."
                events.append(ToyEvent("play", said, role, action.card))
            else:
                events.append(ToyEvent("pass", f"{name} passes.", role))
            events += self._next_turn()
        self._version += 1
        self.events = events
        return list(events)

    def _next_turn(self) -> list[ToyEvent]:
        result = self.result()
        if result is not None:
            return [ToyEvent("over", f"The game is over: {result.winner} wins, {result.reason}.")]
        self.active = 1 - self.active
        self.turn += 1
        name = self.setup.players[self.active]
        return [ToyEvent("turn", f"Turn {self.turn}: {name} plays.", ROLES[self.active])]

    # --- the rules' own turns: the toy has none -------------------------------------------

    def waiting(self) -> bool:
        """Nothing waits: the toy plays no turn of its own."""
        return False

    def go_on(self) -> list[ToyEvent]:
        """Nothing to go on with."""
        return []

    @property
    def rules_turn(self) -> str:
        """Nobody plays a turn of the rules' own."""
        return "the dealer"

    def set_stepping(self, stepping: bool) -> None:
        """Kept, though no turn steps."""
        self.stepping = stepping

    # --- views and words -----------------------------------------------------------------

    def view(self, seat: int | None, plays: frozenset[str], *, every_hand: bool = False) -> ToyView:
        """The table as a seat playing ``plays`` may see it: its own hand,
        the other as a count."""
        result = self.result()
        hands = tuple(
            ToyHand(
                role=role,
                name=self.setup.players[i],
                count=len(self.hands[i]),
                cards=tuple(self.hands[i]) if every_hand or role in plays else None,
                score=self.score(i),
                pile=tuple(self.piles[i]),
            )
            for i, role in enumerate(ROLES)
        )
        return ToyView(
            seat=seat,
            hands=(hands[0], hands[1]),
            deck=len(self.deck),
            active="" if self.over else ROLES[self.active],
            turn=self.turn,
            winner=result.winner if result else "",
            reason=result.reason if result else "",
        )

    def frame(self) -> ToyView:
        """Every hand: the owner's replay."""
        return self.view(None, frozenset(), every_hand=True)

    def unasked(self) -> Unasked | None:
        """Every question of the toy is asked."""
        return None

    def advice(self) -> Advice:
        """The coach: the first legal move."""
        legal = self._legal()
        if not legal:
            return Advice(None, "", "Nothing to do.")
        return Advice(legal[0], self.label(legal[0]), "The first move offered.")

    @property
    def content(self) -> None:
        """The toy has no cards to inspect."""
        return None

    def log(self, events: Sequence[Any], seat: int | None) -> tuple[LogLine, ...]:
        """Events in words: the drawer's seat reads which card it drew."""
        lines = []
        for event in events:
            if not isinstance(event, ToyEvent):
                continue
            text = event.text
            if event.type == "draw" and seat is not None and self._seat_of(event.role) == seat:
                text = f"{self.role_name(event.role)} draws {event.card}."
            lines.append(LogLine(event.type, text, starts_turn=event.type == "turn"))
        return tuple(lines)

    def _seat_of(self, role: str) -> int:
        return self.setup.seats[ROLES.index(role)]

    def unmask(self, plays: frozenset[str], action: object) -> object:
        """An offer names no hidden card: the action is as sent."""
        return action

    def names_unseen(self, seat: int | None, plays: frozenset[str], action: object) -> bool:
        """Whether a play names a card of no hand the seat sees."""
        if not isinstance(action, Play):
            return False
        seen = [card for i, role in enumerate(ROLES) if role in plays for card in self.hands[i]]
        return action.card not in seen

    def reveals(self, events: Sequence[Any]) -> str | None:
        """A draw reveals a card to its player."""
        return next((e.text for e in events if getattr(e, "type", "") == "draw"), None)

    def break_tie(self, tied: Sequence[int]) -> int:
        """The first of the options tied (the toy asks no vote)."""
        return tied[0]

    def bot_move(self, rng: random.Random, think: float | None = None) -> Draw | Play | Pass:
        """A random legal move (``think`` changes nothing)."""
        return rng.choice(self._legal())

    def latest_events(self) -> list[ToyEvent]:
        """What the last change did."""
        return list(self.events)

    # --- JSON, comparing, copying --------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole match as JSON data (the deck's order too)."""
        return {
            "setup": setup_json(self.setup),
            "deck": list(self.deck),
            "hands": [list(h) for h in self.hands],
            "piles": [list(p) for p in self.piles],
            "active": self.active,
            "turn": self.turn,
            "version": self._version,
        }

    def fingerprint(self) -> str:
        """A canonical text of the whole match."""
        return json.dumps(self.to_json(), sort_keys=True)

    def same_as(self, snapshot: Mapping[str, Any]) -> bool:
        """Whether ``snapshot`` holds this match."""
        return bool(json.loads(json.dumps(self.to_json())) == snapshot)

    def clone(self) -> ToyMatch:
        """An independent copy that continues identically."""
        return copy.deepcopy(self)

    def determinize(self, plays: frozenset[str], rng: random.Random) -> ToyMatch:
        """A copy with the deck and the hands the seat does not play dealt
        again from ``rng`` (sorted first, so only what the seat knows counts),
        each count kept, and a seed of its own."""
        twin = self.clone()
        piles = [
            twin.deck,
            *(h for role, h in zip(ROLES, twin.hands, strict=True) if role not in plays),
        ]
        cards = sorted(card for pile in piles for card in pile)
        rng.shuffle(cards)
        for pile in piles:
            pile[:], cards = cards[: len(pile)], cards[len(pile) :]
        # The setup's seed would shuffle the real deck again.
        twin.setup = replace(twin.setup, seed=rng.randrange(2**63))
        return twin


def setup_json(setup: ToySetup) -> dict[str, Any]:
    """A setup as JSON data."""
    return {
        "seed": setup.seed,
        "players": list(setup.players),
        "deck": setup.deck,
        "hand": setup.hand,
        "seats": list(setup.seats),
    }


def _as_setup(setup: Any) -> ToySetup:
    if not isinstance(setup, ToySetup):
        raise SetupProblem("not a toy setup")
    return setup


class ToyRules:
    """The toy game (it has no card content)."""

    game_id = GAME_ID
    title = "Toy: Number Cards"

    def read_setup(self, data: Mapping[str, Any]) -> ToySetup:
        """A typed setup; ``SetupProblem`` saying what is wrong."""
        return read_setup(data)

    def setup_json(self, setup: Any) -> dict[str, Any]:
        """A setup as JSON data."""
        return setup_json(_as_setup(setup))

    def setup_seed(self, setup: Any) -> int:
        """The seed of the deck's shuffle."""
        return _as_setup(setup).seed

    def save_name(self, setup: Any) -> str:
        """A new save's id begins ``toy``."""
        return "toy"

    def new(self, setup: Any) -> ToyMatch:
        """Shuffle the deck and deal each player their cards."""
        setup = _as_setup(setup)
        deck = list(range(1, setup.deck + 1))
        random.Random(setup.seed).shuffle(deck)
        match = ToyMatch(setup, deck)
        for _ in range(setup.hand):
            for hand in match.hands:
                hand.append(match.deck.pop())
        first, second = setup.players
        match.events = [
            ToyEvent(
                "deal",
                f"The deck of {setup.deck} cards is shuffled; {first} and {second} "
                f"draw {setup.hand} each.",
            ),
            ToyEvent("turn", f"Turn 1: {first} plays.", ROLES[0]),
        ]
        return match

    def match_from_json(self, data: Mapping[str, Any]) -> ToyMatch:
        """A match ``to_json`` wrote; ``ValueError`` when it is not one."""
        checked = _Snapshot.model_validate(dict(data))
        match = ToyMatch(read_setup(checked.setup), list(checked.deck))
        match.hands = [list(h) for h in checked.hands]
        match.piles = [list(p) for p in checked.piles]
        match.active, match.turn, match._version = checked.active, checked.turn, checked.version
        return match

    def read_snapshot(self, data: Any) -> dict[str, Any]:
        """A saved snapshot, checked for shape."""
        if not isinstance(data, dict):
            raise ValueError("a toy snapshot is a JSON object")
        _Snapshot.model_validate(data)
        return data

    def read_action(self, data: Any) -> Draw | Play | Pass:
        """An action of exactly its kind's fields (``ValidationError``)."""
        return _ACTIONS.validate_python(data)

    def action_json(self, action: object) -> dict[str, Any]:
        """An action as JSON data."""
        if not isinstance(action, (Draw, Play, Pass)):
            raise ValueError("not an action of the toy game")
        return action.model_dump(mode="json")

    def story(self) -> ToyStory:
        """The counts of a new game."""
        return ToyStory()

    @property
    def content(self) -> None:
        """No cards."""
        return None

    def read_view(self, data: Any) -> ToyView:
        """A view as the wire sent it (``ValidationError``)."""
        return ToyView.model_validate(data)

    def read_offer(self, data: Any) -> ToyOffer:
        """An offer as the wire sent it (``ValidationError``)."""
        return ToyOffer.model_validate(data)

    def read_story(self, data: Any) -> ToyStory:
        """The counts as the wire sent them."""
        plays = data.get("plays") if isinstance(data, dict) else None
        if not isinstance(plays, dict):
            raise ValueError("not the toy's counts")
        try:
            return ToyStory({str(k): int(v) for k, v in plays.items()})
        except (TypeError, ValueError) as exc:
            raise ValueError(f"not the toy's counts ({exc})") from None


def open_rules(packs: Sequence[Path]) -> ToyRules:
    """The toy's rules (it reads no packs)."""
    return ToyRules()
