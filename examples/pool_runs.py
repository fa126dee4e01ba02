"""Several tournaments of the same seats on different deals, reported as one.

A long tournament can be played as runs of consecutive deals, each with ``--games-out``, so that a
run cut short (a session's end, a machine taken back) loses only its own games. Deal ``d`` of
``--seed S`` is dealt from seed ``S + d``, so runs of ``D`` deals with seeds ``S``, ``S + D``,
``S + 2D``, ... play exactly the deals of one run with ``--seed S`` (the players' tie-breaking
seeds differ, as between any two tournaments)::

    for k in 0 1 2 3 4; do
        shanghai tournament --rules isra --seats search,expert,expert,expert --games 400 \\
            --seed $((15000001 + 100 * k)) --workers 2 --games-out b_$k.jsonl
    done
    python examples/pool_runs.py --rules isra b_*.jsonl

It prints the tournament's report over all the games: win rates with the Wilson interval over
games and the interval with the deal as the unit, mean scores, paired differences. A deal played
in two of the files (the same game seed) is refused, since it would count twice.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from shanghai.cli.common import CliError, load_rules, print_out
from shanghai.errors import ShanghaiError
from shanghai.tournament.report import games_played_by, read_game_records, result_from_records, summarize, text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("games", nargs="+", type=Path, help="files written by --games-out")
    parser.add_argument("--rules", default=None,
                        help="the rules the games were played by, for files that do not say (default isra)")
    args = parser.parse_args(argv)
    try:
        records = []
        for path in args.games:
            try:
                lines = path.read_text(encoding="utf-8").splitlines()
            except OSError as exc:
                raise CliError(f"cannot read {path}: {exc.strerror or exc}") from exc
            records.extend(read_game_records(lines, str(path)))
        names = ", ".join(map(str, args.games))
        played = games_played_by(records, names)  # refuses games of different rules or rounds
        if played is not None and args.rules is not None and args.rules.strip().lower() != played["rules"]:
            raise CliError(f"{names}: the games were played by {played['rules']}, not {args.rules}")
        rules = load_rules(played["rules"] if played else (args.rules or "isra"), played["options"] if played else [])
        result = result_from_records(records, rules, names)
    except (CliError, ShanghaiError, ValueError) as exc:
        print(f"pool_runs: {exc}", file=sys.stderr)
        return 2
    summary = summarize(result)
    if played is not None and played["rounds"]:
        summary["rounds"] = played["rounds"]
    print_out(f"pooled: {len(args.games)} files")
    print_out(text(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
