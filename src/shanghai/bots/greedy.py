"""The greedy player: a simple, rule-of-thumb strategy that plays toward the round's contract.

It decides from its ``PlayerView`` only and always returns one of ``view.legal``:

* THE CUT: aims at exactly ``hand_size * players + 1`` cards (the count that earns the cut bonus).
* Going down and laying off: a freed wild is laid off first; it goes down as soon as the engine
  offers a ``GoDown``; once down it replaces wilds when offered (that frees a wild it must or may
  lay off) and lays off every card it can, the highest-scoring card first.
* Drawing: before going down it takes the discard when :func:`contract_progress` says the card
  brings the hand closer to the contract (a wild always does while melds are incomplete); once down
  it takes the discard only when the card fits a meld on the table. Otherwise it draws. In
  ``family-10`` (the in-turn player is asked after a buyer has claimed), the same test decides:
  taking the card refuses the buyer, drawing lets the buyer have it.
* Buying ("I'll buy", "May I?"): only while not down, with buys left, when the card raises the
  hand's progress and leaves it at most :data:`BUY_MISSING` cards short of the contract (it
  completes or nearly completes what the hand needs). Early, far-from-done hands never buy.
* Discarding: the card whose loss costs the least progress; ties go to keeping wilds, then to
  keeping cards with partners (same rank, or same suit within two ranks), then to shedding the
  most points. Once down: a card that fits no table meld, highest points first. A card that fits
  a table meld is discarded with the "Shanghai" protection when the rules offer it.
* "Shanghai" calls on another player's discard: called when the bot is already down (every card
  in its hand is then a liability, and a call sheds one), passed otherwise.

Ties are broken by the player's own ``random.Random(seed)``, so a seeded player is deterministic.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Collection, Sequence

from shanghai.cards import JOKER, Card, card_text, rank_of, suit_of
from shanghai.engine.actions import (
    Action,
    Buy,
    CallShanghai,
    Cut,
    Discard,
    DrawStock,
    GoDown,
    LayOff,
    Pass,
    ReplaceWild,
    TakeDiscard,
)
from shanghai.engine.game import Phase
from shanghai.engine.view import MeldView, PlayerView

# A buy must leave the hand at most this many cards short of the contract.
BUY_MISSING = 3

_CONTRACT_PART = re.compile(r"(\d+)\s+(set|run)s?\s+of\s+(\d+)")


def parse_contract(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The set sizes and run sizes of a contract's text (``PlayerView.contract``).

    >>> parse_contract("2 sets of 3 + 1 run of 4")
    ((3, 3), (4,))
    """
    sets: list[int] = []
    runs: list[int] = []
    for count, kind, size in _CONTRACT_PART.findall(text):
        (sets if kind == "set" else runs).extend([int(size)] * int(count))
    return tuple(sets), tuple(runs)


def contract_progress(hand: Sequence[int], sets: Sequence[int], runs: Sequence[int],
                      wilds: Collection[int] = (JOKER,)) -> int:
    """How many cards of ``hand`` count toward a contract of ``sets`` and ``runs`` (their sizes).

    A quick estimate, not the exact solver: it fills the contract's melds one at a time, each time
    with the candidate covering the most cards still free (for a set, naturals of one rank; for a
    run, distinct ranks of one suit inside a window of the run's size, aces low or high), and then
    lets the wild cards fill what is still missing. The result lies between 0 and the contract's
    total size, which it reaches when the hand can (roughly) go down.

    >>> from shanghai.cards import parse_cards
    >>> contract_progress(parse_cards("7H 7S 9D 9C KD 2S"), (3, 3), ())
    4
    >>> contract_progress(parse_cards("7H 7S 9D 9C KD JK"), (3, 3), ())
    5
    >>> contract_progress(parse_cards("5D 6D 8D 9D QD KH"), (), (4,))
    3
    >>> contract_progress(parse_cards("JH QH KH AH 3S"), (), (4,))
    4
    """
    wild_set = set(wilds)
    counts: dict[int, int] = {}
    masks = [0, 0, 0, 0]  # each suit's ranks still free (bit r), kept with ``counts``
    n_wild = 0
    for c in hand:
        if c in wild_set:
            n_wild += 1
        else:
            counts[c] = counts.get(c, 0) + 1
            if c < 64:
                masks[c >> 4] |= 1 << (c & 15)
    slots: list[tuple[bool, int]] = [(False, s) for s in sets] + [(True, r) for r in runs]
    covered_total = 0
    missing = 0
    while slots:
        best: tuple[int, int, list[int]] | None = None  # (covered, slot index, cards used)
        seen: dict[tuple[bool, int], tuple[int, list[int]]] = {}  # slots of one kind and size agree
        for i, slot in enumerate(slots):
            cand = seen.get(slot)
            if cand is None:
                is_run, size = slot
                cand = seen[slot] = _best_run(masks, size) if is_run else _best_set(counts, size)
            if best is None or cand[0] > best[0]:
                best = (cand[0], i, cand[1])
        assert best is not None
        covered, i, used = best
        for c in used:
            left = counts[c] - 1
            counts[c] = left
            if not left and c < 64:
                masks[c >> 4] &= ~(1 << (c & 15))
        covered_total += covered
        missing += slots[i][1] - covered
        del slots[i]
    return covered_total + min(n_wild, missing)


