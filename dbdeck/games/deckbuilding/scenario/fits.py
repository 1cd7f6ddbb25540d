"""What only the game set up can tell about a scenario's table: whether it
fits (its Characters, turn-order cards, Villain's phases), and what the
game's opening turns left on it that the table does not list."""

from __future__ import annotations

from typing import Any

from dbdeck.games.deckbuilding.cards.catalog import one_line
from dbdeck.games.deckbuilding.engine.game import Game
from dbdeck.games.deckbuilding.engine.state import joined_counters
from dbdeck.games.deckbuilding.scenario.models import Spec, TableSpec, VillainSpec, clip
from dbdeck.scenarios import ScenarioFailure

__all__ = ["check_table_fits", "table_leftovers"]


def check_table_fits(g: Game, table: TableSpec) -> None:
    """Raise ``ScenarioFailure`` (``table.PATH: …``) when the table names
    what the game set up does not have."""
    s = g.state
    ids = [ch.id for ch in s.characters]

    def fail(where: str, message: str) -> None:
        raise ScenarioFailure(one_line(f"table.{where}: {message}"))

    for character in table.characters or {}:
        if character not in ids:
            fail(
                f"characters.{clip(character)}", f"not a Character of this game ({', '.join(ids)})"
            )
    for character, spec in (table.characters or {}).items():
        for i, bonus in enumerate(spec.bonuses or []):
            if bonus.until is not None and bonus.until not in ids:
                fail(
                    f"characters.{clip(character)}.bonuses.{i}.until",
                    f"{clip(bonus.until)!r} is not a Character of this game ({', '.join(ids)})",
                )
    active = table.active
    if active is not None and active not in (*ids, "villain"):
        fail("active", f"{clip(active)!r} is neither a Character of this game nor 'villain'")
    turn_cards = sorted(set(s.turn_cards))
    for i, card in enumerate(table.turn_deck or []):
        if card not in turn_cards:
            fail(f"turn_deck.{i}", f"{clip(card)!r} is not one of {', '.join(turn_cards)}")
    if table.revealed is not None and table.revealed not in turn_cards:
        fail("revealed", f"{clip(table.revealed)!r} is not one of {', '.join(turn_cards)}")
    villain = table.villain or VillainSpec()
    phases = g.villain_card().phases
    if (villain.phase or 1) > phases:
        fail("villain.phase", f"{g.villain_card().name} has {phases} phase(s)")
    aggro = villain.aggro or ""
    named = aggro[2:]
    if aggro and not (
        (aggro.startswith("c:") and named in ids)
        or (aggro[:2] in ("a:", "m:") and named in g.catalog and not named.isdigit())
    ):
        fail("villain.aggro", f"{clip(aggro)!r} is not c:CHARACTER, a:ALLY or m:MINION")
    markets = table.markets or {}
    if table.clean and not (markets.get("allies") or (table.market_decks or {}).get("allies")):
        fail(
            "markets.allies",
            "a clean table needs Allies in the Ally Market: an empty one ends the game",
        )
    row = markets.get("allies", s.markets["allies"].row)
    damage = (table.market_damage.allies if table.market_damage else None) or []
    if len(damage) > len(row):
        fail("market_damage.allies", f"{len(damage)} values for {len(row)} Allies in the row")


def table_leftovers(g: Game, set_up: Game, table: TableSpec) -> list[str]:
    """What the game's opening turns changed on the table (``g`` against the
    same game ``set_up``, before its first turn) that the scenario's table
    does not list: it would carry over into the scenario unseen."""
    found: list[str] = []
    now, before = _leftover_fields(g), _leftover_fields(set_up)
    characters = table.characters or {}
    for path, value in now.items():
        if before.get(path) == value:
            continue
        place, *rest = path.split(".")
        listed: Spec | None
        if place == "characters":
            listed = characters.get(rest[0])
            names = {rest[1]} | _LISTED_WITH.get(rest[1], set())
        else:
            listed, names = table.villain, {rest[0]} | _LISTED_WITH.get(rest[0], set())
        if listed is not None and names & listed.model_fields_set:
            continue
        found.append(
            f"table keeps {path} = {value!r} from the opening turns: list it, or set clean = true"
        )
    return found


_LISTED_WITH = {
    "ally_damage": {"allies"},
    "damage": {"defeated"},
    "minion_damage": {"minions"},
}
"""Table keys that lay a leftover field too."""


def _leftover_fields(g: Game) -> dict[str, Any]:
    """The parts of a table that turns change and a scenario may not think
    of listing, by their table path."""
    s = g.state
    ids = s.card_ids
    fields: dict[str, Any] = {}
    for ch in s.characters:
        where = f"characters.{ch.id}"
        fields[f"{where}.damage"] = ch.damage
        fields[f"{where}.time_track"] = ["" if p is None else ids[p.uid] for p in ch.time_track]
        fields[f"{where}.bonuses"] = [b.kind for b in ch.bonuses]
        fields[f"{where}.ally_damage"] = [u.damage for u in ch.allies]
        fields[f"{where}.defeated"] = ch.defeated
    v = s.villain
    fields["villain.damage"] = v.damage
    fields["villain.enemy_damage"] = {k: n for k, n in v.enemy_damage.items() if n}
    fields["villain.minions"] = sorted(ids[u.uid] for u in v.minions)
    fields["villain.minion_damage"] = [u.damage for u in v.minions]
    fields["villain.time_track"] = [[ids[p.uid] for p in slot] for slot in v.time_track]
    fields["villain.discard"] = [ids[u] for u in v.discard]
    fields["villain.tokens"] = {
        k: n for k, n in joined_counters(v.tokens, v.enemy_tokens).items() if n
    }
    return fields
