"""The table solver of manipulation rummy (the "Shanghai" of document 004, first part).

Rules (004): two 52-card decks without jokers (three for six players or more: any number of identical
cards is accepted, the solver takes the number of copies from its input). A *set* is 3 or 4 cards of
one rank, all suits different; a *run* is 3 or more cards of one suit in sequence, ace low only
(A-2-3 is a run, Q-K-A is not). On a turn a player may rearrange the whole table, as long as every
meld is legal at the end and no card leaves it.

The solver is the exact dynamic programme of van Rijn, Takes and Vis (2015), "Computational complexity
of Rummikub problems": it walks the ranks from ace to king; its state holds, for each suit, the lengths
of the runs still open (one slot per copy of a card, each length 0, 1, 2 or "3 or more"); at each rank it
chooses how many copies of each card to use (all table cards, hand cards optionally), which of them
extend or start runs and which form sets of that rank. A run may end only once it has 3 cards.

Kept melds (``arrange(..., keep=...)``) are *pinned*: their cards leave the free pool and the programme
may only grow them (a 3-card set takes its missing suit; a run takes free cards next to either end, any
number of them, since the kept run alone already has 3 cards).

>>> from shanghai.cards import parse_cards
>>> play = best_play(parse_table("7H 7S 7D | 4C 5C 6C"), parse_cards("7C 3C 8H"))
>>> cards_text(play.placed), table_text(play.table)
('3C 7C', '3C 4C 5C 6C 7C | 7S 7H 7D')
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal

from shanghai.cards import JOKER, Card, card_text, cards_text, parse_cards, sort_key
from shanghai.errors import InvalidMeldError

Meld = tuple[Card, ...]
MeldKind = Literal["set", "run"]

_W = 1 << 16  # score of one placed card; the rank (at most 13 per card) only breaks ties
_NEG = -(1 << 62)
_BITS = 8  # bits of one suit's state index in a packed state (220 states with 9 copies)
_MASK = (1 << _BITS) - 1
_NRANKS = 14  # ranks 1-13, then an empty rank 14 that closes every run (no wrap past the king)


# -- melds ------------------------------------------------------------------------------------------
def _card_ok(card: int) -> bool:
    return isinstance(card, int) and 1 <= (card & 15) <= 13 and 0 <= (card >> 4) <= 3


def _check_cards(cards: Iterable[int]) -> None:
    for c in cards:
        if c == JOKER:
            raise InvalidMeldError("JK: there are no jokers in manipulation rummy")
        if not _card_ok(c):
            raise InvalidMeldError(f"{c!r} is not a card code")


def _meld_problem(cards: Sequence[int]) -> tuple[MeldKind | None, str]:
    """The meld's kind, or None and why it is not a meld."""
    for c in cards:
        if c == JOKER:
            return None, "JK: there are no jokers in manipulation rummy"
        if not _card_ok(c):
            return None, f"{c!r} is not a card code"
    n = len(cards)
    if n < 3:
        return None, "a meld needs at least 3 cards"
    ranks = {c & 15 for c in cards}
    suits = [c >> 4 for c in cards]
    if len(ranks) == 1:
        if n > 4:
            return None, "a set holds at most 4 cards"
        if len(set(suits)) != n:
            return None, "a set's suits must all differ"
        return "set", ""
    if len(set(suits)) == 1:
        if len(ranks) != n:
            return None, "a run cannot hold the same card twice"
        if max(ranks) - min(ranks) != n - 1:
            if 1 in ranks and 13 in ranks:
                return None, "a run's ranks must be consecutive, and the ace is low only (Q-K-A is no run)"
            return None, "a run's ranks must be consecutive"
        return "run", ""
    return None, "neither a set (one rank, different suits) nor a run (one suit, in sequence)"


def meld_kind(cards: Sequence[int]) -> MeldKind | None:
    """``"set"`` or ``"run"`` for a legal meld, None otherwise (jokers included).

    >>> meld_kind(parse_cards("7H 7S 7D")), meld_kind(parse_cards("AS 2S 3S")), meld_kind(parse_cards("QS KS AS"))
    ('set', 'run', None)
    """
    return _meld_problem(cards)[0]


def check_meld(cards: Sequence[int]) -> MeldKind:
    """The kind of a legal meld; raises ``InvalidMeldError`` saying why otherwise.

    >>> check_meld(parse_cards("4C 6C 5C"))
    'run'
    >>> check_meld(parse_cards("7H 7H 7S"))
    Traceback (most recent call last):
    ...
    shanghai.errors.InvalidMeldError: 7H 7H 7S: a set's suits must all differ
    """
    kind, why = _meld_problem(cards)
    if kind is None:
        if any(c == JOKER or not _card_ok(c) for c in cards):
            raise InvalidMeldError(why)
        raise InvalidMeldError(f"{cards_text(cards)}: {why}")
    return kind


def canonical_meld(cards: Sequence[int]) -> Meld:
    """A legal meld in canonical order: a run by rank, a set by suit (S H D C).

    >>> cards_text(canonical_meld(parse_cards("7C 7S 7D")))
    '7S 7D 7C'
    """
    kind = check_meld(cards)
    key = (lambda c: c & 15) if kind == "run" else (lambda c: c >> 4)
    return tuple(Card(c) for c in sorted(cards, key=key))


def _meld_order(meld: Meld) -> tuple[int, int, int, int, Meld]:
    # runs first, by suit, first rank and length; then sets by rank and suits
    first = meld[0]
    if (meld[1] & 15) != (first & 15):
        return (0, first >> 4, first & 15, len(meld), meld)
    return (1, first & 15, 0, len(meld), meld)


def canonical_table(melds: Iterable[Sequence[int]]) -> tuple[Meld, ...]:
    """Every meld canonical (checked), runs first (by suit, first rank, length), then sets (by rank,
    size, suits).

    >>> table_text(canonical_table([parse_cards("7S 7H 7D"), parse_cards("6C 4C 5C"), parse_cards("9S TS JS")]))
    '9S 10S JS | 4C 5C 6C | 7S 7H 7D'
    """
    return tuple(sorted((canonical_meld(m) for m in melds), key=_meld_order))


