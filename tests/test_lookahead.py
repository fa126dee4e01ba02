"""The lookahead player (bots/lookahead.py, the expert with ``lookahead=True``) and greedy's run estimate."""

from __future__ import annotations

import dataclasses
import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import card, new_game
from shanghai.bots.expert import ExpertPlayer, ExpertSettings
from shanghai.bots.greedy import GreedyPlayer, _best_run, contract_progress
from shanghai.bots.lookahead import LookaheadPlayer, Pool, time_to_meet, times
from shanghai.cards import JOKER, parse_cards
from shanghai.engine.actions import Action, Buy, Discard, DrawStock, Pass, TakeDiscard
from shanghai.engine.game import Phase
from shanghai.engine.view import PlayerView, view
from shanghai.rules import preset
from shanghai.solver import meets_contract
from test_expert import _view as expert_view

ISRA = preset("isra")
NATURALS = [s * 16 + r for s in range(4) for r in range(1, 14)]


def _view(round_number: int, phase: Phase, hand: str, legal: list[Action], **changes: object) -> PlayerView:
    """A view of seat 0 in ``round_number`` of isra, 4 players, with the given hand."""
    return expert_view("isra", round_number, phase, hand, legal, **changes)


# -- time to meet a contract ----------------------------------------------------------------------
def test_time_to_meet_is_the_first_prefix_that_meets() -> None:
    hand = parse_cards("7H 7S 9D 9C 9H KD 4C")
    contract = ISRA.contract(1)  # 2 sets
    assert time_to_meet(hand, contract, ISRA, parse_cards("2C 5H 7D 3S"), horizon=4) == 3
    assert time_to_meet(hand, contract, ISRA, parse_cards("7D 5H"), horizon=4) == 1
    assert time_to_meet(hand, contract, ISRA, parse_cards("2C 5H 3S 8S"), horizon=4) == 5  # never
    assert time_to_meet(hand, contract, ISRA, parse_cards("2C 5H 3S 7D"), horizon=3) == 4  # too late
    assert time_to_meet([*hand, card("7D")], contract, ISRA, parse_cards("2C"), horizon=3) == 0
    # counted from the next draw, a hand that already meets counts 1
    assert times([*hand, card("7D")], contract, ISRA, [parse_cards("2C")], 3) == [1]


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([1, 2, 3, 4, 5, 6]))
def test_time_to_meet_matches_checking_every_prefix(rng: random.Random, round_number: int) -> None:
    deck = NATURALS * 3 + [JOKER] * 6
    rng.shuffle(deck)
    hand, draws = deck[:10], deck[10:16]
    contract = ISRA.contract(round_number)
    expected = next((k for k in range(7) if meets_contract(hand + draws[:k], contract, ISRA)), 7)
    assert time_to_meet(hand, contract, ISRA, draws, horizon=6) == expected


def test_pool_holds_the_live_copies_and_samples_reproduce() -> None:
    live = [0.0] * 65
    live[card("7H")] = 2.0
    live[JOKER] = 1.0
    pool = Pool.from_live(live)
    assert sorted(pool.cards) == sorted([card("7H"), card("7H"), JOKER])
    a = pool.samples(random.Random(4), count=5, depth=2)
    assert a == pool.samples(random.Random(4), count=5, depth=2)
    assert all(len(s) == 2 and sorted(s) != [JOKER, JOKER] for s in a)
    assert Pool([]).samples(random.Random(1), 3, 4) == [(), (), ()]


# -- its decisions --------------------------------------------------------------------------------
def test_discards_a_card_no_plan_needs() -> None:
    # 2 runs of 4 (000 round 3): the two outside runs stay, a lone card goes
    hand = "7H 8H 9H 3S 4S 5S KD 2C 9D QC JD 5D"
    legal: list[Action] = [Discard(0, c) for c in sorted(set(parse_cards(hand)))]
    action = LookaheadPlayer(1).choose(_view(3, Phase.PLAY, hand, legal))
    assert isinstance(action, Discard)
    assert action.card not in parse_cards("7H 8H 9H 3S 4S 5S")


def test_takes_the_card_that_completes_the_contract_and_not_a_useless_one() -> None:
    hand = "7H 7S 9D 9C 9H KD 4C 2S QD JC 5H"
    legal: list[Action] = [TakeDiscard(0), DrawStock(0)]
    wanted = _view(1, Phase.DRAW, hand, legal, discard_top=card("7D"), discard_live=True)
    assert LookaheadPlayer(1).choose(wanted) == TakeDiscard(0)
    useless = dataclasses.replace(wanted, discard_top=card("3D"))
    assert LookaheadPlayer(1).choose(useless) == DrawStock(0)
    joker = dataclasses.replace(wanted, discard_top=JOKER)
    assert LookaheadPlayer(1).choose(joker) == TakeDiscard(0)


def test_buys_more_readily_where_the_contract_needs_more_cards_than_a_hand() -> None:
    # 3 runs of 4 (000 round 7: twelve cards from eleven): 6 short after the buy
    hand = "3H 4H 5H 9S 10S KC QD 2D 7C 8D JH"
    legal: list[Action] = [Buy(0), Pass(0)]
    v = _view(7, Phase.BUY, hand, legal, discard_top=card("6H"), discard_live=True, turn=1, to_act=(0,))
    assert LookaheadPlayer(1).choose(v) == Buy(0)
    assert GreedyPlayer(1).choose(v) == Pass(0)


