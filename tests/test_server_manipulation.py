"""Manipulation rummy on the multiplayer server, for real: a ``shanghai serve`` process on a loopback port,
WebSocket clients, SQLite (see ``docs/protocol.md``, protocol 2).

Four people play a whole game (target score 5) and every message is checked to hold no card of another
hand and nothing of the stock; bad play messages are refused and change nothing; computer players and a
stand-in play a game through a SIGKILL of the server, and the record replays.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

websockets = pytest.importorskip("websockets")

from server_helpers import Server, servers  # noqa: E402
from shanghai.cards import card_text  # noqa: E402
from shanghai.engine.manipulation import ManipulationGame  # noqa: E402
from shanghai.engine.record import GameRecord  # noqa: E402
from shanghai.rules import MANIPULATION  # noqa: E402
from shanghai.server.protocol import RATE_PER_SECOND  # noqa: E402
from test_server import Client as ServerClient  # noqa: E402

Json = dict[str, Any]

STATE_KEYS = {"type", "protocol", "version", "you", "host", "table", "game", "legal", "deadline", "waiting"}
PUBLIC_KEYS = {"game", "seat", "players", "rules_name", "target_score", "hand_number", "dealer", "phase", "turn",
               "to_act", "hand", "drawn", "hand_counts", "table", "stock_size", "draws_this_turn", "passes",
               "totals", "winners", "losers", "hand_results", "history"}
PRIVATE_KEYS = PUBLIC_KEYS | {"placeable", "alone"}
RULES = {"preset": "manipulation", "changes": {"target_score": 5}}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    yield from servers(tmp_path)


class Client(ServerClient):
    """The server tests' client, speaking protocol 2 (manipulation rummy needs it), with longer waits
    (a manipulation turn asks the table solver)."""

    wait_seconds = 20.0
    request_seconds = 20.0

    @classmethod
    async def open(cls, server: Server, name: str, hello: Json | None = None, protocol: int = 2) -> Client:
        client = await super().open(server, name, hello, protocol)
        assert isinstance(client, Client)
        return client


def record_of(srv: Server, table: str) -> tuple[GameRecord, ManipulationGame]:
    record, game = srv.record_game(table)
    assert isinstance(game, ManipulationGame)
    return record, game


def truth_by_version(record: GameRecord) -> list[tuple[list[list[str]], list[str]]]:
    """Every hand and the stock after each number of actions, from the record in the database."""
    first = ManipulationGame.new(record.rules, len(record.players), record.seed)  # type: ignore[arg-type]

    def snap(g: ManipulationGame) -> tuple[list[list[str]], list[str]]:
        return [sorted(card_text(c) for c in h) for h in g.hands], [card_text(c) for c in g.stock]

    out = [snap(first)]
    record.replay(each=lambda g, _i, _a: out.append(snap(g)))
    return out


def assert_private(msg: Json, seat: int | None, truth: list[tuple[list[list[str]], list[str]]]) -> None:
    """A state holds the public view and its own seat's hand, drawn cards and offers only."""
    assert set(msg) == STATE_KEYS
    assert msg["protocol"] == 2 and msg["table"]["game"] == "manipulation"
    game = msg["game"]
    if game is None:
        return
    hands, stock = truth[msg["version"]]
    over = game["phase"] == "game-over"
    assert set(game) == (PUBLIC_KEYS if seat is None else PRIVATE_KEYS), set(game) ^ PRIVATE_KEYS
    assert game["game"] == "manipulation" and game["stock_size"] == len(stock)
    if not over:
        assert game["hand_counts"] == [len(h) for h in hands]
    table = Counter(c for meld in game["table"] for c in meld)
    if seat is None or over:
        assert game["hand"] == [] and game["drawn"] == [] and msg["legal"] == []
    else:
        own = Counter(game["hand"])
        assert sorted(game["hand"]) == hands[seat], (msg["version"], seat)
        assert not Counter(game["drawn"]) - own and set(game["alone"]) <= set(game["placeable"]) <= set(own)
        for item in msg["legal"]:
            action = item["action"]
            if action["verb"] == "play":
                assert not Counter(action["cards"]) - own, item
                assert Counter(c for meld in action["table"] for c in meld) == table + Counter(action["cards"])
    # no other field holds cards: the table and this hand's history are public, the results are counts
    assert all(set(r) == {"number", "dealer", "went_out", "points", "cards_left"} for r in game["hand_results"])
    assert "stock" not in game and "hands" not in game


