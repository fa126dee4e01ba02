"""Decision times of the computer players: how long ``choose(view)`` takes, per player.

Run with ``python benchmarks/bench_players.py [--rounds N] [--json FILE]`` (``make bench`` runs it).
Each player sits in seat 0 of ``isra`` games with three greedy players and every one of its
decisions is timed (CPU time), including the trivial ones a player answers at once; the search
player is timed with the fixed iteration budget it has by name (``make_player("search", ...)``).
Then the same for manipulation rummy (4 players, the others its expert), hands instead of rounds.
Prints the machine and Python it ran on.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))

from bench import machine, percentile  # noqa: E402

from shanghai.bots.match import seat_seed  # noqa: E402
from shanghai.bots.registry import make_player  # noqa: E402
from shanghai.engine import Game  # noqa: E402
from shanghai.engine.manipulation import ManipulationGame, manipulation_view  # noqa: E402
from shanghai.engine.view import view  # noqa: E402
from shanghai.rules import MANIPULATION, preset  # noqa: E402


def time_decisions(spec: str, rounds: int, seed: int = 1) -> dict[str, Any]:
    """Seat 0 is ``spec``, the others greedy; play ``rounds`` rounds of isra and time seat 0."""
    rules = preset("isra")
    times: list[float] = []
    played = 0
    game_seed = seed
    while played < rounds:
        game = Game.new(rules, 4, game_seed)
        players = [make_player(spec if s == 0 else "greedy", seat_seed(game_seed, s)) for s in range(4)]
        done_rounds = 0
        while not game.is_over and played + done_rounds < rounds:
            seat = game.to_act()[0]
            v = view(game, seat)
            if seat == 0:
                start = time.process_time()
                action = players[0].choose(v)
                times.append(time.process_time() - start)
            else:
                action = players[seat].choose(v)
            game.apply(action)
            done_rounds = len(game.round_results)
        played += max(done_rounds, 1)
        game_seed += 1
    return _figures(spec, times, rounds=played)


def time_manipulation(spec: str, hands: int, seed: int = 1) -> dict[str, Any]:
    """Seat 0 is ``spec``, the others manipulation rummy's expert; play ``hands`` hands, timing seat 0."""
    times: list[float] = []
    played = 0
    game_seed = seed
    while played < hands:
        game = ManipulationGame.new(MANIPULATION, 4, game_seed)
        players = [make_player(spec if s == 0 else "expert", seat_seed(game_seed, s), MANIPULATION)
                   for s in range(4)]
        while not game.is_over and played + len(game.hand_results) < hands:
            seat = game.turn
            v = manipulation_view(game, seat)
            start = time.process_time()
            action = players[seat].choose(v)  # type: ignore[arg-type]
            if seat == 0:
                times.append(time.process_time() - start)
            game.apply(action)
        played += max(len(game.hand_results), 1)
        game_seed += 1
    return _figures(f"manipulation {spec}", times, hands=played)


def _figures(name: str, times: list[float], **count: int) -> dict[str, Any]:
    ms = [t * 1000 for t in times]
    return {"player": name, **count, "decisions": len(ms), "median_ms": round(statistics.median(ms), 3),
            "p90_ms": round(percentile(ms, 0.9), 3), "p99_ms": round(percentile(ms, 0.99), 3),
            "max_ms": round(max(ms), 3)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="rounds of isra per player (default 7: a game)")
    parser.add_argument("--search-rounds", type=int, default=2, help="rounds for the search player (default 2)")
    parser.add_argument("--hands", type=int, default=6, help="hands of manipulation rummy per player (default 6)")
    parser.add_argument("--game", choices=("both", "contract", "manipulation"), default="both",
                        help="which game's players to time (default both); the figures of the other "
                             "stay as they are in the JSON file")
    parser.add_argument("--json", default=str(HERE / "results_players.json"), help="where to write the figures")
    args = parser.parse_args()
    info = machine()
    print(f"machine: {info['cpu']} ({info['cores']} cores), {info['system']}, "
          f"{info['implementation']} {info['python']}")
    results = []
    for spec in ("random", "greedy", "expert", "search") if args.game != "manipulation" else ():
        rounds = args.search_rounds if spec == "search" else args.rounds
        r = time_decisions(spec, rounds)
        results.append(r)
        print(f"[{spec}] {r['decisions']} decisions in {r['rounds']} rounds: median {r['median_ms']} ms, "
              f"p90 {r['p90_ms']} ms, p99 {r['p99_ms']} ms, max {r['max_ms']} ms")
    for spec in ("random", "greedy", "expert", "search") if args.game != "contract" else ():
        r = time_manipulation(spec, args.hands)
        results.append(r)
        print(f"[{r['player']}] {r['decisions']} decisions in {r['hands']} hands: median {r['median_ms']} ms, "
              f"p90 {r['p90_ms']} ms, p99 {r['p99_ms']} ms, max {r['max_ms']} ms")
    out = Path(args.json)
    if args.game != "both" and out.exists():
        # keep the other game's figures (and the machine they were measured on)
        old = json.loads(out.read_text())
        mine = {r["player"] for r in results}
        results = [r for r in old.get("players", []) if r["player"] not in mine] + results
        if old.get("machine") != info:
            for r in results:
                if r["player"] not in mine:
                    r.setdefault("machine", old.get("machine"))
    out.write_text(json.dumps({"machine": info, "players": results}, indent=2) + "\n")
    print(f"figures written to {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
