"""What changed between two JSON values, and that change applied again.

The server sends each client the view of its seat after every action, and
most of it is what the client already has: the same log with a line or two
more, the same piles with a card more, most of the same offers.
``diff(old, new)`` is the change from the last view a client was sent to
the new one, and ``apply(old, change)`` on the client gives back exactly
``new``: the same JSON, keys in the same order, ``1``, ``1.0`` and ``true``
told apart. It knows nothing of any game and works on any JSON data, so
every game's view goes through it (``dbdeck.tabletop.game``: a view is its
``to_json()``).

A change is a JSON object of one of three forms:

- ``{"set": VALUE}``: the new value, whole.
- ``{"obj": {KEY: CHANGE, …}, "del": [KEY, …], "order": [KEY, …]}``: an
  object with some of its keys changed (a new key's change is a ``set``)
  and some taken away (``del``). A changed key keeps its place and a new
  one comes last; only when that is not the new order of the keys is it
  sent (``order``).
- ``{"list": [PIECE, …]}``: a list made of its pieces one after the other.
  A piece ``{"keep": [START, COUNT], "at": [[I, CHANGE], …]}`` is the
  ``COUNT`` items of the old list from ``START`` on, item ``I`` of them
  changed by its change; ``{"add": [VALUE, …]}`` is new items. A log that
  keeps its last sixty lines and grew by two is ``{"list": [{"keep": [2,
  58]}, {"add": [two lines]}]}``. With ``"from": N`` the pieces keep the
  items of the list at the same place (down the same keys) in the ``N``-th
  older value both sides hold instead: a seat's offers come back, after the
  other seat's move, much as they were the last time it was asked.

``del``, ``order``, ``at`` and ``from`` are left out when empty (or 0). ``apply`` checks
every part of a change and raises ``DeltaError``, saying where, for
anything that is not one of these forms or does not fit the value it
changes; it raises nothing else, and never changes the old value (the new
one shares its unchanged parts).

Privacy: a change holds keys, positions and values of ``new`` only. It is
computed from one client's own views, so it shows nothing the whole view
would not.
"""

from __future__ import annotations

import difflib
import marshal
from collections.abc import Sequence
from typing import Any

__all__ = ["DeltaError", "Texts", "apply", "diff", "same"]


class DeltaError(ValueError):
    """A change that does not apply to the value it is given; the text says
    where and why."""


Texts = dict[tuple[str, ...], list[bytes]]
"""The texts of the items of a value's lists (those reached by keys alone),
by their keys: kept with a value that is compared again and again (a view
a client holds), they are written once."""


def diff(
    old: Any,
    new: Any,
    older: Sequence[Any] = (),
    texts: tuple[Texts, Sequence[Texts]] | None = None,
) -> dict[str, Any]:
    """The change that turns JSON value ``old`` into ``new``: ``apply(old,
    diff(old, new, older), older)`` is ``new``. ``older`` are values the
    other side holds too (the views before ``old``, the latest first): a
    list of ``new`` may keep the items of the list at its place in one of
    them. Two objects that are the same give ``{"obj": {}}``.

    ``texts``: the ``Texts`` of ``new``, and those of ``old`` and of each
    of ``older``, each kept with its value (which must not change)."""
    if type(old) is dict and _same(old, new):
        return {"obj": {}}
    if _same(old, new):
        return {"set": new}
    change = _change(old, new, tuple(older), None if texts is None else (texts, ()))
    return {"obj": {}} if change is None else change


# --- finding the change -----------------------------------------------------------------------


def _text(value: Any) -> bytes:
    """A JSON value's text, for telling values apart and weighing them:
    two values have the same text exactly when they are the same JSON
    (``1``, ``1.0`` and ``True`` apart, ``-0.0`` too, keys in order), and
    its length is about that of the JSON, alike for a change and for a
    value. Marshalled (version 2: no references, no interning, so equal
    values give equal bytes), in C, twice as fast as ``repr`` and four
    times as ``json.dumps``."""
    return marshal.dumps(value, 2)


def same(a: Any, b: Any) -> bool:
    """Whether two JSON values are the same JSON (``1``, ``1.0`` and
    ``true`` apart, keys in the same order)."""
    return _same(a, b)


