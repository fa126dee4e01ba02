"""Playing a duplicate tournament: deals, rotations, seats, and a local process pool.

Entrant ``i`` (the ``i``-th name in ``--seats``) sits at seat ``(i + r) % N`` in rotation ``r``;
every deal ``d`` uses game seed ``S + d`` in all ``N`` rotations, and the player in seat ``s`` of
deal ``d`` is seeded with ``tournament_seat_seed(S, d, s)``.

>>> from shanghai.rules import preset
>>> games = play_deal(DealTask(preset("isra-junior"), ("random", "random", "random"), seed=1, deal=0))
>>> len(games), [g.rotation for g in games], sum(s.win_share for g in games for s in g.seats)
(3, [0, 1, 2], 3.0)
"""

from __future__ import annotations

import hashlib
import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from shanghai.bots.match import DEFAULT_MAX_ACTIONS, GameStuckError, play_game
from shanghai.bots.registry import make_player
from shanghai.engine.manipulation import ManipulationGame
from shanghai.rules import AnyRules

# A tournament game that got stuck or did not end (an engine or player bug).
TournamentGameError = GameStuckError


def tournament_seat_seed(seed: int, deal: int, seat: int) -> int:
    """The seed of the player in seat ``seat`` of deal ``deal`` of a tournament started with ``seed``.

    >>> tournament_seat_seed(1, 0, 0) != tournament_seat_seed(1, 0, 1) != tournament_seat_seed(1, 1, 0)
    True
    """
    digest = hashlib.sha256(f"shanghai-tournament:{seed}:{deal}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def deal_seed(seed: int, deal: int) -> int:
    """The game seed of deal ``deal``: ``seed + deal``."""
    return seed + deal


def entrant_at(seat: int, rotation: int, players: int) -> int:
    """The entrant (its index in the tournament's ``--seats``) sitting at ``seat`` in rotation
    ``rotation`` of a deal: rotation r moves every entrant r seats on, so over the ``players``
    rotations each entrant plays the deal from every seat.

    >>> [entrant_at(seat, 1, 4) for seat in range(4)]
    [3, 0, 1, 2]
    """
    return (seat - rotation) % players


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """One seat's game: who sat there and how it went (scores: lower is better)."""

    entrant: int
    spec: str
    seat: int
    score: int
    round_points: tuple[int, ...]
    went_down: tuple[bool, ...]
    buys: tuple[int, ...]
    slams: int
    win_share: float


@dataclass(frozen=True, slots=True)
class GameOutcome:
    deal: int
    rotation: int
    seed: int
    seats: tuple[SeatOutcome, ...]


@dataclass(frozen=True, slots=True)
class DealTask:
    """One deal to play in every rotation (picklable, for worker processes)."""

    rules: AnyRules
    specs: tuple[str, ...]
    seed: int
    deal: int
    max_actions: int = DEFAULT_MAX_ACTIONS


def play_deal(task: DealTask) -> list[GameOutcome]:
    """Play deal ``task.deal`` once per rotation; outcomes in rotation order."""
    n = len(task.specs)
    gseed = deal_seed(task.seed, task.deal)
    outcomes: list[GameOutcome] = []
    for rotation in range(n):
        # seat -> entrant index
        at_seat = [entrant_at(seat, rotation, n) for seat in range(n)]
        players = [make_player(task.specs[at_seat[seat]], tournament_seat_seed(task.seed, task.deal, seat),
                               task.rules)
                   for seat in range(n)]
        game = play_game(task.rules, n, gseed, seats=players, max_actions=task.max_actions)
        winners = game.winners()
        seats = []
        if isinstance(game, ManipulationGame):
            # No contract, buys or slams in manipulation rummy: "went_down" records going out.
            for seat in range(n):
                hands = game.hand_results
                seats.append(SeatOutcome(
                    entrant=at_seat[seat], spec=task.specs[at_seat[seat]], seat=seat, score=game.totals[seat],
                    round_points=tuple(h.points[seat] for h in hands),
                    went_down=tuple(h.went_out == seat for h in hands),
                    buys=tuple(0 for _ in hands), slams=0,
                    win_share=1.0 / len(winners) if seat in winners else 0.0))
            outcomes.append(GameOutcome(task.deal, rotation, gseed, tuple(seats)))
            continue
        for seat in range(n):
            results = game.round_results
            seats.append(SeatOutcome(
                entrant=at_seat[seat],
                spec=task.specs[at_seat[seat]],
                seat=seat,
                score=game.totals[seat],
                round_points=tuple(r.points[seat] for r in results),
                went_down=tuple(r.down[seat] for r in results),
                buys=tuple(r.buys[seat] if r.buys else 0 for r in results),
                slams=sum(1 for r in results if r.slam is not None and r.went_out == seat),
                win_share=1.0 / len(winners) if seat in winners else 0.0,
            ))
        outcomes.append(GameOutcome(task.deal, rotation, gseed, tuple(seats)))
    return outcomes


@dataclass
class TournamentResult:
    rules: AnyRules
    specs: tuple[str, ...]
    seed: int
    deals: int
    games_requested: int
    outcomes: list[GameOutcome] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.outcomes)


BACKENDS = ("local", "ray")


def _deal_results(tasks: list[DealTask], workers: int | None, backend: str,
                  ray_address: str | None) -> Iterator[list[GameOutcome]]:
    if backend == "ray":
        from shanghai.tournament.ray_backend import ray_deal_results

        yield from ray_deal_results(tasks, cpus=workers, address=ray_address)
        return
    if backend != "local":
        raise ValueError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    if workers is None or workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield play_deal(task)
        return
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(min(workers, len(tasks))) as pool:
        # imap keeps deal order, so the report does not depend on the number of workers.
        yield from pool.imap(play_deal, tasks, chunksize=1)


def run_tournament(rules: AnyRules, specs: Sequence[str], games: int, seed: int, *, workers: int | None = 1,
                   backend: str = "local", ray_address: str | None = None,
                   progress: Callable[[int, int], None] | None = None,
                   max_actions: int = DEFAULT_MAX_ACTIONS) -> TournamentResult:
    """Play at least ``games`` games: ``ceil(games / N)`` deals of ``N`` rotations each
    (``N = len(specs)``). ``progress(done_deals, deals)`` is called after each deal.

    ``backend`` is ``"local"`` (``workers`` processes; None or 1 plays in this process) or
    ``"ray"`` (a Ray cluster at ``ray_address``, or a local Ray with ``workers`` CPUs, all of the
    machine's when None). The results do not depend on the backend or the number of workers."""
    n = len(specs)
    if n < 1:
        raise ValueError("a tournament needs at least one seat")
    if games < 1:
        raise ValueError(f"a tournament needs at least one game, not {games}")
    for spec in specs:
        make_player(spec, 0, rules)  # an unknown name: ValueError before any game is played
    deals = -(-games // n)
    tasks = [DealTask(rules, tuple(specs), seed, d, max_actions) for d in range(deals)]
    result = TournamentResult(rules, tuple(specs), seed, deals, games)
    for done, outcomes in enumerate(_deal_results(tasks, workers, backend, ray_address), start=1):
        result.outcomes.extend(outcomes)
        if progress is not None:
            progress(done, deals)
    return result
