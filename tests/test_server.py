"""The multiplayer server, for real: a uvicorn process on a loopback port, WebSocket clients, SQLite.

Each test starts its own server (``python -m shanghai.cli serve``) on a free port with a database
file in ``tmp_path`` and stops it itself (or kills it with SIGKILL, and starts it again).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

websockets = pytest.importorskip("websockets")
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402

from server_helpers import Server, _free_port, servers  # noqa: E402
from shanghai.bots.coach import review, review_summary  # noqa: E402
from shanghai.cards import card_text  # noqa: E402
from shanghai.engine.game import Game  # noqa: E402
from shanghai.engine.record import GameRecord  # noqa: E402
from shanghai.engine.view import view  # noqa: E402
from shanghai.scorepad.played import pad_of_game  # noqa: E402
from shanghai.scorepad.stats import RECENT, stats_of  # noqa: E402
from shanghai.server.protocol import RATE_PER_SECOND, view_to_json  # noqa: E402

Json = dict[str, Any]

STATE_KEYS = {"type", "protocol", "version", "you", "host", "table", "game", "legal", "deadline", "waiting"}
WAITING_KEYS = {"seat", "since", "standin_at", "nudge_at"}
VIEW_KEYS = {"seat", "players", "rules_name", "round_number", "rounds", "contract", "dealer", "phase", "turn",
             "to_act", "hand", "hand_counts", "down", "buys_used", "buy_limit", "table", "discard_top",
             "discard_live", "discard_size", "stock_size", "pending_wild", "buy_window", "buy_claimant",
             "shanghai_card", "cut", "totals", "round_results", "history"}
SEAT_KEYS = {"seat", "kind", "level", "name", "open", "connected", "standin"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    yield from servers(tmp_path)


def _postgres_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    for folder in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (folder / name).exists():
            return str(folder / name)
    return None


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL server (initdb + pg_ctl in a temporary folder) for the storage tests."""
    initdb, pg_ctl = _postgres_bin("initdb"), _postgres_bin("pg_ctl")
    if initdb is None or pg_ctl is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    pytest.importorskip("psycopg")
    folder = Path(tempfile.mkdtemp(prefix="shanghai-pg-"))
    prefix: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        prefix = ["runuser", "-u", "postgres", "--"]
        shutil.chown(folder, "postgres")
    data = folder / "data"
    port = _free_port()
    try:
        subprocess.run([*prefix, initdb, "-D", str(data), "-U", "shanghai", "--auth=trust", "-E", "UTF8"],
                       check=True, capture_output=True, timeout=120)
        subprocess.run([*prefix, pg_ctl, "-D", str(data), "-l", str(folder / "log"), "-w", "-t", "60", "-o",
                        f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=on", "start"],
                       check=True, capture_output=True, timeout=90)
        yield f"postgresql+psycopg://shanghai@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*prefix, pg_ctl, "-D", str(data), "-m", "immediate", "stop"], capture_output=True,
                       timeout=60)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'server.sqlite3'}"
    return str(request.getfixturevalue("postgres_url"))


class Client:
    """A WebSocket client that keeps every message it receives."""

    wait_seconds = 15.0      # the default wait for a message
    request_seconds = 10.0   # the default wait for the answer to a request

    def __init__(self, ws: ClientConnection, name: str) -> None:
        self.ws = ws
        self.name = name
        self.messages: list[Json] = []
        self.arrived = asyncio.Event()
        self.reader = asyncio.get_running_loop().create_task(self._read())
        self.seat: int | None = None
        self.closed_code: int | None = None

    @classmethod
    async def open(cls, server: Server, name: str, hello: Json | None = None, protocol: int = 1) -> Client:
        ws = await connect(server.ws_url, max_size=2**22)
        client = cls(ws, name)
        if hello is not None:
            await client.send({"type": "hello", "protocol": protocol, **hello})
            welcome = await client.wait(lambda m: m["type"] in ("welcome", "error"))
            assert welcome["type"] == "welcome", welcome
            client.seat = welcome["seat"]
            if welcome["role"] == "player":
                await client.wait(lambda m: m["type"] == "state")
        return client

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                self.messages.append(json.loads(raw))
                self.arrived.set()
        except websockets.ConnectionClosed as exc:
            self.closed_code = exc.rcvd.code if exc.rcvd else None
        finally:
            if self.closed_code is None and self.ws.close_code is not None:
                self.closed_code = self.ws.close_code
            self.arrived.set()

    async def send(self, msg: Json | str) -> None:
        await self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    async def wait(self, pred: Callable[[Json], bool], timeout: float | None = None, start: int = 0) -> Json:
        deadline = time.monotonic() + (self.wait_seconds if timeout is None else timeout)
        seen = start
        while True:
            while seen < len(self.messages):
                m = self.messages[seen]
                seen += 1
                if pred(m):
                    return m
            left = deadline - time.monotonic()
            if left <= 0 or self.reader.done():
                raise AssertionError(f"{self.name}: no such message; last: {self.messages[-3:]}")
            self.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), left)

    async def request(self, msg: Json, timeout: float | None = None) -> Json:
        """Send ``msg`` with an id; the answer to it (``ref`` = the id, or an error without one)."""
        ref = f"r{random.randrange(10**9)}"
        start = len(self.messages)
        await self.send({**msg, "id": ref})
        return await self.wait(lambda m: m.get("ref") == ref or (m["type"] == "error" and "ref" not in m),
                               self.request_seconds if timeout is None else timeout, start)

    def state(self) -> Json:
        return next(m for m in reversed(self.messages) if m["type"] == "state")

    def states(self) -> list[Json]:
        return [m for m in self.messages if m["type"] == "state"]

    async def close(self) -> None:
        await self.ws.close()
        with contextlib.suppress(Exception):
            await self.reader


def choose(state: Json, rng: random.Random) -> Json | None:
    """A plain strategy over the legal actions the server listed: go down, lay off, keep pairs."""
    legal = state["legal"]
    if not legal:
        return None
    game = state["game"]
    by_verb: dict[str, list[Json]] = {}
    for item in legal:
        by_verb.setdefault(item["action"]["verb"], []).append(item)
    for verb in ("down", "layoff"):
        if verb in by_verb:
            return by_verb[verb][0]
    if "cut" in by_verb:
        return rng.choice(by_verb["cut"])
    ranks = Counter(c[:-1] for c in game["hand"] if c != "JK")
    top = game["discard_top"]
    wants_top = top is not None and (top == "JK" or ranks[top[:-1]] >= 1)
    if "buy" in by_verb or ("pass" in by_verb and "draw" not in by_verb and "discard" not in by_verb):
        if "buy" in by_verb and wants_top and rng.random() < 0.5:
            return by_verb["buy"][0]
        return by_verb["pass"][0]
    if "draw" in by_verb:
        return by_verb["take"][0] if "take" in by_verb and wants_top else by_verb["draw"][0]
    discards = [d for d in by_verb.get("discard", []) if not d["action"].get("shanghai")]
    if discards:
        def keep(d: Json) -> tuple[int, float]:
            card = d["action"]["card"]
            return (9 if card == "JK" else ranks[card[:-1]], rng.random())
        return min(discards, key=keep)
    return legal[0]


