"""Every key behaves the same way: one rule for every list, a question
before a wasted move, no question with one answer, and prompts that say
what a card's effect will do. Played by keys, checked on the game."""

from __future__ import annotations

import pytest
from tables import app_for, quiet_table, table_of, turn_game, villain_decision
from textual.widgets import Label, OptionList

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.context import EffectContext
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.holders import CharacterRef
from dbdeck.games.deckbuilding.engine.villains import freezer
from dbdeck.games.deckbuilding.scenario import lay_table
from dbdeck.games.deckbuilding.tui.dialogs import ComboDialog, DecisionDialog, HelpScreen
from dbdeck.games.deckbuilding.tui.play import TableScreen
from dbdeck.games.deckbuilding.tui.widgets import KeyBar, glyphs
from dbdeck.games.deckbuilding.tui.widgets.choices import GUTTER, ChoiceList, TickList, marker

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

__all__ = ["quiet_table"]  # the fixture, used by every test here


def _marked(listing: OptionList) -> list[int]:
    """The lines of ``listing`` drawn with the highlight's marker."""
    lines = [listing.render_line(y).text for y in range(listing.option_count)]
    return [y for y, line in enumerate(lines) if line.startswith(marker())]


def before_freezer(catalog: Catalog) -> Game:
    """Goku's first turn: Freezer's ship has not landed."""
    return Game.new(catalog, Setup(characters=["goku", "krillin"], villain="freezer", seed=11))


async def test_a_dialog_opens_with_nothing_highlighted_and_never_wraps(catalog: Catalog) -> None:
    game = turn_game(catalog)
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("p", "e")  # the end-of-turn question
        await pilot.pause()
        dialog = pilot.app.screen
        assert isinstance(dialog, DecisionDialog)
        listing = dialog.query_one(ChoiceList)
        assert listing.highlighted is None and _marked(listing) == []
        await pilot.press("enter")  # nothing highlighted: nothing happens, and it says so
        await pilot.pause()
        assert pilot.app.screen is dialog and game.state.active == "goku"
        assert any("Nothing is highlighted" in n.message for n in pilot.app._notifications)
        await pilot.press("up")  # Up highlights the first, like Down
        assert listing.highlighted == 0
        await pilot.press("up")  # and stays there: no wrap to the last
        assert listing.highlighted == 0
        await pilot.pause()
        assert _marked(listing) == [0]  # the marker shows, not only a colour
        await pilot.press("down", "down", "down", "down")  # stops at the last
        assert listing.highlighted == 2


async def test_the_steal_list_opens_on_nothing(catalog: Catalog) -> None:
    game = turn_game(catalog)
    lay_table(game, {"villain": {"arrived": True, "minions": [], "dragon_balls": 2}})
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("p", "s")
        await pilot.pause()
        dialog = pilot.app.screen
        assert isinstance(dialog, DecisionDialog), "a Steal is possible"
        listing = dialog.query_one(ChoiceList)
        assert listing.highlighted is None
        await pilot.press("enter")
        await pilot.pause()
        assert game.state.character("goku").energy == 2  # no die was bought
        await pilot.press("up", "up")
        assert listing.highlighted == 0


async def test_a_long_dialog_title_wraps_inside_the_dialog_at_80_columns(catalog: Catalog) -> None:
    game = turn_game(catalog)
    async with app_for(game).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        dialog = pilot.app.screen
        assert isinstance(dialog, ComboDialog)
        title = dialog.query(Label).first()
        box = dialog.query_one(".dialog").content_region
        assert "(Enter)" in str(title.render())
        assert title.region.right <= box.right and title.region.height >= 2


async def test_down_on_targets_before_a_tick_says_to_tick_first(catalog: Catalog) -> None:
    game = turn_game(catalog)
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        dialog = pilot.app.screen
        assert isinstance(dialog, ComboDialog)
        targets = dialog.query_one("#targets", ChoiceList)
        labels = [str(targets.get_option_at_index(i).prompt) for i in range(targets.option_count)]
        assert labels and all(label.endswith("(tick a Technique first)") for label in labels)
        await pilot.press("tab", "down")
        await pilot.pause()
        assert dialog.focused is targets and targets.highlighted is None
        said = [n.message for n in pilot.app._notifications]
        assert ComboDialog.TICK_FIRST in said
        await pilot.press("shift+tab", "down", "space", "tab", "down")
        await pilot.pause()
        assert targets.highlighted == 0  # ticked: the targets can be chosen


