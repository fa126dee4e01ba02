"""The server's protocol pieces without a server: actions, names, views, settings, rate limits, storage."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from shanghai.bots.coach import review, review_summary
from shanghai.bots.expert import ExpertPlayer
from shanghai.bots.greedy import GreedyPlayer
from shanghai.bots.match import play_game
from shanghai.engine import Game, parse_action
from shanghai.engine.actions import Discard
from shanghai.engine.record import GameRecord
from shanghai.engine.view import view
from shanghai.rules import preset
from shanghai.server.protocol import ProtocolError, action_from_json, action_to_json, check_name, view_to_json
from shanghai.server.storage import SeatRow, Storage, default_db_url, hash_token
from shanghai.server.tables import Conn, Manager, Settings, TokenBucket


@pytest.mark.parametrize(("sent", "seat", "text"), [
    ("draw", 1, "1 draw"),
    ("1 draw", 1, "1 draw"),
    ("  TAKE ", 2, "2 take"),
    ({"verb": "buy"}, 0, "0 buy"),
    ({"verb": "cut", "target": 45}, 3, "3 cut 45"),
    ({"verb": "discard", "card": "10h", "shanghai": True}, 0, "0 discard 10H shanghai"),
    ({"verb": "layoff", "card": "9D", "meld": 1, "end": "high"}, 2, "2 layoff 9D m1 high"),
    ({"verb": "replace", "card": "7D", "meld": 0}, 2, "2 replace 7D m0"),
    ({"verb": "shanghai", "meld": 2, "end": "low"}, 1, "1 shanghai m2 low"),
    ({"verb": "down", "melds": [{"kind": "set", "cards": ["7H", "7S", "JK"]},
                                {"kind": "run", "cards": ["5D", "6D", "7D", "8D"]}]}, 1,
     "1 down set 7H 7S JK | run 5D 6D 7D 8D"),
])
def test_actions_are_read_as_text_or_objects(sent: object, seat: int, text: str) -> None:
    action = action_from_json(sent, seat)
    assert str(action) == text
    assert action_from_json(action_to_json(action)["action"], seat) == action
    assert action_from_json(action_to_json(action)["text"], seat) == action


@pytest.mark.parametrize(("sent", "code"), [
    ("2 draw", "not-your-seat"),
    ({"verb": "draw", "seat": 2}, "not-your-seat"),
    ("fly away", "bad-action"),
    ("discard ZZ", "bad-action"),
    ({"verb": "discard"}, "bad-action"),
    ({"verb": "discard", "card": 7}, "bad-action"),
    ({"verb": "cut", "target": "ten"}, "bad-action"),
    ({"verb": "cut", "target": True}, "bad-action"),
    ({"verb": "layoff", "card": "9D", "meld": -1}, "bad-action"),
    ({"verb": "layoff", "card": "9D", "meld": 1, "end": "middle"}, "bad-action"),
    ({"verb": "down", "melds": []}, "bad-action"),
    ({"verb": "down", "melds": [{"kind": "pair", "cards": ["7H", "7S"]}]}, "bad-action"),
    ({"nothing": 1}, "bad-action"),
    (["draw"], "bad-action"),
    (None, "bad-action"),
    ("draw " * 200, "bad-action"),
])
def test_unreadable_actions_are_refused(sent: object, code: str) -> None:
    with pytest.raises(ProtocolError) as info:
        action_from_json(sent, 0)
    assert info.value.code == code


def test_names() -> None:
    assert check_name("  Ann   Marie ") == "Ann Marie"
    assert check_name("Zoë O'Neil-Smith") == "Zoë O'Neil-Smith"
    assert check_name("x" * 24) == "x" * 24
    assert check_name("a\nb") == "a b"
    for bad in ("", "   ", "x" * 25, "<b>", "Ann\x00", "😀", "a\u200bb", None, 3):
        with pytest.raises(ProtocolError):
            check_name(bad)


def test_views_in_json_hold_only_the_seat_hand() -> None:
    game = Game.new(preset("may-i"), players=4, seed=3)
    for seat in range(4):
        j = view_to_json(view(game, seat))
        assert len(j["hand"]) == 11 and "stock" not in j and "hands" not in j
    spectator = view_to_json(view(game, None))
    assert spectator["hand"] == [] and spectator["hand_counts"] == [11, 11, 11, 11]
    game.apply(parse_action(f"{game.turn} draw"))
    assert view_to_json(view(game, None))["history"] == [f"{game.turn} draw"]


def test_settings_are_checked() -> None:
    s = Settings().changed({"buy_seconds": 3, "bot_pause": 0})
    assert s.to_json() == {"buy_seconds": 3.0, "bot_pause": 0.0, "standin_seconds": 30.0, "take_back_seconds": 0.0,
                           "idle_seconds": 120.0, "hints": True}
    assert Settings().changed({"idle_seconds": 0}).idle_seconds == 0.0  # 0: the turn waits for ever
    assert Settings().changed({"hints": False}).hints is False and Settings(hints=False).changed({}).hints is False
    for bad in ({"buy_seconds": -1}, {"bot_pause": 31}, {"nap": 1}, {"buy_seconds": "5"}, {"bot_pause": True}, [1],
                {"idle_seconds": 3601}, {"idle_seconds": -5}, {"hints": 1}, {"hints": "yes"}):
        with pytest.raises(ProtocolError):
            Settings().changed(bad)


def test_rate_limit() -> None:
    now = [0.0]
    bucket = TokenBucket(2.0, 3, clock=lambda: now[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5
    assert bucket.take() and not bucket.take()


def test_storage_keeps_the_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHANGHAI_DATA_DIR", str(tmp_path / "d"))
    assert default_db_url() == f"sqlite:///{tmp_path / 'd' / 'server.sqlite3'}"
    monkeypatch.delenv("SHANGHAI_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "x"))
    assert default_db_url() == f"sqlite:///{tmp_path / 'x' / 'shanghai' / 'server.sqlite3'}"
    storage = Storage(f"sqlite:///{tmp_path / 's.sqlite3'}")
    try:
        with storage.engine.connect() as c:
            assert c.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        storage.create_game("g1", "inv", {"preset": "may-i"}, 5, {}, [
            SeatRow(0, "human", None, "Ann", hash_token("t0")), SeatRow(1, "bot", "greedy", "Bo", None),
            SeatRow(2, "bot", "random", "Cy", None)])
        game = Game.new(preset("may-i"), 3, 5)
        game.apply(parse_action(f"{game.turn} draw"))
        storage.append_action("g1", 0, str(game.actions[0]))
        with pytest.raises(Exception):  # noqa: B017 - the database refuses a second action 0
            storage.append_action("g1", 0, "1 draw")
        row = storage.load("g1")
        assert row is not None and row.status == "lobby" and row.actions == [str(game.actions[0])]
        assert row.record().replay().snapshot() == game.snapshot()
        assert storage.seat_of_token("t0") == ("g1", 0) and storage.seat_of_token("t1") is None
        assert storage.game_of_invite("inv") == "g1" and storage.unfinished() == ["g1"]
    finally:
        storage.close()


def test_serve_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    from shanghai.cli.main import main

    assert main(["serve", "--port", "0"]) == 2
    assert main(["serve", "--buy-seconds", "-3"]) == 2
    assert main(["serve", "--db", "nope://x"]) == 2 and main(["serve", "--db", "nonsense"]) == 2
    assert main(["serve", "--db", "sqlite:////no/such/folder/x.db"]) == 1  # a database that cannot be opened
    assert main(["serve", "--static", "/no/such/folder"]) == 2
    assert main(["serve", "--review-deals", "1"]) == 2 and main(["serve", "--review-deals", "-2"]) == 2
    err = capsys.readouterr().err
    assert "--port must be" in err and "cannot open the database: (sqlite3.OperationalError)" in err
    assert "--db 'nope://x' is not a database URL this server can use" in err and "no such directory" in err
    assert "--review-deals is 0 (weigh nothing) or at least 2, not 1" in err
    assert "--buy-seconds must be a number from 0 to 600" in err  # the option's name, not the setting's


def test_the_coachs_review_is_worked_out_once_a_seat(tmp_path: Path) -> None:
    """A finished game's review: worked out in a task of its own (a second ask meanwhile is told it
    is on its way), kept (the same answer again, without the coach's work), one per seat, and not sent
    to a connection that has moved on to another table."""
    game = play_game(preset("isra-junior"), 3, 3, seats=[ExpertPlayer(s) for s in range(3)])
    names = ["Ann", "Bo", "Cy"]
    storage = Storage(f"sqlite:///{tmp_path / 's.sqlite3'}")
    try:
        storage.create_game("g1", "inv", {"preset": "isra-junior"}, 3, {}, [
            SeatRow(0, "human", None, "Ann", hash_token("t0")), SeatRow(1, "human", None, "Bo", hash_token("t1")),
            SeatRow(2, "bot", "greedy", "Cy", None)])
        texts = [str(a) for a in game.actions]
        storage.append_actions([("g1", n, t, n == len(texts) - 1) for n, t in enumerate(texts)])

        async def run() -> tuple[list[object], list[object], list[object], int]:
            manager = Manager(storage, review_deals=0)  # the review without its costs (the test below weighs)
            table = manager.load("g1")
            assert table is not None and table.status == "over"
            ann, bo, gone = Conn(), Conn(), Conn()
            for conn, seat in ((ann, 0), (bo, 1), (gone, 1)):
                conn.table, conn.seat = table, seat
            await manager.handle(ann, {"type": "review", "id": 1})
            await manager.handle(ann, {"type": "review", "id": 2})  # while the coach works on the first
            await asyncio.gather(*manager._tasks)
            await manager.handle(ann, {"type": "review", "id": 3})
            await manager.handle(bo, {"type": "review", "id": 4})
            await manager.handle(gone, {"type": "review", "id": 5})
            gone.table = None  # a rematch took it elsewhere while the coach worked
            await asyncio.gather(*manager._tasks)
            return list(ann.outbox), list(bo.outbox), list(gone.outbox), manager.reviews_made

        ann, bo, gone, made = asyncio.run(run())
    finally:
        storage.close()
    record = GameRecord.of(game, names)
    pending, first, again = ann
    assert isinstance(pending, dict) and (pending["code"], pending["ref"]) == ("review-pending", 2)
    assert isinstance(first, dict) and isinstance(again, dict)
    assert (first["type"], first["ref"], first["seat"], first["name"]) == ("review", 1, 0, "Ann")
    assert {k: first[k] for k in ("decisions", "agreed", "by_phase", "moves", "weighed")} == \
        review_summary(review(record, 0))
    assert first["weighed"] is None and all(m["cost"] is None for m in first["moves"])
    assert again == {**first, "ref": 3}
    (bos,) = bo
    assert isinstance(bos, dict) and bos["seat"] == 1 and bos["decisions"] == len(review(record, 1))
    assert gone == [] and made == 2  # Ann's once, Bo's once


def _may_i_until(stop: Callable[[Game], bool], seed: int) -> Game:
    game = Game.new(preset("may-i"), 3, seed)
    players = [GreedyPlayer(s) for s in range(3)]
    while not stop(game):
        seat = game.to_act()[0]
        game.apply(players[seat].choose(view(game, seat)))
    return game


def test_take_back_on_a_loaded_table(tmp_path: Path) -> None:
    """The server's take-back: the person's own last discard, removed from the database; not a discard
    that went out (the round is scored), nor one the person did not send (a stand-in's)."""
    def ours(game: Game) -> bool:
        last = game.actions[-1] if game.actions else None
        return isinstance(last, Discard) and last.seat == 0 and not game.round_results
    mid = _may_i_until(ours, 2)
    out = next(g for g in (_may_i_until(lambda g: bool(g.round_results), s) for s in range(20))
               if isinstance(g.actions[-1], Discard))
    storage = Storage(f"sqlite:///{tmp_path / 's.sqlite3'}")
    try:
        for gid, game in (("mid", mid), ("out", out)):
            seat = game.actions[-1].seat
            rows = [SeatRow(s, "human", None, "Ann", hash_token(f"t-{gid}")) if s == seat else
                    SeatRow(s, "bot", "greedy", f"Bot {s}", None) for s in range(3)]
            storage.create_game(gid, f"inv-{gid}", {"preset": "may-i"}, game.seed, {}, rows)
            storage.save_seats(gid, rows, status="playing")
            texts = [str(a) for a in game.actions]
            storage.append_actions([(gid, n, t, False) for n, t in enumerate(texts)])

        async def run() -> tuple[list[object], list[object], int | None, int | None]:
            manager = Manager(storage, Settings(bot_pause=30.0))
            answers = []
            seats = []
            for gid in ("mid", "out"):
                table = manager.load(gid)
                assert table is not None and table.status == "playing" and table.game is not None
                seat = table.game.actions[-1].seat
                conn = Conn()
                conn.table, conn.seat = table, seat
                assert table.take_back_seat() is None  # loaded from the database: not sent by the person here
                table.own_discard = len(table.game.actions) - 1  # as if she had just sent it
                seats.append(table.take_back_seat())
                await manager.handle(conn, {"type": "take_back", "id": 1, "version": table.version})
                answers.append([m for m in conn.outbox if isinstance(m, dict)])
            await manager.shutdown()
            return answers[0], answers[1], seats[0], seats[1]

        mid_answers, out_answers, mid_seat, out_seat = asyncio.run(run())
        assert mid_seat == 0 and out_seat is None
        assert mid_answers[-1]["type"] == "ok" and mid_answers[-1]["version"] == len(mid.actions) - 1
        assert out_answers[-1]["code"] == "no-take-back"
        row = storage.load("mid")
        assert row is not None and row.actions == [str(a) for a in mid.actions[:-1]]  # gone from the database
        row = storage.load("out")
        assert row is not None and len(row.actions) == len(out.actions)
    finally:
        storage.close()
