"""Duplicate-format tournaments between computer players, with honest statistics.

Each deal (game seed ``S + d``) is played once per rotation of the entrants through the seats, so
every entrant meets the same cards from every seat; results are aggregated in deal order, so the
same seed gives the same report whatever the number of worker processes.
"""

from shanghai.tournament.runner import (
    DealTask,
    GameOutcome,
    SeatOutcome,
    TournamentResult,
    play_deal,
    run_tournament,
    tournament_seat_seed,
)

__all__ = [
    "DealTask", "GameOutcome", "SeatOutcome", "TournamentResult", "play_deal", "run_tournament",
    "tournament_seat_seed",
]
