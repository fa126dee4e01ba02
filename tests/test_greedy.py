"""The greedy player: legal in every preset, sensible in rigged situations, stronger than random."""

from __future__ import annotations

import pytest

from helpers import card, new_game, rig
from shanghai.bots.greedy import GreedyPlayer, contract_progress, parse_contract
from shanghai.bots.match import play_game, seat_seed
from shanghai.bots.random_player import RandomPlayer
from shanghai.cards import parse_cards
from shanghai.engine.actions import Action, Cut, Discard, DrawStock, GoDown, TakeDiscard
from shanghai.engine.game import Phase
from shanghai.engine.view import PlayerView, view
from shanghai.rules import PRESETS, preset


class Checked:
    """Wraps a player and checks that every choice is one of the view's legal actions."""

    def __init__(self, player: GreedyPlayer | RandomPlayer) -> None:
        self.player = player
        self.actions = 0

    def choose(self, v: PlayerView) -> Action:
        action = self.player.choose(v)
        assert action in v.legal, (action, v.legal)
        self.actions += 1
        return action


CASES = [(name, n) for name, rules in PRESETS.items()
         for n in sorted({rules.min_players, rules.max_players})]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_all_greedy_games_finish_legally(name: str, players: int) -> None:
    rules = preset(name)
    seats = [Checked(GreedyPlayer(seat_seed(11, s))) for s in range(players)]
    game = play_game(rules, players, seed=11, seats=seats, max_actions=50_000)
    assert game.is_over and len(game.round_results) == len(rules.rounds)
    assert sum(s.actions for s in seats) == len(game.actions)


@pytest.mark.parametrize("name", list(PRESETS))
def test_mixed_games_finish_legally(name: str) -> None:
    rules = preset(name)
    players = 4 if rules.min_players <= 4 <= rules.max_players else rules.min_players
    seats = [Checked(GreedyPlayer(s) if s % 2 == 0 else RandomPlayer(s)) for s in range(players)]
    game = play_game(rules, players, seed=5, seats=seats, max_actions=50_000)
    assert game.is_over


def test_options_and_shanghai_call() -> None:
    rules = preset("may-i", ["shanghai-call", "no-split"])
    seats = [Checked(GreedyPlayer(s)) for s in range(4)]
    assert play_game(rules, 4, seed=3, seats=seats, max_actions=50_000).is_over


def test_same_seed_same_game() -> None:
    def totals(seed: int) -> tuple[int, ...]:
        seats = [GreedyPlayer(seat_seed(seed, s)) for s in range(4)]
        return tuple(play_game(preset("may-i"), 4, seed=seed, seats=seats).totals)
    assert totals(2) == totals(2)


def test_progress_examples() -> None:
    assert parse_contract("1 set of 3 + 2 runs of 4") == ((3,), (4, 4))
    assert contract_progress(parse_cards("7H 7S 7D 9C 9D 9S"), (3, 3), ()) == 6
    # a card shared by a set and a run counts once
    assert contract_progress(parse_cards("7H 7S 7D 8D 9D 10D"), (3,), (4,)) == 6
    assert contract_progress(parse_cards("7H 7S 8D 9D 10D"), (3,), (4,)) == 5


def test_cut_aims_at_the_exact_count() -> None:
    for players in (4, 6):
        game = new_game("isra", players, seed=3)
        assert game.phase == Phase.CUT
        action = GreedyPlayer(0).choose(view(game, game.turn))
        assert action == Cut(game.turn, 11 * players + 1)


def test_takes_a_discard_that_completes_a_set() -> None:
    game = rig(new_game("isra", 4, seed=1), round_number=1, turn=0, phase=Phase.DRAW,
               hands={0: "7H 7S 9D 9C KD 4S 5H QC 3D 8S JH"}, discards="2C 9H")
    assert GreedyPlayer(0).choose(view(game, 0)) == TakeDiscard(0)


def test_draws_when_the_discard_is_useless() -> None:
    game = rig(new_game("isra", 4, seed=1), round_number=1, turn=0, phase=Phase.DRAW,
               hands={0: "7H 7S 9D 9C KD 4S 5H QC 3D 8S JH"}, discards="2C 6C")
    assert GreedyPlayer(0).choose(view(game, 0)) == DrawStock(0)


def test_discards_a_high_useless_card() -> None:
    game = rig(new_game("isra", 4, seed=1), round_number=1, turn=0, phase=Phase.PLAY,
               hands={0: "7H 7S 9D 9C 9H 4S 4H AC 3D 3S 6H 6D"}, discards="2C")
    assert GreedyPlayer(0).choose(view(game, 0)) == Discard(0, card("AC"))


def test_goes_down_when_it_can() -> None:
    game = rig(new_game("isra", 4, seed=1), round_number=1, turn=0, phase=Phase.PLAY,
               hands={0: "7H 7S 7D 9C 9H 9S 4H AC 3D QS 6H 6D"}, discards="2C")
    action = GreedyPlayer(0).choose(view(game, 0))
    assert isinstance(action, GoDown)


def test_greedy_beats_random_at_isra() -> None:
    games, wins = 20, 0
    greedy_total = random_total = 0.0
    for i in range(games):
        me = i % 4
        seats = [GreedyPlayer(seat_seed(i, s)) if s == me else RandomPlayer(seat_seed(i, s))
                 for s in range(4)]
        game = play_game(preset("isra"), 4, seed=500 + i, seats=seats)
        others = [t for s, t in enumerate(game.totals) if s != me]
        wins += game.totals[me] < min(others)
        greedy_total += game.totals[me]
        random_total += sum(others) / len(others)
    assert wins / games > 0.6
    assert greedy_total < random_total / 2
