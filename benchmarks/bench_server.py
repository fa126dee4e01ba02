"""Load on the game server: many tables of WebSocket players on loopback (a benchmark, not a test).

Starts ``shanghai serve`` (SQLite in a temporary folder), creates ``--tables`` tables of four seats,
connects four WebSocket clients to each (the measured time starts once all are connected), and plays
them, every client choosing among the legal actions the server listed (going down and laying off
first) after a thinking time drawn between 0.5 and 1.5 times ``--think`` seconds. Reports the actions
the server accepted per second and the latency from an action sent to the sender's next state.

    python benchmarks/bench_server.py --tables 50 --seconds 30 [--think 1.0] [--json] [--profile out.prof]

The default thinking time is the pause of the server's own computer players (``Settings.bot_pause``,
1 s): the load of that many tables of computer players. ``--think 0.5`` plays twice as fast (a stress
figure; the README gives both).

It also reports the server process's CPU time while the tables play (Linux: ``/proc``; the event
loop's thread apart) divided by the actions it committed meanwhile (counted in its database): the
server's CPU per accepted action, and the clients' CPU (this process). On a shared machine the
latencies say more about the machine's load than the server's; the CPU per action is what to compare.

The clients share the machine with the server, so they are made to cost little: each is a few
callbacks on an asyncio protocol (websockets' sans-I/O protocol for the handshake and what they send,
the server's frames read here), without compression. Each still parses every message it receives and
chooses among the legal actions of the latest state it has when its thinking time is over.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
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
from typing import Any, cast

from websockets.asyncio.client import connect
from websockets.client import ClientProtocol
from websockets.http11 import Response
from websockets.protocol import State
from websockets.uri import WebSocketURI, parse_uri

from shanghai.server.tables import Settings


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


def _thread_cpu_seconds(pid: int) -> dict[int, float]:
    """Each thread's user + system CPU time (Linux), by thread id; empty elsewhere."""
    out = {}
    tick = os.sysconf("SC_CLK_TCK")
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError, ValueError):
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
                out[int(task.name)] = (int(fields[11]) + int(fields[12])) / tick
    return out


