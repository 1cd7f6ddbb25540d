"""The questions asked before a move that wastes something: ending a turn
with something left undone, or a move the engine says would waste
something (an attack for no damage). The player's settings and the table's
may turn them off."""

from __future__ import annotations

from typing import Protocol

from dbdeck.engine.actions import Action
from dbdeck.engine.table_view import Offer, TableView
from dbdeck.tui.backend import Outcome
from dbdeck.tui.dialogs import DecisionDialog
from dbdeck.tui.play.describe import card_name
from dbdeck.tui.play.shown import Shown
from dbdeck.tui.settings import Settings, save_settings

__all__ = ["SPENDS_ENERGY", "Asking", "asks", "confirm_waste", "end_turn", "left_undone"]

SPENDS_ENERGY = ("buy", "buy-dragon-ball", "steal", "villain-action")
"""The action kinds that spend the Energy played this turn."""


class Asking(Shown, Protocol):
    """What the questions need of the screen: the settings, and a way to play."""

    @property
    def settings(self) -> Settings:
        """The player's settings."""
        ...

    def play(self, action: Action) -> Outcome:
        """Send an action."""
        ...


def asks(screen: Asking) -> bool:
    """Whether a move that wastes something is confirmed first (the
    player's setting, and the table's)."""
    return screen.settings.confirm_end_turn and screen.seating.confirm_end_turn


def left_undone(view: TableView, offers: list[Offer]) -> list[str]:
    """What the active Character could still do this turn, in words (the
    end-turn confirmation lists it). A move the engine says would waste
    something (a Technique prepared with no target when it is used, an
    attack for no damage) is not worth doing, so it is not listed."""
    worth = [o for o in offers if not o.waste]

    def of_kind(kind: str) -> list[Offer]:
        return [o for o in worth if o.action.type == kind]

    left: list[str] = []
    hand = view.hand(view.active)
    # Unspent Energy is lost at the end of the turn: worth a word only
    # when something legal now would spend it.
    if hand is not None and hand.energy and any(of_kind(k) for k in SPENDS_ENERGY):
        left.append(f"{hand.energy} Energy unspent")
    energy = of_kind("play-energy")
    if energy:
        cards = len({o.action.card for o in energy})
        left.append(f"{cards} Energy card{'s' if cards > 1 else ''} still in hand")
    for kind, verb in (("play", "put into play"), ("prepare", "prepare")):
        names = sorted(
            {card_name(view, o.action.card) for o in of_kind(kind) if o.action.card is not None}
        )
        if names:
            left.append(f"{verb} {', '.join(names)}")
    attacks = sorted({card_name(view, u) for o in of_kind("attack") for u in o.action.cards})
    if attacks:
        left.append(f"attack with {', '.join(attacks)}")
    if of_kind("boost"):
        left.append("boost a prepared Technique")
    # An ability is once a turn: unused now, it is lost for this turn.
    for offer in of_kind("ability")[:1]:
        left.append(offer.label[:1].lower() + offer.label[1:])
    return left


def end_turn(screen: Asking, action: Action) -> None:
    """End the turn; with something left undone, ask first (unless the
    player turned the question off)."""
    view = screen.view
    left = left_undone(view, screen.offers)
    if not left or not asks(screen):
        screen.play(action)
        return
    board = view.character(view.active)
    name = board.name if board is not None else "this Character"
    body = f"{name} could still: " + "; ".join(left) + "."

    def answer(choice: int | None) -> None:
        if choice == 2:
            screen.settings.confirm_end_turn = False
            save_settings(screen.settings)
            screen.notify("The end of a turn is no longer confirmed (S: settings).")
        if choice in (1, 2):
            screen.play(action)

    screen.app.push_screen(
        DecisionDialog(
            f"End {name}'s turn?",
            body,
            ["Keep playing", "End the turn", "End the turn, and stop asking"],
            cancellable=True,
        ),
        answer,
    )


def confirm_waste(screen: Asking, offer: Offer) -> None:
    """Ask before a move the engine says would waste something."""

    def answer(choice: int | None) -> None:
        if choice == 1:
            screen.play(offer.action)

    screen.app.push_screen(
        DecisionDialog(
            f"{offer.label}?",
            offer.waste,
            ["Keep playing", f"{offer.label} all the same"],
            cancellable=True,
        ),
        answer,
    )
