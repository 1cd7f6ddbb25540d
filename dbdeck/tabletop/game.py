"""The game protocol: what the shared layers know of a game.

The server, the saves, the table backends, the app shell and the CLI serve
any game through these two protocols and name none. A game brings:

- ``GameRules``: one game bound to its card content (the deckbuilding
  game's card catalog, the CCG's library). It reads a setup, starts a
  match, reads a match or an action back from JSON, and says how the table
  settles what the rules leave to the players (a tied vote, a bot's move).
- ``Match``: one game in play. Who is asked now, the offers for a seat, check
  and apply, the seat's view (private by construction), where undo must
  stop, a fingerprint, JSON, clone, and the result.

The shared layers speak of **seats** (a place at the table, held by one
person or by the bot) and **roles** (what a seat plays: a Character of the
deckbuilding game, a player of the CCG). A seat plays a set of roles; the
game says what that set may see and do. Actions, views, offers and events
are the game's own typed values; the shared layers only pass them along and
turn them into JSON with the methods named here.

Like boardgame.io's game object and OpenSpiel's Game/State/Observer: the
legal offers are the only source of what may be done, an illegal action is
refused with a reason and changes nothing, and chance comes only from the
match's own seeded generator, so a seed and the actions replay a game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, Self, TypeVar

__all__ = [
    "Advice",
    "Asked",
    "Event",
    "GameRules",
    "IllegalMove",
    "LogLine",
    "Match",
    "Offer",
    "Result",
    "Role",
    "SetupProblem",
    "Story",
    "Summary",
    "Unasked",
    "View",
]


class SetupProblem(ValueError):
    """A setup that is not a game, with the reason in the game's words."""


class IllegalMove(Exception):
    """The rules refused an action; ``reason`` says why. Nothing changed."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Role:
    """A part a seat can play (a Character, a CCG player)."""

    id: str
    """The role's id, as actions, seatings and saves name it."""
    name: str
    """The role in words."""
    seat: int
    """The seat the setup gives it."""


@dataclass(frozen=True, slots=True)
class Asked:
    """Who must act now."""

    roles: frozenset[str] = frozenset()
    """The roles that may act (empty: nobody, the game is over or waits)."""
    together: bool = False
    """A decision for the players together: any seat may answer (the first
    answer, or the seats' vote, as the table is run)."""

    @property
    def nobody(self) -> bool:
        """Whether no seat may act now."""
        return not self.roles and not self.together


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended."""

    winner: str
    """Who won, in words (a side, a player)."""
    reason: str
    """Why the game ended, in the rulebook's words."""


@dataclass(frozen=True, slots=True)
class Summary:
    """A game in a few words, for lists of saves and tables."""

    title: str
    """What is played: ``Freezer vs Goku, Krillin``."""
    opponent: str
    """The side the table plays against (a Villain, the other player)."""
    sides: tuple[str, ...]
    """The roles in play, in words."""
    turn: int
    round: int
    winner: str
    """Who won, in words; empty while the game goes on."""


@dataclass(frozen=True, slots=True)
class LogLine:
    """One thing that happened, in words: what a seat reads of an event."""

    kind: str
    """The kind of event (``draw``, ``damage`` …)."""
    text: str
    starts_turn: bool = False
    """Whether this line begins a turn, as the game counts turns: a saved
    game's log (``dbdeck log``) numbers its turns by these lines, or, for a
    game that marks none, by its summary's turn after each step."""


@dataclass(frozen=True, slots=True)
class Advice:
    """The coach's move: what the bot would do now, and why in one line."""

    action: object | None
    """The suggested action; ``None`` when the coach has nothing to say."""
    label: str
    """The action in words."""
    why: str
    """Why, in one line (or why there is no suggestion)."""


@dataclass(frozen=True, slots=True)
class Unasked:
    """An answer a table gives without asking: the decision has one
    possible answer, or every answer leaves the game the same."""

    action: object
    """The answer, an ordinary legal action (saved and replayed like any)."""
    words: str
    """The question and its answer, for the log."""


class Event(Protocol):
    """One thing that happened, as the game reports it."""

    @property
    def type(self) -> str:
        """The kind of event (``draw``, ``damage`` …)."""
        ...

    @property
    def text(self) -> str:
        """The event in words, for every seat."""
        ...


