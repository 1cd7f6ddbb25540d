"""The table the rules work on: what a rule handler may use of a game.

Effects, attacks, combat, the turn's flow, the Villains' modules and the
task kinds take a ``Table``, not the whole ``Game``: the state, the cards,
the seeded chance, the log, and the task stack with its questions. Listing
and applying actions, saving, cloning and the seat views are the facade's
business (``dbdeck.games.deckbuilding.engine.game``), out of a handler's reach, so a handler
cannot start a second action in the middle of one or look at what a seat
may not see. ``Game`` satisfies this protocol; mypy checks that it does
wherever one is passed for the other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from dbdeck.games.deckbuilding.engine.holders import Holder

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.cards.catalog import Catalog
    from dbdeck.games.deckbuilding.cards.plain import Card, Character, Enemy, Villain
    from dbdeck.games.deckbuilding.engine.chance import TableRandom
    from dbdeck.games.deckbuilding.engine.events import Event, Word
    from dbdeck.games.deckbuilding.engine.holders import Holder
    from dbdeck.games.deckbuilding.engine.rules import DerivedState
    from dbdeck.games.deckbuilding.engine.state import CharacterState, GameState, Option, Unit
    from dbdeck.games.deckbuilding.engine.tasks import Asking, Task
    from dbdeck.games.deckbuilding.engine.villains.base import VillainRules

__all__ = ["Table"]

_C = TypeVar("_C")


class Table(Protocol):
    """What a rule handler may use of the game it works on."""

    catalog: Catalog
    """The card catalog of the game."""
    state: GameState
    """Everything that changes: piles, boards, the Villain, the stack."""
    rng: TableRandom
    """The game's one source of chance."""
    events: list[Event]
    """What the action being applied has done so far."""
    derived: DerivedState
    """What the rules derive from cards in play, bonuses and the Location,
    kept between queries."""
    victory_conditions: frozenset[str]
    """The Villain's extra ways to win (``ally-market-empty`` …)."""

    # --- cards -------------------------------------------------------------------------

    def new_uid(self, card_id: str) -> int:
        """A fresh instance uid for a copy of ``card_id``."""
        ...

    def card(self, uid_or_id: int | str) -> Card:
        """The card definition of an instance uid (or of a card id)."""
        ...

    def card_as(self, uid_or_id: int | str, kind: type[_C]) -> _C:
        """The card of an instance uid (or a card id) that the rules know to
        be of one class (a Minion's, a Technique's); ``TypeError`` if not."""
        ...

    def character_card(self, character_id: str) -> Character:
        """The board of a Character at the table."""
        ...

    def villain_card(self) -> Villain:
        """The Villain's board."""
        ...

    def enemy_card(self, enemy_id: str) -> Enemy:
        """The card of one enemy of a Villain of several."""
        ...

    def lasting_ops(self, uid: int, op_type: type) -> tuple[Any, ...]:
        """The lasting operations of one type on a card instance's own effects."""
        ...

    def location_card(self) -> Any:
        """The Location in play, if any."""
        ...

    def location_lasting_ops(self, op_type: type) -> tuple[Any, ...]:
        """The Location's lasting operations of one type."""
        ...

    def location_bonus(self, op_type: type, attack: str | None = None) -> int:
        """The Location's bonus of one kind (to one kind of attack)."""
        ...

    def ally(self, uid: int) -> tuple[CharacterState, Unit]:
        """An Ally in play and the Character who has it."""
        ...

    def minion(self, uid: int) -> Unit:
        """A Minion in play."""
        ...

    def energy_value(self, uid: int, market: str | None = None) -> int:
        """The Energy a card in hand gives (to pay in ``market``)."""
        ...

    # --- names ---------------------------------------------------------------------------

    def name(self, key_or_uid: Holder | int) -> str:
        """The name of a holder or a card instance, for the log."""
        ...

    def target_label(self, key: Holder) -> str:
        """A target in words, with its health."""
        ...

    # --- the Villain ---------------------------------------------------------------------

    @property
    def hooks(self) -> VillainRules:
        """The Villain's module hooks."""
        ...

    def villains_hook(self, name: str, *args: Any) -> Any:
        """Call one of the Villain's hooks."""
        ...

    # --- the log, tasks and questions ------------------------------------------------------

    def log(
        self, event_type: str, text: str, /, *words: Word, private_to: str = "", **data: Any
    ) -> None:
        """Record an event: its text, or a template whose ``{}`` fields the
        words fill in when the text is read (``engine/events.py``)."""
        ...

    def push(self, task: Task) -> None:
        """Queue a task to run next."""
        ...

    def push_ops(self, card_id: str, path: str, ctx: dict[str, Any]) -> None:
        """Queue the operations found at ``path`` of a card."""
        ...

    def ask(
        self, task: Asking, kind: str, decider: str, prompt: str, options: list[Option]
    ) -> bool:
        """Leave ``task`` waiting for a choice among ``options``."""
        ...

    def choose_one(
        self, task: Asking, kind: str, decider: str, prompt: str, options: list[Option]
    ) -> Any | None:
        """The value chosen for ``task``: the answer given, the only option,
        or ``None`` after asking."""
        ...
