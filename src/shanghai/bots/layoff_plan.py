"""Planning a turn's lay-offs once down: which order sheds the most points.

Once a player is down, what it can lay off this turn depends on the order: a wild laid on the end
of one run may open a place for a card of the hand there, or close none; a natural card that
fits a set and a run opens a place for its neighbour only on the run; a wild freed by a
replacement may bridge to cards of the hand (000: "Best if you can use the swapped-out JOKER to
set up a bridge to play other cards in your hand"). A player that lays off one card at a time by
a rule of thumb can strand points that another order would have put on the table.

:func:`best_layoff_plan` searches every order of the seat's lay-offs and wild replacements this
turn, on a copy of the game built from the seat's view (the hidden cards are sampled, but they play
no part: only the seat's hand and the table decide what it can lay off), and gives the points the
hand can be brought down to, after each first move. Small: a turn's lay-offs touch a few cards, and
positions met twice are searched once.

>>> from shanghai.engine.actions import parse_action
>>> from shanghai.engine.game import Game
>>> from shanghai.engine.view import view
>>> from shanghai.rules import preset
>>> game = Game.new(preset("isra"), 4, seed=3)
>>> best_layoff_plan(view(game, 0)) is None   # nobody is down at the start: nothing to plan
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from shanghai.engine.actions import LayOff, ReplaceWild
from shanghai.engine.determinize import InconsistentViewError, determinize
from shanghai.engine.game import Game
from shanghai.engine.view import PlayerView

# The most positions one plan searches from: far more than a turn's lay-offs need (a few dozen in
# most of isra's turns), a bound on the time of a freak hand.
MAX_POSITIONS = 400

_NEVER = 10**9


@dataclass(frozen=True, slots=True)
class LayoffPlan:
    """What each first move leaves: the fewest points the hand can be brought down to this turn
    after it (0: out). ``stop`` is what the hand holds if it lays off nothing more (None while a
    freed wild must still be played)."""

    after: dict[LayOff | ReplaceWild, int]
    stop: int | None

    @property
    def best(self) -> int:
        """The fewest points reachable this turn."""
        values = list(self.after.values())
        if self.stop is not None:
            values.append(self.stop)
        return min(values)


def _plays(game: Game, seat: int) -> list[LayOff | ReplaceWild]:
    return [a for a in game.legal_list(seat) if isinstance(a, LayOff | ReplaceWild)]


def best_layoff_plan(view: PlayerView) -> LayoffPlan | None:
    """For a seat that is down with a lay-off or wild replacement to make, the fewest points each
    of its first moves can bring the hand down to this turn; None where there is nothing to plan
    (not down, no such move, or a view no game fits)."""
    seat = view.seat
    if seat is None or not view.legal:
        return None
    if not view.down[seat] and view.pending_wild is None:
        return None
    first: list[LayOff | ReplaceWild] = [a for a in view.legal if isinstance(a, LayOff | ReplaceWild)]
    if not first:
        return None
    try:
        game = determinize(view, random.Random(0))
    except InconsistentViewError:
        return None
    rules = game.rules
    round0 = game.round_number
    memo: dict[tuple[object, ...], int] = {}
    budget = [MAX_POSITIONS]

    def held(g: Game) -> int:
        return sum(rules.points(c) for c in g.hands[seat])

    def value(g: Game) -> int:
        if g.round_number != round0 or g.is_over:
            return 0  # the hand went out
        key = (tuple(sorted(g.hands[seat])), tuple(tm.meld.cards for tm in g.table), g.pending_wild)
        hit = memo.get(key)
        if hit is not None:
            return hit
        best = held(g) if g.pending_wild is None else _NEVER
        if budget[0] <= 0:
            return best  # not searched further: what it holds now bounds it
        budget[0] -= 1
        for a in _plays(g, seat):
            h = g.copy()
            h.apply(a)
            best = min(best, value(h))
        memo[key] = best
        return best

    after: dict[LayOff | ReplaceWild, int] = {}
    for a in first:
        h = game.copy()
        h.apply(a)
        after[a] = value(h)
    return LayoffPlan(after, held(game) if game.pending_wild is None else None)
