"""Hot-seat privacy: while the keyboard passes, the table holds no secret.

Every text the widget tree holds (every screen of the stack, every widget,
every option of every list, every log line) is scanned for the names of the
next player's hand cards that are not face up anywhere else, and no action
gets through until that player presses Enter.
"""

from __future__ import annotations

from screen_text import widget_texts
from tables import quiet_table

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.actions import EndTurn
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.view import seat_view
from dbdeck.games.deckbuilding.scenario import lay_table
from dbdeck.games.deckbuilding.tui.app import DbdeckApp
from dbdeck.games.deckbuilding.tui.dialogs import HandoffScreen
from dbdeck.games.deckbuilding.tui.play import Seating, TableScreen
from dbdeck.tui.local import LocalBackend

__all__ = ["quiet_table"]  # the fixture, used by every test here


def table_game(catalog: Catalog) -> Game:
    """Ann (Goku) and Bob (Krillin), each with a hand of cards found nowhere
    else on the table."""
    game = Game.new(catalog, Setup(characters=["goku", "krillin"], villain="freezer", seed=5))
    lay_table(
        game,
        {
            "active": "goku",
            "turn_deck": ["2", "1"],
            "villain": {"arrived": True, "minions": []},
            "markets": {"techniques": ["energy-arm", "ki-barrage", "ki-barrage", "ki-barrage"]},
            "characters": {
                "goku": {"hand": ["kikoho", "tear-apart", "energy", "energy", "energy"]},
                "krillin": {
                    "hand": ["sokidan", "krillin-destructo-disc", "energy", "energy", "energy"]
                },
            },
        },
    )
    return game


def secrets(game: Game, character: str) -> set[str]:
    """Names of the Character's hand cards that are face up nowhere else
    (but the basic Energy card, whose name is the table's word for Energy)."""
    public = {c.name for c in seat_view(game, None).cards()} | {"Energy"}
    hand = game.state.character(character).hand
    return {game.name(u) for u in hand} - public


async def test_hand_offs_hide_every_hand_and_block_every_action(catalog: Catalog) -> None:
    game = table_game(catalog)
    seating = Seating(
        players={"goku": "Ann", "krillin": "Bob"}, hide_hands=True, pace=0, confirm_end_turn=False
    )
    app = DbdeckApp(catalog, game, seating)
    ann, bob = secrets(game, "goku"), secrets(game, "krillin")
    assert ann and bob
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        table = next(s for s in app.screen_stack if isinstance(s, TableScreen))
        backend = table.backend
        assert isinstance(backend, LocalBackend)

        # The very first turn starts with a hand-off: nothing of Ann's hand
        # anywhere, and no key, list or palette entry plays.
        assert isinstance(app.screen, HandoffScreen)
        text = widget_texts(app)
        assert not [name for name in ann | bob if name in text]
        assert table.offers == [] and backend.legal_actions() == []
        refused = backend.send(EndTurn())
        assert not refused.accepted and "Enter" in refused.message
        for key in ("e", "p", "a", "space", "i", "ctrl+p"):
            await pilot.press(key)
            await pilot.pause()
        if not isinstance(app.screen, HandoffScreen):  # the palette opened above it
            await pilot.press(*"end", "enter", "escape")
            await pilot.pause()
        assert game.state.actions == 0 and game.state.active == "goku"

        # Ann takes the keyboard: her hand shows, Bob's never does.
        while not isinstance(app.screen, HandoffScreen):
            await pilot.press("escape")
            await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        text = widget_texts(app)
        assert all(name in text for name in ann)
        assert not [name for name in bob if name in text]

        # Ann ends her turn: Bob's comes with a hand-off, and the table
        # shows nothing of Bob's or Ann's hand until he presses Enter.
        await pilot.press("e")
        await pilot.pause()
        assert game.state.active == "krillin"
        assert isinstance(app.screen, HandoffScreen)
        text = widget_texts(app)
        assert not [name for name in secrets_now(game) if name in text]
        assert backend.legal_actions() == [] and table.offers == []
        await pilot.press("e")
        await pilot.pause()
        assert game.state.active == "krillin" and game.state.actions == 1
        await pilot.press("enter")
        await pilot.pause()
        text = widget_texts(app)
        assert all(name in text for name in secrets(game, "krillin"))
        assert not [name for name in secrets(game, "goku") if name in text]
        assert table.offers


def secrets_now(game: Game) -> set[str]:
    """Names of every hand's cards that are face up nowhere else, now."""
    return secrets(game, "goku") | secrets(game, "krillin")


async def test_without_hidden_hands_the_keyboard_follows_the_turn(catalog: Catalog) -> None:
    """One person playing both (no ``--hide-hands``): no hand-off, each
    Character's hand shows on its turn."""
    game = table_game(catalog)
    seating = Seating(players={"goku": "Ann", "krillin": "Ann"}, pace=0, confirm_end_turn=False)
    app = DbdeckApp(catalog, game, seating)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        text = widget_texts(app)
        assert all(name in text for name in secrets(game, "goku"))
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and game.state.active == "krillin"
        text = widget_texts(app)
        assert all(name in text for name in secrets(game, "krillin"))
