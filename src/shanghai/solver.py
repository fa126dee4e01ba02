"""The contract solver: does a hand meet a contract, and which arrangement leaves the fewest points?

Exact by construction: a depth-first search lays the contract's runs first (every interval, every
choice of natural or wild in each place), then its sets (a minimal core per set), and finally lets
the sets absorb every remaining natural of their rank and every wild they can hold, since adding
such a card never makes a set illegal. A bound (points laid so far plus all points still in hand)
prunes branches that cannot beat the best arrangement found. ``tests/test_solver.py`` checks it
against an independent brute force over all sub-multisets of thousands of random hands.

>>> from shanghai.rules import preset
>>> from shanghai.cards import parse_cards
>>> isra = preset("isra")
>>> best = solve_contract(parse_cards("7H 7S 7D 5C 6C 8C JK KD KS 2H 9C"), isra.contract(2), isra)
>>> [m.text() for m in best.melds], best.leftover_text(), best.leftover_points
(['7S 7H 7D', '5C 6C JK 8C 9C'], ['2H', 'KS', 'KD'], 25)
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import pairwise

from shanghai.cards import JOKER, Card, card_text, make_card
from shanghai.melds import Meld, _check_run_layout, check_set
from shanghai.rules.model import Contract, MeldRequirement, Rules

_TWO_SPADES = Card(0 * 16 + 2)
_TWO_CLUBS = Card(3 * 16 + 2)


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Melds meeting a contract (in the contract's order) and the cards left in hand."""

    melds: tuple[Meld, ...]
    leftover: tuple[Card, ...]
    leftover_points: int

    def leftover_text(self) -> list[str]:
        return [card_text(c) for c in self.leftover]

    def to_json(self) -> dict[str, object]:
        return {"melds": [[card_text(c) for c in m.cards] for m in self.melds],
                "leftover": self.leftover_text(), "leftover_points": self.leftover_points}


# A run core: (suit, low, high, places that hold a wild)
_RunChoice = tuple[int, int, int, tuple[int, ...]]
# A set core: (rank, naturals, wilds)
_SetChoice = tuple[int, int, int]


