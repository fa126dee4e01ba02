"""Speed figures of the engine and solver, with the best-known peers measured in the same run.

Run with ``make bench`` (which builds its own environment with the peers, ``.venv-bench/``), or
``python benchmarks/bench.py [--quick] [--json FILE]``. Prints each figure with the machine and
Python it ran on, and writes them all as JSON. Peers that are not installed are reported as missing.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

from shanghai.cards import parse_cards  # noqa: E402
from shanghai.engine import Game, GoDown, LayOff  # noqa: E402
from shanghai.rules import preset  # noqa: E402
from shanghai.solver import solve_contract  # noqa: E402

PROGRESS = (GoDown, LayOff)  # what the random player takes whenever it can (a tuple: no union per test)


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"python": platform.python_version(), "implementation": platform.python_implementation(),
            "machine": platform.machine(), "cpu": cpu, "cores": os.cpu_count(),
            "system": f"{platform.system()} {platform.release()}"}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- whole rounds ---------------------------------------------------------------------------------
def bench_shanghai_rounds(seconds: float, name: str = "isra", players: int = 4) -> dict[str, Any]:
    """Random legal play (taking progress), legal actions listed at every step."""
    rules = preset(name)
    rng = random.Random(1)
    actions = rounds = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game.new(rules, players, seed=games)
        games += 1
        while not game.is_over:
            legal = list(game.legal_actions())
            progress = [a for a in legal if isinstance(a, PROGRESS)]
            game.apply(rng.choice(progress or legal))
            actions += 1
        rounds += len(game.round_results)
    elapsed = time.perf_counter() - start
    return {"what": f"shanghai {name}, {players} players, random legal play",
            "games": games, "rounds": rounds, "actions": actions, "seconds": round(elapsed, 3),
            "actions_per_s": round(actions / elapsed), "rounds_per_s": round(rounds / elapsed, 2),
            "games_per_s": round(games / elapsed, 3)}


def bench_rlcard(seconds: float) -> dict[str, Any]:
    try:
        from rlcard.games.gin_rummy.game import GinRummyGame
    except ImportError:
        return {"what": "rlcard gin rummy", "missing": "rlcard is not installed"}
    rng = random.Random(1)
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = GinRummyGame()
        game.np_random.seed(games)
        game.init_game()
        games += 1
        while not game.is_over():
            legal = game.judge.get_legal_actions()
            game.step(rng.choice(legal))
            actions += 1
    elapsed = time.perf_counter() - start
    return {"what": "rlcard gin rummy through its game object, random legal play",
            "games": games, "actions": actions, "seconds": round(elapsed, 3),
            "actions_per_s": round(actions / elapsed), "games_per_s": round(games / elapsed, 2)}


def bench_open_spiel(seconds: float) -> dict[str, Any]:
    try:
        import pyspiel
    except ImportError:
        return {"what": "open_spiel gin_rummy", "missing": "open_spiel is not installed"}
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(1)
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        games += 1
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choice(outcomes)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
        pass
    elapsed = time.perf_counter() - start
    return {"what": "open_spiel C++ gin_rummy through pyspiel, random legal play (player actions)",
            "games": games, "actions": actions, "seconds": round(elapsed, 3),
            "actions_per_s": round(actions / elapsed), "games_per_s": round(games / elapsed, 2)}


# -- the contract solver ----------------------------------------------------------------------------
def bench_solver(corpus_path: Path, repeat: int) -> dict[str, Any]:
    """Every corpus hand solved ``repeat`` times in a row, timed in CPU time of this process
    (``time.process_time``: other processes on a shared machine do not count). The figures are the
    best of the repeats; the first call's are given too (the solver keeps what one suit's cards
    allow, its run extents, the fewest wilds its runs need and its table of runs, by the suit's
    cards, so a first call may build them). One Rules object per preset, as a game has."""
    if not corpus_path.exists():
        return {"what": "contract solver", "missing": f"{corpus_path} not found"}
    cases = [json.loads(line) for line in corpus_path.read_text().splitlines() if line.strip()]
    prepared = []
    presets: dict[tuple[str, tuple[str, ...]], Any] = {}  # one Rules object per preset, as in a game
    for case in cases:
        key = (case["rules"], tuple(case.get("options", [])))
        rules = presets.get(key)
        if rules is None:
            rules = presets[key] = preset(*key)
        prepared.append((parse_cards(case["cards"]), rules.contract(case["round"]), rules, case))
    times: list[float] = []
    first: list[float] = []
    wrong = 0
    for hand, contract, rules, case in prepared:
        best = float("inf")
        result = None
        for i in range(repeat):
            t = time.process_time()
            result = solve_contract(hand, contract, rules)
            spent = time.process_time() - t
            if i == 0:
                first.append(spent)
            best = min(best, spent)
        times.append(best)
        got = None if result is None else result.leftover_points
        if got != case["leftover_points"]:
            wrong += 1
    worst = sorted(range(len(times)), key=times.__getitem__, reverse=True)[:3]
    return {"what": f"contract solver on the fixed corpus (CPU time, best of {repeat} per hand)",
            "hands": len(times), "wrong_answers": wrong,
            "median_ms": round(statistics.median(times) * 1e3, 4),
            "p99_ms": round(percentile(times, 0.99) * 1e3, 4),
            "max_ms": round(max(times) * 1e3, 4),
            "first_call_median_ms": round(statistics.median(first) * 1e3, 4),
            "first_call_p99_ms": round(percentile(first, 0.99) * 1e3, 4),
            "first_call_max_ms": round(max(first) * 1e3, 4),
            "worst_hand": prepared[worst[0]][3],
            "worst_hands": [{"ms": round(times[i] * 1e3, 3), **prepared[i][3]} for i in worst]}


# -- legal actions in mid-round states -----------------------------------------------------------
def mid_round_states(players: int, count: int) -> list[Game]:
    states: list[Game] = []
    rng = random.Random(players)
    seed = 0
    while len(states) < count:
        game = Game.new(preset("isra"), players, seed)
        seed += 1
        for _ in range(rng.randrange(40, 400)):
            if game.is_over:
                break
            legal = list(game.legal_actions())
            progress = [a for a in legal if isinstance(a, PROGRESS)]
            game.apply(rng.choice(progress or legal))
        if not game.is_over:
            states.append(game)
    return states


def bench_legal(count: int) -> dict[str, Any]:
    times: list[float] = []
    for players in (5, 6):
        for game in mid_round_states(players, count):
            t = time.perf_counter()
            list(game.legal_actions())
            times.append(time.perf_counter() - t)
    return {"what": "listing every legal action, isra mid-round, 5-6 players",
            "states": len(times), "median_ms": round(statistics.median(times) * 1e3, 4),
            "p99_ms": round(percentile(times, 0.99) * 1e3, 4), "max_ms": round(max(times) * 1e3, 4)}


def bench_copy(count: int) -> dict[str, Any]:
    games = mid_round_states(4, count)
    sizes = [len(pickle.dumps(g, protocol=pickle.HIGHEST_PROTOCOL)) for g in games]
    start = time.perf_counter()
    n = 0
    for _ in range(20):
        for g in games:
            g.copy()
            n += 1
    per_copy = (time.perf_counter() - start) / n
    return {"what": "a game state (isra, 4 players, mid-round)",
            "pickled_bytes_median": int(statistics.median(sizes)),
            "copy_us": round(per_copy * 1e6, 2)}


def in_slices(fns: dict[str, Callable[[float], dict[str, Any]]], seconds: float, slices: int,
              counted: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """Runs each of ``fns`` (after a warm-up, not counted) for ``seconds`` in all, in turns of
    ``slices`` short slices, so that a machine whose speed drifts slows them alike; the sums of
    the ``counted`` figures per key, with "what" (and "missing" for a peer not installed)."""
    for fn in fns.values():
        fn(0.2)  # warm-up, not counted
    totals: dict[str, dict[str, Any]] = {}
    for _ in range(slices):
        for key, fn in fns.items():
            part = fn(seconds / slices)
            total = totals.setdefault(key, {"what": part.get("what")})
            if "missing" in part:
                total["missing"] = part["missing"]
                continue
            for k in counted:
                if k in part:
                    total[k] = round(total.get(k, 0) + part[k], 3)
    return totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="short runs (a smoke test)")
    parser.add_argument("--json", default=str(HERE / "results.json"), help="where to write the figures")
    parser.add_argument("--only", default="",
                        help="comma-separated parts to run (of: rounds, peers, solver, legal_actions, "
                             "state); all by default")
    parser.add_argument("--seconds", type=float, default=None,
                        help="seconds for the game engines in all (default 20, 3 with --quick)")
    args = parser.parse_args(argv)
    only = {part.strip() for part in args.only.split(",") if part.strip()}
    unknown = only - {"rounds", "peers", "solver", "legal_actions", "state"}
    if unknown:
        parser.error(f"unknown parts: {', '.join(sorted(unknown))}")

    def wanted(part: str) -> bool:
        return not only or part in only

    seconds = args.seconds if args.seconds is not None else 3.0 if args.quick else 20.0
    results: dict[str, Any] = {"machine": machine(), "when": time.strftime("%Y-%m-%d %H:%M:%S")}
    # The three game engines run in turns of short slices, so that a machine whose speed drifts
    # during the run slows them alike and their ratio holds.
    engines: dict[str, Callable[[float], dict[str, Any]]] = {}
    if wanted("rounds"):
        engines["rounds"] = bench_shanghai_rounds
    if wanted("peers"):
        engines["rlcard_gin_rummy"] = bench_rlcard
        engines["open_spiel_gin_rummy"] = bench_open_spiel
    slices = 5
    totals = in_slices(engines, seconds, slices, ("games", "rounds", "actions", "seconds"))
    for total in totals.values():
        if "missing" not in total:
            secs = total["seconds"]
            total["actions_per_s"] = round(total["actions"] / secs)
            total["games_per_s"] = round(total["games"] / secs, 3)
            if "rounds" in total:
                total["rounds_per_s"] = round(total["rounds"] / secs, 2)
            total["slices"] = slices
    steps: list[tuple[str, Callable[[], dict[str, Any]]]] = [
        (key, lambda key=key: totals[key]) for key in engines  # type: ignore[misc]
    ]
    if wanted("solver"):
        steps.append(("solver", lambda: bench_solver(HERE / "data" / "solver_corpus.jsonl",
                                                     1 if args.quick else 3)))
    if wanted("legal_actions"):
        steps.append(("legal_actions", lambda: bench_legal(20 if args.quick else 150)))
    if wanted("state"):
        steps.append(("state", lambda: bench_copy(10 if args.quick else 50)))
    m = results["machine"]
    print(f"machine: {m['cpu']} ({m['cores']} cores), {m['system']}, "
          f"{m['implementation']} {m['python']}")
    for key, step in steps:
        figures = step()
        results[key] = figures
        print(f"\n[{key}] {figures.pop('what', '')}")
        results[key]["what"] = figures.get("what")
        for k, v in figures.items():
            if k != "what":
                print(f"  {k}: {v}")
    ours = results.get("rounds", {}).get("actions_per_s")
    for peer in ("rlcard_gin_rummy", "open_spiel_gin_rummy"):
        if ours and "actions_per_s" in results.get(peer, {}):
            results[peer]["shanghai_ratio"] = round(ours / results[peer]["actions_per_s"], 2)
            print(f"\nshanghai / {peer}: {results[peer]['shanghai_ratio']}x actions per second")
    Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    print(f"\nfigures written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
