"""Cards as small integers, with a canonical text form.

A natural card is ``suit * 16 + rank`` (rank 1 = ace ... 13 = king; suits S, H, D, C = 0..3),
so cards of one suit in rank order are consecutive integers. The joker is 64. Several decks
make identical cards, which are simply equal integers.

>>> parse_card("10h") == parse_card("TH") == parse_card("10♥")
True
>>> [card_text(c) for c in parse_cards("as kd jk 2c")]
['AS', 'KD', 'JK', '2C']
>>> parse_card("1X")
Traceback (most recent call last):
...
shanghai.errors.UnknownCardError: unknown card '1X': expected a rank (A 2-9 10 T J Q K) and a suit ...
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NewType

from shanghai.errors import UnknownCardError

Card = NewType("Card", int)

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_TEXT = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_NAMES = ("", "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king", "ace")
JOKER = Card(64)
ACE, JACK, QUEEN, KING = 1, 11, 12, 13
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3

_RANKS_BY_TEXT = {"A": 1, "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13}
_RANKS_BY_TEXT.update({str(r): r for r in range(2, 10)})
_SUITS_BY_TEXT = {s: i for i, s in enumerate(SUITS)}
_SUITS_BY_TEXT.update({s: i for i, s in enumerate(SUIT_SYMBOLS)})
_SUITS_BY_TEXT.update({"♤": 0, "♡": 1, "♢": 2, "♧": 3})


def make_card(rank: int, suit: int) -> Card:
    """The natural card of ``rank`` (1-13, or 14 for a high ace) and ``suit`` (0-3).

    >>> card_text(make_card(14, 1))
    'AH'
    """
    if rank == 14:
        rank = 1
    if not (1 <= rank <= 13 and 0 <= suit <= 3):
        raise ValueError(f"no card of rank {rank} and suit {suit}")
    return Card(suit * 16 + rank)


def rank_of(card: int) -> int:
    """Rank 1-13 of a natural card (0 for the joker)."""
    return 0 if card == JOKER else card & 15


def suit_of(card: int) -> int:
    """Suit 0-3 of a natural card (-1 for the joker)."""
    return -1 if card == JOKER else card >> 4


def is_joker(card: int) -> bool:
    return card == JOKER


def is_black(card: int) -> bool:
    """Spades and clubs are black."""
    return card != JOKER and (card >> 4) in (SPADES, CLUBS)


def card_text(card: int) -> str:
    """Canonical text of a card: ``10H``, ``QS``, ``JK``."""
    text = _CARD_TEXTS.get(card)
    if text is None:
        raise ValueError(f"{card} is not a card code")
    return text


# every card's text by its code, worked out once (texts are written for every card of every message)
_CARD_TEXTS: dict[int, str] = {suit * 16 + rank: RANK_TEXT[rank] + SUITS[suit]
                               for suit in range(4) for rank in range(1, 14)}
_CARD_TEXTS[JOKER] = "JK"


def card_name(card: int) -> str:
    """Card in words: ``ten of hearts``, ``joker``."""
    if card == JOKER:
        return "joker"
    return f"{RANK_NAMES[card & 15]} of {SUIT_NAMES[card >> 4]}"


def parse_card(text: str) -> Card:
    """Read one card; case does not matter, ``T`` is 10, suits may be symbols."""
    t = text.strip().upper()
    if t in ("JK", "JOKER", "*", "JO", "JKR"):
        return JOKER
    if len(t) >= 2:
        rank = _RANKS_BY_TEXT.get(t[:-1])
        suit = _SUITS_BY_TEXT.get(t[-1])
        if rank is not None and suit is not None:
            return Card(suit * 16 + rank)
    raise UnknownCardError(text)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards from a whitespace- or comma-separated text, or from a sequence of texts."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(t) for t in items]


def cards_text(cards: Iterable[int]) -> str:
    """Cards in canonical text separated by spaces."""
    return " ".join(card_text(c) for c in cards)


def sort_key(card: int) -> tuple[int, int]:
    """Order for display: by suit then rank, jokers last."""
    return (4, 0) if card == JOKER else (card >> 4, card & 15)


def rank_sort_key(card: int) -> tuple[int, int]:
    """Order for display: by rank then suit, jokers last."""
    return (14, 0) if card == JOKER else (card & 15, card >> 4)


ALL_NATURALS: tuple[Card, ...] = tuple(Card(s * 16 + r) for s in range(4) for r in range(1, 14))


def make_pack(decks: int, jokers: int) -> list[Card]:
    """``decks`` standard 52-card decks plus ``jokers`` jokers, in a fixed order.

    >>> len(make_pack(3, 6))
    162
    """
    return [c for _ in range(decks) for c in ALL_NATURALS] + [JOKER] * jokers


def count_cards(cards: Sequence[int]) -> dict[int, int]:
    """How many of each card."""
    out: dict[int, int] = {}
    for c in cards:
        out[c] = out.get(c, 0) + 1
    return out
