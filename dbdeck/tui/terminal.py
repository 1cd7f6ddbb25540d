"""What the terminal can show, from the environment: ASCII or Unicode, and
how many colours.

A terminal that cannot draw Unicode gets ASCII (``DBDECK_ASCII=1`` by
itself): one whose locale's encoding is not UTF-8 (``LANG=C``, ``LC_ALL=C``,
``POSIX``, ``en_US.ISO-8859-1``, or no locale at all), or a plain terminal
(``TERM=dumb``, ``vt100`` …). A plain terminal also gets the 16 standard
colours rather than what Textual would pick (under ``TERM=dumb`` it would
send 24-bit colour). ``DBDECK_ASCII`` overrides the choice both ways
(``DBDECK_ASCII=0`` draws Unicode whatever the locale), and
``TEXTUAL_COLOR_SYSTEM`` the colours.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["PLAIN_TERMINALS", "colour_system", "wants_ascii"]

PLAIN_TERMINALS = frozenset(
    {"", "dumb", "unknown", "ansi", "vt52", "vt100", "vt102", "vt220", "vt320"}
)
"""Terminals (``TERM``) without Unicode line drawing or many colours."""

_NO = frozenset({"0", "no", "off", "false"})


def _locale(environ: Mapping[str, str]) -> str:
    """The locale that decides the character encoding (``LC_ALL``, else
    ``LC_CTYPE``, else ``LANG``). Python itself sets ``LC_CTYPE=C.UTF-8``
    in a C locale (PEP 538), so that value over a C ``LANG`` is the C
    locale still."""
    every = environ.get("LC_ALL", "")
    if every:
        return every
    ctype = environ.get("LC_CTYPE", "")
    lang = environ.get("LANG", "")
    if ctype and not (ctype == "C.UTF-8" and lang in ("", "C", "POSIX")):
        return ctype
    return lang


def _utf8(locale: str) -> bool:
    """Whether a locale's name says it encodes UTF-8 (``en_GB.UTF-8``, ``C.utf8``)."""
    encoding = locale.partition(".")[2].partition("@")[0]
    return encoding.replace("-", "").lower() == "utf8"


def wants_ascii(environ: Mapping[str, str]) -> bool:
    """Whether to draw with ASCII only: ``DBDECK_ASCII`` when it is set
    (``1`` yes, ``0`` no), else when the locale is not UTF-8 or the
    terminal is a plain one."""
    given = environ.get("DBDECK_ASCII", "").strip().lower()
    if given:
        return given not in _NO
    term = environ.get("TERM", "").strip().lower()
    return term in PLAIN_TERMINALS or not _utf8(_locale(environ))


def colour_system(environ: Mapping[str, str]) -> str | None:
    """The colours to use (``"standard"``: 16) on a plain terminal, or
    ``None`` to let Textual choose (and ``TEXTUAL_COLOR_SYSTEM`` when set)."""
    if environ.get("TEXTUAL_COLOR_SYSTEM"):
        return None
    term = environ.get("TERM", "").strip().lower()
    return "standard" if term in PLAIN_TERMINALS else None
