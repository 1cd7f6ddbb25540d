"""Reading a scenario file, an untrusted TOML file, within bounds.

A scenario file is read only if it is a regular file of at most
``MAX_SCENARIO_BYTES`` (through the guards of ``dbdeck.packs.reading``), its
nesting and numbers are bounded before ``tomllib`` parses it, and the parsed
data is bounded again (dotted keys nest without brackets). Anything else is
a ``ScenarioFailure`` saying ``cannot read: …``. What the data means is each
game's runner's to check.
"""

from __future__ import annotations

import re
import tomllib
from array import array
from itertools import accumulate
from pathlib import Path
from typing import Any

from dbdeck.packs.reading import InputRefused, decode_utf8, one_line, read_regular_file
from dbdeck.scenarios.outcome import ScenarioFailure

__all__ = ["MAX_DEPTH", "MAX_SCENARIO_BYTES", "MAX_STEPS", "read_scenario"]

MAX_SCENARIO_BYTES = 1024 * 1024
"""The largest scenario file read (the biggest in ``tests/scenarios`` is 2.5 KB)."""
MAX_DEPTH = 32
"""Nesting allowed in a scenario (the real ones nest 5 deep): far below what
``tomllib``'s recursive parser or a ``repr`` could overflow."""
_MAX_DIGITS = 100
"""Digits allowed in one number, checked before parsing: ``tomllib`` would
raise on a decimal integer of more than 4300."""
_MAX_VALUES = 50_000
"""Values allowed in one scenario (the real ones have at most ~120): bounds
the validation errors and the work a file can ask for."""
MAX_STEPS = 1000
"""Steps allowed in one scenario (the real ones have at most 10); each
game's runner refuses more."""


def read_scenario(path: Path) -> dict[str, Any]:
    """Read and parse a scenario file within the limits; raises
    ``ScenarioFailure`` (``cannot read: …``) for anything else."""
    try:
        text = decode_utf8(read_regular_file(path, MAX_SCENARIO_BYTES))
        refused = _toml_limits_problem(text)
        if refused is not None:
            raise InputRefused(refused)
        data = tomllib.loads(text)
    except InputRefused as exc:
        reason = str(exc).removeprefix("cannot read: ")
        raise ScenarioFailure(f"cannot read: {reason}") from None
    except ValueError as exc:  # TOMLDecodeError, or an int() tomllib did not wrap
        raise ScenarioFailure(f"cannot read: {one_line(str(exc))}") from None
    except RecursionError:
        # _toml_limits_problem stops every nesting tomllib would recurse
        # into; this stays so that a misjudged file is still no crash.
        raise ScenarioFailure(f"cannot read: nested more than {MAX_DEPTH} deep") from None
    refused = _data_limits_problem(data)
    if refused is not None:
        raise ScenarioFailure(f"cannot read: {refused}")
    return data


# TOML strings and comments are skipped when counting brackets and digits. An
# unterminated string runs to the end of its line (of the text for a
# multi-line one), so a match starts at every opening quote: linear time.
_TOML_SKIPPED = re.compile(
    r'"""(?:[^"\\]|\\.?|"{1,2}(?!"))*+(?:"{3,5}|\Z)'
    r"|'''(?:[^']|'{1,2}(?!'))*+(?:'{3,5}|\Z)"
    r'|"(?:[^"\\\n]|\\.?)*+(?:"|$)'
    r"|'[^'\n]*+(?:'|$)"
    r"|#[^\n]*",
    re.MULTILINE,
)
_LONG_NUMBER = re.compile(rf"[0-9]{{{_MAX_DIGITS + 1},}}")
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_DEPTH_STEPS = str.maketrans("[{]}", "\x01\x01\xff\xff")


def _toml_limits_problem(text: str) -> str | None:
    """Why ``text`` nests too deep or has too long a number to parse, or
    ``None``. Regular expressions and a running sum only: no recursion."""
    bare = _TOML_SKIPPED.sub('""', text)
    if _LONG_NUMBER.search(bare):
        return f"a number of more than {_MAX_DIGITS} digits"
    steps = _NOT_BRACKETS.sub("", bare).translate(_DEPTH_STEPS).encode("latin-1")
    if max(accumulate(array("b", steps)), default=0) > MAX_DEPTH:
        return f"nested more than {MAX_DEPTH} deep"
    return None


def _data_limits_problem(data: dict[str, Any]) -> str | None:
    """Why parsed data nests too deep (dotted keys nest without brackets), is
    too big, or holds an integer beyond 64 bits (hex needs no digits), or
    ``None``. Walks with a stack: nothing here recurses."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    values = 0
    while stack:
        node, depth = stack.pop()
        values += 1
        if values > _MAX_VALUES:
            return f"too many values (more than {_MAX_VALUES})"
        if isinstance(node, dict | list):
            if depth > MAX_DEPTH:
                return f"nested more than {MAX_DEPTH} deep"
            items = node.values() if isinstance(node, dict) else node
            stack += [(item, depth + 1) for item in items]
        elif isinstance(node, int) and node.bit_length() > 63:
            return "an integer beyond 64 bits"
    return None