async def play_until(clients: list[Client], done: Callable[[], bool], rng: random.Random,
                     timeout: float = 60.0, tolerated: tuple[str, ...] = ("stale",)) -> int:
    """Each client acts on its latest state when its seat may act, until ``done()``; the number sent."""
    acted: dict[int, int] = {}
    first = {id(c): len(c.messages) for c in clients}
    # Each client keeps under the server's rate limit (protocol.RATE_PER_SECOND), as a person does:
    # the server got fast enough for a scripted client to outrun it.
    recent: dict[int, list[float]] = {id(c): [] for c in clients}
    sent = 0
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the game did not get there in time"
        for c in clients:
            assert c.seat is not None
            errors = [m for m in c.messages[first[id(c)]:] if m["type"] == "error"]
            if any(m.get("code") not in tolerated for m in errors):
                raise AssertionError(f"{c.name}: {errors}")
            if c.messages and c.messages[-1]["type"] == "error":
                acted.pop(c.seat, None)  # a stale (or late) answer: act again on the latest state
            st = c.state()
            if st["game"] is None or c.seat not in st["game"]["to_act"] or acted.get(c.seat) == st["version"]:
                continue
            now = time.monotonic()
            recent[id(c)] = [t for t in recent[id(c)] if now - t < 1.0]
            if len(recent[id(c)]) >= RATE_PER_SECOND * 0.75:
                continue
            pick = choose(st, rng)
            if pick is None:
                continue
            recent[id(c)].append(now)
            acted[c.seat] = st["version"]
            as_text = rng.random() < 0.5
            await c.send({"type": "action", "version": st["version"],
                          "action": pick["text"] if as_text else pick["action"]})
            sent += 1
        await asyncio.sleep(0.005)
    return sent


def hands_by_version(game_record: Any) -> list[list[list[str]]]:
    """The true hands after each number of actions, from the record in the database."""
    first = Game.new(game_record.rules, len(game_record.players), game_record.seed)
    out = [[sorted(card_text(c) for c in h) for h in first.hands]]

    def each(game: Game, _i: int, _a: object) -> None:
        out.append([sorted(card_text(c) for c in h) for h in game.hands])

    game_record.replay(each=each)
    return out


def action_cards(action: Json) -> list[str]:
    if action["verb"] == "down":
        return [c for m in action["melds"] for c in m["cards"]]
    return [action["card"]] if "card" in action else []


def assert_private(msg: Json, seat: int | None, hands: list[list[list[str]]], tokens: list[str]) -> None:
    """A state message holds public fields, and the hand and legal actions of its own seat only."""
    text = json.dumps(msg)
    for token in tokens:
        assert token not in text, "a seat token was sent to a client"
    assert set(msg) == STATE_KEYS, set(msg) ^ STATE_KEYS
    for s in msg["table"]["seats"]:
        assert set(s) == SEAT_KEYS
    game = msg["game"]
    if game is None:
        return
    assert set(game) == VIEW_KEYS, set(game) ^ VIEW_KEYS
    assert "stock" not in game and "hands" not in game
    waiting = msg["waiting"]
    if waiting is not None:  # a person's turn (never a buy window's, which has its deadline)
        assert set(waiting) == WAITING_KEYS and waiting["seat"] in game["to_act"] and msg["deadline"] is None
    over = game["phase"] == "game-over"
    if seat is None or over:
        assert game["hand"] == [] and msg["legal"] == []
    else:
        true_hands = hands[msg["version"]]
        assert sorted(game["hand"]) == true_hands[seat], (msg["version"], seat)
        own = Counter(game["hand"])
        if game["pending_wild"]:
            own[game["pending_wild"]] += 1
        for item in msg["legal"]:
            assert not Counter(action_cards(item["action"])) - own, item
        for other, hand in enumerate(true_hands):
            if other != seat and hand:
                # what this seat was shown in private is its own hand, never another's
                assert not Counter(game["hand"]) - Counter(true_hands[seat])
    assert len(game["round_results"]) == game["round_number"] - 1 or over
    assert game["hand_counts"] == [len(h) for h in hands[msg["version"]]] or over


# -- the tests ---------------------------------------------------------------------------------------

def test_four_people_play_a_whole_round_and_see_only_their_own_hands(server: Callable[..., Server]) -> None:
    srv = server(buy_seconds=20.0)
    created = srv.create(name="Ann", rules="isra", seats=["human"] * 4, seed=11)
    tokens = [created["token"]] + [srv.join(created["invite"], n)["token"] for n in ("Bob", "Cy", "Di")]

    async def go() -> tuple[list[Client], Client]:
        clients = [await Client.open(srv, f"seat {i}", {"token": t}) for i, t in enumerate(tokens)]
        watcher = await Client.open(srv, "watcher", {"invite": created["invite"]})
        assert [c.seat for c in clients] == [0, 1, 2, 3]
        assert (await clients[0].request({"type": "start"}))["type"] != "error"
        await clients[1].wait(lambda m: m["type"] == "state" and m["game"] is not None)

        def round_over() -> bool:
            return bool(clients[0].state()["game"] and clients[0].state()["game"]["round_results"])

        sent = await play_until(clients, round_over, random.Random(5), timeout=90)
        assert sent > 20
        await asyncio.sleep(0.2)
        for c in [*clients, watcher]:
            await c.close()
        return clients, watcher

    clients, watcher = asyncio.run(go())
    record, game = srv.record_game(created["table"])
    assert len(game.round_results) >= 1 and record.players == ["Ann", "Bob", "Cy", "Di"]
    hands = hands_by_version(record)
    checked = 0
    for c in clients:
        for msg in c.states():
            assert_private(msg, c.seat, hands, tokens)
            checked += 1
        # every accepted action of this seat is in the record, in the order accepted
        accepted = [m["action"] for m in c.messages if m["type"] == "accepted"]
        mine = [a for a in record.actions if a.split()[0] == str(c.seat)]
        assert accepted == mine[:len(accepted)]
    watched = watcher.states()
    assert watched and all(m["you"] is None for m in watched)
    for msg in watched:
        assert_private(msg, None, hands, tokens)
    assert checked > 100
    # the round's result: every seat was told the same points
    results = [c.state()["game"]["round_results"][0]["points"] for c in clients]
    assert results.count(results[0]) == 4 and results[0] == list(game.round_results[0].points)


