"""The backends of a game on this machine: a table played at one keyboard
(``LocalBackend``) and a saved game stepped through (``ReplayBackend``).

These hold the match, of any game, and know it only through the game
protocol (``dbdeck.tabletop.game``); the screen only ever gets the views
they build.
"""

from __future__ import annotations

import contextlib
import random
import secrets
from collections.abc import Callable, Sequence
from typing import Any

from dbdeck.saves import SaveError, SaveFailed, Session, replay_events, story_of
from dbdeck.tabletop.game import Advice, Event, GameRules, IllegalMove, LogLine, Match, Story
from dbdeck.tui.backend import BotTurn, Handoff, OneSeatPerScreen, Outcome, Seating

__all__ = ["LocalBackend", "ReplayBackend"]


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


BOT_THINK = 0.5
"""Seconds the bot thinks at most on one of its teammates' moves."""
BOT_MOVES = 400
"""The bot's moves at most in one call of ``LocalBackend.play_bots``."""


class LocalBackend:
    """A match on this machine, for one keyboard.

    Whose eyes are on the screen is the *keyboard seat*. It follows the seat
    that must act. With ``hide_hands`` and several seats, hands are hidden
    whenever no seat acts (the rules' own turn, the players' decisions), and
    before another player's turn (or decision) the keyboard seat is nobody —
    a spectator's view, no actions — until that player takes the keyboard.
    """

    shared = False

    def __init__(
        self,
        source: Session[Any] | Match,
        seating: Seating | None = None,
        *,
        on_crash: Callable[[Session[Any]], None] | None = None,
        story: Story | None = None,
    ) -> None:
        """``story``: the counts to keep of a match that is not saved (a
        saved one's come from its game's rules)."""
        self.session: Session[Any] | None = source if isinstance(source, Session) else None
        self.match: Match = source.match if isinstance(source, Session) else source
        self.catalog = self.match.content
        """The card content the screen's inspector reads."""
        if seating is None:
            seating = self.session.seating if self.session is not None else Seating()
        self.seating = seating
        self.match.set_stepping(self.seating.pace > 0)
        self.on_crash = on_crash
        """Told when an unexpected error made the backend reload the save."""
        self._story: Story | None = story
        self._lines: list[LogLine] = self._story_so_far()
        seats = sorted({role.seat for role in self.match.roles()})
        self._several = len(seats) > 1
        self.keyboard: int | None = None
        """The seat whose view the screen shows (``None``: a spectator's)."""
        self._waiting: int | None = None
        """The seat the keyboard passes to once its player presses Enter."""
        if not self._hiding():
            self.keyboard = seats[0] if seats else None
        # Not the game's seed: nothing the table shows may be a function of it.
        self._bot_rng = random.Random(secrets.randbits(64))
        self._bot_asked: tuple[BotTurn, Match] | None = None
        """The bot's turn last handed out, with the match it was asked of."""
        self._bot_stuck: tuple[Match, int] | None = None
        """Where the bot could not move: the keyboard moves for it there."""
        self._answer_unasked()
        self._settle()

    def _story_so_far(self) -> list[LogLine]:
        """The log of the game so far: a resumed game's is rebuilt from its
        save's replay, so a returning player reads the story."""
        session = self.session
        if session is None or not session.actions:
            if session is not None:
                self._story = session.rules.story()
            self._count_story(self.match.latest_events())
            return list(self.match.log(self.match.latest_events(), None))
        lines: list[LogLine] = []
        story = session.rules.story()
        try:
            for _action, match, events in replay_events(session.rules, session.data()):
                story.add(match, events)
                lines += match.log(events, None)
        except Exception as exc:  # a save that no longer replays still opens
            return [LogLine("note", f"The log of the game so far cannot be rebuilt ({exc}).")]
        self._story = story
        lines.append(LogLine("note", "The game goes on from here."))
        return lines

    def _recount(self) -> None:
        """Count the game again from its save (after an undo)."""
        if self.session is None:
            return
        # The counts are a comfort: a save that no longer replays keeps the old ones.
        self._story = story_of(self.session.rules, self.session.data()) or self._story

    def _apply(self, action: object) -> Sequence[Event]:
        """Apply an action to the saved session (or to the unsaved match)."""
        if self.session is None:
            return self.match.apply(action)
        return self.session.apply(action)

    def _step(self) -> Sequence[Event]:
        """Play the next step of a turn the rules play themselves."""
        if self.session is None:
            return self.match.go_on()
        return self.session.resume_villain()

    def _answer_unasked(self) -> None:
        """Answer, without asking, a decision with a single possible answer or
        whose answers all leave the game the same (rules stay the game's:
        the answer is an ordinary action, saved and replayed like any)."""
        for _ in range(20):  # a chain of moot questions ends; never loop for ever
            unasked = self.match.unasked()
            if unasked is None:
                return
            try:
                events = self._apply(unasked.action)
            except (IllegalMove, SaveFailed):
                return
            if self.session is not None:
                self.match = self.session.match
            self._count_story(events)
            said = f"Not asked, as only one answer matters: {unasked.words}."
            self._lines.append(LogLine("note", said))
            self._lines += [
                line for line in self.match.log(events, self.keyboard) if line.kind != "choice"
            ]

    def _count_story(self, events: Sequence[Event]) -> None:
        if self._story is not None:
            self._story.add(self.match, events)

    # --- whose eyes are on the screen ---------------------------------------------------

    def _plays(self, seat: int | None) -> frozenset[str]:
        """The roles a seat plays (a spectator plays none)."""
        if seat is None:
            return frozenset()
        return frozenset(role.id for role in self.match.roles() if role.seat == seat)

    def _actor_seat(self) -> int | None:
        asked = self.match.asked()
        if asked.together or not asked.roles:
            return None
        return next((r.seat for r in self.match.roles() if r.id in asked.roles), None)

    def _hiding(self) -> bool:
        return self.seating.hide_hands and self._several

    def _bot_acts(self) -> bool:
        """Whether the bot must move now (``Seating.bots``): only its
        Characters are asked, and neither the whole table nor the rules'
        own turn is."""
        bots = self.seating.bots
        if not bots or self.match.over or self.match.waiting():
            return False
        if self._bot_stuck == (self.match, self.match.version):
            return False
        asked = self.match.asked()
        return not asked.together and bool(asked.roles) and asked.roles <= bots

    def bot_turn(self) -> BotTurn | None:
        """The move the bot must make now: thought over on a copy of the
        match, so the screen may run it on a worker thread and go on
        drawing (and the bot may think as long as its budget allows)."""
        if not self._bot_acts():
            return None
        match = self.match
        snapshot = match.clone()
        rng = random.Random(self._bot_rng.getrandbits(64))

        def think() -> object:
            try:
                return snapshot.bot_move(rng, BOT_THINK)
            except Exception as exc:  # the table survives a bug: its players go on
                return exc

        who = ", ".join(match.role_name(role) for role in sorted(match.asked().roles))
        turn = BotTurn(think, match.version, who)
        self._bot_asked = (turn, match)
        return turn

    def play_bot(self, turn: BotTurn, move: object) -> Outcome:
        """Play the bot's move for ``turn``. A move thought over for a table
        that has moved on since is refused and changes nothing. A move the
        bot could not make (a bug) hands that move to the keyboard."""
        asked = self._bot_asked
        if (
            asked is None
            or asked[0] is not turn
            or asked[1] is not self.match
            or self.match.version != turn.version
            or not self._bot_acts()
        ):
            return Outcome(False, "The table moved on while the bot was thinking.")
        self._bot_asked = None
        if isinstance(move, Exception):
            return self._bot_cannot(f"The bot cannot move ({move}).")
        return self._guarded(
            lambda: self._apply(move),
            refused=lambda exc: self._bot_cannot(f"The bot cannot move: {exc.reason}"),
        )

    def _bot_cannot(self, why: str) -> Outcome:
        """The bot's move failed: say so, and let the keyboard make it."""
        self._bot_stuck = (self.match, self.match.version)
        self._lines.append(LogLine("note", f"{why} Its Character's move is the keyboard's."))
        self._settle()
        return Outcome(False, why, error=True)

    def play_bots(self) -> None:
        """Play every move the bot must make now, one after the other, on
        this thread (the screen thinks them over on a worker instead)."""
        for _ in range(BOT_MOVES):
            turn = self.bot_turn()
            if turn is None or not self.play_bot(turn, turn.think()).accepted:
                return

    def _settle(self) -> None:
        """Move the keyboard to the seat that must act: the one rule of whose
        eyes are on the screen.

        Without hidden hands the keyboard simply follows that seat. With
        them, a hand (or an action or question that names one of its cards)
        shows only while the keyboard is its seat's, and the keyboard is a
        seat's only from the moment its player pressed Enter on a hand-off
        until another seat, the rules' own turn or the whole table must act:
        then the screen shows what a spectator sees, and the next seat to
        act waits for its own hand-off, even when it had the keyboard just
        before (the others may have gathered round the screen since).
        """
        seat = self._actor_seat()
        if self._bot_acts():
            # Nobody at the keyboard acts while the bot moves; with hidden
            # hands the screen shows what a spectator sees meanwhile.
            self._waiting = None
            if self._hiding():
                self.keyboard = None
            elif seat is not None:
                self.keyboard = seat
            return
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
        roles = [r for r in self.match.roles() if r.seat == self._waiting]
        player = self.seating.player(roles[0].id) if roles else "Player"
        return Handoff(self._waiting, player, ", ".join(r.name for r in roles))

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

    def view(self) -> Any:
        """The keyboard seat's view."""
        return self.match.view(self.keyboard, self._plays(self.keyboard))

    def _may_act(self) -> bool:
        if self._waiting is not None or self._bot_acts():
            return False
        asked = self.match.asked()
        if asked.nobody:
            return False
        return asked.together or self._actor_seat() == self.keyboard

    def legal_actions(self) -> list[Any]:
        """The legal actions, when the keyboard seat may act."""
        if not self._may_act():
            return []
        return list(self.match.offers(self._plays(self.keyboard)))

    def events(self) -> list[LogLine]:
        """The log lines not yet drawn."""
        lines, self._lines = self._lines, []
        return lines

    # --- acting -----------------------------------------------------------------------------

    def send(self, action: object) -> Outcome:
        """Apply an action; an illegal one is refused with the rules' reason
        and changes nothing."""
        if self._waiting is not None:
            who = self.handoff()
            player = who.player if who is not None else "the next player"
            return Outcome(False, f"Pass the keyboard: {player} presses Enter first.")
        if self._bot_acts():
            return Outcome(False, "The bot is moving for its Character: wait for it.")
        if not self._may_act():
            return Outcome(False, "Nobody at this keyboard may act now.")
        action = self.match.unmask(self._plays(self.keyboard), action)
        return self._guarded(lambda: self._apply(action))

    def resume(self) -> Outcome:
        """Play the next step of a paused turn of the rules."""
        if not self.match.waiting():
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
        self.match = session.match
        # A question answered without asking is undone with the action before
        # it, and the bot's moves with the player's move they followed (else
        # the bot would make them again at once).
        while session.undoable() > 0 and (self.match.unasked() is not None or self._bot_acts()):
            try:
                session.undo()
            except SaveFailed as exc:
                return Outcome(False, str(exc), error=True)
            self.match = session.match
        self._lines.append(LogLine("undo", "Undone."))
        self._recount()
        self._answer_unasked()
        self._settle()
        return Outcome(
            True,
            f"{_count(session.undoable(), 'more action')} can be undone; undo stops at: "
            f"{session.floor_reason}",
        )

    def _guarded(
        self,
        work: Callable[[], Sequence[Event]],
        refused: Callable[[IllegalMove], Outcome] | None = None,
    ) -> Outcome:
        """Run rules work. A refused action changes nothing (``refused``
        says what then, by default the rules' reason); a save that cannot be
        written (a full disk) changes nothing either and says so, the table
        staying open for a retry; an unexpected error never shows a
        traceback: a crash report is written and the game reloads from its
        save (the game as it was before the error)."""
        try:
            events = work()
        except IllegalMove as exc:
            return Outcome(False, exc.reason) if refused is None else refused(exc)
        except SaveFailed as exc:
            # Not a bug, so no crash report (it would not fit on a full disk
            # anyway): the session kept the game as last saved.
            return Outcome(False, str(exc), error=True)
        except Exception as exc:  # the table must survive any bug in the rules
            return self._crashed(exc)
        if self.session is not None:
            # The session commits a new match once it is saved.
            self.match = self.session.match
        self._count_story(events)
        self._lines += self.match.log(events, self.keyboard)
        self._answer_unasked()
        self._settle()
        return Outcome(True)

    def tally(self) -> Story | None:
        """The game's story in numbers, as far as this table saw it."""
        return self._story

    def suggest(self) -> Advice:
        """The coach: the bot's move now, when this keyboard may act."""
        if not self._may_act():
            return Advice(None, "", "Nobody at this keyboard has to act now.")
        return self.match.advice()

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
            resumed = Session.resume(session.rules, session.folder, session.id)
        except Exception:  # keep the table open whatever happens
            with contextlib.suppress(SaveError):  # then it is played unlocked
                session.lock()
            said = "the save could not be reloaded, so the table goes on as it was"
        else:
            self.session = resumed
            self.match = resumed.match
            self.match.set_stepping(self.seating.pace > 0)
            self._answer_unasked()
            if self.on_crash is not None:
                self.on_crash(resumed)
            said = "the game was reloaded from its save, as it was before the error"
        self._settle()
        return Outcome(False, f"Something went wrong; {said}. {where}", error=True)


