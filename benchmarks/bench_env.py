"""Environment steps per second: shanghai's PettingZoo and Gymnasium environments against RLCard's gin
rummy environment, in the same run (in turns of short slices, so that a machine whose speed drifts
slows them alike and the ratio holds).

Run with ``.venv-bench/bin/python benchmarks/bench_env.py [--quick] [--json FILE]`` (that environment
has RLCard; it needs ``pip install -e '.[env]'`` there too). Writes ``benchmarks/results_env.json``.

A step is one decision of one seat, with its observation and action mask made (``env.last()``) and the
action applied (``env.step``); every environment picks uniformly among the legal actions, except that
the shanghai seats go down and lay off whenever they can (as ``bench.py``'s games do), so rounds end.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))

from bench import in_slices, machine  # noqa: E402


def bench_aec(seconds: float, name: str = "isra", players: int = 4) -> dict[str, Any]:
    """The PettingZoo AEC environment (raw_env), every seat played through last() and step()."""
    try:
        import numpy as np

        from shanghai.engine import GoDown, LayOff
        from shanghai.env import raw_env
    except ImportError as exc:
        return {"what": "shanghai env", "missing": str(exc)}
    rng = random.Random(1)
    env = raw_env(rules=name, players=players)
    steps = games = rounds = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=games)
        games += 1
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            allowed = np.flatnonzero(obs["action_mask"]).tolist()
            legal = env.legal_map(env.agent_seat[agent])
            progress = [i for i in allowed if isinstance(legal[i], GoDown | LayOff)]
            env.step(rng.choice(progress or allowed))
            steps += 1
            if time.perf_counter() - start > seconds:
                break
        rounds += len(env.game.round_results)
    elapsed = time.perf_counter() - start
    return {"what": f"shanghai_v0 AEC ({name}, {players} players): last() + step() per decision",
            "games": games, "rounds": rounds, "steps": steps, "seconds": round(elapsed, 3)}


def bench_single(seconds: float, name: str = "isra", players: int = 4) -> dict[str, Any]:
    """The Gymnasium wrapper, 3 `random` computer players at the other seats (their moves included)."""
    try:
        import numpy as np

        from shanghai.env import SingleAgentEnv
    except ImportError as exc:
        return {"what": "shanghai single-agent env", "missing": str(exc)}
    rng = random.Random(1)
    env = SingleAgentEnv(rules=name, players=players, opponents="random")
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, _ = env.reset(seed=games)
        games += 1
        done = False
        while not done and time.perf_counter() - start < seconds:
            obs, _, done, _, _ = env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
    elapsed = time.perf_counter() - start
    return {"what": f"shanghai SingleAgentEnv ({name}, {players} players, 3 random opponents): learner steps",
            "games": games, "steps": steps, "seconds": round(elapsed, 3)}


def bench_rlcard_env(seconds: float) -> dict[str, Any]:
    """RLCard's gin rummy environment: env.step() (which makes the next state) per decision."""
    try:
        import rlcard
    except ImportError:
        return {"what": "rlcard gin-rummy env", "missing": "rlcard is not installed"}
    rng = random.Random(1)
    steps = games = 0
    start = time.perf_counter()
    env = rlcard.make("gin-rummy", config={"seed": 0})
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        games += 1
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            steps += 1
            if time.perf_counter() - start > seconds:
                break
    elapsed = time.perf_counter() - start
    return {"what": "rlcard gin-rummy env (rlcard.make), env.step() per decision",
            "games": games, "steps": steps, "seconds": round(elapsed, 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="short runs (a smoke test)")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per environment")
    parser.add_argument("--json", default=str(HERE / "results_env.json"), help="where to write the figures")
    args = parser.parse_args(argv)
    seconds = args.seconds or (3.0 if args.quick else 20.0)
    results: dict[str, Any] = {"machine": machine(), "when": time.strftime("%Y-%m-%d %H:%M:%S")}
    envs: dict[str, Callable[[float], dict[str, Any]]] = {
        "shanghai_aec": bench_aec, "shanghai_single": bench_single, "rlcard_gin_rummy_env": bench_rlcard_env}
    slices = 5
    totals = in_slices(envs, seconds, slices, ("games", "rounds", "steps", "seconds"))
    m = results["machine"]
    print(f"machine: {m['cpu']} ({m['cores']} cores), {m['system']}, {m['implementation']} {m['python']}")
    for key, total in totals.items():
        if "missing" not in total:
            total["steps_per_s"] = round(total["steps"] / total["seconds"])
            total["slices"] = slices
        results[key] = total
        print(f"\n[{key}] {total.get('what')}")
        for k, v in total.items():
            if k != "what":
                print(f"  {k}: {v}")
    peer = results["rlcard_gin_rummy_env"].get("steps_per_s")
    for key in ("shanghai_aec", "shanghai_single"):
        ours = results[key].get("steps_per_s")
        if peer and ours:
            results[key]["rlcard_ratio"] = round(ours / peer, 2)
            print(f"\n{key} / rlcard gin-rummy env: {results[key]['rlcard_ratio']}x steps per second")
    Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    print(f"\nfigures written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
