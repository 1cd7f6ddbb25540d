"""The backends of a game on this machine: a table played at one keyboard
(``LocalBackend``) and a saved game stepped through (``ReplayBackend``).

These hold the ``Game``; the screen only ever gets the views they build.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable
from typing import Any

from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.engine.actions import Action, Choose, IllegalAction
from dbdeck.games.deckbuilding.engine.events import Event
from dbdeck.games.deckbuilding.engine.game import Game
from dbdeck.games.deckbuilding.engine.holders import CharacterRef
from dbdeck.games.deckbuilding.engine.panels import LogLine, Offer, TableView
from dbdeck.games.deckbuilding.engine.preview import moot_answer
from dbdeck.games.deckbuilding.engine.tally import Tally
from dbdeck.games.deckbuilding.engine.view import log_lines, seat_offers, seat_view, unmask
from dbdeck.games.deckbuilding.engine.words import count
from dbdeck.games.deckbuilding.match import (
    DeckbuildingMatch,
    DeckbuildingRules,
    engine_events,
    replay_games,
    tally_of,
)
from dbdeck.saves import SaveError, SaveFailed, Session
from dbdeck.tui import coach
from dbdeck.tui.backend import Handoff, OneSeatPerScreen, Outcome, Seating, Suggestion

__all__ = ["LocalBackend", "ReplayBackend"]


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
        source: Session[DeckbuildingMatch] | Game,
        seating: Seating | None = None,
        *,
        on_crash: Callable[[Session[DeckbuildingMatch]], None] | None = None,
    ) -> None:
        self.session = source if isinstance(source, Session) else None
        self.game = source.match.game if isinstance(source, Session) else source
        self.catalog = self.game.catalog
        if seating is None:
            seating = self.session.seating if self.session is not None else Seating()
        self.seating = seating
        self.game.step_mode = self.seating.pace > 0
        self.on_crash = on_crash
        """Told when an unexpected error made the backend reload the save."""
        self._tally = Tally()
        self._lines: list[LogLine] = self._story_so_far()
        seats = sorted({c.seat for c in self.game.state.characters})
        self._several = len(seats) > 1
        self.keyboard: int | None = None
        """The seat whose view the screen shows (``None``: a spectator's)."""
        self._waiting: int | None = None
        """The seat the keyboard passes to once its player presses Enter."""
        if not self._hiding():
            self.keyboard = seats[0] if seats else None
        self._answer_moot()
        self._settle()

    def _story_so_far(self) -> list[LogLine]:
        """The log of the game so far: a resumed game's is rebuilt from its
        save's replay, so a returning player reads the story."""
        session = self.session
        if session is None or not session.actions:
            self._tally.add(self.game, self.game.events)
            return list(log_lines(self.game.events, self.game, None))
        lines: list[LogLine] = []
        try:
            for _action, game, events in replay_games(self.catalog, session.data()):
                self._tally.add(game, events)
                lines += log_lines(events, game, None)
        except Exception as exc:  # a save that no longer replays still opens
            self._tally = Tally()
            return [LogLine("note", f"The log of the game so far cannot be rebuilt ({exc}).")]
        lines.append(LogLine("note", "The game goes on from here."))
        return lines

    def _recount(self) -> None:
        """Count the game again from its save (after an undo)."""
        if self.session is None:
            return
        # The counts are a comfort: a save that no longer replays keeps the old ones.
        self._tally = tally_of(self.catalog, self.session.data()) or self._tally

    def _apply(self, action: Action) -> list[Event]:
        """Apply an action to the saved session (or to the unsaved game)."""
        if self.session is None:
            return self.game.apply(action)
        return engine_events(self.session.apply(action))

    def _step(self) -> list[Event]:
        """Play the next step of a paused Villain turn."""
        if self.session is None:
            return self.game.resume()
        return engine_events(self.session.resume_villain())

    def _answer_moot(self) -> None:
        """Answer, without asking, a decision with a single possible answer or
        whose answers all leave the game the same (rules stay the engine's:
        the answer is an ordinary action, saved and replayed like any)."""
        for _ in range(20):  # a chain of moot questions ends; never loop for ever
            if self.game.state.pending is None or self.game.state.paused:
                return
            option = moot_answer(self.game)
            if option is None:
                return
            pending = self.game.state.pending
            label = pending.options[option].label
            prompt = pending.prompt
            try:
                events = self._apply(Choose(option=option))
            except (IllegalAction, SaveFailed):
                return
            if self.session is not None:
                self.game = self.session.match.game
            self._tally.add(self.game, events)
            said = f"Not asked, as only one answer matters: {prompt} {label}."
            self._lines.append(LogLine("note", said))
            self._lines += [
                line
                for line in log_lines(events, self.game, self.keyboard)
                if line.kind != "choice"
            ]

    # --- whose eyes are on the screen ---------------------------------------------------

    def _actor_seat(self) -> int | None:
        actor = self.game.actor()
        if actor is None or actor == "players":
            return None
        return self.game.state.character(actor).seat

    def _hiding(self) -> bool:
        return self.seating.hide_hands and self._several

    def _settle(self) -> None:
        """Move the keyboard to the seat that must act: the one rule of whose
        eyes are on the screen.

        Without hidden hands the keyboard simply follows that seat. With
        them, a hand (or an action or question that names one of its cards)
        shows only while the keyboard is its seat's, and the keyboard is a
        seat's only from the moment its player pressed Enter on a hand-off
        until another seat, the Villain or the whole table must act: then
        the screen shows what a spectator sees, and the next seat to act
        waits for its own hand-off, even when it had the keyboard just
        before (the others may have gathered round the screen since).
        """
        seat = self._actor_seat()
        if not self._hiding():
            self._waiting = None
            if seat is not None:
                self.keyboard = seat
            return
        if seat is not None and seat == self.keyboard:
            return
        self.keyboard = None
        self._waiting = seat

    def handoff(self) -> Handoff | None:
        """The hand-off waiting for the next player, if any."""
        if self._waiting is None:
            return None
        characters = [c for c in self.game.state.characters if c.seat == self._waiting]
        player = self.seating.player(characters[0].id) if characters else "Player"
        names = ", ".join(self.game.name(CharacterRef(c.id)) for c in characters)
        return Handoff(self._waiting, player, names)

    def take_keyboard(self) -> None:
        """The next player is at the keyboard: show their seat."""
        if self._waiting is not None:
            self.keyboard = self._waiting
            self._waiting = None

    def hide_hands(self, hide: bool) -> Outcome:
        """Turn hot-seat hiding on or off during a game; the save keeps it,
        so a resumed game is run the same way."""
        if self.session is not None:
            try:
                self.session.reseat(self.session.seating.changed(hide_hands=hide))
            except SaveFailed as exc:
                return Outcome(False, str(exc), error=True)
        self.seating.hide_hands = hide
        self._settle()
        return Outcome(True, f"Hide hands between turns: {'on' if hide else 'off'}.")

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
        return self._guarded(lambda: self._apply(action))

    def resume(self) -> Outcome:
        """Play the next step of a paused Villain turn."""
        if not self.game.state.paused:
            return Outcome(True)
        return self._guarded(self._step)

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
        try:
            session.undo()
        except SaveFailed as exc:  # nothing was undone: say so, keep the table
            return Outcome(False, str(exc), error=True)
        except Exception as exc:  # the table must survive any bug in the rules
            return self._crashed(exc)
        self.game = session.match.game
        # A question answered without asking is undone with the action before it.
        while (
            self.game.state.pending is not None
            and session.undoable() > 0
            and moot_answer(self.game) is not None
        ):
            try:
                session.undo()
            except SaveFailed as exc:
                return Outcome(False, str(exc), error=True)
            self.game = session.match.game
        self._lines.append(LogLine("undo", "Undone."))
        self._recount()
        self._answer_moot()
        self._settle()
        return Outcome(
            True,
            f"{count(session.undoable(), 'more action')} can be undone; undo stops at: "
            f"{session.floor_reason}",
        )

    def _guarded(self, work: Callable[[], list[Event]]) -> Outcome:
        """Run rules work. A refused action changes nothing; a save that
        cannot be written (a full disk) changes nothing either and says so,
        the table staying open for a retry; an unexpected error never shows
        a traceback: a crash report is written and the game reloads from its
        save (the game as it was before the error)."""
        try:
            events = work()
        except IllegalAction as exc:
            return Outcome(False, exc.reason)
        except SaveFailed as exc:
            # Not a bug, so no crash report (it would not fit on a full disk
            # anyway): the session kept the game as last saved.
            return Outcome(False, str(exc), error=True)
        except Exception as exc:  # the table must survive any bug in the rules
            return self._crashed(exc)
        if self.session is not None:
            # The session commits a new game object once it is saved.
            self.game = self.session.match.game
        self._tally.add(self.game, events)
        self._lines += log_lines(events, self.game, self.keyboard)
        self._answer_moot()
        self._settle()
        return Outcome(True)

    def tally(self) -> Tally | None:
        """The game's story in numbers, as far as this table saw it."""
        return self._tally

    def suggest(self) -> Suggestion:
        """The coach: the bot's move now, when this keyboard may act."""
        if not self._may_act():
            return Suggestion(None, "", "Nobody at this keyboard has to act now.")
        return coach.suggest(self.game)

    def _crashed(self, exc: Exception) -> Outcome:
        session = self.session
        if session is None:
            return Outcome(False, f"Something went wrong ({exc}); the game is not saved.", True)
        try:
            where = f"Crash report: {session.crash_report(exc)}"
        except OSError as error:
            where = f"The crash report could not be written ({error.strerror or error})."
        session.close()
        try:
            resumed = Session.resume(DeckbuildingRules(self.catalog), session.folder, session.id)
        except Exception:  # keep the table open whatever happens
            with contextlib.suppress(SaveError):  # then it is played unlocked
                session.lock()
            said = "the save could not be reloaded, so the table goes on as it was"
        else:
            self.session = resumed
            self.game = resumed.match.game
            self.game.step_mode = self.seating.pace > 0
            self._answer_moot()
            if self.on_crash is not None:
                self.on_crash(resumed)
            said = "the game was reloaded from its save, as it was before the error"
        self._settle()
        return Outcome(False, f"Something went wrong; {said}. {where}", error=True)


class ReplayBackend(OneSeatPerScreen):
    """The table after each turn of a saved game; nothing can be played."""

    shared = False
    hand_rule = "A replay shows every hand: it is your own record."

    def __init__(self, catalog: Catalog, data: dict[str, Any]) -> None:
        self.catalog = catalog
        self.seating = Seating(players=dict(data.get("players", {})), pace=0)
        self.save_id = str(data["id"])
        self.frames: list[tuple[TableView, tuple[LogLine, ...]]] = []
        """The table at the end of each turn, with that turn's log lines."""
        self.turns: list[int] = []
        """The turn each frame ends (turns are counted as the game counts
        them: one per turn-order card, the Villain's included)."""
        lines: list[LogLine] = []
        previous: tuple[TableView, int] | None = None
        # Played step by step (as the table plays the Villain's turn), so that
        # each turn inside one action still gets a frame of its own.
        for _action, game, events in replay_games(catalog, data, steps=True):
            if previous is not None and game.state.turn != previous[1]:
                self.frames.append((previous[0], tuple(lines)))
                self.turns.append(previous[1])
                lines = []
            lines += log_lines(events, game, None, every_hand=True)
            # A frame is a still: never a Villain's turn waiting to go on.
            still = dataclasses.replace(seat_view(game, None, every_hand=True), paused=False)
            previous = (still, game.state.turn)
        if previous is not None:
            self.frames.append((previous[0], tuple(lines)))
            self.turns.append(previous[1])
        self.last_turn = self.turns[-1] if self.turns else 0
        """The turn the game stands at (the summary's count)."""
        self.index = 0
        self._pending: list[LogLine] = list(self.frames[0][1]) if self.frames else []

    def go(self, index: int) -> None:
        """Show frame ``index`` (clamped to the record)."""
        self.index = max(0, min(len(self.frames) - 1, index))
        self._pending = list(self.frames[self.index][1])

    def view(self) -> TableView:
        """The table after the current turn."""
        return self.frames[self.index][0]

    def legal_actions(self) -> list[Offer]:
        """A replay offers nothing."""
        return []

    def send(self, action: Action) -> Outcome:
        """A replay is read-only."""
        return Outcome(False, "This is a replay: nothing can be played.")

    def undo(self) -> Outcome:
        """A replay is read-only."""
        return Outcome(False, "This is a replay: use ← and → to move through it.")

    def events(self) -> list[LogLine]:
        """The current turn's log lines, once."""
        lines, self._pending = self._pending, []
        return lines
