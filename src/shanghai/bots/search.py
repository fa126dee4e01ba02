"""The search player: Information Set Monte Carlo Tree Search over determinizations.

Single-observer ISMCTS (SO-ISMCTS; Cowling, Powley and Whitehouse 2012, "Information Set Monte
Carlo Tree Search", IEEE TCIAIG 4(2)). Every iteration:

1. samples a determinization of the seat's view (``engine/determinize.py``: the unseen cards dealt
   at random into the opponents' unknown hand slots and the stock, everything seen kept as it is);
2. descends the tree, choosing at each node by UCB1 among the actions legal in this determinization,
   with *availability counts* (an action's exploration term counts the visits of its parent in which
   it was available, not all visits); nodes below the root belong to whichever seat acts there and
   are scored from that seat's point of view (``tree_depth`` decisions deep, forced moves skipped);
3. expands one untried action;
4. plays on with the rollout policy (``GreedyPlayer`` unless another factory is given, e.g. the
   expert) for ``rollout_turns`` turns (default: one turn per seat, counted from the root) and
   scores the state for every seat with ``evaluate``; a round that ends in the rollout is scored by
   its real points;
5. backpropagates each seat's score to the nodes where that seat chose.

Two changes for the small budgets that a whole tournament affords (``paired=True``, the default):

* At the root every candidate action is tried on the *same* determinization with the same rollout
  seeds (common random numbers), so the actions' values differ by the action rather than by the
  luck of the deal; below the root the tree is searched as above.
* The policy's own choice is the anchor: the search leaves it only for an action whose paired
  advantage over it exceeds ``confidence`` standard errors (2.0 by default; 1.0 until 2026-12-02).
  A search of a dozen rollouts otherwise trades the policy's sound choices for noise. Against
  three experts on the same 2,000 fresh games (seed 2650001), 2.0 scored -5.2 [-9.3, -1.1] points
  a game against the experts (26.5% wins, Wilson 24.6-28.5%) and 1.0 +1.9 [-2.6, +6.4] (25.7%);
  2.0 minus 1.0, per deal, its lead -7.1 [-13.0, -1.1]. Chosen on single-round games of other
  deals (2,000 each, seeds 2665001 and 2667001), where 1.0 had scored worse than the experts in
  SET SET RUN (+1.4 [-0.3, +3.1]) and RUN RUN RUN (+1.3 [-1.1, +3.6]) and 2.0 less so (+0.8 and
  +0.3), winning 1.8 and 1.5 points more of the rounds. Checked on 4,000 fresh games fixed before
  they started (seed 2710001): -3.0 [-6.0, +0.0] points a game, 24.8% wins (Wilson 23.5-26.2%).
  Both runs together (1,500 deals): about -3.8 ± 2.4 points a game, 25.4% wins: a few points a
  game better than the expert, not more wins.

With ``paired=False`` and ``confidence=0`` it is plain SO-ISMCTS choosing the root's best mean.

What is searched (the rest follows the rollout policy at once, as do decisions with one action):
take the discard or draw; buy or pass only with ``search_buys=True`` (off by default: with
buys searched, 400 games against three experts, seed 1, the search player bought 0.64 times a
round against the experts' 0.98, made its contract in 73.6% of rounds against 81.6%, and scored
+24.2 [+13.3, +35.1] points a game worse; the truncated evaluation charges a buy's penalty
cards before they can help, and buying by full greedy rollouts measured no better than greedy's
rule either); before going down, go down now (the solver's best
arrangement) or hold and discard; the discard itself, restricted to the policy's own pick and the
``top_k`` best cards by a progress/points ranking. Take and buy decisions on a card that adds
nothing to the hand's contract progress (and plays on no table meld once down) are not searched:
the answer is to draw / pass (in family-10, with a buyer waiting, taking is still searched: it
denies the buyer). Lay-offs, wild replacements, the "Shanghai" call and THE CUT follow the policy.

Nothing is searched in a round whose contract takes exactly the hand dealt (isra's SET RUN RUN, 11
cards of 11; ``whole_hand=True`` searches there too). Such a hand cannot go down holding just the
contract (000: "you may have completed SET RUN RUN in your hand, but not be able to go down if you
still only have 11 cards"), but the truncated evaluation counts the contract's cards as progress.
Searching there measured worse than the expert it anchors on, twice, on fresh deals against three
experts (the search's points minus the experts' mean, per deal): +4.8 ± 2.3 points a round in whole
games (2,000 games, seed 2500001) and +2.3 [+0.2, +4.4] in SET RUN RUN alone (``--rounds 6``,
2,000 games, seed 2640001; 21.2% of those rounds won against the experts' 26.3%).

Screened and not adopted: valuing the last round's outcomes by the chance of winning the game
(the totals so far plus each seat's estimated points, with a normal spread of 40 points a seat
not down and 16 once down) instead of by points. The screen replayed isra's last round from the
states that expert games reach (seeds 501001-503500; the searching seat at most 100 points
behind the leader, or ahead: 1,404 states; the same deals and seeds with each evaluation): a
quarter win chance and three quarters points won 577.3 of them against 563.5 (+1.0 percentage
point, 95% interval ±1.7) with the same points (-0.5 ± 2.7 a round); half and half with a spread
of 80 points, +0.3 ± 1.8; win chance alone (300 states of any standing) +2.3 ± 3.9 but 15.2 ±
9.0 points a round worse. No version moved the win rate measurably. Screened again on 1,920
replays of the last round from expert games (seeds 960001-960480, every seat in turn the searching
one): half win chance and half points +0.4 ± 1.1 percentage points of wins, win chance alone -0.1
± 1.4 and 17.9 ± 3.0 points a round worse.

Where its gain came from (single-round RUN RUN RUN games against three experts, 200 deals, seed
940001, before the expert's points-first rule): searching everything -9.3 ± 3.9 points a round,
only the take-or-draw choice -1.2 ± 3.9, only the turn's play (discard, go down or hold) -8.7 ±
3.9. Logged, its changes there were nearly all discards of equal contract progress with more points
(9.4 on average instead of 6.4): the expert now makes them itself (``ExpertSettings.points_first``),
and against that expert the same search gains -2.1 ± 3.4 (200 deals, seed 1010001). Also screened
there, no better: 32 iterations instead of 8 (-6.7 ± 5.6 against -10.7 ± 6.1 on the same 100
deals), and an evaluation fitted anew on 275,000 (state, seat) samples of expert games, by
round, with the opponents' hand sizes (within-round R^2 0.18 to 0.30 instead of -0.03 to 0.20):
-10.6 ± 5.4 against -10.7 ± 6.1, and in SET RUN RUN (100 other deals) -3.4 ± 7.9 points a round
against the search as it is. With the anchor at two standard errors, 32 iterations against 8 in
RUN RUN RUN alone on 500 fresh deals, the same for both (2,000 games, seed 9100001): its points
-0.0 [-1.3, +1.3] a round, its share of the rounds won -1.5 [-2.6, -0.3] points, at seven times
the time.

Reading the opponents (``read=F``, :mod:`shanghai.bots.reading`: the hidden cards sampled in
proportion to what each opponent's discards, passes and pick-ups say, instead of uniformly) is
an option, off by default, screened once in RUN RUN alone against three experts on 500 fresh
deals, the same for every variant (``--rounds 3 --games 2000 --seed 14000001``, compared deal by
deal with ``examples/compare_runs.py``): against the experts the search scored -1.3 [-2.8, +0.1]
points a round uniform, -2.1 [-3.5, -0.6] with ``read=0.5`` and -2.8 [-4.3, -1.3] with
``read=0.25``; ``read=0.25`` minus uniform, per deal: its points -1.1 [-2.3, +0.2], its lead -1.4
[-2.9, +0.0], its share of the rounds won -1.1 [-2.8, +0.7] percentage points (fewer, not
significantly). Fewer points that grow with the reading, at the edge of significance, in one
round, and no more rounds won. Then whole games, on the 2,000 fresh games that the uniform search
played the day before (seed 15000001, five runs of 400; README): ``read=0.25`` won 25.6% (Wilson
23.7-27.5%) against the uniform 26.6%; ``read=0.25`` minus uniform, per deal (500 deals): its win
share -1.0 [-3.4, +1.3] percentage points, its score -3.2 [-7.9, +1.6] points a game, its lead
-1.0 [-6.6, +4.6]. No gain in wins, so it stays off.

Rollouts longer than one turn a seat (``rollout_turns``), screened in single-round games against
three experts on the same 200 fresh deals (800 games a round, seed 21000001, ``--rounds 3`` and
``--rounds 7``, compared with ``examples/compare_runs.py``), minus the default: to the end of the
round (``rollout_turns=1000``, seven to eleven times the time) RUN RUN its points -1.4 [-3.7, +1.0]
a round, its win share -0.7 [-3.9, +2.5] percentage points; RUN RUN RUN -0.4 [-3.6, +2.7] and -0.1
[-2.5, +2.2]. Two turns a seat (``rollout_turns=8``, about 1.6 times the time): RUN RUN -1.9 [-4.3,
+0.5] and +2.2 [-0.8, +5.2]; RUN RUN RUN +0.4 [-2.1, +2.9] and +0.5 [-1.2, +2.2]. Nothing
significant; not tried in whole games (a 2,000-game run at eight turns would take about an hour on
2 cores, at the round's end about four).

Budget: ``iterations`` (deterministic: the same seed and view give the same action; tournaments
use this; with ``paired`` it is rounded up to whole batches of the root's candidates) or, when
``iterations`` is None, ``budget_s`` seconds of wall clock per decision (for people; at least one
batch is run, so a decision takes the budget plus at most one batch of rollouts). The player sees
only its ``PlayerView``; it remembers the round's flip card once it has seen it on the pile.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from shanghai.bots.greedy import GreedyPlayer, contract_progress, fits_table
from shanghai.bots.player import Player
from shanghai.bots.reading import card_weights
from shanghai.cards import Card, card_text, rank_of, suit_of
from shanghai.engine.actions import (
    Action,
    Buy,
    Discard,
    DrawStock,
    GoDown,
    Pass,
    TakeDiscard,
)
from shanghai.engine.determinize import InconsistentViewError, PublicRound, public_round, sample
from shanghai.engine.game import Game, Phase, TableMeld
from shanghai.engine.view import MeldView, PlayerView

# Evaluation (see ``estimate_points``): a least-squares fit of a seat's points at the end of the
# round on its state at a random moment of the round, over 2,224 (state, seat) samples of 25 isra
# games between greedy players (the session's /tmp/search_exp/calib.py and fit2.py):
# not down: 0.04 * hand points + 8.67 * cards missing from the contract + 6.21 * cards in hand - 51.65
# (R^2 0.055); down: 2.15 * cards in hand + 10.46, hand points not significant (their fitted weight
# came out slightly negative; 0.05 is used). Round outcomes are very noisy: the fit explains little of
# the variance, but it sets the relative worth of points, contract progress, hand size and being
# down (a buy's two penalty cards cost about 12 points: worth it only for real progress).
NOT_DOWN = (0.04, 8.67, 6.21, -51.65)
DOWN = (0.05, 2.15, 10.46)
SCALE = 40.0               # a point difference of 2 * SCALE spans the whole reward range


def left_sum(values: Sequence[float]) -> float:
    """The floats added one by one, left to right.

    Python 3.12's ``sum()`` compensates its rounding and 3.11's does not, and one ulp is enough to
    flip a close decision: the search adds this way so that a seed plays the same games on every
    Python (3.11's ``sum()`` gave the same, so earlier results still reproduce).

    >>> left_sum([1e16, 1.0, -1e16])  # sum() on Python 3.12 and later gives 1.0
    0.0
    """
    total = 0.0
    for x in values:
        total += x
    return total


def mean_and_error(diffs: Sequence[float]) -> tuple[float, float]:
    """The mean of paired differences and its standard error (at least two of them), added with
    :func:`left_sum` so that every Python gives the same figures.

    >>> mean_and_error([1.0, 3.0])
    (2.0, 1.0)
    """
    n = len(diffs)
    mean = left_sum(diffs) / n
    var = left_sum([(x - mean) ** 2 for x in diffs]) / (n - 1)
    return mean, math.sqrt(var / n)


def estimate_points(game: Game, seat: int) -> float:
    """Points ``seat`` may expect to score in this round (lower is better), from the state."""
    rules = game.rules
    hand = game.hands[seat]
    points = float(sum(rules.points(c) for c in hand))
    if game.down[seat]:
        return DOWN[0] * points + DOWN[1] * len(hand) + DOWN[2]
    contract = rules.contract(game.round_number)
    progress = contract_progress(hand, contract.sets, contract.runs, rules.wild_cards())
    return (NOT_DOWN[0] * points + NOT_DOWN[1] * (contract.min_cards - progress) + NOT_DOWN[2] * len(hand)
            + NOT_DOWN[3])


def evaluate(game: Game, round_index: int) -> list[float]:
    """Each seat's reward in [0, 1] for a state reached from round ``round_index``: 0.5 plus the
    difference between the other seats' mean points and its own, scaled by ``SCALE``. A round that
    has ended scores its real points (bonuses included); otherwise ``estimate_points`` for each seat.
    """
    n = game.players
    if game.round_index != round_index or game.is_over:
        result = game.round_results[round_index]
        pts = [float(p) for p in result.points]
    else:
        pts = [estimate_points(game, s) for s in range(n)]
    total = left_sum(pts)
    out = []
    for s in range(n):
        others = (total - pts[s]) / (n - 1)
        out.append(min(1.0, max(0.0, 0.5 + (others - pts[s]) / (2 * SCALE))))
    return out


@dataclass(slots=True, eq=False)
class _Node:
    seat: int                         # who chose the action leading here (its reward is stored)
    visits: int = 0
    avail: int = 0
    total: float = 0.0
    children: dict[Action, _Node] = field(default_factory=dict)


def _connections(card: int, hand: Sequence[int], wilds: frozenset[int]) -> int:
    if card in wilds:
        return 99
    r, s = rank_of(card), suit_of(card)
    n = -1  # the card itself
    for c in hand:
        if c in wilds:
            continue
        if rank_of(c) == r or (suit_of(c) == s and abs(rank_of(c) - r) <= 2):
            n += 1
    return n


def rank_discards(v: PlayerView) -> list[Card]:
    """Cards of the hand, best discard first: before going down the card whose loss costs the least
    contract progress (ties: not a wild, fewest partners, most points); once down a card that plays
    on no table meld, most points first."""
    rules = v.rules
    wilds = rules.wild_cards()
    hand = list(v.hand)
    cards = sorted(set(hand))
    me = v.seat
    if me is not None and v.down[me]:
        return sorted(cards, key=lambda c: (c in wilds, fits_table(c, v.table, wilds), -rules.points(c), c))
    contract = rules.contract(v.round_number)
    base = contract_progress(hand, contract.sets, contract.runs, wilds)

    def key(c: Card) -> tuple[int, bool, int, int, int]:
        rest = list(hand)
        rest.remove(c)
        loss = base - contract_progress(rest, contract.sets, contract.runs, wilds)
        return (loss, c in wilds, _connections(c, hand, wilds), -rules.points(c), c)
    return sorted(cards, key=key)


def takes_whole_hand(v: PlayerView) -> bool:
    """Does this round's contract take exactly the hand dealt (isra's SET RUN RUN, 11 cards of 11)?

    Such a hand cannot go down holding just the contract (the last card may not be discarded in
    isra), while the truncated evaluation counts the contract's cards as progress all the same.

    >>> from shanghai.engine.game import Game
    >>> from shanghai.engine.view import view
    >>> from shanghai.rules import preset
    >>> rules = preset("isra")
    >>> [takes_whole_hand(view(Game.new(rules.changed(rounds=(r,)), 4, seed=1), 0)) for r in rules.rounds]
    [False, False, False, False, False, True, False]
    """
    return v.rules.contract(v.round_number).min_cards == v.rules.hand_size


def _useful(v: PlayerView, card: Card) -> bool:
    """Would ``card`` help: more contract progress (after a discard), or a lay-off once down?"""
    rules = v.rules
    wilds = rules.wild_cards()
    me = v.seat
    if me is not None and v.down[me]:
        return fits_table(card, v.table, wilds)
    contract = rules.contract(v.round_number)
    hand = list(v.hand)
    before = contract_progress(hand, contract.sets, contract.runs, wilds)
    if card in wilds:
        return before < contract.min_cards
    return contract_progress([*hand, card], contract.sets, contract.runs, wilds) > before


def candidates(v: PlayerView, policy_action: Action, top_k: int, search_buys: bool = False
               ) -> list[Action]:
    """The actions worth searching in this view (one action: nothing to search); buy or pass is
    the policy's unless ``search_buys``."""
    legal = v.legal
    if len(legal) <= 1:
        return list(legal)
    phase = v.phase
    if phase == Phase.BUY:
        if not search_buys:
            return [policy_action]
        buy = next((a for a in legal if isinstance(a, Buy)), None)
        passing = next((a for a in legal if isinstance(a, Pass)), None)
        if buy is None or passing is None or v.discard_top is None or not _useful(v, v.discard_top):
            return [passing or policy_action]
        return [buy, passing]
    if phase == Phase.DRAW:
        take = next((a for a in legal if isinstance(a, TakeDiscard)), None)
        draw = next((a for a in legal if isinstance(a, DrawStock)), None)
        if take is None or draw is None:
            return [policy_action]
        if v.buy_claimant is None and (v.discard_top is None or not _useful(v, v.discard_top)):
            return [draw]
        return [take, draw]
    if phase != Phase.PLAY or v.pending_wild is not None:
        return [policy_action]
    if not isinstance(policy_action, GoDown | Discard):
        return [policy_action]  # lay-offs and wild replacements: the policy lays off what it can
    out: list[Action] = []
    go_down = next((a for a in legal if isinstance(a, GoDown)), None)
    if go_down is not None:
        out.append(go_down)
    plain = {a.card: a for a in legal if isinstance(a, Discard) and not a.shanghai}
    if isinstance(policy_action, Discard):
        out.append(policy_action)
    for c in rank_discards(v):
        if len(out) >= top_k + (go_down is not None):
            break
        a = plain.get(c)
        if a is not None and a not in out and not (isinstance(policy_action, Discard)
                                                    and policy_action.card == c):
            out.append(a)
    return out or [policy_action]