class _Search:
    def __init__(self, rules: Rules, contract: Contract, naturals: dict[int, int],
                 wild_values: list[int], forbidden_leftovers: Collection[int]) -> None:
        self.rules = rules
        self.run_slots = [m for m in contract.melds if m.kind == "run"]
        self.set_slots = [m for m in contract.melds if m.kind == "set"]
        self.counts = [0] * 65
        for c, n in naturals.items():
            self.counts[c] = n
        self.wild_values = sorted(wild_values, reverse=True)
        self.total_wilds = len(wild_values)
        self.forbidden = set(forbidden_leftovers)
        self.best_points = -1
        self.best: tuple[list[_RunChoice], list[_SetChoice], int, int] | None = None
        self.nat_points = {c: rules.points(c) for c in naturals}
        self.remaining_nat_points = sum(self.nat_points[c] * n for c, n in naturals.items())
        self.hand_size = sum(naturals.values()) + self.total_wilds
        low_place = 2 if rules.aces == "high-only" else 1
        high_place = 13 if rules.aces == "low-only" else 14
        self.places = (low_place, high_place)
        self.majority = rules.wild_limit == "naturals-majority"
        self.no_adjacent = rules.wild_limit == "no-adjacent-in-runs"
        # Run candidates depend only on the naturals left, the size and the wilds left; many
        # branches reach the same naturals (runs that differ only in their wilds).
        self._run_memo: dict[tuple[tuple[int, ...], int, int], list[_RunChoice]] = {}

    # -- runs -----------------------------------------------------------------------------------
    def run_candidates(self, slot: MeldRequirement, wilds_left: int) -> list[_RunChoice]:
        key = (tuple(self.counts), slot.min_size, wilds_left)
        out = self._run_memo.get(key)
        if out is None:
            out = self._run_memo[key] = self._run_candidates(slot, wilds_left)
        return out

    def _run_candidates(self, slot: MeldRequirement, wilds_left: int) -> list[_RunChoice]:
        out: list[_RunChoice] = []
        counts = self.counts
        lo_place, hi_place = self.places
        m = slot.min_size
        for suit in range(4):
            base = suit * 16
            for low in range(lo_place, hi_place - m + 2):
                missing = 0
                have: list[int] = []
                for place in range(low, min(hi_place, low + 12) + 1):
                    card = base + (1 if place == 14 else place)
                    if counts[card] > 0:
                        have.append(place)
                    else:
                        missing += 1
                        if missing > wilds_left:
                            break
                    length = place - low + 1
                    if length < m or not have:
                        continue
                    self._run_variants(suit, low, place, have, missing, wilds_left, out)
        return out

    def _run_variants(self, suit: int, low: int, high: int, have: list[int], missing: int,
                      wilds_left: int, out: list[_RunChoice]) -> None:
        gaps = [p for p in range(low, high + 1) if p not in have]
        spare = wilds_left - missing
        # Use a wild instead of an available natural only where a wild is left to do it.
        subsets: list[tuple[int, ...]] = [()]
        if spare > 0:
            subsets = _subsets(have, min(spare, len(have) - 1))
        for swapped in subsets:
            wild_places = tuple(sorted((*gaps, *swapped)))
            naturals = (high - low + 1) - len(wild_places)
            if naturals <= 0:
                continue
            if self.majority and len(wild_places) >= naturals:
                continue
            if self.no_adjacent and any(b - a == 1 for a, b in pairwise(wild_places)):
                continue
            out.append((suit, low, high, wild_places))

    def _take_run(self, choice: _RunChoice, sign: int) -> int:
        suit, low, high, wild_places = choice
        points = 0
        for place in range(low, high + 1):
            if place in wild_places:
                continue
            card = suit * 16 + (1 if place == 14 else place)
            self.counts[card] -= sign
            points += self.nat_points[card]
        return points

    # -- search ---------------------------------------------------------------------------------
    def run(self) -> None:
        self._runs(0, [], 0, 0)

    def _runs(self, i: int, chosen: list[_RunChoice], nat_used: int, wilds_used: int) -> None:
        if self._bound(nat_used, wilds_used) <= self.best_points:
            return
        if i == len(self.run_slots):
            self._sets(0, chosen, [], nat_used, wilds_used)
            return
        slot = self.run_slots[i]
        same_as_previous = i > 0 and self.run_slots[i - 1] == slot
        for cand in self.run_candidates(slot, self.total_wilds - wilds_used):
            if same_as_previous and cand < chosen[-1]:
                continue
            if self.rules.same_suit_runs == "separated" and any(
                    c[0] == cand[0] and not (cand[1] > c[2] + 1 or cand[2] < c[1] - 1) for c in chosen):
                continue
            pts = self._take_run(cand, 1)
            self.remaining_nat_points -= pts
            chosen.append(cand)
            self._runs(i + 1, chosen, nat_used + pts, wilds_used + len(cand[3]))
            chosen.pop()
            self.remaining_nat_points += pts
            self._take_run(cand, -1)

    def _sets(self, i: int, runs: list[_RunChoice], chosen: list[_SetChoice], nat_used: int,
              wilds_used: int) -> None:
        if self._bound(nat_used, wilds_used) <= self.best_points:
            return
        if i == len(self.set_slots):
            self._leaf(runs, chosen, nat_used, wilds_used)
            return
        slot = self.set_slots[i]
        m = slot.min_size
        same_as_previous = i > 0 and self.set_slots[i - 1] == slot
        wilds_left = self.total_wilds - wilds_used
        used_ranks = {c[0] for c in chosen}
        cands: list[_SetChoice] = []
        for rank in range(1, 14):
            if not self.rules.same_rank_sets and rank in used_ranks:
                continue
            n = sum(self.counts[s * 16 + rank] for s in range(4))
            for k in range(1, min(n, m) + 1):
                w = max(0, m - k)
                if w > wilds_left or (self.majority and w >= k):
                    continue
                cands.append((rank, k, w))
        if not self.majority and wilds_left >= m:
            # A set of wilds alone (000: "Three JOKERS can be used to form a set"). Several such
            # sets are allowed: each may stand for a rank of its own.
            cands.append((0, 0, m))
        for cand in cands:
            if same_as_previous and cand < chosen[-1]:
                continue
            rank, k, w = cand
            taken = self._take_naturals_of_rank(rank, k)
            pts = sum(self.nat_points[c] for c in taken)
            self.remaining_nat_points -= pts
            chosen.append(cand)
            self._sets(i + 1, runs, chosen, nat_used + pts, wilds_used + w)
            chosen.pop()
            self.remaining_nat_points += pts
            for c in taken:
                self.counts[c] += 1

    def _take_naturals_of_rank(self, rank: int, k: int) -> list[int]:
        taken: list[int] = []
        if rank == 0:
            return taken
        # Highest-valued first: only a may-i set of 2s mixes values (black 2s against red 2s).
        suits = sorted(range(4), key=lambda s: -self.nat_points.get(s * 16 + rank, 0))
        for s in suits:
            c = s * 16 + rank
            while self.counts[c] > 0 and len(taken) < k:
                self.counts[c] -= 1
                taken.append(c)
        return taken

    def _bound(self, nat_used: int, wilds_used: int) -> int:
        return nat_used + self.remaining_nat_points + sum(self.wild_values)

    def _leaf(self, runs: list[_RunChoice], sets: list[_SetChoice], nat_used: int,
              wilds_used: int) -> None:
        # Absorb naturals left of a rank that has a set, and wilds up to the sets' capacity;
        # how many of each depends on which leftover sizes are allowed.
        naturals: list[int] = []
        for r in {r for r, _, _ in sets if r}:
            for s in range(4):
                c = s * 16 + r
                if self.counts[c]:
                    naturals.extend([self.nat_points[c]] * self.counts[c])
        naturals.sort(reverse=True)
        wilds = self.wild_values[wilds_used:]
        cards_used = sum(c[2] - c[1] + 1 for c in runs) + sum(k + w for _, k, w in sets)
        base_left = self.hand_size - cards_used
        base_points = nat_used + sum(self.wild_values[:wilds_used])
        core_naturals = sum(k for _, k, _ in sets)
        core_wilds = sum(w for _, _, w in sets)
        best_here: tuple[int, int, int] | None = None
        nat_sum = 0
        for a_n in range(len(naturals) + 1):
            if a_n:
                nat_sum += naturals[a_n - 1]
            if not sets:
                room = 0
            elif self.majority:
                room = max(0, core_naturals + a_n - len(sets) - core_wilds)
            else:
                room = len(wilds)
            wild_sum = 0
            for a_w in range(min(room, len(wilds)) + 1):
                if a_w:
                    wild_sum += wilds[a_w - 1]
                if base_left - a_n - a_w in self.forbidden:
                    continue
                points = base_points + nat_sum + wild_sum
                if best_here is None or points > best_here[0]:
                    best_here = (points, a_n, a_w)
        if best_here is not None and best_here[0] > self.best_points:
            self.best_points = best_here[0]
            self.best = (list(runs), list(sets), best_here[1], best_here[2])


