"""Plain English for the log and the engine's messages: counts with their
noun, verbs that agree with plural names ("Androids 19 and 20 take"), and
sentences that end once ("Freezer Arrives!!", not "Freezer Arrives!!.")."""

from __future__ import annotations

__all__ = ["agree", "cannot_buy_there", "count", "sentence"]

_IRREGULAR = {"die": "dice", "Energy": "Energy"}


def count(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless ``n`` is 1: ``1 card``, ``5 cards``,
    ``2 Dragon Balls``, ``3 dice``."""
    if n == 1:
        return f"{n} {noun}"
    head, _, last = noun.rpartition(" ")
    plural = _IRREGULAR.get(last, last + "s")
    return f"{n} {head + ' ' if head else ''}{plural}"


def cannot_buy_there(name: str, market: str) -> str:
    """``Vegeta SS1 cannot buy Allies``: a Character whose board's cost
    modifier for a market is "-" ("the Character cannot buy that type of
    Market card")."""
    return f"{name} cannot buy {market.capitalize()}"


def is_plural(name: str) -> bool:
    """Whether a name in the game names several ("Vegeta and Nappa",
    "Androids 19 and 20", "The Characters")."""
    return " and " in name or name.startswith("The ")


def agree(name: str, singular: str, plural: str) -> str:
    """The name and the verb form that agrees with it."""
    return f"{name} {plural if is_plural(name) else singular}"


def sentence(text: str) -> str:
    """The text ended with a full stop, unless it already ends a sentence."""
    return text if text.endswith((".", "!", "?")) else text + "."
