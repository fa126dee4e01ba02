"""The contract solver: does a hand meet a contract, and which arrangement leaves the fewest points?

Exact by construction, in two parts:

* ``_Fast`` (every contract whose sets are of one size and runs of one size, with no count of
  leftover cards forbidden, or where the best arrangement leaves an allowed count): points melded
  are natural points plus the points of the wilds melded, the most valuable first, so naturals are
  counts per card and wilds a number. Runs only: runs of different suits share only the wilds, so
  each suit gets a table of the most natural points j runs of it give with exactly w wilds, and the
  tables combine (the richest suit last, searched against what the others give). Sets absorb every
  natural of their rank the runs leave and the wilds they can hold; which ranks is a small branch and
  bound. Sets and runs: a depth-first search over the runs with a bound, each leaf closed by the sets.
  The comments in ``_Fast`` say why each shortcut loses no arrangement.
* ``_Search`` (any contract, and counts of cards that may not be left): a depth-first search that
  lays the contract's runs first (every interval, every choice of natural or wild in each place),
  then its sets (a minimal core per set), and finally lets the sets absorb every remaining natural of
  their rank and every wild they can hold.

``tests/test_solver.py`` checks both against an independent brute force over all sub-multisets of
thousands of random hands; ``tests/test_solver_corpus.py`` checks the corpus of
``benchmarks/data/solver_corpus.jsonl`` against its stored answers and an integer program.

>>> from shanghai.rules import preset
>>> from shanghai.cards import parse_cards
>>> isra = preset("isra")
>>> best = solve_contract(parse_cards("7H 7S 7D 5C 6C 8C JK KD KS 2H 9C"), isra.contract(2), isra)
>>> [m.text() for m in best.melds], best.leftover_text(), best.leftover_points
(['7S 7H 7D', '5C 6C JK 8C 9C'], ['2H', 'KS', 'KD'], 25)
"""

from __future__ import annotations

import bisect
import functools
import itertools
import operator
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import cast

from shanghai.cards import ALL_NATURALS, JOKER, Card, card_text, make_card
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



# =================================================================================================
# The fast exact solver (every set of one size, every run of one size)
#
# Points melded = natural points melded + the points of the wilds melded, and which wilds are melded
# never matters but for their number: the most valuable ones are. So every part of the search works
# with natural cards as counts (suit * 16 + rank) and with wilds as a number.
#
# * Runs only: runs of different suits share nothing but the wilds. For each suit, the multisets of
#   run extents (intervals of places) are searched, each run taking every natural in its extent (a
#   card that runs of the suit both cover, with too few copies for all, goes to any of them: each
#   sharing is tried); a wild may also take the place of a natural ("parking" a wild that has no
#   other place), the cheapest naturals first within the wild limit (a parked natural is left in
#   hand, so the cheapest is best). That gives, per suit, the most natural points for j runs using
#   exactly w wilds; the tables combine, and the suit with the most extents is searched last,
#   against the best the other suits and the wilds add to each of its entries (one bound).
#   Branches are cut by the natural points still reachable from the current place up, and by the
#   fewest wilds the runs need.
# * Sets: the sets of a contract absorb every natural of their rank left by the runs, and wilds up to
#   their capacity; which ranks to take is a small branch and bound over the ranks (``set_best``).
# * Sets and runs: a depth-first search over the runs' extents, each leaf closed by ``set_best``,
#   cut by a bound (the runs' points plus the best the sets could do with the cards left). Where a
#   set may hold any wild (no "naturals-majority"), a wild at the end of a run longer than needed
#   may as well go to a set, and a run never gives up a natural (the set would need one wild more
#   for it, the run one less). With "naturals-majority", a run may give up a natural a set can use
#   (of a rank with enough naturals for a set; with one set in the contract, each rank is tried for
#   it in turn, and only that rank's naturals), and parks wilds as above.
# * A black 2 played as a natural (a split of the hand) is tried only where it can be of use as one.
# * Kept from call to call, by a suit's cards (and the rules, the run size and the wilds): a suit's
#   run extents, the fewest wilds its runs need, and its table of runs where no bound from the other
#   suits cuts it. Each reads nothing of the hand but that suit's cards, so hands met again, and
#   hands that differ from an earlier one in other suits, find them made.
# * The per-call work is done once: one pass over the hand gives the counts that
#   ``may_meet_contract``'s bound, the splits and the solver read; the arrangement is built from the
#   counts the solver proved (a Meld is made directly, not validated again).
# =================================================================================================

