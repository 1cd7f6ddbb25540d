"""Buy an unclaimed Dragon Ball ("Player Turn", 5 c: "A Character can only
buy one unclaimed Dragon Ball per turn (using the Energy cost shown on the
active Character's Board). An additional Dragon Ball can be bought by using
the 'Dragon Radar'"; "Dragon Balls", 2)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from dbdeck.games.deckbuilding.engine import combat, rules, words
from dbdeck.games.deckbuilding.engine.actions import Action, BuyDragonBall
from dbdeck.games.deckbuilding.engine.actions.base import sentence
from dbdeck.games.deckbuilding.engine.holders import CharacterRef
from dbdeck.games.deckbuilding.engine.state import CharacterState

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

TYPE = "buy-dragon-ball"
ACTS = True


def candidates(g: Playing, ch: CharacterState) -> Iterator[Action]:
    """The one way to buy a Dragon Ball, when ``check`` would allow it (its
    three tests, without the words of a refusal)."""
    if (
        None in g.state.balls
        and ch.dragon_balls_bought < 1 + rules.card_bonus(g, ch, "extra-dragon-ball")
        and ch.energy >= _cost(g, ch)
    ):
        yield BuyDragonBall()


def _cost(g: Playing, ch: CharacterState) -> int:
    """The Dragon Ball's price on the Character's board, with its bonuses."""
    cost: int = max(
        0, g.character_card(ch.id).dragon_ball_cost + rules.cost_bonus(g, ch, "dragon-ball")
    )
    return cost


def check(g: Playing, ch: CharacterState, a: BuyDragonBall) -> str | None:
    """A ball is unclaimed, this turn's allowance is not spent, the Character
    can pay."""
    if None not in g.state.balls:
        return "no Dragon Ball is unclaimed"
    allowed = 1 + rules.card_bonus(g, ch, "extra-dragon-ball")
    if ch.dragon_balls_bought >= allowed:
        return f"you may buy {words.count(allowed, 'Dragon Ball')} per turn"
    cost = _cost(g, ch)
    if ch.energy < cost:
        return f"a Dragon Ball costs {cost} Energy; you have {ch.energy}"
    return None


def perform(g: Playing, ch: CharacterState, a: BuyDragonBall) -> None:
    """Pay the board's cost and take an unclaimed ball."""
    cost = _cost(g, ch)
    ch.energy -= cost
    ch.dragon_balls_bought += 1
    combat.give_balls(g, None, CharacterRef(ch.id))
    g.log("balls", "{} buys an unclaimed Dragon Ball ({} Energy).", CharacterRef(ch.id), cost)


def label(game: Playing, action: BuyDragonBall) -> str:
    """The action in plain words."""
    s = game.state
    active = s.character(s.active) if s.active not in ("", "villain") else None
    assert active is not None
    return f"Buy an unclaimed Dragon Ball ({_cost(game, active)} Energy)"


def why_none(game: Playing, ch: CharacterState) -> str:
    """Why no Dragon Ball can be bought, with the rulebook's limit."""
    reason = game.check(BuyDragonBall()) or ""
    if "unclaimed" in reason:
        return "No Dragon Ball is unclaimed: only an unclaimed Dragon Ball can be bought."
    if "per turn" in reason:
        return sentence(
            f"{reason} (a Character can only buy one unclaimed Dragon Ball per turn, "
            "two with the Dragon Radar)"
        )
    return sentence(reason or "No Dragon Ball can be bought now")
