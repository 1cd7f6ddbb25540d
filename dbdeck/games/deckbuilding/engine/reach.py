"""A rule handler's reach: what the rules may use of a game as they run.

Effects, attacks, combat, the turn's flow, the Villains' modules and the
task kinds take a ``Reach``, not the whole ``Game``: the state, the cards,
the seeded chance, the log, the task stack with its questions, and the
Villain's hooks (``VillainHooks``). Listing and applying actions, saving,
cloning and the seat views are the facade's business
(``dbdeck.games.deckbuilding.engine.game``), out of a handler's reach, so a
handler cannot start a second action in the middle of one or look at what a
seat may not see. ``Game`` satisfies this protocol; mypy checks that it does
wherever one is passed for the other.

This module sits low in the engine's layers: it names only the cards, the
state, the tasks and the words of the log, none of which imports it, so the
modules that take a ``Reach`` stand in no circle of imports with it (the
Villains' hooks are a protocol here; ``villains.base.VillainRules`` is their
default, above every module that calls them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from dbdeck.games.deckbuilding.engine.holders import Holder

if TYPE_CHECKING:
    from dbdeck.games.deckbuilding.cards.catalog import Catalog
    from dbdeck.games.deckbuilding.cards.plain import AttackBody, Card, Character, Enemy, Villain
    from dbdeck.games.deckbuilding.engine.chance import TableRandom
    from dbdeck.games.deckbuilding.engine.context import EffectContext
    from dbdeck.games.deckbuilding.engine.events import Event, Word
    from dbdeck.games.deckbuilding.engine.holders import EnemyRef, MarketAllyRef
    from dbdeck.games.deckbuilding.engine.state import (
        CharacterState,
        DerivedState,
        GameState,
        HiddenPile,
        Option,
        Prepared,
        Unit,
        VillainAttackState,
    )
    from dbdeck.games.deckbuilding.engine.tasks import Asking, OrderItem, Task

__all__ = ["Reach", "VillainHooks"]

_C = TypeVar("_C")


class Reach(Protocol):
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
    def hooks(self) -> VillainHooks:
        """The Villain's module hooks."""
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

    def push_ops(self, card_id: str, path: str, ctx: EffectContext) -> None:
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


class VillainHooks(Protocol):
    """The hooks the rules call on the Villain's module, each with its own
    signature (``villains.base.VillainRules`` holds the general rules; a
    Villain's module overrides the ones its board changes)."""

    @property
    def OFFERS_ACTION(self) -> bool:
        """Whether the Villain's rules offer the Characters an action of their own."""
        ...

    # --- turns -----------------------------------------------------------------------

    def turn_card_name(self, g: Reach, card: str) -> str:
        """The name a Villain turn-order card (``V1``, ``V2`` …) shows."""
        ...

    def villain_card(self, g: Reach, card: str) -> None:
        """A Villain turn-order card was revealed."""
        ...

    def defeated_card_revealed(self, g: Reach, character: str) -> None:
        """A defeated Character's turn-order card was revealed."""
        ...

    def arrived(self, g: Reach) -> bool:
        """Whether the Villain is at the table (he and the Minions can be attacked)."""
        ...

    def minions_present(self, g: Reach) -> bool:
        """Whether the Minions in play activate this turn."""
        ...

    def turn_start(self, g: Reach) -> list[OrderItem]:
        """The Villain's start-of-turn effects, as ordered items."""
        ...

    def advance_time_track(self, g: Reach) -> list[Prepared]:
        """The Energy Techniques phase: the attacks at Time 1, taken off the track."""
        ...

    def activate(self, g: Reach) -> None:
        """Play the top card of the Villain deck."""
        ...

    def activate_card(self, g: Reach, card_id: str) -> None:
        """Prepare a named attack card (Broly's table)."""
        ...

    # --- attacks ------------------------------------------------------------------------

    def attack_body(self, g: Reach, task: Prepared | VillainAttackState) -> AttackBody | None:
        """The attack a prepared card or an attack being made stands for."""
        ...

    def attack_path(self, g: Reach, task: Prepared | VillainAttackState) -> str:
        """The path prefix of the attack inside its card (for its operations)."""
        ...

    def attack_targets(
        self, g: Reach, body: AttackBody, task: VillainAttackState
    ) -> tuple[list[Holder], bool]:
        """Who an attack may hit, and whether the players choose among them."""
        ...

    def attack_bonus(self, g: Reach, source: Holder) -> int:
        """Extra damage on every attack of the Villain's side."""
        ...

    def power_damage(self, g: Reach) -> int:
        """Damage an attack "plus Power" adds."""
        ...

    def on_attacked(
        self, g: Reach, source: Holder, target: Holder, amount: int, dealt: int, technique: bool
    ) -> None:
        """A Character's attack hit the Villain's side."""
        ...

    def damage_reduction(self, g: Reach, key: Holder) -> int:
        """Extra Damage Reduction of the Villain or an enemy."""
        ...

    def aggro_holder(self, g: Reach) -> Holder | None:
        """Who holds the Villain's Aggro token, if anyone."""
        ...

    def enemy_self(self, g: Reach, enemy: EnemyRef) -> Holder:
        """Who "self" means in an effect one of the Villain's enemies owns."""
        ...

    def max_health_bonus(self, g: Reach, key: EnemyRef) -> int:
        """Extra Maximum Health of one enemy of a several-enemy Villain."""
        ...

    # --- the Characters' actions ------------------------------------------------------

    def villain_action(self, g: Reach, ch: CharacterState) -> tuple[str, str | None]:
        """The Villain's own action in words, and why ``ch`` may not take it now."""
        ...

    def take_villain_action(self, g: Reach, ch: CharacterState) -> None:
        """``ch`` takes the Villain's own action."""
        ...

    def villain_action_worth(self, g: Reach, ch: CharacterState) -> float | None:
        """How much a sensible player wants the Villain's own action now, on
        the bots' scale (``None``: nothing to tell about it)."""
        ...

    def special_targets(self, g: Reach, name: str) -> list[Holder]:
        """Targets outside the table: Ally Market cards, the Kidnapped Victim."""
        ...

    def eliminate_market_ally(
        self, g: Reach, key: MarketAllyRef, avoidable: bool, source: Holder | None
    ) -> None:
        """An attack eliminates an Ally of the market."""
        ...

    # --- tokens ---------------------------------------------------------------------------

    def tokens(self, g: Reach, key: Holder, counter: str, amount: int, ctx: EffectContext) -> None:
        """Add (or remove, when negative) tokens of a kind."""
        ...

    def break_armor(self, g: Reach, key: Holder) -> None:
        """Remove an Armor token (an enemy's own, or the Villain's)."""
        ...

    # --- ends ------------------------------------------------------------------------------

    def death_effect(self, g: Reach, character: str) -> None:
        """The board's death effect after a Character is defeated."""
        ...

    def on_minion_eliminated(self, g: Reach, card_id: str) -> None:
        """A Minion was eliminated."""
        ...

    def on_enemy_defeated(self, g: Reach, enemy: str) -> None:
        """One enemy of a several-enemy Villain is defeated."""
        ...

    def check_victory(self, g: Reach) -> None:
        """Villain-specific victory checks."""
        ...

    def hidden_piles(self, g: Reach) -> list[HiddenPile]:
        """The Villain's face-down piles whose order no player knows, and
        how each may be dealt again (``state.HiddenPile``)."""
        ...
