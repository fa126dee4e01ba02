"""The environment's fixed-size encodings: the flat action space and the observation vector.

Both are fixed for one table (rules and player count); ``docs/env.md`` lists them block by block.

A *card kind* is one of 53 indices: ``suit * 13 + rank - 1`` for the 52 naturals (suits S, H, D, C)
and 52 for the joker. Identical cards of several decks share a kind (they are counted).

>>> from shanghai.rules import preset
>>> layout = ActionLayout(preset("isra"), 4)
>>> layout.meld_slots, layout.size
(12, 2051)
>>> layout.describe(layout.encode(LayOff(0, parse_card("7H"), 2, "high"))[0])
'layoff 7H m2 high'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from shanghai.cards import JOKER, Card, card_text, parse_card
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
from shanghai.engine.game import Game, Phase
from shanghai.melds import Meld
from shanghai.rules.model import Rules

KINDS = 53
JOKER_KIND = 52
_KIND = [-1] * 65
for _suit in range(4):
    for _rank in range(1, 14):
        _KIND[_suit * 16 + _rank] = _suit * 13 + _rank - 1
_KIND[JOKER] = JOKER_KIND
KIND_CARDS: tuple[Card, ...] = tuple(Card((k // 13) * 16 + k % 13 + 1) for k in range(52)) + (JOKER,)


def kind_of(card: int) -> int:
    """The card kind (0-52) of a card code."""
    return _KIND[card]


def max_melds(rules: Rules, players: int) -> int:
    """How many melds a round of these rules can put on the table (each seat goes down once)."""
    return players * max(len(r.contract.melds) for r in rules.rounds)


# -- actions --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ActionLayout:
    """The flat ``Discrete`` action space of one table, block by block (see ``docs/env.md``).

    ``go_down_slots`` caps how many of the engine's go-down arrangements are offered (the engine
    lists one, the solver's best); ``cut_buckets`` splits the cut targets 1..pack-1 into equal
    buckets, each played as the target in it nearest to the cards the deal needs.
    """

    rules: Rules
    players: int
    go_down_slots: int = 1
    cut_buckets: int = 8
    meld_slots: int = field(init=False)
    pack_size: int = field(init=False)
    needed: int = field(init=False)
    DRAW: int = field(init=False, default=0)
    TAKE: int = field(init=False, default=1)
    BUY: int = field(init=False, default=2)
    PASS: int = field(init=False, default=3)
    GO_DOWN: int = field(init=False, default=4)
    DISCARD: int = field(init=False)
    DISCARD_SHANGHAI: int = field(init=False)
    LAY_OFF: int = field(init=False)
    REPLACE: int = field(init=False)
    CALL_SHANGHAI: int = field(init=False)
    CUT: int = field(init=False)
    size: int = field(init=False)

    def __post_init__(self) -> None:
        m = max_melds(self.rules, self.players)
        s = object.__setattr__
        s(self, "meld_slots", m)
        s(self, "pack_size", self.rules.pack_for(self.players).size)
        s(self, "needed", self.rules.hand_size * self.players + 1)
        s(self, "DISCARD", self.GO_DOWN + self.go_down_slots)
        s(self, "DISCARD_SHANGHAI", self.DISCARD + KINDS)
        s(self, "LAY_OFF", self.DISCARD_SHANGHAI + KINDS)
        s(self, "REPLACE", self.LAY_OFF + KINDS * m * 2)
        s(self, "CALL_SHANGHAI", self.REPLACE + KINDS * m)
        s(self, "CUT", self.CALL_SHANGHAI + m * 2)
        s(self, "size", self.CUT + self.cut_buckets)

    # the cut
    def cut_bucket(self, target: int) -> int:
        return (target - 1) * self.cut_buckets // (self.pack_size - 1)

    def cut_target(self, bucket: int) -> int:
        """The target played for a bucket: the one in it nearest to the cards the deal needs."""
        span = self.pack_size - 1
        lo = -(-bucket * span // self.cut_buckets) + 1
        hi = -(-(bucket + 1) * span // self.cut_buckets)
        return min(max(self.needed, lo), hi)

    def encode(self, action: Action, go_down_rank: int = 0) -> tuple[int, ...]:
        """The index (or none, for a go-down past the cap) of an engine action."""
        t = type(action)
        if t is Discard:
            assert isinstance(action, Discard)
            return ((self.DISCARD_SHANGHAI if action.shanghai else self.DISCARD) + _KIND[action.card],)
        if t is LayOff:
            assert isinstance(action, LayOff)
            self._check_meld(action.meld)
            return (self.LAY_OFF + (_KIND[action.card] * self.meld_slots + action.meld) * 2
                    + (action.end == "high"),)
        if t is DrawStock:
            return (self.DRAW,)
        if t is TakeDiscard:
            return (self.TAKE,)
        if t is Buy:
            return (self.BUY,)
        if t is Pass:
            return (self.PASS,)
        if t is GoDown:
            return (self.GO_DOWN + go_down_rank,) if go_down_rank < self.go_down_slots else ()
        if t is ReplaceWild:
            assert isinstance(action, ReplaceWild)
            self._check_meld(action.meld)
            return (self.REPLACE + _KIND[action.card] * self.meld_slots + action.meld,)
        if t is CallShanghai:
            assert isinstance(action, CallShanghai)
            self._check_meld(action.meld)
            return (self.CALL_SHANGHAI + action.meld * 2 + (action.end == "high"),)
        if t is Cut:
            assert isinstance(action, Cut)
            return (self.CUT + self.cut_bucket(action.target),)
        raise ValueError(f"no index for {action!r}")

    def _check_meld(self, meld: int) -> None:
        if not 0 <= meld < self.meld_slots:
            raise ValueError(f"meld m{meld} is past the {self.meld_slots} meld slots of this table")

    def legal_map(self, seat: int, legal: Sequence[Action]) -> dict[int, Action]:
        """Each allowed index with the engine action it plays, from the seat's legal actions."""
        out: dict[int, Action] = {}
        if legal and type(legal[0]) is Cut:
            for b in range(self.cut_buckets):
                out[self.CUT + b] = Cut(seat, self.cut_target(b))
            return out
        downs = 0
        for action in legal:
            if type(action) is GoDown:
                for i in self.encode(action, downs):
                    out[i] = action
                downs += 1
            else:
                out[self.encode(action)[0]] = action
        return out

    def describe(self, index: int) -> str:
        """The action an index stands for, in words (for documentation and debugging)."""
        if not 0 <= index < self.size:
            raise ValueError(f"action {index} is outside 0..{self.size - 1}")
        m = self.meld_slots
        if index < self.GO_DOWN:
            return ("draw", "take", "buy", "pass")[index]
        if index < self.DISCARD:
            return f"down #{index - self.GO_DOWN}"
        if index < self.DISCARD_SHANGHAI:
            return f"discard {card_text(KIND_CARDS[index - self.DISCARD])}"
        if index < self.LAY_OFF:
            return f"discard {card_text(KIND_CARDS[index - self.DISCARD_SHANGHAI])} shanghai"
        if index < self.REPLACE:
            k, rest = divmod(index - self.LAY_OFF, m * 2)
            meld, end = divmod(rest, 2)
            return f"layoff {card_text(KIND_CARDS[k])} m{meld} " + ("high" if end else "low/set")
        if index < self.CALL_SHANGHAI:
            k, meld = divmod(index - self.REPLACE, m)
            return f"replace {card_text(KIND_CARDS[k])} m{meld}"
        if index < self.CUT:
            meld, end = divmod(index - self.CALL_SHANGHAI, 2)
            return f"shanghai m{meld} " + ("high" if end else "low/set")
        b = index - self.CUT
        return f"cut bucket {b} (target {self.cut_target(b)})"


