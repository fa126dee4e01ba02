"""Determinization: a whole ``Game`` consistent with what one seat has seen (for search players).

``determinize(view, rng)`` rebuilds the round in play from the seat's ``PlayerView`` alone:

* The public part is replayed from ``view.history`` (this round's actions, all public) with the
  engine's own flow rules and meld functions: the table (identical ``Meld`` values), the discard
  pile, who discarded last, the buy or "Shanghai" window with its answers so far, whether the player
  in turn went down this turn, the joker-free go-downs, the turn count, the stock renewals and the
  size of every hand (checked against the view).
* Cards an opponent took or bought from the discard pile are known to be in its hand until it melds,
  lays off or discards one of them (or, for a freed wild kept in hand, likewise); they stay there.
* Every other card of the pack (the pack less the seat's own hand, the table, the known part of the
  discard pile, a freed wild and the opponents' known cards) is unseen; a sample shuffles the unseen
  cards into the opponents' other hand slots, the stock (its exact size) and the pile's unknown card.

What is sampled rather than known, by design:

* The flip card is not in the history (a ``TakeDiscard`` or ``Buy`` of a discarded card is known
  from the ``Discard`` before it, but the flip only from the view's top of the pile). While it is the
  top of the pile the view shows it; once it is covered or taken by another seat it is unseen, unless
  the caller passes ``flip`` (a player may remember it: see ``SearchPlayer``).
* After a stock renewal the new stock was the (public) discard pile less its top, so the stock is
  sampled from the cards of that renewed pile that are still unseen (which cards each seat drew from
  it is unknown); if too few remain (only possible after an unknown flip card) the rest comes from the
  other unseen cards. The opponents' hands then take every other unseen card. This is one consistent
  state, not an exact posterior (no posterior over who drew what is computed).
* A "Shanghai" call hands a random card of the caller's hand to the discarder: the caller's known
  cards are forgotten (they become unseen) since any one of them may have been the card given.

Nothing here reads hidden state: the input is a ``PlayerView`` and a generator, and the unseen cards
are listed in a canonical (sorted) order before shuffling, so two games that give the same view give
the same determinization for the same generator state.

>>> import random
>>> from shanghai.rules import preset
>>> from shanghai.engine.view import view
>>> game = Game.new(preset("may-i"), players=4, seed=3)
>>> v = view(game, 1)
>>> d = determinize(v, random.Random(0))
>>> d.hands[1] == game.hands[1], [len(h) for h in d.hands], len(d.stock) == len(game.stock)
(True, [11, 11, 11, 11], True)
>>> tuple(d.legal_actions(1)) == v.legal
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from shanghai.cards import Card, make_pack
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
from shanghai.engine.game import BuyWindow, Game, Phase, ShanghaiWindow, TableMeld
from shanghai.engine.view import PlayerView
from shanghai.fits import lay_off_options
from shanghai.melds import Meld, check_run, check_set
from shanghai.rules.model import Rules

__all__ = ["InconsistentViewError", "PublicRound", "determinize", "public_round", "sample", "unseen_cards"]


class InconsistentViewError(ValueError):
    """The view's history does not replay to the view's public state (a bug, or a foreign view)."""


@dataclass(slots=True)
class _Window:
    seats: tuple[int, ...]
    answers: dict[int, bool] = field(default_factory=dict)
    before_draw: bool = False
    claimant: int | None = None


@dataclass(slots=True)
class _ShWindow:
    seats: tuple[int, ...]
    card: Card
    discarder: int
    answers: dict[int, CallShanghai | None] = field(default_factory=dict)


class _Replay:
    """The public part of a round, replayed action by action with the engine's flow rules."""

    def __init__(self, view: PlayerView) -> None:
        rules = view.rules
        n = view.players
        self.rules = rules
        self.n = n
        self.me = view.seat
        self.dealer = view.dealer
        self.round_number = view.round_number
        self.buy_limit = view.buy_limit
        self.pack_size = rules.pack_for(n).size
        self.stock_count = self.pack_size
        self.segment: list[Card | None] | None = None  # the renewed stock's cards (None: unknown)
        self.pile: list[Card | None] = []
        self.known: list[list[Card]] = [[] for _ in range(n)]
        self.counts = [0] * n
        self.table: list[TableMeld] = []
        self.down = [False] * n
        self.buys_used = [0] * n
        self.turn = 0
        self.discarder: int | None = None
        self.discard_live = False
        self.phase = Phase.DRAW
        self.window: _Window | None = None
        self.sh_window: _ShWindow | None = None
        self.down_this_turn = False
        self.others_down = False
        self.joker_free: list[int] = []
        self.turns_taken = 0
        self.renewals = 0
        self.pending: Card | None = None
        if rules.the_cut:
            self.phase = Phase.CUT
            self.turn = (self.dealer - 1) % n
        else:
            self._deal()

    # -- flow -----------------------------------------------------------------------------------
    def _deal(self) -> None:
        hs = self.rules.hand_size
        self.stock_count = self.pack_size - hs * self.n - 1
        self.counts = [hs] * self.n
        self.pile = [None]
        self.discard_live = True
        self.discarder = None
        self._begin_turn((self.dealer + 1) % self.n)

    def _begin_turn(self, seat: int) -> None:
        self.turn = seat
        self.down_this_turn = False
        self.window = None
        self.phase = Phase.DRAW
        if self.rules.buy_flow == "ask-turn-player" and self.discard_live:
            seats = self._eligible()
            if seats:
                self.window = _Window(seats, before_draw=True)
                self.phase = Phase.BUY

    def _eligible(self) -> tuple[int, ...]:
        rules, n = self.rules, self.n
        if not self.discard_live or self.buy_limit == 0:
            return ()
        if self.stock_count < rules.buy_penalty + 1:
            return ()
        start = self.turn if rules.buy_priority == "clockwise-from-turn" else self.dealer
        order = [(start + k) % n for k in range(1, n + 1)]
        return tuple(s for s in order if s != self.turn and s != self.discarder
                     and self.buys_used[s] < self.buy_limit)

    def _draw_card(self) -> None:
        if self.stock_count == 0:
            if len(self.pile) < 2 or self.renewals >= self.rules.max_stock_renewals:
                raise InconsistentViewError("the history draws from an empty stock")
            self.segment = self.pile[:-1]
            self.pile = self.pile[-1:]
            self.stock_count = len(self.segment)
            self.renewals += 1
        self.stock_count -= 1

    def _in_turn_draw(self) -> None:
        self._draw_card()
        self.discard_live = False
        self.counts[self.turn] += 1
        self.phase = Phase.PLAY

    def _gain(self, seat: int, card: Card | None) -> None:
        self.counts[seat] += 1
        if card is not None and seat != self.me:
            self.known[seat].append(card)

    def _lose(self, seat: int, card: Card) -> None:
        self.counts[seat] -= 1
        if seat != self.me and card in self.known[seat]:
            self.known[seat].remove(card)

    def _give_bought(self, buyer: int) -> None:
        self._gain(buyer, self.pile.pop())
        self.counts[buyer] += self.rules.buy_penalty
        self.stock_count -= self.rules.buy_penalty
        self.buys_used[buyer] += 1
        self.discard_live = False

    def _put(self, tm: TableMeld) -> None:
        if tm.id == len(self.table):
            self.table.append(tm)
        else:
            self.table[tm.id] = tm

    # -- actions --------------------------------------------------------------------------------
    def apply(self, a: Action) -> None:
        rules = self.rules
        if isinstance(a, Cut):
            self._deal()
        elif isinstance(a, DrawStock):
            w = self.window
            if w is not None and w.before_draw:
                if w.claimant is not None:
                    self._give_bought(w.claimant)
                self.window = None
                self._in_turn_draw()
            elif self.discard_live and rules.buy_flow == "turn-player-first" and self._eligible():
                self.window = _Window(self._eligible())
                self.phase = Phase.BUY
            else:
                self._in_turn_draw()
        elif isinstance(a, TakeDiscard):
            self.window = None
            self._gain(a.seat, self.pile.pop())
            self.discard_live = False
            self.phase = Phase.PLAY
        elif isinstance(a, Pass) and self.phase == Phase.SHANGHAI:
            self._shanghai_answer(a.seat, None)
        elif isinstance(a, Buy | Pass):
            w = self.window
            if w is None:
                raise InconsistentViewError(f"{a} without a buy window")
            w.answers[a.seat] = isinstance(a, Buy)
            winner: int | None = None
            for s in w.seats:
                if s not in w.answers:
                    return
                if w.answers[s]:
                    winner = s
                    break
            if w.before_draw:
                w.claimant = winner
                self.phase = Phase.DRAW
                return
            self.window = None
            if winner is not None:
                self._give_bought(winner)
            self._in_turn_draw()
        elif isinstance(a, GoDown):
            melds: list[Meld] = [check_set(m.cards, rules) if m.kind == "set" else check_run(m.cards, rules)
                                 for m in a.melds]
            for m in melds:
                for c in m.cards:
                    self._lose(a.seat, c)
            self.others_down = any(self.down[s] for s in range(self.n) if s != a.seat)
            for m in melds:
                self._put(TableMeld(len(self.table), a.seat, m))
            self.down[a.seat] = True
            self.down_this_turn = True
            if all(m.wild_count(rules) == 0 for m in melds):
                self.joker_free.append(a.seat)
        elif isinstance(a, LayOff):
            tm = self.table[a.meld]
            new = tm.meld.lay_off(a.card, a.end, rules)
            if self.pending is not None and a.card == self.pending:
                self.pending = None  # the freed wild placed, as the engine reads it
            else:
                self._lose(a.seat, a.card)  # a card of the hand, perhaps bridging (decision 21)
            self._put(TableMeld(a.meld, tm.owner, new))
        elif isinstance(a, ReplaceWild):
            tm = self.table[a.meld]
            new, freed = tm.meld.replace_wild(a.card, rules)
            self._lose(a.seat, a.card)
            if rules.wild_replacement == "runs-play-freed-wild":
                self.pending = freed
            else:
                self._gain(a.seat, freed)
            self._put(TableMeld(a.meld, tm.owner, new))
        elif isinstance(a, Discard):
            self._lose(a.seat, a.card)
            self.pile.append(a.card)
            self.discarder = a.seat
            self.turns_taken += 1
            nxt = (a.seat + 1) % self.n
            self.discard_live = not a.shanghai
            fits = rules.shanghai_call and any(a.card in lay_off_options(tm.meld, rules) for tm in self.table)
            if rules.shanghai_call and fits and not a.shanghai:
                order = [(nxt + k) % self.n for k in range(self.n)]
                seats = tuple(s for s in order if s != a.seat and self.counts[s] >= 2)
                if seats:
                    self.turn = nxt
                    self.sh_window = _ShWindow(seats, a.card, a.seat)
                    self.phase = Phase.SHANGHAI
                    return
            self._begin_turn(nxt)
        elif isinstance(a, CallShanghai):
            self._shanghai_answer(a.seat, a)
        else:  # pragma: no cover - the action vocabulary is closed
            raise InconsistentViewError(f"unknown action {a!r}")

    def _shanghai_answer(self, seat: int, call: CallShanghai | None) -> None:
        w = self.sh_window
        if w is None:
            raise InconsistentViewError("a \"Shanghai\" answer without a window")
        w.answers[seat] = call
        winner: CallShanghai | None = None
        for s in w.seats:
            if s not in w.answers:
                return
            answer = w.answers[s]
            if answer is not None:
                winner = answer
                break
        self.sh_window = None
        nxt = (w.discarder + 1) % self.n
        if winner is not None:
            card = self.pile.pop()
            assert card is not None  # a discard is always known
            tm = self.table[winner.meld]
            self._put(TableMeld(tm.id, tm.owner, tm.meld.lay_off(card, winner.end, self.rules)))
            self.counts[winner.seat] -= 1
            self.known[winner.seat] = []  # any of its cards may be the one given: forget them
            self.counts[w.discarder] += 1  # the card given is unseen (except by the discarder)
            self.discard_live = False
        self._begin_turn(nxt)


