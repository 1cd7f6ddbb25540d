"""The rules engine: a game you drive with ``legal_actions`` and ``apply``.

The engine is headless and deterministic: no I/O, no Textual, all randomness
from one seeded generator held by the game. Work the rules queue up (an
attack's damage, a Minion's activation, an effect's operations) sits on a
stack of *tasks*, one slotted dataclass per kind (``engine/tasks.py``);
when a task needs a choice it leaves a ``Decision`` pending that points at
it, and waits for a ``choose`` action. So a game stops only
where a person must decide, and its whole state — stack included — saves
to JSON and resumes exactly.
"""

from __future__ import annotations

import difflib
import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.cards.kinds import MARKET_OF_KIND, Difficulty
from dbdeck.games.deckbuilding.cards.plain import Card, Character, Enemy, MarketCard, Villain
from dbdeck.games.deckbuilding.engine import combat, effects, flow, rules, villains, zones
from dbdeck.games.deckbuilding.engine.actions import (
    KIND_SET,
    Action,
    Choose,
    IllegalAction,
    registry,
    shape_problem,
)
from dbdeck.games.deckbuilding.engine.chance import TableRandom
from dbdeck.games.deckbuilding.engine.context import EffectContext
from dbdeck.games.deckbuilding.engine.determinize import redeal
from dbdeck.games.deckbuilding.engine.events import Event, Word
from dbdeck.games.deckbuilding.engine.holders import (
    HOLDER_TYPES,
    LOCATION,
    VILLAIN,
    AllyRef,
    CharacterRef,
    EnemyRef,
    Holder,
    MarketAllyRef,
    MinionRef,
    VillainRef,
)
from dbdeck.games.deckbuilding.engine.state import (
    SNAPSHOT_VERSION,
    CharacterState,
    Decision,
    DerivedState,
    GameState,
    MarketState,
    Option,
    Unit,
    own_state_for,
    state_from_data,
    to_data,
    upgrade_snapshot,
)
from dbdeck.games.deckbuilding.engine.tasks import Asking, Task
from dbdeck.games.deckbuilding.engine.villains.base import VillainRules
from dbdeck.games.deckbuilding.engine.words import count
from dbdeck.tabletop.game import SetupProblem

# The rule modules imported above define the task kinds: importing them
# registered every kind a saved stack may hold (flow brings attacks, and
# villains each Villain's module).

__all__ = [
    "DIFFICULTIES",
    "SAVE_VERSION",
    "Game",
    "Setup",
    "SetupError",
    "level_note",
    "scenarios_of",
    "setup_problem",
]

_C = TypeVar("_C")

DIFFICULTIES = ("easy", "medium", "hard")
SAVE_VERSION = SNAPSHOT_VERSION
"""The version of ``to_json``'s form (``state.SNAPSHOT_VERSION``)."""
MARKETS = zones.MARKETS
"""The five market decks (the sixth pile is apart)."""


class SetupError(SetupProblem):
    """A setup the rules do not allow; the message says why."""


@dataclass(slots=True)
class Setup:
    """What a game starts from."""

    characters: list[str]
    villain: str
    difficulty: str = "medium"
    extreme: bool = False
    location: str | None = None
    """A Location id, ``random``, or ``None`` for no Location."""
    seed: int = 0
    seats: list[int] = field(default_factory=list)
    """The seat playing each Character (default: one seat each)."""
    starting_ally: str | None = None
    """Solo against a Villain of level 6+: the starting Ally chosen."""
    ignore_levels: bool = False
    """Scenarios that waive the level rule (A Different Future)."""
    variant: str | None = None
    """A Villain's scenario card to play instead of the usual game (e.g.
    ``androids-17-18-a-different-future``): it names the Characters, whose
    Levels then do not count."""

    def to_json(self) -> dict[str, Any]:
        """The setup as JSON data."""
        data: dict[str, Any] = to_data(self)
        return data