def table_text(melds: Iterable[Sequence[int]]) -> str:
    """Melds as text, separated by ``|`` (as given, not reordered).

    >>> table_text([parse_cards("7S 7H 7D"), parse_cards("4C 5C 6C")])
    '7S 7H 7D | 4C 5C 6C'
    """
    return " | ".join(cards_text(m) for m in melds)


def parse_table(text: str) -> tuple[Meld, ...]:
    """Read a table written as melds separated by ``|``; every meld is checked; canonical result.

    >>> table_text(parse_table("7H 7S 7D | 4C 5C 6C"))
    '4C 5C 6C | 7S 7H 7D'
    >>> parse_table("  ")
    ()
    >>> parse_table("7H 7S | 4C 5C 6C")
    Traceback (most recent call last):
    ...
    shanghai.errors.InvalidMeldError: meld 1 of the table: 7H 7S: a meld needs at least 3 cards
    """
    if not text.strip():
        return ()
    melds: list[Meld] = []
    for i, part in enumerate(text.split("|"), 1):
        if not part.strip():
            raise InvalidMeldError(f"meld {i} of the table is empty")
        cards = parse_cards(part)
        try:
            check_meld(cards)
        except InvalidMeldError as e:
            raise InvalidMeldError(f"meld {i} of the table: {e}") from None
        melds.append(tuple(cards))
    return canonical_table(melds)


# -- the dynamic programme ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Trans:
    """One way the open runs of a suit go through a rank: ``ext`` the slots (indices into the sorted old
    state) that take a card, ``absorbed`` the unfinished slots that end by joining a kept run starting at
    this rank, ``n3`` how many of the started slots continue a kept run that ended just before, ``order``
    the old slot indices in the order of the new (sorted) state."""

    new: int
    events: int
    ext: tuple[int, ...]
    absorbed: tuple[int, ...]
    n3: int
    order: tuple[int, ...]


@cache
def _suit_states(k: int) -> tuple[tuple[tuple[int, ...], ...], dict[tuple[int, ...], int]]:
    # every multiset of k slot lengths from {0, 1, 2, 3}, as sorted tuples; index 0 is all-empty
    states = tuple(itertools.combinations_with_replacement(range(4), k))
    return states, {s: i for i, s in enumerate(states)}


@cache
def _transitions(k: int, si: int, r: int, absorb: int, start3: int) -> tuple[_Trans, ...]:
    states, index = _suit_states(k)
    old = states[si]
    best: dict[int, _Trans] = {}
    for ext in itertools.combinations(range(k), r):
        lengths: list[int] = []
        absorbed = tuple(i for i in range(k) if i not in ext and old[i] in (1, 2))
        if len(absorbed) > absorb:
            continue
        starts = [i for i in ext if old[i] == 0]
        for n3 in range(min(start3, len(starts)) + 1):
            first3 = starts[:n3]
            lengths = [(3 if i in first3 else 1) if i in ext and old[i] == 0
                       else min(old[i] + 1, 3) if i in ext else 0 for i in range(k)]
            order = tuple(sorted(range(k), key=lambda i: lengths[i]))
            new = index[tuple(lengths[i] for i in order)]
            events = len(absorbed) + n3
            if new not in best or events < best[new].events:  # the same future: keep the fewest events
                best[new] = _Trans(new, events, ext, absorbed, n3, order)
    if k <= 4:
        # drop a result that another one dominates at no more events: it can never do better
        found = list(best.values())
        best = {t.new: t for t in found if not any(
            u is not t and u.events <= t.events and _dominates(states[u.new], states[t.new]) for u in found)}
    return tuple(best.values())


_SLOT_GE = {(a, b) for a in range(4) for b in range(4) if a == b or a == 3 or (a, b) == (2, 1)}


