"""What fits where: every card that can be laid off on a meld, and at which end, cached per meld.

A meld accepts few cards (the naturals next to a run's ends, a set's rank, the wilds), so the
engine asks this table instead of trying every card of a hand on every meld.

>>> from shanghai.rules import preset
>>> from shanghai.melds import make_meld
>>> from shanghai.cards import parse_cards, card_text
>>> isra = preset("isra")
>>> run = make_meld(parse_cards("5D 6D JK 8D"), isra)
>>> sorted((card_text(c), ends) for c, ends in lay_off_options(run, isra).items())
[('4D', ('low',)), ('9D', ('high',)), ('JK', ('low', 'high'))]
"""

from __future__ import annotations

from shanghai.cards import ALL_NATURALS, JOKER, Card, make_card
from shanghai.errors import InvalidMeldError
from shanghai.melds import End, Meld
from shanghai.rules.model import WILD_CANDIDATES, Rules

Options = dict[Card, tuple[End | None, ...]]

_CACHE: dict[int, tuple[Rules, dict[Meld, Options], dict[Meld, frozenset[Card]]]] = {}
# Per Rules object: each card's wildness, and the options by a meld's shape (see ``_shape``).
_SHAPES: dict[int, tuple[Rules, tuple[bool, ...], dict[tuple[int, ...], Options]]] = {}
# The natural card of each place (1-14) of each suit: ``_PLACES[suit][place]`` (index 0 unused).
_PLACES = tuple(tuple([0] + [s * 16 + r for r in range(1, 14)] + [s * 16 + 1]) for s in range(4))


def _caches(rules: Rules) -> tuple[dict[Meld, Options], dict[Meld, frozenset[Card]]]:
    entry = _CACHE.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_CACHE) > 64:
            _CACHE.clear()
        entry = (rules, {}, {})
        _CACHE[id(rules)] = entry
    return entry[1], entry[2]


def _shapes(rules: Rules) -> tuple[tuple[bool, ...], dict[tuple[int, ...], Options]]:
    entry = _SHAPES.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_SHAPES) > 64:
            _SHAPES.clear()
        entry = (rules, tuple(rules.is_wild(c) for c in range(65)), {})
        _SHAPES[id(rules)] = entry
    return entry[1], entry[2]


def _shape(meld: Meld, wild: tuple[bool, ...]) -> tuple[int, ...]:
    """What of a (valid) meld decides which cards it accepts, and where.

    A set: its rank, size and naturals (a black 2 counts as one in a set of 2s): ``check_set`` of
    the set with one more card reads nothing else (the naturals' rank is the set's). A run: its
    suit, low place, size, naturals (cards in their own place), and whether its end cards are
    wilds: ``_check_run_layout`` with a card added at an end reads, beyond the places and sizes,
    only the new card, its neighbour (two wilds side by side) and the count of naturals.
    """
    cards = meld.cards
    n = len(cards)
    if meld.kind == "set":
        rank = meld.rank
        # (a black 2 is a natural in a set of 2s, a joker never)
        nat = ((n - cards.count(JOKER) if wild[JOKER] else n) if rank == 2
               else n - sum(map(wild.__getitem__, cards)))
        return (0, rank, n, nat)
    suit, low = meld.suit, meld.low
    if not (0 <= suit <= 3 and low >= 1 and low + n - 1 <= 14):
        return (2, id(meld))  # not a run as laid: no shape (never met on a table)
    wants = _PLACES[suit][low:low + n]
    nat = sum(map(int.__eq__, cards, wants))
    return (1, suit, low, n, nat, cards[0] != wants[0], cards[-1] != wants[-1])


def lay_off_options(meld: Meld, rules: Rules) -> Options:
    """Every card that may be added to ``meld``, with the ends it may go on (None for a set).

    Melds of one shape (``_shape``) accept the same cards: the options are worked out once per
    shape and shared (the dict returned is not to be changed)."""
    options, _ = _caches(rules)
    found = options.get(meld)
    if found is not None:
        return found
    wild, shapes = _shapes(rules)
    key = _shape(meld, wild)
    result = shapes.get(key)
    if result is None:
        result = _options(meld, rules)
        if key[0] != 2:
            if len(shapes) > 50_000:
                shapes.clear()
            shapes[key] = result
    if len(options) > 50_000:
        options.clear()
    options[meld] = result
    return result


def _options(meld: Meld, rules: Rules) -> Options:
    """``lay_off_options`` worked out by trying each card that could fit."""
    wilds = [c for c in WILD_CANDIDATES if rules.is_wild(c)]
    result: Options = {}
    if meld.kind == "set":
        naturals = [c for c in ALL_NATURALS if meld.rank == 0 or (c & 15) == meld.rank]
        for card in [*naturals, *wilds]:
            try:
                meld.lay_off(card, None, rules)
            except InvalidMeldError:
                continue
            result[card] = (None,)
    else:
        by_card: dict[Card, list[End]] = {}
        for end in meld.ends():
            place = meld.low - 1 if end == "low" else meld.high + 1
            for card in (make_card(place, meld.suit), *wilds):
                try:
                    meld.lay_off(card, end, rules)
                except InvalidMeldError:
                    continue
                by_card.setdefault(card, []).append(end)
        result = {c: tuple(ends) for c, ends in by_card.items()}
    return result


def fits(meld: Meld, card: Card, rules: Rules) -> bool:
    """Can ``card`` be laid off on ``meld``?"""
    return card in lay_off_options(meld, rules)


def replaceable(meld: Meld, rules: Rules) -> frozenset[Card]:
    """The natural cards that may replace a wild in ``meld`` (what its wilds stand for)."""
    _, cache = _caches(rules)
    found = cache.get(meld)
    if found is not None:
        return found
    out: set[Card] = set()
    for i in range(len(meld.cards)):
        if not meld.is_wild_at(i, rules):
            continue
        if meld.kind == "run":
            out.add(make_card(meld.low + i, meld.suit))
        elif meld.rank:
            # a black 2 of may-i is natural in a set of 2s (decision 9)
            out.update(c for c in ALL_NATURALS if (c & 15) == meld.rank and (meld.rank == 2 or not rules.is_wild(c)))
    result = frozenset(out)
    if len(cache) > 50_000:
        cache.clear()
    cache[meld] = result
    return result
