"""The engine: the game state machine, legal actions, views and records."""

from shanghai.engine.actions import (
    Action,
    Buy,
    CallShanghai,
    Cut,
    Discard,
    DrawStock,
    GoDown,
    LayOff,
    MeldSpec,
    Pass,
    ReplaceWild,
    TakeDiscard,
    parse_action,
)
from shanghai.engine.game import CutResult, Game, Phase, RoundResult, TableMeld

__all__ = [
    "Action", "Buy", "CallShanghai", "Cut", "CutResult", "Discard", "DrawStock", "Game", "GoDown",
    "LayOff", "MeldSpec", "Pass", "Phase", "ReplaceWild", "RoundResult", "TableMeld", "TakeDiscard",
    "parse_action",
]
