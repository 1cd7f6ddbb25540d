"""Hot-seat privacy as a property: in seeded games of 2 to 4 players with
hidden hands, no hand card of anyone but the person at the keyboard ever
reaches the screen.

A bot plays each game through the table screen (its actions, its answers
to decisions); the test presses Enter on each hand-off, and from then on
the person at the keyboard is the player the hand-off named, until the
whole table gathers round (the Villain's turn, a question the players
decide together). A monitor
checks every view and every list of offers the backend hands the screen
(by card instance: no card of another player's hand, no action naming
one) and, after every step, every text the screens hold (by name: no name
of another player's hand card that is face up nowhere else).
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections.abc import Iterator
from typing import Any

import pytest
from screen_text import plain
from tables import quiet_table, table_of
from textual.widgets import OptionList, RichLog, Static

from dbdeck.games.deckbuilding.bots import greedy, random_bot
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.actions import Action
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.panels import Offer, TableView
from dbdeck.games.deckbuilding.engine.view import seat_view
from dbdeck.games.deckbuilding.match import DeckbuildingMatch
from dbdeck.games.deckbuilding.tui.app import DbdeckApp, seats_of
from dbdeck.games.deckbuilding.tui.dialogs import DecisionDialog, HandoffScreen, TurnBanner
from dbdeck.games.deckbuilding.tui.summary import SummaryScreen
from dbdeck.seating import Seating
from dbdeck.tui.local import LocalBackend

__all__ = ["quiet_table"]  # the fixture, used by every test here

GAMES = int(os.environ.get("DBDECK_PRIVACY_GAMES", "16"))
"""Seeded games played through the screen: 16 in the everyday suite (which
must stay within ten minutes on two cores), 200
(``DBDECK_PRIVACY_GAMES=200``) in the continuous-integration run."""
BLOCK = 8
"""Games per test case."""
STEPS = 45
"""Steps of each game watched: enough for a Villain turn, a Wildcard, the
Villain's Techniques firing and several hand-offs; the whole game would
only repeat them at twice the cost."""
NAMES = ("Ann", "Bob", "Cat", "Dan")
SIZES = ((80, 24), (120, 40), (160, 50))
"""The table's three layouts: one panel, one beside the action list, all."""


def game_of(backend: LocalBackend) -> Game:
    """The engine's game a local backend holds."""
    match = backend.match
    assert isinstance(match, DeckbuildingMatch)
    return match.game


def _uids(value: Any) -> Iterator[int]:
    """Every card instance a view (or any part of one) names."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if f.name == "uid" and type(item) is int:
                yield item
            else:
                yield from _uids(item)
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _uids(item)


def _words(value: Any) -> Iterator[str]:
    """Every text a view (or any part of one) holds."""
    if isinstance(value, str):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _words(getattr(value, f.name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _words(item)


def _named_by(action: Action) -> set[int]:
    """The card instances an action names."""
    return {u for u in (action.card, action.on, *action.cards) if isinstance(u, int) and u >= 0}


def _text(content: Any) -> str:
    """A widget's text: its plain text when it has one (most do), else as
    drawn into memory."""
    if isinstance(content, str):
        return content
    words = getattr(content, "plain", None)
    return words if isinstance(words, str) else plain(content)


class Monitor:
    """What the person at the keyboard may see, checked at every turn."""

    def __init__(self, game_of: Any, seats: dict[str, int]) -> None:
        self.game_of = game_of
        """The game now (the backend commits a new one after each save)."""
        self.seats = seats
        """Each player's seat."""
        self.viewer: int | None = None
        """The seat of the person at the keyboard (``None``: nobody yet)."""
        self.views = 0
        self.frames = 0
        self.handoffs = 0
        self._secrets_of: tuple[int, int, int | None] | None = None
        self._secrets: set[str] = set()

    def hidden(self) -> set[int]:
        """The hand cards of every seat but the viewer's."""
        game: Game = self.game_of()
        return {uid for ch in game.state.characters if ch.seat != self.viewer for uid in ch.hand}

    def secret_names(self) -> set[str]:
        game: Game = self.game_of()
        key = (game.state.actions, id(game), self.viewer)
        if key != self._secrets_of:
            self._secrets_of, self._secrets = key, self._secret_names()
        return self._secrets

    def _secret_names(self) -> set[str]:
        """Names of the hidden hand cards that a spectator cannot read
        anywhere on the table (a card face up, a prompt naming the card
        being used) and that are not in the viewer's own hand (nor the basic
        Energy card, whose name is the table's word for Energy)."""
        game: Game = self.game_of()
        public = "\n".join(_words(seat_view(game, None)))
        own = {
            game.name(uid)
            for ch in game.state.characters
            if ch.seat == self.viewer
            for uid in ch.hand
        }
        names = {game.name(u) for u in self.hidden()} - own - {"Energy"}
        return {name for name in names if name not in public}

    def check_view(self, view: TableView) -> None:
        self.views += 1
        game: Game = self.game_of()
        if game.actor() in (None, "players"):
            # The whole table watches the Villain play and decides the
            # players' questions: nobody in particular is at the keyboard.
            self.viewer = None
        seen = set(_uids(view)) & self.hidden()
        assert not seen, f"the view shows {sorted(game.name(u) for u in seen)} of another hand"
        for hand in view.hands:
            owner = game.state.character(hand.character).seat
            assert owner == self.viewer, f"the view holds {hand.name}'s hand"

    def check_offers(self, offers: list[Offer]) -> None:
        hidden = self.hidden()
        for offer in offers:
            named = _named_by(offer.action) & hidden
            assert not named, f"offered {offer.label!r}, naming a card of another hand"

    def check_frame(self, app: DbdeckApp) -> None:
        """Every text of every screen but the log (whose lines are written
        for the whole table, and may name a card bought long ago)."""
        self.frames += 1
        secrets = self.secret_names()
        if not secrets:
            return
        for screen in app.screen_stack:
            for widget in screen.query("*"):
                if isinstance(widget, RichLog):
                    continue
                if isinstance(widget, Static):
                    texts = [_text(widget.content)]
                elif isinstance(widget, OptionList):
                    texts = [
                        _text(widget.get_option_at_index(i).prompt)
                        for i in range(widget.option_count)
                    ]
                else:
                    continue
                for text in texts:
                    shown = sorted(name for name in secrets if name in text)
                    assert not shown, (
                        f"{type(screen).__name__} shows {shown} of another hand "
                        f"(viewer seat {self.viewer}): {text[:200]!r}"
                    )


