"""Computer players by name: ``make_player("greedy", seed)``.

>>> type(make_player("random", 1)).__name__
'RandomPlayer'
>>> make_player("nobody", 1)
Traceback (most recent call last):
...
ValueError: unknown player 'nobody' (known: random, greedy)
"""

from __future__ import annotations

from typing import Protocol

from shanghai.bots.greedy import GreedyPlayer
from shanghai.bots.random_player import RandomPlayer
from shanghai.engine.actions import Action
from shanghai.engine.view import PlayerView

KNOWN_PLAYERS: tuple[str, ...] = ("random", "greedy")


class Player(Protocol):
    """Anything that picks an action from its own view."""

    def choose(self, view: PlayerView) -> Action: ...


def make_player(spec: str, seed: int) -> Player:
    """A new player of kind ``spec`` (one of ``KNOWN_PLAYERS``, case-insensitive) seeded with
    ``seed``; an unknown name raises ``ValueError`` naming it and the known names."""
    name = spec.strip().lower()
    if name == "random":
        return RandomPlayer(seed)
    if name == "greedy":
        return GreedyPlayer(seed)
    raise ValueError(f"unknown player {spec!r} (known: {', '.join(KNOWN_PLAYERS)})")
