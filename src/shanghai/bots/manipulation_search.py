"""The search player of manipulation rummy (004, first part): determinized Monte Carlo with
paired rollouts, anchored on the expert's choice.

A turn in this game is one decision: which hand cards to place (draws and passes are forced). What
follows depends only on *which* cards go to the table, not on how it is arranged (the next player may
rearrange it all), so two plays placing the same cards are one candidate. The candidates are the
expert's own choice (the anchor), the engine's offers (the largest play, each card alone), and for
each card of the largest play the largest play of the hand without it: as large (other cards in its
place) or smaller (that card held back for a later turn, with any cards that needed it).

Every iteration samples the hidden cards consistently with the seat's view (the unseen cards, i.e.
the pack less its own hand and the table, shuffled into the opponents' hands of their known sizes
and the stock of its known size) and plays every candidate on that *same* sample (common random
numbers), then every seat on with the greedy play (the most cards, as the solver finds them; the
searching seat too) for ``rollout_turns`` turns (8: two rounds at 4 players), or until the hand ends
(``rollout_turns=None``). A hand that ends is scored by its points (004: "1 point per card left in
hand"), a rollout cut short by the cards in hand. A candidate's value is the searching seat's
points less the mean of the others' (lower is better), so holding back is weighed against what it
gives the others.

The expert's choice is left only for a candidate whose paired advantage over it exceeds
``confidence`` standard errors (2.0), as the contract games' search does: a handful of rollouts
otherwise trades sound choices for noise. What is not inferred: that a seat which drew could place
none of its cards at the time (a constraint on its hand that the sample ignores).

Measured against three experts (4 players, 200 games, seed 12000001, README): with rollouts of 8
turns 23.5% wins (Wilson 18.2-29.8%), +0.2 [-0.2, +0.5] points a game paired; with rollouts to the
end of the hand (until 2026-12-03, three times the time) 24.0% (18.6-30.4%), -0.1 [-0.5, +0.3]:
not shown stronger, nor weaker; against three greedy players (120 games, seed 12100001, to the end
of the hand) 23.7% wins, -0.1 [-0.7, +0.5]. It leaves the expert's choice in about one searched
decision in 25.

Budget: ``iterations`` samples per decision (deterministic: the same seed and view give the same
play; tournaments use this), or with ``iterations=None`` ``budget_s`` seconds of wall clock (at
least one sample; for people). Either way ``solves`` (500) caps the work: it takes no further
sample when one more like the average so far would run the solver more often than that in the
decision (taking 2 at least, which a paired test needs); the count, not the clock, keeps it
deterministic. A run takes 1-2 ms on the machine of the README's figures (more as the table
grows), so the cap holds a decision to about a second whatever the number of candidates; it takes
fewer samples in about one searched decision in 11.
The rollouts remember the solver's answers within a decision (about a quarter of the positions
come again), and a card drawn to a hand that could place nothing goes through the solver's quick
local test first (every play must use it, so when it fails nothing can be placed:
``most_placed(..., drawn=card)``).

>>> from shanghai.bots.match import play_game
>>> from shanghai.bots.manipulation import ManipulationExpert
>>> from shanghai.rules import MANIPULATION
>>> seats = [ManipulationSearch(0, iterations=2, rollout_turns=4)] + [ManipulationExpert(s) for s in (1, 2)]
>>> play_game(MANIPULATION, 3, seed=4, seats=seats).is_over
True
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence

from shanghai.bots.manipulation import ManipulationExpert, ManipulationExpertSettings, min_placed
from shanghai.bots.search import mean_and_error
from shanghai.cards import Card, make_pack, sort_key
from shanghai.engine.manipulation import ManipulationAction, ManipulationView, PlayToTable, make_play
from shanghai.table_solver import best_play, most_placed

Placed = tuple[Card, ...]

ROLLOUT_TURNS = 8  # turns a rollout plays by default (two rounds at 4 players)
SOLVES = 500       # the most solver runs a decision makes by default (1-2 ms each)


class ManipulationSearch:
    """Determinized Monte Carlo over the cards to place, anchored on the expert's choice."""

    name = "search"

    def __init__(self, seed: int | None = None, *, iterations: int | None = 8, budget_s: float = 1.0,
                 rollout_turns: int | None = ROLLOUT_TURNS, solves: int | None = SOLVES,
                 confidence: float = 2.0, expert: ManipulationExpertSettings | None = None) -> None:
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        if rollout_turns is not None and rollout_turns < 1:
            raise ValueError(f"rollout_turns must be at least 1, not {rollout_turns}")
        if solves is not None and solves < 1:
            raise ValueError(f"solves must be at least 1, not {solves}")
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.budget_s = budget_s
        self.rollout_turns = rollout_turns
        self.solves = solves
        self.confidence = confidence
        self.expert = ManipulationExpert(None if seed is None else seed ^ 0x3A71,
                                         expert or ManipulationExpertSettings())
        self.searched = 0   # decisions with more than one candidate (for measurements)
        self.changed = 0    # of those, how many left the expert's choice

    def choose(self, view: ManipulationView) -> ManipulationAction:
        anchor = self.expert.choose(view)
        if not isinstance(anchor, PlayToTable) or len(anchor.placed) == len(view.hand):
            return anchor  # forced draw or pass, or going out: nothing to weigh
        candidates = self._candidates(view, anchor)
        if len(candidates) == 1:
            return anchor
        self.searched += 1
        best = _pick(self._search(view, candidates), self.confidence)
        if best == 0:
            return anchor
        self.changed += 1
        return self._play(view, candidates[best])

    # -- candidates --------------------------------------------------------------------------------
    def _candidates(self, view: ManipulationView, anchor: PlayToTable) -> list[Placed]:
        """The cards each candidate places, the anchor's first, each set of cards once."""
        found: dict[Placed, None] = {_key(anchor.placed): None}
        for action in view.legal:
            if isinstance(action, PlayToTable):
                found.setdefault(_key(action.placed), None)
        largest = view.legal[0]
        assert isinstance(largest, PlayToTable)
        table = [c for meld in view.table for c in meld]
        fewest = min_placed(view)
        for card in sorted(set(largest.placed), key=sort_key):
            rest = list(view.hand)
            rest.remove(card)
            placed = most_placed(table, rest)
            if len(placed) >= fewest:
                found.setdefault(_key(placed), None)  # as large without it, or smaller holding it back
        return list(found)

    def _play(self, view: ManipulationView, placed: Placed) -> PlayToTable:
        """The play placing exactly ``placed``, the table rearranged as little as the solver can."""
        for action in view.legal:
            if isinstance(action, PlayToTable) and _key(action.placed) == placed:
                return action
        play = best_play(view.table, list(placed), must_place=placed)
        if play is None or _key(play.placed) != placed:  # pragma: no cover - the solver found them placeable
            raise AssertionError(f"cannot place {placed} again")
        return make_play(view.turn, play)

    # -- searching ---------------------------------------------------------------------------------
    def _search(self, view: ManipulationView, candidates: Sequence[Placed]) -> list[list[float]]:
        """Each candidate's value (its points less the others' mean) on each sample, paired."""
        scores: list[list[float]] = [[] for _ in candidates]
        deadline = time.perf_counter() + self.budget_s
        unseen = _unseen(view)
        table = [c for meld in view.table for c in meld]
        solved: dict[tuple[Placed, Placed], Placed] = {}  # the rollouts meet the same positions often
        n = 0
        while True:
            hands, stock = self._sample(view, unseen)
            for i, placed in enumerate(candidates):
                scores[i].append(self._rollout(view, hands, stock, table, placed, solved))
            n += 1
            if self.solves is not None and n >= 2 and len(solved) * (n + 1) > self.solves * n:
                break  # another sample like those so far would pass the work cap (an entry: a solver run)
            if self.iterations is not None:
                if n >= self.iterations:
                    break
            elif time.perf_counter() >= deadline:
                break
        return scores

    def _sample(self, view: ManipulationView, unseen: Sequence[Card]) -> tuple[list[list[Card]], list[Card]]:
        """The ``unseen`` cards dealt at random into the opponents' hands and the stock."""
        seat = view.turn
        cards = list(unseen)
        self.rng.shuffle(cards)
        hands: list[list[Card]] = []
        at = 0
        for s, n in enumerate(view.hand_counts):
            if s == seat:
                hands.append(list(view.hand))
            else:
                hands.append(cards[at:at + n])
                at += n
        return hands, cards[at:]

    def _rollout(self, view: ManipulationView, hands0: Sequence[list[Card]], stock0: Sequence[Card],
                 table0: Sequence[Card], placed: Placed, solved: dict[tuple[Placed, Placed], Placed]) -> float:
        """Place ``placed`` on the table's cards ``table0``, then every seat plays greedily; the seat's
        points less the others' mean. ``solved`` remembers the solver's answers (table and hand, as
        sorted cards) across the rollouts of a decision."""
        seat, players = view.turn, view.players
        hands = [list(h) for h in hands0]
        stock = list(stock0)
        table = list(table0)
        for c in placed:
            hands[seat].remove(c)
        table += placed
        turn, passes, turns = seat, 0, 0
        limit = self.rollout_turns
        while hands[turn] and passes < players and (limit is None or turns < limit):
            turn = (turn + 1) % players
            turns += 1
            hand = hands[turn]
            drawn: Card | None = None
            while True:
                key = (tuple(sorted(table)), tuple(sorted(hand)))
                cards = solved.get(key)
                if cards is None:
                    cards = solved[key] = most_placed(table, hand, drawn=drawn)
                if cards or not stock:
                    break
                drawn = stock.pop()
                hand.append(drawn)  # 004: draw until a card can be placed
            if cards:
                for c in cards:
                    hand.remove(c)
                table += cards
                passes = 0
            else:
                passes += 1
        mine = len(hands[seat])
        others = [len(h) for s, h in enumerate(hands) if s != seat]
        return (mine - sum(others) / len(others)) * view.rules.card_points


