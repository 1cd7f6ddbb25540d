"""Every seat sees only its own: every byte the host sends is scanned.

Whole games are played through the real host over its Unix socket, with two
seats and a spectator, each client keeping every raw line it received. The
host's truth is then replayed (the real ``Game``, from the setup and the
save's action log) to the version each message names, and every line is
searched for what that client may not see at that moment: the seed, the
random generator's state, the uid of a hidden card, another seat's hand,
the card id of a card that lies only face down. A view that came as a
change to the last one is scanned as it came and as the whole view it
made. The scanner is shown to work on deliberately leaky messages built
from the same truth.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
from hidden_cards import hidden_uids
from table_clients import SETUP, Seat, Users, play_to_the_end, start, watch_to_the_end

from dbdeck import saves
from dbdeck.games.deckbuilding import bots
from dbdeck.games.deckbuilding.cards.catalog import Catalog
from dbdeck.games.deckbuilding.cards.facts import card_words
from dbdeck.games.deckbuilding.engine.actions import (
    Action,
    Boost,
    Buy,
    Play,
    PlayEnergy,
    action_from_json,
)
from dbdeck.games.deckbuilding.engine.game import Game, Setup
from dbdeck.games.deckbuilding.engine.panels import HIDDEN, Offer
from dbdeck.games.deckbuilding.engine.view import seat_offers, seat_view
from dbdeck.games.deckbuilding.match import DeckbuildingRules
from dbdeck.net.protocol import EventsMessage, RefusalMessage, ViewMessage
from dbdeck.net.server import UNSEEN, TableServer
from dbdeck.saves import Session

GAMES = [("freezer", 73915624), ("raditz", 48261937), ("vegeta-nappa", 62840193)]
"""The Villain and a distinctive seed of each game played (no view holds
these digits by chance: the scan would say so)."""

UID_KEYS = frozenset({"uid", "card", "on", "cards"})
"""Keys whose integer values are card uids (a face-up card, an offer)."""

WORD_KEYS = frozenset({"kind", "market", "type", "pay_with"})
"""Keys whose values are the protocol's own words (``energy`` is a market and
a currency, ``block`` a decision kind, besides being card ids)."""

HOLDER = re.compile(r"^(?:a|m|market):(\d+)$")
"""A holder key naming a card by uid (an Ally, a Minion, a market card)."""

NUMBER = re.compile(rb"\d+")


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat tokens and the table list in the test's own folders."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("DBDECK_TABLES", str(tmp_path / "tables"))


def _leaves(node: Any, key: str = "") -> Iterator[tuple[str, Any]]:
    """Every scalar of decoded JSON with the key it sits under (a list's
    items under the list's key)."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaves(v, k)
    elif isinstance(node, list):
        for v in node:
            yield from _leaves(v, key)
    else:
        yield key, node


class Truth:
    """The host's game replayed, version by version, and what each client
    may not see at each version."""

    def __init__(self, catalog: Catalog, setup: Setup, actions: list[dict[str, Any]]) -> None:
        self.catalog = catalog
        self.seed = str(setup.seed).encode()
        game = Game.new(catalog, setup)
        self.games = [game.clone()]
        for data in actions:
            game.apply(action_from_json(data))
            self.games.append(game.clone())
        # Any number of the generator's state at any moment of the game (a
        # superset of "at that version"); seven digits or more, so that small
        # numbers of the view (health, counts) cannot match by chance.
        self.rng_numbers = {
            str(n).encode() for g in self.games for n in g.rng.getstate()[1] if len(str(n)) >= 7
        }
        self.card_ids = frozenset(catalog.cards)
        self.checked: Counter[str] = Counter()
        """How many uids and card ids the scans looked at."""
        self._cache: dict[tuple[int, int | None], tuple[set[int], set[str], set[str]]] = {}

    def secrets(self, version: int, seat: int | None) -> tuple[set[int], set[str], set[str]]:
        """At ``version``, for ``seat``: the uids it may not see, the card
        ids it may see, and the Characters whose hands are its own."""
        cached = self._cache.get((version, seat))
        if cached is not None:
            return cached
        game = self.games[version]
        s = game.state
        hidden = hidden_uids(game, seat)
        seen = {cid for uid, cid in enumerate(s.card_ids) if uid not in hidden}
        board = game.villain_card()
        seen |= {ch.id for ch in s.characters} | {s.villain_id, *board.enemies}
        seen |= set(s.villain.side_decks) | ({s.location} if s.location else set())
        own = {ch.id for ch in s.characters if ch.seat == seat}
        self._cache[version, seat] = hidden, seen, own
        return hidden, seen, own

    def scan(self, line: bytes, seat: int | None, version: int) -> tuple[list[str], int]:
        """What ``line`` holds that ``seat`` may not see at ``version``, one
        entry per hit (a kind, then the detail); and the message's version
        (``version`` for a message that names none)."""
        hits: list[str] = []
        if self.seed in line:
            hits.append(f"seed: {self.seed.decode()}")
        hits += [f"rng: {n.decode()}" for n in NUMBER.findall(line) if n in self.rng_numbers]
        data = json.loads(line)
        version = data.get("version", version) if isinstance(data, dict) else version
        hidden, seen, own = self.secrets(version, seat)
        view = data.get("view") if data.get("type") == "view" else None
        if isinstance(view, dict):
            hands = {h.get("character") for h in view.get("hands", [])}
            hits += [f"other hand: {c}" for c in sorted(hands - own, key=str)]
        for key, value in _leaves(data):
            if key == "rng":
                hits.append("rng: key")
            if isinstance(value, bool):
                continue
            if isinstance(value, int):
                if key in UID_KEYS and value != HIDDEN:
                    self.checked["uid"] += 1
                    if value in hidden:
                        hits.append(f"hidden uid: {value} under {key!r}")
            elif isinstance(value, str):
                holder = HOLDER.match(value)
                if holder is not None:
                    self.checked["uid"] += 1
                    if int(holder.group(1)) in hidden:
                        hits.append(f"hidden uid: {value}")
                card = value[2:] if value[:2] in ("c:", "e:") else value
                if key not in WORD_KEYS and card in self.card_ids:
                    self.checked["card id"] += 1
                    if card not in seen:
                        hits.append(f"hidden card id: {card!r} under {key!r}")
        return hits, version


async def _play(catalog: Catalog, folder: Path, setup: Setup) -> tuple[TableServer, list[Seat]]:
    users = Users()
    server = await start(catalog, folder, users, setup=setup)
    try:
        goku, krillin = await Seat.pair(server, users)
        watcher = await Seat.join(server, users, "carol", spectate=True)
        await play_to_the_end([goku, krillin], seed=setup.seed % 1000)
        await watch_to_the_end(watcher)
        for seat in (goku, krillin, watcher):
            await seat.settle(0.05)
    finally:
        await server.close()
    return server, [goku, krillin, watcher]


def _kinds(hits: list[str]) -> set[str]:
    return {h.split(":")[0] for h in hits}


@pytest.mark.parametrize(("villain", "seed"), GAMES)
async def test_no_byte_sent_to_a_seat_shows_what_it_may_not_see(
    catalog: Catalog, tmp_path: Path, villain: str, seed: int
) -> None:
    setup = dataclasses.replace(SETUP, villain=villain, seed=seed)
    server, clients = await _play(catalog, tmp_path, setup)
    assert server.session.match.game.over
    truth = Truth(catalog, setup, server.session.actions)

    messages = size = 0
    found: dict[str, list[str]] = {}
    kinds: Counter[str] = Counter()
    masked = 0
    for seat in clients:
        lines = seat.client.lines
        welcome = json.loads(lines[0])
        assert welcome["type"] == "welcome"
        assert set(welcome) == {"type", "protocol", "game", "table", "seat", "seat_token", "host"}
        assert b"setup" not in lines[0] and truth.seed not in lines[0]
        version = 0
        # A change to the view is scanned as it came, then as the view it made.
        for number, line in enumerate(seat.client.scanned()):
            hits, version = truth.scan(line, seat.number, version)
            messages += 1
            size += len(line)
            kinds[json.loads(line)["type"]] += 1
            masked += line.count(b'"cards":[-1')
            if hits:
                found.setdefault(f"seat {seat.number} line {number}", hits)
    print(
        f"\n{villain} seed {seed}: {server.session.match.game.state.winner} won "
        f"({server.session.match.game.state.reason}) after {len(server.session.actions)} actions, "
        f"{messages} messages "
        f"({dict(kinds)}), {size} bytes scanned, {sum(len(h) for h in found.values())} hits, "
        f"{masked} offers with a masked card; looked at {dict(truth.checked)}"
    )
    assert not found, json.dumps(found, indent=1)[:4000]
    # A seat answering a view the other seat already answered is told to
    # look again; nothing else is refused.
    assert all("changed since your view" in r for seat in clients for r in seat.refusals)
    assert kinds["view"] > 100 and kinds["events"] > 100
    # Most views came as changes, each scanned as well as the view it made.
    assert kinds["view-delta"] > 100
    assert sum(len(seat.client.rebuilt) for seat in clients) == kinds["view-delta"]

    # The scanner finds what a leaky host would send, built from the truth.
    middle = next(
        v
        for v in range(len(truth.games) // 2, -1, -1)
        if all(ch.hand for ch in truth.games[v].state.characters)
    )
    game = truth.games[middle]
    everything = json.dumps({"type": "view", "version": middle, "view": game.to_json()}).encode()
    hits, _ = truth.scan(everything, 0, middle)
    assert {"seed", "rng", "hidden card id"} <= _kinds(hits), hits[:20]
    assert "rng: key" in hits
    viewers: tuple[tuple[int | None, int], ...] = ((0, 0), (None, 1))
    for viewer, shown in viewers:
        # Seat 0 given every hand; the spectator given Krillin's view.
        view = seat_view(game, shown, every_hand=viewer == 0).to_json()
        leaky = json.dumps({"type": "view", "version": middle, "view": view}).encode()
        hits, _ = truth.scan(leaky, viewer, middle)
        assert {"other hand", "hidden uid"} <= _kinds(hits), hits[:20]
        honest = json.dumps(
            {"type": "view", "version": middle, "view": seat_view(game, viewer).to_json()}
        ).encode()
        assert truth.scan(honest, viewer, middle)[0] == []


def test_save_ids_carry_no_seed_and_never_collide(
    catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two games with the same seed started in the same second get their own
    ids; neither the id, nor the table named after it, nor its entry in the
    shared list shows the seed."""
    setup = dataclasses.replace(SETUP, seed=73915624)
    first = Session.start(DeckbuildingRules(catalog), setup, tmp_path)
    second = Session.start(DeckbuildingRules(catalog), setup, tmp_path)
    try:
        assert first.id != second.id
        for session in (first, second):
            assert "73915624" not in session.id and session.id.count("-freezer-") == 1
            server = TableServer(
                session, session.id, socket_path=tmp_path / "t.sock", announce=False
            )
            assert "73915624" not in json.dumps(asdict(server.entry()))
    finally:
        first.close()
        second.close()

    # By bad luck a fresh id is one a save already has: another is drawn.
    ids = iter([first.id, second.id, "fresh"])
    # ``Session._fresh`` looks ``new_id`` up in ``dbdeck.saves.session``.
    monkeypatch.setattr(saves.session, "new_id", lambda setup: next(ids))
    third = Session.start(DeckbuildingRules(catalog), setup, tmp_path)
    third.close()
    assert third.id == "fresh"
    assert json.loads((tmp_path / f"{first.id}.json").read_text())["actions"] == []


async def test_a_card_of_another_hand_is_offered_masked_and_bought_for_real(
    catalog: Catalog, tmp_path: Path
) -> None:
    """Krillin's co-op Duo purchase takes an Energy card from Goku's hand:
    Krillin is offered it masked, sends it back so, and the host buys with
    Goku's real card."""
    setup = dataclasses.replace(SETUP, seed=3)
    session = Session.start(DeckbuildingRules(catalog), setup, tmp_path, save_id="game")
    rng = random.Random(3)
    for _ in range(400):  # to the first masked offer of greedy play
        game = session.match.game
        actor = game.actor()
        if actor not in (None, "players"):
            seat = game.state.character(actor).seat
            if any(HIDDEN in o.action.cards for o in seat_offers(game, seat)):
                break
        session.apply(bots.greedy(game, rng))
    else:
        pytest.fail("no masked offer in 400 actions of greedy play")
    session.close()
    assert actor == "krillin"
    truth = session.match.game.legal_actions()

    users = Users()
    server = await start(catalog, tmp_path, users, resume=True, setup=setup)
    try:
        _goku, krillin = await Seat.pair(server, users)
        view = await krillin.until(ViewMessage)
        offers = [Offer.from_json(o) for o in view.legal]
        (masked,) = [o for o in offers if HIDDEN in o.action.cards]
        assert masked.action.cards == (HIDDEN,) and "with an Energy card from Goku" in masked.label
        buys = [a for a in truth if a.type == "buy"]
        (real,) = [a for a in buys if a._replace(cards=(HIDDEN,)) == masked.action]
        gift = real.cards[0]
        assert gift in server.session.match.game.state.character("goku").hand
        sent = {v for k, v in _leaves(view.model_dump()) if k in UID_KEYS and isinstance(v, int)}
        assert gift not in sent
        await krillin.act(masked.action, view.version)
        await krillin.until(EventsMessage)
        assert server.session.actions[-1] == real.to_json()
        assert gift not in server.session.match.game.state.character("goku").hand
    finally:
        await server.close()


async def test_a_seat_cannot_probe_the_cards_it_cannot_see(
    catalog: Catalog, tmp_path: Path
) -> None:
    """An action naming a card its seat cannot see gets one answer, whatever
    the card (the engine's reasons would tell a hand card from a deck card)."""
    users = Users()
    server = await start(catalog, tmp_path, users)
    try:
        goku, _krillin = await Seat.pair(server, users)
        view = await goku.until(ViewMessage)
        s = server.session.match.game.state
        before = server.session.match.game.fingerprint()
        krillin_hand = s.character("krillin").hand
        unseen = [
            krillin_hand[0],
            s.character("goku").deck[0],
            s.villain.deck[0],
            s.markets["allies"].deck[0],
            len(s.card_ids) + 1000,
        ]
        duo = s.markets["allies"].row[0]
        probes: list[Action] = [PlayEnergy(card=u) for u in unseen]
        probes += [Buy(card=duo, market="allies", cards=(u,)) for u in unseen]
        probes += [Boost(card=u, on=u) for u in unseen]
        for probe in probes:
            await goku.act(probe, view.version)
            assert (await goku.until(RefusalMessage)).reason == UNSEEN, probe
        assert server.session.match.game.fingerprint() == before and server.version == 0
        # A card it sees still gets the engine's own reason.
        visible = Play(card=s.character("goku").hand[0], cards=(duo,))
        await goku.act(visible, view.version)
        reason = (await goku.until(RefusalMessage)).reason
        assert reason != UNSEEN and reason == server.session.match.game.check(visible)
    finally:
        await server.close()


LEFT_UNDONE = re.compile(
    r"^(?:\d+ Energy unspent|\d+ Energy cards? still in hand|boost a prepared Technique"
    r"|(?P<verb>prepare|put into play|attack with) (?P<names>.+)|use .+|exhaust .+)$"
)
"""The shapes of what a view says is left undone; the names after a verb
are cards."""


def test_the_words_a_view_adds_tell_nothing_of_another_hand(catalog: Catalog) -> None:
    """A card's printed words come from its card id alone (a card the seat
    sees), and what is left undone at the end of a turn is told only to the
    seat that plays the active Character, naming only cards of its hand."""
    told = 0
    for villain, seed in GAMES:
        setup = Setup(characters=["goku", "krillin"], villain=villain, seed=seed)
        game = Game.new(catalog, setup)
        rng = random.Random(seed)
        while not game.over and game.state.actions < 300:
            for seat in (0, 1, None):
                view = seat_view(game, seat)
                for card in view.cards():
                    printed = card_words(catalog.cards[card.card])
                    assert (card.kind, card.facts, card.attack, card.physical) == printed
                if not view.left_undone:
                    continue
                own = {c.id for c in game.state.characters if c.seat == seat}
                assert view.active in own and game.actor() == view.active
                hand = view.hand(view.active)
                assert hand is not None
                names = {c.name for c in hand.cards}
                for line in view.left_undone:
                    shape = LEFT_UNDONE.match(line)
                    assert shape is not None, line
                    if shape["verb"]:
                        assert set(shape["names"].split(", ")) <= names, (line, names)
                told += 1
            game.apply(bots.greedy(game, rng))
    assert told > 30
