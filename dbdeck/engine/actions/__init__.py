"""The one action language: every change to a game is an ``Action``.

The TUI, bots, scenario files, the network and saved games all speak it. An
action is a small frozen record that turns into JSON and back.

Each action type's rules live in one module of this package, named after the
type (``buy``, ``play_energy``, ``give_ball``, …): its candidates, its check
(why it is refused), what it does and its label. ``registry`` lists them in
the order the legal actions are listed, and dispatches to them. This module
imports none of them, so the action language stays a leaf anyone may import.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple, get_args

__all__ = ["ACTION_TYPES", "Action", "ActionType", "IllegalAction"]

ActionType = Literal[
    "choose",
    "play-energy",
    "buy",
    "buy-dragon-ball",
    "steal",
    "play",
    "attack",
    "prepare",
    "boost",
    "exhaust",
    "destroy",
    "ability",
    "avoid",
    "market-discard",
    "give-ball",
    "duo-invest",
    "enter-room",
    "villain-action",
    "end-turn",
]
"""The name of an action's type."""

ACTION_TYPES: tuple[str, ...] = get_args(ActionType)
"""Every action type."""


class IllegalAction(Exception):
    """The engine refused an action; ``reason`` says why. Nothing changed."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Action(NamedTuple):
    """One thing a player does.

    * ``choose``: answer the pending decision with ``option``;
    * ``play-energy``: play the Energy card ``card`` from hand for its value;
    * ``buy``: buy ``card`` from ``market``'s row (``sixth`` for the sixth pile),
      ``cards`` being Energy contributed by other Characters for a Duo, and
      ``amount`` 1 when a God equips the bought Training at once;
    * ``buy-dragon-ball``; ``steal`` with ``amount`` dice;
    * ``play``: put the Ally, Equipment or Training ``card`` into play,
      destroying ``cards`` to make room;
    * ``attack``: the Physical Techniques ``cards`` as one attack (a Combo when
      several) on ``target``;
    * ``prepare``: put the Energy Technique ``card`` on Time slot ``slot``
      (``amount`` 1 for the Namekian's paid reduction);
    * ``boost``: attach the Energy ``card`` to the prepared Technique ``on``;
    * ``exhaust``: use the exhaust effect of the card in play ``card``;
    * ``destroy``: destroy the card in play ``card`` for its destroy effect;
    * ``ability``: use the Character's special ability;
    * ``avoid``: pay the red text of the prepared Villain attack ``card`` (for
      one enemy's half of a split card, ``source`` names that enemy);
    * ``market-discard``: discard ``card`` from ``market``'s row;
    * ``give-ball``: move one Dragon Ball from holder ``source`` to ``target``;
    * ``duo-invest``: set the Energy ``card`` beside the Duo card ``on``;
    * ``enter-room``: go into the Room of Spirit and Time;
    * ``villain-action``: the action the Villain's own rules offer (calm
      Broly, cut Ozaru's tail);
    * ``end-turn``.
    """

    type: str
    card: int | None = None
    cards: tuple[int, ...] = ()
    target: str | None = None
    source: str | None = None
    market: str | None = None
    slot: int | None = None
    on: int | None = None
    amount: int | None = None
    option: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The action as JSON data, without empty fields."""
        out: dict[str, Any] = {"type": self.type}
        for name, value in zip(self._fields[1:], self[1:], strict=True):
            if value is not None and value != ():
                out[name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Action:
        """Read an action back; unknown fields or types raise ``ValueError``."""
        if not isinstance(data, dict) or data.get("type") not in ACTION_TYPES:
            raise ValueError(f"not an action: {data!r}")
        known = set(cls._fields)
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown action fields: {sorted(unknown)}")
        values = dict(data)
        if "cards" in values:
            values["cards"] = tuple(values["cards"])
        try:
            return cls(**values)
        except TypeError as exc:
            raise ValueError(f"not an action: {data!r}") from exc
