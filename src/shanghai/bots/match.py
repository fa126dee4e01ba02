"""Playing one whole game between computer players, each choosing from its own view.

When several seats may act (a buy window) they are asked one action at a time in
``game.to_act()`` order.

>>> from shanghai.rules import preset
>>> game = play_game(preset("isra-junior"), 3, seed=1)
>>> game.is_over, len(game.round_results)
(True, 3)
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, overload

from shanghai.bots.manipulation import ManipulationRandom
from shanghai.bots.player import AnyPlayer, ManipulationPlayer
from shanghai.bots.random_player import RandomPlayer
from shanghai.engine.game import Game
from shanghai.engine.manipulation import ManipulationGame, manipulation_view
from shanghai.engine.view import view
from shanghai.rules import AnyRules, ManipulationRules, Rules

DEFAULT_MAX_ACTIONS = 1_000_000


class GameStuckError(RuntimeError):
    """A game that did not end within the action limit, or a seat with no legal action."""


def seat_seed(seed: int, seat: int) -> int:
    """The seed of seat ``seat``'s random player in the game of seed ``seed``: stable across runs
    and machines, and different for every (game, seat).

    >>> seat_seed(7, 0) != seat_seed(7, 1) != seat_seed(8, 0)
    True
    """
    digest = hashlib.sha256(f"shanghai-seat:{seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@overload
def play_game(rules: Rules, players: int, seed: int, *, seats: Sequence[AnyPlayer] | None = None,
              max_actions: int = DEFAULT_MAX_ACTIONS) -> Game: ...


@overload
def play_game(rules: ManipulationRules, players: int, seed: int, *,
              seats: Sequence[AnyPlayer] | None = None,
              max_actions: int = DEFAULT_MAX_ACTIONS) -> ManipulationGame: ...


@overload
def play_game(rules: AnyRules, players: int, seed: int, *, seats: Sequence[AnyPlayer] | None = None,
              max_actions: int = DEFAULT_MAX_ACTIONS) -> Game | ManipulationGame: ...


def play_game(rules: AnyRules, players: int, seed: int, *, seats: Sequence[AnyPlayer] | None = None,
              max_actions: int = DEFAULT_MAX_ACTIONS) -> Game | ManipulationGame:
    """Play one whole game and return it (over). ``seats`` defaults to random players seeded from
    ``seed``; an illegal choice raises ``IllegalActionError`` from the engine."""
    if isinstance(rules, ManipulationRules):
        return _play_manipulation(rules, players, seed, seats, max_actions)
    game = Game.new(rules, players, seed)
    bots: Sequence[Any] = seats if seats is not None else [RandomPlayer(seat_seed(seed, s))
                                                              for s in range(players)]
    if len(bots) != players:
        raise ValueError(f"{len(bots)} players given for {players} seats")
    applied = 0
    while not game.is_over:
        to_act = game.to_act()
        if not to_act:
            raise GameStuckError(f"nobody may act in phase {game.phase.value} (seed {seed})")
        seat = to_act[0]
        seat_view = view(game, seat)
        if not seat_view.legal:
            raise GameStuckError(f"seat {seat} is to act in phase {game.phase.value} but has no legal "
                                 f"action (seed {seed}, action {len(game.actions)})")
        game.apply(bots[seat].choose(seat_view))
        applied += 1
        if applied >= max_actions:
            raise GameStuckError(f"the game of seed {seed} did not end within {max_actions} actions")
    return game


def _play_manipulation(rules: ManipulationRules, players: int, seed: int,
                       seats: Sequence[AnyPlayer] | None, max_actions: int) -> ManipulationGame:
    game = ManipulationGame.new(rules, players, seed)
    bots: Sequence[Any] = seats if seats is not None else [ManipulationRandom(seat_seed(seed, s))
                                                              for s in range(players)]
    if len(bots) != players:
        raise ValueError(f"{len(bots)} players given for {players} seats")
    applied = 0
    while not game.is_over:
        if applied >= max_actions:
            raise GameStuckError(f"the game of seed {seed} did not end within {max_actions} actions")
        bot: ManipulationPlayer = bots[game.turn]
        game.apply(bot.choose(manipulation_view(game, game.turn)))
        applied += 1
    return game
