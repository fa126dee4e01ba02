"""Computer players by name: ``make_player("greedy", seed)``, and the levels for humans.

Players: ``random``, ``greedy``, ``expert``, ``search`` (ISMCTS with expert rollouts, a fixed
:data:`SEARCH_ITERATIONS` per searched decision; ``search:N`` searches ``N`` iterations instead, so
a tournament can set budgets against each other). Levels (what a person picks at the table):

* ``easy``: the greedy player making beginner's mistakes: it never buys, and a third of its
  discards are chosen at random (it can throw a card it needed), so a beginner can beat it.
* ``medium``: the greedy player as it is.
* ``hard``: the expert player with some restraint: it guards its discards only half as much
  and makes a random discard 5% of the time.
* ``expert``: the search player with its tournament budget (:func:`strongest_player`), which
  plays the expert's choice unless its rollouts find a clearly better one. Against the expert as
  it was before points before partners it scored significantly fewer points on fresh deals
  (isra, 4 players: 9.2, 9.7 and 5.3 points a game in three runs fixed in advance, 1,024, 768
  and 3,200 games; README). Against the expert that sheds points the way the search had
  found (before its suicide buys), it was not shown different (+3.2 [-1.3, +7.6] points a game,
  23.6% wins of 2,000 games, seed 210001), nor against the expert with its suicide buys (-2.2
  [-6.8, +2.3] points a game, 24.7% wins of 2,000 games, seed 1300001), nor against the expert as
  it was before leaving SET RUN RUN to the expert (+3.0 [-1.8, +7.7], 24.3% wins of 2,000 games,
  seed 2500001; but +4.8 ± 2.3 points in SET RUN RUN, where it now plays the expert's moves), nor
  after (+1.9 [-2.6, +6.4], 25.7% wins of 2,000 games, seed 2650001). Leaving the expert's choice
  only at two standard errors instead of one (as it does now), the same games gave -5.2 [-9.3,
  -1.1] points a game, 26.5% wins (24.6-28.5%), and 4,000 fresh games -3.0 [-6.0, +0.0], 24.8%
  wins (seed 2710001): a few points fewer, wins not shown. It stays the top level:
  it is not weaker, and a person waits at most a fraction of a second for it. In manipulation
  rummy ``expert`` is that game's expert: its search player
  (:class:`~shanghai.bots.manipulation_search.ManipulationSearch`, ``search`` there) is not shown
  stronger (README).

A person picks a level, a tournament names players: where the two share the name ``expert``,
:func:`make_opponent` (the tables: web, terminal, ``shanghai play``) reads it as the level and
:func:`make_player` (tournaments, the environment) as the expert player.

Settings in the name (:func:`player_settings`), so that a tournament can set variants of one
strategy against each other: ``NAME:KEY=VALUE:KEY=VALUE``, e.g. ``expert:buy_missing=5``,
``hard:mistakes=0.2``, ``search:32:top_k=2:rollout=greedy`` (a bare number after ``search`` is its
iterations), ``easy:mistakes=0.5``; in manipulation rummy ``expert:reserve=true``. The keys are
the fields of :class:`~shanghai.bots.expert.ExpertSettings` (``expert``, ``hard``: on top of the
level's own settings), :data:`SEARCH_SETTINGS` (``search``) and
:class:`~shanghai.bots.manipulation.ManipulationExpertSettings`; values are numbers, ``true`` or
``false``, and for ``greedy_rounds`` round numbers joined by ``+`` (``5+7``). The search's time
budget is not among them: a tournament's games must not depend on the machine's speed.

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
>>> make_player("expert:buy_missing=5", 1).settings.buy_missing
5
>>> make_player("search:16:top_k=2:rollout=greedy", 1).top_k
2
>>> make_player("expert:buy_mising=5", 1)
Traceback (most recent call last):
...
ValueError: 'expert:buy_mising=5': expert has no setting 'buy_mising' (known: buy_missing, ...)
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from shanghai.bots.expert import ExpertPlayer, ExpertSettings
from shanghai.bots.greedy import GreedyPlayer
from shanghai.bots.manipulation import (
    ManipulationExpert,
    ManipulationExpertSettings,
    ManipulationGreedy,
    ManipulationRandom,
)
from shanghai.bots.manipulation_search import ROLLOUT_TURNS, SOLVES, ManipulationSearch
from shanghai.bots.player import AnyPlayer, Player
from shanghai.bots.random_player import RandomPlayer
from shanghai.bots.search import PolicyFactory, SearchPlayer, greedy_policy
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
    case-insensitive, with settings after it if any: :func:`player_settings`) seeded with
    ``seed``, for the game ``rules`` describe (a contract game when None); an unknown name or a
    bad setting raises ``ValueError`` naming it and what is known."""
    if isinstance(rules, ManipulationRules):
        return make_manipulation_player(spec, seed)
    return make_contract_player(spec, seed)