def _unseen(view: ManipulationView) -> list[Card]:
    """The cards the seat has not seen (the pack less its hand and the table), in a canonical order,
    checked against the hidden places the view counts (the opponents' hands and the stock)."""
    unseen = Counter(make_pack(view.rules.pack_for(view.players).decks, 0))
    unseen.subtract(view.hand)
    unseen.subtract(c for meld in view.table for c in meld)
    if any(n < 0 for n in unseen.values()):
        raise ValueError("the view holds cards the pack does not: it cannot be sampled")
    cards = sorted(unseen.elements(), key=sort_key)
    hidden = sum(n for s, n in enumerate(view.hand_counts) if s != view.turn) + view.stock_size
    if len(cards) != hidden:
        raise ValueError(f"the view is inconsistent: {len(cards)} unseen cards for {hidden} hidden places")
    return cards


def _key(placed: Sequence[Card]) -> Placed:
    return tuple(sorted(placed, key=sort_key))


def _pick(scores: Sequence[Sequence[float]], confidence: float) -> int:
    """The candidate to play: 0 (the anchor) unless another's paired advantage over it, the lowest
    mean difference, exceeds ``confidence`` standard errors."""
    base = scores[0]
    best, best_mean = 0, 0.0
    for i in range(1, len(scores)):
        diffs = [a - b for a, b in zip(scores[i], base, strict=True)]
        if len(diffs) < 2:
            return 0  # one sample gives no standard error: stay
        mean, error = mean_and_error(diffs)
        if mean < best_mean and mean + confidence * error < 0:
            best, best_mean = i, mean
    return best