def watch(backend: LocalBackend, monitor: Monitor) -> None:
    """Check everything the backend hands the screen."""
    view, offers = backend.view, backend.legal_actions

    def watched_view() -> TableView:
        shown: TableView = view()
        monitor.check_view(shown)
        return shown

    def watched_offers() -> list[Offer]:
        listed = offers()
        monitor.check_offers(listed)
        return listed

    backend.view = watched_view  # type: ignore[method-assign]
    backend.legal_actions = watched_offers  # type: ignore[method-assign]


def setup_of(catalog: Catalog, seed: int) -> tuple[Setup, list[str]]:
    """A game of 2 to 4 players, each at a seat of their own; one in four
    has a player running two Characters."""
    rng = random.Random(seed)
    villain = rng.choice(sorted(catalog.villains(), key=lambda v: v.id))
    characters = sorted(catalog.characters(), key=lambda c: c.id)
    count = rng.choice((2, 2, 3, 3, 4))
    # Characters whose levels the Villain allows, as a table would choose.
    for _ in range(200):
        picked = rng.sample(characters, count)
        if sum(c.level for c in picked) <= villain.level:
            break
    else:
        picked = sorted(characters, key=lambda c: c.level)[:count]
    chosen = [c.id for c in picked]
    players = list(NAMES[:count])
    if count > 2 and rng.random() < 0.25:
        players[-1] = players[0]
    setup = Setup(
        characters=chosen,
        villain=villain.id,
        seed=seed,
        seats=seats_of(players),
        ignore_levels=sum(c.level for c in picked) > villain.level,
    )
    return setup, players


def _bot_action(game: Game, rng: random.Random) -> Action:
    return greedy(game, rng) if rng.random() < 0.8 else random_bot(game, rng)


async def play_watched(catalog: Catalog, seed: int) -> Monitor:
    """One game through the screen, for ``STEPS`` steps, under the monitor."""
    setup, players = setup_of(catalog, seed)
    game = Game.new(catalog, setup)
    seating = Seating(
        players=dict(zip(setup.characters, players, strict=True)),
        hide_hands=True,
        pace=0,
        confirm_end_turn=False,
    )
    seats = dict(zip(players, setup.seats, strict=True))
    app = DbdeckApp(catalog, game, seating)
    rng = random.Random(seed)
    async with app.run_test(size=SIZES[seed % len(SIZES)]) as pilot:
        await pilot.pause()
        table = table_of(app)
        backend = table.backend
        assert isinstance(backend, LocalBackend)
        monitor = Monitor(lambda: game_of(backend), seats)
        watch(backend, monitor)
        table.refresh_table()  # drawn once more under the monitor
        await pilot.pause()
        idle = 0
        for _ in range(STEPS):
            monitor.check_frame(app)
            screen = app.screen
            live: Game = game_of(backend)
            if live.over or isinstance(screen, SummaryScreen):
                break
            if isinstance(screen, HandoffScreen):
                monitor.viewer = seats[screen.player]
                monitor.handoffs += 1
                await pilot.press("enter")
            elif isinstance(screen, TurnBanner):
                await pilot.press("enter")
            elif isinstance(screen, DecisionDialog) and screen.for_decision:
                choice = _bot_action(live, rng)
                screen.dismiss(choice.option)
            elif screen is table and table.offers:
                action = _bot_action(live, rng)
                table.play(action)
                if app.screen is table:
                    # The table redrew at once; a screen it opened needs
                    # the app's turn to compose.
                    idle = 0
                    continue
            else:
                idle += 1
                assert idle < 5, (
                    f"the table waits for nothing on {type(screen).__name__}: "
                    f"actor {live.actor()!r}, handoff {backend.handoff()}, "
                    f"decision {table.view.decision is not None}, offers {len(table.offers)}"
                )
            await pilot.pause()
        monitor.check_frame(app)
    return monitor


@pytest.mark.parametrize("block", range(-(-GAMES // BLOCK)))
async def test_no_frame_shows_a_hand_of_anyone_but_the_player_at_the_keyboard(
    catalog: Catalog, block: int
) -> None:
    seeds = range(block * BLOCK, min(GAMES, (block + 1) * BLOCK))
    monitors = [await play_watched(catalog, seed) for seed in seeds]
    # The games did what the property is about: views, hand-offs, frames.
    assert sum(m.handoffs for m in monitors) >= len(seeds)
    assert all(m.views > 0 and m.frames > 0 for m in monitors)