class View(Protocol):
    """What one seat may see: a frozen value made by the game."""

    def to_json(self) -> dict[str, Any]:
        """The view as JSON data, as the wire sends it."""
        ...


class Offer(Protocol):
    """A legal action as a seat receives it, labelled by the game."""

    @property
    def action(self) -> object:
        """The action (cards the seat may not see masked)."""
        ...

    @property
    def label(self) -> str:
        """The action in words."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The offer as JSON data."""
        ...


class Story(Protocol):
    """A game's story in numbers (damage dealt, cards bought), kept beside
    the game and shown when it ends."""

    def add(self, match: Match, events: Sequence[Event]) -> None:
        """Count what an action did."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The numbers as JSON data."""
        ...


class Match(Protocol):
    """One game in play, as every shared layer drives it.

    Changing methods (``apply``, ``go_on``) change this match; the shared
    layers work on a ``clone`` and keep it only once it is saved.
    """

    @property
    def game_id(self) -> str:
        """The id of the game this is a match of."""
        ...

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        ...

    @property
    def version(self) -> int:
        """How many actions the match has taken."""
        ...

    def result(self) -> Result | None:
        """How the game ended; ``None`` while it goes on."""
        ...

    def summary(self) -> Summary:
        """The game in a few words."""
        ...

    def roles(self) -> tuple[Role, ...]:
        """Every role in play, in seating order."""
        ...

    def asked(self) -> Asked:
        """Who must act now."""
        ...

    def role_name(self, role: str) -> str:
        """A role in words."""
        ...

    def offers(self, plays: frozenset[str]) -> Sequence[Offer]:
        """The legal actions for a seat that plays ``plays``, labelled, with
        what it may not see masked; empty unless that seat may act now."""
        ...

    def check(self, action: object) -> str | None:
        """Why ``action`` is illegal now, or ``None`` when it is legal."""
        ...

    def apply(self, action: object) -> Sequence[Event]:
        """Apply a legal action; an illegal one raises ``IllegalMove`` (or
        the game's own kind of it) and changes nothing."""
        ...

    def waiting(self) -> bool:
        """Whether a step the rules play themselves (the Villain's turn,
        step by step) waits for ``go_on``."""
        ...

    def go_on(self) -> Sequence[Event]:
        """Play the next waiting step."""
        ...

    @property
    def rules_turn(self) -> str:
        """Who plays the turns the rules play themselves, in words (``the
        Villain``): undo never goes back past such a turn."""
        ...

    @property
    def stepping(self) -> bool:
        """Whether the rules' own turns pause after each step."""
        ...

    def set_stepping(self, stepping: bool) -> None:
        """Whether the rules' own turns pause after each step (a table that
        shows the Villain's turn step by step)."""
        ...

    def view(self, seat: int | None, plays: frozenset[str], *, every_hand: bool = False) -> View:
        """The match as a seat that plays ``plays`` may see it (``seat``
        ``None``: a spectator; ``every_hand``: the owner's own replay)."""
        ...

    def frame(self) -> View:
        """The match as its owner's replay shows it: every hand, and never a
        turn waiting to go on (a still)."""
        ...

    def unasked(self) -> Unasked | None:
        """The answer to give without asking, when the pending decision's
        answer cannot matter; ``None`` when it can (or nothing is asked)."""
        ...

    def advice(self) -> Advice:
        """The coach: the bot's move now, with its reason."""
        ...

    @property
    def content(self) -> Any:
        """The card content the match draws from (a screen's card inspector
        reads it)."""
        ...

    def log(self, events: Sequence[Event], seat: int | None) -> tuple[LogLine, ...]:
        """Events as a seat may read them: words only."""
        ...

    def unmask(self, plays: frozenset[str], action: object) -> object:
        """The real action behind one a seat sent (an offer masks the cards
        of other hands)."""
        ...

    def names_unseen(self, seat: int | None, plays: frozenset[str], action: object) -> bool:
        """Whether ``action`` names something the seat cannot see: such an
        action is refused before the rules' reasons could tell it anything."""
        ...

    def reveals(self, events: Sequence[Event]) -> str | None:
        """Why undo must stop after these events (hidden information came
        to light: a draw, a shuffle, a roll), or ``None``."""
        ...

    def break_tie(self, tied: Sequence[int]) -> int:
        """The option a table that cannot agree takes, among ``tied``."""
        ...

    def bot_move(self, rng: random.Random, think: float | None = None) -> object:
        """The move the table's bot makes now (a legal action). ``think``:
        seconds the bot may take to think; given, a game with a planning bot
        plays it (fair: it thinks only on worlds the acting seat cannot tell
        from the match, ``determinize``), else its quick bot plays."""
        ...

    def latest_events(self) -> Sequence[Event]:
        """What the last change did (for a new match, what its setup did)."""
        ...

    def fingerprint(self) -> str:
        """A canonical text of the whole match, for comparing two."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The whole match (state and random generator) as JSON data."""
        ...

    def same_as(self, snapshot: Mapping[str, Any]) -> bool:
        """Whether this match is the one a snapshot (``to_json`` written to
        a file and read back) holds."""
        ...

    def clone(self) -> Self:
        """An independent copy that continues identically."""
        ...

    def determinize(self, plays: frozenset[str], rng: random.Random) -> Self:
        """A copy as one of the worlds a seat that plays ``plays`` cannot
        tell from this match: whatever that seat cannot know (deck orders,
        other hands, the future of the random generator) dealt again from
        ``rng``, every count kept, and the copy's generator reseeded from
        ``rng``. The seat's ``view`` of the copy is its view of this match,
        and the copy depends only on what the seat knows and on ``rng``, so
        a bot that thinks ahead on such copies plays fair. This match is
        left as it is."""
        ...


