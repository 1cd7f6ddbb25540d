"""Choosing among several offers: a target, a Time slot, a booster, the
number of Steal dice, the cards of an attack. One way left is taken without
asking where the key already said what to do; two offers that read alike
are told apart by their target."""

from __future__ import annotations

import dataclasses
from typing import Protocol

from dbdeck.games.deckbuilding.engine.actions import Action
from dbdeck.games.deckbuilding.engine.panels import Offer, TableView
from dbdeck.games.deckbuilding.tui.play.describe import card_name
from dbdeck.games.deckbuilding.tui.play.shown import Shown, of_kind

__all__ = [
    "ONE_WAY",
    "Picking",
    "choose_offer",
    "labelled",
    "pick",
    "pick_attack",
    "pick_card_then",
    "steal_prompt",
    "told_apart",
]

ONE_WAY = ("prepare", "boost")
"""The action kinds whose one remaining way is taken without asking (the
Time slot, the booster): the key already said what to do."""


class Picking(Shown, Protocol):
    """What a pick needs of the screen: to take the offer chosen, and to say
    why nothing can be chosen."""

    def take(self, offer: Offer) -> None:
        """Take an offer chosen by the player."""
        ...

    def nothing(self, kind: str, fallback: str = "") -> None:
        """Say why a key does nothing."""
        ...


def labelled(offer: Offer) -> str:
    """An offer's label, with what it would do."""
    return offer.label + (f" — {offer.preview}" if offer.preview else "")


def told_apart(view: TableView, offers: list[Offer]) -> list[Offer]:
    """The offers with labels no two alike: where two read the same
    (two Guards), each names its target with its place and health."""
    seen = [o.label for o in offers]
    return [
        dataclasses.replace(o, label=f"{o.label} ({view.target_name(o.action.target)})")
        if seen.count(o.label) > 1 and o.action.target
        else o
        for o in offers
    ]


def choose_offer(screen: Picking, title: str, prompt: str, offers: list[Offer]) -> None:
    """A dialog to choose one of ``offers``, each with what it would do."""
    labels = [labelled(o) for o in told_apart(screen.view, offers)]

    def done(index: int | None) -> None:
        if index is not None:
            screen.take(offers[index])

    from dbdeck.games.deckbuilding.tui.dialogs import DecisionDialog

    dialog = DecisionDialog(title, prompt, labels, cancellable=True)
    screen.app.push_screen(dialog, done)


def pick(
    screen: Picking,
    title: str,
    prompt: str,
    offers: list[Offer],
    labels: list[str] | None = None,
    kind: str = "",
) -> None:
    """A dialog to choose one of ``offers`` (then played)."""
    if not offers:
        screen.nothing(kind, f"No {title.lower()} is possible now.")
        return
    if len(offers) == 1 and offers[0].action.type in ONE_WAY:
        # One free Time slot, one Energy card to boost with: nothing to
        # choose, so nothing is asked; the table says what it did.
        screen.notify(f"{offers[0].label} (the only way).", title=title, timeout=4)
        screen.take(offers[0])
        return
    shown = labels or [labelled(o) for o in offers]

    def done(index: int | None) -> None:
        if index is not None:
            screen.take(offers[index])

    from dbdeck.games.deckbuilding.tui.dialogs import DecisionDialog

    screen.app.push_screen(DecisionDialog(title, prompt, shown, cancellable=True), done)


def pick_card_then(
    screen: Picking, title: str, prompt: str, kind: str, key: str, then: str
) -> None:
    """Choose a card (field ``key`` of the actions), then one of its actions."""
    offers = of_kind(screen, kind)
    cards = sorted({getattr(o.action, key) for o in offers})
    if len(cards) <= 1:
        pick(screen, title, then, offers, kind=kind)
        return

    def chosen(index: int | None) -> None:
        if index is None:
            return
        matching = [o for o in offers if getattr(o.action, key) == cards[index]]
        if len(matching) == 1:
            # The card was the choice: its one way (a Technique's one
            # free Time slot) needs no second question.
            screen.take(matching[0])
            return
        pick(screen, title, then, matching)

    names = [card_name(screen.view, uid) for uid in cards]
    from dbdeck.games.deckbuilding.tui.dialogs import DecisionDialog

    screen.app.push_screen(DecisionDialog(title, prompt, names, cancellable=True), chosen)


def steal_prompt(view: TableView, offers: list[Offer]) -> str:
    """The Steal dialog's question: how many dice, and from whom."""
    if any(o.action.target for o in offers):
        return (
            "How many Steal dice (1 Energy each), and from whom? The dice take Dragon Balls "
            "from the one you choose first, then from the others that hold some."
        )
    return (
        "How many Steal dice (1 Energy each)? The dice take Dragon Balls from "
        f"{view.villain.name} first, then the Minions that hold some."
    )


def pick_attack(screen: Picking, chosen: frozenset[int]) -> None:
    """Attack: with the cards ``chosen`` in the hand, choose the target;
    else build an attack or a Combo in a dialog."""
    attacks = of_kind(screen, "attack")
    if not attacks:
        screen.nothing("attack")
        return
    if chosen:
        wanted = tuple(sorted(chosen))
        offers = [o for o in attacks if tuple(sorted(o.action.cards)) == wanted]
        names = " + ".join(card_name(screen.view, u) for u in wanted)
        if not offers:
            screen.notify(
                f"{names} cannot attack together: only Physical Techniques form a "
                "Combo (a healing Technique is used alone).",
                title="Not possible",
                severity="warning",
            )
            return
        choose_offer(screen, f"Attack with {names}", "Which target?", offers)
        return

    def done(action: Action | None) -> None:
        offer = next((o for o in attacks if o.action == action), None)
        if offer is not None:
            screen.take(offer)

    from dbdeck.games.deckbuilding.tui.dialogs import ComboDialog

    screen.app.push_screen(ComboDialog(screen.view, attacks), done)
