"""Load on the game server: many tables of WebSocket players on loopback (a benchmark, not a test).

Starts ``shanghai serve`` (SQLite in a temporary folder), creates ``--tables`` tables of four seats,
connects four WebSocket clients to each (the measured time starts once all are connected), and plays
them, every client choosing among the legal actions the server listed (going down and laying off
first) after ``--think`` seconds. Reports the actions the server accepted per second and the latency
from an action sent to the sender's next state.

    python benchmarks/bench_server.py --tables 50 --seconds 30 [--think 0.5] [--json] [--profile out.prof]

It also reports the server process's CPU time while the tables play (Linux: ``/proc``) divided by the
actions it committed meanwhile (counted in its database): the server's CPU per accepted action. On a
shared machine the latencies say more about the machine's load than the server's; the CPU per action
is what to compare.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        result: dict[str, Any] = json.loads(resp.read())
        return result


def _pick(state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    legal = state["legal"]
    if not legal:
        return None
    by_verb: dict[str, list[dict[str, Any]]] = {}
    for item in legal:
        by_verb.setdefault(item["action"]["verb"], []).append(item)
    for verb in ("down", "layoff", "draw", "pass"):
        if verb in by_verb:
            return by_verb[verb][0]
    if "discard" in by_verb:
        return rng.choice(by_verb["discard"])
    return rng.choice(legal)


def _committed(db: Path) -> int:
    """The actions the server has committed (every accepted action is, before anybody is told)."""
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)) as c:
        return int(c.execute("SELECT count(*) FROM shanghai_actions").fetchone()[0])


def _cpu_seconds(pid: int) -> tuple[float, float]:
    """A process's user and system CPU time (Linux), NaN elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan"), float("nan")
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


class _Clock:
    """Every seat connects and says hello first; the measured time starts once all have their state."""

    def __init__(self, seats: int) -> None:
        self.waiting = seats
        self.all_ready = asyncio.Event()
        self.go = asyncio.Event()
        self.stop_at = 0.0

    def ready(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.all_ready.set()


async def _seat(url: str, token: str, think: float, clock: _Clock, latencies: list[float],
                counts: list[int], seed: int) -> None:
    rng = random.Random(seed)
    async with connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
        first: dict[str, Any] | None = None
        while first is None:
            msg = json.loads(await ws.recv())
            if msg["type"] == "state":
                first = msg
        clock.ready()
        await clock.go.wait()
        stop_at = clock.stop_at
        sent_at: float | None = None
        acted = -1
        while time.monotonic() < stop_at:
            if first is not None:
                msg, first = first, None
            else:
                try:
                    raw = await asyncio.wait_for(ws.recv(), max(0.01, stop_at - time.monotonic()))
                except TimeoutError:
                    break
                msg = json.loads(raw)
            if msg["type"] == "accepted":
                counts[1] += 1
            if msg["type"] != "state" or msg["game"] is None:
                if msg["type"] == "error":
                    sent_at, acted = None, -1
                continue
            if sent_at is not None and msg["version"] > acted:
                latencies.append(time.monotonic() - sent_at)
                sent_at = None
            game = msg["game"]
            if game["phase"] == "game-over":
                break
            if msg["you"] in game["to_act"] and msg["version"] != acted:
                pick = _pick(msg, rng)
                if pick is None:
                    continue
                if think:
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                acted = msg["version"]
                sent_at = time.monotonic()
                await ws.send(json.dumps({"type": "action", "version": msg["version"], "action": pick["text"]}))
                counts[0] += 1


async def _run(base: str, tables: int, seconds: float, think: float, pid: int, profiling: bool,
               db: Path) -> dict[str, Any]:
    tokens: list[list[str]] = []
    for t in range(tables):
        created = _post(f"{base}/api/tables", {"name": "Ann", "rules": "may-i", "seats": ["human"] * 4, "seed": t,
                                               "settings": {"buy_seconds": 30, "bot_pause": 0}})
        seat_tokens = [created["token"]]
        for name in ("Bob", "Cy", "Di"):
            seat_tokens.append(_post(f"{base}/api/invite/{created['invite']}/join", {"name": name})["token"])
        tokens.append(seat_tokens)
    ws_url = base.replace("http", "ws") + "/ws"
    latencies: list[float] = []
    counts = [0, 0]  # actions sent, actions accepted
    # the hosts start their tables
    for seat_tokens in tokens:
        async with connect(ws_url) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": seat_tokens[0]}))
            await ws.send(json.dumps({"type": "start"}))
            while json.loads(await ws.recv())["type"] != "ok":
                pass
    # every seat connects and says hello; then the clock starts
    clock = _Clock(4 * tables)
    seats = asyncio.gather(*(_seat(ws_url, tok, think, clock, latencies, counts, t * 4 + i)
                             for t, seat_tokens in enumerate(tokens) for i, tok in enumerate(seat_tokens)))
    await clock.all_ready.wait()
    await asyncio.sleep(0.5)  # the last states of the hellos go out
    if profiling:
        os.kill(pid, signal.SIGUSR1)
    committed_start = _committed(db)
    start = time.monotonic()
    cpu_start = _cpu_seconds(pid)
    client_start = time.process_time()
    clock.stop_at = start + seconds
    clock.go.set()
    await seats
    elapsed = time.monotonic() - start
    cpu_end = _cpu_seconds(pid)
    client_cpu = time.process_time() - client_start
    committed = _committed(db) - committed_start
    if profiling:
        os.kill(pid, signal.SIGUSR2)
    user, system = cpu_end[0] - cpu_start[0], cpu_end[1] - cpu_start[1]
    cpu = user + system
    lat = sorted(latencies)

    def q(p: float) -> float:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 1) if lat else float("nan")

    return {"tables": tables, "connections": 4 * tables, "seconds": round(elapsed, 1), "think": think,
            "actions": counts[0], "actions_per_s": round(counts[0] / elapsed, 1), "accepted": counts[1],
            "client_cpu_s": round(client_cpu, 2),
            "server_cpu_s": round(cpu, 2), "server_user_s": round(user, 2), "server_sys_s": round(system, 2),
            "committed": committed,
            "cpu_ms_per_action": round(1000 * cpu / committed, 3) if committed else float("nan"),
            "latency_ms": {"p50": q(0.50), "p90": q(0.90), "p99": q(0.99), "max": q(1.0),
                           "mean": round(1000 * statistics.fmean(lat), 1) if lat else float("nan")}}