def _best_set(counts: dict[int, int], size: int) -> tuple[int, list[int]]:
    by_rank: dict[int, list[int]] = {}
    for c, n in counts.items():
        if n > 0:
            by_rank.setdefault(rank_of(c), []).extend([c] * n)
    best: list[int] = []
    for rank in sorted(by_rank):
        cards = by_rank[rank][:size]
        if len(cards) > len(best):
            best = cards
    return len(best), best


# Rank bits of every window of a run's size, lowest first (ranks 1-14, the ace also as 14), and
# the best window of each suit's rank bits, both by run size, filled as met.
_RUN_WINDOWS: dict[int, tuple[int, ...]] = {}
_RUN_BEST: dict[int, dict[int, tuple[int, int]]] = {}


def _best_window(mask: int, size: int) -> tuple[int, int]:
    """(cards, their rank bits) of the first window of ``size`` ranks holding most of ``mask``."""
    by_mask = _RUN_BEST.setdefault(size, {})
    hit = by_mask.get(mask)
    if hit is not None:
        return hit
    windows = _RUN_WINDOWS.get(size)
    if windows is None:
        windows = tuple(sum(1 << r for r in range(low, low + size)) for low in range(1, 16 - size))
        _RUN_WINDOWS[size] = windows
    best = (0, 0)
    for window in windows:
        bits = mask & window
        n = bits.bit_count()
        if n > best[0]:
            best = (n, bits)
    by_mask[mask] = best
    return best


def _best_run(free: list[int], size: int) -> tuple[int, list[int]]:
    """The window of ``size`` ranks of one suit holding most distinct cards (the first found,
    suits in order, lowest window first) and those cards, lowest rank first; ``free`` holds each
    suit's ranks in hand as bits."""
    best_n = 0
    best_suit = 0
    best_bits = 0
    for suit in range(4):
        mask = free[suit]
        if not mask:
            continue
        if mask & 2:
            mask |= 1 << 14  # the ace at the high end
        n, bits = _best_window(mask, size)
        if n > best_n:
            best_n, best_suit, best_bits = n, suit, bits
    if not best_n:
        return 0, []
    base = best_suit * 16
    return best_n, [base + (1 if r == 14 else r) for r in range(1, 15) if best_bits >> r & 1]


def connections(card: int, hand: Sequence[int], wilds: Collection[int]) -> int:
    """Partners of ``card`` in ``hand``: same rank, or same suit within two ranks."""
    if card in wilds:
        return 99
    r, s = rank_of(card), suit_of(card)
    n = 0
    seen_self = False
    for c in hand:
        if c == card and not seen_self:
            seen_self = True
            continue
        if c in wilds:
            continue
        if rank_of(c) == r:
            n += 1
        elif suit_of(c) == s:
            d = abs(rank_of(c) - r)
            if d <= 2 or (r == 1 and rank_of(c) >= 12) or (rank_of(c) == 1 and r >= 12):
                n += 1
    return n


def _meld_ends(meld: MeldView) -> tuple[int, int, int] | None:
    """(suit, low rank, high rank) of a run on the table (ranks 1-14), None when unknown."""
    for i, c in enumerate(meld.cards):
        if c == JOKER:
            continue
        # a natural whose suit differs from the run's would be a wild 2; skip those
        others = [x for x in meld.cards if x != JOKER]
        suit = suit_of(c)
        if sum(1 for x in others if suit_of(x) == suit) * 2 < len(others):
            continue
        r = rank_of(c)
        if r == 1 and i > 0:
            r = 14
        low = r - i
        return suit, low, low + len(meld.cards) - 1
    return None


