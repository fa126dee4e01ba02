"""Computer players of manipulation rummy (004, first part). They see their view only.

* ``random``: any of the engine's offers (the largest play, or one card placed on its own).
* ``greedy``: the largest play every turn (most cards, then the highest ranks).
* ``expert``: goes out whenever it can; otherwise places as many cards as the largest play, choosing
  among the plays of that size the one whose cards left fit the table best (most of them placeable
  on the table it leaves, then most pairs and neighbours among them).

A *reserve* (holding back one placeable card so as not to have to draw next turn) is a setting,
off by default: measured, it costs about one point a game against greedy players (two runs of 40
games, +0.98 and +0.76 points a game, neither interval excluding 0); the ``medium`` level uses it.

Draws and passes are forced by the rules; every player returns one of ``view.legal`` or a play
the engine accepts.

>>> from shanghai.bots.match import play_game
>>> from shanghai.rules import MANIPULATION
>>> game = play_game(MANIPULATION, 3, seed=2, seats=[ManipulationGreedy(s) for s in range(3)])
>>> game.is_over
True
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from shanghai.cards import Card
from shanghai.engine.actions import DrawStock, Pass
from shanghai.engine.manipulation import (
    ManipulationAction,
    ManipulationView,
    PlayToTable,
    make_play,
)
from shanghai.table_solver import TablePlay, best_play, can_place


def _forced(view: ManipulationView) -> ManipulationAction | None:
    legal = view.legal
    if not legal:
        raise ValueError(f"seat {view.seat} has no legal action")
    if len(legal) == 1 and isinstance(legal[0], DrawStock | Pass):
        return legal[0]
    return None


class ManipulationRandom:
    """Uniform over the engine's offers."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: ManipulationView) -> ManipulationAction:
        if not view.legal:
            raise ValueError(f"seat {view.seat} has no legal action")
        return self.rng.choice(view.legal)


class ManipulationGreedy:
    """The largest play (the engine's first offer), every turn."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: ManipulationView) -> ManipulationAction:
        forced = _forced(view)
        return forced if forced is not None else view.legal[0]


@dataclass(frozen=True, slots=True)
class ManipulationExpertSettings:
    """``flexible``: among the largest plays, keep the cards that fit best; ``reserve``: hold back one
    placeable card when the largest play leaves none; ``danger``: stop holding back when an opponent
    holds this many cards or fewer."""

    reserve: bool = False
    danger: int = 3
    flexible: bool = True


class ManipulationExpert:
    """Goes out when it can; otherwise plays the most it can, keeping the cards that fit best."""

    name = "expert"

    def __init__(self, seed: int | None = None,
                 settings: ManipulationExpertSettings = ManipulationExpertSettings()) -> None:
        self.rng = random.Random(seed)
        self.settings = settings

    def choose(self, view: ManipulationView) -> ManipulationAction:
        forced = _forced(view)
        if forced is not None:
            return forced
        best = view.legal[0]
        assert isinstance(best, PlayToTable)
        if len(best.placed) == len(view.hand):
            return best
        if self.settings.flexible:
            best = self._most_flexible(view, best)
        if not self.settings.reserve:
            return best
        seat = view.seat if view.seat is not None else view.turn
        opponents = [n for s, n in enumerate(view.hand_counts) if s != seat]
        if min(opponents, default=99) <= self.settings.danger:
            return best
        left = _minus(view.hand, best.placed)
        if can_place(best.table, left):
            return best  # the largest play already leaves a reserve
        held = self._hold_back(view, best)
        return held if held is not None else best

    def _most_flexible(self, view: ManipulationView, best: PlayToTable) -> PlayToTable:
        """Among the plays placing as many cards as the largest, the one whose cards left are the
        easiest to place later: most of them fit the table it leaves, then most pairs and
        neighbours among them (the start of a set or run)."""
        seat = view.seat if view.seat is not None else view.turn
        n = len(best.placed)
        candidates = [best]
        for card in sorted(set(best.placed)):
            rest = list(view.hand)
            rest.remove(card)
            play = best_play(view.table, rest)
            if play is not None and len(play.placed) == n:
                candidates.append(make_play(seat, play))
        if len(candidates) == 1:
            return best
        return max(candidates, key=lambda p: _flexibility(p, view.hand))

    def _hold_back(self, view: ManipulationView, best: PlayToTable) -> PlayToTable | None:
        """The largest play without one card that can still be placed after it: that card is the
        reserve. Among several, keep the lowest-ranked card (it fits more runs)."""
        options: list[tuple[int, int, TablePlay]] = []
        for card in sorted(set(best.placed)):
            rest = list(view.hand)
            rest.remove(card)
            play = best_play(view.table, rest)
            if play is None or len(play.placed) < min_placed(view):
                continue
            # The reserve must fit the table this play leaves.
            if not can_place(play.table, [card]):
                continue
            options.append((-len(play.placed), card & 15, play))
        if not options:
            return None
        options.sort(key=lambda o: (o[0], o[1]))
        seat = view.seat if view.seat is not None else view.turn
        return make_play(seat, options[0][2])


def min_placed(view: ManipulationView) -> int:
    """The fewest cards a play may place now: 2 under ``meld-two`` when the largest play places two or
    more (the engine's ``ManipulationGame.min_placed``, from the seat's view), else 1."""
    largest = view.legal[0] if view.legal else None
    if view.rules.must_meld == "two-cards" and isinstance(largest, PlayToTable) and len(largest.placed) >= 2:
        return 2
    return 1


def _flexibility(play: PlayToTable, hand: tuple[Card, ...]) -> tuple[int, int]:
    left = _minus(hand, play.placed)
    fits = sum(1 for c in left if can_place(play.table, [c]))
    links = sum(1 for i, a in enumerate(left) for b in left[i + 1:]
                if (a & 15 == b & 15 and a != b) or (a >> 4 == b >> 4 and 0 < abs((a & 15) - (b & 15)) <= 2))
    return fits, links


def _minus(hand: tuple[Card, ...], placed: tuple[Card, ...]) -> list[Card]:
    left = Counter(hand)
    left.subtract(Counter(placed))
    return list(left.elements())
