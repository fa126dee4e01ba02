"""The contract problem as an integer program, solved with ``scipy.optimize.milp`` (HiGHS).

An independent check of ``shanghai.solver`` in the manner of den Hertog and Hulshof's integer
program for rummy: one integer variable per candidate meld, card counts as knapsack rows, the
contract as equality rows. It uses nothing of the solver and nothing of ``shanghai.melds``: the
candidate melds are enumerated here from the rules' fields alone.

Candidates (every *layout* the hand allows):

* runs: every suit, every interval of places (1 = low ace ... 14 = high ace; no interval holds both
  aces; ``aces == "high-only"`` drops place 1, ``"low-only"`` place 14), at least the contract's run
  size and at most 13 places; each place holds its natural card (when the hand has one) or a wild,
  and every choice of which held naturals a wild replaces is a candidate of its own (it frees the
  natural for another meld). A black 2 in its own place (the 2 of its suit) is that natural card.
  A run holds at least one natural; ``wild_limit`` ``"no-adjacent-in-runs"``: no two wild places
  side by side; ``"naturals-majority"``: more naturals than wilds; ``"none"``: no other limit.
* sets: every rank and every number of each natural card of that rank (a may-i black 2 is a
  natural in a set of 2s) and of wilds, at least one natural, at least the contract's set size;
  ``"naturals-majority"``: more naturals than wilds. Sets of wilds alone where the limit is not
  ``"naturals-majority"``; they have no rank.

Wilds of different points are told apart (a joker counts 50, a may-i black 2 20): the wilds are
pooled, one integer variable per wild card (how many copies of it play as wilds), and the places a
layout leaves to wilds must be filled from that pool. Which wild fills which place never decides
whether a meld is legal, so this is the same as one candidate per assignment of wild cards to
places (``wilds="layouts"``, the literal enumeration, slower: HiGHS meets many symmetric columns).

Constraints: each card used at most as often as held (as a natural and as a wild together); exactly
the contract's number of sets and of runs (every preset's contract gives all its sets one size and
all its runs one size, asserted, so a slot is a count); ``same_suit_runs == "separated"``: two runs
of one suit leave a place between them (``conflicts="pairs"``: one row per conflicting pair; by
default one row per suit and place, "at most one run of this suit covers place p or ends just
before it", which has exactly the same integer solutions since runs are intervals: Helly);
``same_rank_sets`` False: at most one set per rank. Objective: the most points laid, that is the
fewest left in hand.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import coo_array

from shanghai.cards import JOKER, Card
from shanghai.rules.model import Contract, Rules

Conflicts = Literal["places", "pairs"]
Wilds = Literal["pooled", "layouts"]


@dataclass(frozen=True, slots=True)
class Candidate:
    """One meld the hand could lay, in place order for a run; None marks a card a wild plays
    (only in pooled candidates; ``MilpAnswer.melds`` has them filled)."""

    kind: Literal["set", "run"]
    cards: tuple[Card | None, ...]
    rank: int = -1  # a set's rank, 0 for wilds alone; -1 for a run
    suit: int = -1
    low: int = 0  # a run's first and last places (1-14)
    high: int = 0

    def uses(self) -> Counter[Card]:
        return Counter(c for c in self.cards if c is not None)

    @property
    def wild_slots(self) -> int:
        return sum(1 for c in self.cards if c is None)

    def filled(self, wilds: Iterator[Card]) -> tuple[Card, ...]:
        return tuple(next(wilds) if c is None else c for c in self.cards)


@dataclass(frozen=True, slots=True)
class MilpAnswer:
    leftover_points: int
    melds: tuple[tuple[Candidate, tuple[Card, ...]], ...]  # each chosen meld and its cards
    candidates: int


def _natural(place: int, suit: int) -> Card:
    return Card(suit * 16 + (1 if place == 14 else place))


def _wild_multisets(wilds: dict[Card, int], size: int) -> Iterator[tuple[Card, ...]]:
    """Every multiset of ``size`` wild cards from those held (sorted tuples)."""
    kinds = sorted(wilds)

    def rec(i: int, left: int) -> Iterator[tuple[Card, ...]]:
        if left == 0:
            yield ()
            return
        if i == len(kinds):
            return
        for k in range(min(left, wilds[kinds[i]]), -1, -1):
            for rest in rec(i + 1, left - k):
                yield (kinds[i],) * k + rest

    yield from rec(0, size)


def _fills(template: tuple[Card | None, ...], wilds: dict[Card, int], how: Wilds,
           counts: Counter[Card]) -> Iterator[tuple[Card | None, ...]]:
    """The template itself (pooled) or each way to fill its wild places with held wild cards."""
    if how == "pooled":
        yield template
        return
    for fill in _wild_multisets(wilds, sum(1 for c in template if c is None)):
        it = iter(fill)
        cards = tuple(next(it) if c is None else c for c in template)
        if all(n <= counts[c] for c, n in Counter(cards).items()):  # a black 2 natural and wild
            yield cards


def run_candidates(counts: Counter[Card], rules: Rules, min_size: int,
                   how: Wilds = "pooled") -> list[Candidate]:
    wilds = {c: n for c, n in counts.items() if rules.is_wild(c)}
    n_wilds = sum(wilds.values())
    first = 2 if rules.aces == "high-only" else 1
    last = 13 if rules.aces == "low-only" else 14
    out: list[Candidate] = []
    for suit in range(4):
        for low in range(first, last + 1):
            for high in range(low + min_size - 1, min(last, low + 12) + 1):
                places = range(low, high + 1)
                held = [p for p in places if counts[_natural(p, suit)] > 0]
                missing = [p for p in places if counts[_natural(p, suit)] == 0]
                if len(missing) > n_wilds:
                    break  # a longer interval misses at least as many
                for k in range(0, n_wilds - len(missing) + 1):
                    for swapped in itertools.combinations(held, k):
                        wild_places = sorted((*missing, *swapped))
                        n_nat = len(places) - len(wild_places)
                        if n_nat < 1:
                            continue
                        if rules.wild_limit == "naturals-majority" and n_nat <= len(wild_places):
                            continue
                        if rules.wild_limit == "no-adjacent-in-runs" and any(
                                b - a == 1 for a, b in itertools.pairwise(wild_places)):
                            continue
                        template = tuple(None if p in wild_places else _natural(p, suit) for p in places)
                        out.extend(Candidate("run", cards, suit=suit, low=low, high=high)
                                   for cards in _fills(template, wilds, how, counts))
    return out


def set_candidates(counts: Counter[Card], rules: Rules, min_size: int,
                   how: Wilds = "pooled") -> list[Candidate]:
    out: list[Candidate] = []
    majority = rules.wild_limit == "naturals-majority"
    for rank in range(1, 14):
        naturals = [Card(s * 16 + rank) for s in range(4) if counts[Card(s * 16 + rank)] > 0]
        if not naturals:
            continue
        # in a set of 2s a may-i black 2 is the natural 2 of its suit; elsewhere it is wild
        wilds = {c: n for c, n in counts.items() if rules.is_wild(c) and c not in naturals}
        for numbers in itertools.product(*(range(counts[c] + 1) for c in naturals)):
            n_nat = sum(numbers)
            if n_nat == 0:
                continue
            nat_cards = tuple(c for c, n in zip(naturals, numbers, strict=True) for _ in range(n))
            most = sum(wilds.values())
            if majority:
                most = min(most, n_nat - 1)
            for w in range(max(0, min_size - n_nat), most + 1):
                out.extend(Candidate("set", cards, rank=rank)
                           for cards in _fills(nat_cards + (None,) * w, wilds, how, counts))
    if not majority and counts[JOKER] >= min_size:  # "Three JOKERS can be used to form a set"
        out.extend(Candidate("set", (JOKER,) * n, rank=0) for n in range(min_size, counts[JOKER] + 1))
    return out


def solve_milp(hand: Sequence[Card], contract: Contract, rules: Rules, *,
               conflicts: Conflicts = "places", wilds: Wilds = "pooled") -> MilpAnswer | None:
    """The fewest points left in hand by an arrangement meeting ``contract`` exactly, or None."""
    set_sizes, run_sizes = set(contract.sets), set(contract.runs)
    assert len(set_sizes) <= 1 and len(run_sizes) <= 1, f"slots of several sizes: {contract.text()}"
    counts = Counter(hand)
    cands: list[Candidate] = []
    if contract.sets:
        cands += set_candidates(counts, rules, max(rules.set_min, *set_sizes), wilds)
    if contract.runs:
        cands += run_candidates(counts, rules, max(rules.run_min, *run_sizes), wilds)
    if not cands:
        return None
    # columns: the candidates, then (pooled) one per wild card: how many copies play as wilds
    pool = sorted(c for c in counts if rules.is_wild(c)) if wilds == "pooled" else []
    n_cols = len(cands) + len(pool)
    separated = rules.same_suit_runs == "separated"
    rows: list[tuple[dict[int, float], float, float]] = []  # (coefficients, lower, upper)
    by_card: dict[Card, dict[int, float]] = {}
    upper = np.zeros(n_cols)
    points = np.zeros(n_cols)
    for i, m in enumerate(cands):
        use = m.uses()
        for c, n in use.items():
            by_card.setdefault(c, {})[i] = float(n)
        points[i] = sum(rules.points(c) * n for c, n in use.items())
        slots = len(contract.sets) if m.kind == "set" else len(contract.runs)
        upper[i] = min(slots, *(counts[c] // n for c, n in use.items()))
        if (m.kind == "run" and separated) or (m.kind == "set" and m.rank > 0 and not rules.same_rank_sets):
            upper[i] = min(upper[i], 1)  # a meld clashes with a copy of itself
    for j, c in enumerate(pool, len(cands)):
        by_card.setdefault(c, {})[j] = 1.0
        upper[j] = counts[c]
        points[j] = rules.points(c)
    for c, coef in by_card.items():
        rows.append((coef, 0.0, float(counts[c])))
    if pool:  # the pooled wilds fill exactly the wild places of the chosen melds
        balance = {i: float(m.wild_slots) for i, m in enumerate(cands) if m.wild_slots}
        balance.update({j: -1.0 for j in range(len(cands), n_cols)})
        rows.append((balance, 0.0, 0.0))
    for kind, need in (("set", len(contract.sets)), ("run", len(contract.runs))):
        rows.append(({i: 1.0 for i, m in enumerate(cands) if m.kind == kind}, float(need), float(need)))
    if separated:
        runs = [i for i, m in enumerate(cands) if m.kind == "run"]
        if conflicts == "pairs":
            for i, j in itertools.combinations(runs, 2):
                a, b = cands[i], cands[j]
                if a.suit == b.suit and not (a.low > b.high + 1 or b.low > a.high + 1):
                    rows.append(({i: 1.0, j: 1.0}, 0.0, 1.0))
        else:
            for suit in range(4):
                for place in range(1, 16):
                    covering = {i: 1.0 for i in runs
                                if cands[i].suit == suit and cands[i].low <= place <= cands[i].high + 1}
                    if len(covering) > 1:
                        rows.append((covering, 0.0, 1.0))
    if not rules.same_rank_sets:
        for rank in range(1, 14):
            same = {i: 1.0 for i, m in enumerate(cands) if m.kind == "set" and m.rank == rank}
            if len(same) > 1:
                rows.append((same, 0.0, 1.0))
    r_idx = [r for r, (coef, _, _) in enumerate(rows) for _ in coef]
    c_idx = [i for coef, _, _ in rows for i in coef]
    vals = [v for coef, _, _ in rows for v in coef.values()]
    matrix = coo_array((vals, (r_idx, c_idx)), shape=(len(rows), n_cols)).tocsr()
    constraint = LinearConstraint(matrix, np.array([lo for _, lo, _ in rows]),
                                  np.array([hi for _, _, hi in rows]))
    result = milp(-points, constraints=constraint, integrality=np.ones(n_cols),
                  bounds=Bounds(np.zeros(n_cols), upper), options={"mip_rel_gap": 0.0})
    if result.status == 2:  # infeasible
        return None
    assert result.status == 0 and result.x is not None, result.message
    x = np.round(result.x).astype(int)
    laid = int(sum(points[j] * x[j] for j in range(n_cols)))
    assert abs(laid + result.fun) < 1e-6, (laid, result.fun)
    wild_cards = iter([c for j, c in enumerate(pool, len(cands)) for _ in range(x[j])])
    chosen = tuple((m, m.filled(wild_cards)) for i, m in enumerate(cands) for _ in range(x[i]))
    assert next(wild_cards, None) is None
    return MilpAnswer(sum(rules.points(c) for c in hand) - laid, chosen, len(cands))
