"""Hand evaluation and card counting for the computer players, from a seat's view only.

* :func:`evaluate` scores a hand against a contract: the cards that count toward it (as
  :func:`shanghai.bots.greedy.contract_progress` does), the *outs* of every unfinished meld (how
  many live cards would bring it one card closer: an outside run 7-8-9 has two ranks of outs, an
  inside run 7-8-_-10 one, a set every copy of its rank), and the points the hand would be caught
  with.
* :class:`Knowledge` counts what the seat has seen this round (its hand, the table, the discards
  still in the pile, the cards others took from the pile) and so estimates how many copies of each
  card are still live, and what each opponent has been picking up.

>>> from shanghai.cards import parse_cards
>>> live = [2.0] * 65
>>> outside = evaluate(parse_cards("7H 8H 9H KS"), (), (4,), live)
>>> inside = evaluate(parse_cards("7H 8H 10H KS"), (), (4,), live)
>>> (outside.progress, outside.outs), (inside.progress, inside.outs)
((3, 4.0), (3, 2.0))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from shanghai.cards import JOKER, Card, card_text
from shanghai.engine.actions import Buy, CallShanghai, Discard, DrawStock, GoDown, TakeDiscard
from shanghai.engine.view import MeldView, PlayerView
from shanghai.errors import InvalidMeldError
from shanghai.fits import lay_off_options
from shanghai.melds import make_meld
from shanghai.rules.model import Rules

_POP = [bin(i).count("1") for i in range(1 << 15)]


@dataclass(frozen=True, slots=True)
class HandEval:
    """What :func:`evaluate` finds in a hand."""

    progress: int                 # cards counting toward the contract (wilds included)
    missing: int                  # contract size minus progress
    outs: float                   # live cards that would bring an unfinished meld one card closer
    dead_slots: int               # unfinished melds with no live out (only a wild can finish them)
    used: tuple[Card, ...]        # the naturals the plan uses
    complete: int                 # melds of the contract already complete (wilds included)
    out_cards: frozenset[Card] = field(default=frozenset())  # the cards that are outs
    slot_outs: tuple[float, ...] = ()  # the outs of each unfinished meld

    def score(self) -> float:
        """One number: progress first, then each unfinished meld's outs (a meld's outs are never
        worth a card of progress)."""
        return (100.0 * self.progress + sum(4.0 * min(o, 8.0) for o in self.slot_outs)
                - 15.0 * self.dead_slots)


def evaluate(hand: Sequence[int], sets: Sequence[int], runs: Sequence[int], live: Sequence[float],
             wilds: Iterable[int] = (JOKER,), aces: str = "low-or-high") -> HandEval:
    """Score ``hand`` against a contract of ``sets`` and ``runs`` (their sizes).

    ``live[c]`` is the number of copies of natural ``c`` still live (not seen anywhere). The plan
    fills the contract's melds one at a time, each with the candidate covering most cards (ties:
    most outs); wilds then fill the unfinished melds with the fewest outs first.
    """
    wild_set = frozenset(wilds)
    counts = [0] * 65
    n_wild = 0
    for c in hand:
        if c in wild_set:
            n_wild += 1
        else:
            counts[c] += 1
    lo_place = 2 if aces == "high-only" else 1
    hi_place = 13 if aces == "low-only" else 14
    size_total = sum(sets) + sum(runs)
    # the plan is found greedily, which depends on the order of the melds: try a few orders
    orders: list[list[tuple[bool, int]]] = [[(False, s) for s in sets] + [(True, r) for r in runs]]
    if sets and runs:
        orders.append([(True, r) for r in runs] + [(False, s) for s in sets])
    best: HandEval | None = None
    for i, slots in enumerate(orders):
        ev = _plan(list(counts), n_wild, slots, live, lo_place, hi_place, size_total, free=i == 0)
        if best is None or (ev.progress, ev.outs) > (best.progress, best.outs):
            best = ev
    assert best is not None
    return best


def _plan(counts: list[int], n_wild: int, slots: list[tuple[bool, int]], live: Sequence[float],
          lo_place: int, hi_place: int, size_total: int, free: bool) -> HandEval:
    """Fill the melds of ``slots`` one at a time (in that order, or, when ``free``, the one with
    the best candidate first), then let the wilds fill the unfinished ones."""
    used: list[Card] = []
    # (size, covered, outs, out cards) of each filled slot
    filled: list[tuple[int, int, float, list[int]]] = []
    while slots:
        best: tuple[int, float, int, list[int], list[int]] | None = None
        # (covered, outs, slot index, cards used, out cards)
        for i, (is_run, size) in enumerate(slots):
            cand = (_best_run(counts, size, live, lo_place, hi_place) if is_run
                    else _best_set(counts, size, live))
            if best is None or (cand[0], cand[1]) > (best[0], best[1]):
                best = (cand[0], cand[1], i, cand[2], cand[3])
            if not free:
                break
        assert best is not None
        covered, outs, i, cards, outc = best
        for c in cards:
            counts[c] -= 1
        used.extend(Card(c) for c in cards)
        filled.append((slots[i][1], covered, outs, outc))
        del slots[i]
    # wilds fill the unfinished melds, hardest first (fewest outs per missing card)
    order = sorted((f for f in filled if f[1] < f[0]), key=lambda f: f[2] / (f[0] - f[1]))
    wild_left = n_wild
    progress = sum(f[1] for f in filled)
    total_outs = 0.0
    dead = 0
    out_cards: set[Card] = set()
    slot_outs: list[float] = []
    complete = sum(1 for f in filled if f[1] >= f[0])
    for size, covered, outs, outc in order:
        miss = size - covered
        fill = min(wild_left, miss)
        wild_left -= fill
        progress += fill
        if fill == miss:
            complete += 1
            continue
        if outs <= 0:
            dead += 1
        total_outs += outs
        slot_outs.append(outs)
        out_cards.update(Card(c) for c in outc)
    return HandEval(progress, size_total - progress, total_outs, dead, tuple(used), complete,
                    frozenset(out_cards), tuple(slot_outs))


def _best_set(counts: list[int], size: int, live: Sequence[float]) -> tuple[int, float, list[int], list[int]]:
    best_cov = 0
    best_outs = 0.0
    best_rank = 0
    for rank in range(1, 14):
        n = counts[rank] + counts[16 + rank] + counts[32 + rank] + counts[48 + rank]
        if n == 0:
            continue
        cov = min(n, size)
        outs = 0.0
        if cov < size:
            outs = live[rank] + live[16 + rank] + live[32 + rank] + live[48 + rank]
        if (cov, outs) > (best_cov, best_outs):
            best_cov, best_outs, best_rank = cov, outs, rank
    if best_rank == 0:
        return 0, 0.0, [], []
    cards: list[int] = []
    # take the suits with the most copies first (they are the least useful to runs)
    for suit in sorted(range(4), key=lambda s: -counts[s * 16 + best_rank]):
        c = suit * 16 + best_rank
        k = min(counts[c], best_cov - len(cards))
        cards.extend([c] * k)
        if len(cards) >= best_cov:
            break
    outc = [s * 16 + best_rank for s in range(4)] if best_cov < size else []
    return best_cov, best_outs, cards, outc


_WINDOWS: dict[tuple[int, int, int, int], tuple[int, int, tuple[int, ...]]] = {}


def _windows(mask: int, size: int, lo_place: int, hi_place: int) -> tuple[int, int, tuple[int, ...]]:
    """(most ranks of ``mask`` inside one window of ``size``, the lowest such window, the ranks
    that would add one to it), cached: a suit's ranks are a 15-bit mask."""
    key = (mask, size, lo_place, hi_place)
    hit = _WINDOWS.get(key)
    if hit is not None:
        return hit
    full = (1 << size) - 1
    top = 0
    wins: list[int] = []
    for low in range(lo_place, hi_place - size + 2):
        cov = _POP[(mask >> low) & full]
        if cov > top:
            top, wins = cov, [low]
        elif cov == top and cov:
            wins.append(low)
    outs_mask = 0
    for low in wins:
        outs_mask |= (full << low) & ~mask
    ranks = tuple(r for r in range(lo_place, hi_place + 1) if outs_mask >> r & 1) if top < size else ()
    result = (top, wins[0] if wins else 0, ranks)
    if len(_WINDOWS) > 200_000:
        _WINDOWS.clear()
    _WINDOWS[key] = result
    return result


