"""Taking back a discard: the short undo of a mis-clicked discard that players of games against
computers ask for, allowed only while nobody has acted on it yet.

The game is replayed from its seed and its actions but the last one, so the state is exactly the
one before the discard (the record stays a plain log: the discard is simply not in it). What can be
taken back, and why no more (a decision of ours, docs/rules.md "Taking back a discard"):

* only the game's last action, and only a discard: once anybody has acted after it (a buy, a pass,
  the next player's draw) the others have answered the discard, and taking it back would undo
  their moves too;
* only by the seat that discarded;
* not a discard that ended the round (going out): the round has been scored.

Whether a table offers it, and for how long, is the interface's choice: the terminal game offers it
for a moment while the computer players wait; nothing in the engine times it.

>>> from shanghai.engine.actions import Discard
>>> from shanghai.engine.game import Game
>>> from shanghai.rules import preset
>>> game = Game.new(preset("may-i"), players=3, seed=2)
>>> seat = game.to_act()[0]
>>> game.apply(next(a for a in game.legal_actions(seat) if not isinstance(a, Discard)))  # take or draw
>>> hand = list(game.hands[seat])
>>> game.apply(next(a for a in game.legal_actions(seat) if isinstance(a, Discard)))
>>> back = take_back(game, seat)
>>> back.hands[seat] == hand, back.to_act() == (seat,), len(back.actions) == len(game.actions) - 1
(True, True, True)
"""

from __future__ import annotations

from shanghai.engine.actions import Discard
from shanghai.engine.game import Game
from shanghai.errors import ShanghaiError


class TakeBackError(ShanghaiError):
    """A discard that cannot be taken back; the message says why."""


def take_back(game: Game, seat: int) -> Game:
    """The game as it was before ``seat``'s discard, where that discard is the game's last action and
    did not end the round; ``game`` itself is not changed. ``TakeBackError`` otherwise."""
    if not game.actions:
        raise TakeBackError("nothing to take back: no action has been played")
    last = game.actions[-1]
    if not isinstance(last, Discard):
        raise TakeBackError(f"only a discard can be taken back, and only while nobody has acted on it: "
                            f"the last action is {last}")
    if last.seat != seat:
        raise TakeBackError(f"the last discard is seat {last.seat}'s, not seat {seat}'s")
    before = Game.new(game.rules, game.players, game.seed)
    for action in game.actions[:-1]:
        before.apply(action)
    if game.is_over or len(before.round_results) != len(game.round_results):
        raise TakeBackError("that discard ended the round: the round has been scored")
    return before