def make_contract_player(spec: str, seed: int) -> Player:
    """A player of the contract games (see :func:`make_player`), settings in the name included."""
    name, settings = player_settings(spec)
    if name == "random":
        _no_settings(spec, name, settings)
        return RandomPlayer(seed)
    if name in ("greedy", "medium"):
        _no_settings(spec, name, settings)
        return GreedyPlayer(seed)
    if name in ("expert", "hard"):
        base = HARD_SETTINGS if name == "hard" else ExpertSettings()
        return ExpertPlayer(seed, _dataclass_settings(spec, name, base, settings))
    if name == "search":
        if not settings:
            return strongest_player(seed)
        values = _settings(spec, name, SEARCH_SETTINGS, settings)
        rollout = SEARCH_ROLLOUTS[values.pop("rollout")]
        turns = values.pop("rollout_turns") or None  # 0: one turn per seat
        return SearchPlayer(seed, rollout=rollout, rollout_turns=turns, **values)
    if name == "easy":
        values = _settings(spec, name, {"mistakes": EASY_MISTAKES}, settings)
        return EasyPlayer(seed, **values)
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
    """The iterations a ``search`` spec asks for (``search:N`` or ``search:iterations=N``).

    >>> search_iterations("search"), search_iterations(" Search:32 "), search_iterations("search:top_k=2")
    (8, 32, 8)
    >>> search_iterations("search:1s")
    Traceback (most recent call last):
    ...
    ValueError: 'search:1s': the number of iterations must be a whole number from 1 to 100000
    """
    name, settings = player_settings(spec)
    if name != "search":
        raise ValueError(f"{spec!r} is not the search player")
    return int(_settings(spec, name, SEARCH_SETTINGS, settings)["iterations"])


# The search player's settings by name (``search:KEY=VALUE``) and their defaults: its iterations
# (``search:N`` for short) and the knobs of :class:`~shanghai.bots.search.SearchPlayer`.
SEARCH_SETTINGS: dict[str, Any] = {
    "iterations": SEARCH_ITERATIONS,
    "rollout": "expert",        # the rollout policy: expert or greedy
    "rollout_turns": 0,         # turns a rollout plays (0: one turn per seat)
    "top_k": 3,                 # discards searched besides the policy's own
    "exploration": 0.7,         # UCB1's exploration constant
    "tree_depth": 1,            # decisions searched below the root
    "paired": True,             # the root's candidates on the same determinizations
    "confidence": 2.0,          # standard errors needed to leave the policy's choice
    "search_buys": False,       # search buy-or-pass too
    "whole_hand": False,        # search where the contract takes the whole hand too (SET RUN RUN)
    "read": 1.0,                # below 1: hidden cards sampled by what the opponents showed (reading)
}
SEARCH_ROLLOUTS: dict[str, PolicyFactory] = {"expert": ExpertPlayer, "greedy": greedy_policy}
# Settings with a range narrower than "not negative": (lowest, highest); the iterations are
# checked on their own, with the message ``search:N`` has always given.
_SETTING_RANGES: dict[str, tuple[float, float]] = {
    "top_k": (1, 64), "tree_depth": (1, 64),
    "mistakes": (0.0, 1.0), "early_turns": (0.0, 1000.0), "rollout_turns": (0, 10_000), "read": (0.01, 1.0),
}


def player_settings(spec: str) -> tuple[str, list[tuple[str, str]]]:
    """A player's name and the settings written after it, in order (``NAME:KEY=VALUE:...``; a bare
    value after ``search`` is its iterations). Only splits: the values are checked by the player.

    >>> player_settings(" Search:32:Top_K=2 ")
    ('search', [('iterations', '32'), ('top_k', '2')])
    >>> player_settings("expert")
    ('expert', [])
    """
    name, *parts = spec.strip().lower().split(":")
    out: list[tuple[str, str]] = []
    for i, part in enumerate(parts):
        key, eq, value = part.partition("=")
        if not eq:
            if name == "search" and i == 0:
                out.append(("iterations", part.strip()))
                continue
            raise ValueError(f"{spec!r}: a setting is written KEY=VALUE, not {part.strip()!r}")
        out.append((key.strip(), value.strip()))
    return name.strip(), out


def _no_settings(spec: str, name: str, settings: Sequence[tuple[str, str]]) -> None:
    if settings:
        raise ValueError(f"{spec!r}: {name} has no settings")


def _dataclass_settings(spec: str, name: str, base: Any, settings: Sequence[tuple[str, str]]) -> Any:
    """``base`` (a settings dataclass) with ``settings`` applied."""
    if not settings:
        return base
    known = {f.name: getattr(base, f.name) for f in dataclasses.fields(base)}
    return dataclasses.replace(base, **_settings(spec, name, known, settings))


