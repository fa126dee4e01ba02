"""``shanghai tournament``: a duplicate-format tournament between computer players."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from shanghai.bots.registry import KNOWN_PLAYERS, make_player
from shanghai.cli.common import EXIT_OK, CliError, load_rules
from shanghai.errors import InconsistentRulesError, ShanghaiError
from shanghai.tournament.report import summarize, text
from shanghai.tournament.runner import TournamentGameError, run_tournament

BACKENDS = ("local", "ray")


def _seats(args: argparse.Namespace, default_players: int) -> list[str]:
    if args.seats is None:
        return ["random"] * (args.players if args.players is not None else default_players)
    specs = [s.strip().lower() for s in args.seats.split(",")]
    if any(not s for s in specs):
        raise CliError(f"--seats has an empty name: {args.seats!r}")
    for spec in specs:
        try:
            make_player(spec, 0)
        except ValueError as exc:
            raise CliError(f"--seats: {exc}") from exc
    if args.players is not None and args.players != len(specs):
        raise CliError(f"--players {args.players} but --seats names {len(specs)} players")
    return specs


def _progress(done: int, total: int) -> None:
    sys.stderr.write(f"\rtournament: deal {done}/{total}")
    if done == total:
        sys.stderr.write("\r" + " " * 40 + "\r")
    sys.stderr.flush()


def run_tournament_command(args: argparse.Namespace, stdout: TextIO | None = None) -> int:
    """Run ``shanghai tournament`` from parsed arguments."""
    stdout = stdout or sys.stdout
    if args.backend == "ray":
        raise CliError("the Ray backend is not built yet; use --backend local (the default), "
                       "with --workers K for several processes")
    if args.workers < 1:
        raise CliError(f"--workers must be at least 1, not {args.workers}")
    if args.games is not None and args.games < 1:
        raise CliError(f"--games must be at least 1, not {args.games}")
    rules = load_rules(args.rules, args.option)
    specs = _seats(args, min(max(4, rules.min_players), rules.max_players))
    players = len(specs)
    try:
        rules.pack_for(players)
    except InconsistentRulesError as exc:
        raise CliError(f"invalid player count {players}: {exc}") from exc
    games = args.games if args.games is not None else players
    if games % players:
        rounded = -(-games // players) * players
        print(f"shanghai: note: --games {games} is not a multiple of {players} players "
              f"(one game per rotation of each deal); playing {rounded}", file=sys.stderr)
    progress = _progress if sys.stderr.isatty() else None
    start = time.perf_counter()
    try:
        result = run_tournament(rules, specs, games, args.seed, workers=args.workers, progress=progress)
    except (ShanghaiError, TournamentGameError) as exc:
        raise CliError(f"a tournament game failed (an engine or player bug): {exc}", code=1) from exc
    seconds = time.perf_counter() - start
    summary = summarize(result)
    if args.out is not None:
        try:
            with open(args.out, "w", encoding="utf-8") as fh:
                fh.write(json.dumps(summary, indent=2) + "\n")
        except OSError as exc:
            raise CliError(f"cannot write {args.out!r}: {exc}") from exc
    if args.json:
        stdout.write(json.dumps(summary) + "\n")
    else:
        stdout.write(text(summary, seconds) + "\n")
    return EXIT_OK


def add_tournament_parser(sub: Any, common: Any) -> None:
    p = sub.add_parser(
        "tournament", help="a duplicate tournament between computer players, with 95%% intervals",
        description="Plays a duplicate tournament: each deal (game seed S + d) is replayed once per "
                    "rotation of the players through every seat, so N games per deal and G/N deals "
                    "(G is rounded up to a multiple of N, with a note). Reports, per player name: "
                    "games (seat-games), wins (ties share), win rate with a Wilson 95% interval, mean "
                    "final score, points per round (t intervals over deals), the rate of making the "
                    "contract per round, buys per round and slams; and for each pair of names the paired "
                    "per-deal score difference. Scores are penalty points: lower is better.")
    common(p)
    p.add_argument("--players", "-p", type=int, metavar="N",
                   help="number of players (default: the number of --seats names)")
    p.add_argument("--seats", metavar="NAMES",
                   help=f"comma-separated player per entrant, e.g. random,greedy,greedy "
                        f"(known: {', '.join(KNOWN_PLAYERS)}; default: random in every seat)")
    p.add_argument("--games", "-g", type=int, default=None, metavar="G",
                   help="games in all (default: one deal, i.e. N games)")
    p.add_argument("--seed", "-s", type=int, default=0, metavar="S", help="seed of the first deal (default 0)")
    p.add_argument("--workers", "-j", type=int, default=1, metavar="K",
                   help="worker processes for the local backend (default 1); results do not depend on it")
    p.add_argument("--backend", choices=BACKENDS, default="local",
                   help="where deals run: local (default) or ray (not built yet)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object: games, players (seat_spec, games, wins, win_rate, "
                        "win_rate_ci, mean_score, mean_score_ci, ...), pairs, ...")
    p.add_argument("--out", metavar="FILE", help="also write the JSON object to FILE")
