"""Computer players."""

from shanghai.bots.random_player import RandomPlayer

__all__ = ["RandomPlayer"]
