"""The three generations of the rules, as named profiles (``--rules``).

- ``errata-2001`` (the default): the errata and rulings of 7 June 2001 on top
  of the Saiyan Saga rulebook.
- ``saiyan-2000``: the Saiyan Saga rulebook's pages alone.
- ``digest``: the rules digest of a later edition; where it is silent, the
  errata of 2001 (and under it the rulebook) still stand.

A profile holds the numbers and the reference lists its rules read; which
rules it has, and the source of each, is ``dbdeck.games.ccg.rules``. Every choice
made here where the sources disagree is a note in ``docs/ccg/rules-notes.md``.

Decisions: rules note R2, rules note R5, rules note R9 (docs/ccg/rules-notes.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final, Literal, get_args

__all__ = ["DEFAULT_PROFILE", "PROFILES", "Profile", "ProfileName", "profile"]

ProfileName = Literal["errata-2001", "saiyan-2000", "digest"]
"""The names ``--rules`` takes."""


def _frozen(**items: str) -> Mapping[str, str]:
    return MappingProxyType(dict(items))


@dataclass(frozen=True, slots=True)
class Profile:
    """What one generation of the rules says a deck must be."""

    name: ProfileName
    """The profile's name."""
    title: str
    """What it is, in words."""
    books: str
    """The sources it reads, in words."""
    min_size: int
    """The fewest cards a deck holds."""
    max_size: int | None
    """The most cards a deck holds (``None``: no limit)."""
    max_size_tournament_only: bool
    """Whether ``max_size`` holds only in tournaments (``--tournament``)."""
    namekian_max_size: int | None
    """The most cards with a declared Namekian Tokui-Waza, when it differs."""
    applies_rulings: bool
    """Whether the rulings of 7 June 2001 on single cards apply."""
    banned: str | None
    """The reference list of banned cards."""
    restricted: str | None
    """The reference list of cards restricted to one copy."""
    battle_simulator: str | None
    """The reference list of Battle Simulator-only cards (removed)."""
    styles: tuple[str, ...]
    """What a ``[Tokui-Waza]`` may declare."""
    tokui_waza_lists: Mapping[str, str] = field(default_factory=_frozen)
    """For a style only some Main Personalities may declare: the list of them."""
    heritage_lists: Mapping[str, str] = field(default_factory=_frozen)
    """``Saiyan Heritage`` / ``Namekian Heritage``: the list of each."""
    villains_goku_gohan_is_heritage: bool = False
    """"Villains, Goku, and Gohan only" reads as "Saiyan Heritage only"."""
    rogues: str | None = None
    """The reference list of Rogues (they take their MP's alignment)."""
    separate_characters: str | None = None
    """The reference list of characters kept apart (for named cards)."""
    named_apart: Mapping[str, str] = field(default_factory=_frozen)
    """More names whose occurrences do not name a character: ``Cell Jr.`` for
    ``Cell``."""
    named_in_text: bool = False
    """From the Frieza Saga on, a name in the card's text names it."""
    saibaimen_copies: int | None = None
    """Copies of each Saibaimen card allowed (``None``: one per level)."""
    also_uses: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    """Personalities that may use other characters' "(name) only" cards:
    the digest's Mighty Mask uses Goten-only and Kid Trunks-only cards."""
    ginyu_force_members: str | None = None
    """The reference list of the Ginyu Force's members."""
    capture_allies: str = ""
    """The reference list of Allies that may capture a Dragon Ball."""
    captured_ball_powers: Literal["none", "all-or-none"] = "none"
    """What a captured Dragon Ball's powers give its captor (for the table)."""

    def max_size_for(self, declared: str | None, tournament: bool) -> int | None:
        """The most cards allowed, with this declaration, in or out of a
        tournament."""
        if declared == "Namekian" and self.namekian_max_size is not None:
            return self.namekian_max_size
        if self.max_size_tournament_only and not tournament:
            return None
        return self.max_size


_SIX = ("Red", "Blue", "Orange", "Black", "Saiyan", "Namekian")

PROFILES: Final[Mapping[ProfileName, Profile]] = MappingProxyType(
    {
        "errata-2001": Profile(
            name="errata-2001",
            title="Tournament rules of 7 June 2001",
            books="the errata and rulings of 7 June 2001 on top of the Saiyan Saga rulebook",
            min_size=50,
            max_size=75,
            max_size_tournament_only=False,
            namekian_max_size=None,
            applies_rulings=True,
            banned="banned-2001",
            restricted="restricted-2001",
            battle_simulator="battle-simulator-2001",
            styles=_SIX,
            heritage_lists=_frozen(**{"Saiyan Heritage": "saiyan-heritage-2001"}),
            villains_goku_gohan_is_heritage=True,
            named_in_text=True,
            saibaimen_copies=3,
            capture_allies="capture-allies-2001",
            captured_ball_powers="all-or-none",
        ),
        "saiyan-2000": Profile(
            name="saiyan-2000",
            title="Saiyan Saga rulebook (2000)",
            books="the Saiyan Saga rulebook's pages alone",
            min_size=50,
            max_size=75,
            max_size_tournament_only=True,
            namekian_max_size=None,
            applies_rulings=False,
            banned=None,
            restricted=None,
            battle_simulator=None,
            styles=_SIX,
            capture_allies="capture-allies-2000",
            captured_ball_powers="none",
        ),
        "digest": Profile(
            name="digest",
            title="Rules digest of a later edition",
            books="the rules digest, over the errata of 2001 where it is silent",
            min_size=50,
            max_size=75,
            max_size_tournament_only=False,
            namekian_max_size=90,
            applies_rulings=True,
            banned="banned-2001",
            restricted="restricted-2001",
            battle_simulator="battle-simulator-2001",
            styles=(*_SIX, "Freestyle"),
            tokui_waza_lists=_frozen(
                Saiyan="saiyan-tokui-waza-digest", Namekian="namekian-tokui-waza-digest"
            ),
            heritage_lists=_frozen(
                **{
                    "Saiyan Heritage": "saiyan-heritage-digest",
                    "Namekian Heritage": "namekian-heritage-digest",
                }
            ),
            villains_goku_gohan_is_heritage=True,
            rogues="rogues-digest",
            separate_characters="separate-characters-digest",
            named_apart=_frozen(Cell="Cell Jr."),
            named_in_text=True,
            saibaimen_copies=3,
            also_uses=MappingProxyType({"Mighty Mask": ("Goten", "Kid Trunks")}),
            ginyu_force_members="ginyu-force-members",
            capture_allies="capture-allies-digest",
            captured_ball_powers="all-or-none",
        ),
    }
)

DEFAULT_PROFILE: Final[ProfileName] = "errata-2001"
"""The profile used unless ``--rules`` names another."""

assert set(PROFILES) == set(get_args(ProfileName))


def profile(name: str) -> Profile:
    """The profile of this name; ``KeyError`` for an unknown one."""
    return PROFILES[name]  # type: ignore[index]
