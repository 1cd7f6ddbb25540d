"""The monkey test: seeded random keys, typed in bursts as fast as a
terminal delivers them, across the main menu, the setup wizard, the table
and every dialog it opens. No key may crash the interface (no exception,
no crash report, no unexpected error from the backend), and once the app is
asked to close nothing more is played (a burst typed after ``q`` is still
queued when the quit is taken).

Each run plays one seeded key stream on one starting screen; a quit (``q``
is typed now and then, and every run ends with a burst that starts with
it) ends the app, and the stream goes on in a new app on the same save.
"""

from __future__ import annotations

import random
import string
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from tables import quiet_table
from textual import events
from textual.pilot import Pilot

from dbdeck.games.deckbuilding.bots import greedy
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.game import Setup
from dbdeck.games.deckbuilding.match import DeckbuildingMatch, DeckbuildingRules
from dbdeck.games.deckbuilding.tui.app import DbdeckApp
from dbdeck.saves import Session
from dbdeck.tui.backend import Outcome, Seating
from dbdeck.tui.local import LocalBackend

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

__all__ = ["quiet_table"]  # the fixture, used by every test here

KEYS = [
    *(c for c in string.ascii_lowercase if c != "q"),
    *"SGHIA",
    *string.digits,
    "up",
    "down",
    "left",
    "right",
    "tab",
    "shift+tab",
    "enter",
    "escape",
    "space",
    "ctrl+p",
]
"""The keys a run types at random (``q`` is typed on its own schedule)."""

WEIGHTS = {
    **dict.fromkeys("pbaetsoxydgu", 3),
    "enter": 8,
    "escape": 4,
    "down": 5,
    "up": 2,
    "tab": 3,
    "space": 2,
}
"""Keys typed more often than the others: the ones that play, move and
choose (the reference screens, help and browser are still reached, but do
not swallow most of a run)."""

QUIT_CHANCE = 1 / 300
"""The chance that a burst starts with ``q``."""

BURST = (1, 32)
"""How many keys a burst holds (typed with no wait between them)."""


SETTLE_ROUNDS = 3
"""Rounds of message handling after a burst (see ``settle``)."""


TABLE_KEYS = 3500
"""Keys typed at each table (four tables)."""
MENU_KEYS = 3000
"""Keys typed from the main menu (two runs): 20,000 keys in all."""


def _char(key: str) -> str | None:
    """The character a key types (``None`` for a key that types none)."""
    if len(key) == 1:
        return key
    return " " if key == "space" else None


@dataclass
class Watch:
    """What the backends did while a run typed its keys."""

    app: DbdeckApp | None = None
    after_quit: list[str] = field(default_factory=list)
    """Backend calls made once the app was asked to close."""
    errors: list[str] = field(default_factory=list)
    """Unexpected errors the backend met (each would write a crash report)."""
    calls: int = 0


@pytest.fixture
def watch(monkeypatch: pytest.MonkeyPatch) -> Watch:
    """Every LocalBackend call that changes the game, checked against the
    app's state when it is made."""
    seen = Watch()
    for name in ("send", "undo", "resume", "hide_hands", "take_keyboard"):
        original: Callable[..., Any] = getattr(LocalBackend, name)

        def watched(
            self: LocalBackend,
            *args: Any,
            _original: Callable[..., Any] = original,
            _name: str = name,
        ) -> Any:
            seen.calls += 1
            if seen.app is not None and seen.app.return_code is not None:
                seen.after_quit.append(f"{_name}{args}")
            result = _original(self, *args)
            if isinstance(result, Outcome) and result.error:
                seen.errors.append(f"{_name}{args}: {result.message}")
            return result

        monkeypatch.setattr(LocalBackend, name, watched)
    return seen


async def burst(pilot: Pilot[Any], keys: list[str], *, draw: bool = True) -> None:
    """Type ``keys`` at once, as a terminal delivers a burst: every key is
    queued before the first is handled."""
    app = pilot.app
    for key in keys:
        event = events.Key(key, _char(key))
        event.set_sender(app)
        app.post_message(event)
    await settle(pilot, draw=draw)


async def settle(pilot: Pilot[Any], *, draw: bool = True) -> None:
    """Wait until the keys have acted and the screen is drawn: the app and
    the widgets of the screen in front have handled what they were sent (a
    key passes through the focused widget and its parents, so a few rounds),
    then the screen is drawn. Faster than ``Pilot.pause``, which waits for
    the process to look idle (20 ms at least)."""
    for _ in range(SETTLE_ROUNDS):
        await pilot._wait_for_screen()
    if draw:
        pilot.app.screen._on_timer_update()


