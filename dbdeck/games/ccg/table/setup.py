"""Setting up a two-seat CCG table from two deck files.

The setup carries the deck files' texts, not their paths, so a save or a
shared table holds everything it needs: with them, the facts the table
reads of each card (rules notes, T10), recorded from the library and the
user's packs when the table was set up. Each card line becomes that many
``TableCard`` records with those facts; the Main Personality's levels make
the stack, the Mastery and the Sensei go in play, and the Life Deck is
shuffled by the table's chance.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Literal

from dbdeck.games.ccg.attack_table import PhysicalAttackTable
from dbdeck.games.ccg.checker import check_deck
from dbdeck.games.ccg.deckfile import DeckFile, parse_deck
from dbdeck.games.ccg.facts import Facts, facts_of, unknown_facts
from dbdeck.games.ccg.library import Library
from dbdeck.games.ccg.profiles import Profile
from dbdeck.games.ccg.profiles import profile as profile_named
from dbdeck.games.ccg.table.card_facts import (
    CardFacts,
    TooManyCards,
    by_title,
    card_facts_of,
    record_card_facts,
)
from dbdeck.games.ccg.table.state import (
    STAGES_ABOVE_ZERO_AT_START,
    Entry,
    Side,
    TableCard,
    TableState,
)
from dbdeck.games.ccg.titles import fold, style_of

__all__ = ["CcgSetup", "DeckProblem", "new_table", "recorded_setup", "table_card"]


class DeckProblem(ValueError):
    """A deck that cannot sit at the table, with the reason."""


@dataclass(frozen=True, slots=True)
class CcgSetup:
    """Two players, their decks, the rules and the seed."""

    players: tuple[str, str]
    decks: tuple[str, str]
    """Each player's deck file, as text."""
    profile: str = "errata-2001"
    adjudication: Literal["off", "suggest", "apply"] = "apply"
    seed: int = 0
    allow_illegal: bool = False
    """Seat a deck the checker finds illegal (a casual game)."""
    attack_table: PhysicalAttackTable | None = None
    """The user's Physical Attack Table, if one was given (rules notes,
    T1): carried in the setup so a save, a replay and a shared table read
    the same one."""
    card_facts: tuple[CardFacts, ...] | None = None
    """What the table reads of every card of both decks the library knew
    when the table was set up (rules notes, T10): read over whatever packs
    are present now. ``None`` in a setup written before it was recorded:
    the library gives the facts, as it did then."""


class _Facts:
    """Where the table reads each card's facts: the setup's record, or
    (a setup without one) the library."""

    def __init__(self, setup: CcgSetup, library: Library, rules: Profile) -> None:
        self.library = library
        self.rules = rules
        self.recorded = by_title(setup.card_facts) if setup.card_facts is not None else None

    def of(self, title: str) -> CardFacts:
        """The facts of the card a deck line writes ``title``."""
        if self.recorded is not None:
            found = self.recorded.get(fold(title))
            if found is not None:
                return found
            # Unknown when the table was set up, it stays unknown (R25).
            return card_facts_of(unknown_facts(title, self.rules, self.library), title)
        matches = self.library.find(title)
        if matches:
            return card_facts_of(facts_of(matches[0], self.rules, self.library), title)
        return card_facts_of(unknown_facts(title, self.rules, self.library), title)


def table_card(
    uid: int, owner: int, facts: Facts | CardFacts, level: int | None = None
) -> TableCard:
    """A card at the table with what the rules read of it."""
    if isinstance(facts, Facts):
        facts = card_facts_of(facts, facts.title)
    return TableCard(
        uid=uid,
        title=facts.title,
        type=facts.type or "",
        owner=owner,
        card_id=facts.card_id,
        personality=facts.personality,
        level=level if level is not None else facts.level,
        alignment=facts.alignment,
        dragon_ball=facts.dragon_ball,
        style=style_of(facts.title),
        pur=facts.pur,
        ladder=facts.ladder,
        fusion=facts.fusion,
    )


def recorded_setup(setup: CcgSetup, library: Library) -> CcgSetup:
    """``setup`` checked by sitting it at a table, with the facts its table
    reads of every card recorded from ``library`` (rules notes, T10);
    ``DeckProblem`` when a deck cannot be played. A setup that holds its
    record already is kept as it is."""
    if setup.card_facts is not None:
        return setup
    new_table(setup, library)
    try:
        recorded = record_card_facts(setup.decks, library, profile_named(setup.profile))
    except TooManyCards as exc:
        raise DeckProblem(str(exc)) from None
    return dataclasses.replace(setup, card_facts=recorded)


def new_table(setup: CcgSetup, library: Library) -> TableState:
    """The table at the start of the first turn; ``DeckProblem`` when a deck
    cannot be played."""
    rules = profile_named(setup.profile)
    rng = random.Random(setup.seed)
    cards: dict[int, TableCard] = {}
    sides: list[Side] = []
    facts = _Facts(setup, library, rules)
    for seat, (player, text) in enumerate(zip(setup.players, setup.decks, strict=True)):
        deck = parse_deck(text)
        # A deck was checked when its facts were recorded, against the packs
        # of the day: a pack changed since cannot unseat the game (T10).
        if setup.card_facts is None and not setup.allow_illegal:
            _check(player, deck, library, setup.profile)
        sides.append(_seat(seat, player, deck, facts, cards, rng))
    table = TableState(
        cards=cards,
        sides=(sides[0], sides[1]),
        profile=setup.profile,
        adjudication=setup.adjudication,
        rng=rng,
        attack_table=setup.attack_table,
    )
    _first_player(table)
    return table