PolicyFactory = Callable[[int], Player]


def greedy_policy(seed: int) -> Player:
    return GreedyPlayer(seed)


class SearchPlayer:
    """SO-ISMCTS with truncated rollouts of a policy player (see the module docstring)."""

    name = "search"

    def __init__(self, seed: int | None = None, budget_s: float = 1.0, iterations: int | None = None,
                 rollout: PolicyFactory = greedy_policy, *, rollout_turns: int | None = None,
                 top_k: int = 3, exploration: float = 0.7, tree_depth: int = 1, paired: bool = True,
                 confidence: float = 2.0, search_buys: bool = False, whole_hand: bool = False,
                 read: float = 1.0) -> None:
        if not 0.0 < read <= 1.0:
            raise ValueError(f"read is above 0 and at most 1 (1: the hidden cards sampled uniformly), not {read}")
        self.rng = random.Random(seed)
        self.read = read  # below 1: samples weighted by what the opponents showed (shanghai.bots.reading)
        self.search_buys = search_buys
        self.whole_hand = whole_hand  # search where the contract takes the whole hand dealt too
        self.budget_s = budget_s
        self.iterations = iterations
        self.rollout = rollout
        self.rollout_turns = rollout_turns  # None: one turn per seat
        self.top_k = top_k
        self.exploration = exploration
        self.tree_depth = tree_depth
        self.paired = paired
        self.confidence = confidence
        self._flip: tuple[tuple[int, int, tuple[int, ...]], tuple[Action, ...], Card] | None = None
        self.last_iterations = 0
        self.last_stats: dict[Action, tuple[int, float]] = {}
        self.left_policy = False  # the last decision left the rollout policy's own choice

    # -- memory of the flip card ----------------------------------------------------------------
    def _remember_flip(self, v: PlayerView) -> Card | None:
        """The round's flip card, if this player saw it while it was alone on the pile (a memory
        kept for the round: the same round, dealer and totals, and the history seen then)."""
        key = (v.round_number, v.dealer, v.totals)
        if self._flip is not None:
            k, prefix, card = self._flip
            if k == key and v.history[:len(prefix)] == prefix:
                return card
            self._flip = None  # another round (or game): forget it
        untouched = not any(isinstance(a, Discard | TakeDiscard | Buy) for a in v.history)
        if untouched and v.discard_top is not None and v.discard_size == 1:
            self._flip = (key, v.history, v.discard_top)
            return v.discard_top
        return None

    def forget(self) -> None:
        """Forget what this player remembers of the round (the flip card), so that its next choice
        depends on its view and its generator only (a game resumed from a record goes on exactly as
        one played in a single sitting)."""
        self._flip = None

    # -- the decision ---------------------------------------------------------------------------
    def choose(self, v: PlayerView) -> Action:
        return self._decide(v, False)[0]

    def decide(self, v: PlayerView) -> tuple[Action, str]:
        """The action and a one-line reason for it: the rollout policy's own reason where the
        search keeps the policy's choice, else what the search found.

        >>> from shanghai.bots.expert import ExpertPlayer
        >>> from shanghai.engine.game import Game
        >>> from shanghai.engine.view import view
        >>> from shanghai.rules import preset
        >>> game = Game.new(preset("isra"), 4, seed=1)
        >>> seat = game.to_act()[0]
        >>> action, reason = SearchPlayer(1, iterations=8, rollout=ExpertPlayer).decide(view(game, seat))
        >>> action == SearchPlayer(1, iterations=8, rollout=ExpertPlayer).choose(view(game, seat))
        True
        """
        return self._decide(v, True)

    def _decide(self, v: PlayerView, explain: bool) -> tuple[Action, str]:
        legal = v.legal
        if not legal:
            raise ValueError(f"seat {v.seat} has no legal action")
        flip = self._remember_flip(v) if v.phase != Phase.CUT else None
        decision_seed = self.rng.getrandbits(64)
        self.last_iterations = 0
        self.last_stats = {}
        self.left_policy = False
        if len(legal) == 1 and not explain:
            return legal[0], ""
        policy = self.rollout(decision_seed & 0xFFFFFFFF)
        if len(legal) == 1:
            return _policy_decision(policy, v)
        policy_action, policy_reason = _policy_decision(policy, v) if explain else (policy.choose(v), "")
        if not self.whole_hand and takes_whole_hand(v):
            return policy_action, policy_reason
        cands = candidates(v, policy_action, self.top_k, self.search_buys)
        if len(cands) == 1:
            self.left_policy = cands[0] != policy_action
            return cands[0], (policy_reason if cands[0] == policy_action else _words(cands[0], v))
        try:
            pub = public_round(v, flip)
        except InconsistentViewError:
            try:
                pub = public_round(v)  # a stale memory of the flip, perhaps
            except InconsistentViewError:
                return policy_action, policy_reason
        weights = card_weights(v, self.read) if self.read < 1.0 else None
        action, gain = self._search(v, pub, cands, random.Random(decision_seed), policy_action, weights)
        self.left_policy = action != policy_action
        if action == policy_action or not explain:
            return action, policy_reason
        deals = self.last_iterations // len(cands) if self.paired else self.last_iterations
        points = gain * 2 * SCALE  # a reward difference back in points (see ``evaluate``)
        by = f"about {points:.1f} points " if points < 10 else f"about {points:.0f} points "
        return action, (f"{_words(action, v)}: over {deals} deals of the cards you cannot see it came out "
                        f"{by if points > 0 else ''}ahead of {_words(policy_action, v)}")

    def _search(self, v: PlayerView, pub: PublicRound, cands: list[Action], rng: random.Random,
                anchor: Action | None = None,
                weights: Sequence[Mapping[Card, float]] | None = None) -> tuple[Action, float]:
        """The action chosen, and its mean paired gain over ``anchor`` (reward units; 0 when it
        is the anchor or when there is none)."""
        me = v.seat
        assert me is not None
        root = _Node(seat=me)
        start = time.perf_counter()
        limit = self.iterations
        done = 0
        diffs: dict[Action, list[float]] = {a: [] for a in cands}
        while True:
            if limit is not None:
                if done >= limit:
                    break
            elif done > 0 and time.perf_counter() - start >= self.budget_s:
                break
            game = sample(pub, rng, weights)
            seeds = [rng.getrandbits(32) for _ in range(game.players)]
            if self.paired:
                # every root action on the same determinization and rollout seeds (common random
                # numbers: the actions' values differ by the action, not by the luck of the deal)
                values = {a: self._iterate(root, game.copy(), seeds, cands, a, rng) for a in cands}
                done += len(cands)
                if anchor is not None and anchor in values:
                    for a in cands:
                        diffs[a].append(values[a] - values[anchor])
            else:
                self._iterate(root, game, seeds, cands, None, rng)
                done += 1
        self.last_iterations = done
        self.last_stats = {a: (ch.visits, ch.total / ch.visits if ch.visits else 0.0)
                           for a, ch in root.children.items()}
        # the best mean (ties: the most visits, then the order of the candidates)
        best = max(cands, key=lambda a: (self.last_stats.get(a, (0, -1.0))[1],
                                         self.last_stats.get(a, (0, 0.0))[0]))
        if anchor is None or anchor not in cands or best == anchor:
            return best, 0.0
        d = diffs[best]
        if self.confidence > 0:
            # leave the policy's choice only when the paired difference is clear
            if len(d) < 2:
                return anchor, 0.0
            mean, error = mean_and_error(d)
            if mean <= self.confidence * error:
                return anchor, 0.0
            return best, mean
        return best, (left_sum(d) / len(d) if d else 0.0)

    def _select(self, node: _Node, cands: Sequence[Action], rng: random.Random, seat: int) -> Action:
        untried: list[Action] = []
        for a in cands:
            child = node.children.get(a)
            if child is None:
                child = node.children[a] = _Node(seat=seat)
            child.avail += 1
            if child.visits == 0:
                untried.append(a)
        if untried:
            return untried[0] if len(untried) == 1 else rng.choice(untried)
        c = self.exploration
        best: Action | None = None
        best_score = -math.inf
        for a in cands:
            ch = node.children[a]
            score = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
            if score > best_score:
                best, best_score = a, score
        assert best is not None
        return best

    def _iterate(self, root: _Node, game: Game, seeds: list[int], root_cands: list[Action],
                 forced: Action | None, rng: random.Random) -> float:
        n = game.players
        players = [self.rollout(seed) for seed in seeds]
        round_index = game.round_index
        horizon = game.turns_taken + (self.rollout_turns if self.rollout_turns is not None else n)
        make_view = ViewMaker()
        path: list[_Node] = []
        node = root
        depth = 0
        expanded = False
        while not expanded and not game.is_over and game.round_index == round_index:
            seat = game.to_act()[0]
            if node is root:
                cands = root_cands
                if forced is not None:
                    for a in cands:
                        ch = node.children.get(a)
                        if ch is None:
                            ch = node.children[a] = _Node(seat=seat)
                        ch.avail += 1
                    child = node.children[forced]
                    game.apply(forced)
                    path.append(child)
                    node = child
                    depth += 1
                    continue
            else:
                if depth >= self.tree_depth:
                    break
                sv = make_view(game, seat)
                cands = candidates(sv, players[seat].choose(sv), self.top_k, self.search_buys)
                if len(cands) == 1:
                    game.apply(cands[0])
                    continue
            action = self._select(node, cands, rng, seat)
            child = node.children[action]
            expanded = child.visits == 0
            game.apply(action)
            path.append(child)
            node = child
            depth += 1
        # truncated rollout
        steps = 0
        while not game.is_over and game.round_index == round_index and game.turns_taken < horizon \
                and steps < 2000:
            seat = game.to_act()[0]
            game.apply(players[seat].choose(make_view(game, seat)))
            steps += 1
        rewards = evaluate(game, round_index)
        for ch in path:
            ch.visits += 1
            ch.total += rewards[ch.seat]
        return rewards[root.seat]