def _subsets(items: list[int], most: int) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [()]
    for item in items:
        out += [s + (item,) for s in out if len(s) < most]
    return out


def solve_contract(hand: Sequence[Card], contract: Contract, rules: Rules, *,
                   forbidden_leftovers: Collection[int] = ()) -> Arrangement | None:
    """The arrangement meeting ``contract`` that leaves the fewest points, or None.

    ``forbidden_leftovers`` lists numbers of cards that may not be left in hand (the engine forbids
    leaving exactly one card where the last card may not be discarded).
    """
    hand = list(hand)
    if contract.min_cards > len(hand) or not may_meet_contract(hand, contract, rules):
        return None
    best: Arrangement | None = None
    twos = [c for c in (_TWO_SPADES, _TWO_CLUBS) if rules.is_wild(c)]
    n_twos = [hand.count(c) if _may_play_natural(c, hand, contract, rules) else 0 for c in twos]
    # A wild black 2 may also play as the natural 2 of its suit: try each split.
    splits: list[tuple[int, ...]] = [()]
    for n in n_twos:
        splits = [s + (k,) for s in splits for k in range(n + 1)]
    for split in splits:
        natural_twos = dict(zip(twos, split, strict=True))
        naturals: dict[int, int] = {}
        wild_cards: list[Card] = []
        for c in hand:
            if rules.is_wild(c) and natural_twos.get(c, 0) <= 0:
                wild_cards.append(c)
            else:
                if c in natural_twos:
                    natural_twos[c] -= 1
                naturals[c] = naturals.get(c, 0) + 1
        search = _Search(rules, contract, naturals, [rules.points(c) for c in wild_cards],
                         forbidden_leftovers)
        if best is not None:
            search.best_points = sum(rules.points(c) for c in hand) - best.leftover_points
        search.run()
        if search.best is not None:
            best = _build(search, naturals, wild_cards, contract, rules)
    return best


