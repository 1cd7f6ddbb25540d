"""What the table screen talks to: a ``TableBackend``, local or remote.

The table screen and its widgets never see a ``Game``. They draw the
``TableView`` a backend gives them, list the ``Offer``s it gives them, and
send it actions. ``LocalBackend`` wraps a game on this machine (a saved
session, or a bare game in tests and demos) and decides whose eyes are on
the screen in hot-seat play; ``RemoteBackend`` (in ``tui/remote.py``) wraps
a connection to a shared table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from dbdeck.cards.catalog import Catalog
from dbdeck.engine.actions import Action, IllegalAction
from dbdeck.engine.events import Event
from dbdeck.engine.game import Game
from dbdeck.engine.view import LogLine, Offer, TableView, log_lines, seat_offers, seat_view, unmask
from dbdeck.saves import Session

__all__ = ["Handoff", "LocalBackend", "Outcome", "Seating", "TableBackend"]


@dataclass
class Seating:
    """Who plays which Character, and the table's hot-seat settings."""

    players: dict[str, str] = field(default_factory=dict)
    """Player name by Character id."""
    hide_hands: bool = False
    """Hot-seat: hide every hand between turns, and show a hand-off screen
    before each turn (or decision) of another player."""
    pace: float = 0.4
    """Seconds between the steps of the Villain's turn (0: at once)."""

    def player(self, character: str) -> str:
        """The player of a Character."""
        return self.players.get(character, "Player")


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of an action sent to a backend."""

    accepted: bool
    message: str = ""
    """Why it was refused, or what went wrong."""
    error: bool = False
    """An unexpected failure (a crash report was written), not a refusal."""


@dataclass(frozen=True, slots=True)
class Handoff:
    """Hot-seat: the keyboard must pass to another player before anything
    else is shown or done."""

    seat: int
    player: str
    characters: str
    """The Characters that player runs, in words."""


class TableBackend(Protocol):
    """What a table screen needs from a game, wherever the game is."""

    catalog: Catalog
    seating: Seating
    shared: bool
    """A table of several terminals (chat, seats; no undo)."""

    def view(self) -> TableView:
        """What the screen may draw now."""

    def legal_actions(self) -> list[Offer]:
        """What the screen may offer now (empty while it may not act)."""

    def send(self, action: Action) -> Outcome:
        """Play an action (a remote backend only sends it)."""

    def undo(self) -> Outcome:
        """Take back the last action, where the rules of undo allow."""

    def events(self) -> list[LogLine]:
        """The log lines not yet drawn (each is returned once)."""

    def resume(self) -> Outcome:
        """Play the next step of a paused Villain turn."""

    def handoff(self) -> Handoff | None:
        """A hot-seat hand-off waiting for the next player, if any."""

    def take_keyboard(self) -> None:
        """The player of the pending hand-off is at the keyboard."""


class LocalBackend:
    """A game on this machine, for one keyboard.

    Whose eyes are on the screen is the *keyboard seat*. It follows the seat
    that must act. With ``hide_hands`` and several seats, hands are hidden
    whenever no seat acts (the Villain's turn, the players' decisions), and
    before another player's turn (or decision) the keyboard seat is nobody —
    a spectator's view, no actions — until that player takes the keyboard.
    """

    shared = False

    def __init__(
        self,
        source: Session | Game,
        seating: Seating | None = None,
        *,
        on_crash: Callable[[Session], None] | None = None,
    ) -> None:
        self.session = source if isinstance(source, Session) else None
        self.game = source.game if isinstance(source, Session) else source
        self.catalog = self.game.catalog
        self.seating = seating or Seating()
        self.game.step_mode = self.seating.pace > 0
        self.on_crash = on_crash
        """Told when an unexpected error made the backend reload the save."""
        self._lines: list[LogLine] = list(log_lines(self.game.events, self.game, None))
        seats = sorted({c.seat for c in self.game.state.characters})
        self._several = len(seats) > 1
        self.keyboard: int | None = seats[0] if seats else None
        """The seat whose view the screen shows (``None``: a spectator's)."""
        self._waiting: int | None = None
        self._last_player: int | None = None
        if self.seating.hide_hands and self._several:
            self.keyboard = None
        self._settle()

    # --- whose eyes are on the screen ---------------------------------------------------

    def _actor_seat(self) -> int | None:
        actor = self.game.actor()
        if actor is None or actor == "players":
            return None
        return self.game.state.character(actor).seat

    def _settle(self) -> None:
        """Move the keyboard to the seat that must act (through a hand-off
        when hands are hidden)."""
        seat = self._actor_seat()
        if not (self.seating.hide_hands and self._several):
            self._waiting = None
            if seat is not None:
                self.keyboard = seat
            return
        if seat is None:
            self.keyboard = None if self._waiting is None else self.keyboard
            return
        if seat == self.keyboard:
            return
        if seat == self._last_player and self._waiting is None:
            # The same player's eyes never left the table: no hand-off.
            self.keyboard = seat
            return
        self._waiting = seat
        self.keyboard = None

    def handoff(self) -> Handoff | None:
        """The hand-off waiting for the next player, if any."""
        if self._waiting is None:
            return None
        characters = [c for c in self.game.state.characters if c.seat == self._waiting]
        player = self.seating.player(characters[0].id) if characters else "Player"
        names = ", ".join(self.game.name("c:" + c.id) for c in characters)
        return Handoff(self._waiting, player, names)

    def take_keyboard(self) -> None:
        """The next player is at the keyboard: show their seat."""
        if self._waiting is not None:
            self.keyboard = self._waiting
            self._last_player = self._waiting
            self._waiting = None

    def set_hide_hands(self, hide: bool) -> None:
        """Turn hot-seat hiding on or off during a game."""
        self.seating.hide_hands = hide
        if hide and self._several:
            self._last_player = self.keyboard
        self._settle()

    # --- what the screen draws and offers -------------------------------------------------

    def view(self) -> TableView:
        """The keyboard seat's view."""
        return seat_view(self.game, self.keyboard)

    def _may_act(self) -> bool:
        if self._waiting is not None:
            return False
        actor = self.game.actor()
        if actor is None:
            return False
        return actor == "players" or self._actor_seat() == self.keyboard

    def legal_actions(self) -> list[Offer]:
        """The legal actions, when the keyboard seat may act."""
        if not self._may_act():
            return []
        return seat_offers(self.game, self.keyboard)

    def events(self) -> list[LogLine]:
        """The log lines not yet drawn."""
        lines, self._lines = self._lines, []
        return lines

    # --- acting -----------------------------------------------------------------------------

    def send(self, action: Action) -> Outcome:
        """Apply an action; an illegal one is refused with the engine's reason
        and changes nothing."""
        if self._waiting is not None:
            who = self.handoff()
            player = who.player if who is not None else "the next player"
            return Outcome(False, f"Pass the keyboard: {player} presses Enter first.")
        if not self._may_act():
            return Outcome(False, "Nobody at this keyboard may act now.")
        action = unmask(self.game, self.keyboard, action)
        apply = self.session.apply if self.session is not None else self.game.apply
        return self._guarded(lambda: apply(action))

    def resume(self) -> Outcome:
        """Play the next step of a paused Villain turn."""
        if not self.game.state.paused:
            return Outcome(True)
        step = self.session.resume_villain if self.session is not None else self.game.resume
        return self._guarded(step)

    def undo(self) -> Outcome:
        """Undo the last action, back to the last revealed hidden information."""
        session = self.session
        if session is None:
            return Outcome(False, "Undo needs a saved game.")
        if session.undoable() <= 0:
            return Outcome(
                False,
                f"Nothing to undo: hidden information was revealed since ({session.floor_reason})",
            )
        session.undo()
        self.game = session.game
        self._lines.append(LogLine("undo", "Undone."))
        self._settle()
        return Outcome(
            True,
            f"{session.undoable()} more action(s) can be undone; undo stops at: "
            f"{session.floor_reason}",
        )

    def _guarded(self, work: Callable[[], list[Event]]) -> Outcome:
        """Run rules work. A refused action changes nothing; an unexpected
        error never shows a traceback: a crash report is written and the game
        reloads from its save (the game as it was before the error)."""
        try:
            events = work()
        except IllegalAction as exc:
            return Outcome(False, exc.reason)
        except Exception as exc:  # the table must survive any bug in the rules
            return self._crashed(exc)
        self._lines += log_lines(events, self.game, self.keyboard)
        self._settle()
        return Outcome(True)

    def _crashed(self, exc: Exception) -> Outcome:
        session = self.session
        if session is None:
            return Outcome(False, f"Something went wrong ({exc}); the game is not saved.", True)
        try:
            where = f"Crash report: {session.crash_report(exc)}"
        except OSError as error:
            where = f"The crash report could not be written ({error})."
        session.close()
        try:
            resumed = Session.resume(session.catalog, session.folder, session.id)
        except Exception:  # keep the table open whatever happens
            session.lock()
            said = "the save could not be reloaded, so the table goes on as it was"
        else:
            self.session = resumed
            self.game = resumed.game
            self.game.step_mode = self.seating.pace > 0
            if self.on_crash is not None:
                self.on_crash(resumed)
            said = "the game was reloaded from its save, as it was before the error"
        self._settle()
        return Outcome(False, f"Something went wrong; {said}. {where}", error=True)
