"""The coach: for a seat's view, the action the strongest player would take, and why.

The interfaces' hint button calls :func:`advise` with the human's view; the advice is one of the
view's legal actions with a one-line reason in the game's words. The strongest player is the
search player of level ``expert`` (:func:`shanghai.bots.registry.strongest_player`): where it keeps
the expert player's choice, the reason is the expert's ("discard KS: high card that fits
nothing"); where its search of the hidden cards found better, the reason says so ("draw: over 3
deals of the cards you cannot see it came out about 4.5 points ahead of take 7H").

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

from shanghai.bots.registry import strongest_player
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
    """The strongest player's choice for ``view`` with its reason (the same view and seed give
    the same advice); ``ValueError`` when the seat has no legal action (it is not this seat's
    turn to act)."""
    if view.seat is None or not view.legal:
        raise ValueError(f"seat {view.seat} has no legal action: nothing to advise")
    action, reason = strongest_player(seed).decide(view)
    reason = " ".join(reason.split()) or str(action)
    return Advice(action, reason)
