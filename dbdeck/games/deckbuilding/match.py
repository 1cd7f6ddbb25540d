"""The deckbuilding game on the game protocol (``dbdeck.tabletop.game``).

``DeckbuildingRules`` binds the game to a card catalog; ``DeckbuildingMatch``
is one game in play, a thin face over the engine's ``Game`` that speaks the
protocol's words: roles are the Characters, the seats' views are
``seat_view``, a decision for the players together is ``players``, the
rules' own turns are the Villain's, and the bot is the greedy one.
"""

from __future__ import annotations

import dataclasses
import json
import random
import typing
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from dbdeck.games.deckbuilding import bots
from dbdeck.games.deckbuilding.cards.catalog import Catalog, load_catalog
from dbdeck.games.deckbuilding.engine.actions import Action, Choose
from dbdeck.games.deckbuilding.engine.events import Event as EngineEvent
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.grim import break_tie
from dbdeck.games.deckbuilding.engine.holders import VILLAIN, CharacterRef
from dbdeck.games.deckbuilding.engine.panels import HIDDEN, LogLine, Offer, TableView
from dbdeck.games.deckbuilding.engine.preview import moot_answer
from dbdeck.games.deckbuilding.engine.state import upgrade_snapshot
from dbdeck.games.deckbuilding.engine.tally import Tally
from dbdeck.games.deckbuilding.engine.view import log_lines, seat_offers, seat_view, unmask
from dbdeck.saves.replay import replay_events, story_of
from dbdeck.tabletop.game import (
    Advice,
    Asked,
    Event,
    Match,
    Result,
    Role,
    SetupProblem,
    Summary,
    Unasked,
)

__all__ = [
    "GAME_ID",
    "REVEALING",
    "DeckbuildingMatch",
    "DeckbuildingRules",
    "DeckbuildingStory",
    "open_rules",
]

GAME_ID = "deckbuilding"
"""The game's id in saves, table entries and on the wire."""

REVEALING = frozenset({"draw", "shuffle", "roll", "reveal", "search", "summon"})
"""Event types that reveal hidden information: undo never goes back past them."""
COACH_THINK = 1.0
"""The coach's seconds of thought at most, when the planner weighs a move."""
COACH_PLAYOUTS = 24
"""The coach's playouts at most per suggestion."""


# --- the story ---------------------------------------------------------------------------


class DeckbuildingStory:
    """The game's story in numbers: the engine's ``Tally``."""

    __slots__ = ("tally",)

    def __init__(self, tally: Tally | None = None) -> None:
        self.tally = tally or Tally()

    def add(self, match: Match, events: Sequence[Event]) -> None:
        """Count what an action did."""
        assert isinstance(match, DeckbuildingMatch)
        self.tally.add(match.game, [e for e in events if isinstance(e, EngineEvent)])

    def to_json(self) -> dict[str, Any]:
        """The numbers as JSON data."""
        return self.tally.to_json()


# --- the rules ---------------------------------------------------------------------------


class DeckbuildingRules:
    """The deckbuilding game bound to a card catalog."""

    game_id = GAME_ID
    title = "Dragon Ball: Deckbuilding Game"

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def read_setup(self, data: Mapping[str, Any]) -> Setup:
        """A ``Setup`` from JSON data (exactly its fields, typed and bounded);
        ``SetupProblem`` naming the first field that is wrong."""
        from pydantic import ValidationError

        from dbdeck.games.deckbuilding.edge_models import SETUP_MODEL

        try:
            checked = SETUP_MODEL.model_validate(dict(data))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            more = f" (and {exc.error_count() - 1} more problems)" if exc.error_count() > 1 else ""
            raise SetupProblem(f"setup.{where}: {first['msg']}{more}") from None
        return Setup(**checked.model_dump())

    def setup_json(self, setup: Any) -> dict[str, Any]:
        """A setup as JSON data."""
        return _setup(setup).to_json()

    def setup_seed(self, setup: Any) -> int:
        """The seed a setup starts the game's chance from."""
        return _setup(setup).seed

    def save_name(self, setup: Any) -> str:
        """A new save's id names its Villain."""
        return _setup(setup).villain

    def new(self, setup: Any) -> DeckbuildingMatch:
        """A new match; ``SetupError`` (a ``SetupProblem``) when the setup is
        not a game."""
        return DeckbuildingMatch(Game.new(self.catalog, _setup(setup)))

    def match_from_json(self, data: Mapping[str, Any]) -> DeckbuildingMatch:
        """A match ``DeckbuildingMatch.to_json`` wrote. A snapshot the engine
        cannot read fails here, not later: the legal actions are worked out
        once."""
        game = Game.from_json(self.catalog, dict(data))
        game.legal_actions()
        return DeckbuildingMatch(game)

    def read_snapshot(self, data: Any) -> dict[str, Any]:
        """A snapshot checked for shape (pydantic's ``ValidationError``) and
        in this version's form (a snapshot of version 1 is upgraded)."""
        from dbdeck.games.deckbuilding.edge_models import GameSnapshot

        GameSnapshot.model_validate(data)
        upgraded: dict[str, Any] = upgrade_snapshot(data)
        return upgraded

    def read_action(self, data: Any) -> Action:
        """An action from JSON: exactly its kind's fields (pydantic's
        ``ValidationError``, a ``ValueError``, says which is wrong)."""
        from dbdeck.games.deckbuilding.action_models import read_action

        return read_action(data)

    def action_json(self, action: object) -> dict[str, Any]:
        """An action as JSON data."""
        return _action(action).to_json()

    def story(self) -> DeckbuildingStory:
        """A new, empty story."""
        return DeckbuildingStory()

    @property
    def content(self) -> Catalog:
        """The card catalog."""
        return self.catalog

    def read_view(self, data: Any) -> TableView:
        """A ``TableView`` from the wire (``ValueError`` or pydantic's
        ``ValidationError`` when it is not one)."""
        return TableView.from_json(data)

    def read_offer(self, data: Any) -> Offer:
        """An ``Offer`` from the wire."""
        return Offer.from_json(data)

    def read_story(self, data: Any) -> Tally:
        """The ``Tally`` the server sent once the game ended."""
        try:
            return Tally.from_json(data)
        except (TypeError, KeyError, AttributeError) as exc:
            raise ValueError(f"not the numbers of a game: {exc}") from None