def test_bad_messages_are_refused_to_their_sender_and_change_nothing(server: Callable[..., Server]) -> None:
    srv = server()
    created = srv.create(name="Ann", rules="isra", seats=["human"] * 4, seed=3)
    tokens = [created["token"]] + [srv.join(created["invite"], n)["token"] for n in ("Bob", "Cy", "Di")]

    async def go() -> None:
        clients = [await Client.open(srv, f"seat {i}", {"token": t}) for i, t in enumerate(tokens)]
        # before the game: an action, and lobby commands from somebody who is not the host
        assert (await clients[1].request({"type": "action", "version": 0, "action": "draw"}))["code"] == "not-started"
        assert (await clients[1].request({"type": "start"}))["code"] == "not-host"
        await clients[0].request({"type": "start"})
        for c in clients:
            await c.wait(lambda m: m["type"] == "state" and m["game"] is not None)
        st = clients[0].state()
        cutter = st["game"]["to_act"][0]
        other = (cutter + 1) % 4
        cut, them = clients[cutter], clients[other]
        v = st["version"]
        assert v == 0 and st["game"]["phase"] == "cut"
        before = [len(c.messages) for c in clients]

        async def refused(client: Client, payload: Json | str, code: str) -> None:
            if isinstance(payload, str):
                start = len(client.messages)
                await client.send(payload)
                answer = await client.wait(lambda m: m["type"] == "error", start=start)
            else:
                answer = await client.request(payload)
            assert answer["type"] == "error" and answer["code"] == code, (payload, answer)

        await refused(cut, "{not json", "bad-json")
        # numbers Python will not read, NaN, nesting too deep: refused, and the connection stays
        for text in ('{"type": "ping", "id": ' + "9" * 5000 + "}", '{"type": "ping", "id": NaN}',
                     '{"type": "ping", "id": ' + "[" * 3000 + "]" * 3000 + "}"):
            await refused(cut, text, "bad-json")
        await refused(cut, json.dumps([1, 2]), "bad-message")
        await refused(cut, {"type": "teleport"}, "unknown-type")
        await refused(cut, json.dumps({"type": "ping", "pad": "x" * 20_000}), "too-large")
        await refused(cut, {"type": "action", "version": v, "action": "discard 7H"}, "illegal")
        await refused(cut, {"type": "action", "version": v, "action": {"verb": "fly"}}, "bad-action")
        await refused(cut, {"type": "action", "version": v, "action": "cut banana"}, "bad-action")
        await refused(cut, {"type": "action", "action": "cut 40"}, "no-version")
        await refused(cut, {"type": "action", "version": v + 5, "action": "cut 40"}, "stale")
        await refused(cut, {"type": "action", "version": v, "action": f"{other} cut 40"}, "not-your-seat")
        await refused(them, {"type": "action", "version": v, "action": "cut 40"}, "not-your-turn")
        await refused(cut, {"type": "hello", "token": tokens[0]}, "already-joined")
        await refused(them, {"type": "remove_seat", "seat": 2}, "not-host")
        await asyncio.sleep(0.3)
        # nobody else heard of any of it, and the game did not move
        for i, c in enumerate(clients):
            if c not in (cut, them):
                assert len(c.messages) == before[i], c.messages[before[i]:]
            assert all(m["type"] == "error" for m in c.messages[before[i]:])
        # a good action after all that is accepted and everybody hears of it
        ok = await cut.request({"type": "action", "version": v, "action": {"verb": "cut", "target": 40}})
        assert ok["type"] == "accepted" and ok["version"] == 1
        for c in clients:
            await c.wait(lambda m: m["type"] == "state" and m["version"] == 1)
        # the same message again is stale now: a double click does nothing
        assert (await cut.request({"type": "action", "version": v, "action": "cut 40"}))["code"] == "stale"
        st = clients[0].state()
        turn = st["game"]["turn"]
        assert (await clients[turn].request({"type": "action", "version": 0, "action": "draw"}))["code"] == "stale"
        # a spectator can only watch
        watcher = await Client.open(srv, "watcher", {"invite": created["invite"]})
        assert (await watcher.request({"type": "action", "version": 1, "action": "0 draw"}))["code"] == "spectator"
        assert watcher.state()["game"]["hand"] == [] and watcher.state()["legal"] == []
        # the coach's hint is one of the seat's legal actions (when the coach is installed)
        hint = await clients[turn].request({"type": "hint"}, timeout=30)
        if hint["type"] == "hint":
            assert hint["text"] in {a["text"] for a in clients[turn].state()["legal"]} and hint["reason"]
        else:
            assert hint["code"] == "no-hint", hint
        assert (await clients[(turn + 1) % 4].request({"type": "hint"}))["code"] == "not-your-turn"
        # a flood of messages is refused over the rate, and the connection stays usable
        for _ in range(80):
            await them.send({"type": "ping"})
        await them.wait(lambda m: m.get("code") == "rate-limited")
        await asyncio.sleep(1.5)
        assert (await them.request({"type": "ping"}))["type"] == "pong"
        # a connection must say hello first, in a protocol the server speaks, with a real token
        stranger = await Client.open(srv, "stranger", None)
        for payload, code in (({"type": "action", "version": 1, "action": "draw"}, "hello-first"),
                              ({"type": "hello", "protocol": 99, "token": tokens[0]}, "protocol"),
                              ({"type": "hello", "token": "x" * 32}, "bad-token"),
                              ({"type": "hello", "invite": "nope"}, "not-found"),
                              ({"type": "hello"}, "bad-hello")):
            assert (await stranger.request(payload))["code"] == code, payload
        await stranger.close()
        # a frame beyond the WebSocket limit closes only that connection
        big = await Client.open(srv, "big", {"token": tokens[other]})
        with contextlib.suppress(websockets.ConnectionClosed):
            await big.send("x" * 100_000)
        await asyncio.wait_for(big.reader, 10)
        assert (await clients[0].request({"type": "ping"}))["type"] == "pong"
        for c in [*clients, watcher]:
            await c.close()

    asyncio.run(go())
    record, game = srv.record_game(created["table"])
    assert record.actions == [f"{game.actions[0].seat} cut 40"]
    # names are checked
    for bad in ("", "x" * 25, "<b>Bob</b>", "Ann\x00", 7):
        status, out = srv.http("POST", f"/api/invite/{created['invite']}/join", {"name": bad})
        assert status == 400 and out["error"] == "bad-name", (bad, out)
    status, out = srv.http("POST", f"/api/invite/{created['invite']}/join", {"name": "Eve"})
    assert status == 409 and out["error"] == "table-full"
    status, out = srv.http("POST", "/api/invite/nope/join", {"name": "Eve"})
    assert status == 404
    status, out = srv.http("GET", f"/api/invite/{created['invite']}/record")
    assert status == 409 and out["error"] == "not-over"
    status, out = srv.http("POST", "/api/tables", raw=b'{"name": "' + b"x" * 20_000 + b'"}')
    assert status == 413 and out["error"] == "too-large"
    status, out = srv.http("POST", "/api/tables", raw=b"{oops")
    assert status == 400 and out["error"] == "bad-json"
    for raw in (b'{"name": "Ann", "seed": ' + b"9" * 5000 + b"}", b'{"seeds": ' + b"[" * 3000 + b"]" * 3000 + b"}",
                b'{"name": "Ann", "seed": Infinity}', b'{"name": "\xff"}'):
        status, out = srv.http("POST", "/api/tables", raw=raw)
        assert status == 400 and out["error"] == "bad-json", (raw[:40], out)
    status, out = srv.http("POST", "/api/tables", {"name": "Ann", "rules": "poker"})
    assert status == 400 and out["error"] == "bad-rules"
    # a field the server does not know, seat 0 not the creator's, a buy that could never be made
    status, out = srv.http("POST", "/api/tables", {"name": "Ann", "bogus": 1})
    assert status == 400 and "unknown field 'bogus'" in out["message"]
    status, out = srv.http("POST", "/api/tables", {"name": "Ann", "seats": ["greedy", "greedy", "greedy"]})
    assert status == 400 and out["error"] == "bad-seats" and "creator" in out["message"]
    status, out = srv.http("POST", "/api/tables", {"name": "Ann", "rules": {"preset": "may-i",
                                                                          "changes": {"buy_penalty": 10**6}}})
    assert status == 400 and out["error"] == "bad-rules" and "no buy could ever be made" in out["message"]


