"""What the active Character could still do before ending the turn, in
words: what the table lists when it asks "End Goku's turn?".

A move counts only when it is legal now and would not waste something
(``waste``: an attack that deals no damage, a Technique that would be lost):
asking about a move the table would then advise against helps nobody.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from dbdeck.games.deckbuilding.engine import labels, waste
from dbdeck.games.deckbuilding.engine.actions import Action

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.playing import Playing

__all__ = ["SPENDS_ENERGY", "left_undone"]

SPENDS_ENERGY = frozenset({"buy", "buy-dragon-ball", "steal", "villain-action"})
"""The action kinds that spend the Energy played this turn."""


def left_undone(game: Playing, legal: Sequence[Action]) -> tuple[str, ...]:
    """What the active Character could still do this turn, given the legal
    actions now; empty unless it may end its turn (nothing is left undone
    when there is no turn to end)."""
    if not any(a.type == "end-turn" for a in legal):
        return ()
    active = game.state.character(game.state.active)
    by_kind: dict[str, list[Action]] = {}
    for action in legal:
        by_kind.setdefault(action.type, []).append(action)
    left: list[str] = []
    # Unspent Energy is lost at the end of the turn: worth a word only when
    # something legal now would spend it.
    if active.energy and any(kind in SPENDS_ENERGY for kind in by_kind):
        left.append(f"{active.energy} Energy unspent")
    energy = {a.card for a in by_kind.get("play-energy", ())}
    if energy:
        left.append(f"{len(energy)} Energy card{'s' if len(energy) > 1 else ''} still in hand")
    for kind, verb in (("play", "put into play"), ("prepare", "prepare")):
        names = _names(game, _useful(game, by_kind.get(kind, ())))
        if names:
            left.append(f"{verb} {', '.join(names)}")
    attackers = _attackers(game, by_kind.get("attack", ()))
    if attackers:
        left.append(f"attack with {', '.join(_names(game, attackers))}")
    if by_kind.get("boost"):
        left.append("boost a prepared Technique")
    # An ability is once a turn: unused now, it is lost for this turn.
    for action in by_kind.get("ability", ())[:1]:
        if waste.waste_of(game, action):  # it would buy nothing (rules note N49)
            continue
        label = labels.action_label(game, action)
        left.append(label[:1].lower() + label[1:])
    return tuple(left)


def _useful(game: Playing, actions: Sequence[Action]) -> set[int]:
    """The cards of ``actions`` that some action would use without waste."""
    cards: set[int] = set()
    for action in actions:
        if (
            action.card is not None
            and action.card not in cards
            and not waste.waste_of(game, action)
        ):
            cards.add(action.card)
    return cards


def _attackers(game: Playing, attacks: Sequence[Action]) -> set[int]:
    """The cards that could still deal damage in some attack. Each attack is
    foreseen on a copy of the game, so one that deals damage vouches for all
    its cards, and a card already vouched for is not asked about again."""
    vouched: set[int] = set()
    for attack in attacks:
        if not set(attack.cards) <= vouched and not waste.waste_of(game, attack):
            vouched.update(attack.cards)
    return vouched


def _names(game: Playing, cards: set[int]) -> list[str]:
    return sorted({str(game.card(uid).name) for uid in cards})