# the top discard, the buys used, the round, a replaced meld's cards, and the seat a "Shanghai" call
# this action settles would take a card from at random (None: no call wins)
_Facts = tuple[Card | None, tuple[int, ...], int, tuple[Card, ...], int | None]


# -- what each seat is known to hold ----------------------------------------------------------------
class KnownCards:
    """Cards each seat is publicly known to hold: taken or bought from the discard pile (and wilds
    freed by a replacement), less those it has played since. Updated from public facts only."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.counts: list[list[int]] = [[0] * KINDS for _ in range(players)]
        self.round_index = 0

    def reset(self) -> None:
        self._clear()
        self.round_index = 0

    def _clear(self) -> None:
        for row in self.counts:
            row[:] = [0] * KINDS

    def before(self, game: Game, action: Action) -> _Facts:
        """The public facts to keep before ``action`` is applied."""
        old: tuple[Card, ...] = ()
        if type(action) is ReplaceWild:
            assert isinstance(action, ReplaceWild)
            if 0 <= action.meld < len(game.table):
                old = game.table[action.meld].meld.cards
        caller: int | None = None
        w = game.shanghai_window
        if w is not None:
            answers = {**w.answers, action.seat: action if type(action) is CallShanghai else None}
            for s in w.seats:  # in priority order, as the engine settles the window
                if s not in answers:
                    break
                if answers[s] is not None:
                    caller = s
                    break
        return game.discard_top, tuple(game.buys_used), game.round_index, old, caller

    def after(self, game: Game, action: Action, facts: _Facts) -> None:
        """Update from the action just applied and the public facts kept before it."""
        top, buys, round_index, old, caller = facts
        if game.round_index != round_index:
            self._clear()
            self.round_index = game.round_index
            return
        c = self.counts
        seat = action.seat
        t = type(action)
        if t is TakeDiscard and top is not None:
            c[seat][_KIND[top]] += 1
        elif t is Discard or t is LayOff:
            self._played(seat, action.card)  # type: ignore[union-attr]
        elif t is GoDown:
            assert isinstance(action, GoDown)
            for spec in action.melds:
                for card in spec.cards:
                    self._played(seat, card)
        elif t is ReplaceWild:
            assert isinstance(action, ReplaceWild)
            self._played(seat, action.card)
            # the freed wild is in everyone's sight: it goes to the hand (or must be played at once)
            freed = Counter(old)
            freed[action.card] += 1
            freed.subtract(game.table[action.meld].meld.cards)
            for card, k in freed.items():
                if k > 0:
                    c[seat][_KIND[card]] += k
        if caller is not None and game.shanghai_window is None:
            # the caller gave the discarder a card drawn blind from their hand (decision 27): which
            # of its known cards went is not known, so none of them is any more
            c[caller] = [0] * KINDS
        if top is not None:
            for s, used in enumerate(game.buys_used):
                if used > buys[s]:
                    c[s][_KIND[top]] += 1

    def _played(self, seat: int, card: Card) -> None:
        k = _KIND[card]
        row = self.counts[seat]
        if row[k] > 0:
            row[k] -= 1


# -- observations -----------------------------------------------------------------------------------
PHASES = (Phase.CUT, Phase.DRAW, Phase.BUY, Phase.PLAY, Phase.SHANGHAI)
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
SEAT_FEATURES = 6   # hand size, down, buys left, total points / 100, is to act, is dealer
MELD_FEATURES = 12  # present, set, run, mine, rank or low, high, suit x4, size, wilds
GAME_FEATURES = 12  # see ObservationLayout


@dataclass(frozen=True)
class ObservationLayout:
    """Offsets of the observation's blocks (all float32; see ``docs/env.md``).

    ``hand`` 53, ``wild`` 53 (kinds wild under these rules), ``discards`` 53 (the whole pile),
    ``top`` 53 (one-hot), ``table`` 53 (every card on the table), ``known`` (players - 1) x 53
    (opponents in seat order after this one), ``seats`` players x 6 (this seat first), ``phase`` 5,
    ``round`` one-hot over the rounds, ``game`` 12 scalars, ``melds`` meld slots x 12.
    """

    rules: Rules
    players: int
    offsets: dict[str, tuple[int, int]] = field(init=False)
    size: int = field(init=False)

    def __post_init__(self) -> None:
        n = self.players
        blocks = [("hand", KINDS), ("wild", KINDS), ("discards", KINDS), ("top", KINDS), ("table", KINDS),
                  ("known", (n - 1) * KINDS), ("seats", n * SEAT_FEATURES), ("phase", len(PHASES)),
                  ("round", len(self.rules.rounds)), ("game", GAME_FEATURES),
                  ("melds", max_melds(self.rules, n) * MELD_FEATURES)]
        offsets: dict[str, tuple[int, int]] = {}
        at = 0
        for name, size in blocks:
            offsets[name] = (at, at + size)
            at += size
        object.__setattr__(self, "offsets", offsets)
        object.__setattr__(self, "size", at)

    def block(self, obs: npt.NDArray[np.float32], name: str) -> npt.NDArray[np.float32]:
        lo, hi = self.offsets[name]
        return obs[lo:hi]


class Observer:
    """Builds a seat's observation from public state and that seat's own hand only."""

    def __init__(self, rules: Rules, players: int) -> None:
        self.rules = rules
        self.players = players
        self.layout = ObservationLayout(rules, players)
        self.wild = [1.0 if rules.is_wild(c) else 0.0 for c in KIND_CARDS]
        self._melds: dict[Meld, list[float]] = {}
        self.off = {name: lo for name, (lo, _) in self.layout.offsets.items()}
        self.pack_size = rules.pack_for(players).size

    def observe(self, game: Game, seat: int, known: KnownCards) -> npt.NDArray[np.float32]:
        off = self.off
        n = self.players
        obs: list[float] = [0.0] * self.layout.size
        kind = _KIND
        o = off["hand"]
        for card in game.hands[seat]:
            obs[o + kind[card]] += 1
        o = off["wild"]
        obs[o:o + KINDS] = self.wild
        o = off["discards"]
        for card in game.discards:
            obs[o + kind[card]] += 1
        top = game.discard_top
        if top is not None:
            obs[off["top"] + kind[top]] = 1
        o = off["table"]
        for tm in game.table:
            for card in tm.meld.cards:
                obs[o + kind[card]] += 1
        o = off["known"]
        counts = known.counts
        for r in range(1, n):
            at = o + (r - 1) * KINDS
            obs[at:at + KINDS] = counts[(seat + r) % n]
        o = off["seats"]
        over = game.phase is Phase.GAME_OVER
        acting = game.to_act()
        limit = game.buy_limit
        hand_size = self.rules.hand_size
        for r in range(n):
            s = (seat + r) % n
            base = o + r * SEAT_FEATURES
            obs[base] = len(game.hands[s]) / hand_size if not over else 0.0
            obs[base + 1] = game.down[s]
            obs[base + 2] = max(limit - game.buys_used[s], 0)
            obs[base + 3] = game.totals[s] / 100.0
            obs[base + 4] = s in acting
            obs[base + 5] = s == game.dealer
        if not over:
            obs[off["phase"] + _PHASE_INDEX[game.phase]] = 1
            obs[off["round"] + game.round_index] = 1
        o = off["game"]
        contract = game.contract
        obs[o:o + GAME_FEATURES] = [
            len(contract.sets), len(contract.runs), contract.min_cards / 10.0, limit,
            game.round_index / len(self.rules.rounds), len(game.stock) / self.pack_size,
            len(game.discards) / self.pack_size, game.discard_live, game.pending_wild is not None,
            game.down_this_turn and game.turn == seat, game.shanghai_window is not None,
            game.turn == seat]
        o = off["melds"]
        for tm in game.table:
            base = o + tm.id * MELD_FEATURES
            obs[base:base + MELD_FEATURES] = self._meld_features(tm.meld)
            obs[base + 3] = tm.owner == seat
        return np.array(obs, dtype=np.float32)

    def _meld_features(self, meld: Meld) -> list[float]:
        hit = self._melds.get(meld)
        if hit is not None:
            return hit
        f = [0.0] * MELD_FEATURES
        f[0] = 1
        if meld.kind == "set":
            f[1] = 1
            f[4] = meld.rank / 13.0
        else:
            f[2] = 1
            f[4] = meld.low / 13.0
            f[5] = meld.high / 13.0
            if 0 <= meld.suit < 4:
                f[6 + meld.suit] = 1
        f[10] = len(meld.cards) / 13.0
        f[11] = sum(1 for i in range(len(meld.cards)) if meld.is_wild_at(i, self.rules))
        if len(self._melds) > 10_000:
            self._melds.clear()
        self._melds[meld] = f
        return f


def card_kind_text(kind: int) -> str:
    """``card_text`` of a card kind."""
    return card_text(KIND_CARDS[kind])


__all__ = ["KINDS", "ActionLayout", "KnownCards", "ObservationLayout", "Observer", "card_kind_text",
           "kind_of", "max_melds", "parse_card"]
