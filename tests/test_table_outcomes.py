"""What just happened reaches the screen at every size, and what the table
says stays true: the outcome line, the card line said again after every
change, targets told apart, Minions arriving with their Villain, and one
count of turns everywhere."""

from __future__ import annotations

import random
from pathlib import Path
from typing import cast

from screen_text import plain
from tables import app_for, quiet_table, table_of, turn_game
from textual.widgets import Static

from dbdeck.games.deckbuilding.bots import greedy
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.coach import suggest
from dbdeck.games.deckbuilding.engine.actions import Action, PlayEnergy
from dbdeck.games.deckbuilding.engine.events import starts_turn
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.panels import LogLine
from dbdeck.games.deckbuilding.engine.view import seat_view
from dbdeck.games.deckbuilding.engine.villains import freezer
from dbdeck.games.deckbuilding.engine.waste import waste_of
from dbdeck.games.deckbuilding.match import DeckbuildingRules, replay_games, tally_of
from dbdeck.games.deckbuilding.scenario import lay_table
from dbdeck.games.deckbuilding.tui.dialogs import DecisionDialog
from dbdeck.games.deckbuilding.tui.play import TableScreen, outcome_of
from dbdeck.games.deckbuilding.tui.widgets import MarketRows, VillainBoard, glyphs
from dbdeck.saves import Session, read_save
from dbdeck.tui.local import ReplayBackend

__all__ = ["quiet_table"]  # the fixture, used by every test here


def card_line(screen: TableScreen) -> str:
    return plain(screen.query_one("#card-line", Static).content).strip()


def test_an_outcome_line_keeps_the_latest_results_and_is_marked_by_a_glyph() -> None:
    lines = [
        LogLine("energy", "Goku plays 2 Energy."),
        LogLine("damage", "Goku deals 3 damage to Freezer."),
        LogLine("roll", "Goku rolls 2 Steal dice: ball, blank."),
        LogLine("balls", "Goku takes a Dragon Ball from Freezer."),
        LogLine("buy", "Goku buys Jaco."),
    ]
    said = outcome_of(lines)
    assert said is not None
    assert said.plain.startswith(glyphs.outcome() + " ")
    # The three latest outcomes, oldest first; the Energy is no outcome.
    assert "rolls 2 Steal dice" in said.plain and said.plain.endswith("Goku buys Jaco")
    assert "3 damage" not in said.plain
    assert outcome_of([LogLine("energy", "Goku plays 2 Energy.")]) is None


async def test_a_buy_at_80_columns_says_what_it_did_until_the_cursor_moves(
    catalog: Catalog,
) -> None:
    game = turn_game(catalog)
    async with app_for(game).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = table_of(pilot.app)
        await pilot.press("p", "b")  # Energy played, the cursor on a card to buy
        await pilot.pause()
        market = screen.query_one(MarketRows)
        item = market.current()
        assert item is not None
        bought = screen.view.card(item.uid)
        assert bought is not None
        offer = next(o for o in screen._card_offers(item.uid) if o.action.type == "buy")
        screen.take(offer)
        await pilot.pause()
        assert card_line(screen) == f"{glyphs.outcome()} Goku buys {bought.name}"
        await pilot.press("right")  # the player moves on: the card is described
        await pilot.pause()
        assert not card_line(screen).startswith(glyphs.outcome())
        assert card_line(screen)


async def test_the_card_line_is_said_again_after_every_change(catalog: Catalog) -> None:
    """A market card's price is weighed against the Energy the Character has
    now, not when the cursor came onto it."""
    game = turn_game(catalog)
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = table_of(pilot.app)
        await pilot.press("2")  # the markets, before any Energy is played
        await pilot.pause()
        market = screen.query_one(MarketRows)
        for _ in range(20):
            item = market.current()
            assert item is not None
            described = card_line(screen)
            if "you have 0" in described:
                break
            await pilot.press("right")
            await pilot.pause()
        assert "you have 0" in card_line(screen), card_line(screen)
        screen.play(PlayEnergy(card=_an_energy(game)))
        await pilot.pause()
        assert "you have 0" not in card_line(screen)
        assert "you have 1" in card_line(screen) or "Enter for its menu: Buy" in card_line(screen)


def _an_energy(game: Game) -> int:
    goku = game.state.character("goku")
    return next(u for u in goku.hand if game.state.card_ids[u] == "energy")


def two_guards(catalog: Catalog) -> Game:
    game = Game.new(catalog, Setup(characters=["goku", "krillin"], villain="freezer", seed=5))
    lay_table(
        game,
        {
            "active": "goku",
            "turn_deck": ["2", "1"],
            "villain": {"arrived": True, "minions": ["freezer-guard", "freezer-guard"]},
        },
    )
    return game


def test_two_targets_of_one_name_are_told_apart_with_their_health(catalog: Catalog) -> None:
    game = two_guards(catalog)
    second = game.state.villain.minions[1]
    second.damage = 2
    view = seat_view(game, 0)
    keys = [m.key for m in view.villain.minions]
    names = [view.target_name(k) for k in keys]
    assert names == ["Guard 1 5/5", "Guard 2 3/5"]
    assert view.target_name("v").startswith("Freezer ")
    assert view.target_name("c:goku").startswith("Goku ")