def _same(a: Any, b: Any) -> bool:
    """Whether two JSON values are the same JSON: ``==`` (in C) first, then
    their text, which tells ``1`` from ``1.0`` and ``True``, ``-0.0`` from
    ``0.0``, and keys in another order."""
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if kind is dict or kind is list:
        return bool(a == b) and _text(a) == _text(b)
    if kind is float:
        return bool(a == b) and repr(a) == repr(b)
    return bool(a == b)


_NONE: tuple[Any, ...] = ()

_At = tuple[tuple[Texts, Sequence[Texts]], tuple[str, ...]] | None
"""Where a value is reached by keys alone: the texts of the values compared
(``new``'s, then ``old``'s and ``older``'s) and the keys; ``None`` below a
list's item (or with no texts kept)."""


def _change(
    old: Any, new: Any, older: tuple[Any, ...] = _NONE, at: _At = None
) -> dict[str, Any] | None:
    """The change from ``old`` to ``new``, known not to be the same value;
    ``None`` when nothing needs sending after all. ``older``: the values at
    the same place in older views (``None`` where they have none)."""
    if type(old) is dict and type(new) is dict:
        return _object_change(old, new, older, at)
    if type(new) is list and (type(old) is list or older):
        return _list_change(old, new, older, at)
    return {"set": new}


def _texts(items: list[Any], kept: Sequence[Texts], index: int, at: _At) -> list[bytes]:
    """The texts of ``items``, the list at ``at`` in value ``index`` of
    ``kept`` (written there once)."""
    if at is None or index >= len(kept):
        return [_text(item) for item in items]
    path = at[1]
    found = kept[index].get(path)
    if found is None:
        found = kept[index][path] = [_text(item) for item in items]
    return found


def _below(older: tuple[Any, ...], key: str) -> tuple[Any, ...]:
    """The values at ``key`` of older objects at the same place."""
    if not older:
        return older
    found = tuple(value.get(key) if type(value) is dict else None for value in older)
    return found if any(value is not None for value in found) else _NONE


def _smaller(change: dict[str, Any], new: Any) -> dict[str, Any]:
    """``change``, or the new value whole when that is no longer. An
    object's change that keeps half its keys or more is taken as shorter
    unweighed (the changes of its keys were weighed already): weighing
    costs the text of the whole value."""
    if "set" in change:
        return change
    if "obj" in change and 2 * (len(change["obj"]) + len(change.get("del", ()))) <= len(new):
        return change
    if len(_text(change)) < len(_text(new)) + len('{"set":}'):
        return change
    return {"set": new}


def _object_change(
    old: dict[str, Any], new: dict[str, Any], older: tuple[Any, ...], at: _At
) -> dict[str, Any] | None:
    changes: dict[str, Any] = {}
    for key, value in new.items():
        if key not in old:
            changes[key] = {"set": value}
            continue
        was = old[key]
        if _same(was, value):
            continue
        change = _change(was, value, _below(older, key), at and (at[0], (*at[1], key)))
        if change is not None:
            changes[key] = _smaller(change, value)
    gone = [key for key in old if key not in new]
    node: dict[str, Any] = {"obj": changes}
    if gone:
        node["del"] = gone
    placed = [key for key in old if key in new] + [key for key in new if key not in old]
    if placed != list(new):
        node["order"] = list(new)
    if not changes and len(node) == 1:
        return None
    return node


def _patchable(a: Any, b: Any) -> bool:
    """Whether an old item may be worth changing into a new one rather than
    sending the new one whole: two objects, or two lists."""
    kind = type(a)
    return kind is type(b) and (kind is dict or kind is list)