def _best_run(counts: list[int], size: int, live: Sequence[float], lo_place: int,
              hi_place: int) -> tuple[int, float, list[int], list[int]]:
    best: tuple[int, float, int, int, tuple[int, ...]] | None = None  # covered, outs, suit, low, out ranks
    for suit in range(4):
        base = suit * 16
        mask = 0
        for r in range(1, 14):
            if counts[base + r]:
                mask |= 1 << r
        if not mask:
            continue
        if mask & 2:
            mask |= 1 << 14
        top, low, out_ranks = _windows(mask, size, lo_place, hi_place)
        if not top:
            continue
        outs = 0.0
        for r in out_ranks:
            outs += live[base + (1 if r == 14 else r)]
        if best is None or (top, outs) > (best[0], best[1]):
            best = (top, outs, suit, low, out_ranks)
    if best is None:
        return 0, 0.0, [], []
    top, outs, suit, low, out_ranks = best
    base = suit * 16
    cards = [base + (1 if r == 14 else r) for r in range(low, low + size)
             if counts[base + (1 if r == 14 else r)]]
    # an ace can count at both ends of 13 ranks only once
    cards = list(dict.fromkeys(cards))
    outc = list(dict.fromkeys(base + (1 if r == 14 else r) for r in out_ranks))
    return len(cards), outs, cards, outc


