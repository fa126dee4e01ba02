"""Computer players by name: ``make_player("greedy", seed)``, and the levels for humans.

Players: ``random``, ``greedy``, ``expert``, ``search`` (ISMCTS with expert rollouts, a fixed
:data:`SEARCH_ITERATIONS` per searched decision; ``search:N`` searches ``N`` iterations instead, so
a tournament can set budgets against each other). Levels (what a person picks at the table):

* ``easy``: the greedy player making beginner's mistakes: it never buys, and a third of its
  discards are chosen at random (it can throw a card it needed), so a beginner can beat it.
* ``medium``: the greedy player as it is.
* ``hard``: the expert player with some restraint: it guards its discards only half as much
  and makes a random discard 5% of the time.
* ``expert``: the strongest player we have, the search player with its tournament budget
  (:func:`strongest_player`). Against three expert players it scored significantly fewer points
  on fresh deals (isra, 4 players: 9.2, 9.7 and 5.3 points a game in three runs fixed in
  advance, 1,024, 768 and 3,200 games; README), though its win rate is not shown above a quarter
  (25.5% of the 3,200, Wilson 95%: 24.0-27.0%). In manipulation rummy,
  which the search player does not play, ``expert`` is that game's expert.

A person picks a level, a tournament names players: where the two share the name ``expert``,
:func:`make_opponent` (the tables: web, terminal, ``shanghai play``) reads it as the level and
:func:`make_player` (tournaments, the environment) as the expert player.

>>> type(make_player("random", 1)).__name__
'RandomPlayer'
>>> type(make_player("expert", 1)).__name__
'ExpertPlayer'
>>> type(make_opponent("expert", 1)).__name__, type(make_opponent("hard", 1)).__name__
('SearchPlayer', 'ExpertPlayer')
>>> from shanghai.rules import MANIPULATION
>>> type(make_player("expert", 1, MANIPULATION)).__name__
'ManipulationExpert'
>>> make_player("search:64", 1).iterations
64
>>> make_player("nobody", 1)
Traceback (most recent call last):
...
ValueError: unknown player 'nobody' (known: random, greedy, expert, search, search:N, easy, medium, hard)
>>> make_player("search:0", 1)
Traceback (most recent call last):
...
ValueError: 'search:0': the number of iterations must be a whole number from 1 to 100000
"""

from __future__ import annotations

import random

from shanghai.bots.expert import ExpertPlayer, ExpertSettings
from shanghai.bots.greedy import GreedyPlayer
from shanghai.bots.manipulation import (
    ManipulationExpert,
    ManipulationExpertSettings,
    ManipulationGreedy,
    ManipulationRandom,
)
from shanghai.bots.player import AnyPlayer, Player
from shanghai.bots.random_player import RandomPlayer
from shanghai.bots.search import SearchPlayer
from shanghai.engine.actions import Action, Buy, Discard, Pass
from shanghai.engine.view import PlayerView
from shanghai.rules import AnyRules, ManipulationRules

KNOWN_PLAYERS: tuple[str, ...] = ("random", "greedy", "expert", "search")
KNOWN_LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert")

# The expert's settings at level "hard".
HARD_SETTINGS = ExpertSettings(feed_weight=0.5, mistakes=0.05)
# The search player's budget by name: a fixed number of iterations, so a seed reproduces its games.
SEARCH_ITERATIONS = 8
# The most iterations ``search:N`` takes (a decision of 100,000 iterations already takes minutes).
MAX_SEARCH_ITERATIONS = 100_000
# The beginner's mistakes at level "easy".
EASY_MISTAKES = 1 / 3


class EasyPlayer:
    """Level ``easy``: greedy, but it never buys and discards at random a third of the time."""

    name = "easy"

    def __init__(self, seed: int | None = None, mistakes: float = EASY_MISTAKES) -> None:
        self.base = GreedyPlayer(seed)
        self.rng = random.Random(None if seed is None else seed ^ 0x5EA5)
        self.mistakes = mistakes

    def choose(self, view: PlayerView) -> Action:
        action = self.base.choose(view)
        if isinstance(action, Buy):
            passing = next((a for a in view.legal if isinstance(a, Pass)), None)
            if passing is not None:
                return passing
        if isinstance(action, Discard) and self.rng.random() < self.mistakes:
            discards = [a for a in view.legal if isinstance(a, Discard) and not a.shanghai]
            if discards:
                return self.rng.choice(discards)
        return action


