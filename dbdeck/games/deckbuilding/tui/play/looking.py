"""Every face-up card of the view, labelled by where it lies (the card
picker of ``i``, and a decision's cards to read)."""

from __future__ import annotations

from dbdeck.games.deckbuilding.engine.panels import HandView, TableView

__all__ = ["face_up", "shown_hand"]


def shown_hand(view: TableView) -> HandView | None:
    """The hand the hand panel shows: the active Character's, when this
    seat may see it, else the seat's first."""
    return view.hand(view.active) or (view.hands[0] if view.hands else None)


def face_up(view: TableView) -> list[tuple[str, str]]:
    """Every face-up card of the view, labelled by where it lies."""
    entries: list[tuple[str, str]] = []
    hand = shown_hand(view)
    if hand is not None:
        entries += [(f"Hand: {c.name}", c.card) for c in hand.cards]
    for market in view.markets:
        entries += [(f"{market.title}: {m.card.name}", m.card.card) for m in market.row]
    for ch in view.characters:
        entries.append((f"Character: {ch.name}", ch.id))
        for unit in (*ch.allies, *ch.equipment, *ch.training):
            entries.append((f"{ch.name}: {unit.card.name}", unit.card.card))
        for prepared in ch.time_track:
            if prepared is not None:
                entries.append((f"{ch.name} Time Track: {prepared.card.name}", prepared.card.card))
    villain = view.villain
    entries.append((f"Villain: {villain.name}", villain.card))
    entries += [(f"Minion: {m.card.name}", m.card.card) for m in villain.minions]
    for slot in villain.time_track:
        entries += [(f"Villain Time Track: {c.name}", c.card) for c in slot]
    if view.location:
        entries.append((f"Location: {villain.location}", view.location))
    return entries