def _list_change(old: Any, new: list[Any], older: tuple[Any, ...], at: _At) -> dict[str, Any]:
    if not new:
        return {"set": new}
    # Items are matched by their text: the same text is the same JSON.
    kept = () if at is None else (at[0][0], *at[0][1])
    now = _texts(new, kept, 0, at)
    best = None
    if type(old) is list:
        best = _match(old, _texts(old, kept, 1, at), new, now)
    source = 0
    if older and (best is None or 2 * best.kept < len(new)):
        # Mostly new here: the offers of a seat that was not asked in the
        # last view are often most of those it had the time before.
        for back, value in enumerate(older, 1):
            if type(value) is list:
                pieces = _match(value, _texts(value, kept, back + 1, at), new, now)
                if best is None or pieces.kept > best.kept:
                    source, best = back, pieces
    if best is None or not best.kept:
        return {"set": new}
    node: dict[str, Any] = {"list": best.pieces}
    if source:
        node["from"] = source
    return node


def _match(old: list[Any], was: list[bytes], new: list[Any], now: list[bytes]) -> _Pieces:
    """The pieces that make ``new`` of ``old`` (their items' texts ``now``
    and ``was``)."""
    pieces = _Pieces()
    matcher = difflib.SequenceMatcher(None, was, now, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            pieces.keep(i1, i2 - i1)
            continue
        # Items replaced side by side become changes where that is shorter;
        # the other new ones come whole, the other old ones go.
        for k in range(j2 - j1):
            i, j = i1 + k, j1 + k
            if i < i2 and _patchable(old[i], new[j]):
                change = _change(old[i], new[j])
                if change is not None and len(_text(change)) < len(now[j]):
                    pieces.keep(i, 1, change)
                    continue
            pieces.add(new[j])
    return pieces


class _Pieces:
    """The pieces of a new list; runs of old items that follow each other
    are joined into one."""

    def __init__(self) -> None:
        self.pieces: list[dict[str, Any]] = []
        self.kept = 0
        """How many old items the pieces keep."""

    def keep(self, start: int, count: int, change: dict[str, Any] | None = None) -> None:
        self.kept += count
        last = self.pieces[-1] if self.pieces else None
        if last is not None and "keep" in last and sum(last["keep"]) == start:
            offset = last["keep"][1]
            last["keep"][1] += count
        else:
            last = {"keep": [start, count]}
            offset = 0
            self.pieces.append(last)
        if change is not None:
            last.setdefault("at", []).append([offset, change])

    def add(self, value: Any) -> None:
        last = self.pieces[-1] if self.pieces else None
        if last is not None and "add" in last:
            last["add"].append(value)
        else:
            self.pieces.append({"add": [value]})


# --- applying a change ------------------------------------------------------------------------


def apply(old: Any, change: Any, older: Sequence[Any] = ()) -> Any:
    """``old`` changed by ``change`` (from ``diff`` with the same ``older``);
    ``DeltaError`` when the change is not one or does not fit ``old``.
    ``old`` and ``older`` are left as they were."""
    return _apply(old, change, "", tuple(older))


def _where(path: str) -> str:
    return f"at {path}" if path else "at the top"


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return "a string" if isinstance(value, str) else "null"


def _apply(old: Any, change: Any, path: str, older: tuple[Any, ...] = _NONE) -> Any:
    if type(change) is not dict:
        raise DeltaError(f"{_where(path)}: a change is an object, not {_kind(change)}")
    if "set" in change:
        if len(change) != 1:
            raise DeltaError(f"{_where(path)}: a 'set' change has no other key")
        return change["set"]
    if "obj" in change:
        return _apply_object(old, change, path, older)
    if "list" in change:
        return _apply_list(old, change, path, older)
    raise DeltaError(f"{_where(path)}: a change has 'set', 'obj' or 'list'")


_OBJECT_KEYS = frozenset({"obj", "del", "order"})
_LIST_KEYS = frozenset({"list", "from"})
_KEEP_KEYS = frozenset({"keep", "at"})
_ADD_KEYS = frozenset({"add"})


def _only(change: dict[str, Any], allowed: frozenset[str], path: str) -> None:
    extra = sorted(set(change) - allowed)
    if extra:
        raise DeltaError(f"{_where(path)}: unknown key {extra[0]!r} in a change")


def _keys(value: Any, name: str, path: str) -> list[str]:
    if type(value) is not list or any(type(k) is not str for k in value):
        raise DeltaError(f"{_where(path)}: '{name}' is a list of keys")
    return value


def _apply_object(
    old: Any, change: dict[str, Any], path: str, older: tuple[Any, ...]
) -> dict[str, Any]:
    _only(change, _OBJECT_KEYS, path)
    if type(old) is not dict:
        raise DeltaError(f"{_where(path)}: an object's change for {_kind(old)}")
    changes = change["obj"]
    if type(changes) is not dict:
        raise DeltaError(f"{_where(path)}: 'obj' is an object of changes")
    out = dict(old)
    for key in _keys(change.get("del", []), "del", path):
        if key not in out:
            raise DeltaError(f"{_where(path)}: no key {key!r} to take away")
        del out[key]
    for key, sub in changes.items():
        here = f"{path}.{key}"
        if key in out:
            out[key] = _apply(out[key], sub, here, _below(older, key))
        elif type(sub) is dict and "set" in sub:
            out[key] = _apply(None, sub, here)
        else:
            raise DeltaError(f"{_where(here)}: a new key's change is a 'set'")
    if "order" in change:
        order = _keys(change["order"], "order", path)
        if len(order) != len(out) or set(order) != set(out):
            raise DeltaError(f"{_where(path)}: 'order' names other keys than the object has")
        out = {key: out[key] for key in order}
    return out


def _index(value: Any) -> bool:
    return type(value) is int and value >= 0


def _apply_list(old: Any, change: dict[str, Any], path: str, older: tuple[Any, ...]) -> list[Any]:
    _only(change, _LIST_KEYS, path)
    back = change.get("from", 0)
    if type(back) is not int or not 0 <= back <= len(older):
        raise DeltaError(f"{_where(path)}: 'from' names no view this side holds")
    if back:
        old = older[back - 1]
    if type(old) is not list:
        raise DeltaError(f"{_where(path)}: a list's change for {_kind(old)}")
    pieces = change["list"]
    if type(pieces) is not list:
        raise DeltaError(f"{_where(path)}: 'list' is a list of pieces")
    out: list[Any] = []
    # Pieces keep old items in order, each once at most (``free``: the first
    # not kept yet), so a change cannot make a list longer than the old one
    # and what it adds.
    free = 0
    for piece in pieces:
        if type(piece) is not dict:
            raise DeltaError(f"{_where(path)}: a piece of a list is an object")
        if "add" in piece:
            _only(piece, _ADD_KEYS, path)
            if type(piece["add"]) is not list:
                raise DeltaError(f"{_where(path)}: 'add' is a list of values")
            out += piece["add"]
        elif "keep" in piece:
            _only(piece, _KEEP_KEYS, path)
            out += _kept(old, piece, len(out), free, path)
            free = sum(piece["keep"])
        else:
            raise DeltaError(f"{_where(path)}: a piece of a list has 'keep' or 'add'")
    return out


def _kept(old: list[Any], piece: dict[str, Any], before: int, free: int, path: str) -> list[Any]:
    """The old items a ``keep`` piece keeps (none before ``free``), changed
    where it says."""
    span = piece["keep"]
    if type(span) is not list or len(span) != 2 or not all(_index(n) for n in span):
        raise DeltaError(f"{_where(path)}: 'keep' is [start, count], two whole numbers")
    start, count = span
    if start < free:
        raise DeltaError(f"{_where(path)}: keeps item {start} again, or out of order")
    if start + count > len(old):
        raise DeltaError(
            f"{_where(path)}: keeps items {start} to {start + count - 1} of {len(old)}"
        )
    kept = old[start : start + count]
    at = piece.get("at", [])
    if type(at) is not list:
        raise DeltaError(f"{_where(path)}: 'at' is a list of [index, change]")
    last = -1
    for pair in at:
        if type(pair) is not list or len(pair) != 2 or not _index(pair[0]):
            raise DeltaError(f"{_where(path)}: 'at' is a list of [index, change]")
        i, sub = pair
        if i <= last or i >= count:
            raise DeltaError(
                f"{_where(path)}: 'at' names item {i} (of {count} kept, in order, once each)"
            )
        last = i
        kept[i] = _apply(kept[i], sub, f"{path}[{before + i}]")
    return kept
