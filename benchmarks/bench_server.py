"""Load on the game server: many tables of WebSocket players on loopback (a benchmark, not a test).

Starts ``shanghai serve`` (SQLite in a temporary folder), creates ``--tables`` tables of four seats,
and plays them with four WebSocket clients each, every client choosing among the legal actions the
server listed (going down and laying off first) after ``--think`` seconds. Reports the actions the
server accepted per second and the latency from an action sent to the sender's next state.

    python benchmarks/bench_server.py --tables 50 --seconds 30 [--think 0.5] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
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


async def _seat(url: str, token: str, think: float, stop_at: float, latencies: list[float],
                counts: list[int], seed: int) -> None:
    rng = random.Random(seed)
    async with connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
        sent_at: float | None = None
        acted = -1
        while time.monotonic() < stop_at:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.01, stop_at - time.monotonic()))
            except TimeoutError:
                break
            msg = json.loads(raw)
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


async def _run(base: str, tables: int, seconds: float, think: float) -> dict[str, Any]:
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
    counts = [0]
    # the hosts start their tables
    for seat_tokens in tokens:
        async with connect(ws_url) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": seat_tokens[0]}))
            await ws.send(json.dumps({"type": "start"}))
            while json.loads(await ws.recv())["type"] != "ok":
                pass
    start = time.monotonic()
    stop_at = start + seconds
    await asyncio.gather(*(_seat(ws_url, tok, think, stop_at, latencies, counts, t * 4 + i)
                           for t, seat_tokens in enumerate(tokens) for i, tok in enumerate(seat_tokens)))
    elapsed = time.monotonic() - start
    lat = sorted(latencies)

    def q(p: float) -> float:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 1) if lat else float("nan")

    return {"tables": tables, "connections": 4 * tables, "seconds": round(elapsed, 1), "think": think,
            "actions": counts[0], "actions_per_s": round(counts[0] / elapsed, 1),
            "latency_ms": {"p50": q(0.50), "p90": q(0.90), "p99": q(0.99), "max": q(1.0),
                           "mean": round(1000 * statistics.fmean(lat), 1) if lat else float("nan")}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=0.5, help="mean thinking time of a player (s)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    port = _free_port()
    folder = Path(tempfile.mkdtemp(prefix="shanghai-bench-"))
    server = subprocess.Popen([sys.executable, "-m", "shanghai.cli", "serve", "--port", str(port), "--db",
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
        result = asyncio.run(_run(base, args.tables, args.seconds, args.think))
    finally:
        server.terminate()
        server.wait(30)
    if args.json:
        print(json.dumps(result))
    else:
        lat = result["latency_ms"]
        print(f"{result['tables']} tables, {result['connections']} WebSockets, {result['seconds']} s, think "
              f"{result['think']} s: {result['actions']} actions, {result['actions_per_s']} actions/s; latency "
              f"action sent -> state received: p50 {lat['p50']} ms, p90 {lat['p90']} ms, p99 {lat['p99']} ms, "
              f"max {lat['max']} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
