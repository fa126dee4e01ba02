"""Every game the engine plays, behind one door: the contract presets and manipulation rummy.

Interfaces that play any preset make games, views and actions here and branch on the type only
where the games differ (what the table looks like, what a turn is).

>>> from shanghai.rules import game_rules
>>> type(new_game(game_rules("manipulation"), 4, seed=1)).__name__
'ManipulationGame'
>>> type(new_game(game_rules("isra"), 4, seed=1)).__name__
'Game'
>>> parse_game_action(game_rules("manipulation"), "2 draw")
DrawStock(seat=2)
"""

from __future__ import annotations

from shanghai.engine.actions import Action, parse_action
from shanghai.engine.game import Game
from shanghai.engine.manipulation import (
    ManipulationAction,
    ManipulationGame,
    ManipulationView,
    manipulation_view,
    parse_manipulation_action,
)
from shanghai.engine.view import PlayerView, view
from shanghai.rules import AnyRules, ManipulationRules

AnyGame = Game | ManipulationGame
AnyView = PlayerView | ManipulationView
AnyAction = Action | ManipulationAction


def new_game(rules: AnyRules, players: int, seed: int) -> AnyGame:
    """A new game of ``rules`` for ``players`` seats, dealt from ``seed``."""
    if isinstance(rules, ManipulationRules):
        return ManipulationGame.new(rules, players, seed)
    return Game.new(rules, players, seed)


def view_of(game: AnyGame, seat: int | None) -> AnyView:
    """The view of ``seat`` (None: a spectator) in either game."""
    if isinstance(game, ManipulationGame):
        return manipulation_view(game, seat)
    return view(game, seat)


def parse_game_action(rules: AnyRules, text: str) -> AnyAction:
    """An action of the game ``rules`` describe, from its text form."""
    if isinstance(rules, ManipulationRules):
        return parse_manipulation_action(text)
    return parse_action(text)


def apply_action(game: AnyGame, action: AnyAction) -> None:
    """``game.apply(action)``, with an action of the other game refused as illegal."""
    from shanghai.errors import IllegalActionError

    if isinstance(game, ManipulationGame):
        if not isinstance(action, ManipulationAction):
            raise IllegalActionError(f"{type(action).__name__} is not an action of manipulation rummy")
        game.apply(action)
        return
    if not isinstance(action, Action):
        raise IllegalActionError(f"{type(action).__name__} is not an action of a contract game")
    game.apply(action)