class _Info:
    """Facts of a Rules value the fast solver reads, computed once per Rules object."""

    __slots__ = (
        "hi_place",
        "lo_place",
        "majority",
        "min_pt",
        "no_adjacent",
        "pts",
        "rules",
        "same_rank_sets",
        "separated",
        "wild",
        "wild_key",
        "wild_twos",
        "wilds_of",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.pts = [rules.points(c) if c == JOKER or (1 <= (c & 15) <= 13 and c < 64) else 0
                    for c in range(65)]
        self.lo_place = 2 if rules.aces == "high-only" else 1
        self.hi_place = 13 if rules.aces == "low-only" else 14
        self.majority = rules.wild_limit == "naturals-majority"
        self.no_adjacent = rules.wild_limit == "no-adjacent-in-runs"
        self.separated = rules.same_suit_runs == "separated"
        self.same_rank_sets = rules.same_rank_sets
        self.min_pt = min(self.pts[c] for c in ALL_NATURALS)
        self.wild = [rules.is_wild(c) for c in range(65)]
        self.wild_key = [(-self.pts[c], c) for c in range(65)]  # the most valuable first
        self.wild_twos = tuple(c for c in (_TWO_SPADES, _TWO_CLUBS) if self.wild[c])
        self.wilds_of = tuple(c for c in (JOKER, _TWO_SPADES, _TWO_CLUBS) if self.wild[c])


_INFOS: dict[int, _Info] = {}


def _info(rules: Rules) -> _Info:
    info = _INFOS.get(id(rules))
    if info is None or info.rules is not rules:
        if len(_INFOS) > 64:
            _INFOS.clear()
        info = _INFOS[id(rules)] = _Info(rules)
    return info


# A run as laid: (suit, low place, high place, cards of its places, natural flag per place)
_Run = tuple[int, int, int, tuple[int, ...], tuple[bool, ...]]
# A run option: (natural points, wilds, suit, low, high, cards, places that want a natural)
_Option = tuple[int, int, int, int, int, tuple[int, ...], tuple[bool, ...]]
# Sets as chosen: ((rank, number of sets on it, core wilds), ...), wild-only sets, wilds in sets
_SetPlan = tuple[tuple[tuple[int, int, int], ...], int, int]


# Extents of runs of one suit: (low, high, cards) each, the places holding a natural, the natural
# points, the gaps; and the natural points of places 1..p for each place p (``cum[p]``)
_Extents = tuple[tuple[tuple[int, int, tuple[int, ...]], ...], tuple[tuple[bool, ...], ...],
                 tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def _intervals(counts: list[int], suit: int, m: int, wilds: int, info: _Info, trim: bool = False
               ) -> _Extents:
    """Every extent (low, high, cards) a run of ``suit`` may take when it lays every natural it
    covers and wilds in the other places: at most ``wilds`` gaps, within the wild limit. ``trim``:
    only those of the least size or with naturals at both ends (where a set can take any wild, a
    wild at the end of a longer run may as well go there)."""
    base = suit * 16
    mask = 0
    n = 0
    for r in range(1, 14):
        if counts[base + r]:
            mask |= 1 << r
            n += 1
    if n + wilds < m:
        return _NO_EXTENTS
    if mask & 2:
        mask |= 1 << 14
    return _extents(info, suit, mask, m, wilds, trim)


_NO_EXTENTS: _Extents = ((), (), (), (), ())
_NO_ENTRY = (-1, ())
_SUIT_CARDS = tuple(tuple([0] + [s * 16 + r for r in range(1, 14)] + [s * 16 + 1]) for s in range(4))


@functools.lru_cache(maxsize=1 << 15)
def _extents(info: _Info, suit: int, mask: int, m: int, wilds: int, trim: bool) -> _Extents:
    """``_intervals`` for the places in ``mask`` (bit p: place p holds a natural)."""
    triples: list[tuple[int, int, tuple[int, ...]]] = []
    all_flags: list[tuple[bool, ...]] = []
    natps: list[int] = []
    all_gaps: list[int] = []
    suit_cards = _SUIT_CARDS[suit]
    pts = info.pts
    present = tuple(bool(mask >> p & 1) for p in range(15))
    cum = [0] * 16
    for p in range(1, 15):
        cum[p] = cum[p - 1] + (pts[suit_cards[p]] if present[p] else 0)
    lo_place, hi_place = info.lo_place, info.hi_place
    majority, no_adjacent = info.majority, info.no_adjacent
    for lo in range(lo_place, hi_place - m + 2):
        gaps = nat = 0
        prev_gap = False
        for p in range(lo, min(hi_place, lo + 12) + 1):
            if present[p]:
                nat += 1
                prev_gap = False
            else:
                gaps += 1
                if gaps > wilds or (no_adjacent and prev_gap):
                    break
                prev_gap = True
            if p - lo + 1 >= m and nat and (not majority or gaps < nat) and \
                    (not trim or p - lo + 1 == m or (present[lo] and present[p])):
                triples.append((lo, p, suit_cards[lo:p + 1]))
                all_flags.append(present[lo:p + 1])
                natps.append(cum[p] - cum[lo - 1])
                all_gaps.append(gaps)
    return tuple(triples), tuple(all_flags), tuple(natps), tuple(all_gaps), tuple(cum)


def _valid_flags(flags: Sequence[bool], info: _Info) -> bool:
    nat = sum(flags)
    if nat == 0:
        return False
    if info.majority and len(flags) - nat >= nat:
        return False
    if info.no_adjacent:
        prev = True
        for f in flags:
            if not f and not prev:
                return False
            prev = f
    return True


def _park_options(cards: tuple[int, ...], flags: tuple[bool, ...], most: int, info: _Info
                  ) -> list[tuple[int, tuple[int, ...]] | None]:
    """For t = 0..most wilds put in place of naturals of this run: the fewest natural points that
    costs and the places (indices) to change, or None where the wild limit allows no way."""
    pts = info.pts
    nat_idx = [i for i, f in enumerate(flags) if f]
    n = len(nat_idx)
    w = len(flags) - n
    out: list[tuple[int, tuple[int, ...]] | None] = [(0, ())]
    if not info.no_adjacent:
        order = sorted(nat_idx, key=lambda i: pts[cards[i]])
        cost = 0
        for t in range(1, most + 1):
            if t > n - 1 or (info.majority and w + t >= n - t):
                out.append(None)
                continue
            cost += pts[cards[order[t - 1]]]
            out.append((cost, tuple(order[:t])))
        return out
    # No two wilds side by side: a small dynamic programme along the run.
    # state: (previous place is wild, wilds added) -> (cost, places)
    states: dict[tuple[bool, int], tuple[int, tuple[int, ...]]] = {(False, 0): (0, ())}
    last = len(flags) - 1
    for i, f in enumerate(flags):
        nxt: dict[tuple[bool, int], tuple[int, tuple[int, ...]]] = {}
        for (prev_wild, t), (cost, chosen) in states.items():
            if not f:
                if not prev_wild:
                    old = nxt.get((True, t))
                    if old is None or old[0] > cost:
                        nxt[(True, t)] = (cost, chosen)
                continue
            old = nxt.get((False, t))
            if old is None or old[0] > cost:
                nxt[(False, t)] = (cost, chosen)
            if t < most and not prev_wild and (i == last or flags[i + 1]):
                c2 = cost + pts[cards[i]]
                old = nxt.get((True, t + 1))
                if old is None or old[0] > c2:
                    nxt[(True, t + 1)] = (c2, (*chosen, i))
        states = nxt
    for t in range(1, most + 1):
        found = [v for (_, tt), v in states.items() if tt == t]
        out.append(min(found) if found and t <= n - 1 else None)
    return out


def _assignments(runs: Sequence[tuple[int, int, tuple[int, ...]]], counts: list[int],
                 wants: Sequence[tuple[bool, ...]] | None = None) -> list[list[tuple[bool, ...]]]:
    """Every way runs of one suit may share the naturals they all cover (flags per run): a card
    wanted by more runs than it has copies goes to any of them. ``wants``: the places where each
    run takes a natural when there is one (every place by default)."""
    if wants is None:
        base = [[counts[c] > 0 for c in cards] for _, _, cards in runs]
    else:
        base = [[f and counts[c] > 0 for c, f in zip(cards, fl, strict=True)]
                for (_, _, cards), fl in zip(runs, wants, strict=True)]
    occ: dict[int, list[tuple[int, int]]] = {}
    for ri, (_, _, cards) in enumerate(runs):
        for pi, c in enumerate(cards):
            if base[ri][pi]:
                occ.setdefault(c, []).append((ri, pi))
    contested = [(lst, counts[c]) for c, lst in occ.items() if len(lst) > counts[c]]
    if not contested:
        return [[tuple(f) for f in base]]
    out: list[list[tuple[bool, ...]]] = []
    per_card = [list(itertools.combinations(lst, k)) for lst, k in contested]
    for pick in itertools.product(*per_card):
        flags = [list(f) for f in base]
        for (lst, _), chosen in zip(contested, pick, strict=True):
            for ri, pi in lst:
                flags[ri][pi] = (ri, pi) in chosen
        out.append([tuple(f) for f in flags])
    return out


class _Found(Exception):
    pass


def _fewest_wilds(counts: list[int], extents: _Extents, most_runs: int, wilds: int, info: _Info,
                  only_most: bool = False) -> list[int]:
    """The fewest wilds j runs of one suit need, for j = 0..most_runs (``wilds`` + 1: more than
    ``wilds``). ``only_most``: only lower bounds, and the search stops at the first ``most_runs``
    runs within ``wilds`` (it tells whether this suit alone may hold them all)."""
    ivs, _, _, gaps, _ = extents
    J = most_runs
    wmin = [0] + [wilds + 1] * J
    if not ivs:
        return wmin
    if J == 1:
        wmin[1] = min(gaps)
        return wmin
    use = [0] * 65
    sep = info.separated
    chosen: list[tuple[int, int, tuple[int, ...]]] = []
    n_ivs = len(ivs)
    suit_cards = _SUIT_CARDS[ivs[0][2][0] >> 4]
    m = min(hi - lo + 1 for lo, hi, _ in ivs)

    # Runs of one suit kept apart come in the order of their places: the next one starts two
    # places after the last one ends, with room for the rest.
    first_at = [n_ivs] * 17
    for i in range(n_ivs - 1, -1, -1):
        first_at[ivs[i][0]] = i
    for p in range(15, -1, -1):
        first_at[p] = min(first_at[p], first_at[p + 1])

    def fewest(start: int, w: int) -> None:
        j = len(chosen)
        last_lo = -1
        avail = 0
        for i in range(start, n_ivs):
            if w + gaps[i] >= wmin[J] and (only_most or w + gaps[i] >= wmin[j + 1]):
                continue
            lo, hi, cards = ivs[i]
            if sep and any(lo <= h2 + 1 and hi >= l2 - 1 for l2, h2, _ in chosen):
                continue
            if only_most and lo != last_lo:
                # the naturals left at this place and above: all that the later runs can use
                last_lo = lo
                avail = 0
                for p in range(lo, 15):
                    c = suit_cards[p]
                    if counts[c] > use[c]:
                        avail += counts[c] - use[c]
            dw = 0
            for c in cards:
                use[c] += 1
                if use[c] > counts[c]:
                    dw += 1
            if w + dw < wmin[j + 1]:
                wmin[j + 1] = w + dw
                if only_most and j + 1 == J:
                    raise _Found  # the suit holds the runs with the wilds there are
            # with ``only_most``, the runs after this one need a wild for each place the
            # naturals left cannot fill
            short = (J - j - 1) * m - (avail - len(cards) + dw) if only_most else 0
            if j + 1 < J and w + dw + max(0, short) < wmin[J]:
                chosen.append(ivs[i])
                if not sep:
                    fewest(i, w + dw)
                elif info.hi_place - hi - 1 >= m:
                    fewest(first_at[min(hi + 2, 16)], w + dw)
                chosen.pop()
            for c in cards:
                use[c] -= 1

    try:
        fewest(0, 0)
    except _Found:
        wmin[J] = 0  # (a lower bound: the search stopped at the first runs within the wilds)
    if only_most:
        n = sum(counts[c] for c in suit_cards[1:14])
        wmin[1] = min(gaps)
        for j in range(2, J):
            wmin[j] = max(0, j * m - n)
    for j in range(J - 1, 0, -1):
        wmin[j] = min(wmin[j], wmin[j + 1])
    return wmin


_FEWEST: dict[tuple[object, ...], list[int]] = {}
_SUIT_TABLES: dict[tuple[object, ...], dict[tuple[int, int], tuple[int, tuple[_Run, ...]]]] = {}


def _fewest_of_suit(counts: list[int], suit: int, extents: _Extents, m: int, most_runs: int,
                    wilds: int, info: _Info, only_most: bool = False, trim: bool = False
                    ) -> list[int]:
    """``_fewest_wilds`` for ``extents`` of ``suit`` (runs of ``m``, ``trim`` as made), kept by the
    suit's cards: it reads nothing else of the hand. The list returned is shared: not to change."""
    base = suit * 16
    key = (info, suit, m, most_runs, wilds, only_most, trim, *counts[base + 1:base + 14])
    found = _FEWEST.get(key)
    if found is None:
        if len(_FEWEST) >= 1 << 15:
            _FEWEST.clear()
        found = _FEWEST[key] = _fewest_wilds(counts, extents, most_runs, wilds, info, only_most)
    return found


_SuitPart = tuple[_Extents, list[_Option], int, tuple[tuple[int, int, int], ...]]
_SUIT_PARTS: dict[tuple[object, ...], _SuitPart] = {}


def _suit_part(info: _Info, counts: list[int], suit: int, m: int, wilds: int, trim: bool
               ) -> _SuitPart:
    """What ``_Fast.mixed`` reads of one suit, kept by the suit's cards (it reads nothing else of
    the hand): its extents (``_intervals``), its run options (natural points, wilds, suit, low,
    high, cards, places holding a natural) in the extents' order, the points of its naturals that
    some extent covers, and (rank, naturals, points) of each rank held whose naturals none covers
    the points of (points 0 when covered). The lists are shared: not to change."""
    base = suit * 16
    key = (info, suit, m, wilds, trim, *counts[base + 1:base + 14])
    found = _SUIT_PARTS.get(key)
    if found is not None:
        return found
    ext = _intervals(counts, suit, m, wilds, info, trim)
    options: list[_Option] = []
    cover = 0
    for (lo, hi, cards), flags, natp, nw in zip(*ext[:4], strict=True):
        cover |= ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)
        options.append((natp, nw, suit, lo, hi, cards, flags))
    if cover & (1 << 14):
        cover |= 2
    pts = info.pts
    cover_pts = 0
    ranks: list[tuple[int, int, int]] = []
    for c in range(base + 1, base + 14):
        n = counts[c]
        if n:
            r = c & 15
            if cover >> r & 1:
                cover_pts += n * pts[c]
                ranks.append((r, n, 0))
            else:
                ranks.append((r, n, n * pts[c]))
    found = (ext, options, cover_pts, tuple(ranks))
    if len(_SUIT_PARTS) >= 1 << 15:
        _SUIT_PARTS.clear()
    _SUIT_PARTS[key] = found
    return found


def _runs_least_wilds(per_suit: list[list[int]], runs: int) -> int:
    """The fewest wilds ``runs`` runs need over the suits, from each suit's fewest."""
    best = [0] + [1 << 20] * runs
    for wmin in per_suit:
        nxt = list(best)
        for j1 in range(runs + 1):
            if best[j1] >= 1 << 20:
                continue
            for j2 in range(1, runs - j1 + 1):
                if j2 < len(wmin) and best[j1] + wmin[j2] < nxt[j1 + j2]:
                    nxt[j1 + j2] = best[j1] + wmin[j2]
        best = nxt
    return best[runs]


class _Fast:
    """One split of a hand into naturals (``counts``) and wilds (their points, most first)."""

    def __init__(self, info: _Info, counts: list[int], wild_values: list[int], n_sets: int,
                 set_size: int, n_runs: int, run_size: int, incumbent: int = -1,
                 tables: dict[tuple[int, ...], tuple[int, int, dict[tuple[int, int], tuple[int, tuple[_Run, ...]]]]]
                 | None = None) -> None:
        self.info = info
        self.counts = counts
        self.W = len(wild_values)
        wp = [0]
        for v in wild_values:
            wp.append(wp[-1] + v)
        self.WP = wp
        self.k_sets, self.m_set = n_sets, set_size
        self.k_runs, self.m_run = n_runs, run_size
        self.best_value = incumbent  # only a better arrangement than this is kept
        self.best_runs: tuple[_Run, ...] = ()
        self.best_plan: _SetPlan | None = None
        self._set_memo: dict[tuple[object, ...], tuple[int, _SetPlan | None]] = {}
        self._least_memo: dict[tuple[int, ...], int] = {}
        self._fixed_rank = 0  # the rank of the contract's one set, when fixed (majority rule)
        self._runs_prep: tuple[int, list[_Option], list[int], list[int], int] | None = None
        # Suit tables of the hand's other splits into naturals and wilds (black 2s): a table with
        # more wilds and fewer runs required holds every entry of one with fewer and more.
        self._tables = {} if tables is None else tables

    def solve(self) -> bool:
        if self.k_runs == 0:
            value, plan = self.set_best(self.counts, 0)
            if plan is None or value <= self.best_value:
                return False
            self.best_value, self.best_plan = value, plan
            return True
        if self.k_sets == 0:
            return self.runs_only()
        if self.k_sets == 1 and self.info.majority:
            # One set: try each rank for it, the richest first; a run then gives up (for a wild)
            # only a natural of that rank.
            counts, pts, m = self.counts, self.info.pts, self.m_set
            ranks = []
            for r in range(1, 14):
                n = counts[r] + counts[16 + r] + counts[32 + r] + counts[48 + r]
                if n >= (m + 2) // 2 and n + self.W >= m:
                    ranks.append((counts[r] * pts[r] + counts[16 + r] * pts[16 + r]
                                  + counts[32 + r] * pts[32 + r] + counts[48 + r] * pts[48 + r], r))
            for _, r in sorted(ranks, reverse=True):
                self._fixed_rank = r
                self.mixed()
            self._fixed_rank = 0
            return self.best_plan is not None
        return self.mixed()

    # -- sets -------------------------------------------------------------------------------------
    def set_best(self, counts: list[int], w_runs: int, nat_only: bool = False
                 ) -> tuple[int, _SetPlan | None]:
        """The most the contract's sets can meld from ``counts`` with the wilds the runs left:
        their natural points plus the points of all the wilds melded (``w_runs`` by the runs), or
        only their natural points (``nat_only``, a bound for any number of wilds the runs use)."""
        if self._fixed_rank:
            return self._one_set(counts, w_runs, nat_only)
        key = (tuple(counts), w_runs, nat_only)
        found = self._set_memo.get(key)
        if found is not None:
            return found
        info = self.info
        pts = info.pts
        m, k = self.m_set, self.k_sets
        majority = info.majority
        least = (m + 2) // 2 if majority else 1  # naturals one set needs at the least
        w_avail = self.W - w_runs
        ranks: list[tuple[int, int, int]] = []
        for r in range(1, 14):
            n = counts[r] + counts[16 + r] + counts[32 + r] + counts[48 + r]
            if n >= least:
                p = (counts[r] * pts[r] + counts[16 + r] * pts[16 + r] + counts[32 + r] * pts[32 + r]
                     + counts[48 + r] * pts[48 + r])
                ranks.append((p, r, n))
        ranks.sort(reverse=True)
        wp = self.WP
        top = wp[self.W] if not nat_only else 0
        best_v = -1
        best_plan: _SetPlan | None = None
        multi = info.same_rank_sets
        chosen: list[tuple[int, int, int]] = []

        def finish(val: int, wl: int, cap: int, wild_only: int) -> None:
            nonlocal best_v, best_plan
            if nat_only:
                v = val
                sw = 0
            else:
                sw = (w_avail - wl) + min(cap, wl) if majority else w_avail
                v = val + wp[w_runs + sw]
            if v > best_v:
                best_v = v
                best_plan = (tuple(chosen), wild_only, sw)

        def rec(i: int, left: int, wl: int, val: int, cap: int) -> None:
            if left == 0:
                finish(val, wl, cap, 0)
                return
            if not majority and left * m <= wl:
                finish(val, wl - left * m, cap, left)
            ub = val + top
            for p, _, _ in ranks[i:i + left]:
                ub += p
            if ub <= best_v:
                return
            for idx in range(i, len(ranks)):
                p, r, n = ranks[idx]
                if val + p + top + (left - 1) * p <= best_v:
                    break  # the ranks after are worth no more
                for j in range(1, (left if multi else 1) + 1):
                    if n < j * least:
                        break
                    cost = j * m - n if j * m > n else 0
                    if cost > wl:
                        break
                    chosen.append((r, j, cost))
                    rec(idx + 1, left - j, wl - cost, val + p, cap + (n - j - cost if majority else 0))
                    chosen.pop()

        rec(0, k, w_avail, 0, 0)
        result = (best_v, best_plan)
        self._set_memo[key] = result
        return result

    def _one_set(self, counts: list[int], w_runs: int, nat_only: bool) -> tuple[int, _SetPlan | None]:
        """``set_best`` for one set of the rank ``self._fixed_rank`` (more naturals than wilds)."""
        r, m = self._fixed_rank, self.m_set
        n = counts[r] + counts[16 + r] + counts[32 + r] + counts[48 + r]
        core = m - n if m > n else 0
        w_avail = self.W - w_runs
        if n < (m + 2) // 2 or core > w_avail:
            return -1, None
        pts = self.info.pts
        p = counts[r] * pts[r] + counts[16 + r] * pts[16 + r] + counts[32 + r] * pts[32 + r] \
            + counts[48 + r] * pts[48 + r]
        if nat_only:
            return p, None
        set_wilds = core + min(n - 1 - core, w_avail - core)
        return p + self.WP[w_runs + set_wilds], (((r, 1, core),), 0, set_wilds)

    def sets_least_wilds(self, counts: list[int]) -> int:
        """The fewest wilds the contract's sets need with the naturals in ``counts`` (more than
        ``self.W`` when they cannot be made)."""
        if self._fixed_rank:
            r, m = self._fixed_rank, self.m_set
            n = counts[r] + counts[16 + r] + counts[32 + r] + counts[48 + r]
            return self.W + 1 if n < (m + 2) // 2 else max(0, m - n)
        key = tuple(counts)
        found = self._least_memo.get(key)
        if found is not None:
            return found
        m, k = self.m_set, self.k_sets
        majority = self.info.majority
        least = (m + 2) // 2 if majority else 1
        costs: list[int] = [] if majority else [m] * k  # sets of wilds alone
        for r in range(1, 14):
            n = counts[r] + counts[16 + r] + counts[32 + r] + counts[48 + r]
            before = 0
            for j in range(1, (k if self.info.same_rank_sets else 1) + 1):
                if n < j * least:
                    break
                now = j * m - n if j * m > n else 0
                costs.append(now - before)
                before = now
        if len(costs) < k:
            result = self.W + 1
        else:
            costs.sort()
            result = sum(costs[:k])
        self._least_memo[key] = result
        return result

    # -- runs only --------------------------------------------------------------------------------
    def suit_table(self, suit: int, extents: _Extents, j_min: int, most: int,
                   addon: dict[tuple[int, int], int] | None = None, wmin: list[int] | None = None
                   ) -> dict[tuple[int, int], tuple[int, tuple[_Run, ...]]]:
        """For j runs of ``suit`` (``j_min`` or more: the other suits cannot hold the rest) using
        exactly w wilds: the most natural points, and the runs.

        With ``addon`` (for each (j, w), the most the other suits and the wilds add to it), only
        the entries that beat ``self.best_value`` (with their addon) are kept, and the search
        prunes against that single figure."""
        info = self.info
        counts, W, J = self.counts, self.W, most  # at most ``most`` runs in this suit
        table: dict[tuple[int, int], tuple[int, tuple[_Run, ...]]] = {}
        if j_min == 0:
            table[(0, 0)] = (0, ())
        ivs, _, nominal, gaps, cum = extents
        if not ivs:
            return table
        pts = info.pts
        sep = info.separated
        base = suit * 16
        # Points of the naturals at each place and above: no run chosen after one starting at
        # ``lo`` covers a place below ``lo`` (the runs are tried by their low place).
        suffix = [0] * 16
        for p in range(14, 0, -1):
            c = base + 1 if p == 14 else base + p
            suffix[p] = suffix[p + 1] + counts[c] * pts[c]
        total = sum(counts[c] * pts[c] for c in range(base + 1, base + 14))
        use = [0] * 65
        chosen: list[tuple[int, int, tuple[int, ...]]] = []
        chosen_i: list[int] = []
        n_ivs = len(ivs)
        to_park: list[tuple[int, int, int, tuple[int, ...]]] = []

        version = [0]
        target = [self.best_value]

        def improves(key: tuple[int, int], value: int) -> bool:
            if addon is None:
                cur = table.get(key)
                return cur is None or value > cur[0]
            more = addon.get(key)
            return more is not None and value + more > target[0]

        def store(j: int, w: int, value: int, flags_list: Sequence[tuple[bool, ...]] | None,
                  runs: Sequence[tuple[int, int, tuple[int, ...]]]) -> None:
            version[0] += 1
            if addon is not None:
                target[0] = value + addon[(j, w)]
            if flags_list is None:
                flags_list = [tuple(counts[c] > 0 for c in cards) for _, _, cards in runs]
            table[(j, w)] = (value, tuple((suit, lo, hi, cards, f) for (lo, hi, cards), f
                                          in zip(runs, flags_list, strict=True)))

        def park(j: int, w: int, natp: int, runs: Sequence[tuple[int, int, tuple[int, ...]]],
                 flags_list: Sequence[tuple[bool, ...]]) -> None:
            most = W - w
            comb: dict[int, tuple[int, tuple[tuple[int, ...], ...]]] = {0: (0, ())}
            for (_, _, cards), flags in zip(runs, flags_list, strict=True):
                options = _park_options(cards, flags, most, info)
                nxt: dict[int, tuple[int, tuple[tuple[int, ...], ...]]] = {}
                for t1, (c1, ch1) in comb.items():
                    for t2 in range(most - t1 + 1):
                        o = options[t2] if t2 < len(options) else None
                        if o is None:
                            continue
                        old = nxt.get(t1 + t2)
                        if old is None or old[0] > c1 + o[0]:
                            nxt[t1 + t2] = (c1 + o[0], (*ch1, o[1]))
                comb = nxt
            for t, (cost, places) in comb.items():
                if t == 0:
                    continue
                if improves((j, w + t), natp - cost):
                    new_flags = [tuple(False if i in pl else f for i, f in enumerate(flags))
                                 for flags, pl in zip(flags_list, places, strict=True)]
                    store(j, w + t, natp - cost, new_flags, runs)

        def store_shared(w: int, natp: int) -> None:
            """Store the runs chosen, an improvement, when runs share a card with too few copies
            for all: the first sharing within the wild limit (each extent alone is within it)."""
            j = len(chosen)
            for flags_list in _assignments(chosen, counts):
                if all(_valid_flags(f, info) for f in flags_list):
                    store(j, w, natp, flags_list, chosen)
                    return

        # The fewest wilds j runs of this suit need: a table entry below it never fills, and must
        # not keep the bound from pruning.
        if wmin is None:
            wmin = _fewest_wilds(counts, extents, J, W, info)
        first_at = [n_ivs] * 17
        for i in range(n_ivs - 1, -1, -1):
            first_at[ivs[i][0]] = i
        for p in range(15, -1, -1):
            first_at[p] = min(first_at[p], first_at[p + 1])
        keys_at = {j: [(j, w2) for w2 in range(wmin[j], W + 1)] if j >= j_min else []
                   for j in range(1, J + 1)}
        group_end = [0] * n_ivs  # extents are listed by their low place
        group_best = [0] * n_ivs
        for i in range(n_ivs - 1, -1, -1):
            same = i + 1 < n_ivs and ivs[i + 1][0] == ivs[i][0]
            group_end[i] = group_end[i + 1] if same else i + 1
            group_best[i] = max(nominal[i], group_best[i + 1]) if same else nominal[i]

        # per list of keys: the keys by their wilds, and (with ``addon``) the most it adds to a
        # key of x wilds or more, for each x
        by_wilds_of: dict[int, tuple[list[list[tuple[int, int]]], list[int]]] = {}
        thr_made: dict[int, tuple[int, list[int]]] = {}  # the last thresholds, by the version
        none = -(1 << 30)

        def thresholds(keys: list[tuple[int, int]]) -> list[int]:
            """thr[x]: the natural points a run arrangement using x wilds or more must beat to be
            of use for one of ``keys`` (W + 1: none)."""
            made = thr_made.get(id(keys))
            if made is not None and made[0] == version[0]:
                return made[1]  # nothing stored since
            kept = by_wilds_of.get(id(keys))
            if kept is None:
                by_x: list[list[tuple[int, int]]] = [[] for _ in range(W + 1)]
                for key in keys:
                    by_x[key[1]].append(key)
                most_from = [none] * (W + 1)
                if addon is not None:
                    most = none
                    for x in range(W, -1, -1):
                        for key in by_x[x]:
                            more = addon.get(key)
                            if more is not None and more > most:
                                most = more
                        most_from[x] = most
                kept = by_wilds_of[id(keys)] = (by_x, most_from)
            if addon is not None:
                goal = target[0]
                thr = [goal - most if most > none else 1 << 30 for most in kept[1]]
                thr.append(1 << 30)
            else:
                thr = [-1] * (W + 2)
                low = thr[W + 1] = 1 << 30
                by_x = kept[0]
                for x in range(W, -1, -1):
                    for key in by_x[x]:
                        v = table.get(key, _NO_ENTRY)[0]
                        if v < low:
                            low = v
                    thr[x] = low
            thr_made[id(keys)] = (version[0], thr)
            return thr

        ivs_lo = [iv[0] for iv in ivs]
        after_best = list(nominal)  # the most natural points of an extent from each on
        for i in range(n_ivs - 2, -1, -1):
            if after_best[i + 1] > after_best[i]:
                after_best[i] = after_best[i + 1]
        ivs_hi = [iv[1] for iv in ivs]
        deep_keys_at = [[key for jj in range(j + 2, J + 1) for key in keys_at[jj]] for j in range(J)]
        m_run = self.m_run
        hi_place = info.hi_place

        by_nominal = sorted(range(n_ivs), key=nominal.__getitem__, reverse=True)

        def last(start: int, w: int, natp: int, contested: int) -> None:
            """``dfs`` for the last run: the same extents in the same order, found from the richest
            down (an extent whose natural points cannot beat the thresholds now never will: they
            only rise)."""
            j_here = len(chosen) + 1
            here_keys = keys_at[j_here]
            thr = thresholds(here_keys)
            cut = thr[w] - natp  # thr[x] grows with x
            cand: list[int] = []
            for i in by_nominal:
                nv = nominal[i]
                if nv <= cut:
                    break
                if i >= start:
                    x = w + gaps[i]
                    if x <= W and natp + nv > thr[x]:
                        cand.append(i)
            if not cand:
                return
            cand.sort()
            last_lo = -1
            seen = version[0]
            for i in cand:
                lo = ivs_lo[i]
                if lo != last_lo:
                    last_lo = lo
                    if seen != version[0]:
                        seen = version[0]
                        thr = thresholds(here_keys)
                x = w + gaps[i]
                if natp + nominal[i] <= thr[x]:
                    continue
                iv = ivs[i]
                hi = iv[1]
                if sep and any(lo <= h2 + 1 and hi >= l2 - 1 for l2, h2, _ in chosen):
                    continue
                # The last run: nothing is searched after it, so ``use`` is only read (a run
                # holds each card of its suit once).
                dw = dp = dc = 0
                for c in iv[2]:
                    u = use[c]
                    have = counts[c]
                    if u >= have:
                        dw += 1
                        if have and u == have:
                            dc += 1
                    else:
                        dp += pts[c]
                if w + dw <= W and j_here >= j_min:
                    chosen.append(iv)
                    chosen_i.append(i)
                    w2 = w + dw
                    v2 = natp + dp
                    if w2 < W:
                        to_park.append((j_here, w2, v2, tuple(chosen_i)))
                    if addon is None:
                        cur = table.get((j_here, w2))
                        better = cur is None or v2 > cur[0]
                    else:
                        more = addon.get((j_here, w2))
                        better = more is not None and v2 + more > target[0]
                    if better:
                        if contested + dc == 0:
                            store(j_here, w2, v2, None, chosen)
                        else:
                            store_shared(w2, v2)
                    chosen.pop()
                    chosen_i.pop()

        def dfs(start: int, w: int, natp: int, contested: int) -> None:
            j = len(chosen)
            if j + 1 == J:
                last(start, w, natp, contested)
                return
            j_here = j + 1  # the runs once one more is laid
            deeper = j + 1 < J
            deep_keys = deep_keys_at[j]
            here_keys = keys_at[j + 1]
            last_lo = -1
            seen = -1
            thr_here: list[int] = []
            thr_deep: list[int] = []
            deep_bound = 0
            i = start - 1
            while i + 1 < n_ivs:
                i += 1
                lo = ivs_lo[i]
                if lo != last_lo:
                    last_lo = lo
                    if seen != version[0]:
                        seen = version[0]
                        thr_here = thresholds(here_keys)
                        thr_deep = thresholds(deep_keys) if deeper else thr_here
                    deep_bound = suffix[lo]
                    for ci in chosen_i:
                        lo_c = ivs_lo[ci]
                        if lo_c < lo:
                            hi_c = ivs_hi[ci]
                            deep_bound += cum[hi_c if hi_c < lo else lo - 1] - cum[lo_c - 1]
                    if deep_bound > total:
                        deep_bound = total  # an ace counts at both its places
                    if (not deeper or deep_bound <= thr_deep[w]) and natp + group_best[i] <= thr_here[w]:
                        if not deeper and natp + after_best[i] <= thr_here[w]:
                            break  # no extent from here on gives the last run enough
                        i = group_end[i] - 1
                        continue
                x = w + gaps[i]
                if x > W:
                    continue
                go_deeper = deeper and deep_bound > thr_deep[x]
                if not go_deeper and natp + nominal[i] <= thr_here[x]:
                    continue
                iv = ivs[i]
                hi = iv[1]
                if sep and any(lo <= h2 + 1 and hi >= l2 - 1 for l2, h2, _ in chosen):
                    continue
                cards = iv[2]
                dw = dp = dc = 0
                for c in cards:
                    u = use[c] + 1
                    use[c] = u
                    have = counts[c]
                    if u > have:
                        dw += 1
                        if have and u == have + 1:
                            dc += 1
                    else:
                        dp += pts[c]
                if w + dw <= W:
                    chosen.append(iv)
                    chosen_i.append(i)
                    if j_here >= j_min:  # the runs chosen: of use for the table?
                        w2 = w + dw
                        v2 = natp + dp
                        if w2 < W:
                            to_park.append((j_here, w2, v2, tuple(chosen_i)))
                        if addon is None:
                            cur = table.get((j_here, w2))
                            better = cur is None or v2 > cur[0]
                        else:
                            more = addon.get((j_here, w2))
                            better = more is not None and v2 + more > target[0]
                        if better:
                            if contested + dc == 0:
                                store(j_here, w2, v2, None, chosen)
                            else:
                                store_shared(w2, v2)
                    if go_deeper:
                        if not sep:
                            dfs(i, w + dw, natp + dp, contested + dc)
                        elif hi_place - hi - 1 >= m_run:
                            # runs kept apart: the next starts two places after this one ends
                            dfs(first_at[hi + 2 if hi < 14 else 16], w + dw, natp + dp, contested + dc)
                    chosen.pop()
                    chosen_i.pop()
                for c in cards:
                    use[c] -= 1

        dfs(0, 0, 0, 0)
        # A wild in place of a natural, where nothing better uses that many wilds ("parking"),
        # the richest arrangements first.
        min_pt = info.min_pt
        to_park.sort(key=lambda e: -e[2])
        for j, w, natp, idx in to_park:
            if not any(improves((j, w + t), natp - t * min_pt) for t in range(1, W - w + 1)):
                continue
            runs = [ivs[i] for i in idx]
            for flags_list in _assignments(runs, counts):
                if all(_valid_flags(f, info) for f in flags_list):
                    park(j, w, natp, runs, flags_list)
        return table

    def runs_only(self) -> bool:
        k, W = self.k_runs, self.W
        all_ivs = [_intervals(self.counts, suit, self.m_run, W, self.info) for suit in range(4)]
        # the most runs each suit could hold: its naturals and every wild, in runs of the least size
        # (and each run needs this many naturals at the least: more than its wilds, or one in
        # every other place, or one)
        m = self.m_run
        least = m // 2 + 1 if self.info.majority else max(1, m // 2) if self.info.no_adjacent else 1
        caps = []
        for suit, ivs in enumerate(all_ivs):
            n = sum(self.counts[suit * 16 + 1:suit * 16 + 14])
            caps.append(min(k, (n + W) // m, n // least) if ivs[0] else 0)
        if sum(caps) < k:
            return False
        # The suit with the most extents is searched last, against the best the others allow;
        # for it a bound on the fewest wilds its runs need does (its search prunes by points).
        last = max(range(4), key=lambda suit: len(all_ivs[suit][0]) if caps[suit] else -1)
        fewest: list[list[int]] = []
        for suit, ivs in enumerate(all_ivs):
            fewest.append(_fewest_of_suit(self.counts, suit, ivs, m, caps[suit], W, self.info,
                                          suit == last and bool(ivs[0])))
        if _runs_least_wilds(fewest, k) > W:
            return False
        ceiling = self.WP[W]  # every natural some extent covers, and every wild
        counts, pts = self.counts, self.info.pts
        for suit, ext in enumerate(all_ivs):
            cover = 0
            for lo, hi, _ in ext[0]:
                cover |= ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)
            if cover & (1 << 14):
                cover |= 2
            for r in range(1, 14):
                if cover >> r & 1:
                    ceiling += counts[suit * 16 + r] * pts[suit * 16 + r]
        if ceiling <= self.best_value:
            return False
        suits = [suit for suit in range(4) if caps[suit]]
        combined: dict[tuple[int, int], tuple[int, tuple[_Run, ...]]] = {(0, 0): (0, ())}
        for suit in suits:
            if suit == last:
                continue
            j_min = max(0, k - (sum(caps) - caps[suit]))
            key = (suit, *self.counts[suit * 16 + 1:suit * 16 + 14])
            kept = self._tables.get(key)
            if kept is not None and kept[0] >= W and kept[1] <= j_min:
                table = kept[2]
            else:
                # A suit's table reads nothing but the suit's cards: kept for later hands too.
                gkey = (self.info, m, W, j_min, caps[suit], *key)
                found = _SUIT_TABLES.get(gkey)
                if found is None:
                    if len(_SUIT_TABLES) >= 1 << 12:
                        _SUIT_TABLES.clear()
                    found = _SUIT_TABLES[gkey] = self.suit_table(suit, all_ivs[suit], j_min, caps[suit],
                                                                 wmin=fewest[suit])
                table = found
                self._tables[key] = (W, j_min, table)
            nxt: dict[tuple[int, int], tuple[int, tuple[_Run, ...]]] = {}
            for (j1, w1), (v1, r1) in combined.items():
                for (j2, w2), (v2, r2) in table.items():
                    j, w = j1 + j2, w1 + w2
                    if j > k or w > W or j2 < j_min:
                        continue
                    old = nxt.get((j, w))
                    if old is None or v1 + v2 > old[0]:
                        nxt[(j, w)] = (v1 + v2, r1 + r2)
            combined = nxt
        wp = self.WP
        addon: dict[tuple[int, int], int] = {}
        partner: dict[tuple[int, int], tuple[_Run, ...]] = {}
        for (j1, w1), (v1, r1) in combined.items():
            for w in range(W - w1 + 1):
                key = (k - j1, w)
                v = v1 + wp[w + w1]
                if key not in addon or v > addon[key]:
                    addon[key] = v
                    partner[key] = r1
        j_min = max(0, k - (sum(caps) - caps[last]))
        incumbent = self.best_value
        table = self.suit_table(last, all_ivs[last], j_min, caps[last], addon, fewest[last])
        for key, (v, runs) in table.items():
            if key in addon and v + addon[key] > self.best_value:
                self.best_value = v + addon[key]
                self.best_runs = runs + partner[key]
                self.best_plan = ((), 0, 0)
        return self.best_value > incumbent

    # -- sets and runs ----------------------------------------------------------------------------
    def mixed(self) -> bool:
        info = self.info
        counts, W = self.counts, self.W
        pts = info.pts
        majority = info.majority
        least = (self.m_set + 2) // 2 if majority else 1
        fixed = self._fixed_rank
        # options: (natural points, wilds, suit, low, high, cards, places that want a natural)
        if self._runs_prep is None:  # the same for every rank tried for a set
            all_ext = []
            base: list[tuple[int, int, int, int, int, tuple[int, ...], tuple[bool, ...]]] = []
            rank_n = [0] * 16
            uncovered = [0] * 16  # points of each rank's naturals that no run covers
            cover_pts = 0  # points of the naturals some run covers
            for suit in range(4):
                part = _suit_part(info, counts, suit, self.m_run, W, not majority)
                all_ext.append(part[0])
                base += part[1]
                cover_pts += part[2]
                for r, n, points in part[3]:
                    rank_n[r] += n
                    uncovered[r] += points
            if self.k_runs == 1:
                fewest_runs = min((min(e[3]) for e in all_ext if e[0]), default=W + 1)
            else:
                fewest_runs = _runs_least_wilds(
                    [_fewest_of_suit(counts, suit, e, self.m_run, self.k_runs, W, info, False,
                                     not majority) for suit, e in enumerate(all_ext)], self.k_runs)
            base.sort(key=_NATP, reverse=True)
            self._runs_prep = (fewest_runs, base, rank_n, uncovered, cover_pts)
        fewest_runs, base, rank_n, uncovered, cover_pts = self._runs_prep
        # ranks whose naturals a set may take: the fixed one, or any with enough naturals
        settable = [(r == fixed) if fixed else rank_n[r] >= least for r in range(16)]
        if fewest_runs + self.sets_least_wilds(counts) > W:
            return False
        # The most any arrangement can meld: every natural that some run covers or whose rank has
        # enough naturals for a set, and every wild.
        ceiling = self.WP[W] + cover_pts
        if fixed:
            ceiling += uncovered[fixed]
        else:
            set_least = max(least, self.m_set - W)
            for r in range(1, 14):
                if rank_n[r] >= set_least:
                    ceiling += uncovered[r]
        if ceiling <= self.best_value or not base:
            return False  # (the search below would stop at once)
        # The bound the search starts from: the richest option in every run slot, and the sets'
        # naturals (no option below gives more than the richest one).
        root_sets = self.set_best(counts, 0, nat_only=True)[0]
        if root_sets < 0 or base[0][0] * self.k_runs + root_sets + self.WP[W] <= self.best_value:
            return False
        if not majority or not W:
            opts = base
        else:
            # A wild in place of a natural of a rank a set may take: the natural may be worth more
            # there. (Wilds in place of other naturals only hold wilds nothing else can: ``leaf``
            # parks them, the cheapest first.)
            opts = list(base)
            if fixed:
                # one place to give up: the set's rank's (an ace: 1 or 14)
                for natp, nw, suit, lo, hi, cards, flags in base:
                    if nw >= W:
                        continue
                    p = 14 if fixed == 1 and lo > 1 else fixed
                    if lo <= p <= hi and flags[p - lo]:
                        i = p - lo
                        f2 = (*flags[:i], False, *flags[i + 1:])
                        # more naturals than wilds: the run keeps that many after the swap
                        if 2 * (len(flags) - nw - 1) > len(flags):
                            opts.append((natp - pts[cards[i]], nw + 1, suit, lo, hi, cards, f2))
            else:
                for natp, nw, suit, lo, hi, cards, flags in base:
                    if nw >= W:
                        continue
                    eligible = [i for i, f in enumerate(flags) if f and settable[cards[i] & 15]]
                    size = len(flags)
                    for r in range(1, min(W - nw, len(eligible)) + 1):
                        if size - nw - r <= nw + r:
                            break  # a run keeps more naturals than wilds ("naturals-majority")
                        for swap in itertools.combinations(eligible, r):
                            changed = list(flags)
                            lost = 0
                            for i in swap:
                                changed[i] = False
                                lost += pts[cards[i]]
                            opts.append((natp - lost, nw + r, suit, lo, hi, cards, tuple(changed)))
            opts.sort(key=_NATP, reverse=True)
        k = self.k_runs
        sep = info.separated
        # the options by the wilds they need, each list in the order of ``opts``
        by_wilds: list[list[int]] = [[] for _ in range(W + 1)]
        add_to = [group.append for group in by_wilds]
        for idx, o in enumerate(opts):
            add_to[o[1]](idx)
        chosen: list[tuple[int, int, int, tuple[int, ...], tuple[bool, ...], tuple[bool, ...]]] = []
        recheck: list[int] = []  # suits whose runs need another sharing of their common cards

        def park_costs(runs: Sequence[_Run], most: int) -> dict[int, tuple[int, list[list[int]]]]:
            """Wilds in place of naturals no set can use, the cheapest first, within the limit."""
            comb: dict[int, tuple[int, list[list[int]]]] = {0: (0, [])}
            for _, _, _, cards, flags in runs:
                held = sorted((i for i, f in enumerate(flags) if f and not settable[cards[i] & 15]),
                              key=lambda i: pts[cards[i]])
                n = sum(flags)
                cap = min(len(held), (n - (len(flags) - n) - 1) // 2, most)
                nxt: dict[int, tuple[int, list[list[int]]]] = {}
                for t1, (c1, ch1) in comb.items():
                    cost = 0
                    for t2 in range(cap + 1):
                        if t1 + t2 > most:
                            break
                        if t2:
                            cost += pts[cards[held[t2 - 1]]]
                        old = nxt.get(t1 + t2)
                        if old is None or old[0] > c1 + cost:
                            nxt[t1 + t2] = (c1 + cost, [*ch1, held[:t2]])
                comb = nxt
            return comb

        def leaf(w: int, natp: int) -> None:
            value, plan = self.set_best(counts, w)
            if plan is None:
                return
            unmelded = W - w - plan[2] if majority else 0
            if natp + value <= self.best_value and not unmelded:
                return
            layouts: list[list[_Run]] = [[r[:5] for r in chosen]]
            if recheck or unmelded:
                original = list(counts)  # the naturals before any run took its own
                for r in chosen:
                    for c, f in zip(r[3], r[4], strict=True):
                        if f:
                            original[c] += 1
                for suit in set(recheck) if recheck else ():
                    idx = [i for i, r in enumerate(chosen) if r[0] == suit]
                    shares = [fl for fl in _assignments([chosen[i][1:4] for i in idx], original,
                                                        [chosen[i][5] for i in idx])
                              if all(_valid_flags(f, info) for f in fl)]
                    if not shares:
                        return
                    new_layouts = []
                    for layout in layouts:
                        for fl in shares if unmelded else shares[:1]:
                            lay = list(layout)
                            for i, run_flags in zip(idx, fl, strict=True):
                                lay[i] = (*lay[i][:4], run_flags)
                            new_layouts.append(lay)
                    layouts = new_layouts
            best = natp + value
            best_runs: list[_Run] | None = layouts[0] if best > self.best_value else None
            best_plan = plan
            if unmelded:
                for layout in layouts:
                    for q, (cost, places) in park_costs(layout, unmelded).items():
                        if q == 0:
                            continue
                        v2, plan2 = self.set_best(counts, w + q)
                        if plan2 is not None and natp - cost + v2 > max(best, self.best_value):
                            best, best_plan = natp - cost + v2, plan2
                            best_runs = [(s, lo, hi, cards, tuple(False if i in pl else f
                                                                  for i, f in enumerate(flags)))
                                         for (s, lo, hi, cards, flags), pl in
                                         zip(layout, places, strict=True)]
            if best_runs is not None and best > self.best_value:
                self.best_value = best
                self.best_runs = tuple(best_runs)
                self.best_plan = best_plan

        top = self.WP[W]
        bisect_left = bisect.bisect_left

        def dfs(slot: int, start: int, w: int, natp: int) -> None:
            if slot == k:
                leaf(w, natp)
                return
            if self.best_value >= ceiling:
                return
            bound_sets = self.set_best(counts, w, nat_only=True)[0]
            if bound_sets < 0:
                return
            rest = bound_sets + top
            left = k - slot
            # the sets need at least this many wilds (and the runs take cards, never give)
            spare = W - w - self.sets_least_wilds(counts)
            for nw_o in range(spare + 1):
                group = by_wilds[nw_o]
                for at in range(bisect_left(group, start), len(group)):
                    # Lay option ``idx`` in run slot ``slot`` and search on; no option after it
                    # (in its list) can beat the best found once one cannot.
                    idx = group[at]
                    o_natp, _, suit, lo, hi, cards, flags = opts[idx]
                    best = self.best_value
                    if natp + o_natp * left + rest <= best or best >= ceiling:
                        break
                    if sep and any(r[0] == suit and lo <= r[2] + 1 and hi >= r[1] - 1 for r in chosen):
                        continue
                    taken: list[int] = []
                    actual = flags
                    gained = 0
                    for i, c in enumerate(cards):
                        if flags[i]:
                            if counts[c]:
                                counts[c] -= 1
                                taken.append(c)
                                gained += pts[c]
                            else:
                                actual = (*actual[:i], False, *actual[i + 1:])
                    nw = len(cards) - len(taken)
                    if w + nw <= W:
                        if actual is not flags and not _valid_flags(actual, info):
                            recheck.append(suit)
                            chosen.append((suit, lo, hi, cards, actual, flags))
                            dfs(slot + 1, idx, w + nw, natp + gained)
                            chosen.pop()
                            recheck.pop()
                        else:
                            chosen.append((suit, lo, hi, cards, actual, flags))
                            dfs(slot + 1, idx, w + nw, natp + gained)
                            chosen.pop()
                    for c in taken:
                        counts[c] += 1

        incumbent = self.best_value
        dfs(0, 0, 0, 0)
        return self.best_value > incumbent


def _build_fast(solver: _Fast, wild_cards: list[Card], contract: Contract, rules: Rules,
                hand: list[Card]) -> Arrangement:
    """The arrangement of the best runs and set plan the fast solver found."""
    plan_all = solver.best_plan
    assert plan_all is not None
    info = solver.info
    pts = info.pts
    nat = list(solver.counts)
    wild_pool = sorted(wild_cards, key=info.wild_key.__getitem__) if len(wild_cards) > 1 \
        else wild_cards
    wi = 0
    run_melds: list[Meld] = []
    for suit, lo, _, cards, flags in solver.best_runs:
        laid: list[int] = []
        for c, f in zip(cards, flags, strict=True):
            if f:
                nat[c] -= 1
                laid.append(c)
            else:
                laid.append(wild_pool[wi])
                wi += 1
        run_melds.append(Meld("run", tuple(laid), 0, suit, lo))  # type: ignore[arg-type]
    plan, wild_only, set_wilds = plan_all
    m = solver.m_set
    majority = info.majority
    least = (m + 2) // 2 if majority else 1
    groups: list[tuple[int, list[int], int]] = []  # rank, cards, room for more wilds
    core_total = 0
    # Sets in rank order (wilds-only sets last), so the same hand always reads the same.
    for rank, j, _ in (sorted(plan) if len(plan) > 1 else plan):
        naturals: list[int] = []
        for c in (rank, 16 + rank, 32 + rank, 48 + rank):
            n = nat[c]
            if n:
                if n == 1:
                    naturals.append(c)
                else:
                    naturals.extend([c] * n)
                nat[c] = 0
        if rank == 2:  # only 2s differ in points within a rank (a black 2 played as a natural)
            naturals.sort(key=info.wild_key.__getitem__)
        if j == 1:
            size = len(naturals)
            core = m - size if m > size else 0
            core_total += core
            if core:
                naturals.extend(wild_pool[wi:wi + core])
                wi += core
            groups.append((rank, naturals, size - 1 - core if majority else 99))
            continue
        sizes = [least] * j
        rest = len(naturals) - least * j
        for i in range(j):
            add = min(rest, m - sizes[i]) if sizes[i] < m else 0
            sizes[i] += add
            rest -= add
        sizes[0] += rest
        at = 0
        for size in sizes:
            cs = naturals[at:at + size]
            at += size
            core = max(0, m - size)
            core_total += core
            cs.extend(wild_pool[wi:wi + core])
            wi += core
            groups.append((rank, cs, size - 1 - core if majority else 99))
    for _ in range(wild_only):
        groups.append((0, list(wild_pool[wi:wi + m]), 99))
        wi += m
    extra = set_wilds - core_total - m * wild_only if groups else 0
    if extra > 0:
        for _, cs, room in groups:
            take = min(room, extra)
            cs.extend(wild_pool[wi:wi + take])
            wi += take
            extra -= take
    assert extra <= 0
    set_melds = [Meld("set", tuple(cs), rank) if rank  # type: ignore[arg-type]
                 else check_set(cast(list[Card], cs), rules) for rank, cs, _ in groups]
    order = _shape(contract)[4]
    if not set_melds:
        melds = tuple(run_melds)
    elif not run_melds:
        melds = tuple(set_melds)
    else:
        it_runs, it_sets = iter(run_melds), iter(set_melds)
        melds = tuple(next(it_runs) if is_run else next(it_sets) for is_run in order)
    # What is left, in order of rank and suit (wilds that are not 2s last): the hand in that
    # order, each card taken while some of it is left.
    nat[JOKER] = 0
    for c in wild_pool[wi:]:
        nat[c] += 1
    leftover: list[int] = []
    points = 0
    for c in sorted(hand, key=_LEFT_KEY.__getitem__):
        if nat[c]:
            nat[c] -= 1
            leftover.append(c)
            points += pts[c]
    return Arrangement(melds, cast(tuple[Card, ...], tuple(leftover)), points)


# the order a hand's leftover is written in: by rank, then by suit, wilds that are not 2s last
_LEFT_KEY = [(c & 15) * 4 + (c >> 4) if c < 64 else 1000 for c in range(65)]


_NATP = operator.itemgetter(0)  # options the richest first (a stable sort with reverse=True)


def solve_contract(hand: Sequence[Card], contract: Contract, rules: Rules, *,
                   forbidden_leftovers: Collection[int] = ()) -> Arrangement | None:
    """The arrangement meeting ``contract`` that leaves the fewest points, or None.

    ``forbidden_leftovers`` lists numbers of cards that may not be left in hand (the engine forbids
    leaving exactly one card where the last card may not be discarded).
    """
    hand = list(hand)
    shape = _shape(contract)
    if shape[2] > len(hand):
        return None
    # One pass over the hand: counts per card, and the places each suit holds (for the bound).
    allc = [0] * 65
    masks = [0, 0, 0, 0]
    rank_n = [0] * 16
    for c in hand:
        allc[c] += 1
        if c < 64:
            masks[c >> 4] |= _PLACE_BITS[c & 15]
            rank_n[c & 15] += 1
    info = _info(rules)
    if not _may_meet(allc, masks, rank_n, shape, info):
        return None
    if shape[3]:
        fast = _solve_fast(hand, allc, shape, contract, rules, info)
        # The best arrangement with no count forbidden is the best one when its count is allowed.
        if fast is None or len(fast.leftover) not in forbidden_leftovers:
            return fast
        # Only laying every card allowed (the engine's "go out"): with no card worth 0 points,
        # that would have been the best arrangement.
        if all(n in forbidden_leftovers for n in range(1, len(hand) + 1)) and \
                all(rules.points(c) > 0 for c in hand):
            return None
    return _solve_search(hand, contract, rules, forbidden_leftovers)


# the bit of each rank's place in a suit (an ace holds places 1 and 14)
_PLACE_BITS = tuple((1 << r) | (1 << 14 if r == 1 else 0) for r in range(16))


_Shape = tuple[tuple[int, ...], tuple[int, ...], int, bool, tuple[bool, ...]]
_SHAPES: dict[int, tuple[Contract, _Shape]] = {}


def _shape(contract: Contract) -> _Shape:
    """A contract's set sizes, run sizes, cards, and whether the fast solver takes it (every set
    of one size, every run of one size). Kept by the contract's identity: hashing a contract
    costs more than working this out."""
    kept = _SHAPES.get(id(contract))
    if kept is not None and kept[0] is contract:
        return kept[1]
    sets, runs = contract.sets, contract.runs
    shape = (sets, runs, contract.min_cards,
             len(set(sets)) <= 1 and len(set(runs)) <= 1 and bool(contract.melds),
             tuple(req.kind == "run" for req in contract.melds))
    if len(_SHAPES) > 256:
        _SHAPES.clear()
    _SHAPES[id(contract)] = (contract, shape)
    return shape


def _solve_fast(hand: list[Card], allc: list[int], shape: _Shape, contract: Contract,
                rules: Rules, info: _Info) -> Arrangement | None:
    pts = info.pts
    sets, runs = shape[:2]
    twos = info.wild_twos
    splits: list[tuple[int, ...]] = [()]
    if twos:
        for c in twos:
            n = allc[c] if allc[c] and _may_play_natural_counts(c, allc, shape, info) else 0
            splits = [s + (k,) for s in splits for k in range(n + 1)]
    best: _Fast | None = None
    best_wilds: list[Card] = []
    wilds_of = info.wilds_of
    tables: dict[tuple[int, ...], tuple[int, int, dict[tuple[int, int], tuple[int, tuple[_Run, ...]]]]] = {}
    n_sets, set_size = len(sets), sets[0] if sets else 0
    n_runs, run_size = len(runs), runs[0] if runs else 0
    for split in splits:
        counts = list(allc)
        wild_cards: list[Card] = []
        for c in wilds_of:
            if allc[c]:
                natural = split[twos.index(c)] if c != JOKER else 0
                counts[c] = natural
                wild_cards.extend([c] * (allc[c] - natural))
        if any(split) and not _twos_of_use(counts, split, list(twos), len(wild_cards), sets, runs, info):
            continue
        values = [pts[c] for c in wild_cards]
        values.sort(reverse=True)
        solver = _Fast(info, counts, values, n_sets, set_size, n_runs, run_size,
                       -1 if best is None else best.best_value, tables)
        if solver.solve():
            best, best_wilds = solver, wild_cards
    return None if best is None else _build_fast(best, best_wilds, contract, rules, hand)


def _may_play_natural_counts(two: int, allc: list[int], shape: _Shape, info: _Info) -> bool:
    """``_may_play_natural`` from the counts of the hand."""
    if shape[0]:
        return True
    if not shape[1]:
        return False
    if not info.majority:
        return True
    base = two & 48
    wild = info.wild
    return any(allc[c] and not wild[c] for c in range(base + 1, base + 14))


def _twos_of_use(counts: list[int], split: tuple[int, ...], twos: list[Card], wilds: int,
                 sets: tuple[int, ...], runs: tuple[int, ...], info: _Info) -> bool:
    """Can every black 2 this split plays as a natural be of use as one? Only in a set of 2s (which
    takes any number of them), or in a run of its suit through place 2 (one a run). Where one
    cannot, the split with that 2 wild instead is as good (the same points, more choice)."""
    if sets:
        m = sets[0]
        n = counts[2] + counts[18] + counts[34] + counts[50]
        if n >= ((m + 2) // 2 if info.majority else 1) and n + wilds >= m:
            return True  # a set of 2s may take them all
    for two, k in zip(twos, split, strict=True):
        if not k:
            continue
        if not runs or k > len(runs):
            return False
        ext = _intervals(counts, two >> 4, runs[0], wilds, info)
        if not any(lo <= 2 <= hi for lo, hi, _ in ext[0]):
            return False
    return True


def _solve_search(hand: list[Card], contract: Contract, rules: Rules,
                  forbidden_leftovers: Collection[int]) -> Arrangement | None:
    """The general search: any contract, and numbers of cards that may not be left in hand."""
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
    allc = [0] * 65
    masks = [0, 0, 0, 0]
    rank_n = [0] * 16
    for c in hand:
        allc[c] += 1
        if c < 64:
            masks[c >> 4] |= _PLACE_BITS[c & 15]
            rank_n[c & 15] += 1
    return _may_meet(allc, masks, rank_n, _shape(contract), _info(rules))


def _may_meet(allc: list[int], masks: list[int], rank_n: list[int], shape: _Shape, info: _Info
              ) -> bool:
    """``may_meet_contract`` from the counts of the hand and the places of each suit."""
    wilds = 0
    for c in info.wilds_of:
        wilds += allc[c]
    majority = info.majority
    need = 0
    sets, runs = shape[:2]
    if sets:
        part = _sets_wild_need([n for n in rank_n if n], sets, majority,
                               shape[3] or len(set(sets)) == 1)
        if part is None:
            return False
        need += part
        if need > wilds:
            return False
    if runs:
        lo, hi = info.lo_place, info.hi_place
        m = min(runs)
        allowed = ((1 << (hi + 1)) - 1) & ~((1 << lo) - 1)
        per_suit = [_best_window(mask & allowed, m, lo, hi, majority) if mask & allowed else 99
                    for mask in masks]
        if len(runs) == 1:
            need += min(per_suit)
        else:
            # k runs of one suit need at least k times its best window and k*m - (its naturals)
            # wilds; the least over the ways to share the runs among the suits.
            k_runs = len(runs)
            fewest = [0] + [99] * k_runs
            for s in range(4):
                if per_suit[s] >= 99:
                    continue
                base = s * 16
                naturals_of_suit = sum(allc[base + 1:base + 14])
                nxt = list(fewest)
                for j1 in range(k_runs):
                    if fewest[j1] >= 99:
                        continue
                    for k in range(1, k_runs - j1 + 1):
                        cost = fewest[j1] + max(k * per_suit[s], k * m - naturals_of_suit)
                        if cost < nxt[j1 + k]:
                            nxt[j1 + k] = cost
                fewest = nxt
            need += fewest[k_runs]
    return need <= wilds


def _sets_wild_need(counts: Sequence[int], sets: Sequence[int], majority: bool, same_size: bool
                    ) -> int | None:
    """The fewest wilds the sets of sizes ``sets`` need, each set counted on its own, from the
    naturals held of each rank (``counts``, ranks held only); None when no way is left. Shared by
    ``may_meet_contract`` and ``shanghai.engine.contract_bound``."""
    if same_size:
        m, k_sets = sets[0], len(sets)
        least = (m + 2) // 2 if majority else 1   # naturals a set of m needs
        # The k-th set on a rank of n naturals costs max(0, k*m - n) - max(0, (k-1)*m - n)
        # wilds; these costs grow with k, so the cheapest k_sets of them are a lower bound.
        costs: list[int] = [] if majority else [m] * k_sets  # sets of wilds alone
        for n in counts:
            before = 0
            for k in range(1, k_sets + 1):
                if n < k * least:
                    break
                now = k * m - n if k * m > n else 0
                costs.append(now - before)
                before = now
        if len(costs) < k_sets:
            return None
        costs.sort()
        return sum(costs[:k_sets])
    need = 0
    for m in sets:
        need += min([max(0, m - n) for n in counts] + ([] if majority else [m]), default=99)
    return need


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