def pick(st: Json, rng: random.Random) -> Json | str:
    """A person's move from the offers: the server's largest play, a play of some cards for the server to
    arrange, a single card, or the one draw / pass."""
    legal = st["legal"]
    first = legal[0]
    if first["action"]["verb"] != "play":
        return first["text"] if rng.random() < 0.5 else first["action"]
    roll = rng.random()
    if roll < 0.3:
        return first["action"]  # the exact table given
    if roll < 0.5:
        return first["text"]
    if roll < 0.8:
        return {"verb": "play", "cards": first["action"]["cards"]}  # the server arranges the table
    one = rng.choice(legal)
    return "play " + " ".join(one["action"]["cards"])


async def play_until(clients: list[Client], done: Callable[[], bool], rng: random.Random, timeout: float) -> int:
    acted: dict[int, int] = {}
    recent: dict[int, list[float]] = {id(c): [] for c in clients}  # kept under the rate limit
    sent = 0
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the game did not end in time"
        for c in clients:
            assert c.seat is not None
            errors = [m for m in c.messages if m["type"] == "error"]
            assert not errors, errors
            st = c.state()
            if st["game"] is None or c.seat not in st["game"]["to_act"] or acted.get(c.seat) == st["version"]:
                continue
            assert st["legal"], st
            now = time.monotonic()
            recent[id(c)] = [t for t in recent[id(c)] if now - t < 1.0]
            if len(recent[id(c)]) >= RATE_PER_SECOND * 0.75:
                continue
            recent[id(c)].append(now)
            acted[c.seat] = st["version"]
            await c.send({"type": "action", "version": st["version"], "action": pick(st, rng)})
            sent += 1
        await asyncio.sleep(0.005)
    return sent


# -- the tests ---------------------------------------------------------------------------------------

def test_four_people_play_a_whole_manipulation_game_and_see_only_their_own_hands(
        server: Callable[..., Server]) -> None:
    srv = server()
    status, info = srv.http("GET", "/api")
    assert status == 200 and info["protocol"] == 2
    offered = {p["name"]: p for p in info["presets"]}
    assert offered["manipulation"]["game"] == "manipulation" and offered["isra"]["game"] == "contract"
    created = srv.create(name="Ann", rules=RULES, seats=["human"] * 4, seed=7)
    tokens = [created["token"]] + [srv.join(created["invite"], n)["token"] for n in ("Bob", "Cy", "Di")]
    status, described = srv.http("GET", f"/api/invite/{created['invite']}")
    assert described["game"] == "manipulation" and described["rules"] == RULES

    async def go() -> tuple[list[Client], Client]:
        clients = [await Client.open(srv, f"seat {i}", {"token": t}) for i, t in enumerate(tokens)]
        watcher = await Client.open(srv, "watcher", {"invite": created["invite"]})
        assert (await clients[0].request({"type": "start"}))["type"] == "ok"
        for c in clients:
            await c.wait(lambda m: m["type"] == "state" and m["game"] is not None)
        st = clients[0].state()["game"]
        assert st["hand_counts"] == [10] * 4 and st["stock_size"] == 104 - 40 and st["table"] == []

        def over() -> bool:
            return clients[0].state()["table"]["status"] == "over"

        sent = await play_until(clients, over, random.Random(3), timeout=60)
        assert sent >= 4
        await asyncio.sleep(0.2)
        for c in [*clients, watcher]:
            await c.close()
        return clients, watcher

    clients, watcher = asyncio.run(go())
    record, game = record_of(srv, created["table"])
    assert game.is_over and max(game.totals) >= 5 and record.players == ["Ann", "Bob", "Cy", "Di"]
    truth = truth_by_version(record)
    checked = 0
    for c in clients:
        for msg in c.states():
            assert_private(msg, c.seat, truth)
            checked += 1
        accepted = [m["action"] for m in c.messages if m["type"] == "accepted"]
        assert accepted == [a for a in record.actions if a.split()[0] == str(c.seat)][:len(accepted)]
    for msg in watcher.states():
        assert msg["you"] is None
        assert_private(msg, None, truth)
    assert checked > 40
    final = clients[1].state()["game"]
    assert final["phase"] == "game-over" and final["totals"] == game.totals
    assert final["losers"] == list(game.losers()) and final["winners"] == list(game.winners())
    assert [r["points"] for r in final["hand_results"]] == [list(r.points) for r in game.hand_results]
    # the finished game's record is given, and it replays to the same totals
    text = srv_text(srv, f"/api/invite/{created['invite']}/record")
    again = GameRecord.from_jsonl(text)
    assert again.rules == MANIPULATION.changed(target_score=5) and again.end_totals == game.totals
    assert list(again.replay().totals) == game.totals