def make_player(spec: str, seed: int, rules: AnyRules | None = None) -> AnyPlayer:
    """A new player of kind ``spec`` (one of ``KNOWN_PLAYERS`` or ``KNOWN_LEVELS``,
    case-insensitive) seeded with ``seed``, for the game ``rules`` describe (a contract game when
    None); an unknown name raises ``ValueError`` naming it and the known names."""
    name = spec.strip().lower()
    if isinstance(rules, ManipulationRules):
        return make_manipulation_player(name, seed)
    return make_contract_player(spec, seed)


def make_contract_player(spec: str, seed: int) -> Player:
    """A player of the contract games (see :func:`make_player`)."""
    name = spec.strip().lower()
    if name == "random":
        return RandomPlayer(seed)
    if name in ("greedy", "medium"):
        return GreedyPlayer(seed)
    if name == "expert":
        return ExpertPlayer(seed)
    if name == "search":
        return strongest_player(seed)
    if name.startswith("search:"):
        return SearchPlayer(seed, iterations=search_iterations(spec), rollout=ExpertPlayer)
    if name == "hard":
        return ExpertPlayer(seed, HARD_SETTINGS)
    if name == "easy":
        return EasyPlayer(seed)
    raise ValueError(f"unknown player {spec!r} (known: {_known_names()})")


def strongest_player(seed: int) -> SearchPlayer:
    """The strongest player we have, for level ``expert`` and the coach: the search player with
    expert rollouts and :data:`SEARCH_ITERATIONS` iterations a searched decision."""
    return SearchPlayer(seed, iterations=SEARCH_ITERATIONS, rollout=ExpertPlayer)


def make_opponent(level: str, seed: int, rules: AnyRules | None = None) -> AnyPlayer:
    """A computer player a person chose for a table: one of ``KNOWN_LEVELS`` (``expert`` is
    :func:`strongest_player` in the contract games) or any name :func:`make_player` knows."""
    if isinstance(rules, ManipulationRules):
        return make_manipulation_player(level.strip().lower(), seed)
    return make_contract_opponent(level, seed)


def make_contract_opponent(level: str, seed: int) -> Player:
    """A computer player a person chose for a contract game's table (see :func:`make_opponent`)."""
    if level.strip().lower() == "expert":
        return strongest_player(seed)
    return make_contract_player(level, seed)


def search_iterations(spec: str) -> int:
    """The iterations a ``search`` or ``search:N`` spec asks for.

    >>> search_iterations("search"), search_iterations(" Search:32 ")
    (8, 32)
    >>> search_iterations("search:1s")
    Traceback (most recent call last):
    ...
    ValueError: 'search:1s': the number of iterations must be a whole number from 1 to 100000
    """
    name = spec.strip().lower()
    if name == "search":
        return SEARCH_ITERATIONS
    count = name.removeprefix("search:").strip()
    if not count.isascii() or not count.isdigit() or not 1 <= int(count) <= MAX_SEARCH_ITERATIONS:
        raise ValueError(f"{spec!r}: the number of iterations must be a whole number from 1 to "
                         f"{MAX_SEARCH_ITERATIONS}")
    return int(count)


def _known_names() -> str:
    known = dict.fromkeys((*KNOWN_PLAYERS, "search:N", *KNOWN_LEVELS))
    return ", ".join(known)


# Level "medium" in manipulation rummy: a player who holds a card back (measured weaker than greedy).
MANIPULATION_MEDIUM = ManipulationExpertSettings(reserve=True, flexible=False)


def make_manipulation_player(spec: str, seed: int) -> AnyPlayer:
    """A player of manipulation rummy: ``random`` (and level ``easy``), ``greedy`` (level ``hard``),
    ``expert`` (level ``expert``); level ``medium`` is the expert holding a card back, measured a
    little weaker than greedy. The search player does not play this game yet: asking for it is an
    error that says so."""
    name = spec.strip().lower()
    if name in ("random", "easy"):
        return ManipulationRandom(seed)
    if name in ("greedy", "hard"):
        return ManipulationGreedy(seed)
    if name == "expert":
        return ManipulationExpert(seed)
    if name == "medium":
        return ManipulationExpert(seed, MANIPULATION_MEDIUM)
    if name == "search" or name.startswith("search:"):
        raise ValueError("the search player does not play manipulation rummy yet (use random, greedy "
                         "or expert)")
    raise ValueError(f"unknown player {spec!r} (known: {_known_names()})")
