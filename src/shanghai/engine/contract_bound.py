"""A fast necessary condition for going down, used by the engine before it asks the solver.

Most hands in play cannot meet the round's contract, and the engine asks at every in-turn play
whether the seat may go down. ``ContractBound.possible(hand)`` answers False only when the hand
surely cannot meet the contract: it is the same lower bound on the wilds needed as
``shanghai.solver.may_meet_contract`` (every meld counted on its own), computed from a compact
summary of the hand (how many naturals of each rank, which places of each suit are held), with the
parts of the bound memoised per summary, so that it costs a few microseconds. The solver still
decides every hand that passes.

>>> from shanghai.rules import preset
>>> from shanghai.cards import parse_cards
>>> isra = preset("isra")
>>> bound = contract_bound(isra, 1)
>>> bound.possible(parse_cards("7H 7S 7D 9C 9D 5S 6S KD QD 3C 4C JK"))
True
>>> bound.possible(parse_cards("7H 7S 9D 9C 2H 5S 6S KD QD 3C 4C 8H"))
False
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from shanghai.cards import JOKER, Card
from shanghai.rules.model import Rules
from shanghai.solver import _best_window, _sets_wild_need

_NO_WAY = 99  # more wilds than any hand holds

# The places a natural of rank r holds in its suit (an ace is both place 1 and place 14).
_PLACES = tuple((1 << r) | ((1 << 14) if r == 1 else 0) for r in range(16))
# The places a card holds, in its suit's 16-bit lane (a joker holds none).
_PLACE_BITS = tuple(0 if c == JOKER or not 1 <= (c & 15) <= 13 or c >> 4 > 3 else _PLACES[c & 15] << (16 * (c >> 4))
                    for c in range(65))
# One natural of the card's suit, in the suit's 16-bit lane.
_SUIT_COUNTS = tuple(0 if c == JOKER or not 1 <= (c & 15) <= 13 or c >> 4 > 3 else 1 << (16 * (c >> 4))
                     for c in range(65))

# One sum over a hand summarises it for ``possible``: each suit has a lane of 16 places of 8 bits
# each (a natural of rank r adds 1 to place r of its suit, an ace to places 1 and 14), and above the
# four lanes each suit has a 16-bit count of its naturals. A joker (or any other card) adds nothing.
_SUIT_WIDTH = 16 * 8
_COUNT_SHIFTS = tuple(4 * _SUIT_WIDTH + 16 * suit for suit in range(4))
_LANES = tuple(_SUIT_WIDTH * suit for suit in range(4))
_LANE_MASK = sum(1 << (8 * place + 7) for place in range(16))  # bit 7 of each field of a lane
_CODE = tuple(0 if c == JOKER or not 1 <= (c & 15) <= 13 or c >> 4 > 3 else
              (1 << (_SUIT_WIDTH * (c >> 4) + 8 * (c & 15)))
              + ((1 << (_SUIT_WIDTH * (c >> 4) + 8 * 14)) if c & 15 == 1 else 0)
              + (1 << _COUNT_SHIFTS[c >> 4])
              for c in range(65))


def _mask_of(key: int) -> int:
    """The places (bit p for place p) whose fields have bit 7 set in ``key`` (one suit's lane)."""
    mask = 0
    for place in range(16):
        if key >> (8 * place + 7) & 1:
            mask |= 1 << place
    return mask


def _splits(total: int, parts: int) -> tuple[tuple[int, ...], ...]:
    """Every way of writing ``total`` as an ordered sum of ``parts`` non-negative numbers."""
    if parts == 1:
        return ((total,),)
    return tuple((k, *rest) for k in range(total + 1) for rest in _splits(total - k, parts - 1))


class ContractBound:
    """The necessary condition for one contract under one set of rules (see the module doc)."""

    __slots__ = ("_ones_at", "_pair8_memo", "_pair_memo", "_runs_memo", "_set_memo", "_window8_memo",
                 "_window_memo", "allowed", "hi", "lo", "majority", "min_cards", "naturals_cap", "rules",
                 "run_min", "run_splits", "runs", "same_size_sets", "sets", "top_ranks", "wild_cards",
                 "windows")

    def __init__(self, rules: Rules, round_number: int) -> None:
        contract = rules.contract(round_number)
        self.rules = rules
        self.min_cards = contract.min_cards
        self.wild_cards = rules.wild_cards()
        self.majority = rules.wild_limit == "naturals-majority"
        self.sets = contract.sets
        self.same_size_sets = len(set(self.sets)) == 1
        self.runs = contract.runs
        self.run_min = min(self.runs) if self.runs else 0
        self.lo = 2 if rules.aces == "high-only" else 1
        self.hi = 13 if rules.aces == "low-only" else 14
        self.allowed = ((1 << (self.hi + 1)) - 1) & ~((1 << self.lo) - 1)
        # bit 0 of the field of each allowed place of each suit (see _CODE)
        self._ones_at = sum(1 << (_SUIT_WIDTH * suit + 8 * place)
                            for suit in range(4) for place in range(self.lo, self.hi + 1))
        self.run_splits = _splits(len(self.runs), 4) if len(self.runs) > 1 else ()
        self._set_memo: dict[tuple[int, ...], int] = {}
        shape = (self.run_min, self.lo, self.hi, self.majority)  # what a suit's windows depend on
        self._window_memo = _WINDOW_MEMOS.setdefault(shape, {})
        self._pair_memo = _PAIR_MEMOS.setdefault(shape, {})
        self._window8_memo = _WINDOW8_MEMOS.setdefault(shape, {})
        self._pair8_memo = _PAIR8_MEMOS.setdefault(shape, {})
        self._runs_memo: dict[tuple[tuple[int, int, int], ...], int] = {}
        self.naturals_cap = len(self.runs) * self.run_min
        self.windows = [((1 << self.run_min) - 1) << start
                        for start in range(self.lo, self.hi - self.run_min + 2)] if self.runs else []
        self.top_ranks = 16 - len(self.sets)  # only the ranks with the most naturals matter

    def possible(self, hand: Sequence[Card]) -> bool:
        """False when ``hand`` surely cannot meet the contract (True: let the solver decide).

        The same answer as ``_possible_reference``, from one sum over the hand (``_CODE``): how
        many of each card each place of each suit holds (an 8-bit field per place), and each
        suit's naturals."""
        if len(hand) < self.min_cards:
            return False
        if len(hand) > 127:
            return self._possible_reference(hand)  # (a field could overflow)
        wild_cards = self.wild_cards
        wilds = 0
        for wild in wild_cards:
            wilds += hand.count(wild)
        runs = self.runs
        if runs:
            summary = sum(map(_CODE.__getitem__, hand))
            ones_at = self._ones_at
            # Bit 7 of a place's field: held at least once (adding 127 carries into it from any
            # count of 1 to 128, never into the next field); for the allowed places only.
            held = (summary + ones_at * 127) & (ones_at << 7)
            if wilds < len(runs):
                # Fewer wilds than runs: some suit must hold a whole run of the shortest length in
                # naturals (its best window needs no wild), else every run needs a wild and the
                # bound fails. Fields 0 and 15 of each suit are never held (not allowed places),
                # so the shifts never join two suits.
                y = held
                for i in range(8, 8 * self.run_min, 8):
                    y &= held >> i
                if not y:
                    return False
        need = 0
        if self.sets:
            by_rank = [0] * 16
            for c in hand:
                by_rank[c & 15] += 1
            by_rank[0] = 0  # the joker (64) lands on rank 0
            by_rank.sort()
            key = tuple(by_rank[self.top_ranks:])
            part = self._set_memo.get(key)
            if part is None:
                part = self._set_memo[key] = self._sets_need([n for n in key if n])
            need = part
            if need > wilds:
                return False
        if runs:
            window = self._window8_memo
            least = _NO_WAY
            ones = []
            for lane in _LANES:
                places = (held >> lane) & _LANE_MASK
                one = _NO_WAY
                if places:
                    one = window.get(places, -1)
                    if one < 0:
                        one = window[places] = self._best_window(_mask_of(places))
                    if one < least:
                        least = one
                ones.append(one)
            if len(runs) == 1:
                return need + least <= wilds
            # Every run needs at least the best window of all suits.
            if need + len(runs) * least > wilds:
                return False
            # Several runs: first the bound of solver.may_meet_contract (from each suit's best
            # window and naturals), then, for the few hands it lets through, a stronger one that
            # also counts the cards two runs of one suit need twice.
            cap = self.naturals_cap
            naturals = [n if n < cap else cap for n in
                        ((summary >> shift) & 0xFFFF for shift in _COUNT_SHIFTS)]
            weak = [(one, 2 * one if one < _NO_WAY else _NO_WAY, n)
                    for one, n in zip(ones, naturals, strict=True)]
            if need + self._runs_need(weak) > wilds:
                return False
            # Bit 7 of a field: held at least twice.
            twice = (summary + ones_at * 126) & (ones_at << 7)
            pairs = self._pair8_memo
            strong = []
            for s, lane in enumerate(_LANES):
                one = ones[s]
                two = _NO_WAY
                if one < _NO_WAY:
                    key2 = ((held >> lane) & _LANE_MASK, (twice >> lane) & _LANE_MASK)
                    two = pairs.get(key2, -1)
                    if two < 0:
                        two = pairs[key2] = self._two_windows(_mask_of(key2[0]), _mask_of(key2[1]))
                strong.append((one, two, naturals[s]))
            need += self._runs_need(strong)
        return need <= wilds

    def _possible_reference(self, hand: Sequence[Card]) -> bool:
        """``possible`` computed directly from the hand (any hand; the tests compare the two)."""
        if len(hand) < self.min_cards:
            return False
        wild_cards = self.wild_cards
        wilds = 0
        for wild in wild_cards:
            wilds += hand.count(wild)
        need = 0
        if self.sets:
            by_rank = [0] * 16
            for c in hand:
                by_rank[c & 15] += 1
            by_rank[0] = 0  # the joker (64) lands on rank 0
            by_rank.sort()
            key = tuple(by_rank[self.top_ranks:])
            part = self._set_memo.get(key)
            if part is None:
                part = self._set_memo[key] = self._sets_need([n for n in key if n])
            need = part
            if need > wilds:
                return False
        if self.runs:
            # The places held in each suit, as 16-bit lanes of one int (see _PLACE_BITS).
            distinct = set(hand)
            held = sum(map(_PLACE_BITS.__getitem__, distinct))
            allowed = self.allowed
            window = self._window_memo
            ones = []
            for lane in (0, 16, 32, 48):
                mask = (held >> lane) & allowed
                one = _NO_WAY
                if mask:
                    one = window.get(mask, -1)
                    if one < 0:
                        one = window[mask] = self._best_window(mask)
                ones.append(one)
            if len(self.runs) == 1:
                return need + min(ones) <= wilds
            # Every run needs at least the best window of all suits.
            if need + len(self.runs) * min(ones) > wilds:
                return False
            # Several runs: first the bound of solver.may_meet_contract (from each suit's best
            # window and naturals), then, for the few hands it lets through, a stronger one that
            # also counts the cards two runs of one suit need twice.
            counts = sum(map(_SUIT_COUNTS.__getitem__, hand))
            cap = self.naturals_cap
            naturals = [n if n < cap else cap for n in
                        ((counts >> lane) & 0xFFFF for lane in (0, 16, 32, 48))]
            weak = [(one, 2 * one if one < _NO_WAY else _NO_WAY, n)
                    for one, n in zip(ones, naturals, strict=True)]
            if need + self._runs_need(weak) > wilds:
                return False
            twice = 0
            if len(distinct) < len(hand):
                again = {a for a, b in pairwise(sorted(hand)) if a == b}
                twice = sum(map(_PLACE_BITS.__getitem__, again))
            pairs = self._pair_memo
            strong = []
            for s, lane in enumerate((0, 16, 32, 48)):
                one = ones[s]
                two = _NO_WAY
                if one < _NO_WAY:
                    key = ((held >> lane) & allowed, (twice >> lane) & allowed)
                    two = pairs.get(key, -1)
                    if two < 0:
                        two = pairs[key] = self._two_windows(*key)
                strong.append((one, two, naturals[s]))
            need += self._runs_need(strong)
        return need <= wilds

    # -- the parts of the bound (as in solver.may_meet_contract), computed once per summary --------
    def _sets_need(self, counts: list[int]) -> int:
        need = _sets_wild_need(counts, self.sets, self.majority, self.same_size_sets)
        return _NO_WAY if need is None else need

    def _best_window(self, mask: int) -> int:
        """Fewest wilds that complete a run of at least the contract's shortest over ``mask``."""
        return _best_window(mask, self.run_min, self.lo, self.hi, self.majority)

    def _two_windows(self, held: int, twice: int) -> int:
        """Fewest wilds for two runs of a suit whose places held are ``held`` (``twice``: held at
        least twice).

        Each run holds a window of the shortest run's length; two windows need, at each place, as
        many cards as windows cover it (runs share no card), and every missing card is a wild.
        """
        # every pair of windows (a window twice too), the cheapest first: a pair costs at least
        # its two windows, so the search stops once they alone cost the best pair found
        by_cost = sorted(((w & ~held).bit_count(), w) for w in self.windows if w & held)
        once = held & ~twice  # a place held once: one window has it, the other needs a wild
        two = _NO_WAY
        for i, (c1, w1) in enumerate(by_cost):
            if 2 * c1 >= two:
                break
            for c2, w2 in by_cost[i:]:
                if c1 + c2 >= two:
                    break
                cost = c1 + c2 + (w1 & w2 & once).bit_count()
                if cost < two:
                    two = cost
        return two

    def _runs_need(self, needs: list[tuple[int, int, int]]) -> int:
        """The fewest wilds the contract's runs need, over every way to share them among suits.

        ``needs`` holds, per suit, (best window, best two windows, naturals). k runs of one suit
        need at least: its best window (k = 1); the best two windows (k = 2); for k > 2, the best
        two windows plus the best window for each further run (a run adds at least the wilds of
        its best window); and always k times the best window and k*m less the suit's naturals (the
        bound of ``solver.may_meet_contract``). The suits' order does not matter (every way to
        share the runs is tried): they are taken sorted, so that the memo serves every order.
        """
        key = tuple(sorted(needs))
        least = self._runs_memo.get(key, -1)
        if least >= 0:
            return least
        needs = list(key)
        m = self.run_min
        least = _NO_WAY
        for split in self.run_splits:
            total = 0
            for s, k in enumerate(split):
                if k:
                    one, two, naturals = needs[s]
                    if one >= _NO_WAY or two >= _NO_WAY:
                        total += _NO_WAY
                    elif k == 1:
                        total += one
                    else:
                        total += max(two + (k - 2) * one, k * one, k * m - naturals)
            if total < least:
                least = total
        self._runs_memo[key] = least
        return least


_WINDOW_MEMOS: dict[tuple[int, int, int, bool], dict[int, int]] = {}
_PAIR_MEMOS: dict[tuple[int, int, int, bool], dict[tuple[int, int], int]] = {}
# the same, by the places as bits 7 of 8-bit fields (see possible)
_WINDOW8_MEMOS: dict[tuple[int, int, int, bool], dict[int, int]] = {}
_PAIR8_MEMOS: dict[tuple[int, int, int, bool], dict[tuple[int, int], int]] = {}


_BOUNDS: dict[tuple[int, int], ContractBound] = {}


def contract_bound(rules: Rules, round_number: int) -> ContractBound:
    """The (shared, memoised) bound for a round of these rules."""
    key = (id(rules), round_number)
    bound = _BOUNDS.get(key)
    if bound is None or bound.rules is not rules:
        if len(_BOUNDS) > 1000:
            _BOUNDS.clear()
        bound = _BOUNDS[key] = ContractBound(rules, round_number)
    return bound