class ReplayBackend(OneSeatPerScreen):
    """The table after each turn of a saved game; nothing can be played."""

    shared = False
    hand_rule = "A replay shows every hand: it is your own record."

    def __init__(
        self, rules: GameRules[Any], data: dict[str, Any], seat: int | None = None
    ) -> None:
        """``seat``: replay what that seat saw (its own hand, its own private
        lines) instead of every hand."""
        self.seat = seat
        if seat is not None:
            self.hand_rule = f"This replay shows what seat {seat} saw: its own hand only."
        self.seating = Seating(players=dict(data.get("players", {})), pace=0)
        self.save_id = str(data["id"])
        self.frames: list[tuple[Any, tuple[LogLine, ...]]] = []
        """The table at the end of each turn, with that turn's log lines."""
        self.turns: list[int] = []
        """The turn each frame ends (turns are counted as the game counts
        them: one per turn-order card, the Villain's included)."""
        self.catalog: Any = None
        lines: list[LogLine] = []
        previous: tuple[Any, int] | None = None
        # Played step by step (as the table plays the Villain's turn), so that
        # each turn inside one action still gets a frame of its own.
        for _action, match, events in replay_events(rules, data, steps=True):
            if seat is not None and previous is None:
                seats = sorted({r.seat for r in match.roles()})
                if seat not in seats:
                    raise ValueError(
                        f"no seat {seat} at this game (its seats: "
                        f"{', '.join(str(n) for n in seats)})"
                    )
            self.catalog = match.content
            turn = match.summary().turn
            if previous is not None and turn != previous[1]:
                self.frames.append((previous[0], tuple(lines)))
                self.turns.append(previous[1])
                lines = []
            lines += match.log(events, seat)
            previous = (self._frame(match), turn)
        if previous is not None:
            self.frames.append((previous[0], tuple(lines)))
            self.turns.append(previous[1])
        self.last_turn = self.turns[-1] if self.turns else 0
        """The turn the game stands at (the summary's count)."""
        self.index = 0
        self._pending: list[LogLine] = list(self.frames[0][1]) if self.frames else []

    def _frame(self, match: Match) -> Any:
        """The table as this replay shows it: every hand, or one seat's view."""
        if self.seat is None:
            return match.frame()
        plays = frozenset(r.id for r in match.roles() if r.seat == self.seat)
        return match.view(self.seat, plays)

    def go(self, index: int) -> None:
        """Show frame ``index`` (clamped to the record)."""
        self.index = max(0, min(len(self.frames) - 1, index))
        self._pending = list(self.frames[self.index][1])

    def view(self) -> Any:
        """The table after the current turn."""
        return self.frames[self.index][0]

    def legal_actions(self) -> list[Any]:
        """A replay offers nothing."""
        return []

    def send(self, action: object) -> Outcome:
        """A replay is read-only."""
        return Outcome(False, "This is a replay: nothing can be played.")

    def undo(self) -> Outcome:
        """A replay is read-only."""
        return Outcome(False, "This is a replay: use ← and → to move through it.")

    def events(self) -> list[LogLine]:
        """The current turn's log lines, once."""
        lines, self._pending = self._pending, []
        return lines