def fits_table(card: int, table: Sequence[MeldView], wilds: Collection[int]) -> bool:
    """A quick guess whether ``card`` can be laid off on some meld of ``table``."""
    for meld in table:
        if card in wilds:
            return True
        if meld.kind == "set":
            ranks = {rank_of(c) for c in meld.cards if c not in wilds}
            if ranks == {rank_of(card)}:
                return True
        else:
            ends = _meld_ends(meld)
            if ends is None:
                continue
            suit, low, high = ends
            r = rank_of(card)
            if suit_of(card) == suit and (r == low - 1 or r == high + 1
                                          or (r == 1 and high == 13)):
                return True
    return False


class GreedyPlayer:
    """Plays toward the contract with a simple hand evaluation (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int | None = None, *, points_first: bool = False,
                 short_buy_missing: int = BUY_MISSING) -> None:
        self.rng = random.Random(seed)
        # among discards that cost the same progress: shed the most points before keeping partners
        # (the expert's rule in the rounds it plays by greedy's; greedy itself keeps partners first)
        self.points_first = points_first
        # a buy's limit where the contract needs more cards than the hand (the expert's setting)
        self.short_buy_missing = short_buy_missing

    # -- what the view says about the rules (the rules in force, house rules included) -----------
    def _points(self, view: PlayerView, card: int) -> int:
        return view.rules.points(card)

    def _progress(self, view: PlayerView, hand: Sequence[int]) -> int:
        contract = view.rules.contract(view.round_number)
        return contract_progress(hand, contract.sets, contract.runs, view.rules.wild_cards())

    def _contract_size(self, view: PlayerView) -> int:
        return view.rules.contract(view.round_number).min_cards

    def _contract_fits_hand(self, view: PlayerView) -> bool:
        """Can a hand dealt this round hold the whole contract (not RUN RUN RUN's 12 of 11)?"""
        return self._contract_size(view) <= view.rules.hand_size

    # -- the decision ----------------------------------------------------------------------------
    def choose(self, view: PlayerView) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action")
        if view.phase == Phase.CUT:
            return self._cut(view)
        if view.phase == Phase.BUY:
            return self._buy(view)
        if view.phase == Phase.SHANGHAI:
            return self._shanghai(view)
        if view.phase == Phase.DRAW:
            return self._draw(view)
        return self._play(view)

    def _pick(self, options: Sequence[Action]) -> Action:
        return options[0] if len(options) == 1 else self.rng.choice(list(options))

    def _cut(self, view: PlayerView) -> Action:
        cuts = [a for a in view.legal if isinstance(a, Cut)]
        if not cuts:
            return self._pick(view.legal)
        target = view.rules.hand_size * view.players + 1
        return min(cuts, key=lambda a: abs(a.target - target))

    def _me_down(self, view: PlayerView) -> bool:
        return view.seat is not None and view.down[view.seat]

    def _wants(self, view: PlayerView, card: int) -> int:
        """Progress the card adds to the hand (0 when it adds nothing)."""
        return self._progress(view, [*view.hand, card]) - self._progress(view, view.hand)

    def _improves(self, view: PlayerView, card: int) -> bool:
        """Does taking ``card`` and then discarding some other card leave more progress than now?

        (Comparing with the hand after a discard, not just the hand plus the card, keeps two greedy
        players from passing one card back and forth forever.)
        """
        hand = list(view.hand)
        before = self._progress(view, hand)
        return any(self._progress(view, [*hand[:i], *hand[i + 1:], card]) > before
                   for i in range(len(hand)))

    def _buy(self, view: PlayerView) -> Action:
        legal = view.legal
        buy = next((a for a in legal if isinstance(a, Buy)), None)
        passing = next((a for a in legal if isinstance(a, Pass)), None)
        if buy is None or passing is None:
            return passing or buy or self._pick(legal)
        card = view.discard_top
        seat = view.seat
        if card is None or seat is None or self._me_down(view):
            return passing
        if view.buys_used[seat] >= view.buy_limit:
            return passing
        gain = self._wants(view, card)
        after = self._progress(view, [*view.hand, card])
        if gain > 0 and self._contract_size(view) - after <= self._buy_missing(view):
            return buy
        return passing

    def _buy_missing(self, view: PlayerView) -> int:
        """A buy must leave the hand at most this many cards short of the contract."""
        if not self._contract_fits_hand(view):
            return self.short_buy_missing
        return BUY_MISSING

    def _shanghai(self, view: PlayerView) -> Action:
        calls = [a for a in view.legal if isinstance(a, CallShanghai)]
        passing = next((a for a in view.legal if isinstance(a, Pass)), None)
        if calls and (self._me_down(view) or passing is None):
            return calls[0]
        return passing if passing is not None else self._pick(view.legal)

    def _draw(self, view: PlayerView) -> Action:
        legal = view.legal
        take = next((a for a in legal if isinstance(a, TakeDiscard)), None)
        draw = next((a for a in legal if isinstance(a, DrawStock)), None)
        if take is None or draw is None:
            return draw or take or self._pick(legal)
        card = view.discard_top
        if card is None:
            return draw
        wilds = view.rules.wild_cards()
        if self._me_down(view):
            return take if fits_table(card, view.table, wilds) else draw
        return take if self._improves(view, card) else draw

    def _play(self, view: PlayerView) -> Action:
        legal = view.legal
        wilds = view.rules.wild_cards()
        if view.pending_wild is not None:
            pending = [a for a in legal if isinstance(a, LayOff) and a.card == view.pending_wild]
            if pending:
                return pending[0]
        down = [a for a in legal if isinstance(a, GoDown)]
        if down:
            return down[0]
        replaces = [a for a in legal if isinstance(a, ReplaceWild)]
        if replaces:
            return replaces[0]
        layoffs = [a for a in legal if isinstance(a, LayOff)]
        if layoffs:
            # wilds last: a natural that fits now may fit nowhere later, a wild fits almost anywhere
            return max(layoffs, key=lambda a: (a.card not in wilds, self._points(view, a.card)))
        discards = [a for a in legal if isinstance(a, Discard)]
        if not discards:
            return self._pick(legal)
        card = self._discard_card(view, sorted({a.card for a in discards}), wilds)
        protected = [a for a in discards if a.card == card and a.shanghai]
        if protected:
            return protected[0]
        return next(a for a in discards if a.card == card and not a.shanghai)

    def _discard_card(self, view: PlayerView, cards: list[Card], wilds: frozenset[int]) -> Card:
        hand = list(view.hand)
        rng_key = {c: self.rng.random() for c in cards}
        if self._me_down(view):
            def down_key(c: Card) -> tuple[bool, bool, int, float]:
                return (c in wilds, fits_table(c, view.table, wilds), -self._points(view, c),
                        rng_key[c])
            return min(cards, key=down_key)
        key = self._discard_key(view, hand, wilds)
        return min(cards, key=lambda c: (*key(c), rng_key[c]))

    def _discard_key(self, view: PlayerView, hand: list[Card],
                     wilds: frozenset[int]) -> Callable[[Card], tuple[int, bool, int, int]]:
        """Greedy's order for a discard from ``hand`` before going down, best first: the least
        progress lost, not a wild, the fewest partners, the most points (with ``points_first``:
        the most points, then the fewest partners)."""
        base = self._progress(view, hand)
        points_first = self.points_first

        def key(c: Card) -> tuple[int, bool, int, int]:
            rest = list(hand)
            rest.remove(c)
            partners, points = connections(c, hand, wilds), -self._points(view, c)
            if points_first:
                return (base - self._progress(view, rest), c in wilds, points, partners)
            return (base - self._progress(view, rest), c in wilds, partners, points)
        return key


def meld_named(v: PlayerView, meld_id: int) -> str:
    """A table meld as a reason names it: its number, as the terminal games show it, and its cards,
    which every interface shows ("meld 3 (run 4H 5H 6H 7H)").

    >>> from shanghai.engine.game import Game
    >>> from shanghai.engine.view import view
    >>> from shanghai.rules import preset
    >>> meld_named(view(Game.new(preset("isra"), 4, 1), 0), 3)
    'meld 3'
    """
    m = next((m for m in v.table if m.id == meld_id), None)
    return f"meld {meld_id}" if m is None else f"meld {meld_id} ({m.kind} {m.text()})"


def greedy_reason(a: Action, v: PlayerView | None = None) -> str:
    """A one-line reason for an action chosen by greedy's rules (for the coach); ``v``, the view it
    was chosen in, names a meld by its cards too."""
    if isinstance(a, Buy):
        return "buy: it brings your hand closer to the contract"
    if isinstance(a, Pass):
        return "pass"
    if isinstance(a, TakeDiscard):
        return "take the discard: it brings your hand closer to the contract"
    if isinstance(a, DrawStock):
        return "draw: the discard does not help your contract"
    if isinstance(a, Discard):
        return f"discard {card_text(a.card)}: it helps your contract least"
    if isinstance(a, LayOff):
        return f"lay off {card_text(a.card)} on {meld_named(v, a.meld) if v is not None else f'meld {a.meld}'}"
    if isinstance(a, GoDown):
        return "go down now"
    return f"{a}"
