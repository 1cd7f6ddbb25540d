"""The sparring bot at one keyboard: it moves after the player, its hand is
never in the player's view, and undo goes back to the player's own move."""

from __future__ import annotations

import random
from pathlib import Path

from dbdeck.games.ccg.library import load_library
from dbdeck.games.ccg.match import CcgMatch, CcgRules
from dbdeck.games.ccg.sparring import BOT_NAME, SparringBackend
from dbdeck.games.ccg.table.view import HIDDEN
from dbdeck.saves import Session
from dbdeck.seating import Seating

DECKS = Path(__file__).resolve().parent.parent / "cards" / "ccg" / "decks"


def _session(tmp_path: Path) -> Session[CcgMatch]:
    rules = CcgRules(load_library(include_env_packs=False))
    setup = rules.read_setup(
        {
            "players": ["Ann", BOT_NAME],
            "decks": [(DECKS / "goku.txt").read_text(), (DECKS / "raditz.txt").read_text()],
            "seed": 3,
        }
    )
    seating = Seating(players={"p1": "Ann", "p2": BOT_NAME})
    return Session.start(rules, setup, tmp_path, seating=seating)


def test_the_bot_plays_its_seat_and_its_hand_stays_hidden(tmp_path: Path) -> None:
    session = _session(tmp_path)
    backend = SparringBackend(session, bot_seat=1)
    rng = random.Random(5)
    bot_moved = False
    for _ in range(120):
        view = backend.view()
        if view.winner is not None:
            break
        assert view.viewer == 0
        assert all(face.uid == HIDDEN for face in view.seats[1].hand), "the bot's hand is hidden"
        offers = [o for o in backend.legal_actions() if o.group in ("turn", "combat")]
        assert offers, "the player is asked whenever the game goes on"
        before = session.match.state.version
        assert backend.send(rng.choice(offers).action).accepted
        if session.match.state.version > before + 1:
            bot_moved = True
    assert bot_moved
    assert any("Sparring bot" in line.text for line in backend.events())


def test_undo_goes_back_past_the_bot(tmp_path: Path) -> None:
    session = _session(tmp_path)
    backend = SparringBackend(session, bot_seat=1)
    for action in ("draw-three", "end-non-combat", "power-up", "declare-combat"):
        offer = next(o for o in backend.legal_actions() if o.action.kind == action)
        assert backend.send(offer.action).accepted
    attack = next(o for o in backend.legal_actions() if o.action.kind == "attack")
    assert backend.send(attack.action).accepted
    assert backend.view().combat is not None
    outcome = backend.undo()
    assert outcome.accepted
    assert session.match.asked().roles == frozenset({"p1"})
