"""The contract solver against an independent brute force.

The brute force knows nothing of the solver: it takes every sub-multiset of a hand, asks
``melds.check_set`` and ``melds.run_arrangements`` whether it is a legal set or run, and tries every
choice of disjoint melds that fills the contract's slots exactly (one meld per slot, of the slot's
kind, at least the slot's size), keeping the one that melds the most points. Two contract rules are
checked here, on the melds' places and ranks:

* ``same_suit_runs == "separated"`` (004: "They cannot be in consecutive order and must be separated
  by at least one card"; 001 ``no-split``): two runs of one suit leave at least one place between
  them (places 1-14, a low ace is 1, a high ace 14).
* ``same_rank_sets == False`` (001 ``no-split``: "The contracts must be met with unique sets and
  runs"): no two sets of one rank (a set of wilds alone has no rank and clashes with none).
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from shanghai.cards import JOKER, Card, cards_text, make_card, parse_cards
from shanghai.errors import InvalidMeldError
from shanghai.melds import check_run, check_set, make_meld, run_arrangements
from shanghai.rules import preset
from shanghai.rules.model import Contract, Rules
from shanghai.solver import Arrangement, meets_contract, solve_contract

SLOW_SECONDS = 1.0
SLOW_HANDS: list[str] = []

# --------------------------------------------------------------------------------------------
# The brute force
# --------------------------------------------------------------------------------------------

_BITS = 5  # a field of 5 bits per distinct card: 4 for the count (at most 15), 1 guard bit


@dataclass(frozen=True, slots=True)
class _Cand:
    vec: int  # the meld's card counts, packed
    size: int
    points: int
    rank: int  # a set's rank (0: wilds alone), -1 for a run
    place: tuple[int, int, int] | None  # a run's (suit, low, high)


_LEGAL_CACHE: dict[tuple[int, tuple[Card, ...]], tuple[int | None, frozenset[tuple[int, int, int]]]] \
    = {}


def _legality(cards: tuple[Card, ...], rules: Rules) -> tuple[int | None,
                                                               frozenset[tuple[int, int, int]]]:
    """(the set's rank or None if no set, the places the cards may take as a run)."""
    key = (id(rules), cards)
    hit = _LEGAL_CACHE.get(key)
    if hit is not None:
        return hit
    fixed = [c for c in cards if not rules.is_wild(c)]
    rank: int | None = None
    # necessary conditions only, to save calls: a set's non-wild cards share one rank; a run's
    # non-wild cards share one suit and are all different (each stands in its own place)
    if len(cards) >= rules.set_min and len({c & 15 for c in fixed}) <= 1:
        try:
            rank = check_set(cards, rules).rank
        except InvalidMeldError:
            rank = None
    places: frozenset[tuple[int, int, int]] = frozenset()
    if (rules.run_min <= len(cards) <= 13 and len({c >> 4 for c in fixed}) <= 1
            and len(set(fixed)) == len(fixed)):
        places = frozenset((m.suit, m.low, m.high) for m in run_arrangements(cards, rules))
    _LEGAL_CACHE[key] = (rank, places)
    return rank, places


def brute_force(hand: Sequence[Card], contract: Contract, rules: Rules,
                forbidden_leftovers: Sequence[int] = ()) -> int | None:
    """The fewest points a hand can keep while laying down exactly the contract, or None."""
    counts = Counter(hand)
    distinct = sorted(counts)
    shift = {c: _BITS * i for i, c in enumerate(distinct)}
    guard = sum(16 << shift[c] for c in distinct)
    total_points = sum(rules.points(c) for c in hand)
    sets: list[_Cand] = []
    runs: list[_Cand] = []
    for chosen in itertools.product(*(range(counts[c] + 1) for c in distinct)):
        size = sum(chosen)
        if size < min(rules.set_min, rules.run_min):
            continue
        cards = tuple(c for c, n in zip(distinct, chosen, strict=True) for _ in range(n))
        vec = sum(n << shift[c] for c, n in zip(distinct, chosen, strict=True))
        points = sum(rules.points(c) for c in cards)
        rank, places = _legality(cards, rules)
        if rank is not None:
            sets.append(_Cand(vec, size, points, rank, None))
        if places and rules.same_suit_runs == "separated":
            runs.extend(_Cand(vec, size, points, -1, p) for p in sorted(places))
        elif places:
            runs.append(_Cand(vec, size, points, -1, None))
    slots = contract.melds
    # per slot, the candidates of its kind and size, most points first (only speeds the search)
    options = [sorted((c for c in (sets if s.kind == "set" else runs) if c.size >= s.min_size),
                      key=lambda c: -c.points) for s in slots]
    hand_vec = sum(n << shift[c] for c, n in counts.items())
    best = -1
    forbidden = set(forbidden_leftovers)
    n_hand = len(hand)

    def compatible(cand: _Cand, chosen: list[_Cand]) -> bool:
        for other in chosen:
            if cand.place is not None and other.place is not None:
                s1, lo1, hi1 = cand.place
                s2, lo2, hi2 = other.place
                if s1 == s2 and not (lo1 > hi2 + 1 or lo2 > hi1 + 1):
                    return False
            if (not rules.same_rank_sets and cand.rank > 0 and cand.rank == other.rank):
                return False
        return True

    def search(i: int, rem: int, rem_points: int, melded: int, size: int, start: int,
               chosen: list[_Cand]) -> None:
        nonlocal best
        if melded + rem_points <= best:
            return
        if i == len(slots):
            if n_hand - size not in forbidden:
                best = melded
            return
        same = i > 0 and slots[i] == slots[i - 1]
        for j in range(start if same else 0, len(options[i])):
            cand = options[i][j]
            if ((rem | guard) - cand.vec) & guard != guard:
                continue  # not enough cards left
            if not compatible(cand, chosen):
                continue
            chosen.append(cand)
            search(i + 1, rem - cand.vec, rem_points - cand.points, melded + cand.points,
                   size + cand.size, j, chosen)
            chosen.pop()

    search(0, hand_vec, total_points, 0, 0, 0, [])
    return None if best < 0 else total_points - best


# --------------------------------------------------------------------------------------------
# Checking what the solver returns
# --------------------------------------------------------------------------------------------

def check_arrangement(arr: Arrangement, hand: Sequence[Card], contract: Contract,
                      rules: Rules, forbidden_leftovers: Sequence[int] = ()) -> None:
    assert len(arr.melds) == len(contract.melds)
    laid: list[Card] = []
    run_places: list[tuple[int, int, int]] = []
    set_ranks: list[int] = []
    for m, req in zip(arr.melds, contract.melds, strict=True):
        assert m.kind == req.kind, (m, req)
        assert len(m.cards) >= req.min_size, (m, req)
        again = make_meld(m.cards, rules, req.kind)
        assert again.kind == req.kind
        if req.kind == "run":
            again = check_run(m.cards, rules)
            assert (again.suit, again.low) == (m.suit, m.low), m
            run_places.append((m.suit, m.low, m.high))
        else:
            again = check_set(m.cards, rules)
            assert again.rank == m.rank
            set_ranks.append(m.rank)
        laid.extend(m.cards)
    assert Counter(laid) + Counter(arr.leftover) == Counter(hand)
    assert arr.leftover_points == sum(rules.points(c) for c in arr.leftover)
    assert len(arr.leftover) not in set(forbidden_leftovers)
    if rules.same_suit_runs == "separated":
        for (s1, lo1, hi1), (s2, lo2, hi2) in itertools.combinations(run_places, 2):
            assert s1 != s2 or lo1 > hi2 + 1 or lo2 > hi1 + 1, run_places
    if not rules.same_rank_sets:
        named = [r for r in set_ranks if r]
        assert len(named) == len(set(named)), set_ranks


def solve_timed(hand: Sequence[Card], contract: Contract, rules: Rules,
                forbidden: Sequence[int] = ()) -> Arrangement | None:
    t0 = time.perf_counter()
    arr = solve_contract(hand, contract, rules, forbidden_leftovers=forbidden)
    spent = time.perf_counter() - t0
    if spent > SLOW_SECONDS:
        SLOW_HANDS.append(f"{rules.name} {contract.text()} [{cards_text(hand)}] {spent:.2f}s")
    return arr


def compare(hand: Sequence[Card], contract: Contract, rules: Rules,
            forbidden: Sequence[int] = ()) -> bool:
    """Solver and brute force agree; returns whether the contract is met."""
    expected = brute_force(hand, contract, rules, forbidden)
    arr = solve_timed(hand, contract, rules, forbidden)
    context = (f"{rules.name}{list(rules.options)} {contract.text()} forbidden={list(forbidden)} "
               f"hand: {cards_text(hand)}")
    if expected is None:
        assert arr is None, f"{context}: solver found {arr} but brute force finds none"
        return False
    assert arr is not None, f"{context}: solver finds nothing, brute force leaves {expected}"
    check_arrangement(arr, hand, contract, rules, forbidden)
    assert arr.leftover_points == expected, \
        f"{context}: solver leaves {arr.leftover_points} ({[m.text() for m in arr.melds]} " \
        f"{arr.leftover_text()}), brute force {expected}"
    return True


# --------------------------------------------------------------------------------------------
# Random hands, biased towards meeting the contract
# --------------------------------------------------------------------------------------------

def _wild_card(rng: random.Random, rules: Rules) -> Card:
    if rules.wilds == "jokers-and-black-twos" and rng.random() < 0.4:
        return make_card(2, rng.choice((0, 3)))
    return JOKER


def random_hand(rng: random.Random, rules: Rules, contract: Contract, size: int,
                wilds: int) -> list[Card]:
    n_suits = rng.choice((1, 2, 2, 3, 4))
    suits = rng.sample(range(4), n_suits)
    width = rng.randint(4, 9)
    lo = rng.randint(1, 15 - width)
    ranks = [1 if r == 14 else r for r in range(lo, lo + width)]
    cards: list[Card] = []
    for req in contract.melds:
        if rng.random() < 0.25:
            continue
        extra = rng.choice((0, 0, 0, 1, 2))
        if req.kind == "set":
            rank = rng.choice(ranks)
            cards += [make_card(rank, rng.choice(suits if rng.random() < 0.7 else range(4)))
                      for _ in range(req.min_size + extra)]
        else:
            n = min(13, req.min_size + extra)
            start = rng.randint(1, 15 - n)
            suit = rng.choice(suits)
            cards += [make_card(p, suit) for p in range(start, start + n)]
    rng.shuffle(cards)
    # knock some cards out, so that wilds and noise matter
    for _ in range(rng.choice((0, 1, 1, 2, 3))):
        if cards:
            cards.pop(rng.randrange(len(cards)))
    cards = cards[:size - wilds]
    while len(cards) < size - wilds:
        cards.append(make_card(rng.choice(ranks) if rng.random() < 0.8 else rng.randint(1, 13),
                               rng.choice(suits) if rng.random() < 0.8 else rng.randrange(4)))
    # several decks: at most 3 of one card; a natural black 2 may be wild in may-i, that is fine
    counts = Counter(cards)
    for c, n in counts.items():
        for _ in range(n - 3):
            cards.remove(c)
            cards.append(make_card(rng.randint(1, 13), rng.randrange(4)))
    cards += [_wild_card(rng, rules) for _ in range(wilds)]
    rng.shuffle(cards)
    return cards


RULES = {
    "isra": preset("isra"),
    "may-i": preset("may-i"),
    "may-i-10": preset("may-i-10"),
    "family-10": preset("family-10"),
    "contract-10": preset("contract-10"),
    "may-i+no-split": preset("may-i", ["no-split"]),
    "may-i+aces-high": preset("may-i", ["aces-high"]),
}

HANDS_PER_PRESET = 400


def _contracts(rules: Rules) -> list[Contract]:
    return list(dict.fromkeys(spec.contract for spec in rules.rounds))


@pytest.mark.parametrize("name", list(RULES))
def test_solver_matches_brute_force(name: str) -> None:
    rules = RULES[name]
    rng = random.Random(f"1234-{name}")
    contracts = _contracts(rules)
    met = 0
    for _ in range(HANDS_PER_PRESET):
        size = rng.randint(8, 12)
        fitting = [c for c in contracts if c.min_cards <= size]
        contract = rng.choice(fitting)
        wilds = rng.choice((0, 0, 1, 1, 2, 2, 3, 4))
        hand = random_hand(rng, rules, contract, size, wilds)
        met += compare(hand, contract, rules)
    # the hands are built so that many meet their contract, and many do not
    assert HANDS_PER_PRESET // 5 < met < HANDS_PER_PRESET - HANDS_PER_PRESET // 10, met


@pytest.mark.parametrize("name", ["isra", "family-10", "may-i", "contract-10"])
def test_solver_forbidden_leftover_matches_brute_force(name: str) -> None:
    """The engine forbids leaving exactly one card where the last card may not be discarded."""
    rules = RULES[name]
    rng = random.Random(f"4321-{name}")
    contracts = _contracts(rules)
    differs = 0
    for _ in range(HANDS_PER_PRESET // 2):
        size = rng.randint(8, 12)
        contract = rng.choice([c for c in contracts if c.min_cards <= size])
        # a contract's cards plus one: the case where one card would be left
        hand = random_hand(rng, rules, contract, size, rng.choice((0, 1, 1, 2, 3)))
        compare(hand, contract, rules, (1,))
        free = brute_force(hand, contract, rules)
        barred = brute_force(hand, contract, rules, (1,))
        differs += free != barred
    assert differs > 0  # the forbidden count matters in some hands


def test_no_slow_hands() -> None:
    """Runs last in this file: no random hand took the solver more than a second."""
    assert not SLOW_HANDS, SLOW_HANDS


# --------------------------------------------------------------------------------------------
# Hands worked out by hand
# --------------------------------------------------------------------------------------------

def P(text: str) -> list[Card]:
    return parse_cards(text)


def test_worked_example() -> None:
    isra = RULES["isra"]
    hand = P("7H 7S 7D 5C 6C 8C JK KD KS 2H 9C")
    best = solve_contract(hand, isra.contract(2), isra)
    assert best is not None
    assert best.leftover_points == 25 == brute_force(hand, isra.contract(2), isra)
    check_arrangement(best, hand, isra.contract(2), isra)


def test_sets_of_jokers_alone() -> None:
    """000: "Three JOKERS can be used to form a set": two sets of three jokers are two sets."""
    isra = RULES["isra"]
    for text, left in (("JK JK JK JK JK JK", 0), ("JK JK JK JK JK JK 5H", 0),
                       ("JK JK JK JK JK JK KH QD", 0), ("JK JK JK JK JK", None)):
        hand = P(text)
        arr = solve_contract(hand, isra.contract(1), isra)
        assert brute_force(hand, isra.contract(1), isra) == left
        assert (arr.leftover_points if arr else None) == left, text
        if arr:
            check_arrangement(arr, hand, isra.contract(1), isra)
    family = RULES["family-10"]
    hand = P("JK JK JK JK JK JK 9S 9H 9D")
    arr = solve_contract(hand, family.contract(4), family)
    assert arr is not None and arr.leftover_points == 0
    # may-i: never a set of wilds alone
    may_i = RULES["may-i"]
    assert not meets_contract(P("JK JK JK JK JK JK"), may_i.contract(1), may_i)


def test_no_split_needs_separate_runs_and_unique_sets() -> None:
    """001 variation 2: "Some variations don't allow larger sets and runs to be split. The contracts
    must be met with unique sets and runs"; without it: "Longer runs can be split into smaller runs
    to fulfill the contract. (3S-4S-5S-6S-7S-8S-9S-10S can be split to 3S-4S-5S-6S and
    7S-8S-9S-10S)"."""
    may_i, no_split = RULES["may-i"], RULES["may-i+no-split"]
    hand = P("3S 4S 5S 6S 7S 8S 9S 10S")
    assert meets_contract(hand, may_i.contract(3), may_i)
    assert not meets_contract(hand, no_split.contract(3), no_split)
    assert meets_contract(P("3S 4S 5S 6S 8S 9S 10S JS"), no_split.contract(3), no_split)
    sevens = P("7S 7H 7D 7C 7S 7H")
    assert meets_contract(sevens, may_i.contract(1), may_i)
    assert not meets_contract(sevens, no_split.contract(1), no_split)


def test_contract_10_runs_of_one_suit_apart() -> None:
    """004: "When two or more sequences are required, they must be in different suits, or in the
    same suit. They cannot be in consecutive order and must be separated by at least one card."."""
    c10 = RULES["contract-10"]
    assert not meets_contract(P("3S 4S 5S 6S 7S 8S 9S 10S"), c10.contract(3), c10)
    assert meets_contract(P("3S 4S 5S 6S 8S 9S 10S JS"), c10.contract(3), c10)
    assert meets_contract(P("3S 4S 5S 6S 7H 8H 9H 10H"), c10.contract(3), c10)
    # ace low and ace high runs of one suit are far apart
    assert meets_contract(P("AS 2S 3S 4S JS QS KS AS"), c10.contract(3), c10)


def test_aces_high_only_in_the_solver() -> None:
    high = RULES["may-i+aces-high"]
    assert not meets_contract(P("AS 2S 3S 4S 7H 7D 7C"), high.contract(2), high)
    assert meets_contract(P("JS QS KS AS 7H 7D 7C"), high.contract(2), high)
    assert meets_contract(P("AS 2S 3S 4S 7H 7D 7C"), RULES["may-i"].contract(2), RULES["may-i"])


def test_black_twos_natural_or_wild() -> None:
    """001: black 2s are wild; in its own place (or in a set of 2s) a black 2 is natural."""
    may_i = RULES["may-i"]
    contract = Contract.of(sets=(3,), runs=(4,))
    for text in ("2S 3S JK JK 6S 9H 9D 9C", "2S 2C JK 7H 7D 7C 8H 8D 8C 8S",
                 "2S 2C 2S 2C 5H 6H 7H 2H", "AS 2S 3S 2C 9H 9D 2S"):
        hand = P(text)
        compare(hand, contract, may_i)
        compare(hand, may_i.contract(1), may_i)
        compare(hand, may_i.contract(2), may_i)
