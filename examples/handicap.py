"""How many points a game is a win rate worth? Win rates with a handicap, from a tournament's games.

Reads the file that ``shanghai tournament --games-out FILE`` writes (one game a line) and prints,
for each number of POINTS, the win rate a player would have had with POINTS taken off each of its
game totals (lowest total wins, ties share), the others' totals unchanged. On games between equal
players this says how big a lead in points a game a stronger player needs to reach a given win rate::

    shanghai tournament --rules isra --seats greedy,greedy,greedy,greedy --games 2000 --seed 7 \\
        --workers 2 --games-out games.jsonl
    python examples/handicap.py games.jsonl 0 10 20 40 60 80

``--player NAME`` counts only the seats of that player (default: every seat). The rates are
estimates with no interval: the rotations of one deal share its cards, so seat-games are not
independent.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from shanghai.cli.common import print_out
from shanghai.stats import handicap_win_share
from shanghai.tournament.report import read_game_records


def handicap_table(lines: list[str], points: list[float], player: str | None,
                   name: str = "file") -> list[tuple[float, int, float]]:
    """(points, seat-games, win rate) for each handicap in ``points``; ``name`` for errors."""
    games: list[tuple[list[int], list[int]]] = []  # (totals, seats counted)
    for record in read_game_records(lines, name):
        seats = sorted(record["seats"], key=lambda s: s["seat"])
        totals = [int(s["score"]) for s in seats]
        games.append((totals, [i for i, s in enumerate(seats) if player is None or s["player"] == player]))
    n = sum(len(counted) for _, counted in games)
    if n == 0:
        who = f"player {player!r}" if player else "any seat"
        raise ValueError(f"no games of {who} in the file")
    return [(p, n, sum(handicap_win_share(t, i, p) for t, counted in games for i in counted) / n)
            for p in points]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("games", type=Path, help="a file written by shanghai tournament --games-out")
    parser.add_argument("points", type=float, nargs="+", help="points taken off the player's totals")
    parser.add_argument("--player", help="count only this player's seats (default: every seat)")
    args = parser.parse_args(argv)
    try:
        lines = args.games.read_text(encoding="utf-8").splitlines()
        table = handicap_table(lines, args.points, args.player, str(args.games))
    except (OSError, ValueError) as exc:
        print(f"handicap: {exc}", file=sys.stderr)
        return 2
    rows = [f"{'handicap':>9} {'seat-games':>11} {'win rate':>9}"]
    rows += [f"{points:>9g} {n:>11} {rate:>9.3f}" for points, n, rate in table]
    print_out("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
