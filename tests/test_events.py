"""Events write their text when it is read: the template and its words,
the names filled in late and once, and the same JSON as an event written
at once."""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest

from dbdeck.games.deckbuilding.bots import greedy
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.events import Agree, Event, Name, Names
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.holders import VILLAIN, CharacterRef, EnemyRef, Holder

_NAMES: dict[Holder | int, str] = {
    CharacterRef("goku"): "Goku",
    EnemyRef("nappa"): "Nappa",
    VILLAIN: "Vegeta and Nappa",
    12: "Kamehameha",
}


class Namer:
    """A namer that counts the names it gives."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, key: Holder | int) -> str:
        self.calls += 1
        return _NAMES[key]


def test_the_words_fill_the_template() -> None:
    names = Namer()
    event = Event(
        "attack",
        "{} with {} ({}), {} damage; {}.",
        {},
        "",
        (
            Agree(CharacterRef("goku"), "attacks", "attack"),
            Name(12),
            Names([EnemyRef("nappa"), CharacterRef("goku")], " and "),
            3,
            Agree(VILLAIN, "takes", "take"),
        ),
        names,
    )
    assert names.calls == 0, "nothing is named before the text is read"
    expected = "Goku attacks with Kamehameha (Nappa and Goku), 3 damage; Vegeta and Nappa take."
    assert event.text == expected
    assert names.calls == 5
    assert event.text == expected
    assert names.calls == 5, "the text is kept once written"


def test_agreement_with_a_name_in_words() -> None:
    event = Event(
        "game-over", "{}: {}", None, "", (Agree("The Characters", "wins", "win"), "x"), Namer()
    )
    assert event.text == "The Characters win: x"


def test_a_holder_in_the_words_names_itself_and_a_number_is_a_number() -> None:
    event = Event("heal", "{} heals {}.", None, "", (CharacterRef("goku"), 12), Namer())
    assert event.text == "Goku heals 12."


def test_text_without_words_stands_as_written() -> None:
    event = Event("note", "Braces {} stay {0} as they are.")
    assert event.text == "Braces {} stay {0} as they are."
    assert event.data == {}


def test_json_is_the_same_as_an_event_written_at_once() -> None:
    data = {"source": "c:goku", "amount": 3}
    lazy = Event(
        "damage",
        "{} {} damage.",
        data,
        "",
        (Agree(CharacterRef("goku"), "deals", "deal"), 3),
        Namer(),
    )
    written = Event("damage", "Goku deals 3 damage.", data)
    assert json.dumps(lazy.to_json()) == json.dumps(written.to_json())
    assert json.dumps(lazy.to_json()) == (
        '{"type": "damage", "text": "Goku deals 3 damage.", '
        '"data": {"source": "c:goku", "amount": 3}}'
    )
    drawn = Event("draw", "{} draws 2 cards.", {}, "goku", (CharacterRef("goku"),), Namer())
    assert drawn.to_json() == {
        "type": "draw",
        "text": "Goku draws 2 cards.",
        "data": {},
        "private_to": "goku",
    }
    assert lazy == written


def test_copies_carry_the_text() -> None:
    names = Namer()
    event = Event("prepare", "{} is prepared.", {"n": [1]}, "", (Name(12),), names)
    shallow = copy.copy(event)
    assert names.calls == 0, "a shallow copy shares the words, still unread"
    assert shallow.text == event.text == "Kamehameha is prepared."
    fresh = Event(
        "prepare", "{} is prepared.", {"n": [1]}, "", (Name(12),), lambda key: "Kamehameha"
    )
    deep = copy.deepcopy(fresh)
    assert deep == fresh and deep.data is not fresh.data
    # A pickle carries the written text, not the namer (a lambda would not pickle).
    assert pickle.loads(pickle.dumps(fresh)) == fresh


def test_an_event_is_not_hashable_as_before() -> None:
    with pytest.raises(TypeError):
        hash(Event("x", "y"))


def _greedy_game(catalog: Catalog, seed: int) -> list[Event]:
    game = Game.new(catalog, Setup(characters=["goku", "krillin"], villain="freezer", seed=seed))
    events = list(game.events)
    rng = random.Random(seed)
    while not game.over:
        events += game.apply(greedy(game, rng))
    return events


def test_a_bot_game_names_nothing_for_its_log_until_the_log_is_read(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = 0
    name = Game.name

    def counting(self: Game, key: Holder | int) -> str:
        nonlocal calls
        calls += 1
        return name(self, key)

    monkeypatch.setattr(Game, "name", counting)
    events = _greedy_game(catalog, seed=3)
    playing = calls
    texts = [e.text for e in events]
    reading = calls - playing
    # Every event with a holder or a card in its words asks for its names
    # only now; the game itself names only what its questions show.
    assert reading > len(events) // 2
    assert reading > playing
    assert [e.text for e in events] == texts
    assert calls - playing == reading, "reading again names nothing"