async def test_a_techniques_box_shows_a_tick_only_once_ticked(catalog: Catalog) -> None:
    """Read as text (NO_COLOR, ASCII mode, a screen reader), an unticked
    Technique's box is empty: the mark is no colour alone."""
    game = turn_game(catalog)
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        dialog = pilot.app.screen
        assert isinstance(dialog, ComboDialog)
        ticks = dialog.query_one(TickList)

        def boxes() -> list[str]:
            lines = [ticks.render_line(y).text for y in range(ticks.option_count)]
            return [line[GUTTER : GUTTER + 3] for line in lines]

        assert boxes() and all(box == "▐ ▌" for box in boxes())
        await pilot.press("down", "space")
        await pilot.pause()
        assert boxes()[0] == "▐X▌" and all(box == "▐ ▌" for box in boxes()[1:])


async def test_tab_then_enter_in_the_combo_dialog_attacks_nobody(catalog: Catalog) -> None:
    game = turn_game(catalog)
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        dialog = pilot.app.screen
        assert isinstance(dialog, ComboDialog)
        await pilot.press("space")  # nothing highlighted: nothing ticked
        await pilot.pause()
        assert dialog.chosen() == ()
        await pilot.press("down", "space", "down", "space", "tab", "enter")
        await pilot.pause()
        assert game.state.villain.damage == 0 and pilot.app.screen is dialog
        await pilot.press("down", "enter")  # now the first target
        await pilot.pause()
        assert game.state.villain.damage == 1


def test_ascii_marks_the_highlight_with_a_plain_glyph() -> None:
    glyphs.set_ascii(True)
    try:
        assert marker() == ">"
    finally:
        glyphs.set_ascii(False)
    assert marker() == "▶"


async def test_an_attack_for_no_damage_is_confirmed(catalog: Catalog) -> None:
    game = turn_game(catalog)
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        table = table_of(pilot.app)
        alone = [o for o in table.offers if o.action.type == "attack" and len(o.action.cards) == 1]
        assert alone and all("no damage" in o.waste for o in alone)  # Armor 1 takes it all
        await pilot.press("a", "down", "space", "tab", "down", "enter")
        await pilot.pause()
        asked = pilot.app.screen
        assert isinstance(asked, DecisionDialog) and "deals no damage" in asked.prompt
        assert game.state.actions == 0
        await pilot.press("down", "enter")  # Keep playing
        await pilot.pause()
        assert isinstance(pilot.app.screen, TableScreen) and game.state.actions == 0
        await pilot.press("a", "down", "space", "tab", "down", "enter")
        await pilot.pause()
        await pilot.press("down", "down", "enter")  # all the same
        await pilot.pause()
        assert game.state.actions == 1 and game.state.villain.damage == 0


async def test_a_technique_prepared_before_freezer_lands_is_confirmed(catalog: Catalog) -> None:
    game = before_freezer(catalog)
    goku = game.state.character("goku")
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        table = table_of(pilot.app)
        prepares = [o for o in table.offers if o.action.type == "prepare"]
        assert prepares and all("cannot be attacked until he arrives" in o.waste for o in prepares)
        await pilot.press("t", "down", "enter")  # the first Technique
        await pilot.pause()
        if "Time slot" in getattr(pilot.app.screen, "prompt", ""):
            await pilot.press("down", "enter")
            await pilot.pause()
        asked = pilot.app.screen
        assert isinstance(asked, DecisionDialog) and "is lost" in asked.prompt
        await pilot.press("down", "enter")  # Keep playing
        await pilot.pause()
        assert all(p is None for p in goku.time_track)


async def test_once_freezer_has_landed_preparing_asks_nothing_more(catalog: Catalog) -> None:
    game = turn_game(catalog)
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        table = table_of(pilot.app)
        assert not any(o.waste for o in table.offers if o.action.type == "prepare")


async def test_ending_a_turn_with_the_ability_unused_asks_first(catalog: Catalog) -> None:
    game = before_freezer(catalog)
    # Landed: Kaio-ken's extra damage has something to attack (before that it
    # would go unused, and is not asked about).
    freezer.own(game).arrived = True
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        table = table_of(pilot.app)
        [ability] = [o for o in table.offers if o.action.type == "ability"]
        await pilot.press("e")
        await pilot.pause()
        asked = pilot.app.screen
        assert isinstance(asked, DecisionDialog)
        assert ability.label[1:] in asked.prompt, asked.prompt
        await pilot.press("escape")
        await pilot.pause()
        assert game.state.active == "goku"


async def test_one_free_slot_is_taken_and_two_are_asked(catalog: Catalog) -> None:
    game = turn_game(catalog)  # Sokidan (Time 2): slots 2 and 3 are free
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        table = table_of(pilot.app)
        slots = [o for o in table.offers if o.action.type == "prepare"]
        goku = game.state.character("goku")
        if len(slots) > 1:
            await pilot.press("t")
            await pilot.pause()
            assert isinstance(pilot.app.screen, DecisionDialog)
            await pilot.press("escape")
            await pilot.pause()
        lay_table(game, {"characters": {"goku": {"time_track": ["-", "-", "kikoho", "-"]}}})
        table.refresh_table()
        slots = [o for o in table.offers if o.action.type == "prepare"]
        assert len(slots) == 1, [o.label for o in slots]
        await pilot.press("t")  # one way left: taken, and said
        await pilot.pause()
        assert isinstance(pilot.app.screen, TableScreen)
        assert sum(p is not None for p in goku.time_track) == 2
        assert any("the only way" in n.message for n in pilot.app._notifications)


