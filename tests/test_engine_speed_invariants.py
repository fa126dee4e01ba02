"""What the engine's speed work must never change: the go-down bound is sound, copies are
independent and equal, the legal-action list is the same however it is asked for, and the
random player still plays the same game from the same seeds.

(Speed itself is never asserted here: see benchmarks/bench.py.)
"""

from __future__ import annotations

import random

import pytest

from shanghai.bots import RandomPlayer
from shanghai.cards import Card, make_pack
from shanghai.engine import Game, Phase
from shanghai.engine.contract_bound import ContractBound, contract_bound
from shanghai.engine.view import view
from shanghai.rules import preset
from shanghai.solver import solve_contract

PRESETS = [("isra", ()), ("may-i", ()), ("may-i", ("aces-high",)), ("family-10", ()),
           ("contract-10", ())]


def _hands(rng: random.Random, pack: list[Card], count: int) -> list[list[Card]]:
    """Random hands, half of them from a few ranks or one suit so that many come close."""
    hands = []
    for _ in range(count):
        pool = pack
        if rng.random() < 0.5:
            ranks = set(rng.sample(range(1, 14), 5))
            suit = rng.randrange(4)
            pool = [c for c in pack if (c & 15) in ranks or c == 64 or c >> 4 == suit]
        hands.append(rng.sample(pool, min(len(pool), rng.randint(8, 15))))
    return hands


@pytest.mark.parametrize(("name", "options"), PRESETS)
def test_bound_never_rejects_a_hand_that_meets_the_contract(name: str, options: tuple[str, ...]) -> None:
    rules = preset(name, options)
    rng = random.Random(hash(name) % 1000)
    pack = make_pack(3, 6)
    for number in range(1, len(rules.rounds) + 1):
        bound = ContractBound(rules, number)
        contract = rules.contract(number)
        for hand in _hands(rng, pack, 60):
            if not bound.possible(hand):
                assert solve_contract(hand, contract, rules) is None, (number, sorted(hand))


def test_bound_is_shared_per_rules_and_round() -> None:
    isra = preset("isra")
    assert contract_bound(isra, 3) is contract_bound(isra, 3)
    assert contract_bound(isra, 3) is not contract_bound(isra, 4)


def _play(game: Game, steps: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        game.apply(rng.choice(game.legal_list()))


def test_copy_is_equal_and_independent() -> None:
    game = Game.new(preset("isra"), 4, seed=3)
    _play(game, 300, 1)
    other = game.copy()
    assert other.snapshot() == game.snapshot()
    twice = other.copy()  # a copy of a copy whose generator was never used
    assert twice.snapshot() == game.snapshot()
    _play(other, 2000, 2)  # through round ends: the copy's generator is used
    _play(twice, 2000, 2)
    assert other.snapshot() == twice.snapshot()
    assert other.snapshot() != game.snapshot()
    before = game.snapshot()
    _play(game, 2000, 2)
    assert game.snapshot() == other.snapshot()
    assert before != game.snapshot()


def test_legal_list_matches_legal_actions_and_view() -> None:
    for name, options in PRESETS:
        game = Game.new(preset(name, options), 4, seed=5)
        rng = random.Random(5)
        for _ in range(400):
            if game.is_over:
                break
            legal = game.legal_list()
            assert legal == list(game.legal_actions())
            for seat in range(4):
                mine = game.legal_list(seat)
                assert mine == [a for a in legal if a.seat == seat]
                assert tuple(mine) == view(game, seat).legal
            game.apply(rng.choice(legal))


def test_refresh_derived_after_direct_assignment() -> None:
    game = Game.new(preset("isra"), 4, seed=9)
    _play(game, 200, 4)
    rebuilt = Game(game.rules, game.players, 0)
    for name, value in vars(game.copy()).items():
        setattr(rebuilt, name, value)
    rebuilt.refresh_derived()
    assert rebuilt.snapshot() == game.snapshot()
    assert rebuilt.legal_list() == game.legal_list()


def test_random_players_replay_the_same_game() -> None:
    def play() -> tuple[object, ...]:
        game = Game.new(preset("isra"), 4, seed=11)
        players = [RandomPlayer(seed=s) for s in range(4)]
        while not game.is_over and game.phase is not Phase.GAME_OVER:
            seat = game.to_act()[0]
            game.apply(players[seat].choose(view(game, seat)))
            if len(game.actions) > 3000:
                break
        return game.snapshot()

    assert play() == play()