def _check(player: str, deck: DeckFile, library: Library, profile: str) -> None:
    """``DeckProblem`` naming the first problem of an illegal deck."""
    verdict = check_deck(deck, library, profile_named(profile))
    if not verdict.legal:
        first = verdict.problems[0]
        raise DeckProblem(
            f"{player}'s deck is not legal under {profile}: line {first.line}: "
            f"{first.message} ({len(verdict.problems)} problem"
            f"{'s' * (len(verdict.problems) != 1)}; `dbdeck ccg check` lists them)"
        )


def _seat(
    seat: int,
    player: str,
    deck: DeckFile,
    facts: _Facts,
    cards: dict[int, TableCard],
    rng: random.Random,
) -> Side:
    levels: list[TableCard] = []
    life: list[int] = []
    side = Side(seat=seat, player=player, main_name="", alignment="")
    side.tokui_waza = deck.tokui_waza
    for line in deck.cards:
        known = facts.of(line.title)
        for _ in range(line.count):
            uid = len(cards) + 1
            card = table_card(uid, seat, known)
            cards[uid] = card
            if line.section == "Main Personality":
                levels.append(card)
            elif line.section == "Mastery" and side.mastery is None:
                side.mastery = uid
            elif line.section == "Sensei" and side.sensei is None:
                side.sensei = uid
            elif line.section == "Sensei Deck":
                side.sensei_deck.append(uid)
                card.face_up = False
            else:
                life.append(uid)
                card.face_up = False
    if not levels:
        raise DeckProblem(f"{player}'s deck has no Main Personality")
    levels.sort(key=lambda c: (c.level or 0, c.uid))
    side.levels = [c.uid for c in levels]
    side.main_name = levels[0].personality or levels[0].title
    side.alignment = levels[0].alignment or "hero"
    side.stages = min(STAGES_ABOVE_ZERO_AT_START, levels[0].max_stages)
    rng.shuffle(life)
    side.life_deck = life
    return side


def _rating(table: TableState, seat: int) -> int | None:
    """The beginning power rating of a Main Personality, when its pack gives
    the ladder."""
    side = table.side(seat)
    card = table.cards[side.main]
    if not card.ladder or side.stages >= len(card.ladder):
        return None
    return card.ladder[side.stages]


def _first_player(table: TableState) -> None:
    """Who goes first, and the starting stages.

    The rulebook (seed 002, Example of Play): "you're playing the Hero, so
    you go first". The errata (seed 003, Your Level is Too High!): when one
    beginning power rating is one-half or less of the other, the higher is
    set two stages above 0, the lower at its highest stage, and the lower
    goes first. The rulebook's Vegeta and Nappa rule (seed 002) starts a
    Hero facing Vegeta or Nappa at level 2 and its highest stage; the errata
    ends it (rules notes, T3).
    """
    a = table.sides[0]
    heroes = [s.seat for s in table.sides if s.alignment == "hero"]
    table.active = heroes[0] if len(heroes) == 1 else 0
    why = f"{table.side(table.active).player} plays the Hero and goes first."
    if len(heroes) != 1:
        why = f"{a.player} goes first (both play {a.alignment}es)."
        why = why.replace("heroes", "Heroes").replace("villaines", "Villains")
    if table.profile == "saiyan-2000" and len(heroes) == 1:
        hero = table.side(heroes[0])
        villain = table.side(1 - heroes[0])
        if villain.main_name in ("Vegeta", "Nappa") and len(hero.levels) >= 2:
            hero.level_index = 1
            hero.stages = table.cards[hero.main].max_stages
            hero.anger_wins_at_top = len(hero.levels) == 2 or all(
                (table.cards[u].level or 0) < 4 for u in hero.levels
            )
            why += (
                f" Facing {villain.main_name}, {hero.main_name} begins at level 2 and "
                "the highest stage (the Vegeta and Nappa rule)."
            )
    elif table.profile != "saiyan-2000":
        ratings = (_rating(table, 0), _rating(table, 1))
        if ratings[0] is not None and ratings[1] is not None:
            low = 0 if ratings[0] <= ratings[1] else 1
            high = 1 - low
            low_rating, high_rating = ratings[low], ratings[high]
            assert low_rating is not None and high_rating is not None
            if low_rating * 2 <= high_rating:
                table.side(high).stages = min(2, table.cards[table.side(high).main].max_stages)
                table.side(low).stages = table.cards[table.side(low).main].max_stages
                table.active = low
                why = (
                    f"Your Level is Too High!: {table.side(low).main_name} begins at "
                    f"{low_rating}, half or less of {table.side(high).main_name}'s "
                    f"{high_rating}; {table.side(low).player} goes first at the highest "
                    f"stage, {table.side(high).main_name} two stages above 0."
                )
    for side in table.sides:
        table.log.append(
            Entry(
                "setup",
                f"{side.player} plays {side.main_name} ({side.alignment}), level "
                f"{table.cards[side.main].level or 1}, {side.stages} stages above 0, anger 0"
                + (f", {side.tokui_waza} Tokui-Waza" if side.tokui_waza else "")
                + f"; Life Deck {len(side.life_deck)} cards.",
                side.seat,
            )
        )
    table.log.append(Entry("setup", why, table.active))
    if table.attack_table is not None:
        name = f" ({table.attack_table.title})" if table.attack_table.title else ""
        table.log.append(
            Entry(
                "setup",
                f"The table reads the Physical Attack Table{name} for physical attacks when "
                "both personalities' power ladders are known (rules notes, T1).",
            )
        )
