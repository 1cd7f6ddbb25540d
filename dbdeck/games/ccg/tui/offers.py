"""What the offers say about the table: which card an offer names, the
offers of one card or of the Main Personality, and the lines of a list.

The rules' offers are the only source of what may be done: nothing here
makes an action the offers do not hold, it only finds, groups and words
them. An offer names a card through the fields its kind declares (``card``,
``source``, ``ball``, ``discard``, ``personality``, ``recipient``, ``over``,
``keep``, an Attach's ``to``, a Fuse's ``fusion``, ``ally`` and ``partner``,
and ``cards``); ``None`` in ``personality``, ``recipient``, ``source`` or
``partner`` means the Main Personality (or its power).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from dbdeck.games.ccg.table.view import HIDDEN, CardFace, Offer, SeatPanel, TableView

__all__ = [
    "CARD_FIELDS",
    "KIND_WORDS",
    "MANUAL_GROUPS",
    "Entry",
    "card_offers",
    "entries",
    "find_card",
    "kind_of",
    "main_offers",
    "names_card",
    "now_offers",
    "of_kind",
]

CARD_FIELDS = (
    "card",
    "source",
    "ball",
    "discard",
    "personality",
    "recipient",
    "over",
    "keep",
    "to",
    "fusion",
    "ally",
    "partner",
)
"""The fields of an action that name one card by its uid (a MoveCard's
``to`` is a zone's name, never an int, so it names none). A Fuse is
gathered by its Fusion personality, its first field here."""

MANUAL_GROUPS = frozenset({"manual", "card", "counter", "correction", "corrections"})
"""The groups of offers made by hand (reached by their keys, a card's menu
and the action list, not the list of what the turn asks now)."""

KIND_WORDS = {
    "draw-three": "Draw three",
    "play-card": "Play",
    "end-non-combat": "End the Non-Combat step",
    "power-up": "Power up",
    "declare-combat": "Declare Combat",
    "skip-combat": "Skip Combat",
    "take-control": "Take control of Combat",
    "attack": "Attack",
    "use-instead": "Use instead of attacking",
    "final-physical-attack": "Final Physical Attack",
    "defend": "Defend",
    "allow-attack": "Take the attack",
    "capture": "Capture a Dragon Ball",
    "pass": "Pass",
    "discard-down": "Discard down",
    "pass-bonus": "Pass bonus",
    "end-turn": "End the turn",
    "move-card": "Move",
    "flip": "Flip",
    "mark-used": "Mark used",
    "turn-card": "Turn sideways",
    "attach": "Attach",
    "draw-cards": "Draw",
    "shuffle": "Shuffle",
    "cut": "Cut",
    "reveal": "Reveal",
    "start-search": "Search the Life Deck",
    "search-take": "Take from the search",
    "finish-search": "Finish search & shuffle",
    "counter": "Change a counter",
    "fuse": "Fuse",
    "fusion-timer": "The fusion's timer",
    "defuse": "Defuse",
    "overrule": "Overrule",
    "answer-overrule": "Answer the overrule",
}
"""Each action kind in words (the heading of a collapsed line)."""

_MAIN_NONE = {
    "power-up": "personality",
    "take-control": "personality",
    "allow-attack": "recipient",
    "attack": "source",
    "use-instead": "source",
    "defend": "source",
    "fuse": "partner",
}
"""The kinds whose field, left ``None``, means the Main Personality (or a
personality power)."""


def kind_of(offer: Offer) -> str:
    """The offer's action kind (``attack``, ``move-card`` …)."""
    return str(getattr(offer.action, "kind", ""))


def of_kind(offers: Iterable[Offer], *kinds: str) -> list[Offer]:
    """The offers of the given kinds, in order."""
    return [o for o in offers if kind_of(o) in kinds]


def names_card(action: Any, uid: int) -> bool:
    """Whether ``action`` names the card ``uid`` (a hidden card is never named)."""
    if uid == HIDDEN:
        return False
    for name in CARD_FIELDS:
        value = getattr(action, name, None)
        if isinstance(value, int) and not isinstance(value, bool) and value == uid:
            return True
    cards = getattr(action, "cards", ())
    return isinstance(cards, tuple) and uid in cards


def card_offers(offers: Iterable[Offer], uid: int) -> list[Offer]:
    """The offers that name the card ``uid``."""
    return [o for o in offers if names_card(o.action, uid)]


def main_offers(offers: Iterable[Offer]) -> list[Offer]:
    """The offers about the Main Personality: its power up, its control of
    Combat, the damage it takes, its power, and its counters."""
    out: list[Offer] = []
    for offer in offers:
        kind = kind_of(offer)
        action = offer.action
        if kind in _MAIN_NONE:
            if getattr(action, _MAIN_NONE[kind], 0) is None:
                out.append(offer)
        elif kind == "counter":
            counter = getattr(action, "counter", "")
            if counter in ("stages", "anger", "level") and getattr(action, "card", 0) is None:
                out.append(offer)
    return out


def now_offers(offers: Iterable[Offer]) -> list[Offer]:
    """The offers of the turn and of Combat (not the manual moves)."""
    return [o for o in offers if o.group not in MANUAL_GROUPS]


def _faces(seat: SeatPanel) -> Iterable[CardFace]:
    yield from seat.hand
    yield from seat.discard
    yield from seat.removed
    yield from seat.non_combat
    yield from seat.drills
    yield from seat.allies
    yield from seat.dragon_balls
    if seat.mastery is not None:
        yield seat.mastery
    if seat.sensei is not None:
        yield seat.sensei
    yield from seat.sensei_deck
    yield from seat.set_aside
    yield from seat.search
    if seat.fusion is not None:
        yield seat.fusion
    yield from seat.fused
    yield from seat.timer


def _with_beneath(faces: Iterable[CardFace]) -> Iterable[CardFace]:
    for face in faces:
        yield face
        yield from _with_beneath(face.beneath)


def find_card(view: TableView, uid: int) -> tuple[CardFace, str] | None:
    """The card ``uid`` as the view shows it, and where it lies in words
    (``Goku's hand``); ``None`` when the view does not show it."""
    if uid == HIDDEN:
        return None
    if view.location is not None:
        for face in _with_beneath([view.location]):
            if face.uid == uid:
                return face, "the Location in play"
    for seat in view.seats:
        for zone, faces in _zones(seat):
            for face in _with_beneath(faces):
                if face.uid == uid:
                    return face, f"{seat.player}'s {zone}"
    return None


def _zones(seat: SeatPanel) -> Iterable[tuple[str, Sequence[CardFace]]]:
    yield "hand", seat.hand
    yield "discard pile", seat.discard
    yield "removed cards", seat.removed
    yield "Non-Combat cards", seat.non_combat
    yield "Drills", seat.drills
    yield "Allies", seat.allies
    yield "Dragon Balls", seat.dragon_balls
    yield "Mastery", [seat.mastery] if seat.mastery is not None else []
    yield "Sensei", [seat.sensei] if seat.sensei is not None else []
    yield "Sensei Deck", seat.sensei_deck
    yield "set-aside cards", seat.set_aside
    yield "search", seat.search
    yield "Fusion personality", [seat.fusion] if seat.fusion is not None else []
    yield "fusion's components", seat.fused
    yield "fusion's timer", seat.timer


def every_card(view: TableView) -> list[CardFace]:
    """Every card the view shows (face and uid seen), each once."""
    seen: dict[int, CardFace] = {}
    faces: list[CardFace] = [view.location] if view.location is not None else []
    for seat in view.seats:
        faces += list(_faces(seat))
    for face in _with_beneath(faces):
        if face.uid != HIDDEN:
            seen.setdefault(face.uid, face)
    return list(seen.values())


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a list of offers: one offer, or several of one kind about
    one card, chosen among next (``prompt`` asks which)."""

    label: str
    group: str
    offers: tuple[Offer, ...]

    @property
    def single(self) -> bool:
        """Whether the line is one offer (taking it sends that action)."""
        return len(self.offers) == 1


def _primary(action: Any) -> int | None:
    for name in CARD_FIELDS:
        value = getattr(action, name, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def entries(offers: Sequence[Offer], view: TableView, *, collapse: bool = True) -> list[Entry]:
    """The lines of a list of offers, in order. With ``collapse``, several
    offers of one kind about one card (a card's moves to each zone, an
    attack's ways) are one line whose choices come next; offers that name
    no card are a line each."""
    if not collapse:
        return [Entry(o.label, o.group, (o,)) for o in offers]
    keyed: dict[tuple[str, int | None, str], list[Offer]] = {}
    for offer in offers:
        kind = kind_of(offer)
        key = (kind, _primary(offer.action), offer.group)
        keyed.setdefault(key, []).append(offer)
    out: list[Entry] = []
    for (kind, uid, group), grouped in keyed.items():
        if uid is None and len({o.label for o in grouped}) > 1:
            # Without a card to gather them, each way is a line of its own.
            out += [Entry(o.label, group, (o,)) for o in grouped]
            continue
        if len(grouped) == 1 or len({o.label for o in grouped}) == 1:
            out.append(Entry(grouped[0].label, group, (grouped[0],)))
            continue
        words = KIND_WORDS.get(kind, kind.replace("-", " ").capitalize())
        found = find_card(view, uid) if uid is not None else None
        about = f" {found[0].title}" if found is not None else ""
        out.append(Entry(f"{words}{about} ({len(grouped)} ways)", group, tuple(grouped)))
    return out