@cache
def _dominates(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Is suit state ``a`` at least as good as ``b`` whatever comes next? A slot of 3 or more can do
    all that any slot can (go on, or end), a slot of 2 all that a slot of 1 can; so ``a`` dominates when
    its slots can be matched to ``b``'s one to one, each at least as good."""
    return a != b and any(all((x, y) in _SLOT_GE for x, y in zip(p, b, strict=True))
                          for p in itertools.permutations(a))


@lru_cache(maxsize=65536)
def _viable(k: int, hi1: int, hi2: int, ab1: int, ab2: int) -> frozenset[int]:
    """Suit states that can still be finished: every unfinished slot needs a card at the next rank (or a
    kept run starting there to join), every slot of length 1 one more at the rank after."""
    states = _suit_states(k)[0]
    return frozenset(i for i, st in enumerate(states)
                     if sum(1 for x in st if x in (1, 2)) <= hi1 + ab1 and st.count(1) <= hi2 + ab1 + ab2)


@cache
def _dominance(k: int) -> tuple[list[frozenset[int]], list[int]]:
    """Per suit state: the states it dominates or equals, and its strength (sum of its slot lengths:
    larger in a dominating state)."""
    states = _suit_states(k)[0]
    ge = [frozenset(j for j, b in enumerate(states) if a == b or _dominates(a, b)) for a in states]
    return ge, [sum(a) for a in states]


_SetVectors = tuple[tuple[tuple[int, ...], tuple[int, ...], int], ...]


@lru_cache(maxsize=4096)
def _set_vectors(hi: tuple[int, ...], cap: tuple[int, ...]) -> _SetVectors:
    """Every number of cards per suit a rank can give to sets, with how many of them extend kept 3-card
    sets (``cap``: kept sets missing each suit) at the fewest such extensions. A vector ``c`` of new sets
    is a sum of sets of 3 or 4 different suits exactly when ``3 * max(c) <= sum(c)`` (take max(c) sets)."""
    out: dict[tuple[int, ...], tuple[tuple[int, ...], int]] = {}
    for e in itertools.product(*(range(min(a, b) + 1) for a, b in zip(cap, hi, strict=True))):
        for c in itertools.product(*(range(h - x + 1) for h, x in zip(hi, e, strict=True))):
            if any(c) and 3 * max(c) > sum(c):
                continue
            total = tuple(a + b for a, b in zip(c, e, strict=True))
            ev = sum(e)
            if total not in out or ev < out[total][1]:
                out[total] = (e, ev)
    return tuple((t, e, ev) for t, (e, ev) in sorted(out.items()))


def _sets_of(c: Sequence[int]) -> list[list[int]]:
    """Split a decomposable per-suit count vector into sets (suit lists), deterministically."""
    total = max(c) if any(c) else 0
    full = sum(c) - 3 * total
    out = [[0, 1, 2, 3] for _ in range(full)]
    for s in range(4):
        out += [[t for t in range(4) if t != s] for _ in range(total - c[s])]
    return out


@dataclass(slots=True)
class _Pins:
    """Kept melds: run starts/ends and kept 3-card sets by rank and suit (indices into ``runs``/``sets``)."""

    runs: list[list[int]]
    sets: list[list[int]]
    starting: dict[tuple[int, int], list[int]]  # (rank, suit) -> kept runs starting there
    ending: dict[tuple[int, int], list[int]]  # (rank, suit) -> kept runs ending just before rank
    open_sets: dict[tuple[int, int], list[int]]  # (rank, missing suit) -> kept 3-card sets


def _make_pins(melds: Sequence[Meld]) -> _Pins:
    pins = _Pins([], [], {}, {}, {})
    for m in melds:
        cards = sorted(m)
        if meld_kind(m) == "run":
            j = len(pins.runs)
            pins.runs.append(list(cards))
            s, a, b = cards[0] >> 4, cards[0] & 15, cards[-1] & 15
            pins.starting.setdefault((a, s), []).append(j)
            pins.ending.setdefault((b + 1, s), []).append(j)
        else:
            j = len(pins.sets)
            pins.sets.append(sorted(m, key=lambda c: c >> 4))
            if len(m) == 3:
                missing = ({0, 1, 2, 3} - {c >> 4 for c in m}).pop()
                pins.open_sets.setdefault((cards[0] & 15, missing), []).append(j)
    return pins


Grid = list[list[int]]  # [rank 0..14][suit 0..3] card counts
_Option = tuple[int, int, int, int, _Trans]  # new suit state (shifted into place), hand cards, events, run cards
_Pair = tuple[int, int, int, _Option, _Option]  # new state of two suits, score, suits using hand cards, options
_Step = tuple[int, tuple[int, ...], tuple[int, ...], tuple[_Option, ...]]


def _grid(cards: Iterable[int]) -> Grid:
    g = [[0, 0, 0, 0] for _ in range(_NRANKS + 1)]
    for c in cards:
        g[c & 15][c >> 4] += 1
    return g


_Quad = tuple[int, int, int, int]
_RankInputs = tuple[_Quad, _Quad, _Quad, _Quad]  # per suit: free copies, kept runs starting, ending, open sets
_ZERO: _Quad = (0, 0, 0, 0)
_Result = tuple[int, list[dict[int, tuple[int, _Step]]]]


@lru_cache(maxsize=256)
def _rank_step(r: int, listing: bool, k: _Quad, lo: _Quad, inputs: _RankInputs,
               ahead: tuple[_Quad, _Quad, _Quad, _Quad] | None) -> _RankStep:
    """The rank step of these inputs, kept with what it has worked out: in a search's rollouts and
    a player's turns the solver meets the same ranks again and again (the table and hand change at a
    few ranks), and a step depends on nothing else. Kept few: 2,048 held so many objects that the
    garbage collector's full passes doubled the solver's p99 (``benchmarks/bench_table.py``)."""
    return _RankStep(r, listing, k, lo, inputs, ahead)


class _RankStep:
    """The transitions of one rank: per suit, the ways its open runs go on given the cards it gives to
    sets (cached per suit state); per pair of suits, those ways combined; then every state times every
    set vector. ``ahead``: the most free copies and kept runs starting, per suit, at the next two
    ranks (None past the king)."""

    def __init__(self, r: int, listing: bool, k: _Quad, lo: _Quad, inputs: _RankInputs,
                 ahead: tuple[_Quad, _Quad, _Quad, _Quad] | None) -> None:
        self.r, self.listing, self.k, self.lo = r, listing, k, lo
        self.hi, self.absorb, self.start3, cap = inputs
        cvecs = _set_vectors(self.hi, cap)
        self.w = _W + r
        if ahead is not None:
            # states that can still be finished, looking two ranks ahead
            hi1, ab1, hi2, ab2 = ahead
            self.viable = [_viable(k[s], hi1[s], hi2[s], ab1[s], ab2[s]) for s in range(4)]
        else:
            self.viable = [frozenset([0])] * 4
        self.by01: dict[tuple[int, int], list[tuple[tuple[int, int], tuple[int, ...], tuple[int, ...], int]]] = {}
        for c, e, cev in cvecs:
            self.by01.setdefault((c[0], c[1]), []).append(((c[2], c[3]), c, e, cev))
        self.wanted = [sorted(self.by01), sorted({k for group in self.by01.values() for k, _c, _e, _v in group})]
        self.cache: list[dict[tuple[int, int], list[_Option]]] = [{}, {}, {}, {}]
        self.half_cache: list[dict[tuple[int, int], dict[tuple[int, int], list[_Pair]]]] = [{}, {}]

    def options(self, s: int, si: int, cs: int) -> list[_Option]:
        """The ways suit ``s`` in state ``si`` goes through this rank giving ``cs`` cards to sets."""
        got = self.cache[s].get((si, cs))
        if got is None:
            got = []
            ok = self.viable[s]
            lo = self.lo[s]
            for rr in range(max(0, lo - cs), self.hi[s] - cs + 1):
                for t in _transitions(self.k[s], si, rr, self.absorb[s], self.start3[s]):
                    if t.new in ok:
                        got.append((t.new << (_BITS * s), rr + cs - lo, t.events, rr, t))
            self.cache[s][(si, cs)] = got
        return got

    def half(self, h: int, a: int, b: int) -> dict[tuple[int, int], list[_Pair]]:
        """Suits ``2h`` and ``2h + 1`` combined, for every pair of set-card counts with a way through:
        one entry per new state of the two (and per suits using hand cards, when listing), the best."""
        got = self.half_cache[h].get((a, b))
        if got is None:
            got = {}
            w = self.w
            for ca, cb in self.wanted[h]:
                best: dict[tuple[int, int], _Pair] = {}
                for x in self.options(2 * h, a, ca):
                    for y in self.options(2 * h + 1, b, cb):
                        n = x[0] | y[0]
                        v = (x[1] + y[1]) * w - x[2] - y[2]
                        used = ((x[1] > 0) << (2 * h) | (y[1] > 0) << (2 * h + 1)) if self.listing else 0
                        old = best.get((n, used))
                        if old is None or v > old[1]:
                            best[(n, used)] = (n, v, used, x, y)
                if best:
                    got[(ca, cb)] = _undominated(self.k, h, list(best.values()))
            self.half_cache[h][(a, b)] = got
        return got

    def advance(self, cur: dict[int, int]) -> tuple[dict[int, int], dict[int, tuple[int, _Step]]]:
        """The best score of every state after this rank, with its back-pointer."""
        nxt: dict[int, int] = {}
        back: dict[int, tuple[int, _Step]] = {}
        r, by01 = self.r, self.by01
        for key, score in cur.items():
            d01 = self.half(0, key & _MASK, (key >> _BITS) & _MASK)
            d23 = self.half(1, (key >> 2 * _BITS) & _MASK, key >> 3 * _BITS)
            for k01, p01 in d01.items():
                for k23, c, e, cev in by01[k01]:
                    p23 = d23.get(k23)
                    if p23 is None:
                        continue
                    base = score - cev
                    for n01, v01, _u01, x0, x1 in p01:
                        b01 = base + v01
                        for n23, v23, _u23, x2, x3 in p23:
                            nk = n01 | n23
                            v = b01 + v23
                            if v > nxt.get(nk, _NEG):
                                nxt[nk] = v
                                back[nk] = (key, (r, c, e, (x0, x1, x2, x3)))
        return nxt, back

    def advance_cards(self, cur: dict[int, int]) -> dict[int, int]:
        """For every state after this rank, the hand cards (a bit per rank and suit: ``4 * rank + suit``)
        used on some way to reach it."""
        nxt: dict[int, int] = {}
        shift = 4 * self.r
        by01 = self.by01
        for key, mask in cur.items():
            d01 = self.half(0, key & _MASK, (key >> _BITS) & _MASK)
            d23 = self.half(1, (key >> 2 * _BITS) & _MASK, key >> 3 * _BITS)
            for k01, p01 in d01.items():
                for k23, _c, _e, _cev in by01[k01]:
                    p23 = d23.get(k23)
                    if p23 is None:
                        continue
                    for n01, _v01, u01, _x0, _x1 in p01:
                        m01 = mask | u01 << shift
                        for n23, _v23, u23, _x2, _x3 in p23:
                            nk = n01 | n23
                            nxt[nk] = nxt.get(nk, 0) | m01 | u23 << shift
        return nxt


def _undominated(k: _Quad, h: int, entries: list[_Pair]) -> list[_Pair]:
    """Drop the ways through two suits that another way (same suits using hand cards) beats or equals
    in score and dominates in both suits' states."""
    if len(entries) < 2:
        return entries
    sa, sb = _suit_states(k[2 * h])[0], _suit_states(k[2 * h + 1])[0]
    sh = _BITS * 2 * h
    split = [((n >> sh) & _MASK, (n >> (sh + _BITS)) & _MASK) for n, _v, _u, _x, _y in entries]
    keep: list[_Pair] = []
    for i, (_n, v, u, _x, _y) in enumerate(entries):
        a, b = split[i]
        if not any(j != i and entries[j][2] == u and entries[j][1] >= v
                   and (split[j][0] == a or _dominates(sa[split[j][0]], sa[a]))
                   and (split[j][1] == b or _dominates(sb[split[j][1]], sb[b]))
                   and (split[j] != split[i])
                   for j in range(len(entries))):
            keep.append(entries[i])
    return keep


class _Programme:
    """One run of the dynamic programme: ``lo``/``hi`` the fewest and most free copies of each card to
    use (table cards must all be used), ``pins`` the kept melds."""

    def __init__(self, lo: Grid, hi: Grid, pins: _Pins | None = None) -> None:
        self.lo, self.hi, self.pins = lo, hi, pins
        k0, k1, k2, k3 = (max(hi[r][s] for r in range(1, _NRANKS)) for s in range(4))
        self.k: _Quad = (k0, k1, k2, k3)
        # every rank's inputs once (a step reads its own and the next two ranks')
        self.inputs = [self._rank_inputs(r) for r in range(_NRANKS + 2)]
        if max(self.k) > 9:  # a suit state index must fit in _BITS bits
            raise ValueError("the table solver takes at most 9 copies of a card")

    def _rank_inputs(self, r: int) -> _RankInputs:
        """Per suit at rank ``r``: the most free copies, the kept runs starting at ``r`` and ending just
        before it, and the kept 3-card sets missing that suit (ranks past the king have no cards)."""
        if r >= _NRANKS:
            return _ZERO, _ZERO, _ZERO, _ZERO
        row = self.hi[r]
        hi = (row[0], row[1], row[2], row[3])
        pins = self.pins
        if pins is None:
            return hi, _ZERO, _ZERO, _ZERO
        a0, a1, a2, a3 = (len(pins.starting.get((r, s), ())) for s in range(4))
        s0, s1, s2, s3 = (len(pins.ending.get((r, s), ())) for s in range(4))
        c0, c1, c2, c3 = (len(pins.open_sets.get((r, s), ())) for s in range(4))
        return hi, (a0, a1, a2, a3), (s0, s1, s2, s3), (c0, c1, c2, c3)

    def _step(self, r: int, listing: bool) -> _RankStep:
        """The step of rank ``r`` (shared with every programme whose inputs there are the same)."""
        lo = self.lo[r] if r < _NRANKS else _ZERO
        ahead = None
        if r < _NRANKS:
            one, two = self.inputs[r + 1], self.inputs[r + 2]
            ahead = (one[0], one[1], two[0], two[1])
        return _rank_step(r, listing, self.k, (lo[0], lo[1], lo[2], lo[3]), self.inputs[r], ahead)

    def run(self) -> _Result | None:
        """Forward pass: the best score at the end (None if no arrangement) and the back-pointers per rank."""
        cur: dict[int, int] = {0: 0}
        backs: list[dict[int, tuple[int, _Step]]] = []
        for r in range(1, _NRANKS + 1):
            nxt, back = self._step(r, False).advance(cur)
            if not nxt:
                return None
            if len(nxt) > 1:
                self._prune(nxt, False)
            cur = nxt
            backs.append(back)
        return cur[0], backs

    def usable(self) -> int | None:
        """Forward pass for the hand cards on some complete path (every path to the last state is one);
        None if there is no arrangement. A state is dropped when another dominates it and has reached it
        with every card it has: whatever finishes the dropped one finishes the other, with those cards."""
        cur: dict[int, int] = {0: 0}
        for r in range(1, _NRANKS + 1):
            nxt = self._step(r, True).advance_cards(cur)
            if not nxt:
                return None
            if len(nxt) > 1:
                self._prune(nxt, True)
            cur = nxt
        return cur[0]

    def _prune(self, nxt: dict[int, int], by_cards: bool) -> None:
        """Drop every state that another one dominates (suit by suit) with a value that covers its own:
        a score no lower, or (``by_cards``) every hand card it was reached with. States are taken
        strongest first (a dominating state has longer slots in all), so one pass keeps exactly the
        undominated ones."""
        tables = [_dominance(k) for k in self.k]
        (ge0, w0), (ge1, w1), (ge2, w2), (ge3, w3) = tables
        split = {key: (key & _MASK, (key >> _BITS) & _MASK, (key >> 2 * _BITS) & _MASK, key >> 3 * _BITS)
                 for key in nxt}
        order = sorted(nxt, key=lambda key: -(w0[split[key][0]] + w1[split[key][1]] + w2[split[key][2]]
                                               + w3[split[key][3]]))
        kept: list[tuple[int, int, int, int, int]] = []
        for key in order:
            val = nxt[key]
            a0, a1, a2, a3 = split[key]
            for b0, b1, b2, b3, bval in kept:
                if ((val & ~bval == 0) if by_cards else bval >= val) and a0 in ge0[b0] and a1 in ge1[b1] \
                        and a2 in ge2[b2] and a3 in ge3[b3]:
                    del nxt[key]
                    break
            else:
                kept.append((a0, a1, a2, a3, val))

    def used(self, backs: list[dict[int, tuple[int, _Step]]]) -> list[_Step]:
        """The choices of the best path, rank by rank."""
        steps: list[_Step] = []
        key = 0
        for back in reversed(backs):
            key, step = back[key]
            steps.append(step)
        steps.reverse()
        return steps

    def build(self, steps: list[_Step]) -> list[list[int]]:
        """The melds of a path: the runs from the slots, the sets from the set vectors, the kept melds."""
        pins = self.pins if self.pins is not None else _Pins([], [], {}, {}, {})
        states = [_suit_states(k)[0] for k in self.k]
        slots: list[list[list[int] | None]] = [[None] * k for k in self.k]
        slot_state = [0, 0, 0, 0]
        closed: list[list[int]] = []
        kept_runs = [list(m) for m in pins.runs]
        continued: set[int] = set()
        absorbed_into: set[int] = set()
        kept_sets = [list(m) for m in pins.sets]
        extended: set[int] = set()
        new_sets: list[list[int]] = []
        for r, c, e, opts in steps:
            for s in range(4):
                t = opts[s][4]
                old = states[s][slot_state[s]]
                card = s * 16 + r
                starting = pins.starting.get((r, s), [])
                ending = pins.ending.get((r, s), [])
                entries: list[list[int] | None] = [None] * len(old)
                n3 = t.n3
                for i in range(len(old)):
                    run = slots[s][i]
                    if i in t.ext:
                        if old[i] == 0:
                            if n3:
                                j = next(j for j in ending if j not in continued)
                                continued.add(j)
                                run = kept_runs[j]
                                n3 -= 1
                            else:
                                run = []
                        assert run is not None
                        run.append(card)
                        entries[i] = run
                    elif i in t.absorbed:
                        assert run is not None
                        j = next(j for j in starting if j not in absorbed_into)
                        absorbed_into.add(j)
                        run.extend(kept_runs[j])
                        kept_runs[j] = run
                    elif old[i] == 3:
                        assert run is not None
                        closed.append(run)
                slots[s] = [entries[i] for i in t.order]
                slot_state[s] = t.new
            for s in range(4):
                for _ in range(e[s]):
                    j = next(j for j in pins.open_sets[(r, s)] if j not in extended)
                    extended.add(j)
                    kept_sets[j].append(s * 16 + r)
            free = [a - b for a, b in zip(c, e, strict=True)]
            new_sets += [[s * 16 + r for s in suits] for suits in _sets_of(free)]
        return closed + [kept_runs[j] for j in range(len(kept_runs)) if j not in continued] + kept_sets + new_sets


# -- inputs -------------------------------------------------------------------------------------------
TableLike = Sequence[Sequence[int]] | Sequence[int]


def _table_melds(table: TableLike) -> tuple[list[int], list[Meld] | None]:
    """The table's cards, and its melds when it was given as melds."""
    if len(table) and not isinstance(table[0], int):
        melds = [tuple(Card(c) for c in m) for m in table]  # type: ignore[union-attr]
        return [c for m in melds for c in m], melds
    return [int(c) for c in table], None  # type: ignore[arg-type]


def _sub(a: Grid, b: Grid) -> Grid:
    return [[x - y for x, y in zip(ra, rb, strict=True)] for ra, rb in zip(a, b, strict=True)]


def _add(a: Grid, b: Grid) -> Grid:
    return [[x + y for x, y in zip(ra, rb, strict=True)] for ra, rb in zip(a, b, strict=True)]


def _plausible(table: Grid, hand: Grid) -> Grid:
    """Hand cards that pass a local test, repeated until nothing changes: a card can only be placed if
    its rank has cards of 3 suits (a set) or it has two neighbours of its suit in a row (a run).
    Everything else can never be placed, and leaving it out keeps the programme small."""
    hand = [row[:] for row in hand]
    changed = True
    while changed:
        changed = False
        have = [[table[r][s] + hand[r][s] > 0 for s in range(4)] for r in range(_NRANKS + 1)] + [[False] * 4]
        for r in range(1, _NRANKS):
            suits = sum(have[r])
            for s in range(4):
                if hand[r][s] and suits < 3:
                    below2 = r >= 3 and have[r - 2][s] and have[r - 1][s]
                    around = have[r - 1][s] and have[r + 1][s]
                    above2 = have[r + 1][s] and have[r + 2][s]
                    if not (below2 or around or above2):
                        hand[r][s] = 0
                        changed = True
    return hand


# -- arranging ----------------------------------------------------------------------------------------
def _solve_free(cards: Grid, pins: Sequence[Meld]) -> list[list[int]] | None:
    """Arrange ``cards`` (the free ones, pinned melds' cards excluded) around the pinned melds."""
    prog = _Programme(cards, cards, _make_pins(pins) if pins else None)
    res = prog.run()
    if res is None:
        return None
    return prog.build(prog.used(res[1]))


def _grid_minus_melds(cards: Grid, melds: Sequence[Meld]) -> Grid | None:
    free = [row[:] for row in cards]
    for m in melds:
        for c in m:
            free[c & 15][c >> 4] -= 1
            if free[c & 15][c >> 4] < 0:
                return None
    return free


def _touches(meld: Meld, cards: Sequence[int]) -> bool:
    # a card can only share a meld with cards of its rank, or of its suit next to it
    return any((x & 15) == (c & 15) or ((x >> 4) == (c >> 4) and abs((x & 15) - (c & 15)) <= 1)
               for x in meld for c in cards)


def _keep_most(grid: Grid, kept: list[Meld], loose: Grid,
               hint: list[list[int]] | None = None) -> list[list[int]] | None:
    """Release kept melds until an arrangement exists, then pin the released ones again where possible.

    Each round asks the programme for the most loose cards it can place around the melds still pinned
    (the released melds' cards must all be placed); the kept melds near the cards left over (same rank,
    or same suit and next to them) are released, and so on. Then the released melds are pinned again
    in the given order, each where still possible with those before it (pinning is monotone: what fails
    with fewer pins fails with more; a released meld that the arrangement found holds anyway is pinned
    without asking). With ``hint`` (an arrangement of all the cards), the melds it holds are the first
    pinned ones instead."""

    def attempt(pins: list[Meld], extra: Grid) -> tuple[list[list[int]] | None, list[int]]:
        free = _grid_minus_melds(grid, pins)
        assert free is not None
        lo = _sub(free, extra)
        prog = _Programme(lo, free, _make_pins(pins) if pins else None)
        res = prog.run()
        if res is None:
            return None, [c for m in pins for c in m] + [c for r in range(1, _NRANKS) for s in range(4)
                                                        for c in [s * 16 + r] * free[r][s]]
        steps = prog.used(res[1])
        used = _grid([])
        for r, c, _e, opts in steps:
            if r < _NRANKS:
                for s in range(4):
                    used[r][s] = opts[s][3] + c[s]
        left = [s * 16 + r for r in range(1, _NRANKS) for s in range(4) for _ in range(free[r][s] - used[r][s])]
        return (prog.build(steps) if not left else None), left

    def solve(pins: list[Meld]) -> list[list[int]] | None:
        free = _grid_minus_melds(grid, pins)
        assert free is not None
        return _solve_free(free, pins)

    pinned = list(range(len(kept)))
    released: list[int] = []
    got: list[list[int]] | None = None
    if hint is not None:
        # start from the kept melds that a known arrangement already holds
        hosted = _hosted(kept, hint)
        got = solve([m for m, h in zip(kept, hosted, strict=True) if h])
        if got is not None:
            pinned = [i for i, h in enumerate(hosted) if h]
            released = [i for i, h in enumerate(hosted) if not h]
    if got is None:
        got, frontier = attempt([kept[i] for i in pinned], loose)
    while got is None:
        if not pinned:
            return None  # everything released and still no arrangement
        near = [i for i in pinned if _touches(kept[i], frontier)] or pinned
        released += near
        pinned = [i for i in pinned if i not in near]
        got, left = attempt([kept[i] for i in pinned], loose)
        frontier += left
    base = [kept[i] for i in pinned]
    todo = sorted(released)
    while todo:
        # released melds that the arrangement found holds anyway are pinned for free
        hosted = _hosted([kept[i] for i in todo], got)
        base += [kept[i] for i, h in zip(todo, hosted, strict=True) if h]
        todo = [i for i, h in zip(todo, hosted, strict=True) if not h]
        if not todo:
            break
        # the others mostly cannot be kept (the arrangement found would likely hold them): one at a time
        again = solve([*base, kept[todo[0]]])
        if again is not None:
            base.append(kept[todo[0]])
            got = again
        todo = todo[1:]
    return got


def _hosted(melds: list[Meld], arrangement: list[list[int]]) -> list[bool]:
    """Which of ``melds`` the arrangement keeps (each inside a meld of it, of the same kind, disjoint
    from the others so kept there)."""
    room = [(meld_kind(m), Counter(m)) for m in arrangement]
    out = []
    for m in melds:
        kind, need = meld_kind(m), Counter(int(c) for c in m)
        for k, left in room:
            if k == kind and not need - left:
                left.subtract(need)
                out.append(True)
                break
        else:
            out.append(False)
    return out


def arrange(cards: Sequence[int], keep: Sequence[Sequence[int]] = ()) -> tuple[Meld, ...] | None:
    """Partition all of ``cards`` into legal melds (canonical table), or None if that is impossible.

    ``keep`` (the table's current melds) says which melds to disturb as little as possible. A kept meld
    is *kept* when the result holds it unchanged or grown: a 3-card set that took its missing suit, a run
    with more cards at either end (two kept runs may even be joined by the cards between them). Promise:

    1. If every kept meld can be kept, all are, and among such arrangements one with the fewest
       growth steps (a set taking a card, a run end growing) is returned: in particular when the other
       cards form melds by themselves, every kept meld is returned unchanged.
    2. Otherwise a *maximal* choice of kept melds is kept: no other kept meld could be kept as well
       (not always the largest choice; finding that is much harder). The melds near the cards that do
       not fit are released, then those near the released ones, and so on until an arrangement exists;
       then the released melds are kept again one by one, in the given order, wherever still possible.
       The other cards are rearranged freely.

    Raises ``InvalidMeldError`` if a kept meld is not legal, ``ValueError`` if the kept melds use
    cards that ``cards`` does not hold.

    >>> table = parse_table("3H 4H 5H 6H 7H | 8S 8D 8C")
    >>> table_text(arrange([c for m in table for c in m] + parse_cards("8H"), keep=table))
    '3H 4H 5H 6H 7H 8H | 8S 8D 8C'
    >>> table_text(arrange([c for m in table for c in m] + parse_cards("5H"), keep=table))
    '3H 4H 5H | 5H 6H 7H | 8S 8D 8C'
    >>> arrange(parse_cards("3H 4H 6H")) is None
    True
    """
    return _arrange(cards, keep, None)


def _arrange(cards: Sequence[int], keep: Sequence[Sequence[int]], hint: list[list[int]] | None
             ) -> tuple[Meld, ...] | None:
    _check_cards(cards)
    grid = _grid(cards)
    kept = [tuple(Card(c) for c in m) for m in keep]
    for m in kept:
        check_meld(m)
    if kept:
        free = _grid_minus_melds(grid, kept)
        if free is None:
            raise ValueError("the kept melds use cards that are not among the cards to arrange")
        melds = _solve_free(free, kept)
        if melds is None:
            melds = _keep_most(grid, kept, free, hint)
    else:
        melds = _solve_free(grid, [])
    if melds is None:
        return None
    return canonical_table(melds)


# -- plays --------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TablePlay:
    """A play: the hand cards placed (sorted) and the whole table after it (canonical)."""

    placed: tuple[Card, ...]
    table: tuple[Meld, ...]


def _prepare(table: TableLike, hand: Sequence[int]) -> tuple[list[int], list[Meld] | None, Grid, Grid]:
    cards, melds = _table_melds(table)
    _check_cards(cards)
    _check_cards(hand)
    return cards, melds, _grid(cards), _grid(hand)


def best_play(table: TableLike, hand: Sequence[int], *, must_place: Sequence[int] = (),
              keep_table: bool = True) -> TablePlay | None:
    """The play that places the most hand cards; on a tie the highest value (sum of ranks, A=1 ... K=13);
    further ties are broken by the programme's fixed order (the same cards always give the same play).

    ``table`` is a list of melds or a flat list of cards (only its cards matter for which play is best).
    ``must_place``: hand cards that must be among those placed (a ``ValueError`` if the hand lacks them).
    Returns ``placed=()`` when nothing can be placed; None when no choice of hand cards (none included)
    completes the table into legal melds, or ``must_place`` cannot be met (a table of legal melds is
    always arrangeable: then None only ever comes from ``must_place``). With ``keep_table`` and a
    table of legal melds, the result's table keeps the current melds where it can
    (``arrange(..., keep=table)``); otherwise it is the programme's own arrangement.

    >>> play = best_play(parse_table("3H 4H 5H 6H 7H | 8S 8D 8C"), parse_cards("5H 2C"))
    >>> cards_text(play.placed), table_text(play.table)
    ('5H', '3H 4H 5H | 5H 6H 7H | 8S 8D 8C')
    >>> best_play([], parse_cards("2C 9D")).placed
    ()
    """
    cards, melds, tgrid, hgrid = _prepare(table, hand)
    _check_cards(must_place)
    mgrid = _grid(must_place)
    for r in range(1, _NRANKS):
        for s in range(4):
            if mgrid[r][s] > hgrid[r][s]:
                raise ValueError(f"must_place holds {cards_text([s * 16 + r])} more often than the hand")
    plaus = _plausible(tgrid, hgrid)
    if any(mgrid[r][s] > plaus[r][s] for r in range(1, _NRANKS) for s in range(4)):
        return None
    legal_melds = melds is not None and all(meld_kind(m) is not None for m in melds)
    if legal_melds and melds is not None and not any(any(row) for row in plaus):
        return TablePlay((), canonical_table(melds))  # nothing placeable, and the table stands as it is
    prog = _Programme(_add(tgrid, mgrid), _add(tgrid, plaus))
    res = prog.run()
    if res is None:
        return None
    steps = prog.used(res[1])
    placed = _placed(steps, tgrid)
    if keep_table and legal_melds and melds:
        # the programme's own arrangement tells which table melds can surely stay
        final = _arrange([*cards, *placed], melds, prog.build(steps))
        assert final is not None
    else:
        final = canonical_table(prog.build(steps))
    return TablePlay(tuple(placed), final)


def most_placed(table: TableLike, hand: Sequence[int], *, drawn: int | None = None) -> tuple[Card, ...]:
    """The hand cards :func:`best_play` places (the same choice), without arranging the table: only
    the table's cards matter for what comes next, so a search's rollouts need no more than this.
    Empty when nothing can be placed (or the table's cards cannot be arranged at all).

    ``drawn``: a hand card just drawn by a hand that could place nothing without it (004: draw until
    a card can be placed). Every play must then use it, so when it cannot be placed in any (the quick
    local test) the answer is empty at once, without the programme; the answer is the same either way.

    >>> cards_text(most_placed(parse_cards("7H 7S 7D 4C 5C 6C"), parse_cards("7C 3C 8H")))
    '3C 7C'
    >>> most_placed(parse_cards("7H 7S 7D"), parse_cards("2C 9D"))
    ()
    >>> most_placed(parse_cards("7H 7S 7D"), parse_cards("2C 9D 8D"), drawn=parse_cards("8D")[0])
    ()
    """
    _cards, _melds, tgrid, hgrid = _prepare(table, hand)
    if drawn is not None and not hgrid[drawn & 15][drawn >> 4]:
        raise ValueError(f"the drawn card {cards_text([drawn])} is not in the hand")
    plaus = _plausible(tgrid, hgrid)
    if drawn is not None and not plaus[drawn & 15][drawn >> 4]:
        return ()
    if not any(any(row) for row in plaus):
        return ()
    prog = _Programme(tgrid, _add(tgrid, plaus))
    res = prog.run()
    return () if res is None else tuple(_placed(prog.used(res[1]), tgrid))


def _placed(steps: list[_Step], tgrid: Grid) -> list[Card]:
    """The hand cards a solution uses: at each rank, the copies used beyond the table's (sorted)."""
    placed: list[Card] = []
    for r, c, _e, opts in steps:
        if r >= _NRANKS:
            continue
        for s in range(4):
            placed += [Card(s * 16 + r)] * (opts[s][3] + c[s] - tgrid[r][s])
    placed.sort()
    return placed


def _direct_layoff(melds: Sequence[Meld], hand: Grid) -> bool:
    """Can some hand card go onto a meld as it is (a run's end, a 3-card set's missing suit)?"""
    for m in melds:
        ranks = sorted(c & 15 for c in m)
        if ranks[0] != ranks[-1]:
            s = m[0] >> 4
            if (ranks[0] > 1 and hand[ranks[0] - 1][s]) or (ranks[-1] < 13 and hand[ranks[-1] + 1][s]):
                return True
        elif len(m) == 3:
            suits = {c >> 4 for c in m}
            if any(hand[ranks[0]][s] for s in range(4) if s not in suits):
                return True
    return False


def _hand_meld(hand: Grid) -> bool:
    """Does the hand alone hold a meld?"""
    for r in range(1, _NRANKS):
        if sum(1 for s in range(4) if hand[r][s]) >= 3:
            return True
        if r <= 11 and any(hand[r][s] and hand[r + 1][s] and hand[r + 2][s] for s in range(4)):
            return True
    return False


def can_place(table: TableLike, hand: Sequence[int]) -> bool:
    """Can at least one hand card be placed (with the table cards all arranged into legal melds)?
    Quick tests first (a direct lay-off, a meld in the hand), then the programme.

    >>> can_place(parse_table("7H 7S 7D | 4C 5C 6C"), parse_cards("8H 2D"))
    False
    >>> can_place(parse_table("7H 7S 7D | 4C 5C 6C"), parse_cards("8H 3C"))
    True
    """
    _cards, melds, tgrid, hgrid = _prepare(table, hand)
    plaus = _plausible(tgrid, hgrid)
    if not any(any(row) for row in plaus):
        return False
    if melds is not None and all(meld_kind(m) is not None for m in melds) and (
            _direct_layoff(melds, plaus) or _hand_meld(plaus)):
        return True
    res = _Programme(tgrid, _add(tgrid, plaus)).run()
    return res is not None and res[0] >= _W


def placeable_cards(table: TableLike, hand: Sequence[int]) -> frozenset[Card]:
    """Every distinct hand card that belongs to some legal play (empty if the table cannot be arranged).

    >>> cards_text(sorted(placeable_cards(parse_table("7H 7S 7D | 4C 5C 6C"), parse_cards("7C 3C 8H"))))
    '3C 7C'
    """
    _cards, _melds, tgrid, hgrid = _prepare(table, hand)
    plaus = _plausible(tgrid, hgrid)
    if not any(any(row) for row in plaus):
        return frozenset()
    mask = _Programme(tgrid, _add(tgrid, plaus)).usable()
    if mask is None:
        return frozenset()
    out = {Card((bit & 3) * 16 + (bit >> 2)) for bit in range(4, 4 * _NRANKS) if mask >> bit & 1}
    return frozenset(out)


def placeable_alone(table: TableLike, hand: Sequence[int],
                    placeable: frozenset[Card] | None = None) -> frozenset[Card]:
    """The hand cards that can be placed by themselves; the others of :func:`placeable_cards` need
    more cards of the hand with them (a new meld, or a rearrangement only they complete together).
    ``placeable``: those cards, where the caller has them already.

    >>> table, hand = parse_table("7H 7S 7D | 4C 5C 6C"), parse_cards("7C 3C JH QH KH")
    >>> cards_text(sorted(placeable_cards(table, hand)))
    'JH QH KH 3C 7C'
    >>> cards_text(sorted(placeable_alone(table, hand)))
    '3C 7C'
    """
    can = placeable_cards(table, hand) if placeable is None else placeable  # the caller's, worked out once
    return frozenset(c for c in can if can_place(table, [c]))


def placeable_words(table: TableLike, hand: Sequence[int], label: Callable[[Card], str] = card_text,
                    single: bool = True) -> str:
    """The cards of the hand some play places, sorted, saying which need other cards of the hand
    with them (all of them where ``single`` is False: the rules allow no one-card play now); empty
    when none can be placed.

    >>> placeable_words(parse_table("7H 7S 7D | 4C 5C 6C"), parse_cards("7C 3C JH QH KH"))
    '3C 7C alone; JH QH KH together with other cards of your hand'
    >>> placeable_words(parse_table("7H 7S 7D"), parse_cards("JH QH KH 2C"))
    'JH QH KH, together with other cards of your hand'
    """
    can = placeable_cards(table, hand)
    cards = sorted(can, key=sort_key)
    alone = placeable_alone(table, hand, can) if single else frozenset()  # single False: no one-card play
    by_itself = " ".join(label(c) for c in cards if c in alone)
    together = " ".join(label(c) for c in cards if c not in alone)
    if not together:
        return by_itself
    if not by_itself:
        return f"{together}, together with other cards of your hand"
    return f"{by_itself} alone; {together} together with other cards of your hand"
