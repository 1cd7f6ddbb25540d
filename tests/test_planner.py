"""The planner bot: fair by construction, reproducible, legal.

Two games a seat cannot tell apart (the same game dealt again twice for it)
get the same choice and the same weights from the planner on the same
generator: it thinks only on worlds dealt for its seat (rules note N51).
Playouts are capped by count, never by the clock, so every figure here is
the same on every run.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from dbdeck.cli import main
from dbdeck.games.deckbuilding import bots
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.coach import suggest
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.labels import action_label
from dbdeck.games.deckbuilding.engine.view import seat_plays, seat_view
from dbdeck.games.deckbuilding.planner import HOUSEKEEPING, Plan, Planner, outlook
from dbdeck.games.deckbuilding.sim import play

SMALL = Planner(iterations=6, candidates=3, rounds=1)
TABLES = [
    Setup(villain="raditz", characters=["goku", "krillin"]),
    Setup(villain="freezer", characters=["goku", "krillin"], difficulty="hard"),
    Setup(villain="broly", characters=["pikkon", "dabura"]),
]


def _decisions(catalog: Catalog, setup: Setup, seed: int, every: int) -> Iterator[Game]:
    """Every ``every``-th position of a greedy game where the planner weighs
    its moves (a Character's own move that is not housekeeping)."""
    game = Game.new(catalog, dataclasses.replace(setup, seed=seed))
    rng = random.Random(seed)
    seen = 0
    while not game.over:
        s = game.state
        if s.pending is None and s.active not in ("", "villain"):
            ranked = bots.ranked_candidates(game, 2)
            if len(ranked) > 1 and ranked[0][0].type not in HOUSEKEEPING:
                seen += 1
                if seen % every == 0:
                    yield game
        game.apply(bots.greedy(game, rng))


def _weights(plan: Plan) -> list[tuple[int, float]]:
    return [(w.playouts, round(w.total, 9)) for w in plan.weighed]


def test_the_planner_chooses_the_same_in_games_its_seat_cannot_tell_apart(
    catalog: Catalog,
) -> None:
    """The same seat view, different hidden state, the same generator: the
    same choice and the same weights. Its choice is one of the seat's legal
    moves in the real game."""
    pairs = differed = 0
    for setup in TABLES:
        for game in _decisions(catalog, setup, 0, 7):
            if pairs >= 6:
                break
            seat = game.state.character(game.state.active).seat
            plays = seat_plays(game, seat)
            one = game.determinize(plays, random.Random(1))
            two = game.determinize(plays, random.Random(2))
            assert seat_view(one, seat).to_json() == seat_view(two, seat).to_json()
            assert one.fingerprint() != two.fingerprint()
            a = SMALL.plan(one, random.Random(5))
            b = SMALL.plan(two, random.Random(5))
            assert a.action == b.action and _weights(a) == _weights(b)
            assert a.weighed and sum(w.playouts for w in a.weighed) == SMALL.iterations
            assert a.action in game.legal_actions()
            # On the real game itself it chooses as on the worlds: nothing
            # hidden there reaches its choice either.
            real = SMALL.plan(game, random.Random(5))
            assert real.action == a.action and _weights(real) == _weights(a)
            # Its generator, though, does change what it weighs.
            differed += _weights(SMALL.plan(one, random.Random(6))) != _weights(a)
            pairs += 1
    assert pairs >= 5
    assert differed > 0


def test_the_planner_leaves_the_real_game_as_it_was(catalog: Catalog) -> None:
    game = next(_decisions(catalog, TABLES[1], 1, 3))
    before, rng_state = game.fingerprint(), game.rng.getstate()
    SMALL.plan(game, random.Random(0))
    assert game.fingerprint() == before and game.rng.getstate() == rng_state


def test_housekeeping_and_questions_are_the_greedy_bots(catalog: Catalog) -> None:
    """Where the greedy bot puts housekeeping first, or the rules ask a
    question, the planner does as the greedy bot, without a playout."""
    game = Game.new(catalog, dataclasses.replace(TABLES[0], seed=3))
    rng = random.Random(3)
    checked = 0
    while not game.over and game.state.actions < 300:
        s = game.state
        ranked = bots.ranked_candidates(game, 2) if s.pending is None else []
        if s.pending is not None or (ranked and ranked[0][0].type in HOUSEKEEPING):
            plan = SMALL.plan(game, random.Random(checked))
            assert plan.weighed == []
            assert plan.action == bots.greedy(game, random.Random(checked))
            checked += 1
        game.apply(bots.greedy(game, rng))
    assert checked > 30


def test_the_outlook_ranks_a_won_game_above_a_lost_one(catalog: Catalog) -> None:
    """0 for a loss, 1 for a win, strictly between for a game going on; more
    damage on the Villain looks better."""
    game = Game.new(catalog, dataclasses.replace(TABLES[1], seed=0))
    going = outlook(game)
    assert 0 < going < 1
    hurt = game.clone()
    hurt.state.villain.damage += 5
    assert outlook(hurt) > going
    won, lost = game.clone(), game.clone()
    won.state.winner, lost.state.winner = "players", "villain"
    assert (outlook(won), outlook(lost)) == (1.0, 0.0)


def test_a_planner_game_plays_to_its_end_through_sim(catalog: Catalog) -> None:
    """``dbdeck sim --bot planner`` plays legal moves to the end."""
    setup = Setup(villain="vegeta-nappa", characters=["piccolo"], seed=4)
    tiny = Planner(iterations=2, candidates=2, rounds=1)
    result = play(catalog, setup, tiny)
    assert result.winner in ("players", "villain") and not result.error


def test_the_coach_suggests_the_planners_move_comparing_outcomes(catalog: Catalog) -> None:
    """Where the planner weighs a move, the coach suggests it and says how
    its playouts went against the next best, by name; the same words for
    two games the seat cannot tell apart."""
    told = 0
    for game in _decisions(catalog, TABLES[0], 2, 5):
        if told >= 3:
            break
        hint = suggest(game, SMALL)
        plan = SMALL.plan(game, random.Random(game.state.actions))
        if not plan.weighed:
            continue
        assert hint.action == plan.action and hint.action in game.legal_actions()
        assert "playouts" in hint.why and " instead " in hint.why
        others = [w for w in plan.weighed if w.action != plan.action and w.playouts]
        runner_up = max(others, key=lambda w: w.mean)
        assert action_label(game, runner_up.action) in hint.why
        plays = seat_plays(game, game.state.character(game.state.active).seat)
        twin = game.determinize(plays, random.Random(11))
        assert suggest(twin, SMALL) == hint
        told += 1
    assert told == 3


def test_a_shared_tables_bot_thinks_with_the_planner_when_given_time(catalog: Catalog) -> None:
    """``dbdeck host --bot planner``: the table's bot is given seconds to
    think, and its move is one the planner weighed and a legal one; without
    them, the greedy bot's move."""
    from dbdeck.cli import build_parser
    from dbdeck.games.deckbuilding.match import DeckbuildingMatch

    args = build_parser().parse_args(["host", "--bot", "planner", "--think", "0.2"])
    assert (args.bot, args.think) == ("planner", 0.2)
    game = next(_decisions(catalog, TABLES[1], 0, 4))
    match = DeckbuildingMatch(game)
    weighed = {w.action for w in Planner(iterations=2).plan(game, random.Random(0)).weighed}
    move = match.bot_move(random.Random(0), think=0.01)
    assert move in weighed and move in game.legal_actions()
    assert match.bot_move(random.Random(0)) == bots.greedy(game, random.Random(0))


def test_sim_plays_the_planner_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """``dbdeck sim --bot planner --think S`` plays a game to its end and
    says who won (a time budget: only the game's end is asserted)."""
    args = ["sim", "--villain", "vegeta-nappa", "--characters", "piccolo", "--games", "1"]
    assert main([*args, "--bot", "planner", "--think", "0.01", "--seed", "2"]) == 0
    assert "Characters won" in capsys.readouterr().out


def test_bot_teammates_play_their_characters_at_a_local_table(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``dbdeck play --bots krillin``: whenever the table hands back to
    the keyboard, Goku (or the whole table, or the end) is asked, never
    Krillin alone; Krillin's turns are played, and his turns end."""
    from dbdeck.games.deckbuilding.match import DeckbuildingMatch
    from dbdeck.seating import Seating
    from dbdeck.tui import local

    monkeypatch.setattr(local, "BOT_THINK", 0.001)
    game = Game.new(catalog, Setup(villain="freezer", characters=["goku", "krillin"], seed=5))
    table = local.LocalBackend(
        DeckbuildingMatch(game), Seating(pace=0, bots=frozenset({"krillin"}))
    )
    rng = random.Random(5)
    handed_back = 0
    while not table.match.over and handed_back < 40:
        table.play_bots()
        asked = table.match.asked()
        assert asked.together or not asked.roles <= {"krillin"}
        move = table.match.bot_move(rng)
        assert table.send(move).accepted
        handed_back += 1
    said = [line.text for line in table.events()]
    assert sum("Krillin's turn ends" in text for text in said) >= 2


def test_the_keyboard_never_moves_for_a_bot_teammate(catalog: Catalog) -> None:
    """While the bot must move for Krillin, the keyboard is offered
    nothing and a move sent for him is refused, saying why."""
    from dbdeck.games.deckbuilding.match import DeckbuildingMatch
    from dbdeck.seating import Seating
    from dbdeck.tui import local

    game = Game.new(catalog, Setup(villain="freezer", characters=["goku", "krillin"], seed=5))
    table = local.LocalBackend(
        DeckbuildingMatch(game), Seating(pace=0, bots=frozenset({"krillin"}))
    )
    rng = random.Random(5)
    for _ in range(200):
        turn = table.bot_turn()
        if turn is not None:
            break
        table.send(table.match.bot_move(rng))
    assert turn is not None and turn.who == "Krillin"
    assert table.legal_actions() == []
    refused = table.send(table.match.bot_move(rng))
    assert not refused.accepted and "bot is moving" in refused.message
    version = table.match.version
    assert table.play_bot(turn, turn.think()).accepted
    assert table.match.version > version


def test_a_bot_move_for_a_table_that_moved_on_is_refused(catalog: Catalog) -> None:
    """A move thought over for an older table (another turn asked since)
    changes nothing; the fresh turn's move is played."""
    from dbdeck.games.deckbuilding.match import DeckbuildingMatch
    from dbdeck.seating import Seating
    from dbdeck.tui import local

    game = Game.new(catalog, Setup(villain="freezer", characters=["krillin"], seed=3))
    table = local.LocalBackend(
        DeckbuildingMatch(game), Seating(pace=0, bots=frozenset({"krillin"}))
    )
    stale = table.bot_turn()
    fresh = table.bot_turn()
    assert stale is not None and fresh is not None
    before = table.match.fingerprint()
    outcome = table.play_bot(stale, stale.think())
    assert not outcome.accepted and not outcome.error
    assert table.match.fingerprint() == before
    assert table.play_bot(fresh, fresh.think()).accepted


def test_a_bot_that_cannot_move_hands_its_move_to_the_keyboard(catalog: Catalog) -> None:
    """A failing bot (a bug) does not stop the table: the error is said,
    and the keyboard may make Krillin's move."""
    from dbdeck.games.deckbuilding.match import DeckbuildingMatch
    from dbdeck.seating import Seating
    from dbdeck.tui import local

    game = Game.new(catalog, Setup(villain="freezer", characters=["krillin"], seed=3))
    table = local.LocalBackend(
        DeckbuildingMatch(game), Seating(pace=0, bots=frozenset({"krillin"}))
    )
    turn = table.bot_turn()
    assert turn is not None and table.legal_actions() == []
    outcome = table.play_bot(turn, RuntimeError("no idea"))
    assert outcome.error and "no idea" in outcome.message
    assert table.bot_turn() is None
    assert table.legal_actions()
    assert any("no idea" in line.text for line in table.events())


async def test_a_bot_teammate_moves_while_the_table_draws(catalog: Catalog) -> None:
    """At the table, the bot's moves are thought over on a worker thread:
    the screen says the bot is moving, each move is drawn as it is made,
    and the turn comes back to the keyboard."""
    from textual.widgets import Static

    from dbdeck.games.deckbuilding.tui.app import DbdeckApp
    from dbdeck.games.deckbuilding.tui.play.screen import TableScreen
    from dbdeck.games.deckbuilding.tui.widgets import TableLog
    from dbdeck.seating import Seating

    game = Game.new(catalog, Setup(villain="freezer", characters=["krillin", "goku"], seed=5))
    seating = Seating(
        players={"krillin": "Player 1", "goku": "Player 2"}, pace=0, bots=frozenset({"krillin"})
    )
    app = DbdeckApp(catalog, game, seating)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = app.screen
        assert isinstance(screen, TableScreen)
        seen_thinking = handed_back = False
        for _ in range(1000):
            await pilot.pause(0.02)
            thinking = screen.bot_moves.thinking
            if thinking is not None:
                seen_thinking = True
                prompt = str(screen.query_one("#prompt", Static).content)
                assert "The bot is moving for Krillin" in prompt
            elif seen_thinking and screen.view.actor == "goku" and screen.offers:
                handed_back = True
                break
        assert seen_thinking and handed_back
        log = "\n".join(line.plain for line in screen.query_one(TableLog).entries)
        assert "Krillin's turn ends" in log


async def test_the_table_says_which_characters_the_bot_plays(catalog: Catalog) -> None:
    """A bot teammate's board and the prompts name it as the bot's."""
    from dbdeck.games.deckbuilding.tui.app import DbdeckApp
    from dbdeck.games.deckbuilding.tui.widgets.character import CharacterBoard
    from dbdeck.seating import Seating

    game = Game.new(catalog, Setup(villain="freezer", characters=["goku", "krillin"], seed=5))
    seating = Seating(
        players={"goku": "Player 1", "krillin": "Player 2"}, pace=0, bots=frozenset({"krillin"})
    )
    app = DbdeckApp(catalog, game, seating)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        boards = {b.id: b.shown for b in app.screen.query(CharacterBoard)}
        krillin, goku = boards["char-krillin"], boards["char-goku"]
        assert krillin is not None and krillin.player == "Player 2, bot"
        assert goku is not None and goku.player == "Player 1"
    assert seating.named("krillin") == "Player 2, bot"


def test_play_refuses_a_bot_for_a_character_not_at_the_table(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    args = ["play", "--villain", "raditz", "--characters", "goku", "--bots", "krillin"]
    assert main(["--saves", str(tmp_path), *args]) == 2
    assert "--bots: krillin not among --characters" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_the_planner_keeps_the_greedy_move_unless_another_fares_clearly_better(
    catalog: Catalog,
) -> None:
    """With a margin no playout can clear, the planner makes the greedy
    bot's best weighed move; with none, the best-faring one."""
    checked = 0
    for game in _decisions(catalog, TABLES[1], 1, 6):
        if checked >= 3:
            break
        never = Planner(iterations=6, candidates=3, rounds=1, margin=1.0)
        plan = never.plan(game, random.Random(3))
        assert plan.action == plan.weighed[0].action
        free = Planner(iterations=6, candidates=3, rounds=1, margin=0.0)
        plan = free.plan(game, random.Random(3))
        assert plan.chosen is not None
        assert plan.chosen.mean == max(w.mean for w in plan.weighed)
        checked += 1
    assert checked == 3


def test_the_planner_never_weighs_cards_of_another_hand(catalog: Catalog) -> None:
    """A Duo card bought with another Character's Energy names cards of a
    hand the seat cannot see, dealt anew in every world: the planner leaves
    such a move out, so every move it makes is legal in the real game."""
    named = 0
    for setup in (TABLES[1],):
        for seed in (3,):
            game = Game.new(catalog, dataclasses.replace(setup, seed=seed))
            rng = random.Random(seed)
            while not game.over and game.state.actions < 400:
                s = game.state
                others = {u for ch in s.characters if ch.id != s.active for u in ch.hand}
                if s.pending is None and any(
                    set(a.cards) & others for a in game.legal_actions() if a.type == "buy"
                ):
                    plan = SMALL.plan(game, random.Random(named))
                    assert not set(plan.action.cards) & others
                    assert plan.action in game.legal_actions()
                    named += 1
                game.apply(bots.greedy(game, rng))
    assert named > 0
