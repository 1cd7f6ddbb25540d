"""A card as one profile reads it: the shipped identity, what a pack adds,
and (under the profiles that apply them) the rulings of 7 June 2001.

Plain frozen dataclasses built once per card and profile: the rule checks
read attributes, never models.

Decisions: rules note R20, rules note R22, rules note R25 (docs/ccg/rules-notes.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dbdeck.games.ccg.kinds import Alignment, CardType
from dbdeck.games.ccg.library import CardRecord, Library
from dbdeck.games.ccg.profiles import Profile
from dbdeck.games.ccg.titles import fold, personality_form, style_of

__all__ = ["Facts", "facts_of", "unknown_facts"]

_LIMIT_ONE = re.compile(r"\blimit (?:1|one) (?:copy )?per deck\b", re.IGNORECASE)
_UNLESS = re.compile(
    r"\bunless your main personality is (?P<name>[^,.;]+(?:\s+Jr\.)?)\s*,\s*limit (?:1|one)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Facts:
    """What the rules read of one card under one profile."""

    key: str
    """Cards of one key are copies of one card (the same title: the errata's
    Most Recent Printing rule reads cards of a title as one card)."""
    title: str
    """The title shown: the known title, or the one written."""
    record: CardRecord | None
    """The known card, or ``None`` for an unknown title."""
    type: CardType | None
    personality: str | None
    levels: tuple[int, ...]
    """A personality card's levels (one, or a multi-level card's)."""
    high_tech: bool
    alignment: Alignment | None
    """A personality's alignment (``rogue`` only under the digest)."""
    dragon_ball: tuple[str, int] | None
    style: str | None
    limit_one: str | None
    """Why the card is limit 1 per deck (a ruling's source, or its text)."""
    limit_unless: str | None
    """The Main Personality the limit spares."""
    only: tuple[str, ...]
    """Who may use it (``Heroes``, ``Saiyan Heritage``, a name …)."""
    only_source: str | None
    """Where ``only`` comes from."""
    saga: str | None
    text: str
    battle_simulator: bool
    fusion: bool
    for_sensei_deck: bool
    sensei_capacity: int | None
    from_pack: bool
    """Whether a pack gave printed facts of this card."""

    @property
    def level(self) -> int | None:
        """The card's highest level (a personality card)."""
        return max(self.levels) if self.levels else None

    @property
    def is_personality(self) -> bool:
        """A personality card (known, or written ``NAME Level N``)."""
        return self.personality is not None


def facts_of(record: CardRecord, profile: Profile, library: Library) -> Facts:
    """The card as ``profile`` reads it."""
    card_type = record.type
    dragon_ball = record.dragon_ball
    limit_one: str | None = None
    limit_unless = record.unless_main_personality
    only = record.only
    only_source = "the card's text (a pack)" if only else None
    if record.limit_one_per_deck:
        limit_one = "its text"
    elif _LIMIT_ONE.search(record.text):
        limit_one = "its text"
        unless = _UNLESS.search(record.text)
        limit_unless = unless["name"].strip() if unless else limit_unless
    if profile.applies_rulings:
        for ruling in library.rulings_on(record.id):
            for fact in ruling.facts:
                kind = fact["fact"]
                if kind == "type":
                    card_type = fact["type"]
                elif kind == "limit-one":
                    limit_one = ruling.source
                    limit_unless = fact["unless_main_personality"]
                elif kind == "only":
                    only = tuple(dict.fromkeys((*only, *fact["who"])))
                    only_source = ruling.source
                elif kind == "not-dragon-ball":
                    dragon_ball = None
                    card_type = None if card_type == "dragon-ball" else card_type
                elif kind == "not-drill" and card_type == "drill":
                    card_type = None
    key = (
        f"personality:{fold(record.personality)}:{record.level}"
        if record.personality is not None
        else fold(record.title)
    )
    return Facts(
        key=key,
        title=record.title,
        record=record,
        type=card_type,
        personality=record.personality,
        levels=record.all_levels,
        high_tech=record.high_tech,
        alignment=_alignment(record, profile, library),
        dragon_ball=dragon_ball,
        style=style_of(record.title),
        limit_one=limit_one,
        limit_unless=limit_unless,
        only=only,
        only_source=only_source,
        saga=record.saga,
        text=record.text,
        battle_simulator=record.battle_simulator,
        fusion=record.fusion,
        for_sensei_deck=record.for_sensei_deck,
        sensei_capacity=record.sensei_capacity,
        from_pack=record.pack_file is not None,
    )


def unknown_facts(title: str, profile: Profile, library: Library) -> Facts:
    """An unknown title: counted, its type unknown, except that ``NAME
    Level N`` is a personality card of NAME (whose alignment may be known)."""
    form = personality_form(title)
    personality = form[0] if form is not None else None
    alignment = None
    if personality is not None:
        alignment = character_alignment(personality, profile, library)
    return Facts(
        key=f"personality:{fold(form[0])}:{form[1]}" if form is not None else fold(title),
        title=title,
        record=None,
        type="personality" if form is not None else None,
        personality=personality,
        levels=(form[1],) if form is not None else (),
        high_tech=False,
        alignment=alignment,
        dragon_ball=None,
        style=style_of(title),
        limit_one=None,
        limit_unless=None,
        only=(),
        only_source=None,
        saga=None,
        text="",
        battle_simulator=False,
        fusion=False,
        for_sensei_deck=False,
        sensei_capacity=None,
        from_pack=False,
    )


def character_alignment(name: str, profile: Profile, library: Library) -> Alignment | None:
    """A personality's alignment under ``profile``: a Rogue under the digest,
    else what the sources state or imply (``None``: unknown)."""
    if profile.rogues is not None and fold(name) in {
        fold(n) for n in library.reference(profile.rogues).entries
    }:
        return "rogue"
    character = library.character(name)
    alignment = character.alignment if character is not None else None
    return None if alignment == "rogue" and profile.rogues is None else alignment


def _alignment(record: CardRecord, profile: Profile, library: Library) -> Alignment | None:
    if record.personality is None:
        return None
    listed = character_alignment(record.personality, profile, library)
    if listed == "rogue" or record.alignment is None:
        return listed
    if record.alignment == "rogue":
        return "rogue" if profile.rogues is not None else None
    return record.alignment