def _policy_decision(policy: Player, v: PlayerView) -> tuple[Action, str]:
    """The policy's action with its reason, where the policy gives one (the expert does)."""
    decide = getattr(policy, "decide", None)
    if callable(decide):
        action, reason = decide(v)
        return action, str(reason)
    action = policy.choose(v)
    return action, _words(action, v)


def _words(a: Action, v: PlayerView) -> str:
    """A searched action in the game's words, e.g. "take 7H", "discard KS", "go down now"."""
    if isinstance(a, TakeDiscard):
        return f"take {card_text(v.discard_top)}" if v.discard_top is not None else "take the discard"
    if isinstance(a, DrawStock):
        return "draw"
    if isinstance(a, Discard):
        return f"discard {card_text(a.card)}"
    if isinstance(a, GoDown):
        return "go down now"
    if isinstance(a, Buy):
        return f"buy {card_text(v.discard_top)}" if v.discard_top is not None else "buy"
    if isinstance(a, Pass):
        return "pass"
    return str(a)


class ViewMaker:
    """``view(game, seat)`` for rollouts, equal to it field for field but cheaper: the table's meld
    views are kept from call to call (a table meld is a frozen value, replaced when it changes)."""

    def __init__(self) -> None:
        self._melds: list[tuple[TableMeld, MeldView]] = []

    def __call__(self, game: Game, seat: int) -> PlayerView:
        rules = game.rules
        cache = self._melds
        table = game.table
        for i, tm in enumerate(table):
            if i == len(cache):
                cache.append((tm, MeldView(tm.id, tm.owner, tm.meld.kind, tm.meld.cards,
                                           tuple(tm.meld.wild_meanings(rules)))))
            elif cache[i][0] is not tm:
                cache[i] = (tm, MeldView(tm.id, tm.owner, tm.meld.kind, tm.meld.cards,
                                         tuple(tm.meld.wild_meanings(rules))))
        del cache[len(table):]
        w = game.buy_window
        sw = game.shanghai_window
        return PlayerView(
            seat=seat, players=game.players, rules_name=rules.name, rules=rules,
            round_number=min(game.round_number, len(rules.rounds)), rounds=len(rules.rounds),
            contract=game.contract.text(), dealer=game.dealer, phase=game.phase, turn=game.turn,
            to_act=game.to_act(), hand=tuple(game.hands[seat]),
            hand_counts=tuple(len(h) for h in game.hands), down=tuple(game.down),
            buys_used=tuple(game.buys_used), buy_limit=game.buy_limit,
            table=tuple(mv for _, mv in cache), discard_top=game.discard_top,
            discard_live=game.discard_live, discard_size=len(game.discards), stock_size=len(game.stock),
            pending_wild=game.pending_wild,
            buy_window=tuple(s for s in w.seats if s not in w.answers) if w else (),
            buy_claimant=w.claimant if w else None, shanghai_card=sw.card if sw else None,
            cut=game.cut, totals=tuple(game.totals), round_results=tuple(game.round_results),
            history=tuple(game.actions[game.round_start:]), legal=tuple(game.legal_actions(seat)))
