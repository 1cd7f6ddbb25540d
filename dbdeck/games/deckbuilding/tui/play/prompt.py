"""The table's words on where the game stands: whose turn it is, the prompt
with the next sensible steps, the hand panel's note while no hand shows,
and why this screen may not act now."""

from __future__ import annotations

from rich.text import Text

from dbdeck.games.deckbuilding.engine.panels import Offer, TableView
from dbdeck.tui.backend import Handoff, Seating

__all__ = ["decider", "hand_note", "next_steps", "not_now", "status_line", "whose_turn"]

NEXT_STEPS = (
    ("play-energy", "play Energy (p)"),
    ("play", "put a card into play (Enter on it)"),
    ("prepare", "prepare (t)"),
    ("boost", "boost (o)"),
    ("attack", "attack (a)"),
    ("buy", "buy (b)"),
)
"""The steps the prompt suggests, in the order of a turn, with their keys."""

STEPS_SHOWN = 4
"""The most steps the prompt suggests before ending the turn."""


def whose_turn(view: TableView, seating: Seating) -> str:
    """Whose turn it is, in words (the status bar)."""
    if view.over:
        return "The game is over"
    if view.active == "villain":
        return f"{view.villain.name}'s turn"
    board = view.character(view.active)
    if board is None:
        return ""
    player = seating.seated(board.id) if board.id in seating.players else ""
    return f"{board.name}'s turn" + (f" ({player})" if player else "")


def hand_note(view: TableView, handoff: Handoff | None, shared: bool) -> str:
    """What the hand panel says while it shows no hand."""
    if handoff is not None:
        return (
            f"{handoff.player}'s turn: every hand stays hidden until "
            f"{handoff.player} takes the keyboard."
        )
    if view.seat is None and shared:
        return "You are watching: no hand is shown."
    if view.active == "villain":
        return f"{view.villain.name} is playing."
    return "Hands are hidden between turns."


def next_steps(offers: list[Offer]) -> str:
    """The next sensible steps, with their keys: ``play Energy (p), buy
    (b), attack (a), end the turn (e)``."""
    kinds = {o.action.type for o in offers}
    steps = [words for kind, words in NEXT_STEPS if kind in kinds][:STEPS_SHOWN]
    if "end-turn" in kinds:
        steps.append("end the turn (e)")
    return ", ".join(steps) if steps else "choose an action"


def decider(view: TableView, seating: Seating) -> str:
    """Who decides the pending decision, in words."""
    decision = view.decision
    assert decision is not None
    if decision.decider == "players":
        return "the players"
    return f"{seating.named(decision.decider)} — {decision.decider_name}"


def status_line(
    view: TableView,
    offers: list[Offer],
    seating: Seating,
    *,
    passing: bool,
    deciding: bool,
    bot: str = "",
) -> Text:
    """The prompt: who acts and the next sensible steps, or what the table
    waits for (``passing``: a hand-off stands in the way; ``deciding``: this
    screen may answer the pending decision; ``bot``: the Characters the bot
    is moving for now)."""
    if view.paused:
        return Text(
            f"{view.villain.name} is playing… (Space: show the rest at once)", style="italic"
        )
    if view.over:
        return Text("The game is over.", style="bold")
    if passing:
        return Text("Pass the keyboard.", style="italic")
    if bot:
        return Text(f"The bot is moving for {bot}…", style="italic")
    decision = view.decision
    if decision is not None:
        if deciding:
            return Text(decision.prompt, style="bold")
        return Text(f"Waiting for {decider(view, seating)} to decide…", style="italic")
    actor = view.actor
    if not actor:
        return Text("")
    board = view.character(actor)
    who = f"{seating.named(actor)} — {board.name if board else actor}"
    if not offers:
        return Text(f"Waiting for {who}", style="italic")
    text = Text(f"{who}: ", style="bold")
    text.append(next_steps(offers))
    return text


def not_now(view: TableView, offers: list[Offer], seating: Seating) -> str:
    """Why this screen may not act at all now, from what it shows."""
    if view.over:
        return "The game is over."
    if view.paused or view.active == "villain":
        return f"It is {view.villain.name}'s turn."
    if not offers:
        board = view.character(view.actor)
        if board is not None:
            return f"It is {seating.player(board.id)}'s turn, with {board.name}."
        return "Nobody at this screen may act now."
    if view.decision is not None:
        return f"A decision comes first: {view.decision.prompt}"
    return ""
