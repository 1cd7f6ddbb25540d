"""The CCG documents keep step with the code and the data: every rule and
source in rules.md, every rules note the code cites in rules-notes.md, the
format's example parses, and the shipped data is what the issue asks."""

from __future__ import annotations

import json
import re
from pathlib import Path

from dbdeck.games.ccg.deckfile import parse_deck
from dbdeck.games.ccg.library import load_library
from dbdeck.games.ccg.rules import RULES

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs" / "ccg"
DATA = REPO / "cards" / "ccg"


def test_rules_md_lists_every_rule_and_source_in_order() -> None:
    text = (DOCS / "rules.md").read_text()
    assert re.findall(r"^## (\S+)$", text, re.MULTILINE) == list(RULES)
    for rule in RULES.values():
        section = text.split(f"## {rule.id}\n", 1)[1].split("\n## ", 1)[0]
        for source in rule.sources.values():
            assert source in section, (rule.id, source)
        for piece in {p for s in rule.sources.values() for p in s.split("; ")}:
            if piece.startswith(
                ("Errata 7 June 2001, ", "Saiyan Saga rulebook, ", "Rules digest, ")
            ):
                assert f"> — {piece}" in section, (rule.id, piece)  # its passage is quoted


def test_every_rules_note_cited_exists() -> None:
    notes = set(re.findall(r"^### (R\d+)\.", (DOCS / "rules-notes.md").read_text(), re.MULTILINE))
    code = REPO / "dbdeck" / "games" / "ccg"
    assert code.is_dir()  # where the checks live, whose docstrings cite the notes
    cited: set[str] = set()
    for path in [
        *code.rglob("*.py"),
        *DOCS.glob("*.md"),
        *DATA.glob("*.json"),
    ]:
        cited |= set(re.findall(r"rules note (R\d+)", path.read_text()))
    assert cited and cited <= notes


def test_the_notes_put_the_disagreements_side_by_side() -> None:
    text = (DOCS / "rules-notes.md").read_text()
    for topic in (
        "Deck size",
        "Captured Dragon Ball powers",
        "Tokui-Waza",
        "Saibaimen",
        "The capture Allies",
        "The Saiyan Heritage lists",
        "The Namekian Tokui-Waza 90-card deck",
    ):
        note = text.split(f". {topic}\n", 1)[1].split("\n### ", 1)[0]
        assert "| --- |" in note and "**Decision.**" in note, topic


def test_the_format_example_parses() -> None:
    text = (DOCS / "decks.md").read_text()
    example = text.split("```\n", 2)[1]
    deck = parse_deck(example)
    assert deck.problems == [] and deck.tokui_waza == "Orange" and len(deck.cards) == 5


def test_no_card_text_is_shipped() -> None:
    for path in DATA.glob("*.ccg.json"):
        for record in next(iter(json.loads(path.read_text()).values())):
            assert not {"text", "pur", "power_stages", "endurance"} & set(record), path


def test_the_identities_the_seeds_name() -> None:
    library = load_library(include_env_packs=False)
    assert len(library.cards) >= 180
    titles = {c.title for c in library.cards.values()}
    # The example of play, the banned and restricted lists, the rulings.
    assert {
        "Orange Standing Fist Punch",
        "Orange One-Knuckle Punch",
        "Mother's Touch",
        "Red Lunge Punch",
        "Black Elbow Strike",
        "Earth Dragon Ball 3",
        "Dream Machine Battle",
        "Vegeta's Quickness Drill",
        "Garlic Jr.'s Kyokaika Technique",
        "Trunks, the Hero Level 4",
    } <= titles
    for list_id in ("banned-2001", "restricted-2001"):
        assert all(card_id in library.cards for card_id in library.reference(list_id).entries)
    ruled = {card_id for card_id in library.rulings}
    assert len(ruled) >= 130
    kinds = {f["fact"] for r in library.rulings.values() for ruling in r for f in ruling.facts}
    assert kinds == {
        "type",
        "limit-one",
        "only",
        "not-dragon-ball",
        "not-drill",
        "restricted-drill",
        "any-personality",
        "play",
    }
    assert all(
        ruling.source.startswith("Errata 7 June 2001, ")
        for r in library.rulings.values()
        for ruling in r
    )
    for lst in library.lists.values():
        assert lst.source