class Game:
    """One game of the Dragon Ball Deckbuilding Game."""

    def __init__(
        self, catalog: Catalog, state: GameState, rng: TableRandom, *, like: Game | None = None
    ) -> None:
        """``like``: a game of the same table whose lookups this one takes
        over instead of making them again (``clone``)."""
        self.catalog = catalog
        self.state = state
        self.rng = rng
        self.events: list[Event] = []
        if like is not None:
            self._villain_hooks: VillainRules = like._villain_hooks
            self._defs: list[Card] = list(like._defs)
            self._location_lasting: dict[tuple[str | None, type], tuple[Any, ...]] = (
                like._location_lasting
            )
            self._villain_board: Villain = like._villain_board
            self.victory_conditions: frozenset[str] = like.victory_conditions
        else:
            self._villain_hooks = villains.hooks_for(state.villain_id)
            # Card definitions by instance uid: the hottest lookup of the engine.
            self._defs = [catalog.cards[c] for c in state.card_ids]
            self._location_lasting = {}
            board = catalog.cards[state.villain_id]
            if not isinstance(board, Villain):
                raise SetupError(f"{state.villain_id!r} is not a Villain")
            # The board never changes in a game: looked up once, read on every attack.
            self._villain_board = board
            self.victory_conditions = frozenset(v.condition for v in board.victory)
        self.headless = False
        """Build no events: ``log`` records nothing, and ``apply`` returns an
        empty list. For bots and searches that play on copies and read no
        log; the rules never read the events, so a headless game reaches the
        same states as a logged one (``tests/test_headless.py``)."""
        self.step_mode = False
        """Stop after each step of the Villain's turn (``state.paused``), so a
        table can show the turn unfold; headless play leaves it off."""
        self.derived = DerivedState()
        """Bonus sums and cost changes per Character, kept until the cards in
        play, the bonuses or the Location change (``state.DerivedState``)."""

    # --- creating ------------------------------------------------------------------

    @classmethod
    def new(cls, catalog: Catalog, setup: Setup) -> Game:
        """Set up a game and play it up to the first decision; raises
        ``SetupError`` when the rules forbid the setup."""
        game = cls.set_up(catalog, setup)
        game._advance()
        return game

    @classmethod
    def set_up(cls, catalog: Catalog, setup: Setup) -> Game:
        """A game as set up, before its first step (the first turn-order
        card) runs; raises ``SetupError`` when the rules forbid it."""
        _check_setup(catalog, setup)
        state = GameState(
            villain_id=setup.villain,
            difficulty=cast("Difficulty", setup.difficulty),  # _check_setup checked it
            extreme=setup.extreme,
            location=None,
            seed=setup.seed,
            variant=setup.variant or "",
        )
        game = cls(catalog, state, TableRandom(setup.seed))
        game._set_up(setup)
        return game

    def _set_up(self, setup: Setup) -> None:
        s = self.state
        villain = self.card_as(setup.villain, Villain)
        if setup.location == "random":
            s.location = self.rng.choice(sorted(c.id for c in self.catalog.locations()))
        else:
            s.location = setup.location
        seats = setup.seats or list(range(len(setup.characters)))
        for order, (character_id, seat) in enumerate(zip(setup.characters, seats, strict=True)):
            s.characters.append(self._new_character(character_id, order + 1, seat))
        # The solo starting Ally is chosen with the Character's deck, before
        # any market is built: no Location can remove it (rules note S3).
        aside = self._build_markets(setup, villain)
        if aside is not None:
            s.characters[0].allies.append(Unit(aside))
        s.villain.id = villain.id
        s.villain.own = own_state_for(villain.id)
        s.villain.phase = 1
        self._villain_hooks.setup(self)
        for card in villain.side_decks:
            s.villain.side_decks[card.card] = [self.new_uid(card.card) for _ in range(card.copies)]
        starting = list(villain.starting_minions)
        if s.extreme:
            starting = self._villain_hooks.extreme_minions(self, starting)
        for minion in starting:
            s.villain.minions.append(Unit(self.new_uid(minion)))
        for i in range(villain.starting_dragon_balls):
            s.balls[i] = VILLAIN
        s.turn_cards = self._turn_order_cards(len(s.characters), villain.turn_order_cards)
        s.turn_deck = list(s.turn_cards)
        self.rng.shuffle(s.turn_deck)
        s.prologue = self._villain_hooks.prologue(self)
        location = self.location_card()
        if location is not None:
            # Removing market cards was done while the markets were built
            # (before they were revealed); the other setup effects run now.
            ctx = EffectContext(LOCATION, location=True, setup=True)
            for i in reversed(range(len(location.setup_effects))):
                if location.setup_effects[i].op != "remove-from-market":
                    self.push(effects.Op(location.id, "setup_effects", i, ctx))
        s.step = "reveal"

    def _new_character(self, character_id: str, order: int, seat: int) -> CharacterState:
        board = self.character_card(character_id)
        ch = CharacterState(id=character_id, order=order, seat=seat)
        uses = board.special_ability.uses if board.special_ability else "passive"
        ch.ability_tokens = uses if isinstance(uses, int) else 0
        for entry in board.starting_cards:
            kind = self.card(entry.card).kind
            for _ in range(entry.copies):
                uid = self.new_uid(entry.card)
                if kind in ("ally", "equipment", "training"):
                    zones.units_list(ch, kind).append(Unit(uid))
                else:
                    ch.deck.append(uid)
        self.rng.shuffle(ch.deck)
        # The starting hand is the maximum hand size: 5, or what the Location
        # makes it (rules note L2).
        zones.draw(self, ch, zones.hand_limit(self, ch))
        return ch

    def _build_markets(self, setup: Setup, villain: Villain) -> int | None:
        """Build the six markets; the solo starting Ally's one copy is taken
        out of the Allies first. Returns that Ally (``None`` without one)."""
        s = self.state
        removed = {a for c in setup.characters for a in self.character_card(c).ally_versions}
        cards: dict[str, list[str]] = {m: [] for m in MARKETS}
        sixth: list[str] = []
        for card in self.catalog.cards.values():
            if not isinstance(card, MarketCard):
                continue
            market = MARKET_OF_KIND.get(card.kind, "")
            if market in MARKETS and not card.starting:
                if card.kind == "ally" and card.id in removed:
                    continue
                cards[market] += [card.id] * card.copies
            elif market == "sixth":
                sixth += [card.id] * card.copies
        allies = cards["allies"]
        aside: int | None = None
        if setup.starting_ally:
            allies.remove(setup.starting_ally)  # _check_setup: one of the market's Allies
            aside = self.new_uid(setup.starting_ally)
        self.rng.shuffle(allies)
        cards["allies"] = self._villain_hooks.ally_market(self, allies)
        for market in MARKETS:
            deck = [self.new_uid(c) for c in cards[market]]
            self.rng.shuffle(deck)
            s.markets[market] = MarketState(deck=deck)
        self._villain_hooks.markets_built(self)
        location = self.location_card()
        if location is not None:
            for op in location.setup_effects:
                if op.op == "remove-from-market":
                    count = self._villain_hooks.ruined_city_count(self, op.count)
                    zones.remove_from_market(self, op.market, count)
        for market in MARKETS:
            zones.restock(self, market)
        s.sixth = [self.new_uid(c) for c in sixth]
        self.rng.shuffle(s.sixth)
        return aside

    @staticmethod
    def _turn_order_cards(characters: int, villain_cards: int) -> list[str]:
        """The turn-order deck by the rulebook's table ("Setting Up the Game")."""
        per_character, wildcards = {1: (2, 1), 2: (2, 0), 3: (1, 1), 4: (1, 0)}[characters]
        deck = [str(order) for order in range(1, characters + 1) for _ in range(per_character)]
        return deck + ["W"] * wildcards + [f"V{i + 1}" for i in range(villain_cards)]

    # --- identities --------------------------------------------------------------------

    def new_uid(self, card_id: str) -> int:
        """A new card instance of ``card_id``."""
        self.state.card_ids.append(card_id)
        self._defs.append(self.catalog.cards[card_id])
        return len(self.state.card_ids) - 1

    def card(self, uid_or_id: int | str) -> Card:
        """The card definition of an instance uid (or of a card id)."""
        # An exact class test: cheaper than isinstance on the hottest path.
        if uid_or_id.__class__ is int:
            return self._defs[uid_or_id]
        return self.catalog.cards[uid_or_id]  # type: ignore[index]

    def lasting_ops(self, uid: int, op_type: type) -> tuple[Any, ...]:
        """The lasting operations of one type on a card instance's own
        effects (those with a ``while-in-play`` or ``permanent`` duration)."""
        # Grouped once per card, when the card was made (``CardFlags.lasting``).
        found: tuple[Any, ...] = self._defs[uid].lasting.get(op_type, ())
        return found

    def card_as(self, uid_or_id: int | str, kind: type[_C]) -> _C:
        """The card of an instance uid (or a card id) that the rules know to
        be of one class (a Minion's, a Technique's); ``TypeError`` if not."""
        card = self.card(uid_or_id)
        if not isinstance(card, kind):
            raise TypeError(f"card {uid_or_id!r} is a {card.kind}, not a {kind.__name__}")
        return card

    def character_card(self, character_id: str) -> Character:
        """The board of a Character at the table."""
        card = self.catalog.cards[character_id]
        if not isinstance(card, Character):
            raise KeyError(f"{character_id!r} is not a Character")
        return card

    def villain_card(self) -> Villain:
        """The Villain's board."""
        return self._villain_board

    def enemy_card(self, enemy_id: str) -> Enemy:
        """The card of one enemy of a Villain of several."""
        card = self.catalog.cards[enemy_id]
        if not isinstance(card, Enemy):
            raise KeyError(f"{enemy_id!r} is not an enemy")
        return card

    def name(self, key_or_uid: Holder | int) -> str:
        """A holder or card uid in words."""
        match key_or_uid:
            case int(uid):
                return str(self._defs[uid].name)
            case CharacterRef(card_id) | EnemyRef(card_id):
                return str(self.catalog.cards[card_id].name)
            case AllyRef(uid) | MinionRef(uid):
                return str(self._defs[uid].name)
            case MarketAllyRef(uid):
                return f"{self._defs[uid].name} (Ally Market)"
            case VillainRef():
                return str(self.catalog.cards[self.state.villain_id].name)
        raise TypeError(f"not a holder: {key_or_uid!r}")

    def target_label(self, key: Holder) -> str:
        """A possible target in words, with what a player weighs: its
        Remaining Health and the Dragon Balls it holds."""
        label = f"{self.name(key)} ({rules.remaining(self, key)}/{rules.max_health(self, key)}"
        balls = sum(1 for holder in self.state.balls if holder == key)
        return label + (f", {count(balls, 'Dragon Ball')})" if balls else ")")

    def location_card(self) -> Any:
        """The Location in play, or ``None``."""
        return None if self.state.location is None else self.card(self.state.location)

    def location_lasting_ops(self, op_type: type) -> tuple[Any, ...]:
        """The Location's lasting operations of one type that reach every
        Character (``each-character`` or ``self``)."""
        key = (self.state.location, op_type)
        found = self._location_lasting.get(key)
        if found is None:
            location = self.location_card()
            found = self._location_lasting[key] = tuple(
                op
                for op in (() if location is None else location.effects)
                if isinstance(op, op_type)
                and getattr(op, "target", "") in ("each-character", "self")
                and getattr(op, "duration", None) in ("while-in-play", "permanent")
            )
        return found

    def location_bonus(self, op_type: type, attack: str | None = None) -> int:
        """A lasting Location bonus of one kind for the Villain (each of its
        enemies, rules note L1); for a damage bonus, the one its ``attack``
        type (Energy or Physical) receives."""
        location = self.location_card()
        if location is None:
            return 0
        total = 0
        for op in location.effects:
            if isinstance(op, op_type) and getattr(op, "target", "") == "villain":
                if getattr(op, "attack", None) not in (None, attack):
                    continue
                total += int(getattr(op, "amount", 0))
        return total

    def ally(self, uid: int) -> tuple[CharacterState, Unit]:
        """The Ally in play with this uid, and its Character."""
        for ch in self.state.characters:
            for unit in ch.allies:
                if unit.uid == uid:
                    return ch, unit
        raise KeyError(uid)

    def minion(self, uid: int) -> Unit:
        """The Minion in play with this uid."""
        for unit in self.state.villain.minions:
            if unit.uid == uid:
                return unit
        raise KeyError(uid)

    def energy_value(self, uid: int, market: str | None = None) -> int:
        """What an Energy card gives (for buying in ``market`` if given)."""
        card = self.card(uid)
        # Worked out once per card (``CardFlags.energy``): 0 for a card that gives none.
        value: int = card.energy
        if market is not None:
            value = card.energy_for.get(market, value)
        return value

    @property
    def hooks(self) -> VillainRules:
        """The Villain's module hooks."""
        return self._villain_hooks

    # --- events ------------------------------------------------------------------------

    def log(
        self, event_type: str, text: str, /, *words: Word, private_to: str = "", **data: Any
    ) -> None:
        """Record an event: its ``text``, or a template whose ``{}`` fields
        ``words`` fill in when the text is read (``engine/events.py``), and
        its data. Holders in its data are written as their keys: events are
        read by the log, the view and the previews, in words. A headless
        game records nothing."""
        if self.headless:
            return
        for name, value in data.items():
            if value.__class__ in HOLDER_TYPES:
                data[name] = value.key
            elif value.__class__ is list and value and value[0].__class__ in HOLDER_TYPES:
                data[name] = [h.key for h in value]
        # Names never change in a game, so the event may ask for them later.
        self.events.append(
            Event(event_type, text, data, private_to, words, self.name if words else None)
        )

    # --- tasks and decisions ---------------------------------------------------------

    def push(self, task: Task) -> None:
        """Queue a task to run next."""
        self.state.stack.append(task)

    def push_ops(self, card_id: str, path: str, ctx: EffectContext) -> None:
        """Queue the operations found at ``path`` of a card."""
        self.push(effects.Ops(card_id, path, 0, ctx))

    def ask(
        self,
        task: Asking,
        kind: str,
        decider: str,
        prompt: str,
        options: list[Option],
    ) -> bool:
        """Leave ``task`` waiting for a choice among ``options``: it goes back
        on top of the stack, and the decision answers it."""
        self.push(task)
        self.state.pending = Decision(kind, decider, prompt, options, task)
        return False

    def choose_one(
        self,
        task: Asking,
        kind: str,
        decider: str,
        prompt: str,
        options: list[Option],
    ) -> Any | None:
        """The value chosen for ``task`` among ``options`` (at least one): the
        answer already given, the only option, or ``None`` after asking."""
        if task.choice is not None:
            return task.choice
        if len(options) == 1:
            return options[0].value
        self.ask(task, kind, decider, prompt, options)
        return None

    # --- the public API ---------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return bool(self.state.winner)

    def actor(self) -> str | None:
        """Who must act now: a Character id, ``players``, or ``None`` when over
        (or while a paused Villain turn waits for ``resume``)."""
        if self.over or self.state.paused:
            return None
        if self.state.pending is not None:
            return self.state.pending.decider
        return self.state.active

    def legal_actions(self) -> list[Action]:
        """Every action allowed now (the only ones ``apply`` accepts)."""
        if self.over or self.state.paused:
            return []
        if self.state.pending is not None:
            return [Choose(option=i) for i in range(len(self.state.pending.options))]
        return registry.legal(self)

    def best_action(
        self,
        score: Callable[[Action], float],
        beats_rows: Callable[[float], bool] | None = None,
    ) -> Action | None:
        """The legal action ``score`` rates highest (the first of
        ``legal_actions`` among equal ones), checking candidates best-first
        so most refusals are never worked out; ``None`` when a decision is
        pending or nothing is legal. ``beats_rows``: whether a score beats every
        buy and market discard, to skip the market rows when something else
        scores higher. Bots use it instead of the listing."""
        if self.over or self.state.paused or self.state.pending is not None:
            return None
        return registry.best_first(self, score, beats_rows)

    def check(self, action: Action) -> str | None:
        """Why ``action`` is illegal now, or ``None`` if it is legal: first
        whether it is an action of the engine's own shape at all (exactly its
        kind's fields, each of its type and in bounds), then the rules."""
        if type(action) not in KIND_SET or not action._fits():
            return shape_problem(action)  # which field, of which kind
        if self.over:
            return f"the game is over: {self.state.reason}"
        if self.state.paused:
            return f"{self.name(VILLAIN)} is playing"
        pending = self.state.pending
        if pending is not None:
            if action.type != "choose":
                return f"a decision is pending: {pending.prompt}"
            if not 0 <= action.option < len(pending.options):
                return f"choose an option from 0 to {len(pending.options) - 1}"
            return None
        if action.type == "choose":
            return "there is no decision to answer"
        return registry.check(self, action)

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action and return what happened.

        An illegal action raises ``IllegalAction`` with the reason, and
        changes nothing.
        """
        reason = self.check(action)
        if reason is not None:
            raise IllegalAction(reason)
        self.events = []
        self.state.actions += 1
        if action.type == "choose":
            pending = self.state.pending
            assert pending is not None
            assert pending.task is not None, "a decision answers the task that asked it"
            option = pending.options[action.option]
            pending.task.answer(option.value)
            self.log("choice", "{} chose: {}", _decider(pending.decider), option.label)
            self.state.pending = None
        else:
            registry.perform(self, action)
        self._advance()
        return self.events

    def apply_legal(self, action: Action) -> list[Event]:
        """Apply an action taken from this very position's ``legal_actions``,
        ``best_action`` or a bot, without asking ``check`` again: the fast path
        of bots and searches playing on copies. Whatever comes from a person,
        a file or the wire goes through ``apply``, which refuses what is
        illegal; an action that is not legal here leaves this game in no
        defined state."""
        self.events = []
        self.state.actions += 1
        if action.type == "choose":
            pending = self.state.pending
            assert pending is not None and pending.task is not None
            option = pending.options[action.option]
            pending.task.answer(option.value)
            if not self.headless:
                self.log("choice", "{} chose: {}", _decider(pending.decider), option.label)
            self.state.pending = None
        else:
            registry.perform(self, action)
        self._advance()
        return self.events

    def _advance(self) -> None:
        """Run the rules until a person must decide or the game ends (or, in
        step mode, until a step of the Villain's turn has shown something)."""
        s = self.state
        guard = 0
        combat.check_end(self, health=True)
        shown_from = -1  # events index where the last Villain step began
        while not s.winner and s.pending is None:
            guard += 1
            if guard > 100_000:
                raise RuntimeError("the rules engine looped without progress")
            if s.stack:
                task = s.stack.pop()
                task.run(self)
                # A task may take a Maximum Health bonus out of play (a cost
                # that discards Equipment): the health check runs after each
                # that changes more than the stack.
                if not task.queues_only:
                    combat.check_end(self, health=True)
                continue
            if 0 <= shown_from < len(self.events):
                s.paused = True
                break
            step = flow.STEPS[s.step]
            if step is None:
                break
            villain_step = s.step.startswith("villain_")
            before = len(self.events)
            step(self)
            combat.check_end(self, health=True)
            shown_from = before if self.step_mode and villain_step else -1

    def resume(self) -> list[Event]:
        """Go on after a pause of step mode; returns the events of the next
        step (nothing when not paused)."""
        if not self.state.paused:
            return []
        self.events = []
        self.state.paused = False
        self._advance()
        return self.events

    # --- saving ------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole game (state and random generator) as JSON data."""
        version, internal, gauss = self.rng.getstate()
        return {
            "version": SAVE_VERSION,
            "state": to_data(self.state),
            "rng": [version, list(internal), gauss],
        }

    @classmethod
    def from_json(cls, catalog: Catalog, data: dict[str, Any]) -> Game:
        """Restore a game saved by ``to_json`` (of this version or an older one)."""
        data = upgrade_snapshot(data)
        rng = TableRandom()
        version, internal, gauss = data["rng"]
        rng.setstate((version, tuple(internal), gauss))
        return cls(catalog, state_from_data(data["state"]), rng)

    def clone(self, *, headless: bool | None = None) -> Game:
        """An independent copy that continues identically; ``headless``: the
        copy's own setting (``Game.headless``), by default this game's."""
        rng = TableRandom()
        rng.setstate(self.rng.getstate())
        # Through __init__, not Game.__new__: compiled (the accelerated
        # build), a class's __new__ runs its __init__.
        twin = Game(self.catalog, self.state.clone(), rng, like=self)
        twin.step_mode = self.step_mode
        twin.headless = self.headless if headless is None else headless
        return twin

    def determinize(
        self, plays: Iterable[str], rng: random.Random, *, headless: bool = False
    ) -> Game:
        """A copy of the game as one of the worlds the seat that plays
        ``plays`` (Character ids) cannot tell from this one: what it cannot
        know dealt again from ``rng`` (``engine/determinize.py``, rules note
        N51) and the random generator reseeded from it, so dice and later
        shuffles differ too. Its seat view is this game's; this game is left
        as it is. A bot that thinks ahead on such copies plays fair.
        ``headless``: the copy builds no events (``Game.headless``), the
        fast path of playouts."""
        twin = self.clone(headless=headless)
        if not headless:
            twin.events = list(self.events)  # the view's log: what every seat just saw
        redeal(twin, frozenset(plays), rng)
        seed = rng.getrandbits(64)
        twin.rng = TableRandom(seed)
        # The setup's seed would deal the real game again: the world's is its own.
        twin.state.seed = seed
        return twin

    def fingerprint(self) -> str:
        """A canonical text of the whole game, for comparing two games."""
        return json.dumps(self.to_json(), sort_keys=True)


def _decider(decider: str) -> Word:
    """Who decided, as a word of an event (named when the log is read)."""
    if decider == "players":
        return "The players"
    return CharacterRef(decider)


def _check_setup(catalog: Catalog, setup: Setup) -> None:
    villain = catalog.cards.get(setup.villain)
    if villain is None or villain.kind != "villain":
        raise SetupError(_unknown("villain", setup.villain, [v.id for v in catalog.villains()]))
    if not 1 <= len(setup.characters) <= 4:
        raise SetupError("a game has 1 to 4 Characters")
    if len(set(setup.characters)) != len(setup.characters):
        raise SetupError("each Character can be chosen once")
    for character in setup.characters:
        card = catalog.cards.get(character)
        if card is None or card.kind != "character":
            known = [c.id for c in catalog.characters()]
            raise SetupError(_unknown("character", character, known))
    if setup.difficulty not in DIFFICULTIES:
        raise SetupError(f"difficulty must be one of {', '.join(DIFFICULTIES)}")
    levels = sum(int(getattr(catalog.cards[c], "level", 0)) for c in setup.characters)
    if setup.variant is not None:
        _check_variant(catalog, setup, villain)
    if levels > villain.level and not setup.ignore_levels and setup.variant is None:
        raise SetupError(
            f"the Characters' levels add up to {levels}, more than {villain.name}'s level "
            f"{villain.level}"
        )
    if setup.location not in (None, "random"):
        location = catalog.cards.get(setup.location)
        if location is None or location.kind != "location":
            known = ["random", *(place.id for place in catalog.locations())]
            raise SetupError(_unknown("location", setup.location, known))
    if setup.seats and len(setup.seats) != len(setup.characters):
        raise SetupError("give one seat per Character")
    if setup.starting_ally is not None:
        ally = catalog.cards.get(setup.starting_ally)
        if ally is None or ally.kind != "ally":
            known = [a.id for a in catalog.of_kind("ally") if not getattr(a, "starting", False)]
            raise SetupError(_unknown("ally", setup.starting_ally, known))
        if ally.starting:
            raise SetupError(
                f"{ally.name} is a Character's own starting card: a starting Ally is one of "
                "the Ally Market's cards"
            )
        if len(setup.characters) != 1 or villain.level < 6:
            raise SetupError(
                "a starting Ally is only for one Character against a Villain of level 6 or more"
            )
        versions = {a for c in setup.characters for a in catalog.cards[c].ally_versions}  # type: ignore[union-attr]
        if ally.id in versions:
            raise SetupError(f"{ally.name} is the Ally version of a chosen Character")
        if ally.power + levels > villain.level:
            raise SetupError(
                f"{ally.name}'s power {ally.power} plus the Character's level {levels} exceeds "
                f"{villain.name}'s level {villain.level}"
            )


def _unknown(what: str, given: str, known: list[str]) -> str:
    """``unknown villain 'freezr'; did you mean freezer?``: a mistyped id
    with the nearest known one, when one is near."""
    return f"unknown {what} {given!r}" + _nearest(given, known)


def _nearest(given: str, known: list[str]) -> str:
    """``; did you mean freezer?`` for the known id nearest ``given``, or
    nothing when none is near."""
    near = difflib.get_close_matches(given.lower(), known, n=1, cutoff=0.6)
    return f"; did you mean {near[0]}?" if near else ""


def scenarios_of(catalog: Catalog, villain: str) -> list[str]:
    """The ids of a Villain's scenario cards (its variants: the cards that
    name the Characters they are played with)."""
    return [
        c.id
        for c in catalog.of_kind("villain-card")
        if getattr(c, "villain", "") == villain and getattr(c, "characters", None)
    ]


def setup_problem(catalog: Catalog, setup: Setup) -> str | None:
    """Why the rules forbid this setup, in the words ``Game.new`` would raise
    them with; ``None`` when it may start. A setup screen asks this rather
    than keeping rules of its own."""
    try:
        _check_setup(catalog, setup)
    except SetupError as exc:
        return str(exc)
    return None


def level_note(catalog: Catalog, setup: Setup) -> str:
    """The level rule as it applies to this setup, in the rulebook's terms:
    the sum of the Characters' Levels against the Villain's Level, a solo
    starting Ally's power counted with them, or the scenario card that
    waives the rule."""
    villain = catalog.cards.get(setup.villain)
    if villain is None or villain.kind != "villain":
        return "Choose a Villain: the Characters' levels are weighed against its level."
    if setup.variant is not None:
        card = catalog.cards.get(setup.variant)
        wanted = list(getattr(card, "characters", None) or [])
        if card is not None and wanted:
            names = ", ".join(str(catalog.cards[c].name) for c in wanted if c in catalog.cards)
            return f"{card.name} is played with {names}, whatever their levels."
    known = [catalog.cards[c] for c in setup.characters if c in catalog.cards]
    levels = sum(int(getattr(c, "level", 0)) for c in known)
    if setup.ignore_levels:
        return f"Levels: {levels}; this scenario waives the level rule."
    ally = catalog.cards.get(setup.starting_ally or "")
    if ally is not None and ally.kind == "ally":
        return (
            f"Levels: {levels} plus {ally.name}'s power {ally.power} = {levels + ally.power} "
            f"of at most {villain.level} (solo, a starting Ally's power is added to the "
            "Character's level, and the sum cannot exceed the Villain's level)."
        )
    return (
        f"Levels: {levels} of at most {villain.level} (the sum of the Characters' levels "
        "cannot exceed the Villain's level)."
    )


def _check_variant(catalog: Catalog, setup: Setup, villain: Any) -> None:
    """A scenario card of the chosen Villain, played with the Characters it names."""
    card = catalog.cards.get(setup.variant or "")
    if card is None or card.kind != "villain-card" or card.villain != villain.id:
        raise SetupError(
            f"{setup.variant!r} is not a scenario of {villain.name}"
            + _nearest(setup.variant or "", scenarios_of(catalog, villain.id))
        )
    wanted = list(getattr(card, "characters", []))
    if not wanted:
        raise SetupError(f"{card.name} is not a scenario card")
    if sorted(setup.characters) != sorted(wanted):
        names = ", ".join(catalog.cards[c].name for c in wanted)
        raise SetupError(f"{card.name} is played with {names}")