def test_a_killed_server_resumes_every_game_exactly(server: Callable[..., Server], db_url: str) -> None:
    srv = server(bot_pause=0.01, buy_seconds=0.05, standin_seconds=0.0, db_url=db_url)
    created = srv.create(name="Ann", rules="isra", seats=["human", "greedy", "random", "greedy"], seed=21)
    token = created["token"]

    async def phase_one() -> tuple[int, Json]:
        ann = await Client.open(srv, "Ann", {"token": token})
        await ann.request({"type": "start"})
        await ann.close()  # Ann goes away: a computer player stands in at once (standin_seconds 0)
        watcher = await Client.open(srv, "watcher", {"invite": created["invite"]})
        await watcher.wait(lambda m: m["type"] == "state" and m["version"] >= 25, timeout=30)
        srv.kill()  # mid-round, while the computer players are playing
        await asyncio.wait_for(watcher.reader, 10)
        last = watcher.state()
        return last["version"], last

    last_version, last_seen = asyncio.run(phase_one())
    record, game = srv.record_game(created["table"])
    # nothing anybody was told is missing from the database
    assert len(record.actions) >= last_version
    # and what the watcher saw last is exactly the committed game at that version
    told = GameRecord(record.rules, record.seed, record.players, record.actions[:last_version]).replay()
    assert last_seen["game"] == view_to_json(view(told, None))

    srv.args = ["--bot-pause", "0", "--buy-seconds", "30", "--standin-seconds", "30"]
    srv.start()

    async def phase_two() -> None:
        ann = await Client.open(srv, "Ann", {"token": token})
        st = ann.state()
        assert st["you"] == 0 and st["table"]["status"] == "playing"
        # the game goes on from exactly the state that was committed (computer players may have played
        # on until it was Ann's turn)
        _, resumed = srv.record_game(created["table"])
        assert resumed.actions[:len(record.actions)] == game.actions
        await ann.wait(lambda m: m["type"] == "state" and 0 in m["game"]["to_act"], timeout=20)
        await asyncio.sleep(0.3)
        st = ann.state()
        record2, game2 = srv.record_game(created["table"])
        assert st["version"] == len(record2.actions)
        assert sorted(st["game"]["hand"]) == sorted(card_text(c) for c in game2.hands[0])
        pick = choose(st, random.Random(1))
        assert pick is not None
        ok = await ann.request({"type": "action", "version": st["version"], "action": pick["text"]})
        assert ok["type"] == "accepted", ok
        await ann.close()

    asyncio.run(phase_two())
    srv.stop()
    # a clean stop and a third start: the same game, one action further
    srv.start()
    _, game3 = srv.record_game(created["table"])
    assert len(game3.actions) > len(game.actions)


def test_computer_players_fill_seats_and_stand_in_for_an_absent_person(server: Callable[..., Server]) -> None:
    srv = server(bot_pause=0.0, buy_seconds=1.0, standin_seconds=0.4)
    late = ("stale", "not-your-turn")  # an answer that reaches the server after its buy window closed
    created = srv.create(name="Ann", rules="may-i", seats=["human", "human", "human", "human"], seed=8)
    # a seat asked for must be a seat of the table (400 bad-seat) and open (409 seat-taken)
    for want, status, code in ((True, 400, "bad-seat"), ("1", 400, "bad-seat"), (1.0, 400, "bad-seat"),
                               (4, 400, "bad-seat"), (-1, 400, "bad-seat"), (0, 409, "seat-taken")):
        got, out = srv.http("POST", f"/api/invite/{created['invite']}/join", {"name": "Eve", "seat": want})
        assert (got, out["error"]) == (status, code), (want, out)
    bob = srv.join(created["invite"], "Bob")
    assert bob["seat"] == 1

    async def go() -> None:
        ann = await Client.open(srv, "Ann", {"token": created["token"]})
        b = await Client.open(srv, "Bob", {"token": bob["token"]})
        # the host changes the lobby: a computer player in seat 2, seat 3 removed, then added back
        for want, code in ((True, "bad-seat"), (7, "bad-seat"), (1, "seat-taken")):
            answer = await ann.request({"type": "add_bot", "level": "random", "seat": want})
            assert answer["code"] == code, (want, answer)
        assert (await ann.request({"type": "add_bot", "level": "random", "seat": 2}))["type"] == "ok"
        assert (await ann.request({"type": "remove_seat", "seat": 3}))["type"] == "ok"
        assert len(ann.state()["table"]["seats"]) == 3
        assert (await ann.request({"type": "add_bot", "level": "nobody"}))["code"] == "bad-level"
        # a name with settings plays in tournaments, never on a shared server (search:100000 thinks
        # for minutes a move)
        for level in ("search:100000", "expert:lookahead=true", "greedy:x=1"):
            assert (await ann.request({"type": "add_bot", "level": level}))["code"] == "bad-level"
        assert (await ann.request({"type": "remove_seat", "seat": 1}))["code"] == "present"
        await ann.request({"type": "add_bot", "level": "greedy"})
        await ann.request({"type": "add_bot", "level": "greedy"})
        assert [s["kind"] for s in ann.state()["table"]["seats"]] == ["human", "human", "bot", "bot", "bot"]
        assert (await ann.request({"type": "remove_seat", "seat": 4}))["type"] == "ok"
        await ann.request({"type": "start"})
        st = await b.wait(lambda m: m["type"] == "state" and m["game"] is not None)
        assert [s["kind"] for s in st["table"]["seats"]] == ["human", "human", "bot", "bot"]
        # Bob's connection drops; when his turn has waited standin_seconds a computer player plays it
        await b.close()
        def bob_played() -> bool:
            g = ann.state()["game"]
            return any(a.startswith("1 ") and a.split()[1] in ("draw", "take") for a in g["history"])

        await play_until([ann], lambda: bob_played(), random.Random(2), timeout=30, tolerated=late)
        assert any(m["table"]["seats"][1]["standin"] for m in ann.states())
        # Bob comes back on another device with his token: the seat is his again
        b2 = await Client.open(srv, "Bob again", {"token": bob["token"]})
        st = b2.state()
        assert st["you"] == 1 and not st["table"]["seats"][1]["standin"] and st["game"]["hand"]
        # and the game now waits for him at his turn (Ann plays hers)
        await play_until([ann], lambda: 1 in b2.state()["game"]["to_act"]
                         and b2.state()["game"]["phase"] in ("draw", "play"), random.Random(3), timeout=30,
                         tolerated=late)
        waiting = b2.state()["version"]
        await asyncio.sleep(1.0)
        assert b2.state()["version"] == waiting  # nobody played for him
        pick = choose(b2.state(), random.Random(4))
        assert pick is not None
        assert (await b2.request({"type": "action", "version": waiting, "action": pick["action"]}))["type"] == \
            "accepted"
        # the host may remove an absent player: the seat opens and a computer player plays it
        await b2.close()
        assert (await ann.request({"type": "remove_seat", "seat": 1}))["type"] == "ok"
        assert ann.state()["table"]["seats"][1]["open"]
        gone = await Client.open(srv, "Bob's old token", None)
        await gone.send({"type": "hello", "token": bob["token"]})
        assert (await gone.wait(lambda m: m["type"] == "error"))["code"] == "bad-token"
        for c in (ann, gone):
            await c.close()

    asyncio.run(go())