async def type_keys(
    make_app: Callable[[], DbdeckApp],
    watch: Watch,
    rng: random.Random,
    count: int,
    size: tuple[int, int],
) -> int:
    """Type ``count`` random keys, in bursts, into apps made by ``make_app``
    (a new one after each quit). The number of apps run."""
    typed = runs = 0
    recent: list[list[str]] = []
    keys = list(KEYS)
    weights = [WEIGHTS.get(k, 1) for k in keys]
    while typed < count:
        app = make_app()
        watch.app = app
        runs += 1
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            while typed < count and app.return_code is None:
                many = rng.randint(*BURST)
                chosen = rng.choices(keys, weights, k=many)
                last = typed + many >= count
                if last or rng.random() < QUIT_CHANCE:
                    # Close what is open (a dialog takes no q), then quit
                    # with a burst of keys behind the q.
                    chosen = ["escape", "escape", "escape", "q", *chosen]
                recent = [*recent[-4:], chosen]
                # Drawn after every other burst (drawing is most of the cost):
                # a frame that cannot be drawn still fails at the next one.
                await burst(pilot, chosen, draw=bool(typed % 2) or last)
                typed += many
                assert app.return_code in (None, 0), (
                    f"the app stopped after {recent} on {app.screen_stack}: {app._exception!r}"
                )
            assert not watch.after_quit, f"played after the quit: {watch.after_quit}"
        assert app._exception is None, repr(app._exception)
        assert app.return_code in (None, 0)
    assert not watch.errors, watch.errors
    return runs


def _session(
    catalog: Catalog, folder: Path, setup: Setup, moves: int, seed: int
) -> Session[DeckbuildingMatch]:
    """A saved game after ``moves`` of the bot's actions."""
    session = Session.start(
        DeckbuildingRules(catalog),
        setup,
        folder,
        players={c: f"P{i}" for i, c in enumerate(setup.characters)},
    )
    rng = random.Random(seed)
    for _ in range(moves):
        if session.match.game.over:
            break
        session.apply(greedy(session.match.game, rng))
    return session


TABLES = [
    pytest.param(
        Setup(characters=["goku", "krillin"], villain="freezer", seed=11),
        0,
        False,
        (80, 24),
        id="freezer-80x24",
    ),
    pytest.param(
        Setup(characters=["piccolo"], villain="raditz", seed=3),
        20,
        False,
        (120, 40),
        id="raditz-solo-120x40",
    ),
    pytest.param(
        Setup(
            characters=["vegeta-ss1", "yamcha", "krillin"], villain="broly", seed=5, seats=[0, 1, 2]
        ),
        30,
        True,
        (100, 30),
        id="broly-hotseat-100x30",
    ),
    pytest.param(
        Setup(characters=["goku", "krillin"], villain="androids-17-18", seed=9),
        60,
        False,
        (80, 24),
        id="androids-80x24",
    ),
]


@pytest.mark.parametrize(("setup", "moves", "hide", "size"), TABLES)
async def test_random_keys_at_the_table(
    catalog: Catalog,
    tmp_path: Path,
    watch: Watch,
    setup: Setup,
    moves: int,
    hide: bool,
    size: tuple[int, int],
) -> None:
    """Random keys at a table (and its dialogs), resumed after each quit."""
    folder = tmp_path / "saves"
    folder.mkdir()
    first = _session(catalog, folder, setup, moves, setup.seed)
    save_id = first.id
    first.close()
    players = first.players

    def make_app() -> DbdeckApp:
        session = Session.resume(DeckbuildingRules(catalog), folder, save_id)
        seating = Seating(players=players, hide_hands=hide, pace=0)
        return DbdeckApp(catalog, session=session, seating=seating, saves=folder)

    start = time.perf_counter()
    await type_keys(make_app, watch, random.Random(setup.seed), TABLE_KEYS, size)
    print(f"{watch.calls} backend calls, {time.perf_counter() - start:.1f}s")
    assert watch.calls > 0
    assert not list(folder.glob("crash-*"))


@pytest.mark.parametrize(("seed", "size"), [(7, (80, 24)), (8, (100, 30))])
async def test_random_keys_from_the_main_menu(
    catalog: Catalog,
    tmp_path: Path,
    watch: Watch,
    monkeypatch: pytest.MonkeyPatch,
    seed: int,
    size: tuple[int, int],
) -> None:
    """Random keys from the main menu: the wizard, the reference screens,
    new games started and continued."""
    folder = tmp_path / "saves"
    folder.mkdir()
    monkeypatch.chdir(tmp_path)  # a screenshot from the palette lands here

    def make_app() -> DbdeckApp:
        return DbdeckApp(catalog, saves=folder)

    await type_keys(make_app, watch, random.Random(seed), MENU_KEYS, size)
    assert not list(folder.glob("crash-*"))


@pytest.mark.parametrize("keys", [["q", "e"], ["q", "u"], ["q", "p", "u", "e", "enter"]])
async def test_a_burst_after_quit_plays_nothing(
    catalog: Catalog, tmp_path: Path, watch: Watch, keys: list[str]
) -> None:
    """``q`` and the keys typed with it: the app closes, no dialog opens
    half-made (``q e`` crashed on the end-of-turn question), and nothing
    is played or undone after the quit."""
    folder = tmp_path / "saves"
    folder.mkdir()
    session = _session(catalog, folder, Setup(characters=["goku"], villain="freezer", seed=4), 0, 4)
    app = DbdeckApp(catalog, session=session, seating=Seating(pace=0), saves=folder)
    watch.app = app
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("p")  # Energy played: an undo would have something to take back
        played = len(session.actions)
        assert played > 0
        await burst(pilot, keys)
    assert app._exception is None and app.return_code == 0
    assert not watch.after_quit
    assert len(app.session.actions if app.session else []) == played
    assert not list(folder.glob("crash-*"))