@dataclass(frozen=True, slots=True)
class PublicRound:
    """Everything public about the round in play, as seen by one seat, ready to sample from."""

    view: PlayerView
    unseen: tuple[Card, ...]                # sorted: shuffled into the unknown places
    known: tuple[tuple[Card, ...], ...]     # each opponent's known cards ((): the seat itself)
    slots: tuple[int, ...]                  # each opponent's unknown hand slots (0: the seat)
    pile: tuple[Card | None, ...]           # the discard pile, bottom first (None: unseen)
    segment: tuple[Card | None, ...] | None  # the last renewed stock's cards, None if no renewal
    table: tuple[TableMeld, ...]
    discarder: int | None
    down_this_turn: bool
    others_down: bool
    joker_free: tuple[int, ...]
    turns_taken: int
    renewals: int
    buy_window: BuyWindow | None
    shanghai_window: ShanghaiWindow | None


def public_round(view: PlayerView, flip: Card | None = None) -> PublicRound:
    """Replay the view's history: the public state of the round and the unseen cards.

    ``flip``: the round's flip card, if the seat remembers it. Raises ``InconsistentViewError`` when
    the history does not lead to the view's public state, ``ValueError`` for a spectator's view or a
    finished game.
    """
    if view.seat is None:
        raise ValueError("a spectator's view has no hand to determinize around")
    if view.phase == Phase.GAME_OVER:
        raise ValueError("the game is over: nothing to determinize")
    rules: Rules = view.rules
    r = _Replay(view)
    for a in view.history:
        r.apply(a)
    me = view.seat
    n = view.players
    # The pile's top is in the view; an unknown bottom card is the flip, if remembered.
    pile = list(r.pile)
    if pile and view.discard_top is not None:
        if pile[-1] is None:
            pile[-1] = view.discard_top
        elif pile[-1] != view.discard_top:
            raise InconsistentViewError("the replayed pile's top differs from the view's")
    if flip is not None and pile and pile[0] is None and r.renewals == 0:
        pile[0] = flip
    segment = None if r.segment is None else tuple(r.segment)
    if segment is not None and flip is not None and r.renewals == 1 and segment and segment[0] is None:
        segment = (flip, *segment[1:])
    if r.phase != view.phase or r.turn != view.turn or tuple(r.counts) != view.hand_counts \
            or tuple(r.down) != view.down or tuple(r.buys_used) != view.buys_used \
            or len(pile) != view.discard_size or r.stock_count != view.stock_size \
            or r.pending != view.pending_wild or r.discard_live != view.discard_live \
            or len(r.table) != len(view.table):
        raise InconsistentViewError("the replayed history does not match the view")
    for tm, mv in zip(r.table, view.table, strict=True):
        if tm.meld.cards != mv.cards or tm.owner != mv.owner:
            raise InconsistentViewError(f"the replayed meld m{tm.id} differs from the view's")
    known = [tuple(k) if s != me else () for s, k in enumerate(r.known)]
    for s in range(n):
        if len(known[s]) > view.hand_counts[s]:
            raise InconsistentViewError(f"seat {s} holds fewer cards than are known to be in its hand")
    seen: Counter[Card] = Counter(view.hand)
    for tm in r.table:
        seen.update(tm.meld.cards)
    seen.update(c for c in pile if c is not None)
    if view.pending_wild is not None:
        seen[view.pending_wild] += 1
    for k in known:
        seen.update(k)
    pack = Counter(make_pack(rules.pack_for(n).decks, rules.pack_for(n).jokers))
    if seen - pack:
        raise InconsistentViewError("more copies of a card are seen than the pack holds")
    unseen = tuple(sorted((pack - seen).elements()))
    slots = tuple(0 if s == me else view.hand_counts[s] - len(known[s]) for s in range(n))
    if len(unseen) != sum(slots) + view.stock_size + sum(1 for c in pile if c is None):
        raise InconsistentViewError("the unseen cards do not fill the unknown places")
    bw: BuyWindow | None = None
    if r.window is not None:
        w = r.window
        bw = BuyWindow(w.seats, dict(w.answers), w.before_draw, w.claimant)
        if tuple(s for s in w.seats if s not in w.answers) != view.buy_window or w.claimant != view.buy_claimant:
            raise InconsistentViewError("the replayed buy window differs from the view's")
    sw: ShanghaiWindow | None = None
    if r.sh_window is not None:
        x = r.sh_window
        sw = ShanghaiWindow(x.seats, x.card, x.discarder, dict(x.answers))
    return PublicRound(
        view=view, unseen=unseen, known=tuple(known), slots=slots, pile=tuple(pile), segment=segment,
        table=tuple(r.table), discarder=r.discarder, down_this_turn=r.down_this_turn,
        others_down=r.others_down, joker_free=tuple(r.joker_free), turns_taken=r.turns_taken,
        renewals=r.renewals, buy_window=bw, shanghai_window=sw)