def test_api_describes_presets_and_levels(server: Callable[..., Server], tmp_path: Path) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>Shanghai</title>")
    (static / "app.js").write_text("console.log('hi')")
    srv = server(static=static)
    status, info = srv.http("GET", "/api")
    assert status == 200 and info["protocol"] == 2
    assert {"isra", "may-i"} <= {p["name"] for p in info["presets"]}
    assert {"random", "greedy"} <= set(info["levels"])
    # manipulation rummy's option meld-two (004 "at least more than one", word for word) is offered
    assert next(p for p in info["presets"] if p["name"] == "manipulation")["options"] == ["meld-two"]
    two = srv.create(name="Ann", rules={"preset": "manipulation", "options": ["meld-two"],
                                        "changes": {"target_score": 12}}, seats=["human", "greedy", "greedy"])
    assert srv.http("GET", f"/api/invite/{two['invite']}")[1]["rules"] == {
        "preset": "manipulation", "options": ["meld-two"], "changes": {"target_score": 12}}
    created = srv.create(name="Ann", rules={"preset": "may-i", "options": ["no-split"],
                                            "changes": {"buy_penalty": 2}},
                         seats=["human", "greedy", "greedy"], settings={"buy_seconds": 5})
    status, table = srv.http("GET", f"/api/invite/{created['invite']}")
    assert status == 200 and table["rules"]["changes"] == {"buy_penalty": 2}
    assert table["settings"]["buy_seconds"] == 5 and len(table["seats"]) == 3
    status, out = srv.http("POST", "/api/tables", {"name": "Ann", "settings": {"buy_seconds": -1}})
    assert status == 400 and out["error"] == "bad-settings"
    # ../shared/PLAYERS-EXPECT.md: "Hints that can be switched off": a table setting, on unless the host says
    assert table["settings"]["hints"] is True
    status, out = srv.http("POST", "/api/tables", {"name": "Ann", "settings": {"hints": "no"}})
    assert status == 400 and out["error"] == "bad-settings" and "true or false" in out["message"]
    # the table tells a page how to order a run the player builds: may-i's wild black twos, its aces
    assert (table["wilds"], table["aces"], table["wild_limit"], table["run_min"]) == \
        (["2C", "2S", "JK"], "low-or-high", "naturals-majority", 4)
    # how to play: a preset's guide, and a table's (its house rules: 2 penalty cards where may-i has 1)
    status, guide = srv.http("GET", "/api/guide/may-i")
    assert status == 200 and guide["rules"] == "may-i" and guide["steps"][0]["key"] == "aim"
    assert guide["rules_text"].startswith("Shanghai Rummy with")
    buying = {s["key"]: s["text"] for s in guide["steps"]}["buy"]
    assert "1 penalty card from the stock" in buying
    status, guide = srv.http("GET", f"/api/invite/{created['invite']}/guide")
    assert status == 200 and "2 penalty cards from the stock" in {s["key"]: s["text"] for s in guide["steps"]}["buy"]
    status, guide = srv.http("GET", "/api/guide/manipulation")
    assert status == 200 and guide["steps"] == [] and "manipulation" in guide["rules_text"]
    assert srv.http("GET", "/api/guide/nope")[0] == 404 and srv.http("GET", "/api/invite/nope/guide")[0] == 404
    assert srv.http("GET", "/api/guide/ISRA")[0] == 200
    # the lobby's choice, options and house rules included, as POST /api/tables takes them
    status, guide = srv.http("POST", "/api/guide", {"rules": {"preset": "may-i", "options": ["shanghai-call"],
                                                              "changes": {"going_out": "discard-last"}}})
    steps = {s["key"]: s["text"] for s in guide["steps"]}
    assert status == 200 and "shanghai" in steps and "You go out by discarding your last card" in steps["out"]
    status, out = srv.http("POST", "/api/guide", {"rules": {"preset": "may-i", "changes": {"going_out": "sideways"}}})
    assert status == 400 and out["error"] == "bad-rules"
    # the browser front end's files are served beside the API, and the invite link opens its page
    for path in ("/", "/app.js", f"/join/{created['invite']}"):
        with urllib.request.urlopen(srv.base + path, timeout=10) as resp:
            assert resp.status == 200 and resp.read()