M_co = TypeVar("M_co", bound="Match", covariant=True)


class GameRules(Protocol[M_co]):
    """A game bound to its card content: how the shared layers start,
    read back and settle a match of it (a match of type ``M_co``)."""

    @property
    def game_id(self) -> str:
        """The game's id (``deckbuilding``, ``ccg``): saves, table entries and
        the wire name it."""
        ...

    @property
    def title(self) -> str:
        """The game's name, for people."""
        ...

    def read_setup(self, data: Mapping[str, Any]) -> Any:
        """A typed setup from JSON data; ``SetupProblem`` saying what is
        wrong with it."""
        ...

    def setup_json(self, setup: Any) -> dict[str, Any]:
        """A setup as JSON data."""
        ...

    def setup_seed(self, setup: Any) -> int:
        """The seed a setup starts the game's chance from."""
        ...

    def save_name(self, setup: Any) -> str:
        """The words a new save's id begins with (``freezer-goku``)."""
        ...

    def new(self, setup: Any) -> M_co:
        """A new match of ``setup``; ``SetupProblem`` when it is not a game."""
        ...

    def match_from_json(self, data: Mapping[str, Any]) -> M_co:
        """A match ``Match.to_json`` wrote (of this version or an older one);
        one the rules cannot play raises here, not later."""
        ...

    def read_snapshot(self, data: Any) -> dict[str, Any]:
        """A snapshot a save holds, checked for shape and in this version's
        form (an older one upgraded); ``ValueError`` saying what is wrong."""
        ...

    def read_action(self, data: Any) -> object:
        """An action from JSON data: exactly its kind's fields, typed and
        bounded; ``ValueError`` saying what is wrong."""
        ...

    def action_json(self, action: object) -> dict[str, Any]:
        """An action as JSON data."""
        ...

    def story(self) -> Story:
        """A new, empty story of a match."""
        ...

    @property
    def content(self) -> Any:
        """The card content the game is bound to (a screen's card inspector
        reads it)."""
        ...

    def read_view(self, data: Any) -> View:
        """A seat's view as the wire sent it; ``ValueError`` when it is not
        one this game can draw."""
        ...

    def read_offer(self, data: Any) -> Offer:
        """An offer as the wire sent it; ``ValueError`` when it is not one."""
        ...

    def read_story(self, data: Any) -> object:
        """The story's numbers as the wire sent them; ``ValueError`` when
        they cannot be read (the summary then shows what it can)."""
        ...
