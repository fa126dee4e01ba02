"""The random player: uniform over legal actions, but it takes progress when it can."""

from __future__ import annotations

import random

from shanghai.engine.actions import Action, GoDown, LayOff
from shanghai.engine.view import PlayerView

_PROGRESS = (GoDown, LayOff)


class RandomPlayer:
    """Goes down and lays off whenever it can; otherwise picks any legal action at random.

    It decides from its view only; THE CUT's target is as random as any other choice.
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action")
        progress = [a for a in legal if isinstance(a, _PROGRESS)]
        if progress:
            return self.rng.choice(progress)
        return self.rng.choice(legal)