async def test_the_exhaust_question_says_what_each_card_does(catalog: Catalog) -> None:
    game = before_freezer(catalog)
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        table = table_of(pilot.app)
        exhausts = [o for o in table.offers if o.action.type == "exhaust"]
        assert exhausts and all(o.preview for o in exhausts)
        await pilot.press("x")
        await pilot.pause()
        asked = pilot.app.screen  # exhausting is a choice: asked even for one card
        assert isinstance(asked, DecisionDialog)
        for offer, option in zip(exhausts, asked.options, strict=False):
            assert option == f"{offer.label} — {offer.preview}"


def test_the_discard_question_names_the_effect_it_serves(catalog: Catalog) -> None:
    game = turn_game(catalog)
    lay_table(
        game,
        {"characters": {"goku": {"hand": ["energy", "punch-and-kick"], "deck": ["energy"] * 4}}},
    )
    # Sokidan's own effect, as when it is used: draw a card, then discard one
    # (two different cards in hand: the player chooses).
    game.push_ops("sokidan", "effects", EffectContext(CharacterRef("goku")))
    game._advance()
    pending = game.state.pending
    assert pending is not None, "the discard is asked"
    assert pending.prompt.startswith("Choose a card to discard. Sokidan: ")
    assert "draw 1 card, then discard 1 card" in pending.prompt


async def test_the_end_of_turn_question_leaves_out_a_wasted_preparation(
    catalog: Catalog,
) -> None:
    """Before Freezer lands every Technique prepared would be lost: ending
    the turn does not list preparing one as still to do."""
    game = before_freezer(catalog)
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        table = table_of(pilot.app)
        prepares = [o for o in table.offers if o.action.type == "prepare"]
        assert prepares and all(o.waste for o in prepares)
        await pilot.press("e")
        await pilot.pause()
        asked = pilot.app.screen
        assert isinstance(asked, DecisionDialog)  # the ability and Energy are still left
        assert "could still" in asked.prompt
        assert "prepare" not in asked.prompt, asked.prompt


async def test_while_the_players_decide_the_key_bar_shows_only_the_keys_that_work(
    catalog: Catalog,
) -> None:
    """Freezer's Crushing Grip asks the players who takes it: behind the
    decision's dialog the key bar names the dialog's keys, not the table's
    play keys (p, b, a, e), which wait."""
    game = villain_decision(catalog)
    async with app_for(game, players={"krillin": "Ann"}).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for _ in range(20):  # the Villain's steps, until the question
            if isinstance(pilot.app.screen, DecisionDialog):
                break
            await pilot.pause(0.05)
        assert isinstance(pilot.app.screen, DecisionDialog) and pilot.app.screen.for_decision
        shown = dict(table_of(pilot.app).query_one(KeyBar).keys)
        assert not {"p", "b", "a", "e", "t"} & set(shown), shown
        assert shown.get("↓ Enter") == "Choose" and "i" in shown
        assert "q" not in shown and "^q" not in shown  # no quit key works in the dialog
        await pilot.press("question_mark")  # the bar's last key, help, works here too
        await pilot.pause()
        assert isinstance(pilot.app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(pilot.app.screen, DecisionDialog)
        await pilot.press("down", "enter")  # answered: the table's keys come back
        for _ in range(40):
            await pilot.pause(0.05)
            if not isinstance(pilot.app.screen, DecisionDialog) and game.state.pending is None:
                break
        assert game.state.pending is None
        assert "e" in dict(table_of(pilot.app).query_one(KeyBar).keys)


async def test_behind_a_dialog_the_key_bar_names_its_closing_key_and_help_works(
    catalog: Catalog,
) -> None:
    game = turn_game(catalog)
    async with app_for(game).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        bar = table_of(pilot.app).query_one(KeyBar)
        assert "e" in dict(bar.keys)
        await pilot.press("a")  # the attack dialog
        await pilot.pause()
        assert isinstance(pilot.app.screen, ComboDialog)
        assert dict(bar.keys) == {"Esc": "Close the dialog"}
        await pilot.press("question_mark")  # the bar's help key works in it
        await pilot.pause()
        assert isinstance(pilot.app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("escape")  # the dialog closes: the table's keys again
        await pilot.pause()
        assert isinstance(pilot.app.screen, TableScreen)
        assert "e" in dict(bar.keys) and "Esc" not in dict(bar.keys)