def _settings(spec: str, name: str, known: dict[str, Any],
              settings: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """``known`` (each setting's default, whose type the value takes) with ``settings`` read in;
    a setting that is unknown, given twice, of the wrong kind or out of range is an error that
    names it."""
    values = dict(known)
    seen: set[str] = set()
    for key, raw in settings:
        if key not in known:
            raise ValueError(f"{spec!r}: {name} has no setting {key!r} (known: {', '.join(known)})")
        if key in seen:
            raise ValueError(f"{spec!r}: the setting {key!r} is given twice")
        seen.add(key)
        values[key] = _value(spec, key, raw, known[key])
    return values


def _value(spec: str, key: str, raw: str, default: Any) -> Any:
    """``raw`` read as a value of ``default``'s kind, in the setting's range."""
    kind: Callable[[str], Any]
    if key == "iterations":
        if not raw.isascii() or not raw.isdigit() or not 1 <= int(raw) <= MAX_SEARCH_ITERATIONS:
            raise ValueError(f"{spec!r}: the number of iterations must be a whole number from 1 to "
                             f"{MAX_SEARCH_ITERATIONS}")
        return int(raw)
    if key == "rollout":
        if raw not in SEARCH_ROLLOUTS:
            raise ValueError(f"{spec!r}: rollout is one of {', '.join(SEARCH_ROLLOUTS)}, not {raw!r}")
        return raw
    if isinstance(default, bool):
        if raw in ("true", "yes", "1"):
            return True
        if raw in ("false", "no", "0"):
            return False
        raise ValueError(f"{spec!r}: {key} is true or false, not {raw!r}")
    if isinstance(default, tuple):
        try:
            rounds = tuple(int(x) for x in raw.split("+")) if raw else ()
        except ValueError:
            raise ValueError(f"{spec!r}: {key} is round numbers joined by '+' (e.g. 5+7), "
                             f"not {raw!r}") from None
        if any(r < 1 for r in rounds):
            raise ValueError(f"{spec!r}: {key} holds round numbers from 1 on, not {raw!r}")
        return rounds
    kind, words = (int, "a whole number") if isinstance(default, int) else (float, "a number")
    try:
        value = kind(raw)
    except ValueError:
        raise ValueError(f"{spec!r}: {key} is {words}, not {raw!r}") from None
    low, high = _SETTING_RANGES.get(key, (0, math.inf))
    if not (math.isfinite(value) and low <= value <= high):
        bound = f"from {low} to {high}" if math.isfinite(high) else f"at least {low}"
        raise ValueError(f"{spec!r}: {key} must be {bound}, not {raw!r}")
    return value


def _known_names() -> str:
    known = dict.fromkeys((*KNOWN_PLAYERS, "search:N", *KNOWN_LEVELS))
    return ", ".join(known)


# The manipulation search's settings by name (``search:KEY=VALUE``; ``search:N`` its iterations).
MANIPULATION_SEARCH_SETTINGS: dict[str, Any] = {
    "iterations": SEARCH_ITERATIONS,
    "rollout_turns": ROLLOUT_TURNS,  # turns a rollout plays (0: to the end of the hand)
    "solves": SOLVES,           # the most solver runs a decision makes (0: no cap)
    "confidence": 2.0,          # standard errors needed to leave the expert's choice
}

# Level "medium" in manipulation rummy: a player who holds a card back (measured weaker than greedy).
MANIPULATION_MEDIUM = ManipulationExpertSettings(reserve=True, flexible=False)


def make_manipulation_player(spec: str, seed: int) -> AnyPlayer:
    """A player of manipulation rummy: ``random`` (and level ``easy``), ``greedy`` (level ``hard``),
    ``expert`` (level ``expert``), ``search`` (its settings: :data:`MANIPULATION_SEARCH_SETTINGS`);
    level ``medium`` is the expert holding a card back, measured a little weaker than greedy.

    >>> make_manipulation_player("search:4:rollout_turns=12", 1).rollout_turns
    12
    """
    name, settings = player_settings(spec)
    if name == "search":
        values = _settings(spec, name, MANIPULATION_SEARCH_SETTINGS, settings)
        turns = values.pop("rollout_turns") or None  # 0: to the end of the hand
        solves = values.pop("solves") or None  # 0: no cap
        return ManipulationSearch(seed, rollout_turns=turns, solves=solves, **values)
    if name in ("random", "easy"):
        _no_settings(spec, name, settings)
        return ManipulationRandom(seed)
    if name in ("greedy", "hard"):
        _no_settings(spec, name, settings)
        return ManipulationGreedy(seed)
    if name in ("expert", "medium"):
        base = MANIPULATION_MEDIUM if name == "medium" else ManipulationExpertSettings()
        return ManipulationExpert(seed, _dataclass_settings(spec, name, base, settings))
    raise ValueError(f"unknown player {spec!r} (known: {_known_names()})")
