"""What every computer player is: something that picks an action from its own seat's view."""

from __future__ import annotations

from typing import Protocol

from shanghai.engine.actions import Action
from shanghai.engine.view import PlayerView


class Player(Protocol):
    """Anything that picks an action from its own view."""

    def choose(self, view: PlayerView) -> Action: ...
