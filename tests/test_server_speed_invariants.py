"""The server's fast paths say exactly what the plain ones say, and commit what the plain ones commit.

A state message is encoded from the public view's text, made once per version and cut around each
seat's own part (``Table.state_text``); it must be the very text ``json.dumps`` makes of the state the
plain way (``Table.state_for``), for every seat and spectator, at every version, in both games.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from shanghai.engine.actions import GoDown, LayOff
from shanghai.engine.games import AnyGame, apply_action, new_game
from shanghai.rules import OTHER_GAMES, PRESETS, AnyRules
from shanghai.server import tables as tables_module
from shanghai.server.protocol import dumps, fill_template, json_template
from shanghai.server.storage import Committer, SeatRow, Storage
from shanghai.server.tables import HUMAN, OUTBOX_LIMIT, Conn, Seat, Settings, Table


class _FrozenTime:
    """``time`` for the tables module with a clock that stands still (a window's deadline is computed
    from the clock at each call)."""

    @staticmethod
    def time() -> float:
        return 1_800_000_000.25

    @staticmethod
    def monotonic() -> float:
        return 1000.0


def _table(rules: AnyRules, players: int) -> tuple[Table, list[Conn]]:
    seats = [Seat(HUMAN, f"Player {i + 1}", token_hash=f"h{i}") for i in range(players)]
    table = Table(None, "g", "inv", "playing", {"preset": rules.name}, rules, 7, Settings(),  # type: ignore[arg-type]
                  seats)
    conns = []
    for i in range(players):
        c = Conn()
        c.table, c.seat = table, i
        if i != 1:  # seat 1 is away
            seats[i].conns.add(c)
        conns.append(c)
    spectator = Conn()
    spectator.table, spectator.spectator = table, True
    table.spectators.add(spectator)
    return table, [*conns, spectator]


def _check(table: Table, conns: list[Conn]) -> None:
    shared = table.shared_text()
    for c in conns:
        plain = dumps(table.state_for(c))
        assert table.state_text(c) == plain
        assert table.state_text(c, shared) == plain
        assert json.loads(plain)["you"] == (None if c.spectator else c.seat)


def _play(game: AnyGame, rng: random.Random) -> bool:
    legal = list(game.legal_list())
    if not legal:
        return False
    eager = [a for a in legal if isinstance(a, GoDown | LayOff)]
    apply_action(game, rng.choice(eager or legal))
    return True


@pytest.mark.parametrize("preset", ["isra-express", "may-i"])
def test_contract_state_text_is_the_plain_state(preset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables_module, "time", _FrozenTime)
    rules = PRESETS[preset]
    table, conns = _table(rules, 4)
    table.status = "lobby"
    _check(table, conns)  # no game yet
    table.status, table.game = "playing", new_game(rules, 4, 11)
    table.window_deadline = 1012.5
    rng = random.Random(3)
    phases = set()
    for _ in range(1500):
        _check(table, conns)
        assert table.game is not None
        phases.add(json.loads(table.state_text(conns[0]))["game"]["phase"])
        if not _play(table.game, rng):
            break
    _check(table, conns)
    assert {"draw", "play"} <= phases
    assert any(p in phases for p in ("buy", "shanghai"))  # a window: a deadline was sent


def test_a_finished_contract_game_sends_no_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables_module, "time", _FrozenTime)
    rules = PRESETS["isra-express"]
    table, conns = _table(rules, 3)
    game = new_game(rules, 3, 5)
    rng = random.Random(0)
    while _play(game, rng):
        pass
    assert game.is_over
    table.game = game
    _check(table, conns)
    assert json.loads(table.state_text(conns[0]))["game"]["hand"] == []


def test_manipulation_state_text_is_the_plain_state(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables_module, "time", _FrozenTime)
    rules = OTHER_GAMES["manipulation"]
    table, conns = _table(rules, 3)
    table.game = new_game(rules, 3, 2)
    rng = random.Random(5)
    for _ in range(60):
        _check(table, conns)
        if not _play(table.game, rng):
            break
    _check(table, conns)


def test_a_seat_changing_changes_the_state_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tables_module, "time", _FrozenTime)
    rules = PRESETS["may-i"]
    table, conns = _table(rules, 4)
    table.game = new_game(rules, 4, 1)
    before = table.state_text(conns[0])
    table.seats[1].conns.add(conns[1])  # seat 1 comes back: the same version, another table part
    after = table.state_text(conns[0])
    assert before != after and after == dumps(table.state_for(conns[0]))


@pytest.mark.parametrize("obj", [
    {"seat": None, "a": [1, 2], "hand": [], "z": {"x": "é"}},
    {"b": 1},
    {"hand": "x", "seat": 3, "name": "Zoë \u2603"},
])
def test_a_template_filled_is_the_whole_text(obj: dict[str, Any]) -> None:
    template = json_template(obj, ("seat", "hand", "drawn"))
    for values in [(0, ["7C", "10H"], []), (None, [], ["JK"]), (3, "x", {"k": [1]})]:
        whole = {**obj, "seat": values[0], "hand": values[1], "drawn": values[2]}
        assert fill_template(template, whole) == json.dumps(whole, separators=(",", ":"))


def test_a_direct_connection_writes_a_turns_messages_at_once_and_the_writer_takes_over_when_full() -> None:
    async def run() -> None:
        written: list[list[str]] = []
        full = [False]

        def direct(texts: Sequence[str]) -> bool:
            if full[0]:
                return False
            written.append(list(texts))
            return True

        conn = Conn(direct)
        got: list[object] = []

        async def writer() -> None:  # as app.serve_socket's: it sends what the flush could not
            while (msg := await conn.next_message()) is not None:
                conn.writing = True
                await asyncio.sleep(0)
                got.append(msg)
                conn.writing = False

        task = asyncio.get_running_loop().create_task(writer())
        await asyncio.sleep(0)  # the writer waits for a message
        conn.send({"type": "pong"})
        conn.send("state")
        await asyncio.sleep(0)
        assert written == [['{"type":"pong"}', "state"]] and not got  # one write, the writer not woken
        full[0] = True  # the transport is over its high-water mark: the writer sends, in order
        conn.send("a")
        conn.send("b")
        await asyncio.sleep(0)
        full[0] = False
        conn.send("c")
        for _ in range(5):
            await asyncio.sleep(0)
        conn.close()
        await asyncio.wait_for(task, 1)
        assert written == [['{"type":"pong"}', "state"]] and got == ["a", "b", "c"]

    asyncio.run(run())


def test_group_commit_commits_each_action_and_refuses_only_the_bad_one(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 's.sqlite3'}")
    try:
        for g in ("g1", "g2"):
            storage.create_game(g, f"inv-{g}", {"preset": "may-i"}, 5, {}, [SeatRow(0, "human", None, "Ann", None)])
        storage.append_action("g1", 0, "0 draw")
        committer = Committer(storage)

        async def many() -> list[BaseException | None]:
            jobs = [committer.append("g1", 0, "0 take"),  # a second action 0: refused
                    *(committer.append("g1", n, f"a{n}") for n in range(1, 30)),
                    *(committer.append("g2", n, f"b{n}", over=n == 19) for n in range(20))]
            return list(await asyncio.gather(*jobs, return_exceptions=True))

        outcomes = asyncio.run(many())
        assert outcomes[0] is not None and all(o is None for o in outcomes[1:])
        g1, g2 = storage.load("g1"), storage.load("g2")
        assert g1 is not None and g1.actions == ["0 draw", *(f"a{n}" for n in range(1, 30))]
        assert g2 is not None and g2.actions == [f"b{n}" for n in range(20)] and g2.status == "over"
        assert g1.status == "lobby"
    finally:
        storage.close()


def test_a_connection_outbox_keeps_order_ends_with_none_and_lets_a_slow_client_go() -> None:
    async def run() -> None:
        conn = Conn()
        got: list[object] = []

        async def writer() -> None:
            while (msg := await conn.next_message()) is not None:
                got.append(msg)

        task = asyncio.get_running_loop().create_task(writer())
        conn.send({"type": "pong"})
        conn.send("text")
        await asyncio.sleep(0)
        conn.send("later")
        conn.close()
        conn.send("after close")  # dropped
        await asyncio.wait_for(task, 1)
        assert got == [{"type": "pong"}, "text", "later"]

        slow = Conn()  # nobody reads: past OUTBOX_LIMIT messages the connection closes
        for i in range(OUTBOX_LIMIT + 5):
            slow.send(str(i))
        assert slow.closed and len(slow.outbox) == OUTBOX_LIMIT + 1 and slow.outbox[-1] is None

    asyncio.run(run())


def test_a_locked_database_does_not_stall_the_event_loop(tmp_path: Path) -> None:
    # Another process (here: another connection) holds SQLite's write lock: the commit waits for it
    # in a worker thread while the loop keeps serving; the action is committed once the lock is gone.
    path = tmp_path / "s.sqlite3"
    storage = Storage(f"sqlite:///{path}")
    try:
        storage.create_game("g1", "inv-g1", {"preset": "may-i"}, 5, {}, [SeatRow(0, "human", None, "Ann", None)])
        committer = Committer(storage)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")

        async def run() -> float:
            loop = asyncio.get_running_loop()
            job = loop.create_task(committer.append("g1", 0, "0 draw"))
            ticks, start, longest = 0, time.monotonic(), 0.0
            while time.monotonic() - start < 0.6:  # the loop keeps turning while the commit waits
                before = time.monotonic()
                await asyncio.sleep(0.01)
                longest = max(longest, time.monotonic() - before)
                ticks += 1
            assert not job.done()
            other.execute("COMMIT")
            await asyncio.wait_for(job, 10)
            return longest

        longest = asyncio.run(run())
        other.close()
        assert longest < 0.3
        row = storage.load("g1")
        assert row is not None and row.actions == ["0 draw"]
    finally:
        storage.close()
