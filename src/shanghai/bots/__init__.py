"""Computer players: each decides from its seat's view only."""

from shanghai.bots.greedy import GreedyPlayer
from shanghai.bots.random_player import RandomPlayer
from shanghai.bots.registry import KNOWN_PLAYERS, make_player

__all__ = ["KNOWN_PLAYERS", "GreedyPlayer", "RandomPlayer", "make_player"]
