"""One widget per board element. Widgets render the table; they never rule.

Each widget holds what it shows in one reactive, a frozen value (its panel
of the seat's ``TableView``, built by ``dbdeck.games.deckbuilding.engine.view``, with what the
table knows of the seats), and redraws in that reactive's watcher: a widget
changes in that one way, and setting an equal value again draws nothing. (The
hand has a second one, the cards the player selected for a Combo: the
player's own choice, not the view's.) No
widget sees a ``Game`` or the card catalog: every number shown (health left
and maximum, Armor, costs, whether a card can be bought) and every printed
fact (a Technique's Damage and Time, a card's kind) was worked out by the
engine when it built the view. Only ``card``, which draws a catalog card in
full for the inspector, reads the catalog, to name the cards its text names.

Every card drawn is touchable: the focused board's cursor and a click both
post ``CardChosen`` with the card's uid and where it lies, and the screen
turns that into the card's actions.

* ``villain``: the Villain board; ``time_track``: a Time Track's four slots;
* ``market``: the six market rows and the Dragon Ball purchase;
* ``character``: a Character board; ``hand``: the hand;
* ``turn_order``: the round and the turn-order deck; ``balls``: the Dragon
  Ball tracker; ``status``: the line of the round, the turn and the balls;
* ``log``: the log; ``actions``: the list of legal actions; ``keys``: the
  key bar; ``board``: what the boards share; ``glyphs``: glyphs, colours,
  bars and tiles.
"""

from __future__ import annotations

from dbdeck.games.deckbuilding.tui.widgets.actions import ActionPanel, Entry, entries
from dbdeck.games.deckbuilding.tui.widgets.balls import DragonBallTracker, ball_summary
from dbdeck.games.deckbuilding.tui.widgets.board import (
    BUY_BALL,
    Board,
    CardChosen,
    CardFocused,
    show_fitted,
)
from dbdeck.games.deckbuilding.tui.widgets.character import CharacterBoard, CharacterShown
from dbdeck.games.deckbuilding.tui.widgets.glyphs import ball, health_bar
from dbdeck.games.deckbuilding.tui.widgets.hand import HandBoard, HandShown
from dbdeck.games.deckbuilding.tui.widgets.keys import KeyBar
from dbdeck.games.deckbuilding.tui.widgets.log import LOG_STYLES, TableLog
from dbdeck.games.deckbuilding.tui.widgets.market import BallPurchase, MarketRows, MarketsShown
from dbdeck.games.deckbuilding.tui.widgets.status import StatusBar, StatusShown
from dbdeck.games.deckbuilding.tui.widgets.turn_order import TurnOrderBoard, TurnOrderShown
from dbdeck.games.deckbuilding.tui.widgets.villain import VillainBoard

__all__ = [
    "BUY_BALL",
    "LOG_STYLES",
    "ActionPanel",
    "BallPurchase",
    "Board",
    "CardChosen",
    "CardFocused",
    "CharacterBoard",
    "CharacterShown",
    "DragonBallTracker",
    "Entry",
    "HandBoard",
    "HandShown",
    "KeyBar",
    "MarketRows",
    "MarketsShown",
    "StatusBar",
    "StatusShown",
    "TableLog",
    "TurnOrderBoard",
    "TurnOrderShown",
    "VillainBoard",
    "ball",
    "ball_summary",
    "entries",
    "health_bar",
    "show_fitted",
]