_PROFILED = """
import cProfile, runpy, signal, sys, time
sys.argv = sys.argv[1:]
profiler = cProfile.Profile(time.thread_time)
signal.signal(signal.SIGUSR1, lambda *_: profiler.enable())   # the tables start playing
signal.signal(signal.SIGUSR2, lambda *_: profiler.disable())  # ... and stop
try:
    runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
finally:
    profiler.disable()
    profiler.dump_stats({out!r})
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=0.5, help="mean thinking time of a player (s)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--profile", metavar="FILE", help="run the server under cProfile, its stats to FILE")
    args = parser.parse_args()
    port = _free_port()
    folder = Path(tempfile.mkdtemp(prefix="shanghai-bench-"))
    # the profile counts the main thread's CPU time (not the wall time that a loaded machine inflates)
    # while the tables play
    profile = ["-c", _PROFILED.format(out=str(Path(args.profile).resolve()))] if args.profile else ["-m"]
    server = subprocess.Popen([sys.executable, *profile, "shanghai.cli", "serve", "--port", str(port), "--db",
                               f"sqlite:///{folder / 'bench.sqlite3'}", "--log-level", "warning"],
                              env=dict(os.environ, SHANGHAI_DATA_DIR=str(folder)))
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"{base}/api", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        result = asyncio.run(_run(base, args.tables, args.seconds, args.think, server.pid, bool(args.profile),
                                  folder / "bench.sqlite3"))
    finally:
        # uvicorn raises the signal again once it has stopped: SIGINT ends cProfile with an exception, so
        # that it still writes its stats
        server.send_signal(signal.SIGINT if args.profile else signal.SIGTERM)
        server.wait(30)
    if args.json:
        print(json.dumps(result))
    else:
        lat = result["latency_ms"]
        print(f"{result['tables']} tables, {result['connections']} WebSockets, {result['seconds']} s, think "
              f"{result['think']} s: {result['actions']} actions, {result['actions_per_s']} actions/s; latency "
              f"action sent -> state received: p50 {lat['p50']} ms, p90 {lat['p90']} ms, p99 {lat['p99']} ms, "
              f"max {lat['max']} ms; server CPU {result['server_cpu_s']} s (user "
              f"{result['server_user_s']}, system {result['server_sys_s']}) for {result['committed']} committed "
              f"actions ({result['accepted']} acknowledged in time): {result['cpu_ms_per_action']} ms each; "
              f"the clients' CPU {result['client_cpu_s']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