class _Clock:
    """Every seat connects and says hello first; the measured time starts once all have their state."""

    def __init__(self, seats: int) -> None:
        self.waiting = seats
        self.all_ready = asyncio.Event()
        self.seats: list[_Seat] = []
        self.stop_at = 0.0

    def ready(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.all_ready.set()

    def go(self, seconds: float) -> None:
        loop = asyncio.get_running_loop()
        self.stop_at = time.monotonic() + seconds
        for seat in self.seats:
            seat.go()
        loop.call_later(seconds, self.stop)

    def stop(self) -> None:
        for seat in self.seats:
            seat.stop()


class _Seat(asyncio.Protocol):
    """One player: a WebSocket client made of callbacks (websockets' sans-I/O protocol under an asyncio
    protocol, no task per connection or per message, no compression), so that the clients, which
    share the machine with the server, cost little. It reads every message, parses every state, and
    when the state says it is to act, chooses among the legal actions listed after its thinking time,
    from the latest state it has by then."""

    def __init__(self, uri: WebSocketURI, token: str, think: float, clock: _Clock, latencies: list[float],
                 counts: list[int], seed: int) -> None:
        self.ws = ClientProtocol(uri, max_size=2**22)
        self.token, self.think, self.clock, self.latencies, self.counts = token, think, clock, latencies, counts
        self.rng = random.Random(seed)
        self.transport: asyncio.Transport | None = None
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.latest: dict[str, Any] | None = None   # the latest state
        self.started = False                         # the clock runs
        self.sent_at: float | None = None
        self.acted = -1                              # the version this seat last acted on
        self.timer: asyncio.TimerHandle | None = None
        self.parts: list[bytes] = []                 # a fragmented message's frames
        self.open = False                            # the handshake is done
        self.buf = b""                               # the start of a frame not yet all received

    # -- the connection ----------------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        self.ws.send_request(self.ws.connect())
        self._write()

    def connection_lost(self, exc: Exception | None) -> None:
        self._finish()

    def data_received(self, data: bytes) -> None:
        if self.open:
            self._frames(data)
            return
        self.ws.receive_data(data)  # the handshake: websockets' protocol reads the response
        for event in self.ws.events_received():
            if isinstance(event, Response):
                if event.status_code != 101:
                    self._finish(RuntimeError(f"the WebSocket handshake failed: {event.status_code}"))
                    return
                self.open = True
                self._send({"type": "hello", "protocol": 1, "token": self.token})
        self._write()

    def _frames(self, data: bytes) -> None:
        """Read the server's frames (unmasked; RFC 6455 5.2) here: lighter than websockets' parser for
        the many state messages. Text (and continuation) frames make messages, a ping is answered,
        a close ends the connection."""
        buf = self.buf + data if self.buf else data
        pos, n = 0, len(buf)
        while n - pos >= 2:
            b0, length = buf[pos], buf[pos + 1]
            if length & 0x80:
                raise RuntimeError("a masked frame from the server")
            head = 2
            if length == 126:
                if n - pos < 4:
                    break
                length, head = int.from_bytes(buf[pos + 2:pos + 4], "big"), 4
            elif length == 127:
                if n - pos < 10:
                    break
                length, head = int.from_bytes(buf[pos + 2:pos + 10], "big"), 10
            end = pos + head + length
            if end > n:
                break
            payload = buf[pos + head:end]
            pos = end
            opcode = b0 & 0x0F
            if opcode in (0x1, 0x0):  # text, continuation
                self.parts.append(payload)
                if b0 & 0x80:
                    raw = self.parts[0] if len(self.parts) == 1 else b"".join(self.parts)
                    self.parts = []
                    self.on_message(json.loads(raw.decode()))
            elif opcode == 0x9:  # ping
                self.ws.send_pong(payload)
                self._write()
            elif opcode == 0x8:  # close
                self._finish()
                return
        self.buf = buf[pos:]

    def _write(self) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        for data in self.ws.data_to_send():
            if data:
                self.transport.write(data)

    def _send(self, msg: dict[str, Any]) -> None:
        if self.ws.state is State.OPEN:
            self.ws.send_text(json.dumps(msg).encode())
            self._write()

    def _finish(self, exc: BaseException | None = None) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.transport is not None and not self.transport.is_closing():
            if self.ws.state is State.OPEN:
                self.ws.send_close()
                self._write()
            self.transport.close()
        if not self.done.done():
            if exc is None:
                self.done.set_result(None)
            else:
                self.done.set_exception(exc)

    # -- the player --------------------------------------------------------------------------------
    def go(self) -> None:
        self.started = True
        if self.latest is not None:
            self._consider(self.latest)

    def stop(self) -> None:
        self._finish()

    def on_message(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if not self.started:
            if kind == "state" and self.latest is None:
                self.latest = msg
                self.clock.ready()
            elif kind == "state":
                self.latest = msg
            return
        if self.done.done():
            return
        if kind == "accepted":
            self.counts[1] += 1
        if kind != "state" or msg["game"] is None:
            if kind == "error":
                self.sent_at, self.acted = None, -1
            return
        self.latest = msg
        if self.sent_at is not None and msg["version"] > self.acted:
            self.latencies.append(time.monotonic() - self.sent_at)
            self.sent_at = None
        self._consider(msg)

    def _consider(self, msg: dict[str, Any]) -> None:
        if msg["game"] is None:
            return
        if msg["game"]["phase"] == "game-over":
            self._finish()
            return
        if self.timer is None and msg["you"] in msg["game"]["to_act"] and msg["version"] != self.acted:
            if self.think:
                self.timer = asyncio.get_running_loop().call_later(self.rng.uniform(0.5, 1.5) * self.think,
                                                                   self._act)
            else:
                self._act()

    def _act(self) -> None:
        """After thinking: act on the latest state (others may have acted meanwhile)."""
        self.timer = None
        msg = self.latest
        if msg is None or self.done.done() or msg["game"] is None:
            return
        if msg["you"] not in msg["game"]["to_act"] or msg["version"] == self.acted:
            return
        pick = _pick(msg, self.rng)
        if pick is None:
            return
        self.acted = msg["version"]
        self.sent_at = time.monotonic()
        self._send({"type": "action", "version": msg["version"], "action": pick["text"]})
        self.counts[0] += 1


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
        async with connect(ws_url, compression=None) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": seat_tokens[0]}))
            await ws.send(json.dumps({"type": "start"}))
            while json.loads(await ws.recv())["type"] != "ok":
                pass
    # every seat connects and says hello; then the clock starts
    clock = _Clock(4 * tables)
    uri = parse_uri(ws_url)
    loop = asyncio.get_running_loop()
    opening = asyncio.Semaphore(100)

    async def open_seat(token: str, seed: int) -> None:
        async with opening:
            _, seat = await loop.create_connection(
                lambda: _Seat(uri, token, think, clock, latencies, counts, seed), uri.host, uri.port)
        clock.seats.append(seat)

    await asyncio.gather(*(open_seat(tok, t * 4 + i) for t, seat_tokens in enumerate(tokens)
                           for i, tok in enumerate(seat_tokens)))
    await clock.all_ready.wait()
    await asyncio.sleep(0.5)  # the last states of the hellos go out
    if profiling:
        os.kill(pid, signal.SIGUSR1)
    committed_start = _committed(db)
    start = time.monotonic()
    cpu_start = _cpu_seconds(pid)
    threads_start = _thread_cpu_seconds(pid)
    client_start = time.process_time()
    # the clients' collector would go through every seat's latest state again and again (and pause
    # them all meanwhile): their objects are freed by their reference counts
    gc.disable()
    clock.go(seconds)
    try:
        await asyncio.gather(*(seat.done for seat in clock.seats))
    finally:
        gc.enable()
    elapsed = time.monotonic() - start
    cpu_end = _cpu_seconds(pid)
    threads_end = _thread_cpu_seconds(pid)
    client_cpu = time.process_time() - client_start
    committed = _committed(db) - committed_start
    if profiling:
        os.kill(pid, signal.SIGUSR2)
    user, system = cpu_end[0] - cpu_start[0], cpu_end[1] - cpu_start[1]
    cpu = user + system
    # the event loop's thread against the others (the database's commits, the computer players)
    main_cpu = threads_end.get(pid, float("nan")) - threads_start.get(pid, 0.0)
    lat = sorted(latencies)

    def q(p: float) -> float:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 1) if lat else float("nan")

    return {"tables": tables, "connections": 4 * tables, "seconds": round(elapsed, 1), "think": think,
            "actions": counts[0], "actions_per_s": round(counts[0] / elapsed, 1), "accepted": counts[1],
            "client_cpu_s": round(client_cpu, 2),
            "server_cpu_s": round(cpu, 2), "server_user_s": round(user, 2), "server_sys_s": round(system, 2),
            "server_loop_cpu_s": round(main_cpu, 2),
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
    parser.add_argument("--think", type=float, default=Settings().bot_pause,
                        help="mean thinking time of a player (s; default: the server's computer players' pause)")
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
              f"{result['server_user_s']}, system {result['server_sys_s']}; event loop {result['server_loop_cpu_s']}) "
              f"for {result['committed']} committed "
              f"actions ({result['accepted']} acknowledged in time): {result['cpu_ms_per_action']} ms each; "
              f"the clients' CPU {result['client_cpu_s']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
