"""The facts a scenario's expectations name by path (``villain.damage``,
``characters.goku.hand``, ``balls.c:goku``; the list is in
``docs/scenarios.md``).

They are read from the game's whole state, not from a seat's view: a
scenario pins what no seat may see (the order of the Villain deck, the
bottom of a market deck, the box, the Grim Rule's choice), by card id
rather than by the names a view shows.
"""

from __future__ import annotations

from typing import Any

from dbdeck.games.deckbuilding.engine import rules
from dbdeck.games.deckbuilding.engine.game import Game
from dbdeck.games.deckbuilding.engine.holders import (
    VILLAIN,
    CharacterRef,
    EnemyRef,
    Holder,
    MarketAllyRef,
)
from dbdeck.games.deckbuilding.engine.state import Bonus, Unit, joined_counters
from dbdeck.games.deckbuilding.scenario.naming import holder_id

__all__ = ["board_facts", "turn_phase"]


def board_facts(g: Game) -> dict[str, Any]:
    """What a scenario's expectations look at: the whole board (hidden
    piles and their order included), with card ids instead of instance
    numbers and the numbers the rules compute (health, armor, hand size)."""
    s = g.state
    ids = s.card_ids

    def units(items: list[Unit]) -> list[str]:
        return [ids[u.uid] for u in items]

    balls: dict[str, int] = {"v": 0, "unclaimed": 0, **{f"c:{c.id}": 0 for c in s.characters}}
    for holder in s.balls:
        name = holder_id(g, holder) or "unclaimed"
        balls[name] = balls.get(name, 0) + 1
    return {
        "characters": {
            ch.id: {
                "damage": ch.damage,
                "defeated": ch.defeated,
                "max_health": rules.max_health(g, CharacterRef(ch.id)),
                "hand_size": rules.hand_size(g, ch),
                "hand": [ids[u] for u in ch.hand],
                "discard": [ids[u] for u in ch.discard],
                "deck_size": len(ch.deck),
                "allies": units(ch.allies),
                "ally_damage": [u.damage for u in ch.allies],
                "equipment": units(ch.equipment),
                "training": units(ch.training),
                "exhausted": [ids[u.uid] for u in ch.units() if u.exhausted],
                "time_track": ["" if p is None else ids[p.uid] for p in ch.time_track],
                "boosters": [
                    [] if p is None else [ids[b] for b in p.boosters] for p in ch.time_track
                ],
                "energy": ch.energy,
                "ability_tokens": ch.ability_tokens,
                "room_tokens": ch.room_tokens,
                "armor": rules.armor(g, CharacterRef(ch.id)),
                "bonuses": [_bonus(b) for b in ch.bonuses],
            }
            for ch in s.characters
        },
        "villain": {
            "damage": s.villain.damage,
            "phase": s.villain.phase,
            "arrived": g.hooks.arrived(g),
            "max_health": {k.key: rules.max_health(g, k) for k in _villain_keys(g)},
            "armor": {k.key: rules.armor(g, k) for k in _villain_keys(g)},
            "minions": units(s.villain.minions),
            "minion_damage": [u.damage for u in s.villain.minions],
            "exhausted_minions": [ids[u.uid] for u in s.villain.minions if u.exhausted],
            "time_track": [[ids[p.uid] for p in slot] for slot in s.villain.time_track],
            "time_track_owners": [[p.owner for p in slot] for slot in s.villain.time_track],
            "tokens": joined_counters(s.villain.tokens, s.villain.enemy_tokens),
            "deck_size": len(s.villain.deck),
            "enemy_damage": dict(s.villain.enemy_damage),
            "defeated_enemies": list(s.villain.defeated_enemies),
            "side_decks": {
                k: [ids[u] for u in reversed(d)] for k, d in s.villain.side_decks.items()
            },
            "deck": [ids[u] for u in reversed(s.villain.deck)],
            "discard": [ids[u] for u in s.villain.discard],
            "aggro": holder_id(g, g.hooks.aggro_holder(g)),
            "bonuses": {
                "armor": s.villain.armor_bonus,
                "damage": s.villain.damage_bonus,
                "damage_reduction": s.villain.damage_reduction_bonus,
            },
        },
        "markets": {m: [ids[u] for u in s.markets[m].row] for m in s.markets},
        "market_decks": {m: len(s.markets[m].deck) for m in s.markets},
        "market_bottom": {m: ids[d[0]] if (d := s.markets[m].deck) else "" for m in s.markets},
        "sixth": [ids[u] for u in reversed(s.sixth)],
        "market_damage": {
            "allies": [rules.damage_of(g, MarketAllyRef(u)) for u in s.markets["allies"].row]
        },
        "round": s.round,
        "turn": s.turn,
        "location": s.location or "",
        "balls": balls,
        "winner": s.winner,
        "reason": s.reason,
        "active": s.active,
        "step": s.step,
        "pending": "" if s.pending is None else s.pending.kind,
        "decider": "" if s.pending is None else s.pending.decider,
        "options": [] if s.pending is None else [o.label for o in s.pending.options],
        "grim": [] if s.pending is None else [o.label for o in s.pending.options if o.grim],
        "turn_deck": sorted(s.turn_deck + s.turn_discard),
        "turn_phase": turn_phase(g),
        "box": [ids[u] for u in s.box],
        "eliminated": [ids[u] for u in s.eliminated],
    }


def _bonus(b: Bonus) -> dict[str, Any]:
    shown: dict[str, Any] = {"kind": b.kind, "amount": b.amount, "duration": b.duration}
    if b.attack is not None:
        shown["attack"] = b.attack
    if b.until is not None:
        shown["until"] = b.until
    return shown


# Each step of a turn names the step after it before its own work is done,
# so a game stopped in a step's decision shows the next step's name.
_PHASE_BEFORE_STEP = {
    "char_start": "turn-order",
    "char_energy": "start",
    "char_main_enter": "energy",
    "char_end": "end",
    "reveal": "turn-order",
    "villain_start": "turn-order",
    "villain_energy": "villain-start",
    "villain_balls": "villain-energy",
    "villain_minions": "villain-dragon-balls",
    "villain_reveal": "villain-minions",
    "villain_ready": "villain-activation",
}


def turn_phase(g: Game) -> str:
    """The phase of the turn the game is in, in the rulebook's order:
    ``start``, ``energy``, ``market-discard``, ``dragon-balls``, ``actions``,
    ``end`` for a Character; ``villain-start``, ``villain-energy``,
    ``villain-dragon-balls``, ``villain-minions``, ``villain-activation`` for
    the Villain; ``turn-order`` between turns; ``over`` once the game ends."""
    s = g.state
    if s.winner:
        return "over"
    if s.step == "char_main":
        ch = s.character(s.active)
        if ch.acted:
            return "actions"
        return "dragon-balls" if ch.market_discarded or ch.balls_given else "market-discard"
    in_room = s.active not in ("", "villain") and s.character(s.active).room_tokens >= 0
    if s.step == "char_end" and in_room and s.pending is not None:
        return "start"  # the Room's stay-or-leave comes at the start of the turn
    return _PHASE_BEFORE_STEP.get(s.step, s.step)


def _villain_keys(g: Game) -> list[Holder]:
    """The Villain, or each of its enemies."""
    enemies = g.villain_card().enemies
    return [EnemyRef(e) for e in enemies] or [VILLAIN]
