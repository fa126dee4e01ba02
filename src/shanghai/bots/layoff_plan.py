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

from shanghai.engine.actions import Action, LayOff, ReplaceWild
from shanghai.engine.determinize import InconsistentViewError, determinize
from shanghai.engine.game import Game
from shanghai.engine.view import PlayerView

# The most positions one plan searches from: a few dozen do in most turns; about one plan in a
# hundred would need more (a freak hand), and a plan cut short is not exact (``LayoffPlan.exact``).
MAX_POSITIONS = 400

_NEVER = 10**9


@dataclass(frozen=True, slots=True)
class LayoffPlan:
    """What each first move leaves: the fewest points the hand can be brought down to this turn
    after it (0: out). ``stop`` is what the hand holds if it lays off nothing more (None while a
    freed wild must still be played). ``exact`` is False where the search was cut short at
    ``MAX_POSITIONS``: the values are then only bounds, and a position left with a wild to play is
    counted as never reaching its end."""

    after: dict[LayOff | ReplaceWild, int]
    stop: int | None
    exact: bool = True

    @property
    def best(self) -> int:
        """The fewest points reachable this turn."""
        values = list(self.after.values())
        if self.stop is not None:
            values.append(self.stop)
        return min(values)


def _plays(game: Game, seat: int) -> list[LayOff | ReplaceWild]:
    """The seat's lay-offs and wild replacements in ``game`` now."""
    return [a for a in game.legal_list(seat) if isinstance(a, LayOff | ReplaceWild)]


def best_layoff_plan(view: PlayerView) -> LayoffPlan | None:
    """For a seat that is down with a lay-off or wild replacement to make, the fewest points each
    of its first moves can bring the hand down to this turn; None where there is nothing to plan
    (not down, no such move, or a view no game fits)."""
    return LayoffPlanner().plan(view)


class LayoffPlanner:
    """:func:`best_layoff_plan` for one player through a turn: the same plans, cheaper.

    A turn's lay-offs ask for a plan before each move. The copy of the game made for the first is
    kept, and the seat's own moves since are played on it rather than the whole history replayed
    again; it is used only where the seat's hand, the table and the moves it offers are the view's
    (else the view is replayed afresh). The positions searched are kept too where the last search
    went to its end (it never reached ``MAX_POSITIONS``), their values then exact.
    """

    def __init__(self) -> None:
        self._game: Game | None = None
        self._history: tuple[Action, ...] = ()  # the history the kept game has played
        self._memo: dict[tuple[object, ...], int] = {}
        self._memo_reused = False  # whether the kept positions go into the next search
        self.replays = 0  # how many views were replayed afresh (the rest played on the kept game)

    def _game_for(self, view: PlayerView, seat: int, first: list[LayOff | ReplaceWild]) -> Game | None:
        """A game that fits ``view``: the kept one with the seat's own moves since played on it,
        where the view's history goes on from the kept game's and the two then agree; else the view
        determinized afresh (None where no game fits it)."""
        g = self._game
        history = view.history
        seen = len(self._history)
        if g is not None and history[:seen] == self._history and g.round_number == view.round_number:
            since = history[seen:]
            if all(isinstance(a, LayOff | ReplaceWild) and a.seat == seat for a in since):
                g = g.copy()
                try:
                    for a in since:
                        g.apply(a)
                except ValueError:
                    g = None  # not a move of the kept game: the view is replayed afresh
                if g is not None and g.phase == view.phase and g.turn == view.turn \
                        and g.pending_wild == view.pending_wild and sorted(g.hands[seat]) == sorted(view.hand) \
                        and [tm.meld.cards for tm in g.table] == [mv.cards for mv in view.table] \
                        and set(_plays(g, seat)) == set(first):
                    self._game, self._history = g, history
                    return g
        self._memo, self._memo_reused = {}, False
        self.replays += 1
        try:
            g = determinize(view, random.Random(0))
        except InconsistentViewError:
            self._game = None
            return None
        self._game, self._history = g, history
        return g

    def plan(self, view: PlayerView) -> LayoffPlan | None:
        """As :func:`best_layoff_plan`."""
        seat = view.seat
        if seat is None or not view.legal:
            return None
        if not view.down[seat] and view.pending_wild is None:
            return None
        first: list[LayOff | ReplaceWild] = [a for a in view.legal if isinstance(a, LayOff | ReplaceWild)]
        if not first:
            return None
        game = self._game_for(view, seat, first)
        if game is None:
            return None
        plan = self._search(game, seat, first)
        if not plan.exact and self._memo_reused:
            self._memo = {}  # a search cut short from kept positions: as a fresh one would be, afresh
            plan = self._search(game, seat, first)
        self._memo_reused = plan.exact
        if not plan.exact:
            self._memo = {}  # values cut short: the next plan searches afresh
        return plan

    def _search(self, game: Game, seat: int, first: list[LayOff | ReplaceWild]) -> LayoffPlan:
        """The plan from ``game`` (not ``exact`` where the search was cut short at ``MAX_POSITIONS``)."""
        rules = game.rules
        round0 = game.round_number
        memo = self._memo
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
        return LayoffPlan(after, held(game) if game.pending_wild is None else None, exact=budget[0] > 0)