def test_the_expert_plays_by_lookahead_when_set_and_says_why() -> None:
    hand = "7H 7S 9D 9C 9H KD 4C 2S QD JC 5H"
    v = _view(1, Phase.DRAW, hand, [TakeDiscard(0), DrawStock(0)], discard_top=card("7D"),
              discard_live=True)
    looking = ExpertSettings(lookahead=True)
    action, reason = ExpertPlayer(1, looking).decide(v)
    assert action == TakeDiscard(0) and "sooner" in reason
    assert ExpertPlayer(1, looking).choose(v) == LookaheadPlayer(1).choose(v)
    # by default the expert plays by its rules (the lookahead measured no stronger)
    assert "sooner" not in ExpertPlayer(1).decide(v)[1]


def test_reproducible_and_legal_over_whole_rounds() -> None:
    rules = dataclasses.replace(ISRA, rounds=ISRA.rounds[2:4])

    def play(seed: int) -> tuple[tuple[int, ...], int]:
        game = new_game("isra", 4, seed=seed, rules=rules)
        players = [LookaheadPlayer(seed * 10 + s) if s % 2 == 0 else GreedyPlayer(s) for s in range(4)]
        while not game.is_over:
            seat = game.to_act()[0]
            v = view(game, seat)
            a = players[seat].choose(v)
            assert a in v.legal
            game.apply(a)
        return tuple(game.totals), len(game.actions)
    assert play(3) == play(3)


# -- greedy's run estimate (made faster) equals the plain definition -------------------------------
def _best_run_reference(counts: dict[int, int], size: int) -> tuple[int, list[int]]:
    best: list[int] = []
    for suit in range(4):
        ranks = {r for r in range(1, 14) if counts.get(suit * 16 + r, 0) > 0}
        if not ranks:
            continue
        if 1 in ranks:
            ranks.add(14)
        for low in range(1, 16 - size):
            window = [r for r in range(low, low + size) if r in ranks]
            if len(window) > len(best):
                best = [suit * 16 + (1 if r == 14 else r) for r in window]
    return len(best), best


def test_greedy_best_run_equals_the_reference() -> None:
    rng = random.Random(3)
    for _, size in itertools.product(range(3000), (3, 4, 5, 7, 10)):
        counts: dict[int, int] = {}
        for _ in range(rng.randint(0, 18)):
            c = rng.choice(NATURALS)
            counts[c] = counts.get(c, 0) + rng.choice((1, 1, 2))
        for c in list(counts):
            if rng.random() < 0.1:
                counts[c] = 0
        masks = [0, 0, 0, 0]  # what contract_progress keeps: each suit's ranks in hand as bits
        for c, n in counts.items():
            if n > 0:
                masks[c >> 4] |= 1 << (c & 15)
        assert _best_run(masks, size) == _best_run_reference(counts, size)


# -- greedy's contract progress (made faster) equals the plain definition ------------------------
def _best_set_reference(counts: dict[int, int], size: int) -> list[int]:
    best: list[int] = []
    for rank in range(1, 14):
        cards = [c for c, n in counts.items() if c & 15 == rank for _ in range(n)][:size]
        if len(cards) > len(best):
            best = cards
    return best


def _progress_reference(hand: list[int], sets: tuple[int, ...], runs: tuple[int, ...]) -> int:
    """Fill the contract's melds one at a time, each with the candidate covering most free cards
    (the first slot on ties), then let the jokers fill what is still missing."""
    counts: dict[int, int] = {}
    for c in hand:
        if c != JOKER:
            counts[c] = counts.get(c, 0) + 1
    slots = [("set", s) for s in sets] + [("run", r) for r in runs]
    covered = missing = 0
    while slots:
        options = [(_best_set_reference(counts, n) if kind == "set" else _best_run_reference(counts, n)[1])
                   for kind, n in slots]
        i = max(range(len(slots)), key=lambda k: (len(options[k]), -k))
        for c in options[i]:
            counts[c] -= 1
        covered += len(options[i])
        missing += slots[i][1] - len(options[i])
        del slots[i]
    return covered + min(hand.count(JOKER), missing)


def test_greedy_contract_progress_equals_the_reference() -> None:
    rng = random.Random(5)
    contracts = [((3, 3), ()), ((3,), (4,)), ((), (4, 4)), ((3, 3, 3), ()), ((3, 3), (4,)), ((3,), (4, 4)),
                 ((), (4, 4, 4)), ((3,), (7,)), ((3, 3, 3), (5,)), ((), (5, 5, 5))]
    for _ in range(4000):
        sets, runs = rng.choice(contracts)
        hand = [rng.choice(NATURALS) if rng.random() < 0.93 else JOKER for _ in range(rng.randint(0, 16))]
        want = _progress_reference(hand, sets, runs)
        assert contract_progress(hand, sets, runs) == want
        assert contract_progress(tuple(hand), list(sets), list(runs)) == want  # any sequences
