"""Freezer: the deck ordered by phases, his arrival, his transformations,
the death effect on defeated Characters' turn cards, and the empty deck."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from dbdeck.games.deckbuilding.cards.plain import Transformation
from dbdeck.games.deckbuilding.engine.context import EffectContext
from dbdeck.games.deckbuilding.engine.holders import VILLAIN
from dbdeck.games.deckbuilding.engine.state import HiddenPile, VillainOwnState
from dbdeck.games.deckbuilding.engine.villains.base import VillainRules

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.engine.reach import Reach

ARRIVES = "freezer-arrives"
FINAL_FORM = "freezer-final-form"
GUARD = "freezer-guard"
ARMY = "freezer-army"


@dataclass(slots=True)
class FreezerState(VillainOwnState):
    """What Freezer's board keeps of its own."""

    IN_EVERY_SNAPSHOT: ClassVar[bool] = True

    arrived: bool = True
    """Until "Freezer Arrives!!" he and his Minions cannot be attacked."""


def own(g: Reach) -> FreezerState:
    """Freezer's own state in a game of his."""
    state = g.state.villain.own
    assert isinstance(state, FreezerState), "a game against Freezer"
    return state


class FreezerRules(VillainRules):
    """Freezer's own rules (rulebook, "Freezer")."""

    OWN_STATE = FreezerState

    def setup(self, g: Reach) -> None:
        """ "Freezer Arrives!!" on top, then the shuffled Phase 1, 2 and 3
        piles, and "Final Form" at the bottom. One Guard starts in play."""
        board = g.villain_card()
        piles: dict[int, list[int]] = {}
        for entry in board.deck:
            if entry.card in (ARRIVES, FINAL_FORM):
                continue
            phase = _phase(g, entry.card)
            piles.setdefault(phase, []).extend(g.new_uid(entry.card) for _ in range(entry.copies))
        deck = [g.new_uid(FINAL_FORM)]
        for phase in sorted(piles, reverse=True):
            pile = piles[phase]
            g.rng.shuffle(pile)
            deck += pile
        deck.append(g.new_uid(ARRIVES))
        g.state.villain.deck = deck
        own(g).arrived = False

    def hidden_piles(self, g: Reach) -> list[HiddenPile]:
        """Each Phase is shuffled apart: a card takes only the places of its
        own Phase's cards, whose number every player can count; "Freezer
        Arrives!!" on top and "Final Form" at the bottom keep theirs (rules
        note N51)."""
        v = g.state.villain
        ids = g.state.card_ids
        groups = tuple(
            None if ids[uid] in (ARRIVES, FINAL_FORM) else _phase(g, uid) for uid in v.deck
        )
        return [HiddenPile(v.deck, groups), *self.hidden_side_decks(g)]

    def extreme_minions(self, g: Reach, starting: list[str]) -> list[str]:
        """Extreme Mode: Freezer's Army replaces the Guard in play."""
        return [ARMY if card == GUARD else card for card in starting]

    def prologue(self, g: Reach) -> list[str]:
        """Each Character plays one turn before Freezer's ship arrives
        (rules note N18)."""
        return [c.id for c in sorted(g.state.characters, key=lambda c: c.order)]

    def minions_present(self, g: Reach) -> bool:
        """The Guard comes with Freezer's ship: before it lands, no Minion
        activates (rules note N18)."""
        return own(g).arrived

    def arrived(self, g: Reach) -> bool:
        """Freezer and his Minions can be attacked once his ship has landed."""
        return own(g).arrived

    def on_event(self, g: Reach, card_id: str) -> None:
        if card_id == ARRIVES:
            own(g).arrived = True
            g.log("arrive", "Freezer's ship lands: Freezer and his Minions can now be attacked.")

    def defeated_card_revealed(self, g: Reach, character: str) -> None:
        """The death effect also fires each time a defeated Character's
        turn-order card is revealed."""
        self.death_effect(g, character)

    def activate(self, g: Reach) -> None:
        """When the deck runs out no new one is built: Freezer repeats the
        Final Form attack at each activation."""
        v = g.state.villain
        if v.deck:
            self.reveal(g, v.deck.pop())
            return
        if v.last_form < 0:
            g.log("activate", "Freezer has no card to play.")
            return
        form = g.card(v.last_form)
        assert isinstance(form, Transformation)
        g.log("activate", f"Freezer's deck is empty: he attacks with his {form.name} again.")
        if form.effects:
            g.push_ops(form.id, "effects", EffectContext(VILLAIN, v.last_form))


def _phase(g: Reach, card: int | str) -> int:
    """The Phase pile a card of Freezer's deck belongs to (1 when it names none)."""
    return getattr(g.card(card), "phase", None) or 1
