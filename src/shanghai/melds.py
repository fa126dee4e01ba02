"""Sets and runs with wild cards: validation, what each wild stands for, laying off, replacing wilds.

A run is written lowest card first with each wild in the place it fills; its places are numbered
1 (low ace) to 14 (high ace). A set may be written in any order.

>>> from shanghai.rules import preset
>>> from shanghai.cards import parse_cards
>>> isra = preset("isra")
>>> meld = make_meld(parse_cards("5D 6D JK 8D"), isra)
>>> meld.kind, meld.text(), meld.wild_meanings()
('run', '5D 6D JK 8D', ['JK=7D'])
>>> make_meld(parse_cards("5D JK JK 8D"), isra)
Traceback (most recent call last):
...
shanghai.errors.InvalidMeldError: two wild cards side by side in a run (JK JK)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from shanghai.cards import JOKER, RANK_TEXT, SUITS, Card, card_text, is_black, make_card
from shanghai.errors import InvalidMeldError
from shanghai.rules.model import MeldKind, Rules

End = Literal["low", "high"]


@dataclass(frozen=True, slots=True)
class Meld:
    """A legal meld. ``rank`` is the set's rank (0 while a set holds only wilds); ``suit`` and
    ``low`` (place of the first card, 1-14) describe a run."""

    kind: MeldKind
    cards: tuple[Card, ...]
    rank: int = 0
    suit: int = -1
    low: int = 0

    @property
    def high(self) -> int:
        return self.low + len(self.cards) - 1

    def stands_for(self, index: int) -> Card | None:
        """The natural card that position ``index`` stands for (None for a wild in an all-wild set)."""
        if self.kind == "run":
            return make_card(self.low + index, self.suit)
        return None

    def is_wild_at(self, index: int, rules: Rules) -> bool:
        """Does the card at ``index`` act as a wild (a black 2 in its own place is natural)?"""
        card = self.cards[index]
        if not rules.is_wild(card):
            return False
        if card == JOKER:
            return True
        if self.kind == "run":
            return card != make_card(self.low + index, self.suit)
        return self.rank != 2

    def wild_count(self, rules: Rules) -> int:
        return sum(1 for i in range(len(self.cards)) if self.is_wild_at(i, rules))

    def wild_meanings(self, rules: Rules | None = None) -> list[str]:
        """What each joker (or other acting wild) stands for, e.g. ``['JK=7D']``."""
        out: list[str] = []
        for i, c in enumerate(self.cards):
            if c != JOKER and (rules is None or not self.is_wild_at(i, rules)):
                continue
            if self.kind == "run":
                out.append(f"{card_text(c)}={card_text(make_card(self.low + i, self.suit))}")
            else:
                out.append(f"{card_text(c)}={RANK_TEXT[self.rank] if self.rank else 'any'}")
        return out

    def text(self) -> str:
        return " ".join(card_text(c) for c in self.cards)

    def describe(self) -> str:
        """In words: ``run of 4 diamonds 5-8`` / ``set of 3 sevens``."""
        if self.kind == "run":
            return (f"run of {len(self.cards)} {'SHDC'[self.suit]} "
                    f"{RANK_TEXT[self.low]}-{RANK_TEXT[self.high]}")
        return f"set of {len(self.cards)} {RANK_TEXT[self.rank] + 's' if self.rank else 'wilds'}"

    def ends(self) -> tuple[End, ...]:
        """The places a card may be added: both ends of a run (where a place is left), none for a set."""
        if self.kind == "set" or len(self.cards) >= 13:
            return ()  # a run of 13 is a whole suit: one more would need both aces
        out: list[End] = []
        if self.low > 1:
            out.append("low")
        if self.high < 14:
            out.append("high")
        return tuple(out)

    def lay_off(self, card: Card, end: End | None, rules: Rules) -> Meld:
        """This meld with ``card`` added (at ``end`` of a run); raises ``InvalidMeldError`` why not.

        >>> from shanghai.rules import preset
        >>> from shanghai.cards import parse_cards, parse_card
        >>> m = make_meld(parse_cards("5D 6D 7D 8D"), preset("isra"))
        >>> m.lay_off(parse_card("9D"), "high", preset("isra")).text()
        '5D 6D 7D 8D 9D'
        """
        if self.kind == "set":
            return check_set(self.cards + (card,), rules, rank=self.rank or None)
        if end == "low":
            if self.low <= 1:
                raise InvalidMeldError(f"nothing goes below {self.describe()}")
            return _check_run_layout((card, *self.cards), self.suit, self.low - 1, rules)
        if end == "high":
            if self.high >= 14:
                raise InvalidMeldError(f"nothing goes above {self.describe()}")
            return _check_run_layout((*self.cards, card), self.suit, self.low, rules)
        raise InvalidMeldError("say which end of the run the card goes on (low or high)")

    def replace_wild(self, natural: Card, rules: Rules) -> tuple[Meld, Card]:
        """Put ``natural`` where a wild stands for it; returns the new meld and the freed wild. A black 2
        of may-i is natural in its own place (decision 9), so it replaces the wild that stands for it.

        >>> from shanghai.rules import preset
        >>> from shanghai.cards import parse_cards, parse_card
        >>> run = make_meld(parse_cards("AS JK 3S 4S"), preset("may-i"))
        >>> new, freed = run.replace_wild(parse_card("2S"), preset("may-i"))
        >>> new.text(), card_text(freed)
        ('AS 2S 3S 4S', 'JK')
        """
        if natural == JOKER or (rules.is_wild(natural) and (natural & 15) != 2):
            raise InvalidMeldError(f"{card_text(natural)} is wild: only a natural card replaces a wild")
        for i, c in enumerate(self.cards):
            if not self.is_wild_at(i, rules):
                continue
            if self.kind == "run":
                if make_card(self.low + i, self.suit) != natural:
                    continue
            elif (natural & 15) != self.rank:
                continue
            cards = self.cards[:i] + (natural,) + self.cards[i + 1:]
            if self.kind == "run":
                return _check_run_layout(cards, self.suit, self.low, rules), c
            return check_set(cards, rules, rank=self.rank), c
        if rules.is_wild(natural):
            raise InvalidMeldError(f"{card_text(natural)} is wild, and natural only in its own place: no wild "
                                   f"in {self.text()} stands for it")
        raise InvalidMeldError(f"no wild in {self.text()} stands for {card_text(natural)}")


def _wild_problem(naturals: int, wilds: int, rules: Rules) -> str | None:
    if rules.wild_limit == "naturals-majority" and wilds >= naturals:
        return f"{wilds} wild card{'s' if wilds != 1 else ''} and only {naturals} natural: " \
               f"a meld needs more natural cards than wild cards"
    return None


def check_set(cards: Sequence[Card], rules: Rules, *, rank: int | None = None) -> Meld:
    """Validate a set (any order). ``rank`` fixes the rank of a set already on the table."""
    cards = tuple(cards)
    if len(cards) < rules.set_min:
        raise InvalidMeldError(f"a set needs at least {rules.set_min} cards, got {len(cards)}")
    fixed = [c for c in cards if not rules.is_wild(c)]
    ranks = {c & 15 for c in fixed}
    if len(ranks) > 1:
        raise InvalidMeldError("a set's cards must all be of one rank: "
                               + " ".join(card_text(c) for c in fixed))
    if ranks:
        r = ranks.pop()
    elif rank:
        r = rank
    elif any(c != JOKER for c in cards):  # only black 2s and jokers: a set of 2s
        r = 2
    else:
        r = 0
    if rank and r != rank:
        raise InvalidMeldError(f"this is a set of {RANK_TEXT[rank]}s, not of {RANK_TEXT[r]}s")
    if r == 0 and rules.wild_limit == "naturals-majority":
        raise InvalidMeldError("a set of wild cards alone: a meld needs more natural cards than wild")
    naturals = sum(1 for c in cards if not rules.is_wild(c) or (c != JOKER and r == 2))
    problem = _wild_problem(naturals, len(cards) - naturals, rules)
    if problem:
        raise InvalidMeldError(problem)
    return Meld("set", cards, rank=r)


def _check_run_layout(cards: tuple[Card, ...], suit: int, low: int, rules: Rules) -> Meld:
    n = len(cards)
    high = low + n - 1
    if n < rules.run_min:
        raise InvalidMeldError(f"a run needs at least {rules.run_min} cards, got {n}")
    if low < 1 or high > 14:
        raise InvalidMeldError("a run cannot go past the ace at either end: an ace is high or low, "
                               "never in the middle (no K-A-2)")
    if n > 13:
        raise InvalidMeldError("a run holds at most 13 cards: an ace is low or high, never both")
    if rules.aces == "high-only" and low == 1:
        raise InvalidMeldError("aces are high only: no run may start with a low ace")
    if rules.aces == "low-only" and high == 14:
        raise InvalidMeldError("aces are low only: no run may end with a high ace")
    naturals = 0
    previous_wild = False
    for i, c in enumerate(cards):
        want = make_card(low + i, suit)
        if c == want:
            naturals += 1
            previous_wild = False
            continue
        if not rules.is_wild(c):
            raise InvalidMeldError(f"{card_text(c)} does not fit the run at the place of {card_text(want)}")
        if previous_wild and rules.wild_limit == "no-adjacent-in-runs":
            raise InvalidMeldError(f"two wild cards side by side in a run "
                                   f"({card_text(cards[i - 1])} {card_text(c)})")
        previous_wild = True
    if naturals == 0:
        raise InvalidMeldError("a run needs at least one natural card")
    problem = _wild_problem(naturals, n - naturals, rules)
    if problem:
        raise InvalidMeldError(problem)
    return Meld("run", cards, suit=suit, low=low)


def check_run(cards: Sequence[Card], rules: Rules) -> Meld:
    """Validate a run given lowest card first, each wild in the place it fills."""
    cards = tuple(cards)
    if len(cards) < rules.run_min:
        raise InvalidMeldError(f"a run needs at least {rules.run_min} cards, got {len(cards)}")
    anchors = [(i, c) for i, c in enumerate(cards) if not rules.is_wild(c)]
    if not anchors:  # a may-i black 2 can be a natural 2 in its own place
        anchors = [(i, c) for i, c in enumerate(cards) if c != JOKER]
    if not anchors:
        raise InvalidMeldError("a run needs at least one natural card")
    suits = {c >> 4 for _, c in anchors if not rules.is_wild(c)}
    if len(suits) > 1:
        raise InvalidMeldError("a run's cards must all be of one suit: "
                               + " ".join(card_text(c) for _, c in anchors))
    first_problem: InvalidMeldError | None = None
    tried: set[tuple[int, int]] = set()
    for i, c in anchors:
        suit, rank = c >> 4, c & 15
        for place in ((rank, 14) if rank == 1 else (rank,)):
            key = (suit, place - i)
            if key in tried:
                continue
            tried.add(key)
            try:
                return _check_run_layout(cards, suit, place - i, rules)
            except InvalidMeldError as exc:
                first_problem = first_problem or exc
    assert first_problem is not None
    raise first_problem


def make_meld(cards: Sequence[Card], rules: Rules, kind: MeldKind | None = None) -> Meld:
    """A set or run from cards; a run lowest first (a descending run is read backwards).

    >>> from shanghai.rules import preset
    >>> from shanghai.cards import parse_cards
    >>> make_meld(parse_cards("8D 7D 6D 5D"), preset("isra")).text()
    '5D 6D 7D 8D'
    """
    cards = tuple(cards)
    problems: list[str] = []
    if kind in (None, "set"):
        try:
            return check_set(cards, rules)
        except InvalidMeldError as exc:
            problems.append(f"not a set: {exc}")
    if kind in (None, "run"):
        try:
            return check_run(cards, rules)
        except InvalidMeldError as exc:
            try:
                return check_run(cards[::-1], rules)
            except InvalidMeldError:
                problems.append(f"not a run: {exc}")
    naturals = [c for c in cards if not rules.is_wild(c)]
    if kind is None and len(problems) == 2 and naturals:
        # Report only the kind of meld the cards were evidently meant to be.
        if len({c & 15 for c in naturals}) == 1:
            raise InvalidMeldError(problems[0].removeprefix("not a set: "))
        if len({c >> 4 for c in naturals}) == 1:
            raise InvalidMeldError(problems[1].removeprefix("not a run: "))
    raise InvalidMeldError("; ".join(problems))


def run_arrangements(cards: Sequence[Card], rules: Rules) -> list[Meld]:
    """Every way to lay these cards (in any order) out as one run: the wilds' places may differ.

    >>> from shanghai.rules import preset
    >>> from shanghai.cards import parse_cards
    >>> [m.text() for m in run_arrangements(parse_cards("JK 6H 7H 8H"), preset("isra"))]
    ['JK 6H 7H 8H', '6H 7H 8H JK']
    """
    cards = list(cards)
    out: list[Meld] = []
    n = len(cards)
    suits = {c >> 4 for c in cards if c != JOKER}
    for suit in sorted(suits):
        for low in range(1, 16 - n):
            high = low + n - 1
            if high > 14:
                break
            pool = list(cards)
            layout: list[Card | None] = []
            for place in range(low, high + 1):
                want = make_card(place, suit)
                if want in pool:
                    pool.remove(want)
                    layout.append(want)
                else:
                    layout.append(None)
            if any(not rules.is_wild(c) for c in pool) or len(pool) != layout.count(None):
                continue
            # Fill the gaps with the wilds; jokers and black 2s are told apart only by points,
            # and every distinct order of them is a distinct layout.
            for filling in _distinct_orders(pool):
                it = iter(filling)
                laid = tuple(c if c is not None else next(it) for c in layout)
                try:
                    out.append(_check_run_layout(laid, suit, low, rules))
                except InvalidMeldError:
                    pass
    seen: set[tuple[Card, ...]] = set()
    unique = []
    for m in out:
        if m.cards not in seen:
            seen.add(m.cards)
            unique.append(m)
    return unique


def _distinct_orders(cards: list[Card]) -> list[tuple[Card, ...]]:
    if not cards:
        return [()]
    out: list[tuple[Card, ...]] = []
    for c in sorted(set(cards)):
        rest = list(cards)
        rest.remove(c)
        out.extend((c, *tail) for tail in _distinct_orders(rest))
    return out


def meld_from_text(text: str, rules: Rules) -> Meld:
    """A meld from text such as ``"5D 6D JK 8D"``."""
    from shanghai.cards import parse_cards

    return make_meld(parse_cards(text), rules)


def suit_letter(suit: int) -> str:
    return SUITS[suit]


def is_black_two(card: Card) -> bool:
    return card != JOKER and (card & 15) == 2 and is_black(card)