def srv_text(srv: Server, path: str) -> str:
    import urllib.request

    with urllib.request.urlopen(srv.base + path, timeout=10) as resp:
        return str(resp.read().decode())


def test_bad_play_messages_are_refused_and_change_nothing(server: Callable[..., Server]) -> None:
    srv = server()
    created = srv.create(name="Ann", rules=RULES, seats=["human"] * 3, seed=5)
    tokens = [created["token"]] + [srv.join(created["invite"], n)["token"] for n in ("Bob", "Cy")]

    async def go() -> None:
        clients = [await Client.open(srv, f"seat {i}", {"token": t}) for i, t in enumerate(tokens)]
        await clients[0].request({"type": "start"})
        for c in clients:
            await c.wait(lambda m: m["type"] == "state" and m["game"] is not None)
        st = clients[0].state()
        turn = st["game"]["turn"]
        me, other = clients[turn], clients[(turn + 1) % 3]
        mine = me.state()
        hand, v = mine["game"]["hand"], mine["version"]
        assert v == 0 and mine["legal"]
        absent = next(f"{r}{s}" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
                      for s in "CDHS" if f"{r}{s}" not in hand)
        before = [len(c.messages) for c in clients]

        async def refused(client: Client, action: object, code: str, version: object = v) -> None:
            msg: Json = {"type": "action", "action": action}
            if version is not None:
                msg["version"] = version
            answer = await client.request(msg)
            assert answer["type"] == "error" and answer["code"] == code, (action, answer)

        await refused(other, "draw", "not-your-turn")
        await refused(other, {"verb": "play", "cards": [other.state()["game"]["hand"][0]]}, "not-your-turn")
        await refused(me, "draw", "stale", version=v + 3)
        await refused(me, "draw", "no-version", version=None)
        await refused(me, {"verb": "play"}, "bad-action")
        await refused(me, {"verb": "play", "cards": "7C"}, "bad-action")
        await refused(me, {"verb": "play", "cards": []}, "bad-action")
        await refused(me, {"verb": "play", "cards": ["ZZ"]}, "bad-action")
        await refused(me, {"verb": "play", "cards": ["JK"]}, "bad-action")
        await refused(me, {"verb": "play", "cards": [hand[0]], "table": "nonsense"}, "bad-action")
        await refused(me, {"verb": "play", "cards": [hand[0]], "table": [["7C", "8C"]]}, "illegal")
        await refused(me, {"verb": "fly"}, "bad-action")
        await refused(me, {"verb": "discard", "card": hand[0]}, "bad-action")
        await refused(me, "discard " + hand[0], "bad-action")
        await refused(me, f"{(turn + 1) % 3} draw", "not-your-seat")
        await refused(me, {"verb": "draw", "seat": (turn + 1) % 3}, "not-your-seat")
        await refused(me, {"verb": "play", "cards": [absent]}, "illegal")
        await refused(me, f"play {absent} : {absent} {absent} {absent}", "illegal")
        await refused(me, {"verb": "play", "cards": [hand[0]]}, "illegal")  # a lone card on an empty table
        await refused(me, {"verb": "play", "cards": [hand[0]], "table": [[hand[0]] * 3]}, "illegal")
        if mine["legal"][0]["action"]["verb"] == "play":
            await refused(me, "draw", "illegal")  # who can meld must meld
            best = mine["legal"][0]["action"]
            await refused(me, {"verb": "play", "cards": best["cards"], "table": best["table"][1:]}, "illegal")
        else:
            await refused(me, "pass", "illegal")  # the stock is not empty: draw
        await asyncio.sleep(0.3)
        for i, c in enumerate(clients):  # nobody else heard of it, and nothing changed
            assert all(m["type"] == "error" for m in c.messages[before[i]:]), c.messages[before[i]:]
        # a spectator can only watch; a protocol-1 client cannot join this table
        watcher = await Client.open(srv, "watcher", {"invite": created["invite"]})
        assert (await watcher.request({"type": "action", "version": v, "action": "draw"}))["code"] == "spectator"
        old = await Client.open(srv, "old", None)
        answer = await old.request({"type": "hello", "protocol": 1, "token": tokens[turn]})
        assert answer["code"] == "protocol", answer
        await old.close()
        # the hint is the largest play, or the draw
        hint = await me.request({"type": "hint"})
        assert hint["type"] == "hint" and hint["text"] == mine["legal"][0]["text"] and hint["reason"]
        assert set(hint["placeable"]) == set(mine["game"]["placeable"])
        # the cards placeable alone are those of the one-card offers
        alone = {a["action"]["cards"][0] for a in mine["legal"] if a["action"]["verb"] == "play"
                 and len(a["action"]["cards"]) == 1}
        assert set(hint["alone"]) == set(mine["game"]["alone"]) == alone <= set(hint["placeable"])
        if hint["placeable"]:
            assert "Cards that can be placed: " in hint["reason"]
        assert (await other.request({"type": "hint"}))["code"] == "not-your-turn"
        # a good move after all that: everybody hears of it
        first = mine["legal"][0]["action"]
        good: Json = first if first["verb"] != "play" else {"verb": "play", "cards": first["cards"][:3]}
        ok = await me.request({"type": "action", "version": v, "action": good})
        assert ok["type"] == "accepted" and ok["version"] == 1, ok
        for c in clients:
            await c.wait(lambda m: m["type"] == "state" and m["version"] == 1)
        after = me.state()["game"]
        if good["verb"] == "play":
            assert len(after["hand"]) == 10 - len(good["cards"])
            assert sorted(c for m in after["table"] for c in m) == sorted(good["cards"])
        # the same message again is stale (a double click)
        assert (await me.request({"type": "action", "version": v, "action": good}))["code"] == "stale"
        for c in [*clients, watcher]:
            await c.close()

    asyncio.run(go())
    record, game = record_of(srv, created["table"])
    assert len(record.actions) == 1 and len(game.actions) == 1


