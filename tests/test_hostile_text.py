"""Text from a card file is printable, and what is printable is shown as
written: validation refuses control characters, escape sequences and
bidirectional marks in every text of a card, naming the file, the card and
the field; markup in a pack's words is drawn literally."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from card_samples import ALLY

from dbdeck.cli import main
from dbdeck.games.deckbuilding.cards.catalog import CardSetError, load_catalog, shipped_cards_dir
from dbdeck.games.deckbuilding.cards.models import CardFile
from dbdeck.packs.printable import PRINTABLE_PATTERN, unprintable_in

ESCAPES = {
    "an escape sequence": "\x1b]52;c;cHduZWQ=\x07",
    "a screen wipe": "\x1b[2J",
    "a C1 control": "\x9b31m",
    "a bidirectional override": "\u202e",
    "a bidirectional isolate": "\u2067",
    "a line feed": "\n",
}

MARKUP = "[bold red]Evil[/bold red] [link=https://example.invalid]LNK[/link]"


def _text_fields() -> set[str]:
    """The names of the fields every card file checks as printable text,
    read from the card schema (so a new text field is covered as it comes)."""
    names: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.get("properties", {}).items():
                if _printable(value):
                    names.add(key)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(CardFile.model_json_schema())
    return names


def _printable(node: Any) -> bool:
    if not isinstance(node, dict):
        return False
    if node.get("pattern") == PRINTABLE_PATTERN:
        return True
    return any(_printable(n) for n in (node.get("items"), *node.get("anyOf", [])))


TEXT_FIELDS = _text_fields()


def test_the_schema_checks_every_text_of_a_card() -> None:
    assert {"name", "text", "setup", "victory_text", "label", "wishes"} <= TEXT_FIELDS


def _spoiled(node: Any, bad: str, at: str = "") -> Iterator[str]:
    """Spoil every text field's value in place with ``bad``; yields the
    dotted path of each value spoiled."""
    if isinstance(node, dict):
        for key, value in node.items():
            here = f"{at}.{key}" if at else str(key)
            if key in TEXT_FIELDS and isinstance(value, str):
                node[key] = value + bad
                yield here
            elif key in TEXT_FIELDS and isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, str):
                        value[i] = item + bad
                        yield f"{here}.{i}"
            else:
                yield from _spoiled(value, bad, here)
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _spoiled(item, bad, f"{at}.{i}")


def _shipped_cards() -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = []
    for path in sorted(shipped_cards_dir().rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and "cards" in data:  # not the CCG's files
            cards += data["cards"]
    return cards


@pytest.mark.parametrize("bad", list(ESCAPES.values()), ids=list(ESCAPES))
def test_every_text_of_every_shipped_card_refuses_what_cannot_be_printed(
    tmp_path: Path, bad: str
) -> None:
    """Each shipped card, with every one of its texts spoiled, in a file of
    its own: each spoiled text is one problem naming file, card and field."""
    pack = tmp_path / "pack"
    pack.mkdir()
    expected: set[tuple[str, str]] = set()
    for index, card in enumerate(_shipped_cards()):
        spoiled = copy.deepcopy(card)
        paths = list(_spoiled(spoiled, bad))
        if paths:
            name = f"card-{index:03}"
            (pack / f"{name}.json").write_text(json.dumps({"cards": [spoiled]}), encoding="utf-8")
            expected |= {(name, path) for path in paths}
    assert len({name for name, _ in expected}) > 300
    with pytest.raises(CardSetError) as err:
        load_catalog([pack], include_shipped=False, include_env_packs=False)
    found: set[tuple[str, str]] = set()
    for problem in err.value.problems:
        assert problem.card is not None and problem.path is not None
        assert str(problem).isprintable()
        found.add((Path(problem.file).stem, problem.path))
        if problem.path.endswith(("name", "text")):
            assert "a card's text may hold no control character" in problem.message
    # Every spoiled text is refused where it is (a text as printable words,
    # a card id it names as an id), and nothing else is.
    assert found == expected


def test_the_problem_says_which_character_and_where(write_pack: Callable[..., Path]) -> None:
    pack = write_pack(allies=[ALLY | {"name": "Evil\x1b]0;PWNED\x07"}])
    with pytest.raises(CardSetError) as err:
        load_catalog([pack], include_shipped=False, include_env_packs=False)
    [line] = [str(p) for p in err.value.problems]
    assert line == (
        f"{pack / 'allies.json'}: card 'test-bulma-ally': name: holds U+001B (an escape "
        "character) at character 5: a card's text may hold no control character, escape "
        "sequence or bidirectional mark"
    )
    assert unprintable_in("a\u202eb") == "U+202E (a bidirectional mark) at character 2"
    assert unprintable_in("Kamehameha ★ 日本") == ""


def test_markup_in_a_packs_words_is_shown_as_written(
    write_pack: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    ally = ALLY | {"name": MARKUP, "text": MARKUP}
    pack = write_pack(allies=[ally])
    assert main(["cards", "validate", "--pack", str(pack)]) == 0
    capsys.readouterr()
    assert main(["cards", "show", "--pack", str(pack), ALLY["id"]]) == 0
    shown = capsys.readouterr().out
    assert "[bold red]Evil[/bold red]" in shown and "[link=https://example.invalid]" in shown
    assert "\x1b" not in shown
    assert main(["cards", "list", "--pack", str(pack)]) == 0
    listed = capsys.readouterr().out
    assert "[bold" in listed and "\x1b" not in listed
