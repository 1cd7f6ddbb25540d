"""The deck file format: sections, titles as a person types them, comments,
printings, format problems at their lines, and edits that keep the file."""

from __future__ import annotations

from pathlib import Path

from dbdeck.games.ccg.checker import check_deck
from dbdeck.games.ccg.deckfile import parse_deck
from dbdeck.games.ccg.library import load_library
from dbdeck.games.ccg.profiles import PROFILES
from dbdeck.games.ccg.titles import fold, names_character, personality_form, style_of

GOKU = Path(__file__).resolve().parent.parent / "cards" / "ccg" / "decks" / "goku.txt"


def test_the_issue_example_parses() -> None:
    deck = parse_deck(
        "# Goku, Saiyan Saga. Lines: QUANTITY TITLE, optionally (SAGA #NUMBER).\n"
        "[Tokui-Waza]\nOrange\n[Main Personality]\n1 Goku Level 1\n1 Goku Level 2\n"
        "1 Goku Level 3\n[Mastery]\n[Sensei]\n[Sensei Deck]\n[Life Deck]\n"
        "3 Orange Standing Fist Punch\n1 Earth Dragon Ball 3 (Saiyan #75)\n"
    )
    assert deck.problems == []
    assert deck.tokui_waza == "Orange" and deck.tokui_waza_line == 3
    assert [(c.line, c.section, c.count, c.title) for c in deck.cards][-2:] == [
        (12, "Life Deck", 3, "Orange Standing Fist Punch"),
        (13, "Life Deck", 1, "Earth Dragon Ball 3"),
    ]
    assert (deck.cards[-1].saga, deck.cards[-1].number) == ("Saiyan", "75")
    assert set(deck.headers) == {
        "Tokui-Waza",
        "Main Personality",
        "Mastery",
        "Sensei",
        "Sensei Deck",
        "Life Deck",
    }


def test_headers_and_titles_match_as_typed() -> None:
    library = load_library(include_env_packs=False)
    deck = parse_deck(
        "\ufeff[ TOKUI waza ]\r\n[main   personality]\r\n1 GOKU   level 1\r\n"
        "[life-deck]\r\n2 Goku\u2019s  touch  # two of them\r\n1 earth dragonball 1\r\n"
    )
    assert deck.problems == []
    assert [c.section for c in deck.cards] == ["Main Personality", "Life Deck", "Life Deck"]
    assert [c.title for c in deck.cards] == [
        "GOKU level 1",
        "Goku\u2019s touch",
        "earth dragonball 1",
    ]
    result = check_deck(deck, library, PROFILES["errata-2001"])
    assert result.warnings == ()  # every title known


def test_a_hash_in_parentheses_is_a_number_outside_a_comment() -> None:
    deck = parse_deck("[Life Deck]\n1 Senzu Bean (Saiyan #43) # a comment (with #)\n#2 X\n")
    [card] = deck.cards
    assert (card.title, card.saga, card.number) == ("Senzu Bean", "Saiyan", "43")
    deck = parse_deck("[Life Deck]\n1 It's Just Not Worth It! (Frieza Promo 1)\n")
    assert (deck.cards[0].saga, deck.cards[0].number) == ("Frieza", "Promo 1")
    deck = parse_deck("[Life Deck]\n1 Dende the Unlikely Hero (Level 1)\n")
    assert deck.cards[0].title == "Dende the Unlikely Hero (Level 1)"


def test_format_problems_are_at_their_lines_and_the_rest_is_read() -> None:
    deck = parse_deck(
        "3 Senzu Bean\n[Life Deck]\nthree Senzu Bean\n1000 Senzu Bean\n[Tokui-Waza]\nRed\nBlue\n"
        "[Extras]\n3 Senzu Bean\n[Life Deck]\n" + "x" * 400 + "\n2 Senzu Bean\n"
    )
    assert [p.line for p in deck.problems] == [1, 3, 4, 7, 8, 11]
    assert "before any section" in deck.problems[0].message
    assert "unknown section '[Extras]'" in deck.problems[4].message
    assert [(c.line, c.count) for c in deck.cards] == [(12, 2)]


def test_absent_or_empty_sections_declare_nothing() -> None:
    assert parse_deck("[Life Deck]\n").tokui_waza is None
    assert parse_deck("[Tokui-Waza]\n\n[Life Deck]\n").tokui_waza is None
    assert parse_deck("[Tokui-Waza]\nnone\n").tokui_waza is None


def test_editing_a_count_keeps_every_other_line() -> None:
    text = GOKU.read_text()
    deck = parse_deck(text)
    line = next(c.line for c in deck.cards if c.title == "Senzu Bean")
    edited = deck.with_count(line, 2)
    assert edited.text().splitlines()[line - 1] == "2 Senzu Bean (Saiyan #43)"
    others = [t for i, t in enumerate(text.splitlines()) if i != line - 1]
    assert [t for i, t in enumerate(edited.text().splitlines()) if i != line - 1] == others
    added = edited.with_card("Mastery", 1, "Red Style Mastery")
    assert added.text().endswith("\n[Mastery]\n1 Red Style Mastery\n")
    again = added.with_card("Main Personality", 1, "Goku Level 4")
    lines = again.text().splitlines()
    assert lines[lines.index("1 Goku Level 3") + 1] == "1 Goku Level 4"


def test_titles() -> None:
    assert fold("  Goku\u2019s   Physical  ATTACK ") == "goku's physical attack"
    assert style_of("Orange Fighting Style-Standing Fist Punch") == "Orange"
    assert style_of("Goku's Super Saiyan Blast") is None  # the first word decides
    assert style_of("Saiyan Knee Strike") == "Saiyan"
    assert personality_form("Trunks, the Hero Level 4") == ("Trunks, the Hero", 4)
    assert personality_form("Senzu Bean") is None
    assert names_character("Expectant Trunks", "Trunks")
    assert names_character("Goku's Touch", "Goku") and not names_character("Gokuu", "Goku")
    assert not names_character("Majin Vegeta's Rage", "Vegeta", apart=["Majin Vegeta"])
    assert names_character("Majin Vegeta's Rage", "Majin Vegeta", apart=["Majin Vegeta"])
    assert names_character("Garlic Jr.'s Kyokaika Technique", "Garlic Jr.")