def _setup(setup: Any) -> Setup:
    if not isinstance(setup, Setup):
        raise SetupProblem("not a setup of the deckbuilding game")
    return setup


def _action(action: object) -> Action:
    if not isinstance(action, Action):
        raise TypeError(f"not an action of the deckbuilding game: {type(action).__name__}")
    return action


# --- one match ---------------------------------------------------------------------------


class DeckbuildingMatch:
    """One game of the deckbuilding game, as the shared layers drive it."""

    __slots__ = ("game",)

    game_id = GAME_ID

    def __init__(self, game: Game) -> None:
        self.game = game

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.game.over

    @property
    def version(self) -> int:
        """How many actions the game has taken."""
        return self.game.state.actions

    def result(self) -> Result | None:
        """Who won and why; ``None`` while the game goes on."""
        s = self.game.state
        return Result(s.winner, s.reason) if s.winner else None

    def summary(self) -> Summary:
        """The Villain, the Characters, the turn."""
        s = self.game.state
        names = tuple(self.game.name(CharacterRef(c.id)) for c in s.characters)
        villain = self.game.name(VILLAIN)
        return Summary(
            title=f"{villain} vs {', '.join(names)}",
            opponent=villain,
            sides=names,
            turn=s.turn,
            round=s.round,
            winner=s.winner,
        )

    def roles(self) -> tuple[Role, ...]:
        """The Characters, each with the seat the setup gave it."""
        return tuple(
            Role(c.id, self.game.name(CharacterRef(c.id)), c.seat)
            for c in self.game.state.characters
        )

    def role_name(self, role: str) -> str:
        """A Character's name."""
        return self.game.name(CharacterRef(role))

    def asked(self) -> Asked:
        """The Character who acts, or the players together."""
        actor = self.game.actor()
        if actor is None:
            return Asked()
        if actor == "players":
            return Asked(together=True)
        return Asked(frozenset({actor}))

    @property
    def rules_turn(self) -> str:
        """Who plays the turns the rules play themselves."""
        return "the Villain"

    def offers(self, plays: frozenset[str]) -> list[Offer]:
        """The legal actions for a seat playing ``plays``."""
        return seat_offers(self.game, None, plays=plays)

    def check(self, action: object) -> str | None:
        """Why ``action`` is illegal now, or ``None``."""
        # The engine tells anything not of its own shape from an action.
        return self.game.check(typing.cast(Action, action))

    def apply(self, action: object) -> list[EngineEvent]:
        """Apply a legal action (``IllegalAction`` otherwise)."""
        return self.game.apply(typing.cast(Action, action))

    def waiting(self) -> bool:
        """Whether the Villain's turn waits for its next step."""
        return self.game.state.paused

    def go_on(self) -> list[EngineEvent]:
        """Play the next step of the Villain's turn."""
        return self.game.resume()

    def set_stepping(self, stepping: bool) -> None:
        """Pause the Villain's turn after each step."""
        self.game.step_mode = stepping

    @property
    def stepping(self) -> bool:
        """Whether the Villain's turn pauses after each step."""
        return self.game.step_mode

    def view(
        self, seat: int | None, plays: frozenset[str], *, every_hand: bool = False
    ) -> TableView:
        """The table as that seat may see it."""
        return seat_view(self.game, seat, plays=plays, every_hand=every_hand)

    def frame(self) -> TableView:
        """Every hand, and never a Villain's turn waiting to go on."""
        return dataclasses.replace(seat_view(self.game, None, every_hand=True), paused=False)

    def unasked(self) -> Unasked | None:
        """The answer of a decision with one possible answer, or whose
        answers all leave the game the same (``preview.moot_answer``)."""
        pending = self.game.state.pending
        if pending is None or self.game.state.paused:
            return None
        option = moot_answer(self.game)
        if option is None:
            return None
        return Unasked(Choose(option=option), f"{pending.prompt} {pending.options[option].label}")

    def advice(self) -> Advice:
        """The coach's move and its reason: the planner's, where it weighs
        the move (a second's thought at most), else the greedy bot's."""
        from dbdeck.games.deckbuilding.coach import suggest
        from dbdeck.games.deckbuilding.planner import Planner

        return suggest(self.game, Planner(think=COACH_THINK, iterations=COACH_PLAYOUTS))

    @property
    def content(self) -> Catalog:
        """The card catalog."""
        return self.game.catalog

    def log(self, events: Sequence[Event], seat: int | None) -> tuple[LogLine, ...]:
        """Events in words."""
        return log_lines([e for e in events if isinstance(e, EngineEvent)], self.game, seat)

    def unmask(self, plays: frozenset[str], action: object) -> Action:
        """The legal action behind a masked one."""
        return unmask(self.game, None, _action(action), plays=plays)

    def names_unseen(self, seat: int | None, plays: frozenset[str], action: object) -> bool:
        """Whether ``action`` names a card the seat cannot see (a masked
        ``HIDDEN`` card excepted): every offer names only face-up cards of
        the seat's view, or ``HIDDEN``."""
        act = _action(action)
        named = [u for u in (act.card, act.on, *act.cards) if u is not None and u != HIDDEN]
        if not named:
            return False
        seen = {card.uid for card in self.view(seat, plays).cards()}
        return any(uid not in seen for uid in named)

    def reveals(self, events: Sequence[Event]) -> str | None:
        """The first event that revealed hidden information, in words."""
        return next((e.text for e in events if e.type in REVEALING), None)

    def break_tie(self, tied: Sequence[int]) -> int:
        """The Grim Rule's option among those tied (rules note N43)."""
        pending = self.game.state.pending
        if pending is None:
            raise ValueError("there is no decision to settle")
        return break_tie(pending, tied)

    def bot_move(self, rng: random.Random, think: float | None = None) -> Action:
        """The greedy bot's move; with ``think``, the planner's, in about
        that many seconds at most."""
        if think is not None:
            from dbdeck.games.deckbuilding.planner import Planner

            return Planner(think=think).plan(self.game, rng).action
        return bots.greedy(self.game, rng)

    def latest_events(self) -> list[EngineEvent]:
        """What the last change did (for a new match, what its setup did)."""
        return list(self.game.events)

    def fingerprint(self) -> str:
        """A canonical text of the whole game."""
        return self.game.fingerprint()

    def to_json(self) -> dict[str, Any]:
        """The whole game as JSON data."""
        return self.game.to_json()

    def same_as(self, snapshot: Mapping[str, Any]) -> bool:
        """Whether the game is the one ``snapshot`` holds (through JSON text
        and back: tuples become lists, as in a file)."""
        return bool(json.loads(json.dumps(self.to_json())) == snapshot)

    def clone(self) -> DeckbuildingMatch:
        """An independent copy that continues identically."""
        return DeckbuildingMatch(self.game.clone())

    def determinize(self, plays: frozenset[str], rng: random.Random) -> DeckbuildingMatch:
        """A world the seat playing those Characters cannot tell from this
        one (``Game.determinize``, rules note N51)."""
        return DeckbuildingMatch(self.game.determinize(plays, rng))


def open_rules(packs: Sequence[Path]) -> DeckbuildingRules:
    """The game on the shipped cards and ``packs`` (``CardSetError`` when
    they do not load)."""
    return DeckbuildingRules(load_catalog(list(packs)))


# --- the engine's own types, for the first game's screens and commands ------------------


def engine_events(events: Sequence[Event]) -> list[EngineEvent]:
    """The engine's events among what a session or a replay gave back."""
    return [e for e in events if isinstance(e, EngineEvent)]


def replay_games(
    catalog: Catalog, data: dict[str, Any], *, steps: bool = False
) -> Iterator[tuple[dict[str, Any], Game, list[EngineEvent]]]:
    """``dbdeck.saves.replay_events`` with the engine's own types: each
    action, the game after it, and its events."""
    for action, match, events in replay_events(DeckbuildingRules(catalog), data, steps=steps):
        yield action, match.game, engine_events(events)


def tally_of(catalog: Catalog, data: dict[str, Any]) -> Tally | None:
    """The counts of a saved game so far, from its replay; ``None`` when it
    no longer replays."""
    story = story_of(DeckbuildingRules(catalog), data)
    return story.tally if isinstance(story, DeckbuildingStory) else None
