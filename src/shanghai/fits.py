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
from shanghai.rules.model import Rules

Options = dict[Card, tuple[End | None, ...]]

_CACHE: dict[int, tuple[Rules, dict[Meld, Options], dict[Meld, frozenset[Card]]]] = {}
_WILD_CANDIDATES = (JOKER, Card(0 * 16 + 2), Card(3 * 16 + 2))


def _caches(rules: Rules) -> tuple[dict[Meld, Options], dict[Meld, frozenset[Card]]]:
    entry = _CACHE.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_CACHE) > 64:
            _CACHE.clear()
        entry = (rules, {}, {})
        _CACHE[id(rules)] = entry
    return entry[1], entry[2]


def lay_off_options(meld: Meld, rules: Rules) -> Options:
    """Every card that may be added to ``meld``, with the ends it may go on (None for a set)."""
    options, _ = _caches(rules)
    found = options.get(meld)
    if found is not None:
        return found
    wilds = [c for c in _WILD_CANDIDATES if rules.is_wild(c)]
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
    if len(options) > 50_000:
        options.clear()
    options[meld] = result
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
            out.update(c for c in ALL_NATURALS if (c & 15) == meld.rank and not rules.is_wild(c))
    result = frozenset(out)
    if len(cache) > 50_000:
        cache.clear()
    cache[meld] = result
    return result