_WILD_CARDS = {"jokers": frozenset({JOKER}), "none": frozenset(),
               "jokers-and-black-twos": frozenset({JOKER, _TWO_SPADES, _TWO_CLUBS})}


def may_meet_contract(hand: Sequence[Card], contract: Contract, rules: Rules) -> bool:
    """A fast necessary condition: False when the hand surely cannot meet the contract.

    It counts the wild cards each meld needs at the least, treating every meld on its own (a card
    may be counted for a set and a run at once, and a black 2 both as a wild and as a natural), so
    it never says False wrongly; the search decides the rest.

    >>> from shanghai.rules import preset
    >>> from shanghai.cards import parse_cards
    >>> isra = preset("isra")
    >>> may_meet_contract(parse_cards("7H 7S 7D 9C 9D 5S 6S KD QD 3C 4C JK"), isra.contract(1), isra)
    True
    >>> may_meet_contract(parse_cards("7H 7S 9D 9C 2H 5S 6S KD QD 3C 4C 8H"), isra.contract(1), isra)
    False
    """
    wild_cards = _WILD_CARDS[rules.wilds]
    wilds = 0
    by_rank: dict[int, int] = {}
    masks = [0, 0, 0, 0]            # places held in each suit (bit p = place p, ace at 1 and 14)
    naturals_of_suit = [0, 0, 0, 0]
    for c in hand:
        if c in wild_cards:
            wilds += 1
        if c != JOKER:
            r = c & 15
            s = c >> 4
            by_rank[r] = by_rank.get(r, 0) + 1
            masks[s] |= (1 << r) | (1 << 14 if r == 1 else 0)
            naturals_of_suit[s] += 1
    majority = rules.wild_limit == "naturals-majority"
    need = 0
    sets = contract.sets
    if sets:
        if len(set(sets)) == 1:
            m, k_sets = sets[0], len(sets)
            least = (m + 2) // 2 if majority else 1   # naturals a set of m needs
            # The k-th set on a rank of n naturals costs max(0, k*m - n) - max(0, (k-1)*m - n)
            # wilds; these costs grow with k, so the cheapest k_sets of them are a lower bound.
            costs: list[int] = [] if majority else [m] * k_sets  # sets of wilds alone
            for n in by_rank.values():
                before = 0
                for k in range(1, k_sets + 1):
                    if n < k * least:
                        break
                    now = k * m - n if k * m > n else 0
                    costs.append(now - before)
                    before = now
            if len(costs) < k_sets:
                return False
            costs.sort()
            need += sum(costs[:k_sets])
            if need > wilds:
                return False
        else:
            for m in sets:
                need += min([max(0, m - n) for n in by_rank.values()] + ([] if majority else [m]), default=99)
    runs = contract.runs
    if runs:
        lo = 2 if rules.aces == "high-only" else 1
        hi = 13 if rules.aces == "low-only" else 14
        m = min(runs)
        allowed = ((1 << (hi + 1)) - 1) & ~((1 << lo) - 1)
        per_suit = [_best_window(mask & allowed, m, lo, hi, majority) if mask & allowed else 99
                    for mask in masks]
        if len(runs) == 1:
            need += min(per_suit)
        else:
            # k runs of one suit need at least k times its best window and k*m - (its naturals) wilds.
            least_runs = 99
            for split in _splits(len(runs), 4):
                total = 0
                for s, k in enumerate(split):
                    if k:
                        total += 99 if per_suit[s] >= 99 else max(k * per_suit[s], k * m - naturals_of_suit[s])
                if total < least_runs:
                    least_runs = total
            need += least_runs
    return need <= wilds


@functools.cache
def _best_window(mask: int, m: int, lo: int, hi: int, majority: bool) -> int:
    """Fewest wilds that complete a run of at least ``m`` places over the naturals in ``mask``."""
    best = 99
    # With more naturals than wilds required, a longer window may be the only one possible.
    longest = min(hi - lo + 1, 13) if majority else m
    for length in range(m, longest + 1):
        window = (1 << length) - 1
        for start in range(lo, hi - length + 2):
            have = (mask & (window << start)).bit_count()
            if have == 0 or (majority and have <= length - have):
                continue
            if length - have < best:
                best = length - have
        if best == 0:
            break
    return best


