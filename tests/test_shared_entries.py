"""Table entries written by a hostile user never reach a terminal raw.

Another user's entry is read by everyone who runs ``dbdeck tables``: every
field is typed, bounded and printable, or the entry is skipped with a note
naming its file, and whatever is printed (notes included, whose file and
folder names another user chose) holds no control character, escape
sequence or bidi override.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from test_shared_folder import ME, entry, listening, no_traceback, plant

from dbdeck.net.listing import TableEntry, list_tables, user_folder, write_entry

__all__ = ["listening"]

CLIPBOARD = "\x1b]52;c;ZWNobyBwd25lZA==\x07"
"""An OSC 52 sequence: writes the terminal's clipboard."""

RED = "\x1b[31m"
"""A CSI sequence: colours what follows."""

TURNED = "Goku\u202eukoG"
"""A right-to-left override: the line is drawn turned around."""

RAW = ("\x1b", "\x07", "\u202e", "\x9b")
"""What must never reach the terminal."""


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DBDECK_TABLES", str(tmp_path / "tables"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))


HOSTILE: list[tuple[str, dict[str, Any], str]] = [
    ("villain-clipboard", {"villain": CLIPBOARD}, "'villain' holding U+001B (an escape"),
    ("villain-red", {"villain": RED + "Freezer"}, "'villain' holding U+001B"),
    ("villain-bidi", {"villain": TURNED}, "'villain' holding U+202E (a bidirectional mark)"),
    ("villain-c1", {"villain": "Frieza\x9b31m"}, "'villain' holding U+009B (a control"),
    ("villain-newline", {"villain": "Freezer\nforged line"}, "'villain' holding U+000A"),
    ("character-clipboard", {"characters": ["Goku", CLIPBOARD]}, "a name in 'characters'"),
    ("character-red", {"characters": [RED]}, "a name in 'characters' holding U+001B"),
    ("character-bidi", {"characters": [TURNED]}, "a name in 'characters' holding U+202E"),
    ("group-red", {"group": RED + "gamers"}, "'group' holding U+001B"),
    ("tcp-clipboard", {"tcp": CLIPBOARD}, "'tcp' holding U+001B"),
    ("socket-red", {"socket": "/tmp/" + RED + "x.sock"}, "'socket' holding U+001B"),
    ("villain-huge", {"villain": "F" * 50_000}, "'villain' longer than 80 characters"),
    ("character-huge", {"characters": ["G" * 81]}, "a name in 'characters' longer than 80"),
    ("characters-many", {"characters": ["Goku"] * 1_000}, "more than 16 'characters'"),
    ("group-huge", {"group": "g" * 33}, "'group' longer than 32 characters"),
    ("villain-number", {"villain": 7}, "'villain' that is not text"),
    ("character-number", {"characters": [7]}, "a name in 'characters' that is not text"),
    ("free-seats-float", {"free_seats": 1.5}, "'free_seats' that is not a number"),
    ("pid-float", {"pid": float(os.getpid())}, "'pid' that is not a number"),
]


@pytest.mark.parametrize(("label", "change", "note"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_entry_is_skipped_with_a_note_naming_its_file(
    label: str,
    change: dict[str, Any],
    note: str,
    listening: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    mine = user_folder()
    write_entry(TableEntry(**entry("good", socket=str(listening))))
    plant(mine, "bad.json", entry("bad", **{"socket": str(listening), **change}))

    notes: list[str] = []
    assert [t.name for t in list_tables(notes=notes)] == ["good"]
    assert len(notes) == 1 and note in notes[0], notes
    assert str(mine / "bad.json") in notes[0]
    out, err = no_traceback(capsys)
    assert "good: Freezer vs Goku" in out and "bad" not in out
    assert err.startswith("note: ") and note in err
    assert not any(raw in out + err for raw in RAW)
    assert len(err) < 400  # a huge field is never echoed back


def test_markup_in_an_entry_is_printed_as_written(
    listening: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Markup is printable: allowed, and drawn literally, never run."""
    villain = "[bold red]Freezer[/] [link=https://x]LNK[/link]"
    write_entry(
        TableEntry(
            **entry("club", socket=str(listening), villain=villain, characters=["[blink]Goku"])
        )
    )
    out, err = no_traceback(capsys)
    assert f"club: {villain} vs [blink]Goku — host {ME}" in out
    assert not err


def test_hostile_file_and_folder_names_are_shown_escaped(
    tmp_path: Path, listening: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Anyone may make a folder of any name in the shared folder, and a
    host any file in their own: a note naming them shows them escaped."""
    mine = user_folder()
    plant(mine, f"{RED}x{CLIPBOARD}.json", "not json")
    plant(tmp_path / "tables" / f"evil{RED}\u202e", "club.json", entry("club"))
    notes: list[str] = []
    assert list_tables(notes=notes) == []
    assert len(notes) == 2, notes
    out, err = no_traceback(capsys)
    assert "\\x1b[31mx\\x1b]52;c;" in err and "evil\\x1b[31m\\u202e" in err
    assert not any(raw in out + err for raw in RAW)
