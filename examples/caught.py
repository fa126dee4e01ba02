"""Who gets caught? Rounds not gone down, and what they cost in wins, from a tournament's games.

Reads the file that ``shanghai tournament --games-out FILE`` writes (one game a line) and prints,
for each player, round by round, the share of its rounds in which it never went down ("caught",
holding its whole hand when someone went out) and its mean points that round; then its win rate
by how many of the rounds named by ``--rounds`` (default: the last three, where most points are)
it was caught in::

    shanghai tournament --rules isra --seats expert,greedy,greedy,greedy --games 4000 \\
        --seed 5600001 --workers 2 --games-out games.jsonl
    python examples/caught.py games.jsonl --rounds 5-7

In isra a seat caught in none of rounds 5-7 wins about half of its games, one caught once an
eighth to a fifth, twice about 2%, whoever plays it (README): being caught less often is worth
far more wins than holding fewer points when caught. The rates are estimates with no interval:
the rotations of one deal share its cards.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shanghai.cli.common import CliError, print_out
from shanghai.cli.tournament import parse_rounds
from shanghai.tournament.report import games_played_by, read_game_records


@dataclass
class PlayerCatches:
    """One player's counts over the seat-games of a file."""

    games: int = 0
    caught: list[int] = field(default_factory=list)    # per round: seat-games not gone down
    points: list[float] = field(default_factory=list)  # per round: points summed over seat-games
    by_caught: dict[int, list[float]] = field(default_factory=dict)  # caught in k rounds: [games, wins]


def count_catches(records: list[dict[str, Any]], rounds: list[int],
                  name: str = "file") -> dict[str, PlayerCatches]:
    """Each player's :class:`PlayerCatches`; ``rounds`` (numbered from 1) are those counted for the
    win rate by times caught. ``ValueError`` names ``name`` when the games lack what is needed.

    >>> game = {"deal": 0, "rotation": 0, "seed": 1, "seats": [
    ...     {"seat": 0, "entrant": 0, "player": "a", "score": 0, "round_points": [0, 0],
    ...      "went_down": [True, True], "win_share": 1.0},
    ...     {"seat": 1, "entrant": 1, "player": "b", "score": 90, "round_points": [5, 85],
    ...      "went_down": [True, False], "win_share": 0.0}]}
    >>> stats = count_catches([game], [2])
    >>> stats["b"].caught, stats["b"].points, stats["b"].by_caught
    ([0, 1], [5.0, 85.0], {1: [1, 0.0]})
    """
    stats: dict[str, PlayerCatches] = defaultdict(PlayerCatches)
    for record in records:
        for seat in record["seats"]:
            went_down = seat.get("went_down")
            count = len(seat["round_points"])
            if not isinstance(went_down, list) or len(went_down) != count:
                raise ValueError(f"{name}: deal {record['deal']} rotation {record['rotation']} does not say "
                                 "which rounds each seat went down in (a file from an older version?)")
            player = stats[str(seat["player"])]
            if not player.caught:  # its first game: later ones must have as many rounds
                if rounds and max(rounds) > count:
                    raise ValueError(f"{name}: its games have {count} rounds, not {max(rounds)}")
                player.caught, player.points = [0] * count, [0.0] * count
            elif len(player.caught) != count:
                raise ValueError(f"{name}: games with {len(player.caught)} and {count} rounds")
            player.games += 1
            for r in range(count):
                player.caught[r] += not went_down[r]
                player.points[r] += float(seat["round_points"][r])
            times = sum(1 for r in rounds if not went_down[r - 1])
            row = player.by_caught.setdefault(times, [0, 0.0])
            row[0] += 1
            row[1] += float(seat["win_share"])
    return dict(stats)


def report(stats: dict[str, PlayerCatches], rounds: list[int], numbers: list[int] | None = None) -> str:
    """The tables for people; ``numbers`` are the rules' numbers of the rounds the games played
    (``--rounds 6-7`` in the tournament: 6 and 7), the rounds' places in the games otherwise."""
    lines: list[str] = []
    label = (lambda r: numbers[r - 1]) if numbers else (lambda r: r)
    named = ",".join(str(label(r)) for r in rounds)
    for player, s in sorted(stats.items()):
        lines.append(f"{player}: {s.games} seat-games")
        lines.append(f"  {'round':>5} {'caught':>7} {'points':>7}")
        for r, (caught, points) in enumerate(zip(s.caught, s.points, strict=True), start=1):
            lines.append(f"  {label(r):>5} {caught / s.games:>7.3f} {points / s.games:>7.1f}")
        if rounds:
            lines.append(f"  {'caught in rounds ' + named:>24} {'seat-games':>11} {'win rate':>9}")
            for times in sorted(s.by_caught):
                games, wins = s.by_caught[times]
                lines.append(f"  {times:>24} {games:>11} {wins / games:>9.3f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("games", type=Path, help="a file written by shanghai tournament --games-out")
    parser.add_argument("--rounds", help="the rounds whose catches the win rates are counted by, "
                        "like 5-7 (default: the last three)")
    args = parser.parse_args(argv)
    try:
        records = read_game_records(args.games.read_text(encoding="utf-8").splitlines(), str(args.games))
        if not records:
            raise ValueError(f"{args.games}: no games in the file")
        count = len(records[0]["seats"][0]["round_points"])
        played = games_played_by(records, str(args.games))
        numbers = played["rounds"] if played else None  # the rules' numbers of the rounds played
        if args.rounds and numbers:
            wanted = parse_rounds(args.rounds, max(numbers))
            missing = [n for n in wanted if n not in numbers]
            if missing:
                raise ValueError(f"{args.games}: its games played rounds {','.join(map(str, numbers))}, "
                                 f"not {missing[0]}")
            rounds = [numbers.index(n) + 1 for n in wanted]
        else:
            rounds = parse_rounds(args.rounds, count) if args.rounds else list(range(max(1, count - 2), count + 1))
        text = report(count_catches(records, rounds, str(args.games)), rounds, numbers)
    except (OSError, ValueError, CliError) as exc:
        print(f"caught: {exc}", file=sys.stderr)
        return 2
    print_out(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
