"""The words of the card schema that are plain values: the kinds of card, the
races, the markets, targets, durations and the like.

They live apart from the pydantic models so that the engine, the command line
and the plain card objects (``dbdeck.games.deckbuilding.cards.plain``) can name them without
loading pydantic; ``operations.py`` and ``models.py`` re-export them.
"""

from __future__ import annotations

from typing import Literal

__all__ = [
    "MARKET_OF_KIND",
    "AttackType",
    "CardKind",
    "CardKindFilter",
    "Cost",
    "Counter",
    "DamageKind",
    "Dice",
    "Difficulty",
    "Duration",
    "HandSource",
    "MarketKind",
    "Race",
    "Target",
]

CardKind = Literal[
    "character",
    "ally",
    "technique",
    "energy",
    "equipment",
    "training",
    "concentrated-energy",
    "capsule",
    "villain",
    "villain-card",
    "location",
]
"""Every value of a card's ``kind`` field."""

Race = Literal[
    "android",
    "alien",
    "animal",
    "demon",
    "god",
    "human",
    "konatsu",
    "monster",
    "namekian",
    "saiyan",
    "triclops",
]
"""The eleven races of the rulebook ("Races")."""

MarketKind = Literal["allies", "techniques", "energy", "equipment", "training"]
"""The five purchase markets whose costs a Character board modifies."""

DamageKind = Literal["basic", "piercing", "unavoidable"]
"""BASIC damage is reduced by Armor and Damage Reduction, PIERCING only by
Damage Reduction, UNAVOIDABLE by nothing ("Types of Damage")."""

AttackType = Literal["energy", "physical"]
"""Whether an attack or technique is an Energy or a Physical one."""

Dice = Literal["1d3", "1d6", "2d6"]
"""Dice the rulebook rolls: 1D3 for Block, 1D6 for a Power Clash, 2D6 for
Raditz's victim and Broly's table."""

Duration = Literal[
    "this-attack",
    "this-turn",
    "until-next-actions-phase",
    "until-your-next-turn",
    "while-in-play",
    "permanent",
]
"""How long a bonus lasts.

* ``this-attack``: only the attack the effect belongs to;
* ``this-turn``: until the end of the current turn;
* ``until-next-actions-phase``: until the start of the owner's next Actions
  phase (Goku SS1's transformation);
* ``until-your-next-turn``: until the start of the owner's next turn;
* ``while-in-play``: while the card that grants it stays in play (Maximum
  Health bonuses vanish with their card, "Health Bonuses");
* ``permanent``: for the rest of the game.
"""

Target = Literal[
    "self",
    "this-card",
    "chosen-enemy",
    "each-enemy",
    "villain",
    "chosen-minion",
    "each-minion",
    "chosen-character",
    "each-character",
    "other-characters",
    "chosen-ally",
    "each-ally",
    "chosen-friend",
    "active-character",
    "enemy-with-most-dragon-balls",
    "character-with-most-dragon-balls",
    "enemy-with-least-health",
    "chosen-enemy-with-dragon-balls",
    "aggro-holder",
    "attacker",
    "named-character",
    "ally-market-chosen",
    "ally-market-highest-cost",
    "ally-market-lowest-cost",
    "kidnapped-victim",
]
"""Who an operation affects, from the point of view of the card's owner.

* ``self``: the Character (or Villain) that owns the card;
* ``this-card``: the card itself (an Ally or Minion);
* ``chosen-enemy`` / ``each-enemy``: one enemy chosen by the acting side, or
  every enemy in play. For a Villain's attack "chosen" means the players
  choose, as the rulebook says when an attack names no target;
* ``villain``: the Villain itself (for Character cards);
* ``chosen-minion`` / ``each-minion``: the Villain's Minions;
* ``chosen-character`` / ``each-character`` / ``other-characters``:
  Characters only (for a Villain's card, the enemy Characters);
* ``chosen-ally`` / ``each-ally``: Allies in play only;
* ``chosen-friend``: one Character or Ally on the owner's side;
* ``active-character``: the Character whose turn it is;
* ``enemy-with-most-dragon-balls`` / ``character-with-most-dragon-balls``:
  ties are decided by the players;
* ``enemy-with-least-health``: the enemy with the least Remaining Health;
* ``chosen-enemy-with-dragon-balls``: one enemy that controls Dragon Balls,
  chosen by the acting side;
* ``aggro-holder``: whoever holds Broly's Aggro token;
* ``attacker``: whoever made the attack that triggered the effect;
* ``named-character``: the Character named in the operation's ``character``
  field, if in play;
* ``ally-market-chosen`` / ``ally-market-highest-cost`` /
  ``ally-market-lowest-cost``: a face-up card of the Ally Market;
* ``kidnapped-victim``: Raditz's Kidnapped Victim.
"""

HandSource = Literal["hand", "random-from-hand", "this-card", "in-play", "discard-pile", "deck"]
"""Where the cards of a discard or destroy operation come from."""

CardKindFilter = Literal[
    "any",
    "ally",
    "technique",
    "energy-technique",
    "physical-technique",
    "energy",
    "equipment",
    "training",
]
"""A kind of card an operation may pick."""

Counter = Literal[
    "generic",
    "despair",
    "victim",
    "power",
    "aggro",
    "coldness",
    "armor",
    "special-ability",
]
"""Kinds of token an operation may add or remove."""

Cost = int | Literal["-"]
"""A purchase cost in Energy, or ``-``: the rulebook's wildcard value, which
counts as the lowest or the highest cost at the players' choice."""

Difficulty = Literal["easy", "medium", "hard"]
"""The three difficulty levels of a Villain board."""

MARKET_OF_KIND: dict[str, str] = {
    "ally": "allies",
    "technique": "techniques",
    "energy": "energy",
    "equipment": "equipment",
    "training": "training",
    "concentrated-energy": "sixth",
    "capsule": "sixth",
}
"""Which market each market card kind is sold in; ``sixth`` is the face-up
pile of Concentrated Energy and Single-Dose Capsules."""
