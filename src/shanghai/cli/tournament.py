"""``shanghai tournament``: a duplicate-format tournament between computer players."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterable
from typing import Any, TextIO

from shanghai.bots.registry import KNOWN_PLAYERS, SEARCH_ITERATIONS, make_player
from shanghai.cli.common import EXIT_OK, CliError, load_rules
from shanghai.errors import InconsistentRulesError, ShanghaiError
from shanghai.rules import AnyRules, ManipulationRules
from shanghai.tournament.ray_backend import RayUnavailableError
from shanghai.tournament.report import game_records, summarize, text
from shanghai.tournament.runner import BACKENDS, TournamentGameError, run_tournament


def _seats(args: argparse.Namespace, default_players: int, rules: AnyRules) -> list[str]:
    if args.seats is None:
        return ["random"] * (args.players if args.players is not None else default_players)
    specs = [s.strip().lower() for s in args.seats.split(",")]
    if any(not s for s in specs):
        raise CliError(f"--seats has an empty name: {args.seats!r}")
    for spec in specs:
        try:
            make_player(spec, 0, rules)
        except ValueError as exc:
            raise CliError(f"--seats: {exc}") from exc
    if args.players is not None and args.players != len(specs):
        raise CliError(f"--players {args.players} but --seats names {len(specs)} players")
    return specs


def parse_rounds(text: str, count: int) -> list[int]:
    """Round numbers from ``--rounds`` (``2``, ``5-7``, ``1,3``), each between 1 and ``count``.

    >>> parse_rounds("1,5-7", 7)
    [1, 5, 6, 7]
    """
    picks: list[int] = []
    for part in text.split(","):
        part = part.strip()
        low, dash, high = part.partition("-")
        try:
            first = int(low)
            last = int(high) if dash else first
        except ValueError:
            raise CliError(f"--rounds: {part!r} is not a round number or a range like 5-7") from None
        if first > last:
            raise CliError(f"--rounds: the range {part!r} runs backwards")
        for n in range(first, last + 1):
            if not 1 <= n <= count:
                raise CliError(f"--rounds: these rules have rounds 1 to {count}, not {n}")
            picks.append(n)
    return picks


def _only_rounds(rules: AnyRules, text: str | None) -> tuple[AnyRules, list[int]]:
    """The rules cut down to the rounds ``--rounds`` names (for measuring players round by round)."""
    if text is None:
        return rules, []
    if isinstance(rules, ManipulationRules):
        raise CliError(f"--rounds: {rules.name} (manipulation rummy) has no numbered contract rounds")
    picks = parse_rounds(text, len(rules.rounds))
    return rules.changed(rounds=tuple(rules.rounds[n - 1] for n in picks)), picks


def _check_writable(path: str | None, option: str) -> None:
    """Refuse an output file that cannot be written before the games are played, not after."""
    if path is None:
        return
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise CliError(f"{option} {path!r} is a folder, not a file")
    if not os.path.isdir(folder):
        raise CliError(f"{option} {path!r}: no folder {folder!r}")
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise CliError(f"{option} {path!r}: not writable")


def _write(path: str, lines: Iterable[str]) -> None:
    try:
        with open(path, "w", encoding="utf-8") as fh:
            for line in lines:
                fh.write(line + "\n")
    except OSError as exc:
        raise CliError(f"cannot write {path!r}: {exc}") from exc


class _ProgressBar:
    """A one-line progress bar on standard error: deals done, a bar, and the time left."""

    WIDTH = 30

    def __init__(self) -> None:
        self.start = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        elapsed = time.perf_counter() - self.start
        filled = self.WIDTH * done // total
        left = elapsed / done * (total - done)
        line = (f"\rtournament [{'#' * filled}{'.' * (self.WIDTH - filled)}] deal {done}/{total}, "
                f"{_duration(elapsed)} elapsed, about {_duration(left)} left ")
        sys.stderr.write(line)
        if done == total:
            sys.stderr.write("\r" + " " * len(line) + "\r")
        sys.stderr.flush()


def _duration(seconds: float) -> str:
    minutes, secs = divmod(round(seconds), 60)
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"


def run_tournament_command(args: argparse.Namespace, stdout: TextIO | None = None) -> int:
    """Run ``shanghai tournament`` from parsed arguments."""
    stdout = stdout or sys.stdout
    if args.ray_address is not None and args.backend != "ray":
        raise CliError("--ray-address needs --backend ray")
    if args.workers is not None and args.workers < 1:
        raise CliError(f"--workers must be at least 1, not {args.workers}")
    if args.games is not None and args.games < 1:
        raise CliError(f"--games must be at least 1, not {args.games}")
    _check_writable(args.out, "--out")
    _check_writable(args.games_out, "--games-out")
    if args.out is not None and args.games_out is not None and \
            os.path.abspath(args.out) == os.path.abspath(args.games_out):
        raise CliError(f"--out and --games-out name the same file {args.out!r}")
    rules, rounds = _only_rounds(load_rules(args.rules, args.option), args.rounds)
    specs = _seats(args, min(max(4, rules.min_players), rules.max_players), rules)
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
    progress = _ProgressBar() if sys.stderr.isatty() else None
    start = time.perf_counter()
    try:
        result = run_tournament(rules, specs, games, args.seed, workers=args.workers, backend=args.backend,
                                ray_address=args.ray_address, progress=progress)
    except RayUnavailableError as exc:
        raise CliError(str(exc)) from exc
    except (ShanghaiError, TournamentGameError) as exc:
        raise CliError(f"a tournament game failed (an engine or player bug): {exc}", code=1) from exc
    seconds = time.perf_counter() - start
    summary = summarize(result)
    if rounds:
        summary["rounds"] = rounds
    if args.out is not None:
        _write(args.out, [json.dumps(summary, indent=2)])
    if args.games_out is not None:
        _write(args.games_out, (json.dumps(record) for record in game_records(result, rounds)))
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
                        f"(known: {', '.join(KNOWN_PLAYERS)}; search:N searches N iterations a decision "
                        f"instead of {SEARCH_ITERATIONS}; settings follow a name as :KEY=VALUE, e.g. "
                        f"expert:buy_missing=5 or search:32:top_k=2:rollout=greedy, each spelling its own "
                        f"entrant; default: random in every seat)")
    p.add_argument("--games", "-g", type=int, default=None, metavar="G",
                   help="games in all (default: one deal, i.e. N games)")
    p.add_argument("--seed", "-s", type=int, default=0, metavar="S",
                   help="seed of the first deal (default 0); deal d is dealt from seed S+d, so runs meant to "
                        "be independent need seeds further apart than their number of deals")
    p.add_argument("--workers", "-j", type=int, default=None, metavar="K",
                   help="local backend: worker processes (default 1, in this process); ray backend "
                        "started locally: its CPUs (default all); results do not depend on it")
    p.add_argument("--backend", choices=BACKENDS, default="local",
                   help="where deals run: local (default) or ray (an optional extra: "
                        "pip install 'shanghai[ray]'); one deal is one Ray task")
    p.add_argument("--ray-address", metavar="ADDR",
                   help="with --backend ray: the address of an existing Ray cluster (e.g. ray://head:10001 "
                        "or auto); without it a local Ray is started and stopped")
    p.add_argument("--rounds", metavar="LIST",
                   help="play only these rounds of the rules, by their numbers there (e.g. 2, 5-7 or 1,3): "
                        "each game is those rounds alone, to measure players round by round")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object: games, players (seat_spec, games, wins, win_rate, "
                        "win_rate_ci, win_rate_deal_ci, mean_score, mean_score_ci, ...), pairs, ...")
    p.add_argument("--out", metavar="FILE", help="also write the JSON object to FILE")
    p.add_argument("--games-out", metavar="FILE",
                   help="write every game to FILE, one JSON object a line (deal, rotation, seed, and per "
                        "seat: player, score, round_points, went_down, buys, slams, win_share)")
