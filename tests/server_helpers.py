"""A real ``shanghai serve`` process on a free loopback port, shared by the server and browser tests."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from shanghai.engine.game import Game
from shanghai.server.storage import Storage

Json = dict[str, Any]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A real ``shanghai serve`` process."""

    def __init__(self, tmp_path: Path, *, bot_pause: float = 0.0, buy_seconds: float = 30.0,
                 standin_seconds: float = 30.0, db_url: str | None = None, static: Path | None = None,
                 review_deals: int | None = None, take_back_seconds: float = 0.0,
                 idle_seconds: float = 120.0) -> None:
        self.tmp_path = tmp_path
        self.db_url = db_url or f"sqlite:///{tmp_path / 'server.sqlite3'}"
        self.args = ["--bot-pause", str(bot_pause), "--buy-seconds", str(buy_seconds),
                     "--standin-seconds", str(standin_seconds), "--take-back-seconds", str(take_back_seconds),
                     "--idle-seconds", str(idle_seconds)]
        self.args += ["--static", str(static)] if static else []
        self.args += ["--review-deals", str(review_deals)] if review_deals is not None else []
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = 0
        self.starts = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> None:
        self.port = _free_port()
        self.starts += 1
        log = open(self.tmp_path / f"server-{self.starts}.log", "wb")  # noqa: SIM115
        env = dict(os.environ, SHANGHAI_DATA_DIR=str(self.tmp_path / "data"), PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "shanghai.cli", "serve", "--port", str(self.port), "--db", self.db_url,
             "--log-level", "warning", *self.args], stdout=log, stderr=subprocess.STDOUT, env=env)
        log.close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited: {self.log()}")
            try:
                self.http("GET", "/api")
                return
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"the server did not start: {self.log()}")

    def log(self) -> str:
        return "".join((self.tmp_path / f"server-{i}.log").read_text(errors="replace")
                       for i in range(1, self.starts + 1))

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None

    def http(self, method: str, path: str, body: object = None, raw: bytes | None = None) -> tuple[int, Json]:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def create(self, **body: Any) -> Json:
        status, out = self.http("POST", "/api/tables", {"name": "Ann", **body})
        assert status == 200, out
        return out

    def join(self, invite: str, name: str) -> Json:
        status, out = self.http("POST", f"/api/invite/{invite}/join", {"name": name})
        assert status == 200, out
        return out

    def record_game(self, table: str) -> tuple[Any, Game]:
        storage = Storage(self.db_url)
        try:
            row = storage.load(table)
            assert row is not None
            record = row.record()
        finally:
            storage.close()
        return record, record.replay()


def servers(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """The body of the ``server`` fixture of the server and browser tests: yields a function that
    starts a ``Server`` (its keyword arguments passed on), and stops every server it started."""
    made: list[Server] = []

    def make(**kwargs: Any) -> Server:
        s = Server(tmp_path, **kwargs)
        made.append(s)
        s.start()
        return s

    yield make
    for s in made:
        s.stop()
