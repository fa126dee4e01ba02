"""Cards: parsing, canonical text, the error for text that names no card."""

from __future__ import annotations

import pytest

from shanghai.cards import (
    ALL_NATURALS,
    JOKER,
    card_name,
    card_text,
    cards_text,
    count_cards,
    is_black,
    make_card,
    make_pack,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from shanghai.errors import ShanghaiError, UnknownCardError


@pytest.mark.parametrize(("text", "rank", "suit"), [
    ("AS", 1, 0), ("as", 1, 0), ("aS", 1, 0),
    ("10H", 10, 1), ("10h", 10, 1), ("TH", 10, 1), ("th", 10, 1),
    ("JD", 11, 2), ("qc", 12, 3), ("KS", 13, 0), ("2c", 2, 3), ("9d", 9, 2),
    ("A♠", 1, 0), ("10♥", 10, 1), ("T♥", 10, 1), ("7♦", 7, 2), ("k♣", 13, 3),
    ("  5s ", 5, 0),
])
def test_parse_natural(text: str, rank: int, suit: int) -> None:
    card = parse_card(text)
    assert card == suit * 16 + rank
    assert rank_of(card) == rank and suit_of(card) == suit


@pytest.mark.parametrize("text", ["JK", "jk", "Jk", "joker", "JOKER"])
def test_parse_joker(text: str) -> None:
    assert parse_card(text) == JOKER == 64
    assert rank_of(JOKER) == 0 and suit_of(JOKER) == -1


def test_ten_forms_are_one_card() -> None:
    assert parse_card("10h") == parse_card("TH") == parse_card("10♥") == parse_card("t♥")


def test_canonical_text_round_trip_for_every_card() -> None:
    assert len(ALL_NATURALS) == 52 and len(set(ALL_NATURALS)) == 52
    for card in (*ALL_NATURALS, JOKER):
        text = card_text(card)
        assert parse_card(text) == card
        assert parse_card(text.lower()) == card
        assert card_text(parse_card(text)) == text
    # lower case and symbols come back as canonical text
    for card in ALL_NATURALS:
        rank, suit = rank_of(card), suit_of(card)
        symbol = "♠♥♦♣"[suit]
        rank_text = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))
        assert card_text(parse_card(rank_text + symbol)) == card_text(card)
        assert card_text(parse_card((rank_text + "SHDC"[suit]).lower())) == card_text(card)


def test_canonical_text_forms() -> None:
    assert [card_text(c) for c in parse_cards("ah 10c tc jk 2s KD")] == \
        ["AH", "10C", "10C", "JK", "2S", "KD"]
    assert card_text(make_card(14, 2)) == "AD"  # a high ace is the ace
    assert card_name(parse_card("10H")) == "ten of hearts"
    assert card_name(JOKER) == "joker"


def test_parse_cards_separators_and_sequences() -> None:
    assert parse_cards("5d,6d, 7d  8d") == parse_cards(["5D", "6D", "7D", "8D"])
    assert cards_text(parse_cards("jk 10♠ qh")) == "JK 10S QH"
    assert parse_cards("") == []


@pytest.mark.parametrize("text", ["1X", "11H", "ZS", "A", "", "   ", "10", "AX", "1S", "JKK",
                                  "0H", "♠A", "10 H"])
def test_unknown_card_error_names_the_text(text: str) -> None:
    with pytest.raises(UnknownCardError) as info:
        parse_card(text)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, ShanghaiError)
    assert repr(text) in str(info.value)
    assert info.value.text == text


def test_unknown_card_in_a_list_names_that_card() -> None:
    with pytest.raises(UnknownCardError, match="'QX'"):
        parse_cards("AS QX KD")
    assert issubclass(UnknownCardError, ValueError)


def test_card_text_refuses_non_codes() -> None:
    for code in (0, 14, 15, 16 * 4 + 1, 63, -1):
        with pytest.raises(ValueError):
            card_text(code)


def test_colours_packs_and_counts() -> None:
    assert is_black(parse_card("2S")) and is_black(parse_card("2C"))
    assert not is_black(parse_card("2H")) and not is_black(parse_card("2D")) and not is_black(JOKER)
    pack = make_pack(3, 6)
    assert len(pack) == 162  # 000: "all 162 cards provided with your box set"
    counts = count_cards(pack)
    assert counts[JOKER] == 6 and all(counts[c] == 3 for c in ALL_NATURALS)
    with pytest.raises(ValueError):
        make_card(0, 0)
    with pytest.raises(ValueError):
        make_card(5, 4)
