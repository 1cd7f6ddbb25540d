"""Avoid a prepared Villain attack by paying its red text ("Attacks" of the
Villain Card Types); for one enemy's half of a split card, ``source`` names
that enemy."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from dbdeck.games.deckbuilding.cards import plain as fx
from dbdeck.games.deckbuilding.engine import attacks
from dbdeck.games.deckbuilding.engine.actions import Action, Avoid
from dbdeck.games.deckbuilding.engine.actions.base import affordable, first_reason, sentence
from dbdeck.games.deckbuilding.engine.context import EffectContext
from dbdeck.games.deckbuilding.engine.events import Name
from dbdeck.games.deckbuilding.engine.holders import VILLAIN, CharacterRef, EnemyRef
from dbdeck.games.deckbuilding.engine.state import CharacterState
from dbdeck.games.deckbuilding.engine.zones import pile_candidates

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

TYPE = "avoid"
ACTS = True


def candidates(g: Playing, ch: CharacterState) -> Iterator[Action]:
    """Every attack prepared on the Villain's Time Track."""
    for slot in g.state.villain.time_track:
        for villain_attack in slot:
            # One without red text is refused whatever holds (check).
            body = g.hooks.attack_body(g, villain_attack)
            if body is None or body.avoid is None:
                continue
            owner = EnemyRef(villain_attack.owner).key if villain_attack.owner else None
            yield Avoid(card=villain_attack.uid, source=owner)


def meant(a: Avoid, prepared: Any) -> bool:
    """Whether an ``avoid`` action means this prepared attack: its card, and
    for one enemy's half of a split card, that enemy (``source``)."""
    return bool(prepared.uid == a.card and a.source in (None, EnemyRef(prepared.owner).key))


def check(g: Playing, ch: CharacterState, a: Avoid) -> str | None:
    """A prepared attack with red text the Character can pay."""
    for slot in g.state.villain.time_track:
        for prepared in slot:
            if meant(a, prepared):
                body = g.hooks.attack_body(g, prepared)
                avoid = body.avoid if body is not None else None
                if avoid is None:
                    return f"{g.name(prepared.uid)} cannot be avoided"
                for op in avoid.cost:
                    if (
                        isinstance(op, (fx.Discard, fx.Destroy))
                        and op.source == "in-play"
                        and not pile_candidates(g, ch, "in-play", op.card_kind, voluntary=True)
                    ):
                        return f"you need a {op.card_kind} in play to avoid it"
                return affordable(g, ch, avoid.cost)
    return "that attack is not on the Villain's Time Track"


def perform(g: Playing, ch: CharacterState, a: Avoid) -> None:
    """Discard the attack from the Time Track and pay its red text."""
    v = g.state.villain
    for slot in v.time_track:
        for prepared in slot:
            if meant(a, prepared):
                slot.remove(prepared)
                attacks.discard_attack(g, prepared.uid)
                g.log("avoid", "{} avoids {}.", CharacterRef(ch.id), Name(prepared.uid))
                path = g.hooks.attack_path(g, prepared) + "avoid.cost"
                g.push_ops(
                    g.state.card_ids[prepared.uid],
                    path,
                    EffectContext(CharacterRef(ch.id), voluntary=True),
                )
                return


def label(game: Playing, action: Avoid) -> str:
    """The action in plain words, with the red text."""
    avoid = getattr(game.card(action.card), "avoid", None)
    return f"Avoid {game.name(action.card)}" + (f": {avoid.text}" if avoid else "")


def why_none(game: Playing, ch: CharacterState) -> str:
    """Why no prepared attack can be avoided."""
    prepared = [(p.uid, p.owner) for slot in game.state.villain.time_track for p in slot]
    if not prepared:
        return f"{game.name(VILLAIN)} has no attack prepared on the Time Track to avoid."
    reason = first_reason(
        game,
        (Avoid(card=uid, source=EnemyRef(owner).key if owner else None) for uid, owner in prepared),
    )
    return sentence(reason or "No prepared attack can be avoided now")