def test_computer_players_and_a_stand_in_play_a_game_through_a_killed_server(
        server: Callable[..., Server]) -> None:
    srv = server(bot_pause=0.0, standin_seconds=0.0)
    created = srv.create(name="Ann", rules=RULES, seats=["human", "easy", "expert"], seed=11)
    status, out = srv.http("POST", "/api/tables", {"name": "Ann", "rules": "manipulation",
                                                   "seats": ["human", "nobody", "greedy"]})
    assert status == 400 and out["error"] == "bad-level"
    status, info = srv.http("GET", "/api")
    other = next(g for g in info["presets"] if g["name"] == "manipulation")
    assert {"easy", "medium", "hard", "expert", "search"} <= set(other["levels"])
    token = created["token"]

    async def phase_one() -> int:
        ann = await Client.open(srv, "Ann", {"token": token})
        assert ann.state()["table"]["seats"][2]["level"] == "expert"
        assert (await ann.request({"type": "add_bot", "level": "search:64"}))["code"] == "bad-level"
        await ann.request({"type": "start"})
        await ann.close()  # Ann goes away: a computer player stands in at once (standin_seconds 0)
        watcher = await Client.open(srv, "watcher", {"invite": created["invite"]})
        seen = await watcher.wait(lambda m: m["type"] == "state" and m["version"] >= 4, timeout=30)
        srv.kill()
        await asyncio.wait_for(watcher.reader, 10)
        return int(seen["version"])

    seen = asyncio.run(phase_one())
    record, game = record_of(srv, created["table"])
    assert len(record.actions) >= seen  # nothing anybody was told is missing from the database
    srv.start()

    async def phase_two() -> Json:
        watcher = await Client.open(srv, "watcher", {"invite": created["invite"]})
        st = await watcher.wait(lambda m: m["type"] == "state" and m["table"]["status"] == "over", timeout=60)
        await watcher.close()
        # a rematch: a new manipulation table with the same rules and seats, in the lobby
        ann = await Client.open(srv, "Ann", {"token": token})
        assert ann.state()["game"]["phase"] == "game-over" and ann.state()["legal"] == []
        assert (await ann.request({"type": "rematch"}))["type"] == "ok"
        new = await ann.wait(lambda m: m["type"] == "state" and m["table"]["status"] == "lobby")
        assert new["table"]["game"] == "manipulation" and new["table"]["rules"] == RULES
        await ann.close()
        return st

    final = asyncio.run(phase_two())
    record2, game2 = record_of(srv, created["table"])
    assert game2.actions[:len(game.actions)] == game.actions  # the game went on from what was committed
    assert len(game2.actions) > len(game.actions) and not game.is_over
    assert game2.is_over and final["game"]["totals"] == game2.totals and max(game2.totals) >= 5
    assert final["table"]["seats"][0]["standin"] is True
    assert list(GameRecord.from_jsonl(record2.to_jsonl()).replay().totals) == game2.totals


