"""Each kind of action takes exactly its own fields, with their bounds: at
the wire, in the save reader and in the engine, and nothing else is saved.
The wire's and the save's models are generated from the kinds and agree
with them; saves written by the previous release still load and play on."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any, get_args

import pytest
from pydantic import ValidationError

from dbdeck.games.deckbuilding.action_models import ACTION_MODELS, read_action
from dbdeck.games.deckbuilding.bots import greedy
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.actions import (
    KINDS,
    Action,
    Attack,
    BadAction,
    Buy,
    Destroy,
    EndTurn,
    Exhaust,
    GiveBall,
    IllegalAction,
    Steal,
    action_from_json,
    shape_problem,
)
from dbdeck.games.deckbuilding.engine.actions.kind import FIELD_ORDER, MAX_CARDS, MAX_ID, ActionKind
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.match import DeckbuildingMatch, DeckbuildingRules
from dbdeck.net.protocol import action_problem, decode_client
from dbdeck.saves import SaveError, Session

PREVIOUS = Path(__file__).parent / "saves_previous"
"""Saves written by the previous release (before the kinds had their own
fields), each a game of a few hundred actions of most kinds."""

JUNK = {"type": "end-turn", "amount": 1000000, "on": -1, "cards": [-1, -1]}
"""An end of turn with fields it does not use (accepted and saved before)."""

SAMPLE: dict[str, dict[str, Any]] = {
    "choose": {"option": 0},
    "play-energy": {"card": 3},
    "buy": {"card": 3, "market": "allies", "cards": [4], "amount": 1},
    "buy-dragon-ball": {},
    "steal": {"amount": 2, "target": "v"},
    "play": {"card": 3, "cards": [4]},
    "attack": {"cards": [3, 4], "target": "v"},
    "prepare": {"card": 3, "slot": 2, "amount": 1},
    "boost": {"card": 3, "on": 4},
    "exhaust": {"card": 3},
    "destroy": {"card": 3},
    "ability": {},
    "avoid": {"card": 3, "source": "e:androids-17-18-android-17"},
    "market-discard": {"card": 3, "market": "techniques"},
    "give-ball": {"source": "c:goku", "target": "c:krillin"},
    "duo-invest": {"card": 3, "on": 4},
    "enter-room": {},
    "villain-action": {},
    "end-turn": {},
}
"""One action of each kind with every field it has."""

GOOD: dict[str, object] = {
    "card": 7,
    "cards": [7],
    "target": "v",
    "source": "c:goku",
    "market": "energy",
    "slot": 1,
    "on": 7,
    "amount": 1,
    "option": 1,
}
"""A value in bounds for each field (added where a kind lacks the field)."""

BAD: list[object] = [
    None,
    -2,
    MAX_ID + 1,
    "1",
    True,
    1.5,
    [],
    [1] * (MAX_CARDS + 1),
    ["1"],
    "a b",
    "v\x1b[2J",
    "x" * 65,
    "",
    "bank",
    {"$gt": 1},
]
"""Values some field or other refuses."""


def _sample(kind: str) -> dict[str, Any]:
    """The sample of a kind as JSON data."""
    return {"type": kind, **SAMPLE[kind]}


def _accepted(read: Any, data: object) -> Action | None:
    try:
        action: Action = read(data)
    except (BadAction, ValidationError):
        return None
    return action


def _variants() -> list[dict[str, Any]]:
    """Every sample, with each field of ``FIELD_ORDER`` replaced, added or
    removed: the good, the missing, the foreign and the out of bounds."""
    out: list[dict[str, Any]] = []
    for kind, fields in SAMPLE.items():
        data = {"type": kind, **fields}
        out.append(data)
        for name in FIELD_ORDER:
            out.append({k: v for k, v in data.items() if k != name})
            out.append({**data, name: GOOD[name]})
            out += [{**data, name: bad} for bad in BAD]
    return out


def test_the_samples_cover_every_kind_and_field() -> None:
    assert set(SAMPLE) == set(KINDS)
    for kind, fields in SAMPLE.items():
        assert set(fields) == set(KINDS[kind].fields), kind
        action = action_from_json({"type": kind, **fields})
        assert action.to_json() == {"type": kind, **fields}
        assert action_from_json(json.loads(json.dumps(action.to_json()))) == action


def test_the_issue_example_is_refused_naming_the_kind_and_the_field() -> None:
    with pytest.raises(BadAction, match=r"end-turn has no field 'amount' \(it has none\)"):
        action_from_json(JUNK)
    with pytest.raises(BadAction, match=r"buy has no field 'on' \(its fields: card, cards, "):
        action_from_json({"type": "buy", "card": 3, "market": "allies", "on": 1})
    with pytest.raises(BadAction, match="buy: 'market' is missing"):
        action_from_json({"type": "buy", "card": 3})
    with pytest.raises(BadAction, match="steal: 'amount' must be an integer from 0 to"):
        action_from_json({"type": "steal", "amount": "3"})
    with pytest.raises(BadAction, match="attack: 'cards' must be a list of 1 to 16"):
        action_from_json({"type": "attack", "cards": [], "target": "v"})
    with pytest.raises(BadAction, match="buy: 'amount' must be an integer from 0 to 1"):
        action_from_json({"type": "buy", "card": 3, "market": "allies", "amount": 5})
    with pytest.raises(BadAction, match="give-ball: 'source' must be a holder key of printable"):
        action_from_json({"type": "give-ball", "source": "c:\x1b]52", "target": "v"})


def test_each_kind_takes_exactly_its_own_fields() -> None:
    for kind, cls in KINDS.items():
        data = {"type": kind, **SAMPLE[kind]}
        for name in set(FIELD_ORDER) - set(cls.fields):
            with pytest.raises(BadAction, match=f"{kind} has no field {name!r}"):
                action_from_json({**data, name: GOOD[name]})
            with pytest.raises(TypeError):
                cls(**{**SAMPLE[kind], name: GOOD[name]})
        for name in cls.required:
            with pytest.raises(BadAction, match=f"{kind}: {name!r} is missing"):
                action_from_json({k: v for k, v in data.items() if k != name})


def test_a_kind_reads_empty_for_a_field_it_lacks_and_never_changes() -> None:
    end = EndTurn()
    assert (end.card, end.cards, end.target, end.amount, end.option) == (None, (), None, None, None)
    with pytest.raises(AttributeError):
        end.amount = 3  # type: ignore[misc]
    buy = Buy(card=3, market="allies")
    with pytest.raises(AttributeError):
        buy.card = 4  # type: ignore[misc]
    # Two kinds with the same values are two different actions.
    assert Exhaust(card=3) != Destroy(card=3)
    assert len({Exhaust(card=3), Destroy(card=3), Exhaust(card=3)}) == 2


def test_a_kind_is_made_of_known_fields_left_out_only_as_empty() -> None:
    with pytest.raises(TypeError, match="no action field may be called 'dice'"):

        class Roll(ActionKind):
            dice: int

    with pytest.raises(TypeError, match="'amount' may default to None only"):

        class Steal2(ActionKind):
            amount: int = 1


def test_the_wire_and_save_models_agree_with_the_kinds() -> None:
    assert set(ACTION_MODELS) == set(KINDS)
    for kind, model in ACTION_MODELS.items():
        fields = model.model_fields
        assert set(fields) == {"type", *KINDS[kind].fields}, kind
        required = {name for name, field in fields.items() if field.is_required()}
        assert required == {"type", *KINDS[kind].required}, kind
        assert get_args(fields["type"].annotation) == (kind,)
    variants = _variants()
    assert len(variants) > 2000
    for data in variants:
        engine, models = _accepted(action_from_json, data), _accepted(read_action, data)
        assert engine == models, data
    assert sum(_accepted(action_from_json, d) is not None for d in variants) > 200
    # The engine's quick test of a built action agrees with its reasons.
    for data in variants:
        made = KINDS[data["type"]]
        try:
            built = made(**{k: v for k, v in data.items() if k != "type"})
        except TypeError:
            continue  # a field the kind has not: it cannot even be built
        assert built._fits() == (shape_problem(built) is None), data
        assert "not of its own shape" not in str(shape_problem(built))


def test_junk_fields_are_refused_at_the_wire() -> None:
    """The wire bounds an action message; the game's models read the action
    inside it, and a refusal names the kind and the field."""
    for action, where in [
        (JUNK, "end-turn.amount: Extra inputs are not permitted"),
        ({"type": "buy", "market": "allies"}, "buy.card: Field required"),
        ({"type": "steal", "amount": 1, "slot": 1}, "steal.slot: Extra inputs"),
        ({"type": "choose", "option": MAX_ID + 1}, "choose.option: Input should be less"),
    ]:
        line = json.dumps({"type": "action", "version": 0, "action": action}).encode()
        sent = decode_client(line + b"\n").action
        with pytest.raises(ValidationError) as refused:
            read_action(sent)
        assert "not an action: " + where in action_problem(refused.value)
    line = json.dumps({"type": "action", "version": 0, "action": _sample("buy")}).encode()
    assert read_action(decode_client(line).action) == action_from_json(_sample("buy"))


def _started(catalog: Catalog, folder: Path, count: int = 12) -> Session[DeckbuildingMatch]:
    session = Session.start(
        DeckbuildingRules(catalog),
        Setup(characters=["goku", "krillin"], villain="freezer", seed=5),
        folder,
    )
    rng = random.Random(5)
    for _ in range(count):
        session.apply(greedy(session.match.game, rng))
    return session


def test_a_save_with_junk_fields_is_refused(catalog: Catalog, tmp_path: Path) -> None:
    session = _started(catalog, tmp_path)
    session.close()
    path = tmp_path / f"{session.id}.json"
    data = json.loads(path.read_text())
    ends = [i for i, a in enumerate(data["actions"]) if a["type"] == "end-turn"]
    data["actions"][ends[0]] = JUNK
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError) as refused:
        Session.resume(DeckbuildingRules(catalog), tmp_path, session.id)
    assert f"actions.{ends[0]}.end-turn.amount: Extra inputs are not permitted" in str(
        refused.value
    )


WRONG_SHAPES: list[object] = [
    Buy(card="3", market="allies"),  # type: ignore[arg-type]
    Buy(card=3, market="bank"),
    Buy(card=3, market="allies", amount=2),
    Steal(amount=None),  # type: ignore[arg-type]
    Attack(cards=(), target="v"),
    Attack(cards=[1], target="v"),  # type: ignore[arg-type]
    GiveBall(source="c:goku krillin", target="v"),
    JUNK,
    ("end-turn",),
]
"""Objects of the wrong shape handed to the engine by code that ignores the types."""


def test_the_engine_refuses_a_wrong_shape_and_nothing_is_saved(
    catalog: Catalog, tmp_path: Path
) -> None:
    session = _started(catalog, tmp_path)
    path = tmp_path / f"{session.id}.json"
    saved, before, count = path.read_bytes(), session.match.game.fingerprint(), len(session.actions)
    for wrong in WRONG_SHAPES:
        reason = session.match.game.check(wrong)  # type: ignore[arg-type]
        assert reason is not None and reason == shape_problem(wrong), wrong
        with pytest.raises(IllegalAction) as refused:
            session.apply(wrong)
        assert refused.value.reason == reason
        assert session.match.game.fingerprint() == before
    assert "buy: 'card' must be an integer" in str(session.match.game.check(WRONG_SHAPES[0]))  # type: ignore[arg-type]
    assert "not an action" in str(session.match.game.check(JUNK))  # type: ignore[arg-type]
    assert path.read_bytes() == saved and len(session.actions) == count
    session.close()


def test_a_game_checks_shape_first_even_when_over_or_pending(catalog: Catalog) -> None:
    game = Game.new(catalog, Setup(characters=["goku"], villain="freezer", seed=1))
    assert game.check(Steal(amount=-1)) == (
        "steal: 'amount' must be an integer from 0 to 1000000, not -1"
    )


@pytest.mark.parametrize("name", sorted(p.stem for p in PREVIOUS.glob("*.json")))
def test_saves_of_the_previous_release_load_and_play_on(
    catalog: Catalog, tmp_path: Path, name: str
) -> None:
    shutil.copy(PREVIOUS / f"{name}.json", tmp_path)
    written = json.loads((PREVIOUS / f"{name}.json").read_text())
    # Their actions read back into the same bytes.
    again = [action_from_json(a).to_json() for a in written["actions"]]
    assert json.dumps(again) == json.dumps(written["actions"])
    session = Session.resume(DeckbuildingRules(catalog), tmp_path, name)
    assert len(session.actions) == len(written["actions"]) >= 150
    assert not session.match.game.over  # each was saved mid-game
    replayed = Game.new(catalog, session.setup)
    for action in again:
        replayed.apply(action_from_json(action))
    assert replayed.fingerprint() == session.match.game.fingerprint()
    rng = random.Random(1)
    while not session.match.game.over:
        session.apply(greedy(session.match.game, rng))
    session.close()
    resumed = Session.resume(DeckbuildingRules(catalog), tmp_path, name)
    assert resumed.match.game.fingerprint() == session.match.game.fingerprint()
    resumed.close()


def test_the_previous_saves_hold_most_kinds() -> None:
    kinds = {
        a["type"] for p in PREVIOUS.glob("*.json") for a in json.loads(p.read_text())["actions"]
    }
    assert len(kinds) >= 14, kinds
