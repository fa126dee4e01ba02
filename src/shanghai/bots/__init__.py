"""Computer players: each decides from its seat's view only."""

from shanghai.bots.coach import Advice, advise
from shanghai.bots.expert import ExpertPlayer
from shanghai.bots.greedy import GreedyPlayer
from shanghai.bots.random_player import RandomPlayer
from shanghai.bots.registry import KNOWN_LEVELS, KNOWN_PLAYERS, make_player

__all__ = ["KNOWN_LEVELS", "KNOWN_PLAYERS", "Advice", "ExpertPlayer", "GreedyPlayer", "RandomPlayer", "advise",
           "make_player"]