def test_play_messages_are_read_in_every_form_without_a_server() -> None:
    from shanghai.engine.manipulation import PlayToTable
    from shanghai.server.protocol import (
        PlayRequest,
        ProtocolError,
        manipulation_action_from_json,
        manipulation_action_to_json,
    )

    exact = manipulation_action_from_json("play 7C : 5C 6C 7C | 9S 9H 9D", 1)
    assert isinstance(exact, PlayToTable) and str(exact) == "1 play 7C : 5C 6C 7C | 9S 9H 9D"
    as_object = manipulation_action_to_json(exact)
    assert as_object["text"] == str(exact)
    assert manipulation_action_from_json(as_object["action"], 1) == exact
    assert manipulation_action_from_json({**as_object["action"], "table": "9D 9H 9S | 7C 6C 5C"}, 1) == exact
    assert manipulation_action_from_json(as_object["text"], 1) == exact
    request = manipulation_action_from_json({"verb": "play", "cards": ["7c", "3C"]}, 2)
    assert isinstance(request, PlayRequest) and str(request) == "2 play 3C 7C"
    assert str(manipulation_action_from_json("2 play 7C, 3C", 2)) == "2 play 3C 7C"
    assert str(manipulation_action_from_json("draw", 0)) == "0 draw"
    assert str(manipulation_action_from_json({"verb": "pass"}, 3)) == "3 pass"
    for bad, code in (("1 draw", "not-your-seat"), ({"verb": "play", "cards": ["7C"], "table": [["7C", "7C", "7C"]]},
                                                      "illegal"),
                      ({"verb": "play", "cards": ["7C"] * 61}, "bad-action"), ("play", "bad-action"),
                      ({"verb": "play", "cards": ["7C"], "table": [["7C"]] * 121}, "bad-action"),
                      ("layoff 7C m1", "bad-action"), (7, "bad-action")):
        with pytest.raises(ProtocolError) as err:
            manipulation_action_from_json(bad, 0)
        assert err.value.code == code, (bad, err.value.code)
