"""The coach: for a seat's view, the action the strongest fast player would take, and why.

The interfaces' hint button calls :func:`advise` with the human's view; the advice is one of the
view's legal actions with a one-line reason in the game's words.

>>> from shanghai.engine.game import Game
>>> from shanghai.engine.view import view
>>> from shanghai.rules import preset
>>> game = Game.new(preset("may-i"), players=4, seed=1)
>>> seat = game.to_act()[0]
>>> tip = advise(view(game, seat))
>>> tip.action in view(game, seat).legal, bool(tip.reason), "\\n" in tip.reason
(True, True, False)
"""

from __future__ import annotations

from dataclasses import dataclass

from shanghai.bots.expert import ExpertPlayer
from shanghai.engine.actions import Action
from shanghai.engine.view import PlayerView


@dataclass(frozen=True, slots=True)
class Advice:
    """The coach's advice: ``action`` is one of the view's legal actions."""

    action: Action
    reason: str

    def __str__(self) -> str:
        return f"{self.action}  ({self.reason})"


def advise(view: PlayerView, seed: int = 0) -> Advice:
    """The expert player's choice for ``view`` with its reason; ``ValueError`` when the seat has
    no legal action (it is not this seat's turn to act)."""
    if view.seat is None or not view.legal:
        raise ValueError(f"seat {view.seat} has no legal action: nothing to advise")
    action, reason = ExpertPlayer(seed).decide(view)
    reason = " ".join(reason.split()) or str(action)
    return Advice(action, reason)