def sample(pub: PublicRound, rng: random.Random,
           weights: Sequence[Mapping[Card, float]] | None = None) -> Game:
    """One determinization of ``pub``: the unseen cards dealt at random into the unknown places.

    ``weights`` (one mapping a seat, the seat's own ignored): how likely each card is, relatively, to
    be in that opponent's unknown slots (a card not mapped: 1.0). Then the deal is not uniform but
    drawn, approximately (a short chain of Metropolis swaps from the uniform one, ``SWAPS_PER_SLOT``
    a card), from the deals each weighted by the product of the weights of the cards in the
    opponents' hands (the stock weighs 1); without it the generator is used exactly as always, so
    seeds reproduce the same games.
    """
    view = pub.view
    rules = view.rules
    n = view.players
    me = view.seat
    assert me is not None
    u = list(pub.unseen)
    rng.shuffle(u)
    pile = list(pub.pile)
    for i, c in enumerate(pile):
        if c is None:
            pile[i] = u.pop()
    size = view.stock_size
    if pub.segment is None:
        stock = u[:size]
        rest = u[size:]
    else:
        # The stock is what is left of the renewed pile: unseen cards of that pile first.
        avail = Counter(u)
        want = Counter(c for c in pub.segment if c is not None)
        cand = sorted((avail & want).elements())
        rng.shuffle(cand)
        stock = cand[:size]
        taken = Counter(stock)
        rest = list((Counter(u) - taken).elements())
        rng.shuffle(rest)
        if len(stock) < size:
            extra = size - len(stock)
            stock += rest[:extra]
            rest = rest[extra:]
        rng.shuffle(stock)
    if weights is not None:
        _weigh(pub, rng, weights, stock, rest)
    hands: list[list[Card]] = []
    k = 0
    for s in range(n):
        if s == me:
            hands.append(list(view.hand))
        else:
            m = pub.slots[s]
            hands.append([*pub.known[s], *rest[k:k + m]])
            k += m
    game = Game(rules, n, 0)
    game.rng = random.Random(rng.getrandbits(64))
    game.actions = list(view.history)
    game.round_start = 0
    game.round_index = view.round_number - 1
    game.first_dealer = (view.dealer - game.round_index) % n
    game.dealer = view.dealer
    game.phase = view.phase
    game.turn = view.turn
    game.stock = [Card(c) for c in stock]
    game.discards = [Card(c) for c in pile if c is not None]
    game.discard_live = view.discard_live
    game.discarder = pub.discarder
    game.hands = hands
    game.table = list(pub.table)
    game.table_options = []
    game.down = list(view.down)
    game.down_this_turn = pub.down_this_turn
    game.buys_used = list(view.buys_used)
    game.pending_wild = view.pending_wild
    w = pub.buy_window
    game.buy_window = None if w is None else BuyWindow(w.seats, dict(w.answers), w.before_draw, w.claimant)
    sw = pub.shanghai_window
    game.shanghai_window = None if sw is None else ShanghaiWindow(sw.seats, sw.card, sw.discarder,
                                                                  dict(sw.answers))
    game.stock_renewals = pub.renewals
    game.cut = view.cut
    game.joker_free = list(pub.joker_free)
    game.others_down_when_went_down = pub.others_down
    game.turns_taken = pub.turns_taken
    game.round_results = list(view.round_results)
    game.totals = list(view.totals)
    refresh = getattr(game, "refresh_derived", None)
    if refresh is not None:
        refresh()
    return game