async def test_minions_before_their_villain_arrives_are_shown_arriving(
    catalog: Catalog,
) -> None:
    game = Game.new(catalog, Setup(characters=["goku", "krillin"], villain="freezer", seed=11))
    assert not freezer.own(game).arrived and game.state.villain.minions
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        board = table_of(pilot.app).query_one(VillainBoard)
        assert "Minions, arriving with Freezer:" in plain(board.content)


def test_the_log_the_replay_and_the_summary_count_the_same_turns(
    catalog: Catalog, tmp_path: Path
) -> None:
    setup = Setup(characters=["goku", "krillin", "yamcha"], villain="raditz", seed=4)
    session = Session.start(DeckbuildingRules(catalog), setup, tmp_path)
    rng = random.Random(1)
    while not session.match.game.over and session.match.game.state.round < 3:
        session.apply(greedy(session.match.game, rng))
    turns = session.match.game.state.turn
    session.close()
    data = read_save(tmp_path, session.id, rules=DeckbuildingRules(catalog))
    tally = tally_of(catalog, data)
    assert tally is not None and tally.turns == turns
    replay = ReplayBackend(DeckbuildingRules(catalog), data)
    # One frame a turn, each named by the turn it ends, up to the same count.
    assert replay.turns == list(range(1, turns + 1)) and replay.last_turn == turns
    assert not any(view.paused for view, _ in replay.frames)
    counted = sum(
        1 for _a, _g, events in replay_games(catalog, data) for e in events if starts_turn(e)
    )
    assert counted == turns


async def test_a_choice_between_two_guards_names_each_with_its_place_and_health(
    catalog: Catalog,
) -> None:
    game = two_guards(catalog)
    game.state.villain.minions[1].damage = 2
    lay_table(game, {"characters": {"goku": {"hand": ["punch-and-kick", "energy"]}}})
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = table_of(pilot.app)
        attacks = [o for o in screen.offers if o.action.type == "attack"]
        guards = [o for o in attacks if (o.action.target or "").startswith("m:")]
        assert len(guards) == 2 and guards[0].label == guards[1].label
        screen.choose_offer("Attack", "Which target?", attacks)
        await pilot.pause()
        dialog = pilot.app.screen
        assert isinstance(dialog, DecisionDialog)
        shown = [label for label in dialog.options if "Guard" in label.split("—")[0]]
        assert len(set(shown)) == 2
        assert any("(Guard 1 5/5)" in label for label in shown)
        assert any("(Guard 2 3/5)" in label for label in shown)


def test_the_coach_never_suggests_a_wasted_move(catalog: Catalog) -> None:
    """Before Freezer arrives the greedy bot would prepare a Technique that
    can have no target (and is lost); the coach suggests something else, and
    says what the card it suggests does."""
    game = Game.new(catalog, Setup(characters=["goku", "krillin"], villain="freezer", seed=11))
    assert not freezer.own(game).arrived
    bot = greedy(game, random.Random(0))
    assert bot.type == "prepare" and waste_of(game, bot)
    hint = suggest(game)
    action = cast(Action, hint.action)
    assert action is not None and not waste_of(game, action)
    assert action in game.legal_actions()
    assert action.type == "exhaust" and "Flying Nimbus (you draw 1 card" in hint.why


def test_an_ability_that_only_heals_its_user_is_wasted_at_full_health(catalog: Catalog) -> None:
    """Piccolo's Regeneration discards a card to heal him: at full health the
    card is paid for nothing, so the offer says so and the coach skips it."""
    game = Game.new(catalog, Setup(characters=["piccolo", "goku"], villain="freezer", seed=3))
    assert game.state.active == "piccolo"
    regeneration = next(a for a in game.legal_actions() if a.type == "ability")
    assert "no damage to heal" in waste_of(game, regeneration)
    assert not any("Regeneration" in line for line in seat_view(game, 0).left_undone)
    hint = suggest(game)
    assert hint.action is not None and cast(Action, hint.action).type != "ability"
    game.state.character("piccolo").damage = 1
    assert waste_of(game, regeneration) == ""
    assert "use Regeneration" in seat_view(game, 0).left_undone


def test_kaio_ken_is_wasted_while_nothing_can_be_attacked(catalog: Catalog) -> None:
    """Kaio-ken costs a token and 1 damage for +2 damage to this turn's
    attacks: before Freezer lands there is nothing to attack this turn."""
    goku = Game.new(catalog, Setup(characters=["goku", "krillin"], villain="freezer", seed=11))
    kaio_ken = next(a for a in goku.legal_actions() if a.type == "ability")
    assert "would go unused" in waste_of(goku, kaio_ken)
    assert not any("Kaio-ken" in line for line in seat_view(goku, 0).left_undone)
    freezer.own(goku).arrived = True
    assert waste_of(goku, kaio_ken) == ""
    # An ability that also draws a card (Tien's Multi-Form) is never wasted.
    tien = Game.new(catalog, Setup(characters=["tien", "goku"], villain="freezer", seed=11))
    assert tien.state.active == "tien"
    multi_form = next(a for a in tien.legal_actions() if a.type == "ability")
    assert waste_of(tien, multi_form) == ""