@functools.cache
def _splits(total: int, parts: int) -> tuple[tuple[int, ...], ...]:
    if parts == 1:
        return ((total,),)
    return tuple((k, *rest) for k in range(total + 1) for rest in _splits(total - k, parts - 1))


def _may_play_natural(two: Card, hand: Sequence[Card], contract: Contract, rules: Rules) -> bool:
    """Can a wild black 2 be of use as the natural 2 of its suit? Only in a set of 2s, or in a run
    of its suit; with more naturals than wilds, such a run holds another natural of that suit.
    Where it cannot, playing it as a natural is never better than playing it as a wild."""
    kinds = {m.kind for m in contract.melds}
    if "set" in kinds:
        return True
    if "run" not in kinds:
        return False
    if rules.wild_limit != "naturals-majority":
        return True
    return any(not rules.is_wild(c) and c >> 4 == two >> 4 for c in hand)


def _build(search: _Search, naturals: dict[int, int], wild_cards: list[Card],
           contract: Contract, rules: Rules) -> Arrangement:
    assert search.best is not None
    runs, sets, absorb_naturals, absorb_wilds = search.best
    nat_pool = dict(naturals)
    wild_pool = sorted(wild_cards, key=lambda c: (-rules.points(c), c))

    def take_natural(c: int) -> Card:
        nat_pool[c] -= 1
        return Card(c)

    def naturals_of_rank(rank: int) -> list[Card]:
        # the search takes the highest-valued naturals of a rank first
        cards = [Card(c) for c, n in nat_pool.items() for _ in range(n) if (c & 15) == rank]
        return sorted(cards, key=lambda c: (-rules.points(c), c))

    built_runs: list[Meld] = []
    for suit, low, high, wild_places in runs:
        cards = [wild_pool.pop(0) if p in wild_places else take_natural(make_card(p, suit))
                 for p in range(low, high + 1)]
        built_runs.append(_check_run_layout(tuple(cards), suit, low, rules))
    set_cards: list[list[Card]] = []
    for rank, k, w in sets:
        cs = [take_natural(c) for c in naturals_of_rank(rank)[:k]] if rank else []
        cs.extend(wild_pool.pop(0) for _ in range(w))
        set_cards.append(cs)
    set_ranks = [rank for rank, _, _ in sets]
    extra = sorted((c for r in set(set_ranks) if r for c in naturals_of_rank(r)),
                   key=lambda c: (-rules.points(c), c))[:absorb_naturals]
    for c in extra:
        set_cards[set_ranks.index(c & 15)].append(take_natural(c))
    for _ in range(absorb_wilds):
        _set_with_room(set_cards, set_ranks, rules).append(wild_pool.pop(0))
    built_sets = [check_set(cs, rules, rank=rank or None) for cs, rank in
                  zip(set_cards, set_ranks, strict=True)]
    melds: list[Meld] = []
    it_runs, it_sets = iter(built_runs), iter(built_sets)
    for req in contract.melds:
        melds.append(next(it_runs) if req.kind == "run" else next(it_sets))
    leftover = [Card(c) for c, n in nat_pool.items() for _ in range(n)] + wild_pool
    leftover.sort(key=lambda c: (c == JOKER, c & 15, c >> 4))
    return Arrangement(tuple(melds), tuple(leftover), sum(rules.points(c) for c in leftover))


def _set_with_room(set_cards: list[list[Card]], set_ranks: list[int], rules: Rules) -> list[Card]:
    for cs, rank in zip(set_cards, set_ranks, strict=True):
        if rules.wild_limit != "naturals-majority":
            return cs
        naturals = sum(1 for c in cs if not rules.is_wild(c) or (c != JOKER and rank == 2))
        if len(cs) - naturals < naturals - 1:
            return cs
    raise AssertionError("no set has room for a wild the solver counted")


def meets_contract(hand: Sequence[Card], contract: Contract, rules: Rules) -> bool:
    """Does the hand hold the contract?"""
    return solve_contract(hand, contract, rules) is not None
