"""Two tournaments on the same deals, compared deal by deal: an A/B test of one player's variant.

Play the same seats twice with one entrant changed, the same ``--seed`` and ``--games``, each run
with ``--games-out``; the games then differ only where the change made a decision differ::

    shanghai tournament --rules isra --seats expert,greedy,greedy,greedy --games 4000 \\
        --seed 1500001 --workers 2 --games-out a.jsonl
    shanghai tournament --rules isra --seats expert:suicide_cards=0,greedy,greedy,greedy \\
        --games 4000 --seed 1500001 --workers 2 --games-out b.jsonl
    python examples/compare_runs.py a.jsonl b.jsonl

It prints, for one entrant (``--entrant``, its index in ``--seats``, default 0), the mean over the
deals of A minus B with a 95% t interval: its game score, its lead (its score minus the other
entrants' mean: negative is better, as for the score), its share of the win, and per round its
points and its lead. A deal (all its rotations) is the unit, since the rotations of a deal share
its cards. Both files must hold the same deals, rotations and game seeds.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from shanghai.cli.common import print_out
from shanghai.stats import PairedDifference, paired_difference
from shanghai.tournament.report import games_played_by, read_game_records

Game = dict[str, object]


def load_games(lines: list[str], name: str = "file") -> dict[tuple[int, int], Game]:
    """The games of a ``--games-out`` file by (deal, rotation)."""
    games = {(int(g["deal"]), int(g["rotation"])): g for g in read_game_records(lines, name)}
    if not games:
        raise ValueError(f"{name}: no games")
    return games


def _round_numbers(record: Game) -> list[int]:
    """The rules' numbers of the rounds a game played (``--rounds 6-7``: 6 and 7), as its file says."""
    rounds = record.get("rounds")
    seats = record["seats"]
    assert isinstance(seats, list)
    return list(rounds) if isinstance(rounds, list) else list(range(1, len(seats[0]["round_points"]) + 1))


def _entrant_rows(record: Game, entrant: int) -> dict[str, float]:
    """What one game says of ``entrant``: score, lead, win share, points and lead per round."""
    seats = record["seats"]
    assert isinstance(seats, list)
    mine = [s for s in seats if s["entrant"] == entrant]
    others = [s for s in seats if s["entrant"] != entrant]
    where = f"deal {record['deal']} rotation {record['rotation']}"
    if not mine or not others:
        raise ValueError(f"{where}: no entrant {entrant} among {len(seats)} seats")
    if len(mine) > 1:
        raise ValueError(f"{where}: entrant {entrant} sits in {len(mine)} seats")
    me = mine[0]
    rows = {"score": float(me["score"]),
            "lead": float(me["score"]) - sum(float(s["score"]) for s in others) / len(others),
            "win share": float(me["win_share"])}
    for k, (number, points) in enumerate(zip(_round_numbers(record), me["round_points"], strict=True)):
        rows[f"round {number} points"] = float(points)
        rows[f"round {number} lead"] = float(points) - sum(float(s["round_points"][k]) for s in others) / len(others)
    return rows


def _shape(record: Game) -> tuple[int, int]:
    """(seats, rounds) of a game."""
    seats = record["seats"]
    assert isinstance(seats, list)
    return len(seats), len(seats[0]["round_points"])


def compare(a: dict[tuple[int, int], Game], b: dict[tuple[int, int], Game],
            entrant: int = 0) -> list[tuple[str, PairedDifference]]:
    """A minus B for ``entrant``, per deal (the mean over its rotations), each row with its interval."""
    if a.keys() != b.keys():
        only_a, only_b = sorted(a.keys() - b.keys()), sorted(b.keys() - a.keys())
        where = f"A alone has {only_a[0]}" if only_a else f"B alone has {only_b[0]}"
        raise ValueError(f"the files hold different games (deal, rotation): {where}")
    deals: dict[int, list[tuple[dict[str, float], dict[str, float]]]] = {}
    for key in sorted(a):
        where = f"deal {key[0]} rotation {key[1]}"
        if a[key]["seed"] != b[key]["seed"]:
            raise ValueError(f"{where} was dealt from seed {a[key]['seed']} in A and {b[key]['seed']} in B: "
                             f"not the same deals")
        shape_a, shape_b = _shape(a[key]), _shape(b[key])
        if shape_a != shape_b:
            raise ValueError(f"{where} has {shape_a[0]} seats and {shape_a[1]} rounds in A, {shape_b[0]} and "
                             f"{shape_b[1]} in B: not the same games")
        deals.setdefault(key[0], []).append((_entrant_rows(a[key], entrant), _entrant_rows(b[key], entrant)))
    names = list(next(iter(deals.values()))[0][0])
    out = []
    for name in names:
        per_a = [sum(x[name] for x, _ in games) / len(games) for games in deals.values()]
        per_b = [sum(y[name] for _, y in games) / len(games) for games in deals.values()]
        out.append((name, paired_difference(per_a, per_b)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("a", type=Path, help="run A: a file written by shanghai tournament --games-out")
    parser.add_argument("b", type=Path, help="run B: the same deals, written the same way")
    parser.add_argument("--entrant", type=int, default=0,
                        help="the entrant compared, its index in --seats (default 0, the first)")
    args = parser.parse_args(argv)
    try:
        a = load_games(args.a.read_text(encoding="utf-8").splitlines(), f"A ({args.a})")
        b = load_games(args.b.read_text(encoding="utf-8").splitlines(), f"B ({args.b})")
        games_played_by([*a.values(), *b.values()], f"A ({args.a}) and B ({args.b})")  # the same rules
        rows = compare(a, b, args.entrant)
    except (OSError, ValueError) as exc:
        print(f"compare_runs: {exc}", file=sys.stderr)
        return 2
    lines = [f"entrant {args.entrant}, A minus B, per deal ({rows[0][1].n} deals), 95% interval"]
    for name, d in rows:
        ci = "" if d.ci is None else f"[{d.ci[0]:+.3f}, {d.ci[1]:+.3f}]"
        lines.append(f"{name:>15} {d.mean:+9.3f} {ci}")
    print_out("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