# Metropolis swaps a weighted sample makes, per card in the opponents' unknown slots.
SWAPS_PER_SLOT = 4


def _weigh(pub: PublicRound, rng: random.Random, weights: Sequence[Mapping[Card, float]],
           stock: list[Card], rest: list[Card]) -> None:
    """Swap cards between the opponents' unknown slots (``rest``, in seat order) and the stock, in
    place, so that a deal comes with probability nearly in proportion to its weight (see ``sample``). After a
    stock renewal the stock must come from the renewed pile, so only the opponents swap then."""
    owner: list[int] = []
    for s, m in enumerate(pub.slots):
        owner += [s] * m
    slots = len(owner)
    if slots == 0:
        return
    places = slots + (len(stock) if pub.segment is None else 0)
    if places < 2:
        return

    def card(i: int) -> Card:
        return rest[i] if i < slots else stock[i - slots]

    def weight(i: int, c: Card) -> float:
        return weights[owner[i]].get(c, 1.0) if i < slots else 1.0

    for _ in range(SWAPS_PER_SLOT * slots):
        i = rng.randrange(slots)
        j = rng.randrange(places)
        if j < slots and owner[j] == owner[i]:
            continue
        a, b = card(i), card(j)
        if a == b:
            continue
        before = weight(i, a) * weight(j, b)
        after = weight(i, b) * weight(j, a)
        if after < before and rng.random() * before >= after:
            continue
        rest[i] = b
        if j < slots:
            rest[j] = a
        else:
            stock[j - slots] = a


def determinize(view: PlayerView, rng: random.Random, *, flip: Card | None = None) -> Game:
    """A whole ``Game`` consistent with ``view``: the seat's hand exactly, everything public as it
    is, the unseen cards shuffled by ``rng`` into the opponents' unknown hand slots and the stock.

    For many samples of one view, compute ``public_round(view)`` once and call ``sample`` on it.
    """
    return sample(public_round(view, flip), rng)


def unseen_cards(view: PlayerView) -> Sequence[Card]:
    """The cards this seat has not seen and cannot place (sorted)."""
    return public_round(view).unseen
