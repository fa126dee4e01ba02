"""What every computer player is: something that picks an action from its own seat's view."""

from __future__ import annotations

from typing import Protocol

from shanghai.engine.actions import Action
from shanghai.engine.manipulation import ManipulationAction, ManipulationView
from shanghai.engine.view import PlayerView


class Player(Protocol):
    """Anything that picks an action from its own view."""

    def choose(self, view: PlayerView) -> Action: ...


class ManipulationPlayer(Protocol):
    """A player of manipulation rummy: picks a play, a draw or a pass from its own view."""

    def choose(self, view: ManipulationView) -> ManipulationAction: ...


AnyPlayer = Player | ManipulationPlayer
