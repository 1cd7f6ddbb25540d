"""The game's decisions at the table: the dialog that asks them, closed
again when the decision was answered elsewhere; a decision whose answer
cannot matter answered without asking."""

from __future__ import annotations

from typing import Protocol

from rich.text import Text

from dbdeck.games.deckbuilding.engine.actions import Action, Choose
from dbdeck.games.deckbuilding.engine.panels import Offer
from dbdeck.games.deckbuilding.tui.play.shown import Backend, Shown, of_kind
from dbdeck.tui.backend import Outcome
from dbdeck.tui.modal import Dialog

__all__ = ["Deciding", "Decisions"]


class Deciding(Shown, Protocol):
    """What decisions need of the screen: to answer, to redraw, to say a
    line in the log, the cards to read, and the backend's coach."""

    @property
    def backend(self) -> Backend:
        """Where the game is (its coach)."""
        ...

    def play(self, action: Action) -> Outcome:
        """Send an action."""
        ...

    def refresh_table(self) -> None:
        """Draw the backend's view again."""
        ...

    def say(self, text: Text) -> None:
        """A line of the table's own in the log."""
        ...

    def inspect_entries(self) -> list[tuple[str, str]]:
        """Every face-up card of the view, labelled by where it lies."""
        ...


class Decisions:
    """The pending decision of the view, asked once a version."""

    def __init__(self, screen: Deciding) -> None:
        self.screen = screen
        self.answered = -1
        """The view's version this screen last answered (-1: none)."""

    def offers(self) -> list[Offer]:
        """The answers this screen may give now."""
        return of_kind(self.screen, "choose")

    def open(self) -> None:
        """Open the pending decision's dialog (unless it is open, or answered
        already at this version)."""
        screen = self.screen
        view = screen.view
        decision = view.decision
        assert decision is not None
        from dbdeck.games.deckbuilding.tui.dialogs import DecisionDialog

        top = screen.app.screen
        if isinstance(top, DecisionDialog) and top.for_decision:
            return
        if self.answered == view.version:
            return  # answered already (a vote waits for the other seats)
        if decision.decider == "players":
            title = "The players decide"
        else:
            title = f"{screen.seating.player(decision.decider)} — {decision.decider_name} decides"
        labels = [
            o.label + (f" — {o.preview}" if o.preview else "") + ("  [Grim Rule]" if o.grim else "")
            for o in decision.options
        ]
        prompt = decision.prompt + (f"\n{decision.about}" if decision.about else "")
        version = view.version

        def answer(option: int | None) -> None:
            if option is None:
                return  # closed because the decision was answered elsewhere
            # Not asked again for this version while the answer travels (or a
            # vote waits for the other seats); asked again if it was refused.
            self.answered = version
            if not screen.play(Choose(option=option)).accepted:
                self.answered = -1
                screen.refresh_table()

        def coach() -> tuple[int | None, str]:
            hint = screen.backend.suggest()
            option = hint.action.option if isinstance(hint.action, Choose) else None
            return option, (f"{hint.label}. {hint.why}" if hint.label else hint.why)

        dialog = DecisionDialog(
            title,
            prompt,
            labels,
            for_decision=True,
            inspect=screen.inspect_entries(),
            card=decision.about_card,
            coach=coach,
        )
        screen.app.push_screen(dialog, answer)

    def forget_answer(self) -> None:
        """Ask the pending decision again even if this screen answered it at
        this version (the answer may not have reached the server)."""
        self.answered = -1

    def close_stale(self) -> None:
        """Close a decision dialog whose decision was answered elsewhere."""
        top = self.screen.app.screen
        if not isinstance(top, Dialog):
            return  # no dialog in front (the dialogs load once one is shown)
        from dbdeck.games.deckbuilding.tui.dialogs import DecisionDialog

        if not isinstance(top, DecisionDialog) or not top.for_decision:
            return
        if self.screen.view.decision is None or not self.offers():
            top.dismiss(None)

    def answer_moot(self) -> None:
        """A decision whose answer cannot matter is answered without asking
        (a joined table; a local one never shows such a decision)."""
        view = self.screen.view
        decision = view.decision
        assert decision is not None and decision.moot is not None
        if self.answered == view.version:
            return
        self.answered = view.version
        self.screen.say(
            Text(f"Not asked, as only one answer matters: {decision.prompt}", style="dim")
        )
        self.screen.play(Choose(option=decision.moot))