def test_a_game_played_to_the_end_by_stand_ins_keeps_its_record(server: Callable[..., Server]) -> None:
    srv = server(bot_pause=0.0, buy_seconds=0.0, standin_seconds=0.0, review_deals=4)
    created = srv.create(name="Ann", rules="isra-junior", seats=["human", "greedy", "human", "random"], seed=4)

    async def go() -> Json:
        ann = await Client.open(srv, "Ann", {"token": created["token"]})
        assert (await ann.request({"type": "review"}))["code"] == "not-started"
        await ann.request({"type": "start"})
        assert (await ann.request({"type": "review"}))["code"] == "not-over"
        assert srv.http("GET", f"/api/invite/{created['invite']}/replay/0")[0] == 409  # it would tell every hand
        await ann.close()  # nobody at the table: computer players play the whole game
        watcher = await Client.open(srv, "watcher", {"invite": created["invite"]})
        await watcher.wait(lambda m: m["type"] == "state" and m["table"]["status"] == "over", timeout=60)
        assert (await watcher.request({"type": "review"}))["code"] == "spectator"
        await watcher.close()
        back = await Client.open(srv, "Ann", {"token": created["token"]})
        st = back.state()
        # the coach's review of Ann's seat (her stand-in played it), the same on asking again
        reviews.append(await back.request({"type": "review"}, timeout=60))
        reviews.append(await back.request({"type": "review"}, timeout=60))
        # a rematch: a new table with the same rules and seats; Ann's token and connection move there
        assert (await back.request({"type": "rematch"}))["type"] == "ok"
        moved = await back.wait(lambda m: m["type"] == "rematch")
        assert moved["table"] != created["table"] and moved["seat"] == 0
        lobby = await back.wait(lambda m: m["type"] == "state" and m["table"]["id"] == moved["table"])
        assert lobby["game"] is None and lobby["table"]["status"] == "lobby"
        assert [s["name"] for s in lobby["table"]["seats"]] == [s["name"] for s in st["table"]["seats"]]
        await back.close()
        again = await Client.open(srv, "Ann", {"token": created["token"]})
        assert again.state()["table"]["id"] == moved["table"]
        await again.request({"type": "start"})
        await again.wait(lambda m: m["type"] == "state" and m["game"] is not None)
        await again.close()
        return st

    reviews: list[Json] = []
    st = asyncio.run(go())
    assert st["game"]["phase"] == "game-over" and st["game"]["hand"] == [] and st["legal"] == []
    # the open seat was filled with a computer player of the default level when the game started
    default = srv.http("GET", "/api")[1]["default_level"]
    assert [(s["kind"], s["level"]) for s in st["table"]["seats"]] == [
        ("human", None), ("bot", "greedy"), ("bot", default), ("bot", "random")]
    status, out = srv.http("GET", f"/api/invite/{created['invite']}")
    assert status == 200 and out["status"] == "over"
    req = urllib.request.Request(f"{srv.base}/api/invite/{created['invite']}/record")
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            text = resp.read().decode()
    except urllib.error.HTTPError as exc:
        raise AssertionError(exc.read()) from exc
    record = GameRecord.from_jsonl(text)
    game = record.replay()
    assert game.is_over and list(game.totals) == st["game"]["totals"] == record.end_totals
    assert record.players[0] == "Ann"
    first, again = reviews
    assert first["type"] == "review" and (first["seat"], first["name"]) == (0, "Ann")
    assert {k: first[k] for k in ("decisions", "agreed", "by_phase", "moves", "weighed")} == \
        review_summary(review(record, 0, deals=4))  # the record's review, worked out once, its costs weighed
    assert first["weighed"] is None or first["weighed"]["deals"] == 4
    assert first["decisions"] > 0 and again == {**first, "ref": again["ref"]}
    # the finished game step by step: every hand as the record's replay has it after n actions
    total = len(record.actions)
    starts = [0]
    replayed = record.replay(each=lambda g, i, a: starts.append(g.round_start)
                             if g.round_start != starts[-1] and g.round_start < total else None)
    assert replayed.is_over
    for n in (0, 1, total // 2, total):
        status, step = srv.http("GET", f"/api/invite/{created['invite']}/replay/{n}")
        at = GameRecord(record.rules, record.seed, record.players, record.actions[:n]).replay()
        assert status == 200 and (step["n"], step["total"]) == (n, total)
        assert step["hands"] == [[card_text(c) for c in h] for h in at.hands]
        assert step["action"] == (record.actions[n - 1] if n else None) and step["round_starts"] == starts
        assert step["game"]["round_number"] == view(at, None).round_number and step["names"][0] == "Ann"
    assert len(starts) == 3  # isra-junior: three rounds
    # the step whose action ended a round tells how that round stood (the state shown is the next deal)
    for n, number in ((starts[1], 1), (starts[2], 2), (total, 3), (1, None), (starts[1] + 1, None)):
        end = srv.http("GET", f"/api/invite/{created['invite']}/replay/{n}")[1]["round_end"]
        if number is None:
            assert end is None, n
            continue
        result = replayed.round_results[number - 1]
        assert (end["number"], end["points"], end["went_out"]) == (number, list(result.points), result.went_out)
        assert end["hands"] == [[card_text(c) for c in h] for h in result.hands]
        assert [m["cards"] for m in end["table"]] == [[card_text(c) for c in tm.meld.cards] for tm in result.table]
        assert bool(end["table"]) == any(result.down)
    for bad in (str(total + 1), "x", "-1"):
        assert srv.http("GET", f"/api/invite/{created['invite']}/replay/{bad}")[1]["error"] == "bad-step"


def test_a_discard_is_taken_back_at_a_table_of_computer_players(server: Callable[..., Server]) -> None:
    """../shared/PLAYERS-EXPECT.md: "A short undo of a mis-click discard where nobody has acted on it
    yet (games against computers)". The computer players wait ``take_back_seconds`` after the person's
    discard; ``take_back`` then removes it from the database and gives the state before it."""
    srv = server(bot_pause=0.0, buy_seconds=0.0, take_back_seconds=30.0)
    created = srv.create(rules="may-i", seats=["human", "greedy", "greedy", "greedy"], seed=3)
    quick = srv.create(rules="may-i", seats=["human", "greedy", "greedy"], seed=5,
                       settings={"take_back_seconds": 0.2})
    people = srv.create(rules="may-i", seats=["human", "human", "greedy"], seed=6, settings={"standin_seconds": 0})
    rng = random.Random(7)

    async def to_discard(c: Client) -> Json:
        """Play the person's moves until a discard is theirs to make; that state."""
        while True:
            st = c.state()
            if any(item["action"]["verb"] == "discard" for item in st["legal"]):
                return st
            pick = choose(st, rng)
            start = len(c.messages)
            if pick is not None:
                answer = await c.request({"type": "action", "version": st["version"], "action": pick["action"]})
                assert answer["type"] in ("accepted", "error"), answer
            await c.wait(lambda m: m["type"] == "state", start=start)

    async def discard(c: Client, st: Json) -> Json:
        item = next(i for i in st["legal"] if i["action"]["verb"] == "discard" and not i["action"].get("shanghai"))
        answer = await c.request({"type": "action", "version": st["version"], "action": item["action"]})
        assert answer["type"] == "accepted", answer
        return item

    async def go() -> tuple[int, list[str]]:
        ann = await Client.open(srv, "Ann", {"token": created["token"]})
        assert (await ann.request({"type": "take_back", "version": 0}))["code"] == "not-started"
        await ann.request({"type": "start"})
        await ann.wait(lambda m: m["type"] == "state" and m["game"] is not None)
        st = await to_discard(ann)
        version, hand = st["version"], sorted(st["game"]["hand"])
        assert (await ann.request({"type": "take_back", "version": version}))["code"] == "no-take-back"
        item = await discard(ann, st)
        await ann.wait(lambda m: m["type"] == "state" and m["version"] == version + 1)
        await asyncio.sleep(0.5)
        assert ann.state()["version"] == version + 1  # the computer players wait
        assert (await ann.request({"type": "take_back", "version": version}))["code"] == "stale"
        start = len(ann.messages)
        ok = await ann.request({"type": "take_back", "version": version + 1})
        assert (ok["type"], ok["request"], ok["version"]) == ("ok", "take_back", version)
        back = await ann.wait(lambda m: m["type"] == "state", start=start)
        assert back["version"] == version and sorted(back["game"]["hand"]) == hand
        assert item["text"] in {i["text"] for i in back["legal"]}  # hers to play again
        await asyncio.sleep(0.5)
        assert ann.state()["version"] == version  # nobody acts: it is her turn
        # another card this time: the same version number now holds another state, shown as it is
        other = next(i for i in back["legal"] if i["action"]["verb"] == "discard" and i["text"] != item["text"]
                     and not i["action"].get("shanghai"))
        start = len(ann.messages)
        assert (await ann.request({"type": "action", "version": version, "action": other["action"]}))["type"] == \
            "accepted"
        again = await ann.wait(lambda m: m["type"] == "state", start=start)
        assert again["version"] == version + 1 and again["game"]["discard_top"] == other["action"]["card"]
        assert again["game"]["history"][-1] == other["text"]
        start = len(ann.messages)
        assert (await ann.request({"type": "take_back", "version": version + 1}))["type"] == "ok"
        await ann.wait(lambda m: m["type"] == "state" and m["version"] == version, start=start)
        await ann.close()
        # not at a table where another person has seen it; not once a computer player has acted on it
        bo = await Client.open(srv, "Ann", {"token": people["token"]})
        srv.join(people["invite"], "Bo")
        await bo.request({"type": "start"})
        st = await to_discard(await _started(bo))
        await discard(bo, st)
        refused = await bo.request({"type": "take_back", "version": st["version"] + 1})
        assert refused["code"] == "no-take-back" and "table of computer players" in refused["message"]
        await bo.close()
        cy = await Client.open(srv, "Ann", {"token": quick["token"]})
        await cy.request({"type": "start"})
        st = await to_discard(await _started(cy))
        await discard(cy, st)
        # after 0.2 s they act on it; once she is to draw again (the version stays), it is too late
        await cy.wait(lambda m: m["type"] == "state" and m["version"] > st["version"] + 1
                      and any(i["action"]["verb"] == "draw" for i in m["legal"]), timeout=30)
        late = await cy.request({"type": "take_back", "version": cy.state()["version"]})
        assert late["code"] == "no-take-back" and "before anybody has acted on it" in late["message"]
        await cy.close()
        return version, hand

    version, hand = asyncio.run(go())
    record, game = srv.record_game(created["table"])
    assert len(record.actions) == len(game.actions) == version  # the discard is gone from the database
    assert sorted(card_text(c) for c in game.hands[0]) == hand


def test_a_person_who_keeps_the_table_waiting_is_nudged_then_stood_in_for(server: Callable[..., Server]) -> None:
    """../shared/PLAYERS-EXPECT.md: "the game waiting a while and then a computer player standing in;
    inactivity nudges". The state's ``waiting`` says whose turn the table waits for and until when; the
    other people may ``nudge`` them (once the turn has waited a quarter of ``idle_seconds`` here, 15 s
    at most), and once the turn has waited ``idle_seconds`` a computer player plays for them until they
    act again or say ``back``. A person nobody waits on (alone with computer players, or whose fellow
    players have left) is never stood in for while connected."""
    srv = server(bot_pause=1.5, buy_seconds=0.0, standin_seconds=30.0, idle_seconds=2.0)
    created = srv.create(name="Ann", rules="family-10", seats=["human", "human", "greedy"], seed=4,
                         settings={"standin_seconds": 0.5})
    bob_seat = srv.join(created["invite"], "Bob")
    solo = srv.create(name="Cy", rules="family-10", seats=["human", "greedy", "greedy"], seed=5,
                      settings={"idle_seconds": 0.5, "bot_pause": 0})

    async def go() -> None:
        ann = await Client.open(srv, "Ann", {"token": created["token"]})
        bob = await Client.open(srv, "Bob", {"token": bob_seat["token"]})
        assert (await ann.request({"type": "nudge", "seat": 1}))["code"] == "not-waiting"  # the lobby
        await ann.request({"type": "start"})
        st = await ann.wait(lambda m: m["type"] == "state" and m["waiting"] is not None, timeout=15)
        waiting = st["waiting"]
        x = waiting["seat"]
        assert x in st["game"]["to_act"] and st["deadline"] is None
        assert waiting["standin_at"] - waiting["since"] == pytest.approx(2.0, abs=0.01)
        assert waiting["nudge_at"] - waiting["since"] == pytest.approx(0.5, abs=0.01)
        idle, other = (ann, bob) if x == 0 else (bob, ann)
        await other.wait(lambda m: m["type"] == "state" and m["game"] is not None)
        # nudges: not oneself, not a seat the table does not wait for, not before nudge_at
        assert (await idle.request({"type": "nudge", "seat": x}))["code"] == "bad-nudge"
        assert (await idle.request({"type": "nudge", "seat": 1 - x}))["code"] == "not-waiting"
        for bad in ({}, {"seat": "1"}, {"seat": True}):
            assert (await other.request({"type": "nudge", **bad}))["code"] == "bad-nudge"
        if time.time() < waiting["nudge_at"] - 0.2:
            early = await other.request({"type": "nudge", "seat": x})
            assert early["code"] == "too-soon" and "nudge after 0.5" in early["message"]
        await asyncio.sleep(max(0.0, waiting["nudge_at"] - time.time()) + 0.05)
        start = len(idle.messages)
        ok = await other.request({"type": "nudge", "seat": x})
        assert (ok["type"], ok["request"]) == ("ok", "nudge"), ok
        nudge = await idle.wait(lambda m: m["type"] == "nudge", start=start)
        assert (nudge["by"], nudge["name"]) == (1 - x, other.state()["table"]["seats"][1 - x]["name"])
        assert (await other.request({"type": "nudge", "seat": x}))["code"] == "too-soon"  # not again at once
        assert other.state()["waiting"]["nudge_at"] > waiting["nudge_at"]
        # the turn waits idle_seconds; then a computer player stands in (it acts bot_pause later)
        stood = await idle.wait(lambda m: m["type"] == "state" and m["table"]["seats"][x]["standin"], timeout=10)
        assert stood["table"]["seats"][x]["connected"] and stood["waiting"] is None
        assert stood["version"] == st["version"] and stood["legal"]  # the person may still play
        # ... and acting again ends it
        pick = choose(stood, random.Random(1))
        assert pick is not None
        answer = await idle.request({"type": "action", "version": stood["version"], "action": pick["text"]})
        assert answer["type"] == "accepted", answer
        assert not idle.state()["table"]["seats"][x]["standin"]
        assert (await idle.request({"type": "back"}))["code"] == "not-away"
        # idle again: stood in for, the computer player plays on, until "back"
        await idle.wait(lambda m: m["type"] == "state" and m["table"]["seats"][x]["standin"], timeout=10)
        played = idle.state()["version"]
        await idle.wait(lambda m: m["type"] == "state" and m["version"] > played, timeout=10)
        assert (await idle.request({"type": "back"}))["type"] == "ok"
        back = idle.state()
        assert not back["table"]["seats"][x]["standin"]
        if back["waiting"] and back["waiting"]["seat"] == x:  # their idle time counts from their coming back
            assert back["waiting"]["standin_at"] > time.time() + 1.0
        # once nobody else is there (a computer player stands in for the one who left), the turn waits
        # for ever
        await other.close()
        await idle.wait(lambda m: m["type"] == "state" and not m["table"]["seats"][1 - x]["connected"])
        await play_until([idle], lambda: bool(idle.state()["waiting"]) and idle.state()["waiting"]["seat"] == x,
                         random.Random(2), timeout=30)
        assert idle.state()["waiting"]["standin_at"] is None
        for c in (ann, bob):
            await c.close()
        cy = await Client.open(srv, "Cy", {"token": solo["token"]})
        await cy.request({"type": "start"})
        await play_until([cy], lambda: bool(cy.state()["waiting"]), random.Random(3), timeout=30)
        version = cy.state()["version"]
        assert cy.state()["waiting"]["standin_at"] is None
        await asyncio.sleep(1.5)  # three times idle_seconds: still waiting for Cy, alone with a computer
        assert cy.state()["version"] == version and not cy.state()["table"]["seats"][0]["standin"]
        await cy.close()

    asyncio.run(go())


async def _started(c: Client) -> Client:
    await c.wait(lambda m: m["type"] == "state" and m["game"] is not None)
    return c


def test_the_history_of_a_browsers_games_and_its_statistics(server: Callable[..., Server], db_url: str) -> None:
    """../shared/PLAYERS-EXPECT.md: "history and statistics (wins, averages, streaks, trends)". The
    browser sends the seat tokens it keeps; ``POST /api/history`` lists the games they hold (a finished
    one also once a rematch moved the token on), oldest first, and the seat's statistics per preset over
    the finished games, as ``shanghai.scorepad.stats`` works them out. A token that holds no seat there
    is only counted. In SQLite and PostgreSQL (the rematch's past seats are a table of their own)."""
    srv = server(bot_pause=0.0, buy_seconds=0.0, standin_seconds=0.0, db_url=db_url)
    done = [srv.create(name="Ann", rules="isra-junior", seats=["human", "greedy", "random"], seed=seed)
            for seed in (4, 5)]
    playing = srv.create(name="Ann", rules="may-i", seats=["human", "greedy", "greedy"], seed=6)

    def history(seats: list[Json]) -> tuple[int, Json]:
        return srv.http("POST", "/api/history", {"seats": seats})

    async def go() -> tuple[Json, Json, Json]:
        for created in done:  # Ann starts and leaves: stand-ins play her seat to the end
            ann = await Client.open(srv, "Ann", {"token": created["token"]})
            await ann.request({"type": "start"})
            await ann.close()
        deadline = time.monotonic() + 90
        while any(srv.http("GET", f"/api/invite/{c['invite']}")[1]["status"] != "over" for c in done):
            assert time.monotonic() < deadline, "the stand-ins did not finish the games"
            await asyncio.sleep(0.2)
        back = await Client.open(srv, "Ann", {"token": done[1]["token"]})
        assert (await back.request({"type": "rematch"}))["type"] == "ok"
        rematch = await back.wait(lambda m: m["type"] == "rematch")
        await back.close()
        here = await Client.open(srv, "Ann", {"token": playing["token"]})  # there: the game waits for her
        await here.request({"type": "start"})
        await _started(here)
        seats = [{"invite": c["invite"], "token": c["token"]} for c in (*done, playing)]
        seats += [{"invite": rematch["invite"], "token": done[1]["token"]},   # the token's table now
                  {"invite": done[0]["invite"], "token": playing["token"]},   # not a seat of that table
                  {"invite": "nope", "token": done[0]["token"]},              # no such table
                  {"invite": done[0]["invite"], "token": done[0]["token"]}]   # named twice: listed once
        status, out = await asyncio.to_thread(history, seats)
        assert status == 200, out
        # what a wrong token or an unknown invite gets: nothing of the table
        status, nothing = await asyncio.to_thread(history, seats[4:6])
        await here.close()
        assert status == 200
        return out, nothing, rematch

    out, nothing, rematch = asyncio.run(go())
    assert nothing == {"games": [], "stats": [], "unknown": 2, "recent": RECENT}
    assert out["unknown"] == 2 and out["recent"] == RECENT
    games = out["games"]
    assert [g["invite"] for g in games] == [done[0]["invite"], done[1]["invite"], playing["invite"],
                                            rematch["invite"]]  # oldest first
    assert games == sorted(games, key=lambda g: g["created"])
    pads = []
    for g, created in zip(games, done, strict=False):
        record, game = srv.record_game(created["table"])
        assert game.is_over
        assert g == {"invite": created["invite"], "preset": "isra-junior", "title": game.rules.title,
                     "game": "contract", "created": g["created"], "players": record.players, "seat": 0,
                     "past": created is done[1],  # the rematch moved that token on: watched, not opened
                     "status": "over", "finished": True, "round": 3, "rounds": 3, "totals": list(game.totals),
                     "winners": list(game.winners())}
        pads.append((pad_of_game(game, record.players), 0))
    in_play = games[2]
    assert (in_play["status"], in_play["finished"], in_play["round"], in_play["rounds"], in_play["winners"]) == \
        ("playing", False, 1, 7, None)
    assert in_play["totals"] == [0, 0, 0] and in_play["preset"] == "may-i"
    lobby = games[3]
    assert (lobby["status"], lobby["finished"], lobby["round"], lobby["seat"]) == ("lobby", False, 0, 0)
    assert not in_play["past"] and not lobby["past"]
    # the statistics: the finished games only, worked out by the score pad's own function
    s = stats_of("Ann", pads)
    assert out["stats"] == [{
        "preset": "isra-junior", "games": 2, "wins": s.wins, "shared_wins": s.shared_wins, "win_rate": s.win_rate,
        "average": s.average_total, "recent_average": s.recent_average, "best": s.best_total,
        "worst": s.worst_total, "rounds_won": s.rounds_won, "rounds_played": 6,
        "longest_streak": s.longest_streak, "current_streak": s.current_streak}]
    assert not any(c["token"] in json.dumps(out) for c in (*done, playing))
    # refused: what is wrong is named
    too_many = [{"invite": "x", "token": "y"}] * 151
    for body, words in (({}, '"seats" is a list'), ({"seats": "abc"}, '"seats" is a list'),
                        ({"seats": too_many}, "names 151 seats: at most 150"),
                        ({"seats": [{"invite": "x"}]}, "seats[0] is not"),
                        ({"seats": [{"invite": "x", "token": "y"}, {"invite": "x", "token": 5}]}, "seats[1] is not"),
                        ({"seats": ["x"]}, "seats[0] is not")):
        status, refused = srv.http("POST", "/api/history", body)
        assert status == 400 and refused["error"] == "bad-history" and words in refused["message"], refused
    status, refused = srv.http("POST", "/api/history", raw=b"[1, 2")
    assert status == 400 and refused["error"] == "bad-json"


def test_a_table_without_hints_refuses_them(server: Callable[..., Server]) -> None:
    """The host may switch hints off for a table (../shared/PLAYERS-EXPECT.md: "Hints that can be switched
    off"): every ``hint`` is then refused, whoever asks, and the table's settings say so."""
    srv = server(bot_pause=0.0, buy_seconds=0.0)
    created = srv.create(name="Ann", rules="isra", seats=["human", "greedy", "greedy"], seed=3,
                         settings={"hints": False})

    async def go() -> None:
        ann = await Client.open(srv, "Ann", {"token": created["token"]})
        assert ann.state()["table"]["settings"]["hints"] is False
        await ann.request({"type": "start"})
        await ann.wait(lambda m: m["type"] == "state" and m["game"] is not None and 0 in m["game"]["to_act"],
                       timeout=30)
        answer = await ann.request({"type": "hint"})
        assert answer["code"] == "hints-off" and "switched hints off" in answer["message"], answer
        await ann.close()
        # manipulation rummy's marks of the cards that can be placed are hints too
        cy = await Client.open(srv, "Cy", {"token": manip["token"]}, protocol=2)
        await cy.request({"type": "start"})
        st = await cy.wait(lambda m: m["type"] == "state" and m["game"] is not None and 0 in m["game"]["to_act"]
                           and m["legal"][0]["action"]["verb"] == "play", timeout=30)
        assert st["game"]["placeable"] == [] and st["game"]["alone"] == []
        await cy.close()

    manip = srv.create(name="Cy", rules="manipulation", seats=["human", "greedy", "greedy"], seed=2,
                       settings={"hints": False})
    asyncio.run(go())