# -- what fits the table ------------------------------------------------------------------------
_TABLE_FITS: dict[tuple[int, str, tuple[Card, ...]], frozenset[Card]] = {}


def meld_accepts(meld: MeldView, rules: Rules) -> frozenset[Card]:
    """Every card that may be laid off on ``meld`` (wilds included), cached per meld."""
    key = (id(rules), meld.kind, meld.cards)
    hit = _TABLE_FITS.get(key)
    if hit is not None:
        return hit
    try:
        m = make_meld(meld.cards, rules, "run" if meld.kind == "run" else "set")
        found = frozenset(lay_off_options(m, rules))
    except InvalidMeldError:  # pragma: no cover - a table meld is always legal
        found = frozenset()
    if len(_TABLE_FITS) > 20_000:
        _TABLE_FITS.clear()
    _TABLE_FITS[key] = found
    return found


def table_accepts(table: Sequence[MeldView], rules: Rules) -> frozenset[Card]:
    """Every card that may be laid off somewhere on ``table``."""
    out: set[Card] = set()
    for m in table:
        out |= meld_accepts(m, rules)
    return frozenset(out)


# -- card counting --------------------------------------------------------------------------------
@dataclass(slots=True)
class Knowledge:
    """What a seat knows this round beyond its hand: seen cards and the opponents' pickups."""

    live: list[float]                       # copies of each natural card not seen anywhere
    unseen: float                           # all cards not seen (the stock and the other hands)
    picked: dict[int, list[Card]]           # seat -> cards it took from the pile, still held
    discarded: dict[int, list[Card]]        # seat -> cards it discarded this round
    declined: dict[int, list[Card]]         # seat -> discards it drew over (did not want)
    pile: list[Card]                        # known cards of the discard pile, top last


def knowledge(v: PlayerView) -> Knowledge:
    """Count the cards seen from the view: hand, table, the discard pile and the pickups."""
    rules = v.rules
    pack = rules.pack_for(v.players)
    decks = pack.decks
    seen = [0] * 65
    for c in v.hand:
        seen[c] += 1
    for m in v.table:
        for c in m.cards:
            seen[c] += 1
    pile: list[int] = [-1]  # the flip card, unknown unless still on top
    picked: dict[int, list[Card]] = {}
    discarded: dict[int, list[Card]] = {}
    declined: dict[int, list[Card]] = {}
    last: Card | None = None
    for a in v.history:
        if isinstance(a, DrawStock):
            if last is not None:
                declined.setdefault(a.seat, []).append(last)
            last = None
            continue
        last = None
        if isinstance(a, Discard):
            if not a.shanghai:
                last = a.card
            pile.append(a.card)
            discarded.setdefault(a.seat, []).append(a.card)
            got = picked.get(a.seat)
            if got and a.card in got:
                got.remove(a.card)
        elif isinstance(a, TakeDiscard | Buy):
            top = pile.pop() if pile else -1
            if top >= 0:
                picked.setdefault(a.seat, []).append(Card(top))
        elif isinstance(a, CallShanghai):
            if pile:
                pile.pop()
        elif isinstance(a, GoDown):
            picked.pop(a.seat, None)  # what it picked is on the table now (or unknown)
    if pile and pile[-1] == -1 and v.discard_top is not None and len(pile) == 1:
        pile[-1] = v.discard_top
    if len(pile) > v.discard_size:  # the pile was shuffled into a new stock
        pile = pile[len(pile) - v.discard_size:] if v.discard_size else []
    known_pile = [Card(c) for c in pile if c >= 0]
    for c in known_pile:
        seen[c] += 1
    for s, cards in picked.items():
        if s != v.seat:
            for c in cards:
                seen[c] += 1
    live = [0.0] * 65
    total_live = 0.0
    for suit in range(4):
        for rank in range(1, 14):
            n = max(0, decks - seen[suit * 16 + rank])
            live[suit * 16 + rank] = float(n)
            total_live += n
    jokers_left = max(0, pack.jokers - seen[JOKER])
    live[JOKER] = float(jokers_left)
    total_live += jokers_left
    return Knowledge(live, max(1.0, total_live), picked, discarded, declined, known_pile)


def describe_cards(cards: Iterable[int]) -> str:
    return " ".join(card_text(c) for c in cards)
